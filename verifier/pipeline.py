"""One way down for `verifier check` and the bot: thread -> specs -> backend -> verdicts.

    specs = thread_specs(messages)             # the one attribution rule
    with backend_for(settings) as backend:     # the one place a runner is made
        results = verify(spec, backend)        # run, then judge once

A backend runs a spec and returns its Results: `HostBackend` on a runner of this machine
(netns, local, ssh, vm) with the sequential looks of verifier.sequential and, when asked,
an A/A calibration first; `FleetBackend` as a fixed plan on the lab's dask workers.  Both
take the runs already stored for a spec (`stored`), so an interrupted claim resumes where
it was, and hand every new record to `on_record` as it completes.
"""
from __future__ import annotations

import fcntl
import logging
import os
import re
import signal
import subprocess
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Protocol

from claims.model import Message
from claims.spec import Spec
from runners.results import Results, RunRecord, RunStatus

log = logging.getLogger("verifier.bot")

OnRecord = Callable[[RunRecord], None]


class BackendError(Exception):
    """The backend cannot run anything (the lab is unreachable); one line for the user."""


class SettingsError(ValueError):
    """A command line's --hosts or --tags cannot be read; one line naming the option."""


def thread_specs(messages: Sequence[Message]) -> list[Spec]:
    """Specs of the claims each message makes itself: a claim quoted in a reply belongs to
    the message that first made it (verifier.thread), so it is checked once.  Spec ids are
    unique across the thread, specs in the order of the messages."""
    from claims.extract import extract_message
    from claims.specbuild import build_specs
    from verifier.thread import attribute_claims, build_thread

    msgs = list(messages)
    extraction = {id(m): extract_message(m) for m in msgs}
    thread = build_thread(msgs)
    # by the thread's own keys: a message without a Message-ID still has its claims
    by_key = {key: extraction[id(node.message)] for key, node in thread.nodes.items()}
    owned = {id(tc.claim) for tc in attribute_claims(thread, by_key)}
    ordered = [extraction[id(m)] for m in msgs]
    for ex in ordered:
        ex.claims = [c for c in ex.claims if id(c) in owned]
    return build_specs(ordered)


@dataclass
class RunSettings:
    """Where and how specs run: `verifier check`'s options or the bot's [bot] table."""

    runner: str = "netns"  # local | netns | ssh | vm | fleet
    duration: float | None = None  # seconds per run, replacing the mail's (capped by spec)
    max_runs: int | None = None  # most runs per variant (the looks stop earlier)
    warmup: int | None = None  # warm-up runs per variant (default: the spec's)
    approve: bool = False  # a person approved the setup steps that need approval
    calibrate: bool = False  # A/A runs of the baseline set the noise band first (cached)
    # host runners
    netns_prefix: str | None = None
    netem: str | None = None
    hosts: dict[str, str] = field(default_factory=dict)  # ssh: role -> host
    ssh_config: str | None = None
    kernels: list[str] = field(default_factory=list)  # vm: VARIANT=IMAGE
    exclusive: Path | None = None  # a lock file: one benchmark at a time across processes
    # the fleet
    scheduler: str | None = None
    tags: list[str] = field(default_factory=list)
    tls_ca: str | None = None
    tls_cert: str | None = None
    tls_key: str | None = None
    placement: str = "host"
    timeout: float | None = None

    @classmethod
    def from_text(cls, *, hosts: str | None = None, tags: str = "",
                  **given: Any) -> RunSettings:
        """The settings a command line gave: --hosts (`client=lab1,server=lab2`) and --tags
        (`nic=mlx5,cpu=icelake`) as typed, the rest as they are; SettingsError names the
        option that is wrong."""
        from runners.fleet_host import FleetError, parse_tags
        from verifier.argtypes import role_hosts

        try:
            roles = role_hosts(hosts)
            wanted = parse_tags(tags)
        except ValueError as e:
            raise SettingsError(str(e)) from None
        except FleetError as e:
            raise SettingsError(f"--tags: {e}") from None
        return cls(hosts=roles, tags=wanted, **given)


class Backend(Protocol):
    """Runs one spec; `stored` are the runs a resumed claim already has."""

    @property
    def name(self) -> str: ...

    @property
    def settings(self) -> RunSettings: ...

    def run(self, spec: Spec, on_record: OnRecord | None = None,
            stored: Sequence[RunRecord] = ()) -> Results: ...

    def close(self) -> None: ...


def latest_attempts(records: Sequence[RunRecord]) -> list[RunRecord]:
    """One record per run position: the last attempt wins."""
    by_idx: dict[int, RunRecord] = {}
    for r in records:
        if r.index not in by_idx or r.attempt >= by_idx[r.index].attempt:
            by_idx[r.index] = r
    return [by_idx[i] for i in sorted(by_idx)]


