"""The grid model on layouts found in the shared archive and invented ones of the same
structure: cells printed at different magnitudes of one unit, header lines that qualify
every column alike, label-only rows inside a bordered table, columns printed identically
on both sides (a reference constant), and a bare kernel release among named variants."""
from __future__ import annotations

import pytest

from claims.prescan import might_have_claims
from tests.extractkit import ex


def _pairs(text: str) -> list[tuple[float, float]]:
    return [(c.baseline.value, c.candidate.value) for c in ex(text).claims
            if c.baseline is not None and c.candidate is not None]


def test_cells_at_different_magnitudes_compare_at_one_scale() -> None:
    text = ("                     w/o patch     w/ patch\n"
            "rx pps               1.2M          1.5M\n"
            "tx pps               950K          1.1M\n")
    got = ex(text).claims
    assert [(c.baseline.value, c.candidate.value) for c in got] == [(1.2, 1.5), (950, 1.1)]  # as printed
    # each side keeps its magnitude, so the pair reads in one scale: +15.8%, not a 99.9% drop
    tx = got[1]
    assert (tx.baseline.unit, tx.candidate.unit) == ("K", "M")
    assert tx.candidate_in_baseline_unit() == 1100 and round(tx.change_pct or 0, 1) == 15.8


def test_cells_at_one_magnitude_keep_it_in_the_unit_the_grid_names() -> None:
    """virtio-blk's fio table as a reply quoted it: "318K/316K" under "IOPs". The claim
    says 318 KIOPs, as the mail does, not 318 IOPs; a row at two scales keeps one each."""
    text = ("IO size       IOPs Rand Read (before/after)\n\n"
            "512B          318K/316K\n\n"
            "4KB           323K/321K\n")
    got = ex(text).claims
    assert [(c.baseline.value, c.unit, c.baseline.unit, c.candidate.unit) for c in got] == [
        (318, "KIOPs", "KIOPs", "KIOPs"), (323, "KIOPs", "KIOPs", "KIOPs")]
    text = ("Results (pps):\n\n"
            "              before     after\n"
            "  64B         950k       1.2M\n"
            "  1500B       810k       830k\n")
    got = ex(text).claims
    assert [(c.baseline.unit, c.candidate.unit) for c in got] == [("kpps", "Mpps"), ("kpps", "kpps")]
    assert [round(c.change_pct or 0, 1) for c in got] == [26.3, 2.5]
    # no unit named anywhere: the magnitude is all the mail says, and the claim keeps it
    text = ("              before     after\n"
            "1 vcpu        123k       110k\n"
            "4 vcpus       158k       576k\n")
    got = ex(text).claims
    assert [(c.baseline.value, c.baseline.unit, c.candidate.value, c.candidate.unit)
            for c in got] == [(123, "k", 110, "k"), (158, "k", 576, "k")]


def test_rates_with_different_prefixes_compare_at_one_scale() -> None:
    text = ("              before       after\n"
            "TCP_STREAM    940 Mbps     1.2 Gbps\n"
            "UDP_STREAM    1.1 Gbps     1.3 Gbps\n")
    c = ex(text).claims[0]
    assert (c.baseline.value, c.candidate.value) == (940, 1.2)
    assert (c.baseline.unit, c.candidate.unit) == ("Mbps", "Gbps") and round(c.change_pct or 0, 1) == 27.7


def test_a_header_line_naming_every_column_alike_is_not_what_tells_them_apart() -> None:
    """unixbench as a KVM series pasted it: "INDEX" under each of three kernels, the first a
    bare release (the base kernel) beside two named approaches."""
    text = ("                                       | 5.10.0-rc6 | pv_cond_yield | vcpu_is_preempted\n"
            " System Benchmarks Index Values        |    INDEX   |      INDEX    |      INDEX\n"
            "---------------------------------------+------------+---------------+-------------------\n"
            " Dhrystone 2 using register variables  |  29164.0   |    29156.9    |    29207.2\n"
            " Execl Throughput                      |    856.7   |     1195.6    |      863.1\n"
            " Pipe Throughput                       |   6727.2   |     6670.2    |     6743.2\n")
    got = ex(text).claims
    assert [(c.baseline.value, c.candidate.value) for c in got] == [
        (29164.0, 29156.9), (29164.0, 29207.2), (856.7, 1195.6), (856.7, 863.1), (6727.2, 6670.2), (6727.2, 6743.2)]
    assert {c.baseline.label for c in got} == {"5.10.0-rc6"}
    assert {c.candidate.label for c in got} == {"pv_cond_yield", "vcpu_is_preempted"}


