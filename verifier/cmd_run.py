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
from verifier.argtypes import role_hosts, runs, seconds


def add_arguments(p: argparse.ArgumentParser) -> None:
    from verifier.exitcodes import HELP

    p.epilog = HELP + "\nWithout --sequential nothing is judged: 0 when the runs completed."
    p.add_argument("spec", help="spec YAML file (from `verifier spec`); '-' for stdin")
    p.add_argument("--runner", choices=KINDS, default="netns")
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


def run(args: argparse.Namespace) -> int:
    from verifier.pipeline import RunSettings
    from verifier.run_spec import RunError, RunJob, run_spec

    try:
        hosts = role_hosts(args.hosts)
    except ValueError as e:
        print(f"verifier run: {e}", file=sys.stderr)
        return 2
    settings = RunSettings(runner=args.runner, duration=args.duration, approve=args.approve,
                           netem=args.netem, hosts=hosts, ssh_config=args.ssh_config,
                           kernels=args.kernel)
    try:
        return run_spec(RunJob(args.spec, settings, args.output, args.runs, args.sequential,
                               args.spec_id, args.quiet))
    except RunError as e:
        print(f"verifier run: {e}", file=sys.stderr)
        return 2
