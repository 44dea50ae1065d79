"""The one number and unit reader every stage uses: units as a grammar (a base quantity, an
SI or binary prefix, an optional "/time"), and decimal commas only where they cannot be a
thousands group."""
from __future__ import annotations

import pytest

from claims.numbers import (
    better_for,
    is_rate,
    is_unit,
    parse_number,
    spelled_rate,
    tokenize,
    unit_kind,
)
from tests.extractkit import ex, pairs


@pytest.mark.parametrize("word", [
    "transactions/sec", "trans/s", "Trans/s", "K/s", "Kpps", "Mpps", "Mbit/s", "Gbits/sec",
    "msg/s", "req/s", "ops/sec", "Kops/s", "kIOPS", "usec", "µs", "nsec", "MBytes", "MiB/s",
    "GB/s", "Gbps", "tps", "frames/s", "events/sec", "calls/s", "GHz", "%", "x", "cycles",
    "Mpps.", "(usec)",
])
def test_units_as_printed_in_benchmark_output(word: str) -> None:
    assert is_unit(word)


@pytest.mark.parametrize("word", [
    # counted things are no unit without a rate ("12 requests" counts requests) and
    # ordinary words after a number are the next label, never its unit
    "requests", "packets", "instructions", "batch", "mode", "the", "on", "to", "ps", "t", "p", "k", "M",
])
def test_words_that_are_not_units(word: str) -> None:
    assert not is_unit(word)


@pytest.mark.parametrize(("unit", "kind"), [
    ("transactions/sec", "transaction rate"), ("Mtrans/s", "transaction rate"),
    ("tps", "transaction rate"), ("req/s", "request rate"), ("Kpps", "packet rate"),
    ("kmsg/s", "message rate"), ("ops/sec", "operation rate"), ("Mbit/s", "throughput"),
    ("Gbits", "throughput"), ("KIOPS", "IOPS"), ("usec", "latency"), ("µs", "latency"),
    ("s", "time"), ("MBytes", None), ("%", None),
])
def test_unit_kind_names_what_a_unit_measures(unit: str, kind: str | None) -> None:
    assert unit_kind(unit) == kind


def test_rates_are_counts_per_time() -> None:
    assert is_rate("calls/s") and is_rate("Kpps") and is_rate("Mbit/s")
    assert not is_rate("usec") and not is_rate("MBytes") and not is_rate("%")


def test_any_count_per_second_is_a_rate() -> None:
    """"from 812345 to 901234 records/s" gave nothing: "records/s" was no unit, so the
    word after the second number ended the template. What a count is of does not change
    that it is a rate: any word of letters per second is one (ebizzy's records/s, sar's
    rxpck/s), higher-better unless it counts what nobody wants."""
    assert is_unit("records/s") and is_rate("records/s") and is_rate("pages/sec") and is_unit("widgets/second")
    assert better_for("rate", "records/s") == "higher" and better_for("rate", "faults/s") == "lower"
    assert not is_unit("and/or") and not is_unit("w/o") and not is_unit("b/w") and not is_unit("s/s")
    # spelled out, only the listed counts: how often something is done is no measure
    assert spelled_rate("transactions", "second") == "transactions/second" and spelled_rate("times") is None
    (c,) = ex("Subject: t\n\nThroughput goes from 812345 to 901234 records/s.\n").claims
    assert (c.metric, c.baseline.value, c.candidate.value, c.unit, c.better) == (
        "Throughput", 812345, 901234, "records/s", "higher")


def test_a_spelled_out_rate_belongs_to_its_number() -> None:
    toks = tokenize("TCP_RR  45123.7 transactions/sec  latency 21,5 usec")
    vals = [(t.value, t.unit) for t in toks if t.kind == "value"]
    assert vals == [(45123.7, "transactions/sec"), (21.5, "usec")]


@pytest.mark.parametrize(("text", "value"), [
    ("1,445,864", 1445864.0), ("1.204.300", 1204300.0), ("52,1076", 521076.0),
    ("1,5", 1.5), ("-0,25", -0.25), ("1.234,56", 1234.56), ("12,345", 12345.0), ("0.55", 0.55),
])
def test_parse_number_reads_thousands_groups_and_decimal_commas(text: str, value: float) -> None:
    assert parse_number(text) == value


