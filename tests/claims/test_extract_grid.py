"""The grid model (claims.grid): one reader for every table shape, on invented inputs shaped
like real mail (whitespace-aligned with a title unit and a key column, two-line headers,
box drawing, `+0%` reference rows, tables one per variant, side-by-side tables, long
format), the non-results that must stay out (repeated runs of one variant, one system's
numbers, source listings, perf stat multiplex shares), and properties: arbitrary text
never crashes or hangs it, and its time grows linearly with the input."""
from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claims.extract import skipped_lines
from claims.grid import all_grid_claims, parse_line, pieces
from claims.message import message_from_text
from claims.model import Line
from claims.numbers import tokenize
from claims.tables import TablePasses, all_table_claims
from tests.extractkit import ex, pairs
from tests.paths import SHARED


def _lines(text: str) -> list[Line]:
    return [Line(t, n + 1) for n, t in enumerate(text.split("\n"))]


def test_aligned_table_with_key_column_and_title_unit() -> None:
    text = ("                    host -> guest [Gbps]\n"
            "pkt_size before opt   p 1     p 2+3\n\n"
            "32         0.032     0.030    0.048\n"
            "64         0.061     0.059    0.108\n"
            "1K         0.927     0.919    1.657\n")
    got = ex(text).claims
    assert [(c.baseline.value, c.candidate.value) for c in got] == [
        (0.032, 0.030), (0.032, 0.048), (0.061, 0.059), (0.061, 0.108), (0.927, 0.919), (0.927, 1.657)]
    assert {c.unit for c in got} == {"Gbps"} and got[0].baseline.label == "before opt"


def test_two_tables_told_apart_by_titles_written_with_symbols() -> None:
    """A title's length is its words, not the symbols spaced between them: "host -> guest
    efficiency [Mbps / (%CPU_Host + %CPU_Guest)]" (six words, ten pieces) names its table,
    so the claims of the two directions' tables are not one metric twice."""
    def table(title: str, rows: str) -> str:
        return f"        {title} efficiency [Mbps / (%CPU_Host + %CPU_Guest)]\n" \
            f"pkt_size before opt   p 1     p 2+3\n\n{rows}\n"

    got = ex(table("host -> guest", "32         0.35      0.45     0.79\n64         0.56      0.80     1.41\n")
             + table("guest -> host", "32         0.43      0.43     0.53\n64         0.85      0.86     1.04\n")).claims
    names = {(c.metric, c.candidate.label): (c.baseline.value, c.candidate.value) for c in got}
    assert len(names) == 8 == len(got)
    assert names[("host -> guest efficiency [Mbps / (%CPU_Host + %CPU_Guest)] pkt_size 32", "p 1")] == (0.35, 0.45)
    assert names[("guest -> host efficiency [Mbps / (%CPU_Host + %CPU_Guest)] pkt_size 64", "p 2+3")] == (0.85, 1.04)
    assert {c.better for c in got} == {"higher"}


def test_the_last_item_of_a_setup_list_is_no_title() -> None:
    """A bulleted list describing the setup right above a table ("- CPU: Xeon ... @ 2.20GHz"):
    its last item does not name the table's metrics (nor make IOPS a CPU share)."""
    text = ("- Benchmark: fio ioengine=pvsync2 numjobs=4 direct=1\n"
            "- CPU: Intel(R) Xeon(R) Silver 4214 CPU @ 2.20GHz\n\n"
            "rw          bs hipri=0 hipri=1\n------------------------------\n"
            "randread    4k 149,426 170,763 +14%\nrandread   16k 118,939 134,269 +12%\n")
    got = ex(text).claims
    assert [(c.baseline.value, c.candidate.value) for c in got] == [(149426, 170763), (118939, 134269)]
    assert not any("CPU" in c.metric for c in got) and {c.better for c in got} != {"lower"}


