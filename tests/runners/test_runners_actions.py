"""Typed setup actions on a real netns runner: applied, restored, hostile ones refused."""
from __future__ import annotations

import pytest

from claims.spec import Action
from runners.actions import ActionError
from runners.netns import NetnsRunner
from tests.runner_specs import netns_names

pytestmark = pytest.mark.root


@pytest.fixture
def ns():
    r = NetnsRunner(prefix="pcvt")
    with r:
        yield r
    assert not set(r.ns.values()) & netns_names()


def read(r: NetnsRunner, role: str, path: str) -> str:
    return r.run(role, ["cat", path], timeout=5).stdout.strip()


def test_sysfs_mapped_to_own_device_and_restored(ns):
    """gro_flush_timeout lands on the runner's veth; its precondition (GRO on, and TSO off
    so veth's NAPI sees TCP) is made true first, and everything is restored."""
    path = {role: f"/sys/class/net/{ns.device(role)}/gro_flush_timeout" for role in ns.roles}
    before = {role: read(ns, role, p) for role, p in path.items()}
    ns.apply(Action(kind="sysfs", key="/sys/class/net/eth0/gro_flush_timeout", value="2000",
                    device="eth0"))
    assert all(read(ns, role, p) == "2000" for role, p in path.items())
    ethtool = {f"ethtool -K {ns.device(role)}" for role in ns.roles}
    assert {t["target"] for t in ns.touched} == set(path.values()) | ethtool
    for role in ns.roles:
        k = ns.run(role, ["ethtool", "-k", ns.device(role)], 5).stdout
        assert "generic-receive-offload: on" in k and "tcp-segmentation-offload: off" in k
    assert ns.undo() == []
    assert {role: read(ns, role, p) for role, p in path.items()} == before
    for role in ns.roles:
        k = ns.run(role, ["ethtool", "-k", ns.device(role)], 5).stdout
        assert "generic-receive-offload: off" in k and "tcp-segmentation-offload: on" in k


def test_sysctl_ethtool_tc_restored(ns):
    rmem = read(ns, "client", "/proc/sys/net/ipv4/tcp_rmem")
    ns.apply(Action(kind="sysctl", key="net.ipv4.tcp_rmem", value="4096 65536 1048576",
                    roles=["client"]))
    assert read(ns, "client", "/proc/sys/net/ipv4/tcp_rmem").split() == ["4096", "65536",
                                                                          "1048576"]
    ns.apply(Action(kind="ethtool", key="features", device="eth1", settings={"gro": "on"}))
    k = ns.run("server", ["ethtool", "-k", ns.device("server")], 5).stdout
    assert "generic-receive-offload: on" in k
    ns.apply(Action(kind="tc", device="eth0", args=["qdisc", "add", "dev", "eth0", "root",
                                                    "pfifo", "limit", "100"]))
    assert "pfifo" in ns.run("client", ["tc", "qdisc", "show", "dev", ns.device("client")], 5).stdout
    assert ns.undo() == []
    assert read(ns, "client", "/proc/sys/net/ipv4/tcp_rmem") == rmem
    k = ns.run("server", ["ethtool", "-k", ns.device("server")], 5).stdout
    assert "generic-receive-offload: off" in k
    assert "pfifo" not in ns.run("client", ["tc", "qdisc", "show"], 5).stdout


HOSTILE = [
    Action(kind="sysfs", key="/sys/class/net/eth0/../../../../tmp/CANARY", value="1"),
    Action(kind="sysfs", key="/sys/class/net/eth0/gro_flush_timeout", value="1; touch /tmp/CANARY"),
    Action(kind="sysfs", key="/sys/class/net/$(touch /tmp/CANARY)/mtu", value="1500"),
    Action(kind="sysctl", key="kernel.core_pattern", value="|/tmp/CANARY"),
    Action(kind="sysctl", key="net.core..somaxconn", value="1"),
    Action(kind="procfs", key="/proc/sys/kernel/core_pattern", value="x"),
    Action(kind="tc", args=["qdisc", "add", "dev", "eth0", "root", "fq", "`touch`"]),
    Action(kind="tc", args=["filter", "add", "dev", "eth0"]),
    Action(kind="ethtool", key="flash", device="eth0", settings={"x": "y"}),
    Action(kind="ethtool", key="features", device="eth0", settings={"gro": "on;reboot"}),
    Action(kind="other", raw="rm -rf /", args=["touch", "/tmp/CANARY"]),
    Action(kind="sysfs", key="/sys/class/net/eth0/mtu", value="9000", reason="not on the list",
           raw="needs approval"),
]


@pytest.mark.parametrize("action", HOSTILE, ids=lambda a: f"{a.kind}:{a.key or a.args}")
def test_hostile_actions_refused(ns, action, tmp_path):
    with pytest.raises(ActionError):
        ns.apply(action)
    assert ns.touched == []
    for role in ns.roles:
        assert ns.run(role, ["ls", "/tmp/CANARY"], 5).returncode != 0


def test_restored_when_the_block_raises():
    r = NetnsRunner(prefix="pcvt")
    with pytest.raises(RuntimeError), r:
        r.apply(Action(kind="sysctl", key="net.ipv4.tcp_rmem", value="4096 65536 1048576"))
        raise RuntimeError("boom")
    assert r._applied == [] and not set(r.ns.values()) & netns_names()


def test_switch_failing_half_way_still_restores_everything(ns):
    gro = {role: f"/sys/class/net/{ns.device(role)}/gro_flush_timeout" for role in ns.roles}
    rmem = read(ns, "client", "/proc/sys/net/ipv4/tcp_rmem")
    a = [Action(kind="sysfs", key="/sys/class/net/eth0/gro_flush_timeout", value="2000",
                device="eth0"),
         Action(kind="tc", device="eth0", args=["qdisc", "add", "dev", "eth0", "root", "pfifo"])]
    b = [Action(kind="sysfs", key="/sys/class/net/eth0/gro_flush_timeout", value="3000",
                device="eth0"),
         Action(kind="sysctl", key="net.ipv4.tcp_rmem", value="4096 65536 1048576"),
         Action(kind="ethtool", key="coalesce", device="eth0", settings={"rx-usecs": "8"})]
    assert ns.switch(a) == []
    assert ns.switch(a) == []  # same settings again: nothing to restore
    with pytest.raises(ActionError):
        ns.switch(b)  # veth has no coalescing: fails after the first two took effect
    assert read(ns, "client", gro["client"]) == "3000"
    assert ns.undo() == []
    assert all(read(ns, role, p) == "0" for role, p in gro.items())
    assert read(ns, "client", "/proc/sys/net/ipv4/tcp_rmem") == rmem
    assert "pfifo" not in ns.run("client", ["tc", "qdisc", "show"], 5).stdout
