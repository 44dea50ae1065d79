"""Extractions -> specs, with extractions built by hand from the seed and corpus texts.

The extractor is a separate module; these tests pin what the spec builder makes of the
commands, setup steps and claims it is given, located on the real seed lines.
"""
from __future__ import annotations

import shlex
from dataclasses import asdict
from pathlib import Path

from claims import safety
from claims.message import message_from_text
from claims.model import Claim, Command, Extraction, Message, SetupStep, Value
from claims.spec import Spec, load_specs
from claims.specbuild import build_specs, extraction_from_dict
from tests.paths import SHARED

SEEDS = (SHARED / "seeds")
CORPUS = (SHARED / "corpus")


def _msg(path: Path, **headers: str) -> Message:
    msg = message_from_text(path.read_text(), source=str(path))
    for k, v in headers.items():
        setattr(msg, k, v)
    return msg


def _line(msg: Message, text: str, nth: int = 0) -> int:
    return [ln.number for ln in msg.lines if text in ln.text][nth]


def _cmd(msg: Message, raw: str, nth: int = 0, host: str | None = None,
         wrappers: list[str] | None = None) -> Command:
    argv = shlex.split(raw)
    prog = argv[0].rsplit("/", 1)[-1]
    if wrappers:  # as the extractor gives it: argv is the benchmark behind the wrappers
        argv = argv[[a.rsplit("/", 1)[-1] for a in argv].index(wrappers[-1]):]
        prog = argv[0]
    return Command(raw=raw, line=_line(msg, raw, nth), tool=prog, argv=argv, host=host,
                   wrappers=[w for w in (wrappers or [])[:-1]])


def _pair(metric: str, b: float, c: float, bl: int, cl: int, labels=("before", "after"),
          tool: str | None = None, context: str | None = None, better="higher") -> Claim:
    return Claim(metric=metric, better=better, tool=tool, context=context,
                 baseline=Value(b, label=labels[0], line=bl),
                 candidate=Value(c, label=labels[1], line=cl), lines=(bl, cl))


def seed001() -> Extraction:
    msg = _msg(next(SEEDS.glob("001_*.txt")), subject="Re: [PATCH net-next] net: gro: add a "
               "per device gro flush timer", message_id="<1415241576.13896.62.camel@x>")
    setup = []
    for i, (host, val) in enumerate([("lpaa5", "0"), ("lpaa6", "0"), ("lpaa5", "2000"),
                                     ("lpaa6", "2000")]):
        raw = f"echo {val} >/sys/class/net/eth0/gro_flush_timeout"
        setup.append(SetupStep(raw=raw, kind="sysfs", line=_line(msg, raw, i % 2), host=host,
                               key="/sys/class/net/eth0/gro_flush_timeout", value=val,
                               device="eth0"))
    raw = "./netperf -H lpaa6 -t TCP_RR -l 20 -Cc -- -r 40000,40000"
    cmds = [_cmd(msg, raw, i, host="lpaa5") for i in (0, 1)]
    b, c = _line(msg, "9023.86"), _line(msg, "8651.26")
    labels = ("gro_flush_timeout=0", "gro_flush_timeout=2000")
    claims = [_pair("transaction_rate", 9023.86, 8651.26, b, c, labels, "netperf"),
              _pair("cpu_local", 2.02, 0.66, b, c, labels, "netperf", better="lower")]
    return Extraction(msg, cmds, setup, claims)


def test_seed001_gro_flush_timeout_variants():
    (spec,) = build_specs([seed001()])
    assert spec.benchmark.tool == "netperf"
    assert spec.benchmark.argv[:3] == ["netperf", "-H", "server"]  # ./netperf, lpaa6 replaced
    assert spec.benchmark.peer_role == "server" and spec.roles == ["client", "server"]
    assert spec.server is not None and spec.server.argv[0] == "netserver"
    assert spec.claimed_environment["hosts"] == {"lpaa5": "client", "lpaa6": "server"}
    base, cand = spec.variants
    assert (base.name, cand.name) == ("baseline", "candidate")
    for v, val in ((base, "0"), (cand, "2000")):
        (a,) = v.setup
        assert (a.kind, a.key, a.value) == ("sysfs", "/sys/class/net/eth0/gro_flush_timeout", val)
        assert sorted(a.roles) == ["client", "server"] and a.reason is None
        assert v.kernel is None
    assert spec.needs == []
    assert [m.name for m in spec.metrics] == ["transaction_rate", "cpu_local"]
    assert spec.metrics[0].baseline == 9023.86 and spec.metrics[0].variant == "candidate"
    assert spec.run.duration == 20
    assert "9023.86" in spec.source.quote and spec.source.lines[0] < spec.source.lines[1]
    assert safety.check_spec(spec) == []
    assert Spec.from_yaml(spec.to_yaml()) == spec


