"""Run a spec for real on a runner (local, netns, ssh) and write the results file.

    verifier run SPEC.yaml --runner netns [-o results.json] [--runs N] [--duration S]
    verifier run SPEC.yaml --runner ssh --hosts client=lab1,server=lab2 [--ssh-config F]

Ctrl-C and SIGTERM stop the run: settings are restored, servers killed, namespaces
deleted, and the runs measured so far are saved with status "interrupted".
"""
from __future__ import annotations

import argparse
import sys

from runners.factory import KINDS
from verifier.options import add_host_runner, add_run_limits


def add_arguments(p: argparse.ArgumentParser) -> None:
    from verifier.exitcodes import HELP

    p.epilog = HELP + "\nWithout --sequential nothing is judged: 0 when the runs completed."
    p.add_argument("spec", help="spec YAML file (from `verifier spec`); '-' for stdin")
    p.add_argument("--runner", choices=KINDS, default="netns")
    add_host_runner(p)
    p.add_argument("-o", "--output", default=None,
                   help="results file (JSON; default: the results on stdout)")
    add_run_limits(p)
    p.add_argument("--sequential", action="store_true",
                   help="run batches until the verdicts hold (looks from 5 to 30 runs per variant)"
                        " instead of a fixed --runs, and judge them")
    p.add_argument("--quiet", action="store_true", help="no progress display")


def run(args: argparse.Namespace) -> int:
    from verifier.pipeline import RunSettings, SettingsError
    from verifier.run_spec import run_main

    try:
        return run_main(args.spec, RunSettings.from_text(
            runner=args.runner, duration=args.duration, approve=args.approve, netem=args.netem,
            hosts=args.hosts, ssh_config=args.ssh_config, kernels=args.kernel),
            args.output, args.runs, args.sequential, args.spec_id, args.quiet)
    except SettingsError as e:
        print(f"verifier run: {e}", file=sys.stderr)
        return 2
