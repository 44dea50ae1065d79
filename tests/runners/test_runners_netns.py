"""The netns topology: two namespaces, a veth pair, addresses only inside, always removed."""
from __future__ import annotations

import subprocess

import pytest

from runners.base import RunnerError
from runners.netns import Netem, NetnsRunner
from tests.runner_specs import netns_names

pytestmark = pytest.mark.root


def test_topology_and_cleanup():
    r = NetnsRunner(prefix="pcvt")
    with r:
        assert set(r.ns.values()) <= netns_names()
        res = r.run("client", ["ip", "-o", "-4", "addr", "show", "dev", r.device("client")], 5)
        assert r.address("client") in res.stdout
        # the addresses exist only inside the namespaces
        host = subprocess.run(["ip", "-o", "addr"], capture_output=True, text=True).stdout
        assert r.address("client") not in host and r.address("server") not in host
        assert r.run("client", ["ip", "-o", "link", "show", r.device("client")], 5).ok
        # the client reaches the server over the veth pair (a TCP listener in the server ns)
        h = r.start("server", ["iperf3", "-s", "-p", "5201", "-1"])
        r.wait_listening("server", 5201, h)
        res = r.run("client", ["iperf3", "-c", r.address("server"), "-p", "5201", "-t", "1"],
                    20)
        assert res.ok, res.stderr
    assert not h.alive()
    assert not set(r.ns.values()) & netns_names()
    assert r.close() == []  # idempotent


def test_netem_shaping_or_a_clear_error():
    r = NetnsRunner(prefix="pcvt", netem=Netem(delay="5ms"))
    try:
        r.setup()
    except RunnerError as e:
        # This kernel may lack sch_netem (a minimal VM kernel): the error says so.
        assert "netem" in str(e)
    else:
        qd = r.run("client", ["tc", "qdisc", "show", "dev", r.device("client")], 5).stdout
        assert "netem" in qd and "delay 5" in qd
    finally:
        r.close()
    assert not set(r.ns.values()) & netns_names()


def test_netem_parse():
    assert Netem.parse("delay=1ms,rate=1gbit").args() == ["netem", "delay", "1ms",
                                                          "rate", "1gbit"]
    for bad in ("loss=5%", "delay=1ms;reboot", "delay"):
        with pytest.raises(ValueError):
            Netem.parse(bad)
