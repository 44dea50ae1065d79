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

from verifier.argtypes import runs
from verifier.options import add_fleet, add_host_runner, add_inbox, add_run_limits
from verifier.report import FORMATS


def add_arguments(p: argparse.ArgumentParser) -> None:
    from runners.factory import KINDS
    from verifier.exitcodes import HELP

    p.epilog = HELP
    p.add_argument("target", help="a file (mbox, .eml, archive page, text), a Message-ID or URL")
    p.add_argument("--runner", choices=(*KINDS, "fleet"), default="netns")
    add_fleet(p, required=False)
    add_host_runner(p)
    p.add_argument("--tree", default=None,
                   help="vm: your kernel git repository; the base and base + the thread's "
                        "series are built from it (in worktrees: your checkout is not touched)")
    p.add_argument("--base", default=None, help="vm --tree: base commit or branch, "
                                                "overriding the thread's base-commit/tree")
    p.add_argument("--jobs", type=int, default=None, help="vm --tree: make -j for the builds")
    add_run_limits(p, repetitions=False)
    p.add_argument("--max-runs", type=runs, default=None,
                   help="most runs per variant (default: the spec's, 30)")
    p.add_argument("--calibrate", action=argparse.BooleanOptionalAction, default=True,
                   help="first measure the noise band with A/A runs of the baseline "
                        "(cached; the default; --no-calibrate: the 1%% floor band)")
    p.add_argument("--format", choices=FORMATS, default="email", help="report printed")
    p.add_argument("--out", default="check-out",
                   help="folder for results-<spec>.json, reports and the outbox")
    add_inbox(p, "public-inbox base URL for Message-IDs")


def run(args: argparse.Namespace) -> int:
    from verifier.check import check_main
    from verifier.pipeline import RunSettings, SettingsError

    try:
        return check_main(args.target, RunSettings.from_text(
            runner=args.runner, duration=args.duration, max_runs=args.max_runs,
            approve=args.approve, calibrate=args.calibrate, netem=args.netem, hosts=args.hosts,
            ssh_config=args.ssh_config, kernels=args.kernel, scheduler=args.scheduler,
            tags=args.tags, tls_ca=args.tls_ca, tls_cert=args.tls_cert, tls_key=args.tls_key),
            args.out, args.format, args.inbox, args.spec_id, args.tree, args.base, args.jobs)
    except SettingsError as e:
        print(f"verifier check: {e}", file=sys.stderr)
        return 2
