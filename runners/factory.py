"""The one place a host runner is made, by kind and options.

`verifier` builds its runners through verifier.pipeline.backend_for, which asks here; the
fleet's worker (runners.fleet_host) asks here too, since the layer rule keeps it from
importing verifier.  So `--runner netns` and a worker's `--runner netns` are one thing.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from runners.base import Runner

KINDS = ("local", "netns", "ssh", "vm")


def check_options(kind: str, hosts: Mapping[str, str] | None = None,
                  kernels: Sequence[str] = (), netem: str | None = None) -> None:
    """What make_runner would refuse, found without making a runner (an ssh runner makes
    a control directory, a vm runner looks for images); ValueError with the reason."""
    if kind not in KINDS:
        raise ValueError(f"unknown runner {kind!r} (one of {', '.join(KINDS)})")
    if kind == "ssh" and not hosts:
        raise ValueError("--runner ssh needs --hosts client=HOST,server=HOST")
    if kind == "vm":
        from runners.vm import parse_kernels
        parse_kernels(kernels)
    if kind == "netns" and netem:
        from runners.netns import Netem
        Netem.parse(netem)


def make_runner(kind: str, *, prefix: str | None = None, netem: str | None = None,
                hosts: Mapping[str, str] | None = None, ssh_config: str | None = None,
                kernels: Sequence[str] = ()) -> Runner:
    """A runner of `kind` (not yet set up); ValueError with a one-line reason otherwise.

    `prefix` names a netns runner's namespaces, `netem` shapes its link
    ("delay=1ms,rate=1gbit"), `hosts` maps roles to ssh destinations, `kernels` are a vm
    runner's "VARIANT=IMAGE" items."""
    check_options(kind, hosts, kernels, netem)
    if kind == "local":
        from runners.local import LocalRunner
        return LocalRunner()
    if kind == "netns":
        from runners.netns import Netem, NetnsRunner
        shaping = Netem.parse(netem) if netem else None
        return NetnsRunner(prefix, shaping) if prefix else NetnsRunner(netem=shaping)
    if kind == "vm":
        from runners.vm import VmRunner, parse_kernels
        return VmRunner(parse_kernels(kernels))
    from runners.ssh import SshRunner
    return SshRunner(dict(hosts or {}), config=ssh_config)
