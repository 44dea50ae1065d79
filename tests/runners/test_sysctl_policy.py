"""One sysctl policy (claims.sysctl_policy) for the spec check and the runner, measured on
the running kernel and exercised through the real netns runner: an unapproved host-global
key is never written on the host; a per-namespace key is written in the namespace only."""
from __future__ import annotations

from pathlib import Path

import pytest

from claims import sysctl_policy
from claims.safety import check_action, check_spec
from claims.spec import Action, Command, Metric, RunPlan, Spec, Variant
from runners.actions import ActionError
from runners.effect import Inert
from runners.execute import execute
from runners.local import LocalRunner
from runners.netns import NetnsRunner
from tests.runner_specs import netns_names

pytestmark = pytest.mark.root

# One key of each class, all existing on this kernel and harmless to hold for a second.
CLASSES = {"net (per namespace)": "net.ipv4.tcp_rmem",
           "net (host-global)": "net.core.netdev_budget",
           "vm": "vm.swappiness", "vm (stat)": "vm.stat_interval",
           "kernel": "kernel.printk_ratelimit", "fs": "fs.lease-break-time"}
NEW = {"net.ipv4.tcp_rmem": "4096 65536 1048576", "net.core.netdev_budget": "301",
       "vm.swappiness": "13", "vm.stat_interval": "7", "kernel.printk_ratelimit": "6",
       "fs.lease-break-time": "46"}


def host(key: str) -> str:
    return Path(sysctl_policy.proc_path(key)).read_text().strip()


def test_rules_for_each_class():
    assert sysctl_policy.rule("net.ipv4.tcp_rmem").level == "ok"
    assert sysctl_policy.rule("/proc/sys/net/core/somaxconn").level == "ok"
    for key in ("vm.swappiness", "vm.stat_interval", "vm.min_free_kbytes", "vm.max_map_count",
                "kernel.sched_autogroup_enabled", "fs.file-max", "net.core.netdev_budget",
                "net.ipv4.tcp_mem", "net.ipv4.route.gc_timeout"):
        assert sysctl_policy.rule(key).level == "needs-approval", key
    for key in ("vm.panic_on_oom", "vm.mmap_min_addr", "kernel.core_pattern", "kernel.modprobe",
                "net/../../kernel/x", "net..core", "", "vm.swappiness;x"):
        assert sysctl_policy.rule(key).level == "refused", key


def test_spec_check_and_runner_agree_on_approved_kernel_key():
    """The disagreement of issue 13: an approved kernel.* passed one check, failed the other."""
    a = Action(kind="sysctl", key="kernel.printk_ratelimit", value=host("kernel.printk_ratelimit"),
               roles=["client"])
    p = check_action(a)
    assert p is not None and p.level == "needs-approval" and "host-global" in p.reason
    with NetnsRunner(prefix="pcvp") as r:
        with pytest.raises(Inert, match="approval"):
            r.apply(a)
        a.approved = True
        r.apply(a)  # same value written back: the approved path works, nothing changes
        assert r.touched and r.touched[0]["target"] == "/proc/sys/kernel/printk_ratelimit"


def test_policy_matches_this_kernel():
    """Every net key the host shows but a fresh namespace does not (per-device entries
    aside) is host-global in the policy, and every key a namespace shows is per-namespace."""
    def keys(r: NetnsRunner | None) -> set[str]:
        argv = ["find", "/proc/sys/net", "-type", "f"]
        out = (r.run("client", argv, 10, output_cap=1 << 22).stdout if r else
               "\n".join(str(p) for p in Path("/proc/sys/net").rglob("*") if p.is_file()))
        return {sysctl_policy.normalize(ln) or ln for ln in out.split()}
    with NetnsRunner(prefix="pcvp") as r:
        inside = keys(r)
    outside = keys(None)
    assert inside and outside
    per_device = ("net.ipv4.conf.", "net.ipv6.conf.", "net.ipv4.neigh.", "net.ipv6.neigh.",
                  "net.mpls.conf.")
    for k in outside - inside:
        if not k.startswith(per_device):
            assert sysctl_policy.scope(k) == "host", k
    wrong = [k for k in inside if sysctl_policy.scope(k) != "netns"]
    assert not wrong


def test_each_class_written_through_the_runner_leaves_the_host_alone():
    """Unapproved: host-global keys are refused by the spec check (execute) and by the
    runner itself (apply); the per-namespace key changes inside the namespace only."""
    before = {k: host(k) for k in CLASSES.values()}
    made: list[str] = []
    try:
        for cls, key in CLASSES.items():
            act = Action(kind="sysctl", key=key, value=NEW[key], raw=f"sysctl -w {key}=x",
                         roles=["client"])
            spec = Spec(id=f"sysctl-{key}",
                        benchmark=Command(tool="netperf", argv=["netperf", "-H", "server",
                                                                "-t", "TCP_RR", "-l", "1"]),
                        variants=[Variant("baseline"), Variant("candidate", setup=[act])],
                        metrics=[Metric("transaction_rate", better="higher")],
                        run=RunPlan(repetitions=1, warmup=0, duration=0.5, seed=1))
            host_global = sysctl_policy.scope(key) == "host"
            assert bool(check_spec(spec)) == host_global, cls
            with NetnsRunner(prefix="pcvp") as r:
                made += r.ns.values()
                if host_global:
                    res = execute(spec, r, duration=0.5)
                    assert res.status == "not-runnable" and "host-global" in (res.reason or "")
                    with pytest.raises(Inert, match="host-global"):
                        r.apply(act)
                else:
                    r.apply(act)
                    inside = r.run("client", ["cat", sysctl_policy.proc_path(key)], 5).stdout
                    assert inside.split() == NEW[key].split(), cls
            assert host(key) == before[key], cls
    finally:
        for k, v in before.items():  # put back anything a failure above left changed
            if host(k) != v:
                Path(sysctl_policy.proc_path(k)).write_text(v + "\n")
    assert not (set(made) & netns_names())



def test_local_runner_asks_approval_even_for_per_namespace_keys():
    """On the local runner the "namespace" is this host's own: tcp_rmem is host state."""
    key = "net.ipv4.tcp_rmem"
    before = host(key)
    act = Action(kind="sysctl", key=key, value=NEW[key], raw=f"sysctl -w {key}=x")
    spec = Spec(id="sysctl-local", benchmark=Command(tool="netperf", argv=[
                    "netperf", "-H", "server", "-t", "TCP_RR", "-l", "1"]),
                variants=[Variant("baseline", setup=[act]), Variant("candidate")],
                metrics=[Metric("transaction_rate", better="higher")],
                run=RunPlan(repetitions=1, warmup=1, duration=1, seed=1))
    with LocalRunner() as r:
        with pytest.raises(Inert, match="local runner"):
            r.apply(act)
        res = execute(spec, r, duration=1)
    assert res.status == "not-runnable" and "approval" in (res.reason or ""), res.reason
    assert host(key) == before
    with pytest.raises(ActionError):  # a refused key is refused everywhere, approved or not
        with LocalRunner() as r:
            r.apply(Action(kind="sysctl", key="kernel.core_pattern", value="x", approved=True))
