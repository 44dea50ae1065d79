"""The grid model on table structures found in real archive mail the corpus does not hold
(the virtualization list, 2019-2023), each written here as an invented table of the same
structure: a measured row under a header that names every column, a note after a value,
row names "variant, key" grouped by variant, a header on two lines whose second line is
one cell, a header cell over two columns, rows that differ in one word, and rows glued
with single spaces ending in a note.  Non-results of the same structures stay out."""
from __future__ import annotations

from claims.grid import all_grid_claims
from claims.model import Line
from tests.extractkit import ex, pairs


def _grid_pairs(text: str) -> list[tuple[float, float, str | None, str | None]]:
    lines = [Line(t, n + 1) for n, t in enumerate(text.split("\n"))]
    got, _ = all_grid_claims(lines, set())
    return [(c.baseline.value, c.candidate.value, c.baseline.label, c.candidate.label)
            for c in got if c.baseline and c.candidate]


def test_measured_row_of_rising_numbers_under_a_header_is_a_row() -> None:
    # a first row whose numbers happen to rise is data when a header names every column
    text = ("              ops/s (jobs=2, depth=8)\n"
            "                 old     poller        irq_poll\n"
            "8k seqread     20110  22301 (+10%)  22950 (+14%)\n"
            "8k seqwrite    19020  21020 (+10%)  21230 (+11%)\n")
    assert [(b, c) for b, c, *_ in _grid_pairs(text)] == [
        (20110, 22301), (20110, 22950), (19020, 21020), (19020, 21230)]


def test_rising_numbers_without_a_header_still_name_the_columns() -> None:
    text = ("threads       1      2      4\n"
            "base        100    180    300\n"
            "patched     110    200    350\n")
    assert [(b, c) for b, c, *_ in _grid_pairs(text)] == [(100, 110), (180, 200), (300, 350)]


def test_note_after_a_value_and_variants_grouped_with_a_cycling_key() -> None:
    text = ("NVME (one queue per cpu):\n"
            "                 | seqread, MB/s | seqwrite, MB/s |\n"
            "qemu, 1cpu       |      812      |      640       |\n"
            "qemu, 2cpu       |     1610 (?)  |     1222 (??)  |\n"
            "kvmio, 1cpu      |      901      |      700       |\n"
            "kvmio, 2cpu      |     1702      |     1390       |\n\n"
            "kvmio is the new in-kernel backend; qemu is what we have today.\n")
    got = _grid_pairs(text)
    assert sorted((b, c) for b, c, *_ in got) == [(640, 700), (812, 901), (1222, 1390), (1610, 1702)]
    assert {(bl, cl) for *_, bl, cl in got} == {("qemu", "kvmio")}


def test_second_header_line_of_one_cell_and_a_header_cell_over_two_columns() -> None:
    text = ("                     rx -> tx [Gbps]\n"
            "msg_len  before opt  p 1+2    p 3+4       tun + vhost\n"
            "                                                NODELAY\n"
            "64         0.070     0.061    0.138       0.190     0.181\n"
            "4K         3.301     3.402    7.100       7.712     7.601\n")
    got = ex(text).claims
    assert {c.baseline.label for c in got} == {"before opt"} and {c.unit for c in got} == {"Gbps"}
    assert [(c.baseline.value, c.candidate.value, c.candidate.label) for c in got[:4]] == [
        (0.070, 0.061, "p 1+2"), (0.070, 0.138, "p 3+4"), (0.070, 0.190, "tun + vhost"),
        (0.070, 0.181, "tun + vhost NODELAY")]


def test_rows_one_word_apart_named_by_the_text() -> None:
    text = ("The bypass path (rdma) is much faster than the socket path.\n\n"
            "                 host cpu | guest cpu | PPS\n"
            "-----------------|----------|----------\n"
            "send via socket:    80%   |   100%   |  250000\n"
            "send via rdma:      90%   |    20%   |  990000\n")
    got = _grid_pairs(text)
    assert (250000, 990000, "send via socket", "send via rdma") in got


