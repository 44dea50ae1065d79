"""Held-out netdev shapes the corpus does not contain: each text is written the way real
cover letters and replies are, and checks one shape the extractor must generalise to.
Also: short claim-like drafts never crash (a draft once raised IndexError), and
`verifier extract` streams an mbox as one JSON document."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.extractkit import ex, pairs, relative
from tests.paths import ROOT

H1 = """Subject: [PATCH net-next v2 0/3] tcp: reduce cache misses in tcp_ack()

Tested on two hosts with mlx5 100Gbit NICs, 200 TCP_RR flows:

  super_netperf 200 -H $host -t TCP_RR -l 30 -- -r 1,1

Before: 4983021 trans/s
After:  5230117 trans/s (+4.96%)

And single flow TCP_STREAM:

  netperf -H $host -t TCP_STREAM -l 30

Before: 38.2 Gbit/s
After:  40.1 Gbit/s

Signed-off-by: Someone <someone@example.com>
"""


def test_indented_super_netperf_line_and_metric_named_by_context() -> None:
    e = ex(H1)
    progs = [c.argv[0] if c.argv else c.raw.split()[0] for c in e.commands]
    assert "super_netperf" in progs and "netperf" in progs
    metrics = [c.metric for c in e.claims]
    assert len(metrics) == 2
    assert "TCP_RR" in metrics[0] and "TCP_STREAM" in metrics[1]
    assert e.claims[0].claimed_change_pct == 4.96


def test_vs_pair_with_glued_units_and_command_inside_prose() -> None:
    text = ("> With the patch applied I see throughput dropping from 9.41 Gbits/sec\n"
            "> to 8.77 Gbits/sec with iperf3 -c 192.168.1.2 -P 8 -t 60.\n\n"
            "Thanks, I can reproduce. p99 latency also goes up, 45us vs 61us with\n"
            "sockperf ping-pong -i 10.0.0.2 -t 30 --msg-size 64.\n")
    e = ex(text)
    by = {(c.baseline.value, c.candidate.value): c for c in e.claims if c.baseline}
    assert set(by) == {(9.41, 8.77), (45.0, 61.0)}
    assert by[(9.41, 8.77)].metric == "throughput"
    assert "latency" in by[(45.0, 61.0)].metric and by[(45.0, 61.0)].unit == "us"
    assert any("sockperf" in c.raw for c in e.commands)


def test_percentage_beside_a_table_pair_attaches_to_it() -> None:
    text = ("Results with xdp-bench redirect on ice, 64B packets, single core:\n\n"
            "| kernel     | Mpps  |\n|------------|-------|\n| bpf-next   | 11.2  |\n| this patch | 12.9  |\n\n"
            "That is about 15% better. Memory usage is unchanged at 2048 MB.\n")
    (c,) = ex(text).claims
    assert (c.baseline.value, c.candidate.value, c.claimed_change_pct) == (11.2, 12.9, 15)


def test_went_from_percent_to_percent() -> None:
    assert pairs("CPU utilization on the host went from 140% to 118%.") == [(140, 118)]


def test_without_with_the_patch_lines() -> None:
    text = "Without the patch: 1.52 Mpps\nWith the patch:    1.71 Mpps\n"
    assert pairs(text) == [(1.52, 1.71)]


def test_baseline_patched_columns_with_unit_in_header() -> None:
    text = ("test          baseline (Gbps)   patched (Gbps)\n"
            "TCP_STREAM    36.1              38.4\n"
            "UDP_STREAM    21.7              24.9\n")
    assert pairs(text) == [(36.1, 38.4), (21.7, 24.9)]


def test_prose_shapes() -> None:
    assert pairs("XDP_DROP goes 24.1 Mpps -> 26.3 Mpps on one core.") == [(24.1, 26.3)]
    assert pairs("This reduces latency from 12.3us to 10.1us.") == [(12.3, 10.1)]
    assert relative("This improves throughput by ~8% for small packets.") == [8]
    assert relative("We see a 3% regression in TCP_RR.") == [-3]
    assert relative("Overall the new path is 3.2x faster.") == [220]


def test_config_arrows_are_not_claims() -> None:
    assert pairs("max_vq_pairs 0 -> 1\nmtu 1500 -> 9000 in the config\n") == []


def test_short_draft_with_percent_label_does_not_crash() -> None:
    e = ex("Subject: x\n20%: 1000 Mbps -> 1100 Mbps.\nthanks\n")
    assert [(c.baseline.value, c.candidate.value) for c in e.claims if c.baseline] == [(1000, 1100)]


_FRAGMENTS = st.sampled_from([
    "Subject: x", "20%: 1000 Mbps -> 1100 Mbps.", "thanks", "", "Before: 10 Gbps", "After: 12 Gbps",
    "  old: 5 Mpps", "new: 6 Mpps (+20%)", "10%:", "x: 1", "Mbps: 3 -> 4", "a: 1 b: 2", "> before: 3",
    "    4 5", "net-next: 8 Gbps", "after #1: 7 Gbps (-2.9%, p=0.3 vs net-next)", "5%: 1", "went from 1% to 2%",
    "45us vs 61us", "| base | 1 |", "| new | 2 |", "That is about 15% better.", "  netperf -H h -t TCP_RR",
])


@settings(max_examples=300, deadline=2000, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_FRAGMENTS, min_size=1, max_size=6).map("\n".join))
def test_short_claim_like_drafts_never_crash(text: str) -> None:
    e = ex(text)
    for c in e.claims:
        assert c.lines[0] <= c.lines[1]


def test_cli_streams_an_mbox_as_one_json_document(tmp_path: Path) -> None:
    mbox = tmp_path / "t.mbox"
    body = "".join(f"From x@y Mon Jan  1 00:00:00 2024\nFrom: a@b\nSubject: m{i}\nMessage-ID: <m{i}@x>\n\n"
                   f"old: {10 + i} Gbps\nnew: {20 + i} Gbps\n\n" for i in range(3))
    mbox.write_text(body)
    out = subprocess.run([sys.executable, "-m", "verifier", "extract", "--format", "json", str(mbox)],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    msgs = json.loads(out.stdout)["messages"]
    assert [m["claims"][0]["baseline"]["value"] for m in msgs] == [10, 11, 12]


def claims_of(text: str) -> list[tuple[str, float | None, float | None, float | None]]:
    return [(c.metric, c.baseline.value if c.baseline else None, c.candidate.value if c.candidate else None,
             c.claimed_change_pct) for c in ex(text).claims]


def test_sentence_pairs_before_after_and_compared_to() -> None:
    assert claims_of("iperf3 shows 9.41 Gbits/sec before and 9.39 Gbits/sec after the patch.") == [
        ("throughput", 9.41, 9.39, None)]
    assert claims_of("pktgen reaches 14.88 Mpps now, compared to 12.1 Mpps before.") == [
        ("packet rate", 12.1, 14.88, None)]
    assert claims_of("Throughput: 9.1 Gbps vs 9.4 Gbps") == [("Throughput", 9.1, 9.4, None)]


def test_metric_names_come_from_the_sentence_not_the_unit() -> None:
    assert claims_of("TCP_RR: 45123 -> 47001 trans/s") == [("TCP_RR transaction rate", 45123, 47001, None)]
    assert claims_of("Latency went down from 23 us to 19 us.") == [("Latency", 23, 19, None)]
    assert claims_of("The patch halves the tail latency (p99 from 80us to 41us).")[0][0] == "tail latency"
    assert claims_of("This gives a ~5% improvement in TCP_RR.") == [("TCP_RR", None, None, 5)]
    assert claims_of("Throughput increased by 8.5% in my tests.") == [("Throughput", None, None, 8.5)]
    assert claims_of("There is a 2% regression for UDP_STREAM with 64 byte messages.") == [
        ("UDP_STREAM", None, None, -2)]


def test_block_and_table_shapes() -> None:
    text = ("Without the patch:\n[ ID] Interval       Transfer     Bitrate\n"
            "[  5]   0.00-10.00  sec  10.9 GBytes  9.36 Gbits/sec\n\nWith the patch:\n"
            "[ ID] Interval       Transfer     Bitrate\n[  5]   0.00-10.00  sec  12.1 GBytes  10.4 Gbits/sec\n")
    assert pairs(text) == [(10.9, 12.1), (9.36, 10.4)]
    perf = ("# perf bench sched messaging -g 20 -l 1000\nbefore:  Total time: 2.345 [sec]\n"
            "after:   Total time: 2.101 [sec]\n")
    (c,) = ex(perf).claims
    assert (c.baseline.value, c.candidate.value, c.better) == (2.345, 2.101, "lower")
    table = ("               net-next    patched    delta\nTCP_RR         33120       34980      +5.6%\n"
             "TCP_CRR        10244       10699      +4.4%\n")
    assert claims_of(table) == [("TCP_RR", 33120, 34980, 5.6), ("TCP_CRR", 10244, 10699, 4.4)]
    assert pairs("Tested with:\n  ./xdp-bench drop -i ens1f0\nnet-next: 24.5 Mpps\npatched:  26.0 Mpps\n") == [
        (24.5, 26.0)]


def test_configuration_changes_are_not_claims() -> None:
    assert pairs("set rx ring 256 -> 4096 and mtu 1500 -> 9000") == []
    assert pairs("The number of queues changed 1 -> 8 and combined 4 -> 16.") == []
    assert pairs("Ran 8 vs 16 queues, see below.") == []
