"""A claim's metric names what the runner measures: mail -> spec -> `Metric.sample`, checked
against the names the tool's own parser gives real output of that tool (tests/fixtures/tools
and ../shared/corpus), and a verdict that finds the runs' samples under that name.

The short mails below are written for the test in the shape of real list mail (a command,
then "Before: / After:" or a sentence); the tool outputs they are checked against are the
captured or pasted fixtures. The runs in the verdict tests are RunRecords built here with
values from a real netperf output and a seeded spread (no runner is started).
"""
from __future__ import annotations

import hashlib
import random

import pytest

from claims.extract import extract_message
from claims.message import message_from_text
from claims.sources import iter_messages
from claims.spec import Spec, sample_name
from claims.specbuild import build_specs
from claims.tools import all_tools, tool_for_program
from runners.results import Results, RunRecord
from tests.paths import FIXTURES, SHARED
from verifier.verdict import CONFIRMED, INVALID, judge

FIX = FIXTURES / "tools"
CORPUS = SHARED / "corpus"


def mail(command: str, claim: str, subject: str = "[PATCH net-next] net: a change") -> str:
    return (f"From: A Developer <dev@example.org>\nSubject: {subject}\n"
            f"Message-ID: <{hashlib.sha1((command + claim).encode()).hexdigest()[:12]}"
            "@example.org>\n\n"
            f"Tested with\n\n  {command}\n\n{claim}\n")


def specs_of(text: str) -> list[Spec]:
    return build_specs([extract_message(message_from_text(text))])


def only_metric(text: str):
    (spec,) = specs_of(text)
    (metric,) = spec.metrics
    return spec, metric


def run_names(tool: str, argv: list[str], fixture: str) -> set[str]:
    """The result names the tool's parser gives a real output, read as a run of `argv`."""
    samples = tool_for_program(tool).parse_run(argv, (FIX / fixture).read_text())
    assert samples, f"no {tool} samples in {fixture}"
    return {s.metric for s in samples if not s.config}


# -- mail -> spec -> the sample the tool reports -------------------------------------------

RR_MAIL = mail("netperf -H 10.0.0.2 -t TCP_RR -l 10",
               "Before: 30000 transactions/s\nAfter: 33000 transactions/s")


def test_netperf_tcp_rr_prose_is_the_transaction_rate():
    spec, m = only_metric(RR_MAIL)
    assert m.name != "transaction_rate" and m.unit == "transactions/s"  # prose, as mailed
    assert m.sample == "transaction_rate"
    assert m.sample in run_names("netperf", spec.benchmark.argv, "netperf_tcp_rr_cc.txt")
    assert m.sample in run_names("netperf", spec.benchmark.argv, "netperf_udp_rr.txt")


def test_netperf_tcp_stream_gbps_prose_is_the_throughput():
    spec, m = only_metric(mail("netperf -H 10.0.0.2 -t TCP_STREAM -l 30",
                               "Throughput goes from 9.2 Gbps to 11.4 Gbps."))
    assert (m.unit, m.sample) == ("Gbps", "throughput")
    assert m.sample in run_names("netperf", spec.benchmark.argv, "netperf_tcp_stream.txt")
    # -P 0 prints a bare row: the run's argv says what it is, and it is the same name
    assert m.sample in run_names("netperf", spec.benchmark.argv, "netperf_P0.txt")


def test_iperf3_gbits_prose_is_the_receivers_bitrate():
    spec, m = only_metric(mail("iperf3 -c 192.168.1.2 -t 30 -P 2",
                               "Before: 12.1 Gbits/sec\nAfter: 14.3 Gbits/sec"))
    assert m.sample == "receiver_bitrate"
    for fx in ("iperf3_p2.txt", "iperf3_tcp.txt", "iperf3_reverse.txt"):
        assert m.sample in run_names("iperf3", spec.benchmark.argv, fx)