def test_named_columns_without_a_release_or_cue_pair_nothing() -> None:
    text = ("            alpha_impl   beta_impl   gamma_impl\n"
            "hackbench      10.2          9.1          8.7\n"
            "ebizzy         3000          3400         3600\n")
    assert ex(text).claims == []


def test_a_reference_column_beside_scores_is_not_a_variant() -> None:
    """A column named like a side ("BASELINE") whose numbers are orders of magnitude from
    the others' is unixbench's reference constant; the two tables are the variants, and
    the constant printed alike in both is no result."""
    head = "System Benchmarks Index Values               BASELINE       RESULT    INDEX\n"
    text = ("Before the patch:\n\n" + head
            + "Dhrystone 2 using register variables         116700.0  947032915.5  81151.1\n"
            + "Double-Precision Whetstone                       55.0     211971.2  38540.2\n"
            + "Execl Throughput                                 43.0      45054.8  10477.9\n"
            + "\nAfter the patch:\n\n" + head
            + "Dhrystone 2 using register variables         116700.0  957032915.5  82151.1\n"
            + "Double-Precision Whetstone                       55.0     221971.2  39540.2\n"
            + "Execl Throughput                                 43.0      46054.8  10677.9\n")
    got = _pairs(text)
    assert (947032915.5, 957032915.5) in got and (10477.9, 10677.9) in got
    assert len(got) == 6 and not any(b == c for b, c in got)
    assert not any(b in (116700.0, 55.0, 43.0) for b, _ in got)


def test_records_wrapped_by_the_mail_client_are_joined() -> None:
    """sar -n DEV as a mail client wrapped it: header and each row cut at one column."""
    block = ("                IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s\n"
             "rxcmp/s   txcmp/s  rxmcst/s   %ifutil\n"
             "Average:        vnet0      {a} {b}      0.02  {c}\n"
             "0.00      0.00      0.00      {d}\n")
    text = ("current code:\n" + block.format(a="0.31", b="1330807.03", c="77976.98", d="6.39")
            + "\nvmap:\n" + block.format(a="0.07", b="1371870.49", c="80383.04", d="6.58"))
    got = {c.metric.split()[-1]: (c.baseline.value, c.candidate.value) for c in ex(text).claims}
    assert got.get("txpck/s") == (1330807.03, 1371870.49)
    assert got.get("txkB/s") == (77976.98, 80383.04)
    assert got.get("%ifutil") == (6.39, 6.58)


def test_an_aligned_table_reads_before_the_blocks_around_it() -> None:
    """Rows of several aligned value columns are a grid even when a side's label stands
    over them: the columns pair, not the label with the rows."""
    text = ("Results after the patch:\n\n"
            "size     base     patched\n"
            "64       1.02     1.31\n"
            "1500     0.98     1.11\n"
            "9000     0.91     0.97\n")
    assert _pairs(text) == [(1.02, 1.31), (0.98, 1.11), (0.91, 0.97)]


def test_bordered_rows_wrapped_inside_a_header_cell_are_joined() -> None:
    """A bordered table the mail client wrapped: each row goes on under its first line, and
    the header is cut inside a name ("plain +" / "ring + doorbell")."""
    text = ("           base | plain + lock | plain + rcu | plain +\n"
            "ring + doorbell | plain + percpu   |\n"
            "fast on  | 4.0Mpps | 4.4Mpps     (+10%)      | 4.8Mpps      (+20%)      |\n"
            "5.0Mpps  (+25%)            | 5.2Mpps  (+30%)  |\n"
            "fast off | 6.0Mpps | 6.6Mpps     (+10%)      | 6.0Mpps   (+0%)     |\n"
            "6.3Mpps  (+5%)            | 7.2Mpps  (+20%)  |\n")
    got = {(c.baseline.value, c.candidate.value, c.candidate.label) for c in ex(text).claims}
    assert (4.0, 5.0, "plain + ring + doorbell") in got and (6.0, 7.2, "plain + percpu") in got
    assert all(b in (4.0, 6.0) for b, _, _ in got) and len(got) >= 7