def test_a_setting_column_before_the_variants_names_each_row() -> None:
    """fio's table "rw  bs  hipri=0  hipri=1": the block size beside the workload is what
    each row was run with, so "randread" at 4k and at 16k are two metrics, not one twice."""
    text = ("rw          bs hipri=0 hipri=1\n------------------------------\n"
            "randread    4k 149,426 170,763 +14%\nrandread   16k 118,939 134,269 +12%\n"
            "randwrite   4k 138,578 163,600 +18%\n")
    got = [(c.metric, c.baseline.value, c.candidate.value, c.claimed_change_pct) for c in ex(text).claims]
    assert got == [("randread bs 4k", 149426, 170763, 14), ("randread bs 16k", 118939, 134269, 12),
                   ("randwrite bs 4k", 138578, 163600, 18)]


def test_two_line_header_with_units_and_diff_column() -> None:
    text = ("          Before     After        Diff\n"
            "clients   req/ms     req/ms\n"
            "      2       3120       4410     +41%\n"
            "      4       4870       8015     +65%\n")
    got = ex(text).claims
    assert [(c.baseline.value, c.candidate.value, c.claimed_change_pct) for c in got] == [
        (3120, 4410, 41.0), (4870, 8015, 65.0)]


def test_box_drawing_table() -> None:
    text = ("┌──────────┬───────────┬───────────┐\n"
            "│          │ before    │ after     │\n"
            "├──────────┼───────────┼───────────┤\n"
            "│ gcc -O2  │ 402 Mb/s  │ 411 Mb/s  │\n"
            "│ gcc -Os  │ 398 Mb/s  │ 390 Mb/s  │\n"
            "└──────────┴───────────┴───────────┘\n")
    assert pairs(text) == [(402, 411), (398, 390)]


def test_zero_change_row_is_the_reference() -> None:
    text = ("Kpps  +-%\n"
            "batch = 1 410 +0%\n"
            "batch = 4 452 +10.2%\n"
            "batch = 16 470 +14.6%\n")
    assert pairs(text) == [(410, 452), (410, 470)]


def test_variants_named_by_the_text_and_swept_columns() -> None:
    text = ("Subject: [RFC] qux: replace the lock with RCU\n\n"
            "mode        1 flow    8 flows    32 flows\n"
            "lock        11        7          4          Gbps\n"
            "rcu         19        15         12         Gbps\n")
    assert pairs(text) == [(11, 19), (7, 15), (4, 12)]


def test_tables_one_per_variant_pair_by_row_label() -> None:
    text = ("Baseline kernel\n\n"
            "\tTransactions\tLatency\n"
            "Run 1\t1820113\t71\n"
            "Average\t1826757\t70\n\n"
            "patched v2\n\n"
            "\tTransactions\tLatency\n"
            "Run 1\t1901774\t68\n"
            "Average\t1900397\t68\n")
    assert pairs(text) == [(1826757, 1900397), (70, 68)]


def test_side_by_side_tables_split_where_the_header_repeats() -> None:
    text = ("| size |  copy | zerocopy |   | size |  copy | zerocopy |\n"
            "|  4KB |    3  |    10    |   |  4KB |  0.8  |   1.9    |\n"
            "| 32KB |   20  |    61    |   | 32KB |  6.8  |  20.2    |\n")
    assert sorted(pairs(text)) == sorted([(3, 10), (20, 61), (0.8, 1.9), (6.8, 20.2)])


def test_long_format_variant_and_key_columns() -> None:
    text = ("before and after the series:\n\n"
            "NAME        Workload      BW\n"
            "before      seqread       27(MiB/s)\n"
            "after       seqread       35(MiB/s)\n\n"
            "before      randread      29(MiB/s)\n"
            "after       randread      34(MiB/s)\n")
    assert pairs(text) == [(27, 35), (29, 34)]


def test_slash_cells_hold_both_sides() -> None:
    text = ("IO size       IOPs Rand Read (before/after)\n\n"
            "512B          318K/316K\n\n"
            "4KB           323K/321K\n")
    assert pairs(text) == [(318, 316), (323, 321)]
    # each row's claim says which size it is, else the two read as one metric twice
    assert [(c.metric, c.context) for c in ex(text).claims] == [
        ("Rand Read IO size 512B", "IO size 512B"), ("Rand Read IO size 4KB", "IO size 4KB")]


