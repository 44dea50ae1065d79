"""Tool output parsers on real pastes (corpus/seeds) and on captured real runs (fixtures)."""
from __future__ import annotations

import re

import pytest

from claims.tools import all_tools, tool_for_program
from claims.tools.iperf3 import IPERF3
from claims.tools.netperf import NETPERF
from claims.tools.perf_stat import PERF_STAT
from claims.tools.testpmd import TESTPMD
from tests.extractkit import ex
from tests.paths import FIXTURES, SHARED

FIX = FIXTURES / "tools"
CORPUS = SHARED / "corpus"


def corpus(name: str) -> list[str]:
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"shared corpus not here: {path}")
    return path.read_text().splitlines()


def fixture(name: str) -> list[str]:
    return (FIX / name).read_text().splitlines()


def claims_of(block) -> dict[str, float]:
    return {s.metric: s.value for s in block.samples if not s.config}


def test_registry_has_the_first_tools():
    names = {t.name for t in all_tools()}
    assert {"netperf", "perf", "iperf3"} <= names
    assert tool_for_program("iperf2").name == "iperf2"  # a claim's tool field names it
    assert tool_for_program("/usr/bin/netperf") is NETPERF
    assert tool_for_program("./iperf3") is IPERF3


# -- netperf ---------------------------------------------------------------------------

def test_netperf_s001_rr_with_cpu_columns():
    blocks = NETPERF.find_outputs(corpus("s001.txt"))
    assert len(blocks) == 2
    before, after = (claims_of(b) for b in blocks)
    assert before == {"transaction_rate": 9023.86, "cpu_local": 2.02, "cpu_remote": 1.70,
                      "service_demand_local": 107.513, "service_demand_remote": 90.561}
    assert after["transaction_rate"] == 8651.26 and after["service_demand_remote"] == 56.710
    cfg = {s.metric: s.value for s in blocks[0].samples if s.config}
    assert cfg["socket_send_size"] == 16384 and cfg["socket_recv_size"] == 87380
    assert cfg["request_size"] == 40000 and cfg["elapsed_time"] == 20.0
    rate = next(s for s in blocks[0].samples if s.metric == "transaction_rate")
    assert rate.unit == "trans/s" and rate.better == "higher"
    assert blocks[0].info["test"] == "TCP_RR"
    sd = next(s for s in blocks[0].samples if s.metric == "service_demand_local")
    assert sd.unit == "us/Tr" and sd.better == "lower"


def test_netperf_collapsed_quoted_and_indented_paste_reads_the_same():
    text = corpus("s001.txt")
    mangled = ["> " + re.sub(r"\s+", " ", ln).strip() for ln in text]
    a = [claims_of(b) for b in NETPERF.find_outputs(text)]
    b = [claims_of(b) for b in NETPERF.find_outputs(mangled)]
    assert a == b


def test_netperf_without_banner_from_headers_only():
    text = corpus("s001.txt")
    start = next(i for i, ln in enumerate(text) if ln.startswith("Local /Remote"))
    blocks = NETPERF.find_outputs(["Results were:"] + text[start:start + 8])
    assert claims_of(blocks[0])["transaction_rate"] == 9023.86


@pytest.mark.parametrize("name,metric,value,unit", [
    ("netperf_tcp_stream.txt", "throughput", 8197.23, "10^6bits/s"),
    ("netperf_tcp_stream_cc.txt", "service_demand_remote", 1.723, "us/KB"),
    ("netperf_tcp_maerts.txt", "throughput", 8072.66, "10^6bits/s"),
    ("netperf_tcp_rr_cc.txt", "transaction_rate", 40828.37, "trans/s"),
    ("netperf_tcp_crr.txt", "transaction_rate", 6557.53, "trans/s"),
    ("netperf_udp_rr.txt", "transaction_rate", 47805.23, "trans/s"),
    ("netperf_udp_stream.txt", "throughput", 543.43, "10^6bits/s"),
    ("netperf_udp_stream.txt", "send_throughput", 808.97, "10^6bits/s"),
    ("netperf_omni_o.txt", "mean_latency", 17.70, "us"),
    ("netperf_omni_o.txt", "throughput", 7349.23, "10^6bits/s"),
    ("netperf_rr_O.txt", "p99_latency", 59, "us"),
    ("netperf_rr_O.txt", "throughput", 39122.18, "trans/s"),
    ("netperf_rr_k.txt", "transaction_rate", 39892.545, "trans/s"),
    ("netperf_rr_k.txt", "min_latency", 19, "us"),
])
def test_netperf_real_run_fixtures(name, metric, value, unit):
    samples = NETPERF.parse((FIX / name).read_text())
    got = [s for s in samples if s.metric == metric]
    assert len(got) == 1, [s.metric for s in samples]
    assert got[0].value == value and got[0].unit == unit