def test_records_cut_elsewhere_than_their_header_stay_apart() -> None:
    text = ("        alpha    beta    gamma   delta\n"
            "eps     zeta\n"
            "before     1.0     2.0     3.0\n"
            "4.0  5.0  6.0\n")
    claims = ex(text).claims
    assert not any(c.candidate is not None and c.candidate.value == 5.0 and c.baseline is not None
                   and c.baseline.value == 1.0 for c in claims)


def test_a_label_only_row_inside_a_bordered_table_does_not_end_it() -> None:
    text = ("| test           | before     | after      |\n"
            "|----------------|------------|------------|\n"
            "| TCP_STREAM     | 9120       | 9980       |\n"
            "| TCP_RR with a  | 31000      | 35000      |\n"
            "| long name      |            |            |\n"
            "| TCP_CRR        | 8000       | 8800       |\n")
    assert _pairs(text) == [(9120.0, 9980.0), (31000.0, 35000.0), (8000.0, 8800.0)]


_STACKED = ("Each column is one value of the batch knob, and each row is stock, +ring, and +ring_bulk:\n\n"
            "# first tool (pps)\n\n"
            "   1   |   8    |   64   |  256\n"
            "-------+--------+--------+-------\n"
            "410200 | 530110 | 601000 | 640500\n"
            "455300 | 561020 | 622800 | 661900\n"
            "439900 | 549600 | 640100 | 690300\n"
            "\n# second tool (pps)\n\n"
            "    1    |    8    |   64    |   256   |  1024\n"
            "---------+---------+---------+---------+--------\n"
            "401100.5 | 520700  | 598300  | 635000  |\n"
            "450800   | 559900  | 620400  | 659100  |\n"
            "437700   | 547300  | 637200  | 688800  | 701200\n")


def test_rows_named_by_a_sentence_name_the_tables_stacked_under_it() -> None:
    """The structure of a vhost batching report in the archive: a sentence lists the rows
    ("stock, +ring, and +ring_bulk", an Oxford comma), two tables follow, the second too
    far from the sentence to read it itself, and its last column printed for one row only
    (the short rows end early: their cells stay under their own columns)."""
    got = [(c.metric, c.baseline.label, c.candidate.label, c.baseline.value, c.candidate.value)
           for c in ex(_STACKED).claims]
    # each metric carries its table's title: the columns are values of a swept knob
    assert ("first tool (pps) 1", "stock", "+ring", 410200.0, 455300.0) in got
    assert ("first tool (pps) 256", "stock", "+ring_bulk", 640500.0, 690300.0) in got
    assert ("second tool (pps) 1", "stock", "+ring", 401100.5, 450800.0) in got  # same names
    assert ("second tool (pps) 256", "stock", "+ring_bulk", 635000.0, 688800.0) in got
    assert not any(g[4] == 701200.0 for g in got)  # no stock cell under 1024
    assert len(got) == 4 * 2 + 4 * 2


def test_a_stacked_table_with_other_rows_does_not_take_the_sentence_names() -> None:
    """Two rows under the second header are not the three the sentence names: unnamed rows
    of one system stay unpaired."""
    text = _STACKED.replace("437700   | 547300  | 637200  | 688800  | 701200\n", "")
    got = ex(text).claims
    assert got and not any(c.baseline.value == 401100.5 for c in got)