@pytest.mark.parametrize(("text", "names"), [
    ("             IOPS (before/after)\nrandread     318K/316K\nrandwrite    120K/140K\n",
     ["IOPS randread", "IOPS randwrite"]),
    ("Test     ms (before/after)\nrr       12.1/10.3\n", ["latency rr"]),
    ("Throughput (base/patched):\n8.0/9.5\n", ["Throughput"]),
])
def test_a_slash_column_is_named_by_its_measure_not_its_sides(text: str, names: list[str]) -> None:
    """A column of cells holding both sides was named with its sides ("(before/after)
    randread", "Throughput (base/patched):"): the measure is the name without them, or what
    the unit the grid took from it measures ("IOPS", "ms": latency)."""
    assert [c.metric for c in ex(text).claims] == names


@pytest.mark.parametrize("text", [
    # repeated runs of one variant with a Delta row: no comparison
    "v3 patches\n\n\tThroughput (Mbit/s)\nRun 1\t18004.12\nRun 2\t18230.55\nAverage\t18048.69\nDelta\t25.10%\n",
    # one system's numbers: metrics in the columns, workloads in the rows
    "   Secs  Spurious IRQS\n1G TCP Guest->Host: 3.93 58\n1M normal pings: 100 72\n",
    # a numbered source listing (a build robot's report)
    "   2cd7b6f08bc4cf Robert Foss 2018-11-12   62  \tstruct sync_file *sync_file;\n"
    "   2cd7b6f08bc4cf Robert Foss 2018-11-12   63  \tint in_fence_fd = exbuf->fence_fd;\n"
    "   2cd7b6f08bc4cf Robert Foss 2018-11-12   64  \tint out_fence_fd = -1;\n",
    # names nobody mentions, no cue on either axis
    "            rx        tx\n64         100       200\n128        150       250\n",
])
def test_non_comparisons_yield_nothing(text: str) -> None:
    assert pairs(text) == []


def test_perf_stat_multiplex_share_is_not_a_result() -> None:
    block = ("Performance counter stats for './run.sh':\n\n"
             "     {a} msec task-clock                #    2.410 CPUs utilized\n"
             "   {b}      cycles                    # 3.266 GHz                     ({m}%)\n\n"
             "      21.60 seconds time elapsed\n\n")
    text = ("Before patch:\n\n" + block.format(a="52,118.40", b="170,220,118,400", m="71.20")
            + "After patch:\n\n" + block.format(a="40,007.91", b="131,441,900,230", m="71.52"))
    assert (71.20, 71.52) not in pairs(text)


def test_number_reader() -> None:
    def one(t: str) -> tuple[float | None, bool, bool]:
        (tok,) = [x for x in tokenize(t) if x.kind == "value"]
        return tok.value, tok.percent, tok.signed
    assert one("1.204.300") == (1204300, False, False)
    assert one("1,445,864") == (1445864, False, False)
    assert one("+ 3%") == (3, True, True)
    assert one("30 %") == (30, True, False)
    assert one("<1%") == (1, True, False)
    assert one("~12") == (12, False, False)
    assert one("1.2e5") == (120000, False, False)
    assert one("1.234") == (1.234, False, False)


def test_pieces_and_rows() -> None:
    assert [p[2] for p in pieces("| a | 1 | 2 |")[1]] == ["a", "1", "2"]
    assert [p[2] for p in pieces("Run 1\t10\t20")[1]] == ["Run 1", "10", "20"]
    row = parse_line("SMAP on  | 5.0Mpps | 5.7Mpps  (+14%) |")
    assert row is not None and row.label == "SMAP on" and row.cells[1] is not None
    assert row.cells[1].stated == 14.0
    assert parse_line("in patch 1") is None
    assert parse_line("Batch: 1892844.25pps, 878280070bps.") is None


TEXT = st.text(alphabet=st.sampled_from(list("0123456789 .,|\t+-%:/()KMx─│┼abBefoAtr\n")), max_size=400)
FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(TEXT)
def test_grid_never_crashes_on_arbitrary_text(text: str) -> None:
    claims, covered = all_grid_claims(_lines(text), set())
    for c in claims:
        assert c.baseline is not None and c.candidate is not None
    assert all(isinstance(i, int) for i in covered)


