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
import sys
from pathlib import Path

from verifier.argtypes import role_hosts, runs, seconds
from verifier.report import FORMATS


def add_arguments(p: argparse.ArgumentParser) -> None:
    from verifier.exitcodes import HELP

    p.epilog = HELP
    p.add_argument("target", help="a file (mbox, .eml, archive page, text), a Message-ID or URL")
    from runners.factory import KINDS

    p.add_argument("--runner", choices=(*KINDS, "fleet"), default="netns")
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


def run(args: argparse.Namespace) -> int:
    from verifier.check import Check, CheckError, check
    from verifier.pipeline import RunSettings

    try:
        settings = RunSettings(
            runner=args.runner, duration=args.duration, max_runs=args.max_runs,
            approve=args.approve, calibrate=args.calibrate, netem=args.netem,
            hosts=_hosts(args.hosts), ssh_config=args.ssh_config, kernels=args.kernel,
            scheduler=args.scheduler, tags=_tags(args.tags), tls_ca=args.tls_ca,
            tls_cert=args.tls_cert, tls_key=args.tls_key)
        return check(Check(args.target, settings, Path(args.out), args.format, args.inbox,
                           args.spec_id, args.tree, args.base, args.jobs))
    except CheckError as e:
        print(f"verifier check: {e}", file=sys.stderr)
        return 2


def _tags(text: str) -> list[str]:
    from runners.fleet_host import FleetError, parse_tags
    from verifier.check import CheckError

    try:
        return parse_tags(text)
    except FleetError as e:
        raise CheckError(f"--tags: {e}") from None


def _hosts(text: str | None) -> dict[str, str]:
    from verifier.check import CheckError

    try:
        return role_hosts(text)
    except ValueError as e:
        raise CheckError(str(e)) from None
