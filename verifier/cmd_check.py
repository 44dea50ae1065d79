"""From a thread to a verdict: fetch, extract, spec, run, judge, report, reply (dry run).

    verifier check <msgid|URL|file> --runner netns [--duration 2] [--out DIR]

Each claim's spec runs on the runner, after an A/A calibration of the noise band
(cached; --no-calibrate skips it), with sequential looks (5 to 30 runs per variant)
until its verdict holds; the report is printed and the reply .eml is written to
the outbox (send it with `verifier reply RESULTS --send`).  Specs this runner cannot run
end as NOT RUNNABLE HERE with the reason.
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
from functools import partial
from pathlib import Path
from typing import Any

from verifier.argtypes import runs, seconds
from verifier.report import FORMATS, render


def add_arguments(p: argparse.ArgumentParser) -> None:
    from verifier.exitcodes import HELP

    p.epilog = HELP
    p.add_argument("target", help="a file (mbox, .eml, archive page, text), a Message-ID or URL")
    from verifier.cmd_run import RUNNERS

    p.add_argument("--runner", choices=(*RUNNERS, "fleet"), default="netns")
    p.add_argument("--scheduler", default=None,
                   help="fleet: the lab's dask scheduler, tcp://ctl:8786 or tls://...")
    p.add_argument("--tags", default="", help="fleet: what a host must have, nic=mlx5,cpu=icelake")
    p.add_argument("--tls-ca", default=None, help="fleet: CA for a tls:// scheduler")
    p.add_argument("--tls-cert", default=None, help="fleet: this controller's certificate")
    p.add_argument("--tls-key", default=None, help="fleet: this controller's key")
    p.add_argument("--hosts", default=None, help="ssh: roles to hosts, client=H1,server=H2")
    p.add_argument("--ssh-config", default=None, help="ssh: an ssh_config file (ssh -F)")
    p.add_argument("--netem", default=None, help="netns: shaping, e.g. delay=1ms,rate=1gbit")
    p.add_argument("--kernel", action="append", default=[], metavar="VARIANT=IMAGE",
                   help="vm: the kernel image a variant boots (repeat per variant)")
    p.add_argument("--tree", default=None,
                   help="vm: your kernel git repository; the base and base + the thread's "
                        "series are built from it (in worktrees: your checkout is not touched)")
    p.add_argument("--base", default=None, help="vm --tree: base commit or branch, "
                                                "overriding the thread's base-commit/tree")
    p.add_argument("--jobs", type=int, default=None, help="vm --tree: make -j for the builds")
    p.add_argument("--duration", type=seconds, default=None,
                   help="seconds per run, replacing the mail's own (capped by the spec)")
    p.add_argument("--max-runs", type=runs, default=None,
                   help="most runs per variant (default: the spec's, 30)")
    p.add_argument("--spec-id", default=None, help="check only this spec")
    p.add_argument("--approve", action="store_true",
                   help="a person approves setup steps that need approval")
    p.add_argument("--calibrate", action=argparse.BooleanOptionalAction, default=True,
                   help="first measure the noise band with A/A runs of the baseline "
                        "(cached; the default; --no-calibrate: the 1%% floor band)")
    p.add_argument("--format", choices=FORMATS, default="email", help="report printed")
    p.add_argument("--out", default="check-out",
                   help="folder for results-<spec>.json, reports and the outbox")
    p.add_argument("--inbox", default=None, help="public-inbox base URL for Message-IDs")


def _messages(target: str, inbox: str | None) -> tuple[str, list[Any]]:
    """(where the thread is on disk, "-" for stdin; its messages)."""
    from claims.sources import InputError, iter_messages

    path = target
    remote = target.startswith(("http://", "https://")) or (
        "@" in target and "/" not in target and not Path(target).exists())
    if not remote and target != "-" and not Path(target).exists():
        raise ValueError(f"{target}: no such file (and not a Message-ID or URL)")
    if remote:
        from verifier.fetch import FetchError, fetch_thread
        try:
            path = str(fetch_thread(target, inbox=inbox))
        except FetchError as e:
            raise ValueError(str(e)) from None
    try:
        return path, list(iter_messages(path))
    except (InputError, OSError) as e:
        raise ValueError(str(e)) from None


def _specs(messages: list[Any]) -> list[Any]:
    """Specs of the claims each message makes itself (quoted claims go to their origin)."""
    from claims.extract import extract_message
    from claims.specbuild import build_specs
    from verifier.thread import attribute_claims, build_thread

    extractions = [extract_message(m) for m in messages]
    if len(messages) > 1:
        owned = {id(tc.claim) for tc in attribute_claims(build_thread(messages), extractions)}
        for ex in extractions:
            ex.claims = [c for c in ex.claims if id(c) in owned]
    return build_specs(extractions)


def _runner_args(args: argparse.Namespace) -> argparse.Namespace:
    return argparse.Namespace(runner=args.runner, hosts=args.hosts,
                              ssh_config=args.ssh_config, netem=args.netem,
                              kernel=args.kernel)


def _calibration(spec: Any, runner: Any, res: Any, duration: float | None) -> dict | None:
    from verifier.calibration import calibrate_on

    return calibrate_on(spec, runner, res, duration)


def check_spec(spec: Any, args: argparse.Namespace, messages: list[Any]) -> Any:
    """Run one spec sequentially and judge it; the runner is always closed."""
    from runners.execute import execute, new_results
    from runners.process import kill_all
    from runners.results import Results
    from verifier.cmd_run import _safety_problems, make_runner
    from verifier.sequential import run_sequential
    from verifier.verdict import judge

    if args.max_runs:
        spec.run.max_repetitions = max(2, args.max_runs)
        spec.run.repetitions = min(spec.run.repetitions, spec.run.max_repetitions)
    problems = _safety_problems(spec, args.approve)
    if args.runner == "fleet":
        return _check_on_fleet(spec, args, problems)
    if getattr(args, "blocked", None):
        return _not_runnable(spec, args.runner, args.blocked)
    runner = make_runner(_runner_args(args))
    res: Results = new_results(spec, runner)
    if problems:
        res.status, res.reason = "not-runnable", "refused: " + "; ".join(problems)
        res.verdicts = judge(res)
        return res
    load = {"before": list(os.getloadavg())}  # the report shows how busy the host was
    try:
        # the A/A calibration runs before the looks (after the environment probe that
        # keys its cache), so the looks use its noise band
        calibrate = ((lambda: _calibration(spec, runner, res, args.duration))
                     if args.calibrate else None)
        execute(spec, runner, duration=args.duration, approve=args.approve, results=res,
                stopping=partial(run_sequential, calibrate=calibrate))
    except KeyboardInterrupt:
        res.status, res.reason = "interrupted", "interrupted by a signal"
    finally:
        for s in (signal.SIGINT, signal.SIGTERM):
            signal.signal(s, signal.SIG_IGN)
        runner.close()
        kill_all()
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
    res.environment["load"] = {**load, "after": list(os.getloadavg())}
    res.verdicts = judge(res, res.calibration or None)
    return res


def _not_runnable(spec: Any, runner: str, reason: str) -> Any:
    """A judged result that says why nothing ran (refused, series does not apply)."""
    from runners.results import Results
    from verifier.verdict import judge

    res = Results(spec=spec.to_dict(), runner=runner, status="not-runnable", reason=reason)
    res.verdicts = judge(res)
    return res


def _check_on_fleet(spec: Any, args: argparse.Namespace, problems: list[str]) -> Any:
    """The lab's hosts run the spec's plan (each host re-validates it); judged here."""
    from runners.fleet import FleetRunner
    from runners.fleet_host import FleetError, parse_tags, security_from
    from verifier.verdict import judge

    if problems:
        return _not_runnable(spec, "fleet", "refused: " + "; ".join(problems))
    if not args.scheduler:
        raise ValueError("--runner fleet needs --scheduler tcp://HOST:PORT")
    if args.max_runs:
        spec.run.repetitions = spec.run.max_repetitions
    if args.duration:
        spec.run.duration = min(args.duration, spec.run.duration_cap)
    try:
        security = security_from(args.tls_ca, args.tls_cert, args.tls_key, "client")
        fleet = FleetRunner(args.scheduler, parse_tags(args.tags), security=security,
                            approve=args.approve)
        try:
            res = fleet.run(spec)
        finally:
            fleet.close()
    except FleetError as e:
        raise ValueError(str(e)) from None
    res.verdicts = judge(res)
    return res


def _thread_kernels(args: argparse.Namespace, source: str, messages: list[Any],
                    specs: list[Any], out: Path) -> tuple[Any, str | None]:
    """(Kernels, None) built from --tree for the thread's series, or (None, "does not
    apply to <base>: <reason>") when git am refuses it; KernelError for anything else."""
    import tempfile

    from verifier.kernel import (
        KernelError,
        NotApplicable,
        as_mbox,
        kernels_for,
        midmask_for,
        series_target,
    )

    root = next((m.message_id for m in messages if m.message_id), None)
    target = series_target(specs, root)
    if not target:
        raise KernelError("--tree: no Message-ID in the thread names its series")
    mbox = None if source == "-" else as_mbox(Path(source), out / "thread.mbox")
    subject = next((m.subject for m in messages if m.subject), None)
    print(f"verifier check: building the base and <{target}> applied from {args.tree} "
          f"(vng --build; cached by commit and config)...", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="verifier-kernels-") as work:
        try:
            return kernels_for(target, Path(args.tree).expanduser(), Path(work), mbox=mbox,
                               midmask=midmask_for(args.inbox), subject=subject, base=args.base,
                               jobs=args.jobs), None
        except NotApplicable as e:
            return None, str(e)