def test_a_header_over_groups_of_columns_names_each_group() -> None:
    """Two header lines: the upper names groups of columns ("TCP_RR", "UDP_RR"), the lower
    repeats the variants inside each group; with or without a key column and borders."""
    plain = ("              TCP_RR                 UDP_RR\n"
             "          base     patched      base     patched\n"
             "1 flow    31200    34050        33010    35500\n"
             "8 flows   201000   230400       210300   240100\n")
    keyed = plain.replace("          base", "flows     base").replace("1 flow ", "1      ").replace("8 flows", "8      ")
    bordered = ("          |       TCP_RR       |       UDP_RR\n"
                "          |  base   | patched  |  base   | patched\n"
                "----------+---------+----------+---------+---------\n"
                "1 flow    |  31200  |  34050   |  33010  |  35500\n"
                "8 flows   |  201000 |  230400  |  210300 |  240100\n")
    for text in (plain, keyed, bordered):
        got = ex(text).claims
        assert sorted((c.baseline.value, c.candidate.value) for c in got) == [
            (31200.0, 34050.0), (33010.0, 35500.0), (201000.0, 230400.0), (210300.0, 240100.0)], text
        assert {c.metric.split()[0] for c in got} == {"TCP_RR", "UDP_RR"}
        assert {c.baseline.label for c in got} == {"base"}


def test_a_group_label_printed_once_names_the_rows_under_it() -> None:
    """Row labels in two columns, the outer one printed only on a group's first row: the
    rows under it belong to it (not "guest rx before" against "guest tx before")."""
    text = ("                   pps        cpu\n"
            "guest rx  before   1.20M      98%\n"
            "          after    1.55M      91%\n"
            "guest tx  before   2.10M      99%\n"
            "          after    2.45M      95%\n")
    got = [(c.metric, c.baseline.value, c.candidate.value) for c in ex(text).claims]
    assert sorted(got) == [("guest rx cpu", 98.0, 91.0), ("guest rx packet rate", 1.2, 1.55),
                           ("guest tx cpu", 99.0, 95.0), ("guest tx packet rate", 2.1, 2.45)]


def test_a_spread_printed_in_each_cell_does_not_name_its_column() -> None:
    """fio IOPS with its error in each cell, under "IOPS  Error" (the layout of
    <20200625135752.227293-1-stefanha@redhat.com>, an RFC cover letter): "Error" stands over
    the "± 0.54%" part of every cell, so the column holds IOPS, not spreads."""
    text = ("The fio 4KB randread benchmark results do not show a significant improvement:\n"
            "\n"
            "Name                  IOPS   Error\n"
            "virtio-blk        42373.79 \u00b1 0.54%\n"
            "virtio-blk-numa   42517.07 \u00b1 0.79%\n")
    got = ex(text).claims
    assert [(c.baseline.value, c.candidate.value) for c in got] == [(42373.79, 42517.07)]
    c = got[0]
    assert (c.metric, c.unit, c.baseline.label, c.candidate.label) == ("IOPS", "IOPS", "virtio-blk", "virtio-blk-numa")
    assert (c.baseline.spread, c.candidate.spread, c.baseline.spread_kind) == (0.54, 0.79, "pct")


def test_a_spread_column_of_its_own_still_names_a_spread() -> None:
    # "stddev" over cells of their own: a spread column, read as the value's spread
    text = ("              throughput   stddev\n"
            "baseline        9421.5       1.2%\n"
            "patched         9875.0       0.9%\n")
    got = ex(text).claims
    assert [(c.baseline.value, c.candidate.value) for c in got] == [(9421.5, 9875.0)]


def test_a_note_padded_inside_its_marks_stays_with_its_value() -> None:
    """Compare tools align a value's percentage inside its parentheses or stars
    ("236.41 (   0.00%)", "245.18 *   3.71%*"; mmtests' compare-kernels prints every
    table so). Split at the padding, the notes had become columns of their own: no claim,
    or a 0.00 -> 1.69 "%" one. Each value is read with its note, across three kernels."""
    text = ("netperf-udp\n"
            "                           6.1.0-rc1              6.1.0-rc1              6.1.0-rc1\n"
            "                             vanilla             batch-v1r1             batch-v2r1\n"
            "Hmean     send-64   236.41 (   0.00%)      245.18 *   3.71%*      240.02 (   1.52%)\n"
            "Hmean     send-128  468.91 (   0.00%)      486.05 *   3.66%*      461.30 (  -1.62%)\n")
    got = ex(text).claims
    assert sorted((c.context, c.baseline.value, c.candidate.value, c.claimed_change_pct) for c in got) == [
        ("Hmean send-128", 468.91, 461.30, -1.62), ("Hmean send-128", 468.91, 486.05, 3.66),
        ("Hmean send-64", 236.41, 240.02, 1.52), ("Hmean send-64", 236.41, 245.18, 3.71)]
    assert might_have_claims(text)  # and the gate of an archive's read lets it through
    # the release every column shares qualifies none of them
    assert {c.candidate.label for c in got} == {"batch-v1r1", "batch-v2r1"}


