"""Run a spec for real on a runner (local, netns, ssh) and write the results file.

    verifier run SPEC.yaml --runner netns [-o results.json] [--runs N] [--duration S]
    verifier run SPEC.yaml --runner ssh --hosts client=lab1,server=lab2 [--ssh-config F]

Ctrl-C and SIGTERM stop the run: settings are restored, servers killed, namespaces
deleted, and the runs measured so far are saved with status "interrupted".
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

from claims.spec import Spec
from runners.base import Runner, RunnerError
from runners.results import Results
from verifier.argtypes import output_problem, runs, seconds

RUNNERS = ("local", "netns", "ssh", "vm")


def add_arguments(p: argparse.ArgumentParser) -> None:
    from verifier.exitcodes import HELP

    p.epilog = HELP + "\nWithout --sequential nothing is judged: 0 when the runs completed."
    p.add_argument("spec", help="spec YAML file (from `verifier spec`); '-' for stdin")
    p.add_argument("--runner", choices=RUNNERS, default="netns")
    p.add_argument("--hosts", default=None,
                   help="ssh: roles to hosts, e.g. client=lab1,server=lab2")
    p.add_argument("--ssh-config", default=None, help="ssh: an ssh_config file (ssh -F)")
    p.add_argument("--netem", default=None, help="netns: shaping, e.g. delay=1ms,rate=1gbit")
    p.add_argument("--kernel", action="append", default=[], metavar="VARIANT=IMAGE",
                   help="vm: the kernel image a variant boots (repeat per variant)")
    p.add_argument("--approve", action="store_true",
                   help="a person approves the spec's setup steps that need approval")
    p.add_argument("-o", "--output", default=None,
                   help="results file (JSON; default: the results on stdout)")
    p.add_argument("--runs", type=runs, default=None, help="runs per variant (default: spec)")
    p.add_argument("--duration", type=seconds, default=None,
                   help="seconds per run, replacing the command's own (capped by the spec)")
    p.add_argument("--sequential", action="store_true",
                   help="run batches until the verdicts hold (looks from 5 to 30 runs per variant)"
                        " instead of a fixed --runs, and judge them")
    p.add_argument("--spec-id", default=None, help="which spec of a multi-spec file to run")
    p.add_argument("--quiet", action="store_true", help="no progress display")


def _parse_hosts(text: str | None) -> dict[str, str]:
    hosts: dict[str, str] = {}
    for part in filter(None, (text or "").split(",")):
        role, eq, host = part.partition("=")
        if not eq or not role or not host:
            raise ValueError(f"--hosts: {part!r} is not ROLE=HOST")
        hosts[role.strip()] = host.strip()
    return hosts


def make_runner(args: argparse.Namespace) -> Runner:
    """The runner the command line asks for; ValueError with a one-line reason otherwise."""
    if args.runner == "local":
        from runners.local import LocalRunner
        return LocalRunner()
    if args.runner == "netns":
        from runners.netns import Netem, NetnsRunner
        return NetnsRunner(netem=Netem.parse(args.netem) if args.netem else None)
    if args.runner == "vm":
        from runners.vm import VmRunner, parse_kernels
        return VmRunner(parse_kernels(getattr(args, "kernel", [])))
    from runners.ssh import SshRunner
    hosts = _parse_hosts(args.hosts)
    if not hosts:
        raise ValueError("--runner ssh needs --hosts client=HOST,server=HOST")
    return SshRunner(hosts, config=args.ssh_config)


def _check_runner_args(args: argparse.Namespace, spec: Spec) -> None:
    """What the runner would find out only after minutes: `--runner vm` with no kernel for
    a variant boots the host's own kernel for every run (on main, for minutes)."""
    if args.runner == "vm" and not getattr(args, "kernel", []) and not any(
            v.kernel and v.kernel.image for v in spec.variants):
        names = ", ".join(v.name for v in spec.variants)
        raise ValueError(f"--runner vm needs --kernel VARIANT=IMAGE (variants: {names}); "
                         "without one every variant boots this host's kernel")


def _load(args: argparse.Namespace) -> Spec:
    from claims.spec import SpecError, load_specs
    try:
        specs = load_specs(args.spec)
    except SpecError as e:
        raise ValueError(str(e).replace("\n", "; ")) from None
    if args.spec_id:
        specs = [s for s in specs if s.id == args.spec_id]
        if not specs:
            raise ValueError(f"no spec with id {args.spec_id!r} in {args.spec}")
    if len(specs) > 1:
        ids = ", ".join(s.id for s in specs)
        raise ValueError(f"{args.spec} holds {len(specs)} specs; choose one with --spec-id "
                         f"({ids})")
    return specs[0]


def _safety_problems(spec: Spec, approve: bool) -> list[str]:
    """claims.safety's verdict on the spec, when that module is present."""
    try:
        from claims.safety import check_spec
    except ImportError:
        return []
    return [str(p) for p in check_spec(spec, approve=approve)]


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


def _summary(results: Results) -> str:
    counted = [r for r in results.runs if not r.warmup]
    ok = sum(r.ok for r in counted)
    line = f"{results.status}: {ok}/{len(counted)} runs ok on {results.runner}"
    return line + (f" ({results.reason})" if results.reason else "")


def run(args: argparse.Namespace) -> int:
    from runners.execute import execute, new_results
    from runners.process import kill_all
    from verifier.sequential import run_sequential

    try:
        bad_output = output_problem(args.output)
        if bad_output:
            raise ValueError(bad_output)
        spec = _load(args)
        _check_runner_args(args, spec)
        runner = make_runner(args)
    except (ValueError, RunnerError) as e:
        print(f"verifier run: {e}", file=sys.stderr)
        return 2
    problems = _safety_problems(spec, args.approve)
    if problems:
        print(f"verifier run: refused: {'; '.join(problems)}", file=sys.stderr)
        return 3
    results = new_results(spec, runner)
    old = {s: signal.signal(s, _raise_interrupt) for s in (signal.SIGTERM, signal.SIGHUP)}
    code = 0
    load = {"before": list(os.getloadavg())}  # the report shows how busy the host was
    try:
        with _Display(args.quiet) as display:
            execute(spec, runner, runs=args.runs, duration=args.duration, approve=args.approve,
                    progress=display, results=results, stopping=run_sequential if args.sequential else None)
    except KeyboardInterrupt:
        results.status, results.reason, code = "interrupted", "interrupted by a signal", 130
    except RunnerError as e:
        results.status, results.reason, code = "failed", str(e), 1
    finally:
        # Cleanup with signals ignored, so a second Ctrl-C cannot stop it half-way; then
        # make sure no process we started survives.
        for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(s, signal.SIG_IGN)
        runner.close()
        kill_all()
        for s, h in old.items():
            signal.signal(s, h)
        signal.signal(signal.SIGINT, signal.default_int_handler)
    results.environment["load"] = {**load, "after": list(os.getloadavg())}
    if args.output:
        results.save(Path(args.output))
    print(_summary(results), file=sys.stderr)
    if not args.output:  # the results on stdout, for a pipe or a quick look
        print(json.dumps(results.to_dict(), indent=1))
    if code:
        return code
    if args.sequential and results.status == "complete":
        from verifier.exitcodes import for_results
        return for_results(results.status, results.verdicts)
    return {"complete": 0, "not-runnable": 4}.get(results.status, 1)


def main(argv: list[str] | None = None) -> int:
    """`python -m verifier.cmd_run` works even when other sub-commands fail to import."""
    p = argparse.ArgumentParser(prog="verifier run", description=__doc__)
    add_arguments(p)
    try:
        return run(p.parse_args(argv))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