@FAST
@given(st.lists(st.text(max_size=80), max_size=30))
def test_grid_never_crashes_on_any_unicode(lines: list[str]) -> None:
    all_grid_claims([Line(t, n + 1) for n, t in enumerate(lines)], set())


def test_grid_time_is_linear_in_the_input() -> None:
    row = "case {n}      {a}     {b}     {c}\n"
    small = "".join(row.format(n=n, a=n, b=n + 1, c=n + 2) for n in range(500))
    big = "".join(row.format(n=n, a=n, b=n + 1, c=n + 2) for n in range(5000))
    long_line = "1 " * 20000 + "|" * 2000 + "  x" * 5000
    t0 = time.perf_counter()
    all_grid_claims(_lines(small), set())
    t1 = time.perf_counter()
    all_grid_claims(_lines(big), set())
    t2 = time.perf_counter()
    all_grid_claims(_lines(long_line), set())
    t3 = time.perf_counter()
    assert t2 - t1 < 30 * max(t1 - t0, 0.01) and t3 - t2 < 5.0


def test_row_labels_read_as_key_and_variant_words() -> None:
    text = ("The syscall path against AF_XDP (xsk):\n\n"
            "                  |  CPU   |  PPS\n"
            "------------------|--------|-----------\n"
            "xmit by syscall   |  100%  |   676,915\n"
            "xmit by xsk       |  59.1% | 5,447,168\n"
            "recv by syscall   |  60%   |   932,288\n"
            "recv by xsk       |  35.7% | 3,343,168\n")
    got = pairs(text)
    assert (676915, 5447168) in got and (932288, 3343168) in got and len(got) == 4


def test_change_column_computed_from_two_columns_names_the_baseline() -> None:
    """No cue word anywhere: the % column equals patched/plain - 1, so the columns are the
    variants and the one it was computed against is the baseline, wherever it stands."""
    text = ("rw          bs      mode=b       mode=a\n"
            "randread    4k      120,000      100,000    20%\n"
            "randwrite   4k      110,000      100,000    10%\n")
    assert pairs(text) == [(100000, 120000), (100000, 110000)]


def test_a_number_that_names_a_thing_is_not_a_value() -> None:
    assert [t.text for t in tokenize("[  3] local 10.0.0.1 port 40112 connected with 10.0.0.2 port 5001")
            if t.kind == "value"] == []
    assert [t.value for t in tokenize("pid 4711 ran 812 ops") if t.kind == "value"] == [812]


def test_tables_stacked_under_one_header_pair_by_key_column() -> None:
    # one header of swept columns, then a block per variant, each under a sentence that
    # names it and a note; the key column is named only over the first block
    text = ("iperf\n"
            "flows   1        2        4\n"
            "---------------------------\n\n"
            "Stock kernel (one queue per device).\n"
            "Nothing changed above 4 flows.\n"
            "****************************\n"
            "CPUs\n"
            "1       10k      20k      -\n"
            "2       11k      21k      30k\n\n"
            "queue per cpu:\n"
            "Above 4 flows it was flat.\n"
            "****************************\n"
            "1\tsame as above\n"
            "2       12k      25k      41k\n")
    got = {(c.baseline.value, c.candidate.value): c for c in ex(text).claims}
    assert set(got) == {(11, 12), (21, 25), (30, 41)}
    c = got[(21, 25)]
    assert c.baseline.label.startswith("Stock kernel") and c.candidate.label == "queue per cpu"
    assert "flows=2" in c.metric


def test_list_items_written_value_first_are_rows() -> None:
    text = ("Two queues, 4K reads:\n"
            "- 81,200 - stock\n"
            "- 80,950 - split lock only\n"
            "- 88,010 - split lock with prefetch\n")
    claims, _ = all_grid_claims(_lines(text), set())
    assert [(c.baseline.value, c.candidate.value) for c in claims] == [(81200, 80950), (81200, 88010)]
    assert claims[0].baseline.label == "stock" and claims[1].candidate.label == "split lock with prefetch"
    assert parse_line("5 packets - were lost in the run") is None  # a sentence, not an item


