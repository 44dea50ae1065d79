"""The second-wave tools: iperf2, sockperf, trafgen, pktgen, neper, super_netperf, XDP."""
from __future__ import annotations

import random
import shlex

import pytest

from claims.tools import Refused, all_tools, tool_for_program
from claims.tools.base import unit_factor
from claims.tools.pktgen import PKTGEN
from claims.tools.xdp_bench import XDP_BENCH
from tests.paths import FIXTURES

FIX = FIXTURES / "tools"


def fixture(name: str) -> list[str]:
    return (FIX / name).read_text().splitlines()


def values(tool: str, name: str) -> list[dict[str, float]]:
    t = tool_for_program(tool)
    assert t is not None
    return [{s.metric: s.value for s in b.samples if not s.config}
            for b in t.find_outputs(fixture(name))]


def test_iperf2_fixtures():
    assert values("iperf", "iperf2_tcp.txt") == [{"bandwidth": 10.1, "transfer": 1.19}]
    assert values("iperf", "iperf2_p4.txt") == [{"bandwidth": 13.6, "transfer": 1.63}]
    (enh,) = values("iperf", "iperf2_enhanced.txt")
    assert enh["retries"] == 2 and enh["bandwidth"] == 19.6
    (udp,) = values("iperf", "iperf2_udp.txt")
    assert udp["server_bandwidth"] == 10.5 and udp["jitter"] == 0.001 and udp["lost"] == 0


def test_iperf2_old_one_decimal_format_in_a_mail():
    lines = ["> while doing iperf -P 4 we got:",
             "> [SUM]  0.0-10.0 sec  18.8 GBytes  16.1 Gbits/sec",
             "> which is nice"]
    (blk,) = tool_for_program("iperf").find_outputs(lines)
    assert {s.metric: s.value for s in blk.samples if not s.config} == {
        "bandwidth": 16.1, "transfer": 18.8}
    assert tool_for_program("iperf3").find_outputs(lines) == []


def test_sockperf_fixtures():
    (pp,) = values("sockperf", "sockperf_pingpong.txt")
    assert pp["avg_latency"] == 9.016 and pp["latency_std_dev"] == 7.608
    assert pp["p99_latency"] == 25.046 and pp["p99_9_latency"] == 43.336
    assert pp["max_latency"] == 1043.453 and pp["min_latency"] == 6.717
    assert pp["dropped_messages"] == 0
    (tp,) = values("sockperf", "sockperf_throughput.txt")
    assert tp == {"message_rate": 119369, "bandwidth": 1.594}


def test_sockperf_paste_without_colour_escape_char():
    lines = ["sockperf: [2;35m====> avg-latency=31.374 (std-dev=4.786)[0m",
             "sockperf: ---> percentile 99.000 =   35.947"]
    (blk,) = tool_for_program("sockperf").find_outputs(lines)
    assert {s.metric: s.value for s in blk.samples} == {
        "avg_latency": 31.374, "latency_std_dev": 4.786, "p99_latency": 35.947}


def test_trafgen_fixture():
    (tg,) = values("trafgen", "trafgen_lo.txt")
    assert tg["packets_outgoing"] == 100000 and tg["bytes_outgoing"] == 6400000
    assert tg["cpu0_time"] == 155257 and tg["cpu_time"] == 155257 + 99993


def test_pktgen_result():
    (blk,) = PKTGEN.find_outputs(fixture("pktgen_paste.txt"))
    got = {s.metric: (s.value, s.unit, s.config) for s in blk.samples}
    assert got["pps"] == (707563, "pkt/s", False)
    assert got["throughput"] == (339, "Mb/sec", False)
    assert got["errors"] == (0, "count", False)
    assert got["pkt_size"] == (60, "bytes", True)
    with pytest.raises(Refused):
        PKTGEN.parse_args(["pktgen"])


def test_neper_keyval_paste():
    before, after = values("tcp_rr", "neper_tcp_rr_paste.txt")
    assert before["num_transactions"] == 47918 and before["latency_p99.9"] == 0.000184310
    assert before["latency_p50"] == 0.000043510 and after["latency_p50"] == 0.000013590
    blk = tool_for_program("tcp_rr").find_outputs(fixture("neper_tcp_rr_paste.txt"))[0]
    lat = next(s for s in blk.samples if s.metric == "latency_p99")
    assert lat.unit == "s" and lat.better == "lower"