def apply_limits(spec: Spec, settings: RunSettings) -> None:
    """The settings' run limits written into the spec (so the results file shows them)."""
    if settings.max_runs:
        spec.run.max_repetitions = max(2, settings.max_runs)
        spec.run.repetitions = min(spec.run.repetitions, spec.run.max_repetitions)
    if settings.warmup is not None:
        spec.run.warmup = settings.warmup


@contextmanager
def host_lock(path: Path | None) -> Iterator[None]:
    """One benchmark at a time per host, across processes (no lock without a path)."""
    if path is None:
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _close_shielded(runner: Any) -> None:
    """Close the runner with SIGINT/SIGTERM ignored, so a second Ctrl-C cannot stop the
    cleanup half-way; then make sure no process we started survives.  The handlers in
    place when the cleanup began are put back."""
    from runners.process import kill_all

    sigs = (signal.SIGINT, signal.SIGTERM)
    before = {s: signal.getsignal(s) for s in sigs}
    for s in sigs:
        signal.signal(s, signal.SIG_IGN)
    try:
        runner.close()
        kill_all()
    finally:
        for s, h in before.items():
            signal.signal(s, h if h is not None else signal.SIG_DFL)


@dataclass
class HostBackend:
    """A runner of this machine, the sequential looks (or a fixed number of runs) and the
    calibration; a fresh runner per spec, always closed."""

    settings: RunSettings
    sequential: bool = True  # False: `runs` (or the spec's repetitions), not judged
    runs: int | None = None
    progress: Callable[[dict[str, Any]], None] | None = None  # runners.execute's events
    reraise: bool = False  # an interrupt ends the caller too (the bot), after the cleanup

    def __post_init__(self) -> None:
        self._next: Any = None

    @property
    def name(self) -> str:
        return self.settings.runner

    def prepare_runner(self) -> Any:
        """Make the runner the next run() uses now, so what only making it finds out (no
        kernel image for a vm) is reported before anything else."""
        from runners.factory import make_runner

        s = self.settings
        if self._next is None:
            self._next = make_runner(s.runner, prefix=s.netns_prefix, netem=s.netem,
                                     hosts=s.hosts, ssh_config=s.ssh_config,
                                     kernels=s.kernels)
        return self._next

    def run(self, spec: Spec, on_record: OnRecord | None = None,
            stored: Sequence[RunRecord] = ()) -> Results:
        from runners.base import RunnerError
        from runners.execute import execute, new_results
        from verifier.sequential import run_sequential

        s = self.settings
        if stored and any(r.warmup for r in stored):
            spec.run.warmup = 0  # a resumed claim had its warm-up
        with host_lock(s.exclusive):
            if s.exclusive is not None and s.runner == "netns" and s.netns_prefix:
                remove_stale_namespaces(s.netns_prefix)
            runner, self._next = self.prepare_runner(), None
            results = new_results(spec, runner)
            results.runs = list(stored)

            def progress(ev: dict[str, Any]) -> None:
                if on_record is not None:
                    on_record(results.runs[-1])
                if self.progress is not None:
                    self.progress(ev)

            calibrate = (partial(_calibration, spec, runner, results, s.duration)
                         if s.calibrate and self.sequential else None)
            stopping = partial(run_sequential, calibrate=calibrate) if self.sequential else None
            load = {"before": list(os.getloadavg())}  # the report shows how busy it was
            try:
                execute(spec, runner, runs=self.runs, duration=s.duration, approve=s.approve,
                        progress=progress, results=results, stopping=stopping)
            except KeyboardInterrupt:
                results.status, results.reason = RunStatus.INTERRUPTED, "interrupted by a signal"
                if self.reraise:
                    raise
            except RunnerError as e:
                results.status, results.reason = RunStatus.FAILED, str(e)
            finally:
                _close_shielded(runner)
            results.environment["load"] = {**load, "after": list(os.getloadavg())}
        return results

    def close(self) -> None:
        if self._next is not None:
            self._next.close()
            self._next = None

    def __enter__(self) -> HostBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _calibration(spec: Spec, runner: Any, results: Results,
                 duration: float | None) -> dict[str, Any] | None:
    """A/A runs of the baseline (after the environment probe that keys their cache)."""
    from verifier.calibration import calibrate_on

    return calibrate_on(spec, runner, results, duration)