def test_columns_the_lexicon_tells_apart_by_relation_are_variants() -> None:
    # no cue word: one kernel name extends the other; a bordered cell with a number in it
    # ("randread 4k") is the row's name, not a value
    text = ("+------------+--------+---------+\n"
            "| workload   | v6.5   | v6.5+s  |\n"
            "+------------+--------+---------+\n"
            "| netperf    | 9.20   | 9.85    |\n"
            "| randread 4k| 120000 | 131000  |\n"
            "+------------+--------+---------+\n")
    claims, _ = all_grid_claims(_lines(text), set(), context="the base kernel is v6.5")
    assert [(c.baseline.value, c.candidate.value) for c in claims] == [(9.20, 9.85), (120000, 131000)]
    assert claims[1].metric == "randread 4k" and claims[1].candidate.label == "v6.5+s"


def test_changes_printed_in_cells_say_the_variants_are_columns() -> None:
    # the rows name two states of a setting, the columns the variants: the changes printed
    # against the first column decide
    text = ("          | base    | patch A       | patch B\n"
            "IOMMU on  | 5.0Mpps | 5.7Mpps (+14%) | 6.2Mpps (+24%)\n"
            "IOMMU off | 7.0Mpps | 7.0Mpps (+0%)  | 8.2Mpps (+17%)\n")
    claims, _ = all_grid_claims(_lines(text), set())
    assert {(c.baseline.value, c.candidate.value) for c in claims} >= {(5.0, 5.7), (5.0, 6.2), (7.0, 8.2)}
    assert all(c.baseline.label == "base" for c in claims)


def test_rows_marked_by_a_variant_cycling_over_a_key_column() -> None:
    text = ("Latency (us), lower is better:\n\n"
            "\tqueue\tmean\tp99\n"
            "before\t1\t12.5\t40.1\n"
            "after\t1\t10.2\t31.0\n"
            "before\t4\t14.0\t52.3\n"
            "after\t4\t11.1\t35.7\n")
    claims, _ = all_grid_claims(_lines(text), set())
    assert [(c.baseline.value, c.candidate.value) for c in claims] == [
        (12.5, 10.2), (40.1, 31.0), (14.0, 11.1), (52.3, 35.7)]
    assert claims[2].metric == "queue 4 mean"


def test_units_printed_in_each_cell_and_the_candidate_column_first() -> None:
    text = ("                                       after-patch        before-patch\n"
            "Dhrystone 2 using register variables   38123456.7 lps     37012345.6 lps\n"
            "Double-Precision Whetstone             4567.8 MWIPS       4512.3 MWIPS\n"
            "File Copy 1024 bufsize 2000 maxblocks  612345.0 KBps      598765.0 KBps\n")
    claims, _ = all_grid_claims(_lines(text), set())
    assert [(c.baseline.value, c.candidate.value) for c in claims] == [
        (37012345.6, 38123456.7), (4512.3, 4567.8), (598765.0, 612345.0)]
    assert claims[2].metric.startswith("File Copy 1024 bufsize 2000 maxblocks")


def test_rows_named_only_in_the_sentence_under_a_csv_table() -> None:
    text = ("Raw numbers (pps), batch size as columns:\n\n"
            "QUEUES,1,16,64\n"
            "1234567,1345678,1456789\n"
            "1240000,1400000,1500000\n\n"
            "The two rows are stock and +prefetch.\n")
    claims, _ = all_grid_claims(_lines(text), set())
    assert [(c.baseline.value, c.candidate.value) for c in claims] == [
        (1234567, 1240000), (1345678, 1400000), (1456789, 1500000)]
    assert claims[1].metric == "QUEUES 16" and claims[1].candidate.label == "+prefetch"
    assert pieces("1,445,864")[1] == [(0, 9, "1,445,864")]  # thousands, not three cells


def _keys(got: tuple[list, set[int]]) -> tuple[list[tuple], set[int]]:
    claims, covered = got
    return [(c.metric, c.lines, c.baseline and c.baseline.value, c.candidate and c.candidate.value,
             c.baseline and c.baseline.label, c.candidate and c.candidate.label) for c in claims], covered