def test_iperf2_and_sockperf_prose():
    spec, m = only_metric(mail("iperf -c 10.0.0.2 -P 4 -t 30",
                               "Before: 16.1 Gbits/sec\nAfter: 17.5 Gbits/sec"))
    assert m.sample == "bandwidth"
    assert m.sample in run_names("iperf2", spec.benchmark.argv, "iperf2_p4.txt")
    spec, m = only_metric(mail("sockperf ping-pong -i 10.0.0.2 --tcp -t 10",
                               "Before: 25.1 usec\nAfter: 21.3 usec"))
    assert m.sample == "avg_latency"
    assert m.sample in run_names("sockperf", spec.benchmark.argv, "sockperf_pingpong.txt")


def test_xdpsock_mpps_prose_is_the_tx_rate_of_a_txonly_run():
    spec, m = only_metric(mail("xdpsock -i eth1 -t -S -s 64",
                               "Before: 1.05 Mpps\nAfter: 1.31 Mpps", "[PATCH bpf-next] xsk"))
    assert (m.unit, m.sample) == ("Mpps", "tx_pps")
    assert m.sample in run_names("xdpsock", spec.benchmark.argv, "xdpsock_paste.txt")


def _corpus_metrics(case: str) -> list:
    """The metrics of every spec built from one shared corpus case (skips without it)."""
    path = CORPUS / f"{case}.txt"
    if not path.exists():
        pytest.skip(f"shared corpus not here: {path}")
    specs = build_specs([extract_message(m) for m in iter_messages(str(path))])
    return [m for s in specs for m in s.metrics]


def test_xdpsock_corpus_mail_pps_claims():
    metrics = _corpus_metrics("d011")
    assert metrics and {(m.name, m.sample) for m in metrics} == {("packet rate", "tx_pps")}


def test_pktgen_mpps_claim_reads_its_pps():
    pktgen = tool_for_program("pktgen")
    got = pktgen.sample_for("packet rate", "Mpps", [])
    assert got == "pps"
    assert got in run_names("pktgen", [], "pktgen_paste.txt")


def test_argv_decides_for_the_same_words():
    netperf = tool_for_program("netperf")
    # `throughput` said of a TCP_RR run is the rate TCP_RR prints
    assert netperf.sample_for("throughput", None, ["netperf", "-t", "TCP_RR"]) == \
        "transaction_rate"
    # omni selectors name the samples: an RR test's throughput is in Trans/s
    argv = ["netperf", "-H", "server", "-t", "TCP_RR", "--", "-O",
            "THROUGHPUT,P50_LATENCY,P99_LATENCY"]
    names = run_names("netperf", argv, "netperf_rr_O.txt")
    for words, unit, want in (("p99 latency", "us", "p99_latency"),
                              ("TCP_RR rate", None, "throughput")):
        got = netperf.sample_for(words, unit, argv)
        assert got == want and got in names
    sockperf = tool_for_program("sockperf")
    tp = ["sockperf", "throughput", "-i", "server"]
    assert sockperf.sample_for("message rate", "msg/s", tp) == "message_rate"
    assert "message_rate" in run_names("sockperf", tp, "sockperf_throughput.txt")
    iperf3 = tool_for_program("iperf3")
    assert iperf3.sample_for("throughput", "Gbps", ["iperf3", "-c", "h", "--bidir"]) is None
    rx = iperf3.sample_for("RX throughput", "Gbps", ["iperf3", "-c", "h", "--bidir"])
    assert rx in run_names("iperf3", ["iperf3", "-c", "h", "--bidir"], "iperf3_bidir.txt")


def test_names_the_tool_already_gives_are_kept():
    # seed 001: pasted netperf output, so the names are netperf's own and need no sample
    metrics = _corpus_metrics("s001")
    assert metrics and all(m.sample is None for m in metrics)
    assert {m.name for m in metrics} >= {"transaction_rate", "cpu_local"}


