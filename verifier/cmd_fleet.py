"""Run a spec on the lab's fleet of test hosts, or list the hosts and their tags.

    verifier fleet --scheduler tcp://ctl:8786 --hosts
    verifier fleet SPEC.yaml --scheduler tcp://ctl:8786 --tags nic=mlx5 [-o results.json]

The results file is the same as `verifier run` writes, each run carrying the host that ran
it.  TLS schedulers (tls://) need --tls-ca/--tls-cert/--tls-key (see docs/fleet.md).
"""
from __future__ import annotations

import argparse

from verifier.argtypes import wait_seconds
from verifier.options import add_fleet, add_run_limits


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("spec", nargs="?", help="spec YAML file (from `verifier spec`)")
    add_fleet(p, required=True)
    p.add_argument("--placement", choices=("host", "spread"), default="host",
                   help="host: all runs of a spec on one host (default); spread: any host")
    p.add_argument("--hosts", action="store_true", help="list the connected hosts and exit")
    add_run_limits(p)
    p.add_argument("--timeout", type=wait_seconds, default=None, help="give up after this many s")
    p.add_argument("-o", "--output", default=None, help="results file (JSON)")


def run(args: argparse.Namespace) -> int:
    from verifier.fleet_run import FleetJob, fleet

    return fleet(FleetJob(
        args.scheduler, args.spec, tags=args.tags, placement=args.placement,
        list_hosts=args.hosts, spec_id=args.spec_id, runs=args.runs, duration=args.duration,
        approve=args.approve, timeout=args.timeout, output=args.output, tls_ca=args.tls_ca,
        tls_cert=args.tls_cert, tls_key=args.tls_key))