def test_netperf_unmeasured_cpu_is_skipped():
    # MAERTS with -c only: netperf prints -1.00 for the remote side
    names = {s.metric for s in NETPERF.parse((FIX / "netperf_tcp_maerts.txt").read_text())}
    assert "cpu_local" in names and "cpu_remote" not in names


# -- perf stat -------------------------------------------------------------------------

def test_perf_stat_s000_quoted_blocks():
    blocks = PERF_STAT.find_outputs(corpus("s000.txt"))
    assert len(blocks) == 2
    b, a = blocks
    assert b.command == "trafgen -i foo -o du0 -n100000000" and b.info["runs"] == "10"
    cb, ca = claims_of(b), claims_of(a)
    assert cb["instructions:k"] == 160975944159 and ca["instructions:k"] == 138669108882
    assert cb["insns_per_cycle"] == 0.55 and ca["insns_per_cycle"] == 0.92
    assert cb["cycles:k"] == 293319390278 and cb["branch-misses:k"] == 192501104
    assert cb["context-switches:k"] == 831 and ca["cpu-migrations:k"] == 6
    assert cb["cache-references:k"] == 671552021 and ca["cache-misses:k"] == 67414
    assert cb["time_elapsed"] == 22.856401569 and ca["time_elapsed"] == 12.080331543
    el = next(s for s in b.samples if s.metric == "time_elapsed")
    assert el.spread_pct == 0.33 and el.runs == 10 and el.better == "lower" and el.unit == "s"
    ipc = next(s for s in b.samples if s.metric == "insns_per_cycle")
    assert ipc.better == "higher" and ipc.spread_pct is None
    ins = next(s for s in b.samples if s.metric == "instructions:k")
    assert ins.spread_pct == 0.09 and ins.unit == "count"


def test_perf_stat_wrapped_header_and_collapsed_whitespace():
    lines = [
        "Before:",
        "Performance counter stats for 'trafgen -i foo -o du0",
        "-n100000000' (10 runs):",
        "160,975,944,159 instructions:k # 0.55 insns per cycle ( +- 0.09% )",
        "22.856401569 seconds time elapsed ( +- 0.33% )",
        "which is nice.",
    ]
    (blk,) = PERF_STAT.find_outputs(lines)
    assert blk.command == "trafgen -i foo -o du0 -n100000000"
    assert claims_of(blk) == {"instructions:k": 160975944159, "insns_per_cycle": 0.55,
                              "time_elapsed": 22.856401569}
    assert blk.end == 4


def test_perf_stat_real_fixtures():
    (r3,) = PERF_STAT.find_outputs(fixture("perf_stat_r3.txt"))
    assert r3.command == "true" and r3.info["runs"] == "3"
    el = next(s for s in r3.samples if s.metric == "time_elapsed")
    assert el.value == 0.001892 and el.spread_pct == 36.29 and el.runs == 3
    tc = next(s for s in r3.samples if s.metric == "task-clock")
    assert tc.unit == "msec" and tc.value == 0.60 and tc.spread_pct == 4.41
    names = {s.metric for s in r3.samples}
    assert "cycles" not in names  # <not supported> is not a number
    (csv,) = PERF_STAT.find_outputs(fixture("perf_stat_csv.txt"))
    c = {s.metric: s for s in csv.samples}
    assert c["task-clock"].value == 0.39 and c["task-clock"].spread_pct == 3.03
    assert c["page-faults"].value == 49 and c["cpus_utilized"].value == 0.530
    (ev,) = PERF_STAT.find_outputs(fixture("perf_stat_events.txt"))
    assert claims_of(ev)["time_sys"] == 0.001914


