"""`verifier fleet`: run specs on the lab's fleet of test hosts (verifier.pipeline's fleet
backend), or list the connected hosts and their tags.

Progress goes to stderr run by run, then one line per spec; the results files are the
ones `verifier run` writes, each run carrying the host that ran it.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from claims.spec import Spec
from runners.fleet_host import FleetError, parse_tags, scheduler_host
from runners.results import Results, RunRecord
from verifier.argtypes import output_problem


@dataclass
class FleetJob:
    """What `verifier fleet` was asked to do."""

    scheduler: str
    spec: str | None = None  # a spec file; None with list_hosts
    tags: str = ""
    placement: str = "host"  # host: all runs of a spec on one host; spread: any host
    list_hosts: bool = False
    spec_id: str | None = None
    runs: int | None = None
    duration: float | None = None
    approve: bool = False
    timeout: float | None = None
    output: str | None = None
    tls_ca: str | None = None
    tls_cert: str | None = None
    tls_key: str | None = None


def fleet(job: FleetJob) -> int:
    """0 when every spec completed (or the hosts were listed), 1 when one did not, 2 on bad
    input or no fleet, with a one-line error."""
    from verifier.pipeline import FleetBackend, RunSettings, backend_for

    try:
        scheduler_host(job.scheduler)
        bad_output = output_problem(job.output)
        if bad_output:
            raise FleetError(bad_output)
        settings = RunSettings(runner="fleet", scheduler=job.scheduler,
                               tags=parse_tags(job.tags), tls_ca=job.tls_ca,
                               tls_cert=job.tls_cert, tls_key=job.tls_key,
                               placement=job.placement, timeout=job.timeout,
                               approve=job.approve)
        specs = [] if job.list_hosts else _load(job)
        with backend_for(settings) as backend:
            assert isinstance(backend, FleetBackend)
            fr = backend.fleet
            if job.list_hosts:
                for name, h in sorted(fr.hosts().items()):
                    print(f"{name}\t{h['address']}\t{','.join(h['tags'])}")
                return 0
            results = fr.run_many(specs, on_record=_progress)
    except (FleetError, ValueError) as e:
        print(f"verifier fleet: {e}", file=sys.stderr)
        return 2
    for res in results:
        counted = [r for r in res.runs if not r.warmup]
        hosts = ",".join(res.environment.get("hosts", [])) or "-"
        print(f"{res.spec.id}: {res.status}: {sum(r.ok for r in counted)}/{len(counted)} runs "
              f"ok on {hosts}" + (f" ({res.reason})" if res.reason else ""), file=sys.stderr)
    if job.output:
        _save(results, Path(job.output))
    return 0 if all(r.status == "complete" for r in results) else 1


def _load(job: FleetJob) -> list[Spec]:
    """The specs to run, with the job's runs and duration written into their run plans."""
    from claims.spec import SpecError, load_specs

    if not job.spec:
        raise FleetError("a spec file is needed (or --hosts)")
    try:
        specs = load_specs(job.spec)
    except SpecError as e:
        raise FleetError(e.problems[0] if e.problems else "invalid spec") from None
    except OSError as e:
        raise FleetError(f"cannot read {job.spec}: {e.strerror}") from None
    if job.spec_id:
        specs = [s for s in specs if s.id == job.spec_id]
        if not specs:
            raise FleetError(f"no spec {job.spec_id!r} in {job.spec}")
    for s in specs:
        if job.runs is not None:
            s.run.repetitions = job.runs
        if job.duration is not None:
            s.run.duration = job.duration
    return specs


def _save(results: list[Results], out: Path) -> None:
    """One results file as named; several as <stem>-<spec id><suffix>."""
    if len(results) == 1:
        results[0].save(out)
        return
    for res in results:
        res.save(out.with_name(f"{out.stem}-{res.spec.id}{out.suffix}"))


def _progress(rec: RunRecord) -> None:
    state = "ok" if rec.ok else f"failed: {rec.error}"
    print(f"  {rec.host or '?'} {rec.variant} #{rec.index}{' (warm-up)' if rec.warmup else ''}"
          f" {state}", file=sys.stderr, flush=True)