def test_a_stated_gain_is_signed_as_the_numbers_move() -> None:
    """A time that falls is printed with a positive percentage when the percentage is a
    gain ("0.3847 (   1.69%)" under "0.3913"; "a 3.6% speedup"): the claim's stated
    change is -1.69%, so the spec and a verdict read one direction, the numbers'."""
    text = ("hackbench-process-pipes\n"
            "                          6.1.0-rc1              6.1.0-rc1\n"
            "                            vanilla             batch-v1r1\n"
            "Amean     1        0.3913 (   0.00%)      0.3847 (   1.69%)\n"
            "Amean     4        1.1893 (   0.00%)      1.1567 *   2.74%*\n")
    got = ex(text).claims
    assert [(c.baseline.value, c.candidate.value, c.claimed_change_pct) for c in got] == [
        (0.3913, 0.3847, -1.69), (1.1893, 1.1567, -2.74)]
    text = ("Kernel build time (make -j32), 5 runs each:\n\n"
            "                    mean      stddev\n"
            "  v6.7              123.4s    0.8\n"
            "  v6.7+series       118.9s    0.7\n\n"
            "That is a 3.6% speedup.\n")
    (c,) = ex(text).claims
    assert (c.baseline.value, c.candidate.value, c.claimed_change_pct) == (123.4, 118.9, -3.6)
    # a size that does not match is the writer's arithmetic, kept for the check to report
    (c,) = ex("Throughput: before 100 Mbit/s, after 90 Mbit/s (+5%)\n").claims
    assert c.claimed_change_pct == 5.0


@pytest.mark.parametrize("text", [
    "            before              after\n"
    "TCP_RR      31000 (+- 0.5%)     35000 (+- 0.7%)\n",
    "            before              after\n"
    "TCP_RR      31000 (±0.5%)       35000 (±0.7%)\n",
    "base:    Averaged 31000 operations/sec (+- 0.5%), total secs = 10\n"
    "patched: Averaged 35000 operations/sec (+/- 0.7%), total secs = 10\n",
])
def test_a_spread_in_parentheses_is_no_stated_change(text: str) -> None:
    """perf bench prints "(+- 0.12%)" after each average, and tables copy it: that is the
    runs' spread. Read as a stated change of -0.7% (or +0.7%), the claim said a 13% gain
    was a 0.7% one, and a verdict would have judged that."""
    (c,) = ex(text).claims
    assert (c.baseline.value, c.candidate.value, c.claimed_change_pct) == (31000, 35000, None)
    assert (c.baseline.spread, c.candidate.spread, c.baseline.spread_kind) == (0.5, 0.7, "pct")


def test_a_difference_column_states_the_change_it_notes() -> None:
    """veristat's comparison: "Insns (A)  Insns (B)  Insns (DIFF)" over "12345  10000
    -2345 (-19.00%)". "(B)" is the column's name, not bytes (the column's unit is "Insns"
    already); "(DIFF)" is a change column, and its cells state the noted -19.00%, not
    -2345%. The claim had been 12345 -> -2345."""
    text = ("File         Program   Insns (A)  Insns (B)  Insns (DIFF)\n"
            "-----------  --------  ---------  ---------  --------------\n"
            "pyperf600.o  on_event      12345      10000  -2345 (-19.00%)\n"
            "strobemeta.o on_event      45678      40000  -5678 (-12.43%)\n")
    got = [(c.baseline.label, c.candidate.label, c.baseline.value, c.candidate.value, c.claimed_change_pct)
           for c in ex(text).claims]
    assert got == [("A", "B", 12345, 10000, -19.0), ("A", "B", 45678, 40000, -12.43)]
    # a difference printed bare states no percentage
    text = ("Benchmark          Base      Patched    Delta\n"
            "netperf TCP_RR     12345     13456      +1111\n"
            "netperf UDP_RR     22345     23456      +1111\n")
    assert [c.claimed_change_pct for c in ex(text).claims] == [None, None]


