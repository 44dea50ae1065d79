"""Run a spec on the lab's fleet of test hosts, or list the hosts and their tags.

    verifier fleet --scheduler tcp://ctl:8786 --hosts
    verifier fleet SPEC.yaml --scheduler tcp://ctl:8786 --tags nic=mlx5 [-o results.json]

The results file is the same as `verifier run` writes, each run carrying the host that ran
it.  TLS schedulers (tls://) need --tls-ca/--tls-cert/--tls-key (see docs/fleet.md).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from runners.fleet_host import FleetError, parse_tags, scheduler_host
from verifier.argtypes import output_problem, runs, seconds, wait_seconds


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("spec", nargs="?", help="spec YAML file (from `verifier spec`)")
    p.add_argument("--scheduler", required=True, help="scheduler address, tcp:// or tls://")
    p.add_argument("--tags", default="", help="what a host must have: nic=mlx5,cpu=icelake")
    p.add_argument("--placement", choices=("host", "spread"), default="host",
                   help="host: all runs of a spec on one host (default); spread: any host")
    p.add_argument("--hosts", action="store_true", help="list the connected hosts and exit")
    p.add_argument("--spec-id", default=None, help="which spec of a multi-spec file to run")
    p.add_argument("--runs", type=runs, default=None, help="runs per variant (default: spec)")
    p.add_argument("--duration", type=seconds, default=None,
                   help="seconds per run, replacing the command's own (capped by the spec)")
    p.add_argument("--approve", action="store_true",
                   help="a person approves the spec's setup steps that need approval")
    p.add_argument("--timeout", type=wait_seconds, default=None, help="give up after this many s")
    p.add_argument("-o", "--output", default=None, help="results file (JSON)")
    p.add_argument("--tls-ca", default=None)
    p.add_argument("--tls-cert", default=None)
    p.add_argument("--tls-key", default=None)


def _load(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from claims.spec import SpecError, load_specs

    if not args.spec:
        raise FleetError("a spec file is needed (or --hosts)")
    try:
        specs = load_specs(args.spec)
    except SpecError as e:
        raise FleetError(e.problems[0] if e.problems else "invalid spec") from None
    except OSError as e:
        raise FleetError(f"cannot read {args.spec}: {e.strerror}") from None
    if args.spec_id:
        specs = [s for s in specs if s.id == args.spec_id]
        if not specs:
            raise FleetError(f"no spec {args.spec_id!r} in {args.spec}")
    return specs


def run(args: argparse.Namespace) -> int:
    from verifier.pipeline import FleetBackend, RunSettings, backend_for

    try:
        scheduler_host(args.scheduler)
        bad_output = output_problem(args.output)
        if bad_output:
            raise FleetError(bad_output)
        settings = RunSettings(runner="fleet", scheduler=args.scheduler,
                               tags=parse_tags(args.tags), tls_ca=args.tls_ca,
                               tls_cert=args.tls_cert, tls_key=args.tls_key,
                               placement=args.placement, timeout=args.timeout,
                               approve=args.approve)
        specs = [] if args.hosts else _load(args)
        for s in specs:
            if args.runs is not None:
                s.run.repetitions = args.runs
            if args.duration is not None:
                s.run.duration = args.duration
        with backend_for(settings) as backend:
            assert isinstance(backend, FleetBackend)
            fr = backend.fleet
            if args.hosts:
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
    if args.output:
        if len(results) == 1:
            results[0].save(Path(args.output))
        else:
            for res in results:
                out = Path(args.output)
                res.save(out.with_name(f"{out.stem}-{res.spec.id}{out.suffix}"))
    return 0 if all(r.status == "complete" for r in results) else 1


def _progress(rec) -> None:  # type: ignore[no-untyped-def]
    state = "ok" if rec.ok else f"failed: {rec.error}"
    print(f"  {rec.host or '?'} {rec.variant} #{rec.index}{' (warm-up)' if rec.warmup else ''}"
          f" {state}", file=sys.stderr, flush=True)