# -- iperf3 ----------------------------------------------------------------------------

def test_iperf3_d007_sender_receiver():
    blocks = IPERF3.find_outputs(corpus("d007.txt"))
    assert len(blocks) == 2
    b, a = (claims_of(x) for x in blocks)
    assert b == {"sender_bitrate": 153, "sender_transfer": 182, "sender_retransmits": 514,
                 "receiver_bitrate": 152, "receiver_transfer": 182}
    assert a == {"sender_bitrate": 778, "sender_transfer": 927, "sender_retransmits": 0,
                 "receiver_bitrate": 777, "receiver_transfer": 927}
    units = {s.metric: s.unit for s in blocks[0].samples}
    assert units["sender_bitrate"] == "Mbits/sec" and units["receiver_transfer"] == "MBytes"
    # the interval itself is configuration, not a result
    assert all(s.config for s in blocks[1].samples if s.metric.endswith("_time"))


def test_iperf3_real_text_fixtures():
    tcp = claims_of(IPERF3.find_outputs(fixture("iperf3_tcp.txt"))[0])
    assert tcp["sender_bitrate"] == 19.0 and tcp["receiver_bitrate"] == 18.9
    p2 = IPERF3.find_outputs(fixture("iperf3_p2.txt"))
    assert len(p2) == 1 and claims_of(p2[0])["sender_bitrate"] == 17.8  # the [SUM] line
    udp = claims_of(IPERF3.find_outputs(fixture("iperf3_udp.txt"))[0])
    assert udp["receiver_jitter"] == 0.012 and udp["receiver_lost_pct"] == 0
    assert "sender_jitter" not in udp


def test_iperf3_json_fixtures():
    (blk,) = IPERF3.find_outputs(fixture("iperf3_tcp.json"))
    c = claims_of(blk)
    assert c["sender_bitrate"] == pytest.approx(18544321017.64625)
    assert c["sender_retransmits"] == 2 and c["receiver_transfer"] == 2318663574
    (u,) = IPERF3.find_outputs(fixture("iperf3_udp.json"))
    assert "receiver_jitter" in claims_of(u) and "receiver_lost_pct" in claims_of(u)


def test_iperf3_not_confused_by_iperf2_lines():
    assert IPERF3.find_outputs(fixture("iperf2_p4.txt")) == []


def test_no_output_found_in_prose():
    prose = ["We measured 9023.86 trans/s before and 8651.26 after.",
             "The socket was 16384 bytes."]
    for tool in all_tools():
        assert tool.find_outputs(prose) == [], tool.name


def test_netperf_wrapped_data_row_and_banner_off_run():
    text = "\n".join(corpus("s001.txt")).replace("107.513  90.561", "107.513\n90.561")
    first = NETPERF.find_outputs(text.splitlines())[0]
    assert claims_of(first)["service_demand_remote"] == 90.561
    bare = (FIX / "netperf_P0.txt").read_text()
    assert NETPERF.parse(bare) == []  # a lone row of numbers means nothing on its own...
    got = {s.metric: s.value for s in NETPERF.parse_run(["netperf", "-P", "0", "-H", "h"], bare)}
    assert got["throughput"] == 7622.54  # ...but the command says it is TCP_STREAM


def test_iperf3_bidir_directions():
    got = claims_of(IPERF3.find_outputs(fixture("iperf3_bidir.txt"))[0])
    assert got["tx_sender_bitrate"] == 2.33 and got["rx_receiver_bitrate"] == 2.08
    assert got["tx_sender_retransmits"] == 1 and "sender_bitrate" not in got


# -- pastes found in the real list archive (../shared/data, virtualization list) ---------

def test_archive_netperf_quoted_with_wrapped_banner():
    blocks = NETPERF.find_outputs(fixture("archive_netperf_quoted.txt"))
    assert [b.info["test"] for b in blocks] == ["TCP_STREAM", "UDP_STREAM"]
    assert claims_of(blocks[0]) == {"throughput": 4742.36}
    udp = claims_of(blocks[1])
    assert udp["throughput"] == 482.83 and udp["send_messages"] == 9214