def test_the_two_table_passes_read_as_two_fresh_readings() -> None:
    """TablePasses hands the second pass the grids the first found when it may (the first
    read none, the same lines are skipped): on every corpus and shapes message, with the
    second pass skipping the same lines, then one more, it answers as all_table_claims."""
    paths = sorted((SHARED / "corpus").glob("*.txt")) + sorted((SHARED / "shapes").glob("*.txt"))
    assert len(paths) > 100
    found = 0
    for p in paths:
        msg = message_from_text(p.read_text(encoding="utf-8", errors="replace"))
        lines, ctx = msg.lines, msg.subject or ""
        skip = skipped_lines(lines)
        more = skip | {next((i for i, ln in enumerate(lines) if parse_line(ln.text)), 0)}
        for second in (skip, more):
            passes = TablePasses(lines, ctx)
            assert _keys(passes.solid(set(skip))) == _keys(all_table_claims(lines, set(skip), ctx, solid=True))
            got = _keys(passes.rest(set(second)))
            assert got == _keys(all_table_claims(lines, set(second), ctx)), p.name
            found += len(got[0])
    assert found > 100


def test_a_title_naming_the_benchmark_is_what_the_claims_are_of() -> None:
    """"will-it-scale page_fault1, 48 processes" over a table names the test it ran, not
    what it measured: the claims are of it (context), and its words give them no direction.
    In the name, "fault" had made the operations per second lower-is-better, so a 10% gain
    would have been judged a regression."""
    text = ("will-it-scale page_fault1, 48 processes:\n\n"
            "                 base        patched\n"
            "processes    12345678     13579246    +10.0%\n"
            "threads       9876543     10123456     +2.5%\n")
    got = {c.metric: (c.baseline.value, c.candidate.value, c.better, c.context) for c in ex(text).claims}
    assert got["processes"] == (12345678, 13579246, None, "will-it-scale page_fault1, 48 processes processes")
    assert got["threads"][2] is None
    # so is a command line the table was run with (its second word an option)
    text = "fs_mark -d /mnt/test -s 0 -t 16, three runs each:\n\n            base       patched\nfiles     41234.5      45012.3\n"
    (claim,) = ex(text).claims
    assert (claim.metric, claim.context) == ("files", "fs_mark -d /mnt/test -s 0 -t 16, three runs each files")
    # and one the command reader took, its continuation lines joined: the claims are of it
    text = (" sysbench fileio --file-total-size=3G --file-test-mode=rndwr \\\n"
            "  --file-io-mode=mmap --threads=X run\n\n"
            "  Th.\tbase avg\tpatched avg\n  1\t1267765\t1299253\n  2\t1734644\t1799225\n")
    assert [c.raw for c in ex(text).commands] == [
        "sysbench fileio --file-total-size=3G --file-test-mode=rndwr --file-io-mode=mmap --threads=X run"]
    assert {c.context for c in ex(text).claims} == {
        f"sysbench fileio --file-total-size=3G --file-test-mode=rndwr --file-io-mode=mmap --threads=X run Th. {n}"
        for n in (1, 2)}
    # a title that names what is measured still names it
    (claim,) = ex("page faults per second:\n\n            base    patched\nrun       1000       900\n").claims
    assert claim.metric.startswith("page faults per second") and claim.better == "lower"


def test_runs_under_variant_columns_are_compared() -> None:
    """Rows of runs ("run 1", "run 2", "avg") under "base  patched" are each variant's runs:
    a comparison, not the repeated runs of one variant (no claim had come of them); "run 1"
    is a row's name, not a label "run" and a first value 1."""
    text = ("Three runs each, files/sec:\n\n"
            "            base       patched\n"
            "run 1     41234.5      45012.3\n"
            "run 2     40987.1      44876.0\n"
            "run 3     41102.8      45120.9\n"
            "avg       41108.1      45003.1   (+9.5%)\n")
    got = {c.context: (c.baseline.value, c.candidate.value, c.claimed_change_pct) for c in ex(text).claims}
    assert got["avg"] == (41108.1, 45003.1, 9.5)
    assert got["run 2"] == (40987.1, 44876.0, None)
    # runs alone, one variant: still no comparison
    assert ex("Three runs:\n\n          files/sec\nrun 1     41234.5\nrun 2     40987.1\nrun 3     41102.8\n").claims == []


