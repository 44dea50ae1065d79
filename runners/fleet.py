"""The `fleet` runner: a lab of test hosts, each a dask.distributed worker.

The bot does not schedule machines itself.  Each repetition of a spec becomes one dask task
that requires the resources the spec needs (tags such as `nic=mlx5`, the benchmark's tool,
and `bench`, of which every host has exactly one), so dask sends it only to matching hosts
and never runs two benchmarks on one host at once, while different hosts run in parallel.

Placement: "host" (default) pins all runs of one spec to one matching host (required
resource `host-<name>`), because a baseline and a candidate measured on different machines
compare machines, not patches; several specs then spread over the lab.  "spread" lets
every repetition go to any matching host (fast, for calibration and throughput).

A worker lost mid-run: dask re-runs the task on another matching host ("spread") or when
the host comes back ("host").  Every start is announced on an event topic, so the
controller records each lost attempt as a failed RunRecord ("worker lost") next to the
attempt that finished; results are gathered exactly once per task key, so no sample is
counted twice or lost.
"""
from __future__ import annotations

import random
import threading
import time
import uuid
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from claims.shell import invocation
from claims.spec import Spec
from claims.tools import Refused
from runners import effect
from runners.execute import abba_order, settle_failed
from runners.fleet_host import (
    BENCH,
    FleetError,
    execute_run,
    host_resource,
    parse_tags,
    validate_spec,
)
from runners.results import FailureKind, Results, RunRecord, RunStatus

START_TOPIC = "verifier-fleet-start"
LOST = "worker lost"
INTERRUPTED = "interrupted"
CANCELLED = "FutureCancelledError"  # a run stopped from outside (FailureKind.CUT)


@dataclass(frozen=True)
class RunItem:
    """One repetition to run: which variant, its position in the executed order."""

    variant: str
    index: int
    warmup: bool = False


@dataclass
class _Started:
    host: str
    address: str
    started: float