def test_extraction_json_round_trip_gives_the_same_spec():
    ex = seed001()
    d = ex.to_dict()
    d["lines"] = [asdict(ln) for ln in ex.message.lines]
    assert build_specs([extraction_from_dict(d)]) == build_specs([ex])


def seed003() -> Extraction:
    msg = _msg(next(SEEDS.glob("003_*.txt")), subject="Re: [PATCH net-next v1 1/1] net: "
               "openvswitch: ovs_packet_cmd_execute put sw_flow mainbody in stack")
    # The page has non-breaking spaces in two of these lines; they stay in the raw text.
    raws = [ln.text for ln in msg.lines if ln.text.startswith("netperf -H $peer")]
    assert len(raws) == 3 and "\xa0" in raws[0]
    cmds = [_cmd(msg, r) for r in raws]
    claims = []
    for test, b, c in (("TCP_STREAM", 1433, 1504), ("TCP_RR", 45145, 47250),
                       ("TCP_CRR", 11310, 12741)):
        bl, cl = _line(msg, f"{b} ==> before"), _line(msg, f"{c} ==> after")
        cl_ = _pair("average", b, c, bl, cl, ("before the change", "after  the change"),
                    context=test)
        cl_.candidate.spread, cl_.candidate.spread_kind = 3.39, "pct"
        claims.append(cl_)
    return Extraction(msg, cmds, [], claims)


def test_seed003_variables_bound_and_each_test_its_command():
    specs = build_specs([seed003()])
    assert [s.benchmark.argv[s.benchmark.argv.index("-t") + 1] for s in specs] == \
        ["TCP_STREAM", "TCP_RR", "TCP_CRR"]
    for s in specs:
        b = s.benchmark
        assert b.bindings == {"$peer": "server", "$((port+$i))": "port"}
        assert not any("$" in a for a in b.argv)
        assert b.argv[b.argv.index("-p") + 1] == "12865"
        assert s.needs == ["kernel"]  # before/after the change: the patch itself
        assert s.variants[0].kernel.base == "net-next"
        assert s.variants[1].kernel.series is None  # the page has no Message-ID: say so
        assert any(n.startswith("no Message-ID") for n in s.notes)
        assert any("needs a kernel runner" in n for n in s.notes)
        assert s.run.duration == 60
        assert s.claimed_environment.get("vm")
        assert [p for p in safety.check_spec(s) if p.where.startswith("benchmark")] == []


def test_d007_iperf3_output_without_command():
    msg = _msg(CORPUS / "d007.txt")
    b, c = _line(msg, "153 Mbits/sec"), _line(msg, "778 Mbits/sec")
    claim = _pair("sender_bitrate", 153, 778, b, c, ("before the change", "after the change"),
                  tool="iperf3")
    (spec,) = build_specs([Extraction(msg, [], [], [claim])])
    assert spec.benchmark.tool == "iperf3"
    assert spec.benchmark.argv == ["iperf3", "-c", "server"]
    assert spec.server is not None and spec.server.argv[:2] == ["iperf3", "-s"]
    assert spec.needs == ["kernel"]
    assert safety.check_spec(spec) == []


def test_s002_iperf_in_prose_and_two_modes_two_specs():
    msg = _msg(next(SEEDS.glob("002_*.txt")))
    cmds = [Command(raw="iperf -P 4", line=_line(msg, "iperf -P 4", i), tool="iperf",
                    argv=["iperf", "-P", "4"], in_prose=True) for i in (0, 1)]
    claims = [_pair("bandwidth", 16.1, 17.5, _line(msg, "16.1 gbps"), _line(msg, "17.5 gbps"),
                    ("old bonding", "new bonding")),
              _pair("bandwidth", 8, 10, _line(msg, "8 gbps"), _line(msg, "10 gbps"),
                    ("old bonding", "new bonding"))]
    specs = build_specs([Extraction(msg, cmds, [], claims)])
    assert len(specs) == 2  # the same metric twice: two configurations, two specs
    assert len({s.id for s in specs}) == 2
    for s in specs:
        assert s.benchmark.tool == "iperf2" and s.benchmark.argv == ["iperf", "-P", "4"]
        assert s.benchmark.peer_role == "server" and s.needs == ["kernel"]