def test_decimal_comma_only_beside_a_unit() -> None:
    # "1,5 ms" is a duration; "cpus 1,5" is a list of two CPUs, not a number
    assert [(t.value, t.unit) for t in tokenize("p99 1,5 ms, 12,3Gbit/s") if t.kind == "value"] == [
        (1.5, "ms"), (12.3, "Gbit/s")]
    assert [t for t in tokenize("pinned to cpus 1,5 and 2,6") if t.kind == "value"] == []


def test_decimal_commas_in_a_sentence_pair() -> None:
    assert pairs("Latency went from 1,5 ms to 1,2 ms with the patch applied.") == [(1.5, 1.2)]
    assert pairs("Throughput: 12,3 Gbit/s vs 14,1 Gbit/s.") == [(12.3, 14.1)]


def test_decimal_commas_in_before_after_blocks() -> None:
    text = "Before:\n  latency 12,5 usec\nAfter:\n  latency 10,1 usec\n"
    got = ex(text).claims
    assert [(c.baseline.value, c.candidate.value, c.unit) for c in got if c.baseline and c.candidate] == [
        (12.5, 10.1, "usec")]


def test_thousands_separators_stay_integers() -> None:
    assert pairs("Before: 1,445,864 pps\nAfter:  1,512,000 pps\n") == [(1445864.0, 1512000.0)]


def test_a_spelled_out_rate_names_the_metric() -> None:
    got = [c for c in ex("With the patch applied it went from 812 msg/s to 901 msg/s.").claims if c.baseline]
    assert [(c.baseline.value, c.candidate.value, c.metric, c.better) for c in got] == [
        (812.0, 901.0, "message rate", "higher")]


def test_a_rate_written_over_three_words_is_one_unit() -> None:
    toks = tokenize("TCP_RR 45123 transactions per second, 3.1 Gbit per sec, 12 packets per run")
    assert [(t.value, t.unit) for t in toks if t.kind == "value"] == [
        (45123.0, "transactions/second"), (3.1, "Gbit/sec"), (12.0, None)]
    got = [c for c in ex("Before: 45123 transactions per second\nAfter: 47001 transactions per second\n").claims
           if c.baseline and c.candidate]
    assert [(c.baseline.value, c.candidate.value, c.better) for c in got] == [(45123.0, 47001.0, "higher")]


def test_a_percent_sign_after_a_bracket_is_code_not_a_percent() -> None:
    # a quoted vhost diff context line: "(n - 1) % N" is a modulo; gated or not, no claim
    code = "\t\t\t\tnvq->upend_idx = ((unsigned)nvq->upend_idx - 1)\n\t\t\t\t\t% UIO_MAXIOV;\n"
    assert [t.percent for t in tokenize("(fn + 1) % 8") if t.kind == "value"] == [False, False]
    assert ex("Looks fine to me.\n\n" + code).claims == []
    assert ex('Is this because "(fn + 1) % 8" may be zero?\n').claims == []
    assert [t.percent for t in tokenize("it got 22 % faster") if t.kind == "value"] == [True]


def test_a_commands_options_in_a_metric_name_give_no_direction() -> None:
    # archive: a will-it-scale table whose rows are named by the command line; its "-s 10"
    # (seconds to run) had read the ops count as lower-is-better
    assert better_for("will-it-scale/lock2_threads -s 10 -t 64", None) is None
    assert better_for("ping -s 1400 rtt", "ms") == "lower"
    assert better_for("time", "s") == "lower"


def test_a_rate_of_unwanted_events_goes_down() -> None:
    # 0-day's `%change` rows name perf stat's miss ratio with "rate" (reference/peers.md §1.1);
    # a rate or a per-second count of misses, faults, losses or errors is better when lower
    for metric, unit in (("perf-stat.overall.branch-miss-rate%", "%"), ("page-faults/sec", None),
                         ("TCPLossProbes", None), ("rx_errors/s", None), ("packet loss rate", "%"),
                         ("dTLB-load-misses", None)):
        assert better_for(metric, unit) == "lower", metric
    # the words only at a word's start: a transmission, a default or a submission is no miss
    for metric in ("transmission rate", "default throughput", "submissions/s", "Throughput_Mbps"):
        assert better_for(metric, None) == "higher", metric