def test_super_netperf_total_after_command():
    lines = ["lpaa5:~# super_netperf 200 -H lpaa6 -t TCP_RR -l 30 -- -r 1,1",
             "1587462.12", "", "$ super_netperf 4 -H lpaa6 -l 20", "37412.5"]
    a, b = tool_for_program("super_netperf").find_outputs(lines)
    assert (a.samples[0].metric, a.samples[0].value, a.info["instances"]) == (
        "transaction_rate", 1587462.12, "200")
    assert (b.samples[0].metric, b.samples[0].unit) == ("throughput", "10^6bits/s")


def test_xdp_bench_and_xdpsock():
    blk = XDP_BENCH.find_outputs(fixture("xdp_bench_paste.txt"))
    assert len(blk) == 1
    rx = [s.value for s in blk[0].samples if s.metric == "rx_pps"]
    assert rx == [24376525, 24381200, 24379963]
    socks = tool_for_program("xdpsock").find_outputs(fixture("xdpsock_paste.txt"))
    assert [next(s.value for s in b.samples if s.metric == "tx_pps") for b in socks] == [
        1055201, 1054998]
    assert socks[0].info["mode"] == "txonly"
    lines = ["proto 17:   10124567 pkt/s", "proto 17:   10124600 pkt/s"]
    assert [s.value for s in XDP_BENCH.parse("\n".join(lines))] == [10124567, 10124600]


ACCEPTED = [
    "iperf -c h -P 4 -t 30",
    "iperf -c h -u -b 100M -l 1400 -e -i 1",
    "iperf -s -p 5002",
    "sockperf ping-pong -i 10.0.0.2 -p 11111 -t 10 --tcp -m 64",
    "sockperf under-load -i h --mps 10000 -t 5",
    "sockperf tp -i h -t 5 --msg-size=1472",
    "trafgen -i foo -o du0 -n100000000",
    "trafgen --dev eth0 --conf trafgen.cfg --cpus 2 --rate 1Mpps",
    "perf stat -r 10 trafgen -i foo -o du0 -n100000000",
    "tcp_rr -c -H h -l 10 -T 1 -F 50 -p 50,90,99,999 -Q 200 -R 400",
    "tcp_stream -c -H h -l 10 -T 4 -F 8",
    "super_netperf 200 -H lpaa6 -t TCP_RR -l 30 -- -r 1,1",
    "xdpsock -i eth1 -t -S -s 64",
    "xdp-bench drop -m native eth0",
]


@pytest.mark.parametrize("cmd", ACCEPTED)
def test_real_commands_are_accepted(cmd):
    argv = shlex.split(cmd)
    tool_for_program(argv[0]).parse_args(argv)


REFUSED = [
    ("iperf -c h -o /tmp/out", "writes a file"),
    ("iperf -c h -F /etc/passwd", "reads a file"),
    ("iperf -s -D", "daemonizes"),
    ("iperf -c h -t 99999", "above the limit"),
    ("sockperf ping-pong -f /etc/hosts", "reads an address file"),
    ("sockperf ping-pong -i h --full-log /tmp/x", "writes a file"),
    ("sockperf playback -i h", "mode 'playback'"),
    ("sockperf server --load-vma=/tmp/x.so", "shared library"),
    ("trafgen -i foo -o out.pcap", "not accepted"),
    ("trafgen -i /etc/shadow -o lo", "not accepted"),
    ("trafgen -i foo -o lo --smoke-test 10.0.0.1", "probes a remote host"),
    ("trafgen -i foo -o lo -u `id -u bob`", "not accepted"),
    ("tcp_rr -c -H h -A /tmp/samples", "writes every sample"),
    ("super_netperf 100000 -H h", "above the limit"),
    ("super_netperf -H h", "number of instances"),
    ("super_netperf 4 -H h -F /etc/passwd", "fill file"),
    ("xdpsock -i eth1 -d 100000", "above the limit"),
    ("xdp-bench load eth0", "command 'load'"),
    ("xdpsock -i eth0 -t -S -s <msg size>", "not accepted"),
]


