"""`verifier worker`: this test host joins the fleet as a dask worker that runs one
validated benchmark at a time.

It advertises the operator's tags plus what it finds (kernel, CPU model, NIC drivers,
benchmark tools on PATH) as dask resources, has one thread and one `bench` resource, and
listens only where the operator chose (runners.fleet_host re-validates every spec).
"""
from __future__ import annotations

import asyncio
import signal
import sys
from dataclasses import dataclass
from typing import Any

from runners import fleet_host
from runners.fleet_host import (
    FleetError,
    parse_tags,
    probe_tags,
    scheduler_host,
    security_from,
    worker_resources,
)


@dataclass
class WorkerSettings:
    """What `verifier worker` was asked to do."""

    scheduler: str
    host_name: str | None = None  # default: the host name
    tags: str = ""  # the operator's, key=value,...
    probe: bool = True  # add what this host is found to have
    runner: str = "local"  # local | netns | ssh
    pair: str | None = None  # ssh: client=HOST,server=HOST
    ssh_config: str | None = None
    listen: str | None = None  # default: the address facing the scheduler
    tls_ca: str | None = None
    tls_cert: str | None = None
    tls_key: str | None = None
    connect_timeout: float = 60.0
    print_tags: bool = False  # print the resources and exit


def worker(ws: WorkerSettings) -> int:
    """Serve until the scheduler or a signal ends it; 0, or 2 with a one-line error."""
    try:
        resources = _resources(ws)
        if ws.print_tags:
            print("\n".join(sorted(resources)))
            return 0
        security = security_from(ws.tls_ca, ws.tls_cert, ws.tls_key, "worker")
        return asyncio.run(_serve(ws, resources, security))
    except FleetError as e:
        print(f"verifier worker: {e}", file=sys.stderr)
        return 2


def _resources(ws: WorkerSettings) -> dict[str, float]:
    """Configure this host (runners.fleet_host.CONFIG) and return what it advertises."""
    scheduler_host(ws.scheduler)
    tags = parse_tags(ws.tags)
    if ws.probe:
        tags += [t for t in probe_tags() if t not in tags]
    if ws.host_name:
        fleet_host.CONFIG.name = ws.host_name
    fleet_host.CONFIG.runner = ws.runner
    if ws.runner == "ssh":
        from verifier.argtypes import role_hosts

        try:
            fleet_host.CONFIG.ssh_hosts = role_hosts(ws.pair, "--pair")
        except ValueError as e:
            raise FleetError(str(e)) from None
        if not fleet_host.CONFIG.ssh_hosts:
            raise FleetError("--runner ssh needs --pair client=HOST,server=HOST")
        fleet_host.CONFIG.ssh_config = ws.ssh_config
        tags += [t for t in fleet_host.CONFIG.pair_tags() if t not in tags]
    return worker_resources(fleet_host.CONFIG.name, tags)


async def _serve(ws: WorkerSettings, resources: dict[str, float], security: Any) -> int:
    from distributed import Worker

    # No listener beyond what the operator chose: the worker's own port on the interface
    # facing the scheduler (not 0.0.0.0), and dask's HTTP server (health, metrics; it runs
    # even with dashboard=False) on loopback only.
    worker = Worker(ws.scheduler, nthreads=1, name=fleet_host.CONFIG.name,
                    resources=resources, security=security,
                    host=ws.listen or facing(ws.scheduler),
                    dashboard=False, dashboard_address="127.0.0.1:0", memory_limit=0,
                    death_timeout=ws.connect_timeout, validate=False)
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
        raise FleetError(f"cannot join the scheduler {ws.scheduler}: {msg}") from None
    print(f"verifier worker: {fleet_host.CONFIG.name} joined {ws.scheduler} as "
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
