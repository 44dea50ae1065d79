"""The grid model on layouts found in the shared archive and invented ones of the same
structure: cells printed at different magnitudes of one unit, header lines that qualify
every column alike, label-only rows inside a bordered table, columns printed identically
on both sides (a reference constant), and a bare kernel release among named variants."""
from __future__ import annotations

from tests.extractkit import ex


def _pairs(text: str) -> list[tuple[float, float]]:
    return [(c.baseline.value, c.candidate.value) for c in ex(text).claims
            if c.baseline is not None and c.candidate is not None]


def test_cells_at_different_magnitudes_compare_at_one_scale() -> None:
    text = ("                     w/o patch     w/ patch\n"
            "rx pps               1.2M          1.5M\n"
            "tx pps               950K          1.1M\n")
    got = _pairs(text)
    assert got[0] == (1.2, 1.5)  # one magnitude on both sides: the numbers as printed
    assert got[1] == (950_000.0, 1_100_000.0)  # not 950 -> 1.1, a 99.9% drop


def test_rates_with_different_prefixes_compare_at_one_scale() -> None:
    text = ("              before       after\n"
            "TCP_STREAM    940 Mbps     1.2 Gbps\n"
            "UDP_STREAM    1.1 Gbps     1.3 Gbps\n")
    c = ex(text).claims[0]
    assert (c.baseline.value, c.candidate.value, c.unit) == (940e6, 1.2e9, "bps")