def test_a_header_of_kernel_releases_names_the_columns() -> None:
    """"6.7   6.7+series" over rows of lmbench results is the header (the kernel each column
    ran), not a row whose label is "6.7+series": the claims had paired values across rows
    ("lat_ctx" 1.23 -> "lat_pipe" 4.56)."""
    text = ("lmbench (usecs), lower is better:\n\n"
            "           6.7       6.7+series\n"
            "lat_ctx    1.23      1.05\n"
            "lat_pipe   4.56      4.12\n"
            "lat_unix   6.01      5.87\n")
    got = {c.metric: (c.baseline.value, c.candidate.value, c.baseline.label, c.candidate.label) for c in ex(text).claims}
    assert got == {"lat_ctx": (1.23, 1.05, "6.7", "6.7+series"), "lat_pipe": (4.56, 4.12, "6.7", "6.7+series"),
                   "lat_unix": (6.01, 5.87, "6.7", "6.7+series")}
    assert parse_line("1.23      1.05") is not None  # two values are a row still


def test_the_direction_and_unit_the_author_wrote_over_a_table() -> None:
    """"Here are the numbers (usec, lower is better):" over "min  avg  max" columns: the
    unit is the title's though more follows it in the parentheses, the direction is the
    one the author wrote, and "min" is the minimum (it had been the unit, minutes, and the
    claim a "time"). A direction a claim's name gives is kept."""
    text = ("Here are the numbers (usec, lower is better):\n\n"
            "            min    avg     max\n"
            "before      12     18.3    245\n"
            "after       11     15.1    132\n")
    got = {c.metric: (c.baseline.value, c.candidate.value, c.unit, c.better) for c in ex(text).claims}
    assert got == {"min": (12, 11, "usec", "lower"), "avg": (18.3, 15.1, "usec", "lower"),
                   "max": (245, 132, "usec", "lower")}
    text = ("Throughput and latency, higher is better:\n\n"
            "            Gbps    latency_us\n"
            "before      9.1     45\n"
            "after       9.4     38\n")
    got = {c.metric: c.better for c in ex(text).claims}
    assert got["latency_us"] == "lower"
    assert "higher" in got.values()


def test_a_title_that_sets_the_scene_names_no_claim() -> None:
    """"On a Raspberry Pi 4 (arm64), building the kernel with make -j4:" over time(1)'s rows
    says where and how the table was measured: the claims had been named after the whole
    sentence ("On a Raspberry Pi 4 (arm64), building the kernel with make -j4 real")."""
    text = ("On a Raspberry Pi 4 (arm64), building the kernel with make -j4:\n\n"
            "                 v6.7       v6.7+series\nreal         58m12.34s      55m40.11s\n"
            "sys          14m10.22s      11m33.77s\n")
    assert [(c.metric, c.baseline.value, c.candidate.value) for c in ex(text).claims] == [
        ("real", 3492.34, 3340.11), ("sys", 850.22, 693.77)]


def test_the_authors_direction_outweighs_a_word_of_a_test_name() -> None:
    """will-it-scale's "page_fault2" counts operations per second; under "(higher is
    better)" its +18% had been lower-better by the "fault" in the test's name: a gain judged
    a regression. The author's words win over a word that names no measure; a column
    named for what it measures (a latency under the same words) keeps its own."""
    text = ("Results on a 2-socket box, 224 CPUs (higher is better):\n\n"
            "| Benchmark                 | Baseline | Patched | Delta  |\n"
            "|---------------------------|----------|---------|--------|\n"
            "| will-it-scale/page_fault2 | 1234567  | 1456789 | +18.0% |\n"
            "| will-it-scale/mmap1       |  987654  |  990001 |  +0.2% |\n")
    assert [(c.baseline.value, c.better) for c in ex(text).claims] == [(1234567, "higher"), (987654, "higher")]
    text = ("Results (higher is better):\n\n"
            "               base      patched\n"
            "ops/s          1000      1100\n"
            "p99 latency    55        50\n")
    assert [(c.baseline.value, c.better) for c in ex(text).claims] == [(1000, "higher"), (55, "lower")]


