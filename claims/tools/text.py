"""Text helpers shared by the tool parsers: one way to clean a line and read numbers.

Mail text reaches the parsers with quote markers, terminal colour codes (sockperf), tabs
and collapsed whitespace; run stdout reaches them raw. Every parser cleans lines with
`clean()` so the same regular expressions read both.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence

from claims.tools.base import Better, Sample

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]|\[\d+(?:;\d+)*m")
_QUOTE = re.compile(r"^\s*(?:>\s?)+")
NUM = r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][+-]?\d+)?"
_NUM_FULL = re.compile(rf"^{NUM}$")


def clean(line: str) -> str:
    """The line without colour codes and mail quote markers, tabs as spaces."""
    if "[" not in line and ">" not in line and "\t" not in line and "\xa0" not in line:
        return line.rstrip()  # the common case, without running the regexes
    line = _ANSI.sub("", line)
    line = _QUOTE.sub("", line)
    return line.replace("\t", " ").replace("\xa0", " ").rstrip()


def clean_all(lines: Sequence[str]) -> list[str]:
    return [clean(ln) for ln in lines]


_LAST: tuple = (None, 0, "")  # the last text joined: every tool is asked about the same lines


def _blob(lines: Sequence[str]) -> str:
    global _LAST
    last = _LAST  # one read: another thread may replace it, never half of it
    if last[0] is lines and last[1] == len(lines):
        return last[2]
    blob = "\n".join(lines)
    _LAST = (lines, len(lines), blob)
    return blob


def mentions(lines: Sequence[str], markers: Sequence[str],
             pattern: re.Pattern[str] | None = None) -> bool:
    """Whether any marker substring occurs in the text (and then `pattern`, when given,
    matches too): one scan lets a parser skip the many messages (patches, prose) that hold
    none of its output. Substrings first: they are far cheaper than a regex."""
    blob = _blob(lines)
    if not any(m in blob for m in markers):
        return False
    return pattern is None or pattern.search(blob) is not None


def is_num(token: str) -> bool:
    return _NUM_FULL.match(token) is not None


def num(token: str) -> float:
    """A number as printed, thousands separators removed."""
    return float(token.replace(",", ""))


def numeric_row(line: str) -> list[float] | None:
    """The numbers of a line made only of numbers (a netperf data row), else None."""
    toks = line.split()
    if not toks or not all(is_num(t) for t in toks):
        return None
    return [num(t) for t in toks]


def slug(text: str) -> str:
    """'Mean Latency Microseconds' -> 'mean_latency_microseconds'."""
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def sample(metric: str, value: float, unit: str | None, better: Better, line: int,
           **kw: object) -> Sample:
    """A Sample with keyword extras; keeps the many call sites short."""
    return Sample(metric=metric, value=value, unit=unit, better=better, line=line,
                  **kw)  # type: ignore[arg-type]


def runs_of(text: Sequence[str], ours: Callable[[str], bool],
            taken: set[int] | frozenset[int] = frozenset()) -> Iterator[tuple[int, int]]:
    """(first, last) of each stretch of lines that `ours` accepts, one blank line allowed
    inside (terminal output keeps them; mail clients add them), skipping `taken` lines."""
    i = 0
    while i < len(text):
        if i in taken or not ours(text[i]):
            i += 1
            continue
        start = last = j = i
        while j < len(text) and j not in taken:
            if ours(text[j]):
                last = j
            elif text[j].strip() or j - last > 1:
                break
            j += 1
        yield start, last
        i = last + 1


def split_collapsed(text: list[str], cut: re.Pattern[str],
                    min_cuts: int = 2) -> tuple[list[str], list[int] | None]:
    """Lines where a page lost its line breaks, cut where `cut` matches (a zero-width
    pattern before each row); returns the lines and, when it cut, each piece's original
    line index (else None, and the lines unchanged)."""
    if not any(len(cut.findall(t)) >= min_cuts for t in text):
        return text, None
    out: list[str] = []
    index: list[int] = []
    for i, t in enumerate(text):
        parts = cut.split(t) if len(cut.findall(t)) >= min_cuts else [t]
        out.extend(parts)
        index.extend([i] * len(parts))
    return out, index


def remap(blocks: list, index: list[int] | None) -> list:
    """Point blocks and samples found in `split_collapsed` pieces back at the real lines."""
    if index is None:
        return blocks
    for b in blocks:
        b.start, b.end = index[b.start], index[b.end]
        for smp in b.samples:
            if smp.line is not None:
                smp.line = index[smp.line]
    return blocks