def test_seed000_perf_stat_wrapping_trafgen():
    msg = _msg(next(SEEDS.glob("000_*.txt")), subject="Re: [PATCH net-next] net: dummy: make "
               "use of multi-queues")
    raw = "perf stat -r 10 trafgen -i foo -o du0 -n100000000"
    cmd = Command(raw=raw, line=_line(msg, "Performance counter stats"), tool="trafgen",
                  argv=shlex.split(raw)[4:], wrappers=["perf stat"])
    claim = _pair("time_elapsed", 22.856401569, 12.080331543,
                  _line(msg, "22.856401569"), _line(msg, "12.080331543"), better="lower")
    (spec,) = build_specs([Extraction(msg, [cmd], [], [claim])])
    assert spec.benchmark.argv[:4] == ["perf", "stat", "-r", "10"]
    assert spec.benchmark.argv[4] == "trafgen"
    assert spec.roles == ["client"] and spec.benchmark.peer_role is None
    assert spec.needs == ["kernel"]  # Before:/After: the patch
    assert "Core i7/2.80GHz" in " ".join(spec.claimed_environment.get("cpu", []))


def test_huge_duration_is_capped():
    msg = message_from_text("host1:~# netperf -H host2 -t TCP_RR -l 86400\nbefore 1\nafter 2\n")
    cmd = Command(raw="netperf -H host2 -t TCP_RR -l 86400", line=1, tool="netperf",
                  argv=["netperf", "-H", "host2", "-t", "TCP_RR", "-l", "86400"], host="host1")
    (spec,) = build_specs([Extraction(msg, [cmd], [], [_pair("transaction_rate", 1, 2, 2, 3)])])
    assert spec.run.duration == spec.run.duration_cap
    assert spec.benchmark.argv[spec.benchmark.argv.index("-l") + 1] == "60"
    assert any("86400 s from the mail capped to 60 s" in n for n in spec.notes)
    assert safety.check_spec(spec) == []


def test_relative_only_claim_gets_two_kernel_variants():
    msg = message_from_text("iperf3 -c peer\nimproves throughput by 12%\n")
    cmd = Command(raw="iperf3 -c peer", line=1, tool="iperf3", argv=["iperf3", "-c", "peer"])
    claim = Claim(metric="throughput", claimed_change_pct=12.0, lines=(2, 2))
    (spec,) = build_specs([Extraction(msg, [cmd], [], [claim])])
    assert [v.name for v in spec.variants] == ["baseline", "candidate"]
    assert all(v.kernel is not None for v in spec.variants)
    assert spec.metrics[0].claimed_change_pct == 12.0


def test_setup_step_needing_approval_is_kept_with_reason(tmp_path):
    msg = message_from_text("# ip link add du0 type dummy\n# netperf -H x\nbefore 1\n"
                            "# ip link del du0\n# ethtool -K eth0 gro off\n# netperf -H x\n"
                            "after 2\n")
    steps = [SetupStep(raw="ip link add du0 type dummy", kind="ip", line=1, key="link",
                       args=["link", "add", "du0", "type", "dummy"]),
             SetupStep(raw="ethtool -K eth0 gro off", kind="ethtool", line=5, key="-K",
                       device="eth0", value="gro off", args=["-K", "eth0", "gro", "off"])]
    cmds = [Command(raw="netperf -H x", line=n, tool="netperf", argv=["netperf", "-H", "x"])
            for n in (2, 6)]
    (spec,) = build_specs([Extraction(msg, cmds, steps, [_pair("throughput", 1, 2, 3, 7)])])
    acts = {a.kind: a for v in spec.variants for a in v.setup}
    assert acts["ip"].args[:3] == ["ip", "link", "add"] and "approval" in acts["ip"].reason
    assert acts["ethtool"].key == "features" and acts["ethtool"].settings == {"gro": "off"}
    assert acts["ethtool"].reason is None
    blocking = safety.blocking(safety.check_spec(spec))
    assert blocking and {p.level for p in blocking} == {"needs-approval"}
    assert safety.check_spec(spec, approve=True) == []
    out = tmp_path / "s.yaml"
    out.write_text(spec.to_yaml())
    assert load_specs(out) == [spec]