def test_archive_perf_stat_four_runs():
    blocks = PERF_STAT.find_outputs(fixture("archive_perf_stat_virtio.txt"))
    assert len(blocks) == 4 and {b.command for b in blocks} == {"./virtio_test --batch=64"}
    first = claims_of(blocks[0])
    assert first["task-clock"] == 2791.70 and first["cycles"] == 7249926989
    assert first["insns_per_cycle"] == 1.06 and first["time_elapsed"] == 2.8024
    assert all(s.runs == 10 for s in blocks[0].samples)


def test_archive_iperf3_summary_without_retr_column():
    (blk,) = IPERF3.find_outputs(fixture("archive_iperf3_quoted.txt"))
    assert claims_of(blk) == {"sender_bitrate": 11.0, "sender_transfer": 12.8,
                              "receiver_bitrate": 11.0, "receiver_transfer": 12.8}


def test_perf_stat_interval_and_per_cpu_lines_are_labelled():
    (blk,) = PERF_STAT.find_outputs(fixture("perf_stat_interval.txt"))
    tc = [(s.value, s.label) for s in blk.samples if s.metric == "task-clock"]
    assert tc == [(0.92, "t=0.101573724"), (0.07, "t=0.356121465")]  # <not counted> skipped
    (cpu,) = PERF_STAT.find_outputs(fixture("perf_stat_per_cpu.txt"))
    assert [s.label for s in cpu.samples if s.metric == "task-clock"] == ["CPU0", "CPU1"]
    assert cpu.info["target"] == "system wide"


def test_perf_stat_json_lines():
    (blk,) = PERF_STAT.find_outputs(fixture("perf_stat_json.txt"))
    got = {s.metric: s for s in blk.samples}
    assert got["task-clock"].value == 0.418896 and got["task-clock"].spread_pct == 8.75
    assert got["page-faults"].value == 49 and got["cpus_utilized"].value == 0.493734
    assert "cycles" not in got  # <not supported>


def test_iperf3_role_wrapped_onto_next_line():
    lines = corpus("d007.txt")
    k = next(i for i, ln in enumerate(lines) if ln.rstrip().endswith("514      sender"))
    wrapped = lines[:k] + [lines[k].replace("sender", "").rstrip(), "sender"] + lines[k + 1:]
    first = IPERF3.find_outputs(wrapped)[0]
    assert claims_of(first)["sender_retransmits"] == 514
    assert claims_of(first)["sender_bitrate"] == 153


def test_netperf_output_collapsed_onto_one_line():
    text = corpus("s001.txt")
    start = next(i for i, ln in enumerate(text) if ln.startswith("MIGRATED"))
    one = " ".join(" ".join(text[start:start + 9]).split())
    (blk,) = NETPERF.find_outputs(["Results:", one, "so cpu efficiency is better"])
    assert claims_of(blk) == {"transaction_rate": 9023.86, "cpu_local": 2.02,
                              "cpu_remote": 1.70, "service_demand_local": 107.513,
                              "service_demand_remote": 90.561}
    assert blk.info["test"] == "TCP_RR"


def test_perf_stat_block_collapsed_onto_one_line():
    text = corpus("s000.txt")
    start = next(i for i, ln in enumerate(text) if "Performance counter stats" in ln)
    one = " ".join(" ".join(ln.lstrip("> ") for ln in text[start:start + 11]).split())
    (blk,) = PERF_STAT.find_outputs(["Before: " + one, "After: nothing"])
    assert blk.command == "trafgen -i foo -o du0 -n100000000" and blk.info["runs"] == "10"
    got = claims_of(blk)
    assert got["instructions:k"] == 160975944159 and got["insns_per_cycle"] == 0.55
    assert got["cache-references:k"] == 671552021 and got["time_elapsed"] == 22.856401569
    assert len(got) == 10  # the cycles' "# GHz" comment is a rate over the run's time: bookkeeping
    assert "cycles:k/sec" not in got