@pytest.mark.parametrize("cmd,why", REFUSED)
def test_hostile_commands_are_refused_with_reason(cmd, why):
    argv = shlex.split(cmd)
    with pytest.raises(Refused) as e:
        tool_for_program(argv[0]).parse_args(argv)
    assert why in str(e.value)


def test_server_sides():
    def srv(cmd: str) -> list[str] | None:
        argv = shlex.split(cmd)
        t = tool_for_program(argv[0])
        return t.server_argv(t.parse_args(argv))
    assert srv("iperf -c h -u -p 5002") == ["iperf", "-s", "-u", "-p", "5002"]
    assert srv("sockperf pp -i h -p 11111 --tcp") == ["sockperf", "server", "-p", "11111",
                                                       "--tcp"]
    assert srv("super_netperf 4 -H h -p 12866") == ["netserver", "-D", "-p", "12866"]
    assert srv("tcp_rr -c -H h -C 12867") == ["tcp_rr", "-C", "12867"]
    assert srv("trafgen -i foo -o lo") is None


def test_unit_factor():
    assert unit_factor("Mbits/sec") == 1e6 and unit_factor("10^6bits/s") == 1e6
    assert unit_factor("Gbits/sec") == 1e9 and unit_factor("bits/sec") == 1
    assert unit_factor("Mpps") == 1e6 and unit_factor("trans/s") is None


def test_parsers_survive_garbage():
    rnd = random.Random(1234)
    alphabet = "0123456789 .,:;=%+-#()[]/<>|'\"abcdefxyzSUMTCPRRsecpps\t"
    pieces = [ln for name in sorted(p.name for p in FIX.iterdir()) for ln in fixture(name)]
    for _ in range(200):
        lines = ["".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 90)))
                 for _ in range(rnd.randint(0, 30))]
        lines += rnd.sample(pieces, k=min(len(pieces), rnd.randint(0, 20)))
        rnd.shuffle(lines)
        for tool in all_tools():
            for blk in tool.find_outputs(lines):
                assert 0 <= blk.start <= blk.end < len(lines)
                assert all(s.metric and s.value == s.value for s in blk.samples)


def test_iperf2_csv_report_sums_streams():
    (blk,) = tool_for_program("iperf").find_outputs(fixture("iperf2_csv_p2.txt"))
    got = {s.metric: s.value for s in blk.samples}
    assert got["bandwidth"] == 766883231 + 766523238
    assert got["transfer"] == 100007996 + 99876924 and blk.info["streams"] == "2"


def test_sockperf_summary_collapsed_onto_one_line():
    one = " ".join(" ".join(fixture("sockperf_pingpong.txt")).split())
    (blk,) = tool_for_program("sockperf").find_outputs(["Results:", one])
    got = {s.metric: s.value for s in blk.samples if not s.config}
    assert got["avg_latency"] == 9.016 and got["p99_latency"] == 25.046
    assert got["min_latency"] == 6.717 and blk.start == blk.end == 1


def test_netperf_stream_rows_repeated_under_one_header_are_runs() -> None:
    """Archive (vDPA shadow virtqueue cover letter): three runs under one header per variant.
    Every row is a run, so its socket sizes and test length are config and never pair up as
    claims that did not change; each run's throughput pairs with the same run of the other."""
    from claims.extract import extract_message
    from claims.message import message_from_text

    head = ("Recv   Send    Send\nSocket Socket  Message  Elapsed\n"
            "Size   Size    Size     Time     Throughput\nbytes  bytes   bytes    secs.    10^6bits/sec\n")
    text = ("Starting with no svq and a baseline average of ~9009.96Mbps:\n" + head
            + "131072  16384  16384    30.01    9061.03\n131072  16384  16384    30.01    8962.94\n"
            "131072  16384  16384    30.01    9005.92\n\n"
            "To enable SVQ buffers forwarding reduce throughput to about\n" + head
            + "131072  16384  16384    30.01    7689.72\n131072  16384  16384    30.00    7752.07\n"
            "131072  16384  16384    30.01    7750.30\n")
    got = [(c.metric, c.tool, c.baseline.value, c.candidate.value)
           for c in extract_message(message_from_text(text)).claims if c.baseline and c.candidate]
    assert got == [("throughput", "netperf", 9061.03, 7689.72), ("throughput", "netperf", 8962.94, 7752.07),
                   ("throughput", "netperf", 9005.92, 7750.3)]
