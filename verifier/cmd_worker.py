"""Serve this test host to the fleet: a dask worker that runs one validated benchmark at a time.

    verifier worker --scheduler tcp://ctl:8786 --host-name lab1 --tags nic=mlx5,cpu=icelake

The worker advertises the operator's tags plus what it finds (kernel, CPU model, NIC
drivers, benchmark tools on PATH) as dask resources, has one thread and one `bench`
resource (never two benchmarks at once), and re-validates every spec it receives.
"""
from __future__ import annotations

import argparse

from verifier.options import add_fleet, add_ssh_config


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_fleet(p, required=True, tags="operator's tags: nic=mlx5,cpu=icelake,pair=lab1b")
    p.add_argument("--host-name", default=None, help="this host's name in the lab (default: hostname)")
    p.add_argument("--no-probe", action="store_true", help="advertise only the given tags")
    p.add_argument("--runner", choices=("local", "netns", "ssh"), default="local",
                   help="how this host runs a spec (default: local)")
    p.add_argument("--pair", default=None,
                   help="ssh: the machine pair this worker holds, client=lab1,server=lab1b")
    add_ssh_config(p)
    p.add_argument("--listen", default=None,
                   help="address the worker listens on (default: the one facing the scheduler)")
    p.add_argument("--connect-timeout", type=float, default=60.0,
                   help="give up when the scheduler cannot be reached for this long (s)")
    p.add_argument("--print-tags", action="store_true", help="print the tags and exit")


def run(args: argparse.Namespace) -> int:
    from verifier.fleet_worker import WorkerSettings, worker

    return worker(WorkerSettings(
        args.scheduler, host_name=args.host_name, tags=args.tags, probe=not args.no_probe,
        runner=args.runner, pair=args.pair, ssh_config=args.ssh_config, listen=args.listen,
        tls_ca=args.tls_ca, tls_cert=args.tls_cert, tls_key=args.tls_key,
        connect_timeout=args.connect_timeout, print_tags=args.print_tags))