def test_rows_one_word_apart_the_text_does_not_name_are_not_variants() -> None:
    text = ("Two directions measured:\n\n"
            "              cpu   |  PPS\n"
            "-------------|------|--------\n"
            "path a east:   80%  | 250000\n"
            "path a west:   90%  | 990000\n")
    assert _grid_pairs(text) == []


def test_glued_rows_ending_in_a_note() -> None:
    text = ("Numbers from the ring bench module:\n"
            "one-copy Per op: 220 cycles(tsc) 61.100 ns (loops:64)\n"
            "zero-copy Per op: 150 cycles(tsc) 41.700 ns (loops:64)\n")
    assert pairs(text) == [(220, 150), (61.1, 41.7)]


def test_glued_rows_of_two_unrelated_names_are_not_compared() -> None:
    text = ("Numbers from the ring bench module:\n"
            "alloc Per op: 220 cycles(tsc) 61.100 ns (loops:64)\n"
            "free Per op: 150 cycles(tsc) 41.700 ns (loops:64)\n")
    assert pairs(text) == []


def test_row_names_sharing_a_last_word_are_not_a_long_format() -> None:
    # "Execl Throughput" and "Pipe Throughput" are two tests, not two variants of one
    text = ("Execl, Pipe and Shell results improve the most:\n\n"
            "            test             |  before-patch  |  after-patch\n"
            "-----------------------------+----------------+-------------\n"
            " Dhrystone 2 using registers |  3353190.3 lps |  3346007.0 lps\n"
            " Execl Throughput            |     2718.0 lps |     3662.1 lps\n"
            " File Copy 256 bufsize       |    37664.0 KBps |  116023.0 KBps\n"
            " Pipe Throughput             |  6021457.6 lps |  6405029.6 lps\n"
            " Process Creation            |     3706.6 lps |     4025.7 lps\n"
            " Shell Scripts (1 job)       |     6436.1 lpm |     6745.6 lpm\n")
    assert [(b, c, bl) for b, c, bl, _ in _grid_pairs(text)] == [
        (3353190.3, 3346007.0, "before-patch"), (2718.0, 3662.1, "before-patch"), (37664.0, 116023.0, "before-patch"),
        (6021457.6, 6405029.6, "before-patch"), (3706.6, 4025.7, "before-patch"), (6436.1, 6745.6, "before-patch")]


def test_counters_and_source_lines_one_word_apart_are_not_variants() -> None:
    # interface counters (rx and tx are named in the text) and a listing of declarations
    text = ("The rx and tx counters after the ping:\n\n"
            "        RX packets 71  bytes 9512 (9.2 KiB)\n"
            "        TX packets 71  bytes 9512 (9.2 KiB)\n\n"
            "nr_pages and page_size are both set:\n\n"
            "   611		unsigned long nr_pages,\n"
            "   612		unsigned long page_size,\n")
    assert _grid_pairs(text) == []


def test_columns_past_one_wide_gutter_are_a_reference_group() -> None:
    text = ("size   before    p 1     p 2             other-nic  other-nic-tso\n"
            "64      0.070   0.061   0.138             0.190       0.181\n"
            "4K      3.301   3.402   7.100             7.712       7.601\n")
    assert {(b, c, cl) for b, c, _, cl in _grid_pairs(text)} == {
        (0.070, 0.061, "p 1"), (0.070, 0.138, "p 2"), (3.301, 3.402, "p 1"), (3.301, 7.100, "p 2")}


def test_defines_of_a_quoted_hunk_are_code_whatever_their_diff_marker() -> None:
    # a reply quotes part of a hunk after its header was cut off by a comment: the lines
    # still carry the diff's '+', and a '#define NAME value' is code, not a table row, even
    # when the text names the two words the rows differ in (the archive's virtio_pci thread)
    text = ("Moving VIRTIO_PCI_COMMON_Q_NDATA and VIRTIO_PCI_COMMON_Q_RESET breaks old devices.\n\n"
            "+#define VIRTIO_PCI_COMMON_Q_NDATA\t58\n"
            "+#define VIRTIO_PCI_COMMON_Q_RESET\t60\n")
    assert _grid_pairs(text) == []