def test_measures_tagged_by_their_inputs_are_groups_of_columns() -> None:
    """veristat compares two runs as "<measure> (A)  <measure> (B)  <measure> (DIFF)" for
    each measure, on one header line. With two measures the header named no column: the
    four pairs were read as changes named "change" and "t", the States lost; with one
    measure, "States (B)" was bytes and the pairs ran B -> A (407 -> 322, and 407 -> 85 from
    the DIFF column): a regression of the candidate read as a gain. The measure is a group
    of columns, the tags name its columns (A, B: the inputs as veristat lists them), and the
    DIFF column's numbers confirm which is the baseline."""
    text = ("File                 Program     Insns (A)  Insns (B)  Insns    (DIFF)  States (A)  States (B)  States (DIFF)\n"
            "-------------------  ----------  ---------  ---------  ---------------  ----------  ----------  -------------\n"
            "pyperf600.bpf.o      on_event        90466      64130  -26336 (-29.11%)        5016        3580  -1436 (-28.63%)\n"
            "strobemeta.bpf.o     on_event       169718     151231  -18487 (-10.89%)        4570        4301   -269 (-5.89%)\n")
    got = [(c.metric.split()[0], c.baseline.label, c.candidate.label, c.baseline.value, c.candidate.value,
            c.claimed_change_pct, c.unit) for c in ex(text).claims]
    assert got == [("Insns", "A", "B", 90466, 64130, -29.11, None), ("Insns", "A", "B", 169718, 151231, -10.89, None),
                   ("States", "A", "B", 5016, 3580, -28.63, None), ("States", "A", "B", 4570, 4301, -5.89, None)]
    text = ("File                       Program        States (A)  States (B)  States (DIFF)\n"
            "-------------------------  -------------  ----------  ----------  -------------\n"
            "bpf_loop_bench.bpf.o       benchmark               1           2  +1 (+100.00%)\n"
            "pyperf600_bpf_loop.bpf.o   on_event              322         407  +85 (+26.40%)\n")
    assert [(c.baseline.value, c.candidate.value, c.claimed_change_pct, c.unit) for c in ex(text).claims] == [
        (1, 2, 100.0, None), (322, 407, 26.4, None)]
    # a unit stated by the measure is the columns'; tags of the lexicon's sides are read so too
    text = ("Test          Duration (us) (before)  Duration (us) (after)\n"
            "tcp_stream                     120                     65\n"
            "udp_stream                     465                    467\n")
    assert [(c.baseline.value, c.candidate.value, c.unit, c.better) for c in ex(text).claims] == [
        (120, 65, "us", "lower"), (465, 467, "us", "lower")]


def test_tags_that_name_measures_are_no_groups() -> None:
    """"Latency (avg)  Latency (p99)" names two measures of one quantity, not two variants:
    the rows hold the variants, and each column stays a measure of its own."""
    text = ("Config        Latency (avg)  Latency (p99)\n"
            "baseline             12.1           40.2\n"
            "patched              11.0           31.9\n")
    assert [(c.metric, c.baseline.value, c.candidate.value) for c in ex(text).claims] == [
        ("Latency (avg)", 12.1, 11.0), ("Latency (p99)", 40.2, 31.9)]


