"""The pre-scan loses nothing on sentences about several measures at once, their names and
values listed with slashes ("p50/p99: 12/45 us before, 11/31 us after").

Invented texts, generated: a list of names (two to four, before the numbers or after them),
two lists of as many values in each of the sentence templates (from/to, an arrow, "vs",
side words after each list, "was ... now"), with a unit or none, on one line or wrapped
after the first list, quoted or not. Each is read with the gate and without it
(tests/claims/test_prescan_blocks_generated.turned_away): what the extractor finds without
the gate must be found with it, and most are found (claims.prose.each_measure reads them).
"""
from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from tests.claims.test_prescan_blocks_generated import turned_away

NAMES = ["p50/p99", "rx/tx", "min/avg/max", "p50/p90/p99/p999", "TCP_RR/UDP_RR"]
UNITS = [" us", "us", " Mpps", " Gbps", ""]
TEMPLATES = [
    "{names} latency went from {a}{u} to {b}{u}",
    "{names} latency: {a}{u} -> {b}{u}",
    "{names}: {a}{u} before, {b}{u} after",
    "Latency {names}: {a}{u} vs {b}{u} with the patch",
    "Throughput was {a}{u} and is now {b}{u} for {names}",
]
LAYOUTS = ["{s}", "> {s}", "wrapped", "> > wrapped"]


def _values(k: int, base: float) -> str:
    return "/".join(f"{base + 7.5 * j:g}" for j in range(k))


def sentences() -> Iterator[str]:
    for names, unit, template, layout in itertools.product(NAMES, UNITS, TEMPLATES, LAYOUTS):
        k = names.count("/") + 1
        s = template.format(names=names, a=_values(k, 12), b=_values(k, 10.5), u=unit) + "."
        if layout.endswith("wrapped"):  # the line the mail client broke after the first list
            cut = s.index(_values(k, 12)) + len(_values(k, 12))
            marks = layout[:-len("wrapped")]
            s = f"{marks}{s[:cut]}\n{marks}{s[cut:].lstrip()}"
        else:
            s = layout.format(s=s)
        yield "Hi,\n\n" + s + "\n\nThanks\n"


def test_generated_listed_measures_lose_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = list(sentences())
    read, lost = turned_away(texts, monkeypatch)
    assert read > len(texts) // 2  # most are read: the sweep asks of something
    assert not lost, f"{len(lost)} of {len(texts)} turned away, e.g.:\n{lost[0]}"