def test_every_name_the_parsers_give_fixtures_is_known_to_the_description():
    """sample_names/sample_pattern are what "already a sample name" means: they must cover
    every result the parser reads from the real outputs."""
    seen = 0
    for fx in sorted(FIX.iterdir()):
        lines = fx.read_text().splitlines()
        for tool in all_tools():
            for block in tool.find_outputs(lines):
                for s in block.samples:
                    if not s.config:
                        seen += 1
                        assert tool.is_sample_name(s.metric), (fx.name, tool.name, s.metric)
    assert seen > 100


# -- what cannot be mapped stays None, and the verdict says why ------------------------------

def test_unmappable_names_stay_none():
    netperf = tool_for_program("netperf")
    argv = ["netperf", "-H", "server", "-t", "TCP_RR"]
    assert netperf.sample_for("RxIRQs", None, argv) is None
    assert netperf.sample_for("1G TCP Guest->Host Secs", None, argv) is None
    assert netperf.sample_for("in bonding", "%", argv) is None  # a share of what?
    assert netperf.sample_for("rate", "Gbps", argv) is None  # TCP_RR prints no bit rate


def _runs(key: str, base: float, gain: float, n: int = 10, seed: int = 7) -> list[RunRecord]:
    rng = random.Random(seed)
    runs = []
    for i in range(2 * n):
        var = "baseline" if i % 2 == 0 else "candidate"
        v = base * (1 + gain if var == "candidate" else 1) * (1 + rng.gauss(0, 0.004))
        runs.append(RunRecord(variant=var, index=i, samples={key: v}))
    return runs


def _measured_rate() -> float:
    netperf = tool_for_program("netperf")
    text = (FIX / "netperf_tcp_rr_cc.txt").read_text()
    return next(s.value for s in netperf.parse(text) if s.metric == "transaction_rate")


def test_verdict_finds_the_prose_metric_under_the_tools_name():
    spec, m = only_metric(RR_MAIL)
    d = Spec.from_yaml(spec.to_yaml()).to_dict()  # as `verifier run` reads it back
    assert d["metrics"][0]["sample"] == "transaction_rate"
    results = Results(spec=d, runner="test",
                      runs=_runs("transaction_rate", _measured_rate(), 0.10))
    (v,) = judge(results)
    assert v.verdict == CONFIRMED, v.sentence
    assert v.metric == m.name and v.sample == "transaction_rate"
    assert v.n_base == v.n_cand == 10


def test_verdict_on_an_unmapped_metric_says_what_the_runs_measured():
    path = CORPUS / "d012.txt"
    if not path.exists():
        pytest.skip(f"shared corpus not here: {path}")
    specs = build_specs([extract_message(m) for m in iter_messages(str(path))])
    (spec,) = specs
    assert [m.sample for m in spec.metrics] == [None] * len(spec.metrics)
    xdpsock = tool_for_program("xdpsock")
    real = {s.metric: s.value for s in xdpsock.parse((FIX / "xdpsock_paste.txt").read_text())}
    runs = _runs("tx_pps", real["tx_pps"], 0.05)
    d = spec.to_dict()
    d["metrics"] = d["metrics"][:1]
    (v,) = judge(Results(spec=d, runner="test", runs=runs))
    assert v.verdict == INVALID
    assert "0 usable samples of size 64" in v.reason
    assert "tx_pps" in v.reason and "sample" in v.reason


def test_spec_yaml_keeps_sample_and_old_specs_load():
    spec, _ = only_metric(RR_MAIL)
    back = Spec.from_yaml(spec.to_yaml())
    assert back.metrics[0].sample == "transaction_rate"
    old = spec.to_dict()
    for metric in old["metrics"]:
        del metric["sample"]  # a spec written before the field existed
    loaded = Spec.from_dict(old)
    assert loaded.metrics[0].sample is None
    assert sample_name(old["metrics"][0]) == old["metrics"][0]["name"]
    bad = spec.to_dict()
    bad["metrics"][0]["sample"] = ""
    with pytest.raises(ValueError, match="sample"):
        Spec.from_dict(bad)