def test_sides_named_before_and_after_may_lie_far_apart() -> None:
    """A fix that removes retransmits moves a counter a thousandfold, to zero: nstat's
    "TcpRetransSegs  18231  12" under "before  after" gave no claim, as unixbench's
    reference constant beside its result does (a candidate orders of magnitude from the
    baseline in most cells). Columns the lexicon names as the two sides are compared at
    any distance; unixbench's "BASELINE  RESULT" still are not."""
    text = ("                       before      after\n"
            "TcpRetransSegs          18231         12\n"
            "TcpExtTCPLostRetransmit   412          0\n")
    assert _pairs(text) == [(18231, 12), (412, 0)]
    # an intro sentence with a semicolon is prose, not a line of code over a listing
    assert _pairs("The retransmits are gone; nstat over 60s of the same load:\n\n" + text) == [(18231, 12), (412, 0)]


def test_rows_of_the_runs_noise_are_no_claims() -> None:
    """mmtests prints "Stddev" and "CoeffVar" rows beside "Hmean" and "Min": the spread of
    the runs, which a verdict cannot confirm or refute as a change; they had been claims of
    -15.38% and -17.96%."""
    text = ("tbench4\n"
            "                           6.7.0-rc1              6.7.0-rc1\n"
            "                             vanilla          sched-v2r3\n"
            "Hmean     1        438.92 (   0.00%)      452.12 *   3.01%*\n"
            "Stddev    1          2.34 (   0.00%)        1.98 (  15.38%)\n"
            "CoeffVar  1          0.53 (   0.00%)        0.44 (  17.96%)\n"
            "Min       1        435.12 (   0.00%)      449.83 (   3.38%)\n")
    assert [(c.context, c.claimed_change_pct) for c in ex(text).claims] == [("Hmean 1", 3.01), ("Min 1", 3.38)]


def test_a_column_of_ids_is_no_measurement() -> None:
    """mpstat's "CPU" column says which CPU a row is of: "CPU 3 -> 3" had been a claim,
    lower-better (a CPU's name read as CPU use). A column named for a thing counted by
    number (CPU, node, IRQ, port) whose cells are whole numbers is an index; one of
    percentages under the same name is still CPU use."""
    text = ("              CPU    %usr    %sys   %soft   %idle\n"
            "before:         3    2.00    5.00   61.00   32.00\n"
            "after:          3    2.00    5.00   40.00   53.00\n")
    got = [(c.metric, c.baseline.value, c.candidate.value) for c in ex(text).claims]
    assert ("CPU", 3, 3) not in got and ("%soft", 61, 40) in got
    text = ("          CPU      throughput\n"
            "before:   35%      9.1\n"
            "after:    30%      9.4\n")
    assert (35, 30) in _pairs(text)


@pytest.mark.parametrize("rows", [
    ("6.8           12.1    12.3    12.2    12.20\n", "6.8+patch     11.2    11.4    11.1    11.23\n"),
    ("6.8+patch     11.2    11.4    11.1    11.23\n", "6.8           12.1    12.3    12.2    12.20\n"),
])
def test_rows_named_by_a_release_and_what_was_added_to_it(rows: tuple[str, str]) -> None:
    """Rows "6.8" and "6.8+patch" over runs and their mean: "6.8+patch 11.2 11.4 ..." read
    as a header of releases (its numbers look like releases too), and "6.8" as a value,
    so the table gave nothing, or with the patched row first, the runs of one row paired
    with each other (12.1 -> 6.8, 12.1 -> 12.3). The runs are no result; the mean is."""
    text = "kernel        run1    run2    run3    avg\n" + "".join(rows)
    assert _pairs(text) == [(12.2, 11.23)]


def test_a_bracketed_unit_after_a_word_that_is_one_too() -> None:
    """"CPU (%)" over 61 and 55: "CPU" (a unit of its own, CPUs) had taken the column's
    unit and "(%)" became its name, so the claim was "(%)" in CPUs. The bracketed unit is
    the column's, the word before it the name."""
    text = ("             throughput (Gbps)   p99 (us)   CPU (%)\n"
            "before             9.12            45.1       61\n"
            "after              9.40            38.7       55\n")
    got = [(c.metric, c.unit, c.better) for c in ex(text).claims]
    assert got == [("throughput", "Gbps", "higher"), ("p99", "us", "lower"), ("CPU", "%", "lower")]
