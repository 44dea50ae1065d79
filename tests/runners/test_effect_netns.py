"""Setup that must act (runners.effect) on real veth and lo: what gives veth NAPI on this
kernel (measured), preconditions made true or refused as NOT RUNNABLE, read-backs, and the
judgement over the counters (on RunRecords built here: the counts are the input)."""
from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from claims.spec import Action, Variant
from runners import effect
from runners.effect import Inert
from runners.local import LocalRunner
from runners.netns import NetnsRunner
from runners.results import RunRecord
from tests.runner_specs import gro, netns_names

pytestmark = pytest.mark.root


def _rr(r: NetnsRunner, port: int) -> None:
    res = r.run("client", ["netperf", "-H", r.address("server"), "-p", str(port), "-t",
                           "TCP_RR", "-l", "1", "--", "-r", "4000,4000"], timeout=20)
    assert res.ok, res.stderr


def test_veth_napi_needs_gro_on_and_tso_off():
    """The measurement behind the veth precondition: GRO on alone leaves NAPI unused for
    TCP (veth_skb_is_eligible_for_gro), GRO on + TSO off makes NAPI poll every packet."""
    with NetnsRunner(prefix="pcve") as r:
        port = r.free_port("server")
        r.server("server", ["netserver", "-D", "-p", str(port)], port)
        dev = r.device("server")
        polled = []
        for feats in ([], ["gro", "on"], ["tso", "off"]):
            if feats:
                for role in r.roles:
                    assert r.run(role, ["ethtool", "-K", r.device(role), *feats], 5).ok
            before = effect.napi_packets(r, "server", dev)
            _rr(r, port)
            polled.append(effect.napi_packets(r, "server", dev) - before)
        made = set(r.ns.values())
    assert polled[0] == 0 and polled[1] == 0 and polled[2] > 1000, polled
    assert not made & netns_names()


def test_lo_has_no_napi_so_the_knob_is_not_runnable():
    before = open("/sys/class/net/lo/gro_flush_timeout").read()
    with LocalRunner() as r:
        with pytest.raises(Inert, match="no NAPI"):
            r.apply(gro("2000")[0])
    assert open("/sys/class/net/lo/gro_flush_timeout").read() == before


def test_preconditions_refused_with_the_reason():
    with NetnsRunner(prefix="pcve") as r:
        with pytest.raises(Inert, match="fixed"):  # veth cannot do LRO
            r.apply(Action(kind="ethtool", key="features", device="eth0",
                           settings={"lro": "on"}, roles=["client"]))
        with pytest.raises(Inert, match="does not exist"):
            r.apply(Action(kind="sysctl", key="net.ipv4.tcp_no_such_knob", value="1",
                           roles=["client"]))
        with pytest.raises(Inert, match="shows no"):
            r.apply(Action(kind="ethtool", key="features", device="eth0",
                           settings={"no-such-feature": "on"}, roles=["client"]))
        if not r.run("client", ["tc", "qdisc", "replace", "dev", r.device("client"), "root",
                                "netem"], 5).ok:  # this kernel has no netem
            with pytest.raises(Inert, match="no netem qdisc"):
                r.apply(Action(kind="tc", device="eth0", roles=["client"],
                               args=["qdisc", "replace", "dev", "eth0", "root", "netem"]))
        assert r.undo() == []


def test_device_state_recorded():
    with NetnsRunner(prefix="pcve") as r:
        r.apply(gro("2000")[0])
        effect.record_device_state(r, Variant("candidate", setup=gro("2000")))
        st = r.cache["device_state"]["candidate"]["hosts"]
        checks = r.cache["device_state"]["candidate"]["checks"]
    assert "NAPI" in checks[0]["precondition"] and "napi_watchdog" in checks[0]["counter"]
    for role in ("client", "server"):
        assert st[role]["driver"] == "veth" and st[role]["gro_flush_timeout"] == "2000"
        assert st[role]["offloads"]["generic-receive-offload"] == "on"
        assert st[role]["offloads"]["tcp-segmentation-offload"] == "off"
        assert st[role]["queues"]["rx"] == "1"


def test_readback_forms():
    assert effect.readback_matches("4096 65536 1048576", "4096\t65536\t1048576")
    assert effect.readback_matches("f", "0000000f") and effect.readback_matches("f", "0,0000000f")
    assert not effect.readback_matches("2000", "0")
    assert not effect.readback_matches("cubic", "reno")


@dataclass
class _Host:
    """A stand-in for a runner's identity (roles, devices): inert_reason reads only these."""

    roles: tuple[str, ...] = ("client", "server")
    cache: dict = field(default_factory=dict)

    def device(self, role: str) -> str:
        return f"veth-{role}"


def _runs(variant: str, timer: list[float], napi: float = 1000.0) -> list[RunRecord]:
    return [RunRecord(variant=variant, index=i, counters={
        "client:napi_packets": napi, "server:napi_packets": napi,
        "client:napi_flush_timer": t}) for i, t in enumerate(timer)]


VARIANTS = [Variant("baseline", setup=gro("0")), Variant("candidate", setup=gro("2000"))]


@pytest.mark.parametrize("base,cand,napi,inert", [
    ([0, 0, 0], [0, 0, 0], 1000, "never armed"),       # seed 001 on veth
    ([40, 60, 50], [50, 40, 55], 1000, "never armed"),  # others' timers, not ours
    ([0, 0, 0], [3000, 2800, 3100], 1000, None),        # acted
    ([0, 0, 0], [3000, 2800, 3100], 0, "nothing to act on"),
])
def test_inert_reason(base, cand, napi, inert):
    runs = _runs("baseline", base, napi) + _runs("candidate", cand, napi)
    why = effect.inert_reason(_Host(), VARIANTS, runs)
    assert (why is None) if inert is None else (inert in (why or "")), why


def test_uncounted_timer_is_not_judged():
    runs = _runs("baseline", [0]) + [RunRecord(variant="candidate", index=1,
                                               counters={"client:napi_packets": 5.0})]
    host = _Host(cache={"effect_notes": {"client:napi_flush_timer": "perf is missing"}})
    assert "perf is missing" in (effect.inert_reason(host, VARIANTS, runs) or "")


def test_qdisc_that_shaped_nothing_is_inert():
    tbf = Action(kind="tc", device="eth0", roles=["client"],
                 args=["qdisc", "replace", "dev", "eth0", "root", "tbf", "rate", "1gbit"])
    variants = [Variant("baseline"), Variant("candidate", setup=[tbf])]
    runs = [RunRecord(variant="baseline", index=0),
            RunRecord(variant="candidate", index=1, counters={"client:qdisc_packets": 0.0})]
    assert "root qdisc" in (effect.inert_reason(_Host(), variants, runs) or "")
    runs[1].counters["client:qdisc_packets"] = 120.0
    assert effect.inert_reason(_Host(), variants, runs) is None
    assert "tc -s qdisc" in effect.proof_of(tbf).counter
