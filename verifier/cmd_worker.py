"""Serve this test host to the fleet: a dask worker that runs one validated benchmark at a time.

    verifier worker --scheduler tcp://ctl:8786 --host-name lab1 --tags nic=mlx5,cpu=icelake

The worker advertises the operator's tags plus what it finds (kernel, CPU model, NIC
drivers, benchmark tools on PATH) as dask resources, has one thread and one `bench`
resource (never two benchmarks at once), and re-validates every spec it receives.
"""
from __future__ import annotations

import argparse
import asyncio
import signal
import sys

from runners import fleet_host
from runners.fleet_host import (
    FleetError,
    parse_tags,
    probe_tags,
    scheduler_host,
    security_from,
    worker_resources,
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--scheduler", required=True, help="scheduler address, tcp:// or tls://")
    p.add_argument("--host-name", default=None, help="this host's name in the lab (default: hostname)")
    p.add_argument("--tags", default="", help="operator's tags: nic=mlx5,cpu=icelake,pair=lab1b")
    p.add_argument("--no-probe", action="store_true", help="advertise only the given tags")
    p.add_argument("--runner", choices=("local", "netns", "ssh"), default="local",
                   help="how this host runs a spec (default: local)")
    p.add_argument("--pair", default=None,
                   help="ssh: the machine pair this worker holds, client=lab1,server=lab1b")
    p.add_argument("--ssh-config", default=None, help="ssh: an ssh_config file (ssh -F)")
    p.add_argument("--listen", default=None,
                   help="address the worker listens on (default: the one facing the scheduler)")
    p.add_argument("--tls-ca", default=None, help="CA certificate (tls:// schedulers)")
    p.add_argument("--tls-cert", default=None, help="this worker's certificate")
    p.add_argument("--tls-key", default=None, help="this worker's private key")
    p.add_argument("--connect-timeout", type=float, default=60.0,
                   help="give up when the scheduler cannot be reached for this long (s)")
    p.add_argument("--print-tags", action="store_true", help="print the tags and exit")


async def _serve(args: argparse.Namespace, resources: dict[str, float], security) -> int:  # type: ignore[no-untyped-def]
    from distributed import Worker

    # No listener beyond what the operator chose: the worker's own port on the interface
    # facing the scheduler (not 0.0.0.0), and dask's HTTP server (health, metrics; it runs
    # even with dashboard=False) on loopback only.
    worker = Worker(args.scheduler, nthreads=1, name=fleet_host.CONFIG.name,
                    resources=resources, security=security,
                    host=args.listen or facing(args.scheduler),
                    dashboard=False, dashboard_address="127.0.0.1:0", memory_limit=0,
                    death_timeout=args.connect_timeout, validate=False)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, lambda: asyncio.ensure_future(worker.close()))
    try:
        await worker
    except (OSError, TimeoutError, RuntimeError, ValueError) as e:
        await worker.close()
        cause = e.__cause__ or e  # dask wraps the reason ("name taken, lab1") in RuntimeError
        text = str(cause).strip()
        if "name taken" in text:
            msg = f"the host name {fleet_host.CONFIG.name!r} is taken by a connected worker"
        else:
            msg = text.splitlines()[0] if text else type(cause).__name__
        raise FleetError(f"cannot join the scheduler {args.scheduler}: {msg}") from None
    print(f"verifier worker: {fleet_host.CONFIG.name} joined {args.scheduler} as "
          f"{worker.address}", file=sys.stderr, flush=True)
    await worker.finished()
    return 0


def facing(scheduler: str) -> str:
    """This host's address on the route to the scheduler (127.0.0.1 for a local one)."""
    from distributed.utils import get_ip

    host = scheduler_host(scheduler)
    try:
        return get_ip(host)
    except (OSError, ValueError):
        return "127.0.0.1"


def run(args: argparse.Namespace) -> int:
    try:
        scheduler_host(args.scheduler)
        tags = parse_tags(args.tags)
        if not args.no_probe:
            tags += [t for t in probe_tags() if t not in tags]
        if args.host_name:
            fleet_host.CONFIG.name = args.host_name
        fleet_host.CONFIG.runner = args.runner
        if args.runner == "ssh":
            from verifier.argtypes import role_hosts

            try:
                fleet_host.CONFIG.ssh_hosts = role_hosts(args.pair, "--pair")
            except ValueError as e:
                raise FleetError(str(e)) from None
            if not fleet_host.CONFIG.ssh_hosts:
                raise FleetError("--runner ssh needs --pair client=HOST,server=HOST")
            fleet_host.CONFIG.ssh_config = args.ssh_config
            tags += [t for t in fleet_host.CONFIG.pair_tags() if t not in tags]
        resources = worker_resources(fleet_host.CONFIG.name, tags)
        if args.print_tags:
            print("\n".join(sorted(resources)))
            return 0
        security = security_from(args.tls_ca, args.tls_cert, args.tls_key, "worker")
        return asyncio.run(_serve(args, resources, security))
    except FleetError as e:
        print(f"verifier worker: {e}", file=sys.stderr)
        return 2