def test_dropped_packets_go_down_and_an_xdp_drop_rate_up() -> None:
    """A count or a rate of dropped packets is better when lower ("ops" inside "drops" is
    no operations per second); XDP_DROP names the action a benchmark runs, whose packet rate
    is its speed; "ops" counts operations alone or after a magnitude ("Mops", "kops/s")."""
    for metric in ("drops", "rx_dropped", "packets dropped", "drop rate", "RxDrops", "tx_drops/s"):
        assert better_for(metric, None) == "lower", metric
    for metric, unit in (("XDP_DROP", "Mpps"), ("XDP_DROP pps", None), ("ops", None), ("Mops", None),
                         ("throughput", "kops/s")):
        assert better_for(metric, unit) == "higher", metric
    assert better_for("stops", None) is None and better_for("loops", None) is None


def test_a_transmission_is_no_transaction_rate_nor_a_miss() -> None:
    """vsock's tables "Guest to host transmission" (seconds spent in the tx syscall, a
    sentence above says): the name alone gives no direction. "trans" counts transactions
    ("trans/s", "Trans. Rate"), not a transmission; "miss" starts its word ("cache-misses")."""
    assert better_for("Guest to host transmission buf size 4KB", None) is None
    assert better_for("G2H transmission (values are Gbit/s)", None) == "higher"
    assert better_for("TCP_RR", "trans/s") == "higher" and better_for("Trans. Rate", None) == "higher"
    for metric in ("cache-misses", "dTLB-load-misses", "misses", "iTLB misses"):
        assert better_for(metric, None) == "lower", metric


def test_the_cpu_left_idle_is_better_when_higher() -> None:
    """"rx dim off: cpu idle= ~35%" / "rx dim on: cpu idle= ~76%" (the reviewer: "This looks
    promising"): the same packet rate at more idle CPU is cheaper; CPU use stays lower-better.
    mpstat's bare "%idle" column gives no direction, as its "%usr" and "%soft" give none
    (tests/claims/test_extract_netdev_shapes.py: work moved off a core is not better by itself)."""
    for metric, unit in (("cpu idle=", "%"), ("CPU idle", "%"), ("cpu-idle", None)):
        assert better_for(metric, unit) == "higher", metric
    assert better_for("CPU utilization", "%") == "lower"
    # "idle" makes no rate of wakeups higher-better: wakeups are events a change avoids
    # (powertop's wakeups/s), lower-better (this said None before counts of events had one)
    assert better_for("idle wakeups", None) == "lower"
    assert better_for("Average: %idle", None) is None
    got = ex("rx dim off: cpu idle= ~35%\nrx dim on: cpu idle= ~76%\n").claims
    assert [(c.baseline.value, c.candidate.value, c.better) for c in got] == [(35, 76, "higher")]


def test_a_unit_after_the_spread_is_the_values_too() -> None:
    """bpf's bench prints "hits 12.345 ± 0.123M/s", others "12.3 +- 0.5 us": the unit
    written once, after the spread, is the value's; without it the claim had no unit (and
    no direction: "hits" alone says nothing of it)."""
    toks = tokenize("Summary: hits   12.345 ± 0.123M/s ( 12.345M/prod), drops    0.000 ± 0.000M/s")
    assert [(t.text, t.kind, t.unit) for t in toks if t.kind in ("value", "spread")] == [
        ("12.345", "value", "M/s"), ("0.123M/s", "spread", "M/s"),
        ("0.000", "value", "M/s"), ("0.000M/s", "spread", "M/s")]
    toks = tokenize("12.3 +- 0.5 us")
    assert [(t.kind, t.unit) for t in toks if t.kind != "word"] == [("value", "us"), ("spread", "us")]
    pct = tokenize("1234 +- 5 %")  # a spread in percent of the value: the value has no unit
    assert [(t.kind, t.unit, t.percent) for t in pct if t.kind != "word"] == [
        ("value", None, False), ("spread", "%", True)]
    (c,) = ex("Before:\n  Summary: hits   12.345 ± 0.123M/s ( 12.345M/prod)\n"
              "After:\n  Summary: hits   15.678 ± 0.101M/s ( 15.678M/prod)\n").claims
    assert (c.unit, c.better, c.baseline.spread) == ("M/s", "higher", 0.123)


