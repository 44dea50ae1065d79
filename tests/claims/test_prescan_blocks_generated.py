"""The pre-scan loses nothing on labelled blocks laid out the ways replies lay them out.

Invented texts, generated: two blocks of one row shape under side labels (with a colon or
without, or none), each row a value alone, a value with its unit, keyed rows with and
without a colon, a table, time(1)'s lines; quoted at depths 0 to 2, with and without a
space after the marker, indented; and, in the second sweep, a reply's words written inside
the quote between the two blocks (a question, a rule, code, a link, its own numbers, up to
16 lines). Every text is read with the gate and without it; what the extractor finds
without the gate must be found with it. The first sweep found one-value rows under a
label with no colon turned away once quoted (80 of its 1,200 texts); the second, the
gate's walks of blocks stopping at the reply's words the block model reads past; a third,
rows that open with their value ("12.3 us avg", "1835.1 (score)") under such labels.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

import claims.extract as extract
from claims.message import message_from_text
from claims.prescan import might_have_claims
from tests.claims.test_prescan import findings, gate_open

LABELS = [("base", "patched"), ("Before:", "After:"), ("Without the patch", "With the patch"),
          ("vanilla:", "this series:"), ("net-next", "net-next + this series"), ("old", "new"),
          ("[before]", "[after]"), ("1) baseline", "2) patched"), ("", "")]
ROWS = [
    ("1.23 Mpps", "1.45 Mpps"), ("12.3 us", "10.1 us"), ("102.41", "98.77"), ("41235 tps", "44012 tps"),
    ("rx 102 tx 55", "rx 98 tx 60"), ("  Elapsed Time 102.41 (0.62)", "  Elapsed Time 98.77 (0.48)"),
    ("rx-pps: 900100", "rx-pps: 990200"), ("throughput=9.1", "throughput=9.8"),
    ("CPU        PPS         MSGSIZE\n100%       1916747     64",
     "CPU        PPS         MSGSIZE\n28.7%      3833857     64"),
    ("real 0m12.606s\nuser 0m3.624s", "real 0m11.276s\nuser 0m3.514s"),
    ("12.3 us avg", "10.1 us avg"), ("1835.1 (score)", "1327.6 (score)"),
]
REPLIES = [
    ["Why is tx so low here?"],
    ["Some questions:", "", "1) What's the setup?", "2) Which NIC?"],
    ["", "Thanks"],
    ["-----"],
    ["if (x == 1) {", "    return 0;", "}"],
    ["See https://example.org/x/1234 for the config."],
    ["Note: this is odd."] * 16,
    ["I get 12 here", "and 13 there"],
]


def _quoted(text: str, marks: str) -> str:
    return "\n".join(marks + ln if ln else marks.rstrip() for ln in text.split("\n"))


def _block(label: str, rows: str) -> str:
    return (label + "\n" if label else "") + rows


def laid_out() -> Iterator[str]:
    """The two blocks alone, quoted or indented, apart or not."""
    for (lb, lc), (rb, rc), marks, indent, gap in itertools.product(
            LABELS, ROWS, ("", "> ", "> > ", ">"), ("", "  "), (True, False)):
        base = _quoted(_block(lb, "\n".join(indent + r for r in rb.split("\n"))), marks)
        cand = _quoted(_block(lc, "\n".join(indent + r for r in rc.split("\n"))), marks)
        yield "Hi,\n\n" + base + ("\n" + marks.rstrip() if gap else "") + "\n" + cand + "\n"


def answered() -> Iterator[str]:
    """The two blocks quoted, a reply's words between them (and after them, sometimes; a
    quoted rule under them, or a quoted line of code over them)."""
    for (lb, lc), (rb, rc), reply, depth, layout in itertools.product(LABELS, ROWS, REPLIES, (1, 2), range(6)):
        marks = "> " * depth
        words = "\n".join(("> " * (depth - 1) + w) if w else w for w in reply)
        base, cand = _quoted(_block(lb, rb), marks), _quoted(_block(lc, rc), marks)
        if layout == 0:
            body = base + "\n\n" + words + "\n\n" + cand
        elif layout == 1:
            body = base + "\n" + words + "\n" + cand
        elif layout == 2:
            body = base + "\n" + marks.rstrip() + "\n" + words + "\n" + cand + "\n" + words
        elif layout == 3:
            body = base + "\n" + marks.rstrip() + "\n\n" + words + "\n\n" + marks.rstrip() + "\n" + cand
        elif layout == 4:  # the quote goes on with a rule under the reply's words
            body = base + "\n" + words + "\n" + marks + "-----\n" + cand
        else:  # a line of code ends the quoted block above the reply's words
            body = base + "\n" + marks + "}\n\n" + words + "\n\n" + cand
        yield "Hi,\n\n" + body + "\n"


def turned_away(texts: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, list[str]]:
    """How many texts the extractor finds something in with the gate open, and those of
    them the gate turns away."""
    passed = [might_have_claims(t) for t in texts]
    gate_open(monkeypatch)
    read = [bool(findings(extract.extract_message(message_from_text(t)))) for t in texts]
    monkeypatch.undo()
    return sum(read), [t for t, p, r in zip(texts, passed, read, strict=True) if r and not p]


@pytest.mark.parametrize("make", [laid_out, answered], ids=["laid_out", "answered"])
def test_generated_blocks_lose_nothing(make, monkeypatch: pytest.MonkeyPatch) -> None:
    texts = list(make())
    read, lost = turned_away(texts, monkeypatch)
    assert read > len(texts) // 2  # most are read: the sweep asks of something
    assert not lost, f"{len(lost)} of {len(texts)} turned away, e.g.:\n{lost[0]}"