def remove_stale_namespaces(prefix: str) -> list[str]:
    """Namespaces a killed process with this prefix left behind (taken under the host lock,
    so none of them is in use); their processes are killed first."""
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, timeout=30)
    gone = []
    for line in out.stdout.splitlines():
        name = line.split()[0] if line.split() else ""
        if re.fullmatch(re.escape(prefix) + r"-[0-9a-f]{6}-[cs]", name):
            pids = subprocess.run(["ip", "netns", "pids", name], capture_output=True,
                                  text=True, timeout=30).stdout.split()
            for pid in pids:
                subprocess.run(["kill", "-KILL", pid], capture_output=True, timeout=30)
            subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=30)
            gone.append(name)
    if gone:
        log.info("removed namespaces a stopped run left: %s", ", ".join(gone))
    return gone


class FleetBackend:
    """The lab's dask workers run the spec's fixed plan (each host re-validates it; no
    look-by-look stopping across hosts).  A resumed spec dispatches only the positions
    with no finished record; one whose last attempt was lost or cut gets a new attempt."""

    name = "fleet"

    def __init__(self, settings: RunSettings) -> None:
        from runners.fleet import FleetRunner
        from runners.fleet_host import FleetError, scheduler_host, security_from

        self.settings = settings
        if not settings.scheduler:
            raise ValueError("--runner fleet needs --scheduler tcp://HOST:PORT")
        try:
            scheduler_host(settings.scheduler)
            security = security_from(settings.tls_ca, settings.tls_cert, settings.tls_key,
                                     "client")
            self.fleet = FleetRunner(settings.scheduler, list(settings.tags),
                                     placement=settings.placement, security=security,
                                     timeout=settings.timeout, approve=settings.approve)
        except FleetError as e:
            raise ValueError(str(e)) from None

    def run(self, spec: Spec, on_record: OnRecord | None = None,
            stored: Sequence[RunRecord] = ()) -> Results:
        from runners.execute import settle_failed
        from runners.fleet_host import FleetError

        s = self.settings
        if s.max_runs:
            spec.run.repetitions = spec.run.max_repetitions
        if s.duration:
            spec.run.duration = min(s.duration, spec.run.duration_cap)
        latest = latest_attempts(stored)
        done = {r.index for r in latest if not r.unfinished}
        next_attempt = {r.index: r.attempt + 1 for r in latest}

        def keep(rec: RunRecord) -> None:
            rec.attempt += next_attempt.get(rec.index, 0)
            if on_record is not None:
                on_record(rec)

        try:
            results = self.fleet.run(spec, keep, skip=done)
        except FleetError as e:
            raise BackendError(str(e)) from None
        if stored:
            results.runs = latest_attempts([*stored, *results.runs])
            if results.status == "complete":
                settle_failed(results)
        return results

    def close(self) -> None:
        self.fleet.close()

    def __enter__(self) -> FleetBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def backend_for(settings: RunSettings, **host: Any) -> HostBackend | FleetBackend:
    """The backend the settings name; ValueError with a one-line reason when they are
    wrong.  `host` are HostBackend's own options (sequential, runs, progress, reraise)."""
    if settings.runner == "fleet":
        return FleetBackend(settings)
    from runners.factory import check_options

    check_options(settings.runner, settings.hosts, settings.kernels, settings.netem)
    return HostBackend(settings, **host)


def not_runnable(spec: Spec, runner: str, reason: str) -> Results:
    """Results that say why nothing ran (refused, the series does not apply)."""
    return Results(spec=spec, runner=runner, status=RunStatus.NOT_RUNNABLE, reason=reason)


def refusal(spec: Spec, approve: bool) -> str | None:
    """claims.safety's reason not to run the spec at all, or None."""
    from claims.safety import blocking, check_spec

    problems = blocking(check_spec(spec, approve=approve), approve)
    return "refused: " + "; ".join(str(p) for p in problems) if problems else None


def verify(spec: Spec, backend: Backend, *, on_record: OnRecord | None = None, stored: Sequence[RunRecord] = (),
           blocked: str | None = None) -> Results:
    """Run one spec on `backend` and judge it, once: the sequential looks' verdicts stand
    for complete results; anything else (refused, failed, interrupted, the fleet's fixed
    plan) is judged here.  `blocked` is a reason known before running (the thread's
    series does not apply to the tree)."""
    from verifier.verdict import judge

    apply_limits(spec, backend.settings)
    why = blocked or refusal(spec, backend.settings.approve)
    if why:
        results = not_runnable(spec, backend.name, why)
    else:
        results = backend.run(spec, on_record=on_record, stored=stored)
    if results.status != "complete" or not results.verdicts:
        results.verdicts = judge(results, results.calibration or None)
    return results
