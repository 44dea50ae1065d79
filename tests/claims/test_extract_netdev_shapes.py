"""Results formats netdev cover letters and commit messages use, read end to end.

Each fixture in tests/fixtures/netdev_shapes/ is invented in the shape of one format real
netdev mail pastes (lore.kernel.org/netdev): paraphrased, with invented numbers, names and
subjects.  The held-out sets of real netdev mail cannot be seen here; these are their
closest stand-in.  Every test asserts the whole set of pairs read (precision first: a
format read wrongly is worse than one skipped) and the direction of each."""
from __future__ import annotations

from pathlib import Path

import pytest

from claims.model import Line
from claims.prose import passages
from tests.extractkit import ex

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "netdev_shapes"

# fixture -> (the format it is invented in the shape of, {(baseline, candidate): better})
CASES: dict[str, tuple[str, dict[tuple[float, float], str | None]]] = {
    "xdp_bench_summary": ("xdp-bench redirect 'Summary  N rx/s  0 err/s' lines under Before:/After:",
                          {(11204331, 13877902): "higher"}),
    "pktgen_result": ("pktgen 'Result: OK: ... Npps NMb/sec (Nbps) errors: 0' before/after",
                      {(1499772, 1862019): "higher", (767, 953): "higher", (767883264, 953353728): "higher"}),
    "neper_rr_lines": ("neper tcp_rr key=value output (throughput=, latency_p50=, latency_p99=) base/patched",
                       {(612345.21, 640112.87): "higher", (0.031, 0.0297): "lower", (0.0572, 0.0539): "lower"}),
    "one_line_mpps": ("a one-line 'before: X Mpps, after: Y Mpps' sentence", {(4.12, 4.58): "higher"}),
    "prose_from_to_gbit": ("two 'from X to Y' clauses in one wrapped sentence (Gbit/s, CPU %)",
                           {(71.3, 86.9): "higher", (92, 71): "lower"}),
    "netperf_rr_table": ("a netperf TCP_RR table with flows as rows and net-next / net-next + series columns",
                         {(31245, 32872): None, (245112, 260331): None, (892341, 951020): None}),
    "super_netperf_totals": ("super_netperf totals on before:/after: lines", {(87321, 91877): "higher"}),
    "perf_stat_counters": ("perf stat -e counter blocks under Before:/After:",
                           {(42112334201, 41902554112): "lower", (31220114876, 31198772004): "lower",
                            (0.74, 0.74): "higher",  # "insn per cycle", IPC: higher is better
                            (412876301, 305112778): "lower"}),
    "mpps_per_core_table": ("an 'Mpps per core' table, cores x base/patched with a +x% delta column",
                            {(9.8, 11.2): "higher", (19.1, 21.9): "higher", (37.6, 43.0): "higher"}),
    "stddev_results": ("'mean ± stddev' result lines, baseline:/patched:", {(18.42, 21.07): "higher"}),
    "latency_us_sentence": ("'latency reduced from X us to Y us' prose", {(38, 24): "lower"}),
    "ethtool_s_deltas": ("ethtool -S counter deltas before:/after:",
                         {(48211, 512): "lower", (1203, 7): None}),
    "percent_column_table": ("a markdown table test | before | after | diff (+x%)",
                             {(38211, 39876): None, (51234, 55102): None, (60012, 63870): None}),
    "ns_per_packet": ("'drops from X ns to Y ns' per-packet cost prose", {(48.2, 41.7): "lower"}),
    "sar_dev_lines": ("sar -n DEV 'Average:' lines with their header, Before:/After:",
                      {(812345.2, 934512.8): "higher", (40211.1, 46210.3): "higher",
                       (1181234.55, 1359011.21): "higher", (2612.33, 3001.47): "higher"}),
    "arrow_per_queue": ("'N queues: X Mpps -> Y Mpps (+z%)' lines, results per queue count",
                        {(6.21, 6.93): "higher", (23.10, 26.48): "higher", (41.75, 47.02): "higher"}),
    "kernel_version_rows": ("a table whose rows are the variants, named net-next and net-next + series",
                            {(1212004, 1398812): "higher", (1198774, 1387220): "higher"}),
    "cpus_swept_columns": ("a table with the CPU count swept over the columns and before/after rows",
                           {(35211, 38002): None, (69012, 74820): None, (131877, 142311): None,
                            (240331, 262001): None}),
    "nstat_deltas": ("nstat -az counter deltas under before:/after:",
                     {(12344, 1022): "lower", (88123, 40211): "lower"}),
    "mpstat_softirq": ("mpstat 'Average:' lines with their header, before:/after:",
                       {(0.51, 0.49): None, (6.12, 5.98): None, (61.42, 44.87): None, (31.95, 48.66): None}),
}


def _read(name: str) -> dict[tuple[float, float], str | None]:
    claims = ex((FIXTURES / f"{name}.txt").read_text()).claims
    return {(c.baseline.value, c.candidate.value): c.better for c in claims if c.baseline and c.candidate}


@pytest.mark.parametrize("name", sorted(CASES))
def test_netdev_format_reads_its_pairs(name: str) -> None:
    shape, expected = CASES[name]
    assert _read(name) == expected, shape


def test_every_fixture_has_a_case() -> None:
    assert sorted(p.stem for p in FIXTURES.glob("*.txt")) == sorted(CASES)


def test_an_identifier_column_is_no_result() -> None:
    """Invented in the shape of mpstat output: the CPU number is the row's key; reading it
    as a result gave a junk "CPU 4 -> 4" pair."""
    metrics = {c.metric for c in ex((FIXTURES / "mpstat_softirq.txt").read_text()).claims}
    assert not any(m and m.rstrip().endswith("CPU") for m in metrics)
    assert any(m and "%soft" in m for m in metrics)


def test_a_sentence_wrapped_after_from_goes_on() -> None:
    """Invented in the shape of a netdev commit message: "drops from" / "92% to 71%." is
    one sentence, though its second line has too few words to be prose by itself."""
    lines = [Line("and the CPU usage drops from", 1), Line("92% to 71%.", 2)]
    assert [len(p.lines) for p in passages(lines, set())] == [2]
    table = [Line("Results from", 1), Line("64     1.2     1.3", 2)]
    assert [len(p.lines) for p in passages(table, set())] == [1, 1]


def test_a_count_of_cpus_is_no_cpu_usage() -> None:
    """"CPUs 4" names how many CPUs ran the test: it says nothing of the direction, while
    "CPU usage" and "%cpu" go down when better."""
    from claims.numbers import better_for

    assert better_for("CPUs 4", None) is None
    assert better_for("8 cpus", None) is None
    assert better_for("CPU usage", None) == "lower"
    assert better_for("%cpu", None) == "lower"


def test_retransmits_go_down() -> None:
    """"TcpRetransSegs" (nstat) holds "trans" but counts retransmissions, not transactions."""
    from claims.numbers import better_for

    assert better_for("TcpRetransSegs", None) == "lower"
    assert better_for("TCP_RR transactions", None) == "higher"