def test_iperf_summaries_collapsed_onto_one_line():
    text = corpus("d007.txt")
    k = next(i for i, ln in enumerate(text) if ln.startswith("iperf3 results before"))
    one = " ".join(" ".join(text[k:k + 4]).split())
    (blk,) = IPERF3.find_outputs(["Intro.", one, "Fixes: nothing"])
    assert claims_of(blk) == {"sender_bitrate": 153, "sender_transfer": 182,
                              "sender_retransmits": 514, "receiver_bitrate": 152,
                              "receiver_transfer": 182}
    assert blk.start == blk.end == 1
    two = ("while doing iperf -P 4: [ 3] 0.0-10.0 sec 9.40 GBytes 8.07 Gbits/sec "
           "[SUM] 0.0-10.0 sec 18.8 GBytes 16.1 Gbits/sec then it stopped")
    (b2,) = tool_for_program("iperf").find_outputs([two])
    assert claims_of(b2) == {"bandwidth": 16.1, "transfer": 18.8}


def test_testpmd_rates_are_results_and_its_counters_bookkeeping():
    # port statistics as testpmd prints them (the shape of a real paste in the list archive)
    text = ["  ######################## NIC statistics for port 0  ########################",
            "  RX-packets: 3615824336 RX-missed: 0          RX-bytes:  202486162816",
            "  RX-errors: 0", "  RX-nombuf:  0",
            "  TX-packets: 3615795592 TX-errors: 20738      TX-bytes:  202484553152", "",
            "  Throughput (since last show)",
            "  Rx-pps:      3790446          Rx-bps:   1698120056",
            "  Tx-pps:      3790440          Tx-bps:   1698120000",
            "  ############################################################################"]
    (blk,) = TESTPMD.find_outputs(text)
    assert claims_of(blk) == {"rx_pps": 3790446, "rx_bps": 1698120056, "tx_pps": 3790440, "tx_bps": 1698120000}
    counters = {s.metric for s in blk.samples if s.config}
    assert counters == {"rx_packets", "rx_missed", "rx_bytes", "rx_errors", "rx_nombuf", "tx_packets",
                        "tx_errors", "tx_bytes"}


def test_iperf3_names_one_report_line_read_alone() -> None:
    # a pasted line without the header or the summary: each number by its column; the
    # congestion window is the sender's state (config), a UDP receiver's line its loss
    got = [(s.metric, s.value, s.better, s.config)
           for s in IPERF3.line_samples("2K:  [  5]  65.00-70.00  sec  9.46 GBytes  16.2 Gbits/sec    0   1.99 MBytes")]
    assert got == [("transfer", 9.46, "higher", False), ("bitrate", 16.2, "higher", False),
                   ("retransmits", 0.0, "lower", False), ("cwnd", 1.99, None, True)]
    udp = {s.metric: s.value for s in IPERF3.line_samples(
        "[  5]   0.00-10.00  sec  1.25 MBytes  1.05 Mbits/sec  0.010 ms  3/906 (0.33%)  receiver")}
    assert udp == {"receiver_transfer": 1.25, "receiver_bitrate": 1.05, "receiver_jitter": 0.01,
                   "receiver_lost": 3, "receiver_datagrams": 906, "receiver_lost_pct": 0.33}
    assert IPERF3.line_samples("[  5] local 10.0.0.1 port 5201 connected") == []


def test_iperf3_summaries_after_a_label_of_their_own_are_read() -> None:
    """"without patch: [SUM] 0.00-30.00 sec 32.1 GBytes 9.19 Gbits/sec 12 sender" was no
    iperf3 output to the tool (its summary had to start the line), so the pair of
    retransmits went unnamed ("value", no direction): a short label before the report is
    the paster's, as line_samples already read it."""
    text = ("iperf3 -c 10.0.0.2 -t 30 -P 4\n\n"
            "without patch: [SUM]   0.00-30.00  sec  32.1 GBytes  9.19 Gbits/sec  12   sender\n"
            "with patch:    [SUM]   0.00-30.00  sec  33.4 GBytes  9.56 Gbits/sec   3   sender\n")
    got = {(c.metric, c.baseline.value, c.candidate.value, c.better, c.tool) for c in ex(text).claims}
    assert got == {("sender_bitrate", 9.19, 9.56, "higher", "iperf3"),
                   ("sender_transfer", 32.1, 33.4, "higher", "iperf3"),
                   ("sender_retransmits", 12, 3, "lower", "iperf3")}