@pytest.mark.parametrize(("unit", "better"), [
    ("microseconds", "lower"), ("milliseconds", "lower"), ("usecs/op", "lower"), ("ns/op", "lower"),
    ("cycles/op", "lower")])
def test_time_spelled_out_and_a_cost_per_operation_are_units(unit: str, better: str) -> None:
    """lmbench prints "1.23 microseconds", perf bench "5.432 usecs/op": read as words, the
    claim had no unit, or none at all."""
    assert is_unit(unit) and better_for("x", unit) == better
    (c,) = ex(f"before:     1.23 {unit}\nafter:      1.12 {unit}\n").claims
    assert (c.unit, c.better, c.baseline.value, c.candidate.value) == (unit, better, 1.23, 1.12)


def test_a_magnitude_standing_alone_scales_the_unit_after_it() -> None:
    """bpf's bench: "throughput 20.434 ± 0.040 M ops/s": the "M" is the unit's prefix, on
    the value and on its spread (Mops/s, higher is better); read as a word, the claim had
    no unit and was named "M ops/s"."""
    toks = tokenize("throughput   20.434 ± 0.040 M ops/s")
    assert [(t.kind, t.unit) for t in toks if t.kind != "word"] == [("value", "Mops/s"), ("spread", "Mops/s")]
    (c, _) = ex("Before: Throughput: 12.34 M ops/s, latency 81 ns/op\n"
                "After:  Throughput: 14.56 M ops/s, latency 69 ns/op\n").claims
    assert (c.metric, c.unit, c.better) == ("Throughput", "Mops/s", "higher")


def test_an_ordinal_is_a_name_not_a_value() -> None:
    """"95th (ms)" heads a column of sysbench's latencies: a percentile's name. Read as the
    value 95 in "th", the header became a row and paired with the rows under it (6.21 ->
    95 "th"), and the columns lost their names."""
    assert [t.kind for t in tokenize("95th (ms)  2nd run  50.0th: 16")] == ["word"] * 5 + ["value"]
    text = ("sysbench oltp_read_only, 64 threads:\n\n"
            "          queries/s     avg lat (ms)   95th (ms)\n"
            "vanilla   412345.12     4.96           6.21\n"
            "patched   440123.98     4.65           5.77\n")
    got = {c.metric: (c.baseline.value, c.candidate.value, c.better) for c in ex(text).claims}
    assert got == {"request rate": (412345.12, 440123.98, "higher"), "avg lat (ms)": (4.96, 4.65, "lower"),
                   "95th (ms)": (6.21, 5.77, "lower")}


@pytest.mark.parametrize(("line", "values"), [
    ("randread: (groupid=0, jobs=4): err= 0: pid=1234: Mon Dec  7 10:00:00 2026", [0.0, 4.0, 0.0]),
    ("Date: Mon, 7 Dec 2026 10:00:00 +0000", []),
    ("on Dec 7, 2026 we saw 12 Mpps", [12.0]),
    ("2048 bytes: 7 Mpps, 31 Mpps", [2048.0, 7.0, 31.0]),  # a size is no year, a count no day
])
def test_a_date_or_a_process_id_is_no_value(line: str, values: list[float]) -> None:
    """fio prints "pid=N: <date>" over each run: two runs' pids, days and years had been
    paired as measures. A day beside a month, a year after a month, a day or a time of
    day, a time zone after the time, and an id's key=value are words."""
    assert [t.value for t in tokenize(line) if t.kind == "value"] == values


@pytest.mark.parametrize(("metric", "better"), [
    ("instructions per cycle", "higher"),  # perf stat's "insn per cycle" (IPC), not instructions
    ("insn per cycle", "higher"),
    ("instructions", "lower"),
    ("hit ratio", "higher"),
    ("efficiency", "higher"),
    ("per-packet cost", "lower"),
    ("power consumption", "lower"),
    ("energy", "lower"),
    ("powerpc", None),
])
def test_directions_of_names_mail_uses(metric: str, better: str | None) -> None:
    """A direction read wrongly turns a confirmed gain into a regression in a verdict:
    "instructions per cycle" had been lower-is-better ("instructions"), and the cost,
    power and energy of a run, or a hit ratio, had no direction at all."""
    assert better_for(metric, None) == better