def _with_kernels(spec: Any, args: argparse.Namespace, built: Any,
                  blocked: str | None) -> argparse.Namespace:
    """`args` for one spec: each variant's --kernel from the built pair, or the reason
    the series cannot run."""
    from verifier.kernel import variant_images

    if blocked:
        return argparse.Namespace(**{**vars(args), "blocked": blocked})
    images = variant_images(spec, built)
    return argparse.Namespace(**{**vars(args), "kernel": [f"{v}={p}" for v, p in images.items()]})


def run(args: argparse.Namespace) -> int:
    from verifier import exitcodes
    from verifier.kernel import KernelError
    from verifier.reply import ReplyError, reply

    if args.tree and args.runner != "vm":
        print("verifier check: --tree builds kernels for --runner vm", file=sys.stderr)
        return 2
    if args.runner == "fleet" and getattr(args, "scheduler", None):
        from runners.fleet_host import FleetError, scheduler_host
        try:
            scheduler_host(args.scheduler)
        except FleetError as e:
            print(f"verifier check: {e}", file=sys.stderr)
            return 2
    try:
        source, messages = _messages(args.target, args.inbox)
        specs = _specs(messages)
    except ValueError as e:
        print(f"verifier check: {e}", file=sys.stderr)
        return 2
    if args.spec_id:
        specs = [s for s in specs if s.id == args.spec_id]
    if not specs:
        print(f"verifier check: no performance claim to check in {args.target}",
              file=sys.stderr)
        return exitcodes.OK
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        print(f"verifier check: cannot use {out}: {e.strerror}", file=sys.stderr)
        return 2
    built, blocked = None, None
    if args.tree:
        try:
            built, blocked = _thread_kernels(args, source, messages, specs, out)
        except (KernelError, OSError) as e:
            print(f"verifier check: {e}", file=sys.stderr)
            return 2
    codes = []
    for spec in specs:
        print(f"verifier check: {spec.id} on {args.runner}...", file=sys.stderr)
        spec_args = _with_kernels(spec, args, built, blocked) if args.tree else args
        try:
            res = check_spec(spec, spec_args, messages)
            if built is not None:
                res.environment["series"] = built.summary()
        except ValueError as e:  # the runner could not be made (bad --hosts, ...)
            print(f"verifier check: {e}", file=sys.stderr)
            return 2
        path = out / f"results-{spec.id}.json"
        res.save(path)
        text = render(res, args.format)
        (out / f"report-{spec.id}.{ {'email': 'txt', 'markdown': 'md'}.get(args.format, 'html')}"
         ).write_text(text)
        sys.stdout.write(text + "\n")
        try:
            r = reply(res, out / "outbox", send=False, thread=messages)
            print(f"reply: {r.path}" + (f" {r.message[r.message.find('(undeliverable'):]}"
                                         if "undeliverable" in r.message else ""))
        except ReplyError as e:
            print(f"reply: not written: {e}")
        print(f"results: {path}")
        codes.append(exitcodes.for_results(res.status, res.verdicts))
    return exitcodes.worst(codes)