class StartLog:
    """Starts announced on START_TOPIC, kept for the tasks this controller has in flight.

    Every host's starts reach every controller; a key not tracked here is another
    controller's run.  The event handler runs on dask's thread, hence the lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._inflight: set[str] = set()
        self._starts: dict[str, list[_Started]] = {}

    def track(self, key: str) -> None:
        with self._lock:
            self._inflight.add(key)

    def on_start(self, event: tuple[float, dict[str, Any]]) -> None:
        msg = event[1]
        with self._lock:
            if msg.get("key") not in self._inflight:
                return
            self._starts.setdefault(msg["key"], []).append(
                _Started(msg["host"], msg["address"], float(msg["started"])))

    def pop(self, key: str) -> list[_Started]:
        """The starts of a finished task, oldest first; forgotten here."""
        with self._lock:
            return sorted(self._starts.pop(key, []), key=lambda s: s.started)

    def forget(self, keys: Iterable[str]) -> None:
        with self._lock:
            for key in keys:
                self._inflight.discard(key)
                self._starts.pop(key, None)

    def first_host(self) -> str | None:
        """A host that has started one of our runs, if any has."""
        with self._lock:
            return next((s.host for v in self._starts.values() for s in v), None)


def fleet_task(spec_data: dict[str, Any], item: tuple[str, int, bool], batch: int,
               key: str, approve: bool = False) -> dict[str, Any]:
    """Runs on a worker: announce the start, re-validate and run, return the record."""
    from distributed import get_worker

    w = get_worker()
    host = str(w.name)
    started = time.time()
    w.log_event(START_TOPIC, {"key": key, "host": host, "address": w.address,
                              "started": started})
    variant, index, warmup = item
    rec = execute_run(spec_data, variant, index, warmup, batch, host, approve)
    return {"record": rec, "address": w.address, "started": started}


def plan_items(spec: Spec, names: list[str] | None = None, n: int | None = None,
               batch: int = 0, start: int = 0) -> list[RunItem]:
    """The runs in the local runner's order: warm-ups (first batch only), then `n` runs of
    each variant in ABBA blocks seeded like runners.execute, so drift hits every variant
    alike and a pinned host runs them in that order."""
    names = names or [v.name for v in spec.variants]
    order: list[tuple[str, bool]] = []
    for warm, count in ((True, spec.run.warmup if batch == 0 and n is None else 0),
                        (False, spec.run.repetitions if n is None else n)):
        if count > 0:
            rng = random.Random(f"{spec.run.seed}:{batch}:{int(warm)}")
            order += [(name, warm) for name in abba_order(names, count, rng)]
    return [RunItem(name, start + i, warm) for i, (name, warm) in enumerate(order)]


def _record(data: dict[str, Any]) -> RunRecord:
    names = {f.name for f in fields(RunRecord)}
    return RunRecord(**{k: v for k, v in data.items() if k in names})


def _set_attempt(rec: RunRecord, attempt: int) -> None:
    if "attempt" in {f.name for f in fields(RunRecord)}:
        rec.attempt = attempt  # type: ignore[attr-defined]


@dataclass
class FleetRunner:
    """Dispatches specs to the lab's workers through a dask scheduler."""

    scheduler: str
    tags: list[str] = field(default_factory=list)
    placement: str = "host"  # host | spread
    security: Any = None  # distributed.security.Security for tls:// schedulers
    timeout: float | None = None  # seconds for a whole run() before giving up
    approve: bool = False  # a person's --approve, forwarded to the hosts
    connect_timeout: float = 10.0
    name: str = "fleet"

    def __post_init__(self) -> None:
        if self.placement not in ("host", "spread"):
            raise FleetError(f"unknown placement {self.placement!r} (host or spread)")
        self.tags = parse_tags(",".join(self.tags)) if self.tags else []
        self._client: Any = None
        self.starts = StartLog()
        self._lock = threading.Lock()  # guards _pinned
        self._pinned: dict[str, int] = {}

    # -- connection ----------------------------------------------------------------------
    def connect(self) -> Any:
        if self._client is None:
            from distributed import Client

            try:
                self._client = Client(self.scheduler, security=self.security,
                                      timeout=self.connect_timeout, set_as_default=False)
            except (OSError, TimeoutError) as e:
                raise FleetError(f"cannot reach the fleet scheduler {self.scheduler}: "
                                 f"{str(e).splitlines()[0] if str(e) else type(e).__name__}"
                                 ) from None
            self._client.subscribe_topic(START_TOPIC, self.starts.on_start)
        return self._client

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def __enter__(self) -> FleetRunner:
        self.connect()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what the lab has ----------------------------------------------------------------
    def hosts(self) -> dict[str, dict[str, Any]]:
        """Connected hosts: name -> address and tags (resources other than bookkeeping)."""
        info = self.connect().scheduler_info(n_workers=-1)["workers"]
        out: dict[str, dict[str, Any]] = {}
        for addr, w in info.items():
            res = w.get("resources") or {}
            name = str(w.get("name", addr))
            tags = sorted(t for t in res if t != BENCH and t != host_resource(name))
            out[name] = {"address": addr, "tags": tags}
        return out

    def requirements(self, spec: Spec) -> list[str]:
        """Tags a host must have for this spec: the operator's and the benchmark's tools."""
        need = list(self.tags)
        for cmd in (spec.benchmark, spec.server):
            if cmd is not None and cmd.argv:  # `perf stat netperf ...` needs both programs
                program = cmd.argv[0].rsplit("/", 1)[-1]
                need += [f"tool:{program}", f"tool:{invocation(cmd.argv).program}"]
        return sorted(set(need) - {"tool:"})

    def matching_hosts(self, spec: Spec) -> list[str]:
        need = set(self.requirements(spec))
        return sorted(n for n, h in self.hosts().items() if need <= set(h["tags"]))

    def _choose_host(self, spec: Spec) -> str:
        hosts = self.matching_hosts(spec)
        if not hosts:
            raise FleetError(f"no host in the fleet has {', '.join(self.requirements(spec))}")
        with self._lock:
            host = min(hosts, key=lambda h: (self._pinned.get(h, 0), h))
            self._pinned[host] = self._pinned.get(host, 0) + 1
        return host

    # -- running -------------------------------------------------------------------------
    def run(self, spec: Spec, on_record: Callable[[RunRecord], None] | None = None,
            skip: Collection[int] = ()) -> Results:
        """Run a spec's whole plan on the lab and return its Results; `skip` names plan
        positions already run (a resumed claim), which are not dispatched again."""
        return self.run_many([spec], on_record, [skip])[0]

    def run_many(self, specs: Iterable[Spec],
                 on_record: Callable[[RunRecord], None] | None = None,
                 skips: Sequence[Collection[int]] | None = None) -> list[Results]:
        """Run several specs at once: each on its own host(s), in parallel across the lab."""
        specs = list(specs)
        skips = list(skips or [()] * len(specs))
        results = [Results(spec=s, runner=self.name,
                           environment={"scheduler": self.scheduler, "placement": self.placement,
                                        "tags": self.tags},
                           created=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
                   for s in specs]
        jobs = []
        for s, res, skip in zip(specs, results, skips, strict=True):
            try:
                validate_spec(s, self.approve)
            except Refused as e:
                res.status, res.reason = RunStatus.NOT_RUNNABLE, str(e)
                continue
            jobs.append((s, [it for it in plan_items(s) if it.index not in skip], res))
        if not jobs:
            return results
        by_spec = self._dispatch([(s, items) for s, items, _ in jobs], 0, on_record)
        known = self.hosts()
        for (s, _, res), recs in zip(jobs, by_spec, strict=True):
            _settle(self, s, res, recs, known)
        return results

    def run_batch(self, spec: Spec, variant_names: list[str], n: int,
                  results: Results | None = None, *, batch: int = 0,
                  on_record: Callable[[RunRecord], None] | None = None) -> list[RunRecord]:
        """`n` more runs of each named variant (the statistics asked for another batch),
        appended to `results` like runners.execute.run_batch does."""
        start = len(results.runs) if results is not None else 0
        items = plan_items(spec, variant_names, n, batch, start)
        recs = self._dispatch([(spec, items)], batch, on_record)[0]
        if results is not None:
            results.runs.extend(recs)
        return recs

    def _dispatch(self, jobs: list[tuple[Spec, list[RunItem]]], batch: int,
                  on_record: Callable[[RunRecord], None] | None) -> list[list[RunRecord]]:
        from distributed import as_completed

        client = self.connect()
        token = uuid.uuid4().hex[:8]
        futures = {}
        pinned: list[str] = []
        try:
            for n, (spec, items) in enumerate(jobs):
                resources = {BENCH: 1, **{t: 1 for t in self.requirements(spec)}}
                if self.placement == "host":
                    host = self._choose_host(spec)
                    pinned.append(host)
                    resources[host_resource(host)] = 1
                elif not self.matching_hosts(spec):
                    raise FleetError(f"no host in the fleet has "
                                     f"{', '.join(self.requirements(spec))}")
                data = spec.to_dict()
                for it in items:
                    key = f"fleet-{spec.id}-{token}-b{batch}-{it.variant}-{it.index}"
                    self.starts.track(key)
                    fut = client.submit(fleet_task, data, (it.variant, it.index, it.warmup),
                                        batch, key, self.approve, key=key,
                                        resources=resources, priority=-it.index,
                                        pure=False, retries=0)
                    futures[fut] = (n, it, key)
            out: list[list[RunRecord]] = [[] for _ in jobs]

            def emit(n: int, recs: list[RunRecord]) -> None:
                for rec in recs:
                    out[n].append(rec)
                    if on_record is not None:
                        on_record(rec)

            try:
                for fut in as_completed(list(futures), timeout=self.timeout, loop=client.loop):
                    n, it, key = futures[fut]
                    emit(n, collect(fut, it, key, batch, self.starts))
                    fut.release()
            except TimeoutError:
                for fut, (n, it, _key) in futures.items():
                    if not fut.done():
                        fut.cancel()
                        emit(n, [RunRecord(variant=it.variant, index=it.index, warmup=it.warmup,
                                           ok=False, batch=batch, ended=time.time(),
                                           error=f"{INTERRUPTED}: no result within "
                                                 f"{self.timeout:g} s",
                                           failure=FailureKind.CUT)])
            return out
        finally:
            for fut in futures:
                if not fut.done():
                    fut.cancel()
            with self._lock:
                for h in pinned:
                    self._pinned[h] -= 1
            self.starts.forget(key for _n, _it, key in futures.values())


def _settle(runner: FleetRunner, spec: Spec, res: Results, recs: list[RunRecord],
            known: dict[str, dict[str, Any]]) -> None:
    """A spec's gathered records into its Results: runs in plan order, the hosts that ran
    them, and the status (cut, failed, or judged by the hosts' counters)."""
    res.runs = sorted(recs, key=lambda r: (r.index, r.started))
    # "hosts" is role -> host environment in every results file; the lab's host names go
    # beside it.
    res.environment["fleet_hosts"] = sorted({r.host for r in recs if r.host})
    res.environment["host_tags"] = {h: known.get(h, {}).get("tags")
                                    for h in res.environment["fleet_hosts"]}
    cut = [r for r in recs if r.failure == FailureKind.CUT]
    if cut:
        res.status, res.reason = RunStatus.INTERRUPTED, cut[0].error
    elif settle_failed(res):
        inert = [r.error for r in res.runs if r.error and r.error.startswith("Inert on ")]
        if inert:  # a host could not make the setup act: NOT RUNNABLE HERE
            effect.not_acting(runner, spec.variants, res, inert[0].removeprefix("Inert on "))
    else:  # the hosts' counters must show that each variant's setup acted
        effect.judge_results(runner, spec.variants, res)


def collect(fut: Any, it: RunItem, key: str, batch: int, starts: StartLog) -> list[RunRecord]:
    """The finished attempt's record, preceded by one failed record per lost attempt.

    A task dask gave up on (KilledWorker) is all losses; a task that never finished for
    another reason (the controller lost the scheduler) is one failed record, its
    starts not counted as lost hosts."""
    final: RunRecord | None = None
    done_at: tuple[str, float] | None = None
    killed = False
    reason = ""
    try:
        payload = fut.result()
        final = _record(payload["record"])
        done_at = (payload["address"], payload["started"])
    except Exception as e:  # KilledWorker, FutureCancelledError, a task error
        killed = type(e).__name__ == "KilledWorker"
        reason = f"{type(e).__name__}: {(str(e).splitlines() or [''])[0]}"
    started = starts.pop(key)
    if final is None and not killed:
        last = started[-1] if started else None
        rec = RunRecord(variant=it.variant, index=it.index, warmup=it.warmup, ok=False,
                        error=reason, host=last.host if last else None,
                        started=last.started if last else 0.0, ended=time.time(),
                        batch=batch,
                        failure=FailureKind.CUT if reason.startswith(CANCELLED) else None)
        return [rec]
    lost = [s for s in started if (s.address, s.started) != done_at]
    recs: list[RunRecord] = []
    for attempt, s in enumerate(lost):
        rec = RunRecord(variant=it.variant, index=it.index, warmup=it.warmup, ok=False,
                        error=f"{LOST}: {s.host} went away during the run", host=s.host,
                        started=s.started, ended=time.time(), batch=batch,
                        failure=FailureKind.LOST)
        _set_attempt(rec, attempt)
        recs.append(rec)
    if final is None:  # dask gave up after its allowed failures
        return recs or [RunRecord(variant=it.variant, index=it.index, warmup=it.warmup,
                                  ok=False, error=LOST, ended=time.time(), batch=batch,
                                  failure=FailureKind.LOST)]
    _set_attempt(final, len(recs))
    recs.append(final)
    return recs