@pytest.mark.parametrize(("text", "got"), [
    ("| Test        | Before (Mpps) | After (Mpps) | Delta  |\n"
     "|-------------|---------------|--------------|--------|\n"
     "| rx drop     | 10.2          | 11.4         | +11.8% |\n",
     [("rx drop", 10.2, 11.4, "Mpps", "higher")]),
    ("| Test | Latency (us) | Throughput (Gbps) |\n| base | 12.1 | 9.1 |\n| patched | 10.3 | 9.4 |\n",
     [("Latency", 12.1, 10.3, "us", "lower"), ("Throughput", 9.1, 9.4, "Gbps", "higher")]),
    ("| Test | CPU (%) |\n| base | 12.1 |\n| patched | 10.3 |\n", [("CPU", 12.1, 10.3, "%", "lower")]),
])
def test_a_pipe_table_header_cell_gives_its_bracketed_unit(text: str, got: list) -> None:
    """A markdown table's "| Before (Mpps) |" gave no unit (and "| Latency (us) |" a name
    "Latency (us)" with none): a pipe header's cell was one word, where a spaced header's
    words are read apart. Its bracketed unit is a word of its own now."""
    assert [(c.metric, c.baseline.value, c.candidate.value, c.unit, c.better) for c in ex(text).claims] == got


@pytest.mark.parametrize(("header", "name"), [("kernel        2p/0K", "2p/0K"), ("kernel        ctx", "ctx")])
def test_a_table_of_kernels_named_by_release_under_a_title_unit(header: str, name: str) -> None:
    """lmbench's lat_ctx table, "6.13-rc1  1.62" over "+patch  1.41", gave nothing under
    "ctx" and two false pairs under "2p/0K": a row of a release and a decimal was read as
    a header of kernels ("6.7   6.7+series"), and "2p/0K" (two processes, no memory) as a
    cell holding both sides (2 -> 1.62). A release then decimals is a row; a cell's two
    numbers are two sides only in one unit. The title's "(context switch, microseconds)"
    gives the unit from any item of its note, and so the direction."""
    text = ("lmbench lat_ctx -s 0 2 (context switch, microseconds):\n\n"
            f"  {header}\n  6.13-rc1      1.62\n  +patch        1.41\n")
    assert [(c.metric, c.baseline.value, c.candidate.value, c.unit, c.better) for c in ex(text).claims] == [
        (name, 1.62, 1.41, "microseconds", "lower")]
    assert parse_line("6.7   6.7+series") is None  # still the header of a table of kernels
    assert pairs("IOPS (before/after)\nrandread   318K/316K\nrandwrite  120K/131K\n") == [(318, 316), (120, 131)]


def test_a_title_that_says_where_results_come_from_names_no_measure() -> None:
    """"Test results on a Cascade Lake (lower is better):" over a table named its rows
    "Test results on a Cascade Lake (lower is better) mmap": a title of four words or more
    that speaks of the results or numbers introduces the table, as a clause does."""
    text = ("Test results on a Cascade Lake (lower is better):\n\n"
            "  | workload   | before (ms) | after (ms) | change |\n"
            "  | ---------- | ----------- | ---------- | ------ |\n"
            "  | mmap       | 12.1        | 10.4       | -14%   |\n"
            "  | munmap     | 8.3         | 8.2        | -1%    |\n")
    assert [(c.metric, c.baseline.value, c.candidate.value, c.better) for c in ex(text).claims] == [
        ("mmap", 12.1, 10.4, "lower"), ("munmap", 8.3, 8.2, "lower")]


def test_a_unit_said_in_the_sentence_over_a_table_is_its_unit() -> None:
    """"The numbers below are in usec (lower is better):" over a table of bare numbers gave
    claims with no unit: the grid read a unit from its title only in parentheses or
    brackets ("(usec)", "[ms]"). "in <unit>" says it as well."""
    text = ("The numbers below are in usec (lower is better):\n\n"
            "                 mainline    series\n"
            "min                  3.1       3.0\n"
            "avg                  8.7       7.9\n"
            "max                 91.2      48.3\n")
    assert [(c.metric, c.unit, c.better) for c in ex(text).claims] == [
        ("min", "usec", "lower"), ("avg", "usec", "lower"), ("max", "usec", "lower")]