def test_instructions_processed_and_io_waits_are_costs() -> None:
    """veristat's "Insns" (the instructions the verifier processed) and iostat's "r_await"
    (the mean wait of a read) had no direction, as "instructions" had one: both are lower-
    better. Instructions per cycle, written "insns/cycle" too, stay higher-better."""
    for metric in ("Insns", "Total insns", "r_await", "w_await"):
        assert better_for(metric, None) == "lower", metric
    for metric in ("insn per cycle", "insns/cycle", "instructions per cycle"):
        assert better_for(metric, None) == "higher", metric


@pytest.mark.parametrize(("metric", "way"), [
    ("page_fault1_processes", None),  # will-it-scale's test: the operations it does, not faults
    ("lock2_threads", None),
    ("page-faults/sec", "lower"),
    ("iTLB-load-misses", "lower"),
    ("rx_dropped", "lower"),
    ("Hmean faults/sec-4", "higher"),  # mmtests' harmonic mean: a rate of work done
    ("Hmean faults/cpu-1", "higher"),
    ("BHmean-99 faults/sec-4", "higher"),
    ("Amean fault-anon-1", "lower"),
    ("Hmean latency", "lower"),
])
def test_directions_of_test_names_and_means(metric: str, way: str | None) -> None:
    """A word of an unwanted event glued to a number is a test's name ("page_fault1" counts
    what the test does, higher-better: +9% had read as a regression); mmtests heads a
    throughput's rows "Hmean", the mean of rates, whatever its unit counts."""
    assert better_for(metric, None) == way


@pytest.mark.parametrize(("metric", "unit", "way"), [
    ("rx drop", "Mpps", "higher"),  # pktgen/XDP: the speed of the drop action
    ("XDP_DROP", "Mpps", "higher"),
    ("xdp_drop", "Mpps", "higher"),
    ("rx drop", None, None),
    ("rx_dropped", None, "lower"),  # a counter of packets dropped
    ("RxDropped", "Mpps", "lower"),
    ("avg packets drop", None, "lower"),
    ("drop rate", "%", "lower"),
    ("drops", "pps", "lower"),
])
def test_a_drop_action_and_drops_counted(metric: str, unit: str | None, way: str | None) -> None:
    """"rx drop 10.2 Mpps -> 11.4 Mpps" was lower-better by "drop", so +11.8% read as a
    regression: a bare "drop" is also the action a test times (XDP_DROP already was);
    packets dropped ("drops", "dropped", "drop rate", "packets drop") stay lower-better."""
    assert better_for(metric, unit) == way


def test_a_bare_number_in_parentheses_after_a_mean_is_its_deviation() -> None:
    """kernbench prints "Elapsed Time 102.41 (0.62)", a mean and its standard deviation;
    each block's second number was read as a value of its own, so a claim named "value"
    paired 0.62 with 0.48. A bare smaller number in parentheses right after a value is its
    spread; a change keeps its sign or "%", a rate its unit, and a larger number (a count
    beside it) stays a value."""
    kinds = [(t.kind, t.value) for t in tokenize("Elapsed Time 102.41 (0.62)") if t.kind != "word"]
    assert kinds == [("value", 102.41), ("spread", 0.62)]
    assert [t.kind for t in tokenize("1267765 (14146)")] == ["value", "spread"]
    for text in ("12.3 (+5%)", "12.3 (5%)", "12 (345)", "1234567 (4115.20 per sec.)", "12.3 (0.4 ms)"):
        assert "spread" not in [t.kind for t in tokenize(text)], text
    text = ("Before:\n  Elapsed Time 102.41 (0.62)\n  User Time 2902.11 (3.20)\n\n"
            "After:\n  Elapsed Time 98.77 (0.48)\n  User Time 2899.30 (2.95)\n")
    got = [(c.metric, c.baseline.value, c.baseline.spread, c.candidate.value, c.candidate.spread) for c in ex(text).claims]
    assert got == [("Elapsed Time", 102.41, 0.62, 98.77, 0.48), ("User Time", 2902.11, 3.2, 2899.3, 2.95)]
