"""`verifier run`: one spec file run on a runner of this machine, the results file written.

The runs go through verifier.pipeline's host backend, as `verifier check` and the bot run
theirs: a fixed number of runs per variant, or with `sequential` the looks of
verifier.sequential until the verdicts hold.  SIGTERM and SIGHUP stop it like Ctrl-C.
"""
from __future__ import annotations

import json
import signal
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claims.spec import Spec
from runners.base import RunnerError
from runners.results import Results
from verifier.pipeline import HostBackend, RunSettings, backend_for, refusal


class RunError(Exception):
    """Bad input or options: one line, exit status 2."""


@dataclass
class RunJob:
    """What `verifier run` was asked to do."""

    spec: str  # a spec YAML file, "-" for stdin
    settings: RunSettings
    output: str | None = None  # the results file; None: the results on stdout
    runs: int | None = None
    sequential: bool = False
    spec_id: str | None = None
    quiet: bool = False


def load_spec(path: str, spec_id: str | None) -> Spec:
    """The one spec of the file (or the one named `spec_id`)."""
    from claims.spec import SpecError, load_specs

    try:
        specs = load_specs(path)
    except SpecError as e:
        raise RunError(str(e).replace("\n", "; ")) from None
    if spec_id:
        specs = [s for s in specs if s.id == spec_id]
        if not specs:
            raise RunError(f"no spec with id {spec_id!r} in {path}")
    if len(specs) > 1:
        ids = ", ".join(s.id for s in specs)
        raise RunError(f"{path} holds {len(specs)} specs; choose one with --spec-id ({ids})")
    return specs[0]


def _check_kernels(settings: RunSettings, spec: Spec) -> None:
    """What the runner would find out only after minutes: `--runner vm` with no kernel for
    a variant boots the host's own kernel for every run (on main, for minutes)."""
    if settings.runner == "vm" and not settings.kernels and not any(
            v.kernel and v.kernel.image for v in spec.variants):
        names = ", ".join(v.name for v in spec.variants)
        raise RunError(f"--runner vm needs --kernel VARIANT=IMAGE (variants: {names}); "
                       "without one every variant boots this host's kernel")


class _Display:
    """rich progress: variant, run i/n, elapsed, last value."""

    def __init__(self, quiet: bool) -> None:
        self.progress = None
        if quiet:
            return
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        from verifier.terminal import raw
        self.progress = Progress(TextColumn("{task.description}"), BarColumn(),
                                 TextColumn("{task.completed}/{task.total}"),
                                 TimeElapsedColumn(), TextColumn("{task.fields[last]}"),
                                 console=Console(file=raw(sys.stderr)), transient=False)
        self.tasks: dict[bool, Any] = {}

    def __call__(self, ev: dict[str, Any]) -> None:
        if self.progress is None:
            return
        key = ev["warmup"]
        if key not in self.tasks:
            self.tasks[key] = self.progress.add_task("warm-up" if key else "runs",
                                                     total=ev["n"], last="")
        last = f"{ev['value']:g}" if ev["value"] is not None else f"failed: {ev['error']}"
        what = "warm-up" if key else "run"
        self.progress.update(self.tasks[key], completed=ev["i"], last=last[:60],
                             description=f"{ev['variant']:<12} {what} {ev['i']}/{ev['n']}")

    def __enter__(self) -> _Display:
        if self.progress is not None:
            self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def summary(results: Results) -> str:
    counted = [r for r in results.runs if not r.warmup]
    ok = sum(r.ok for r in counted)
    line = f"{results.status}: {ok}/{len(counted)} runs ok on {results.runner}"
    return line + (f" ({results.reason})" if results.reason else "")


def run_main(spec: str, settings: RunSettings, output: str | None = None,
             runs: int | None = None, sequential: bool = False, spec_id: str | None = None,
             quiet: bool = False) -> int:
    """`verifier run` as given on the command line: the exit status of `run_spec`, or 2
    with a one-line error for bad options or input."""
    try:
        return run_spec(RunJob(spec, settings, output, runs, sequential, spec_id, quiet))
    except RunError as e:
        print(f"verifier run: {e}", file=sys.stderr)
        return 2


def run_spec(job: RunJob) -> int:
    """Run the spec, write the results; the exit status (verifier.exitcodes)."""
    from verifier.argtypes import output_problem
    from verifier.exitcodes import for_results

    bad_output = output_problem(job.output)
    if bad_output:
        raise RunError(bad_output)
    spec = load_spec(job.spec, job.spec_id)
    _check_kernels(job.settings, spec)
    try:
        backend = backend_for(job.settings, sequential=job.sequential, runs=job.runs)
        assert isinstance(backend, HostBackend)  # verifier run offers this host's runners
        backend.prepare_runner()  # what only making the runner finds out, said now
    except (ValueError, RunnerError) as e:
        raise RunError(str(e)) from None
    with backend:
        why = refusal(spec, job.settings.approve)
        if why:
            print(f"verifier run: {why}", file=sys.stderr)
            return 3
        old = {s: signal.signal(s, _raise_interrupt) for s in (signal.SIGTERM, signal.SIGHUP)}
        try:
            with _Display(job.quiet) as display:
                backend.progress = display
                results = backend.run(spec)
        finally:
            for s, h in old.items():
                signal.signal(s, h)
    if job.output:
        results.save(Path(job.output))
    print(summary(results), file=sys.stderr)
    if not job.output:  # the results on stdout, for a pipe or a quick look
        print(json.dumps(results.to_dict(), indent=1))
    if results.status == "interrupted":
        return 130
    if job.sequential and results.status == "complete":
        return for_results(results.status, results.verdicts)
    return {"complete": 0, "not-runnable": 4}.get(results.status, 1)