def test_placeholders_and_constant_arithmetic_are_bound():
    msg = message_from_text("netperf -H <server IP> -t UDP_STREAM -- -m $((64*1024))\n"
                            "before 1\nafter 2\n")
    raw = "netperf -H <server IP> -t UDP_STREAM -- -m $((64*1024))"
    cmd = Command(raw=raw, line=1, tool="netperf",
                  argv=["netperf", "-H", "<server IP>", "-t", "UDP_STREAM", "--", "-m",
                        "$((64*1024))"])
    (spec,) = build_specs([Extraction(msg, [cmd], [], [_pair("throughput", 1, 2, 2, 3)])])
    assert spec.benchmark.argv == ["netperf", "-H", "server", "-t", "UDP_STREAM", "--", "-m",
                                   "65536"]
    assert spec.benchmark.bindings == {"<server IP>": "server"}
    assert any("evaluated to 65536" in n for n in spec.notes)
    assert [p for p in safety.check_spec(spec) if p.where.startswith("benchmark")] == []


def test_unbindable_variable_is_refused():
    raw = "netperf -H peer -t UDP_STREAM -- -m $size"
    msg = message_from_text(f"{raw}\nbefore 1\nafter 2\n")
    cmd = Command(raw=raw, line=1, tool="netperf", argv=shlex.split(raw))
    (spec,) = build_specs([Extraction(msg, [cmd], [], [_pair("throughput", 1, 2, 2, 3)])])
    reasons = " ".join(p.reason for p in safety.check_spec(spec, approve=True))
    assert "$size" in reasons and "no host role binds" in reasons


def test_per_device_sysctl_keeps_its_device():
    from claims.specbuild import action_from_step
    step = SetupStep(raw="sysctl -w net.ipv4.conf.eth0.rp_filter=0", kind="sysctl", line=1,
                     key="net.ipv4.conf.eth0.rp_filter", value="0")
    a = action_from_step(step)
    assert (a.device, a.key) == ("eth0", "net.ipv4.conf.eth0.rp_filter")
    assert safety.check_action(a) is None


def test_more_configurations_than_one_spec_holds_split_into_specs_that_load():
    """40 configurations against one baseline (a long cover-letter table, or hostile mail as
    the fuzz found: seed 11411 gave 143) pass the schema's 32 variants: the builder opens a
    second spec with the same baseline rather than one its own schema refuses."""
    rows = [f"cfg{i} {100 + i}" for i in range(40)]
    msg = message_from_text("iperf3 -c peer\nbase 100\n" + "\n".join(rows) + "\n")
    cmd = Command(raw="iperf3 -c peer", line=1, tool="iperf3", argv=["iperf3", "-c", "peer"])
    claims = [_pair("throughput", 100, 100 + i, 2, 3 + i, labels=("base", f"cfg{i}"))
              for i in range(40)]
    specs = build_specs([Extraction(msg, [cmd], [], claims)])
    assert [len(s.variants) for s in specs] == [32, 10]
    assert all(s.variants[0].label == "base" for s in specs)
    assert sum(len(s.metrics) for s in specs) == 40
    for s in specs:
        assert Spec.from_yaml(s.to_yaml()) == s


def test_a_pair_at_two_scales_is_specified_in_the_baseline_unit():
    """"The p99 latency improves from 1.2ms to 950us": the spec gives both numbers in one
    unit, the baseline's (1.2 ms -> 0.95 ms), not the candidate's unit beside the baseline's
    number (1.2 us)."""
    from tests.extractkit import ex

    e = ex("netperf -H peer -t TCP_RR\n\nThe p99 latency improves from 1.2ms to 950us.\n")
    (spec,) = build_specs([e])
    (m,) = spec.metrics
    assert (m.unit, m.baseline, round(m.candidate or 0, 3)) == ("ms", 1.2, 0.95)
