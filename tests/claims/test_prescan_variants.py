"""The pre-scan loses nothing on mail shaped unlike the corpus: parts and re-layouts of it.

The corpus and the shapes pass the gate whole (test_prescan), but a message that passes by
one cue hides a shape the gate would turn away alone. Real mail quotes a few lines of a
report, one paragraph of a cover letter, or re-flows and re-indents what it quotes; so each
corpus and shapes message is cut and re-laid out the ways replies and clients do it, and
every variant is read with the gate and without it, as a text and inside an mbox (the
two-level reader's path, where the gate reads the decoded body with its quote marks). What
the extractor finds without the gate must be found with it. This found "netserver -D" and
"ssh host ./netserver" (programs the gate did not know) and LKP rows whose blanks a client
had folded ("24.47 -7.2 17.29 mpstat.cpu.all.soft%").
"""
from __future__ import annotations

import re
import textwrap
from collections.abc import Iterator

import pytest

import claims.extract as extract
from claims.message import message_from_text
from claims.prescan import _PARAGRAPH_END
from tests.claims.test_prescan import TEXTS, _as_message, _lost, findings, gate_open, split_head

_BLANKS = re.compile(r"[ \t]+")
_GAP = re.compile(r"(?<=\S)  +(?=\S)")  # a column gap, as an HTML mail turned to text has it
WINDOWS = (3, 8)  # lines: a quoted snippet of a report, a quoted table with its header
WINDOW_STEP = 2


def variants(text: str) -> Iterator[str]:
    """The message's parts and re-layouts, each with the message's own headers."""
    head, body = split_head(text)
    lines = body.split("\n")
    yield head + "\n".join(">" + ln for ln in lines)  # quoted, no blank after the marker
    yield head + "\n".join("> > " + ln for ln in lines)  # quoted twice
    yield head + "\n".join("    " + ln for ln in lines)  # indented
    yield head + "\n".join(ln.lstrip() for ln in lines)  # indentation lost
    yield head + body.expandtabs(8)
    yield head + body.replace("\n", "\r\n")
    yield head + re.sub(r"\n[ \t]*\n", "\n", body)  # blank lines lost
    yield head + "\n".join(_BLANKS.sub(" ", ln) for ln in lines)  # blanks folded by a client
    yield head + "\n".join(_GAP.sub(lambda m: "\xa0" * len(m.group()), ln) for ln in lines)  # gaps of nbsp
    yield head + "\n".join(piece for ln in lines for piece in (  # re-flowed at 72 columns
        textwrap.wrap(ln, 72, break_long_words=False, break_on_hyphens=False) or [""]))
    paragraphs = _PARAGRAPH_END.split(body)
    for k, par in enumerate(paragraphs):
        yield head + par
        if k + 1 < len(paragraphs):
            yield head + par + "\n\n" + paragraphs[k + 1]
    for size in WINDOWS:
        for k in range(0, max(1, len(lines) - size + 1), WINDOW_STEP):
            yield head + "\n".join(lines[k:k + size])


def all_variants() -> list[str]:
    return [v for p in TEXTS for v in variants(p.read_text(encoding="utf-8", errors="replace"))]


@pytest.mark.skipif(not TEXTS, reason="shared corpus not present")
def test_parts_and_relayouts_as_texts_lose_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = all_variants()

    def run() -> set[tuple]:
        return {f for k, t in enumerate(texts) for f in findings(extract.extract_message(message_from_text(t)), k)}

    got = run()
    gate_open(monkeypatch)
    want = run()
    assert len(texts) > 5000 and len(want) > 5000
    lost = want - got
    assert lost == set(), f"{len(lost)} of {len(want)} findings lost by the pre-scan: {sorted(lost, key=str)[:5]}"


@pytest.mark.skipif(not TEXTS, reason="shared corpus not present")
def test_parts_and_relayouts_in_an_mbox_lose_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    data = b"".join(_as_message(t, "8bit") for t in all_variants())
    total, lost = _lost(monkeypatch, data)
    assert total > 5000
    assert lost == set(), f"{len(lost)} of {total} findings lost by the pre-scan: {sorted(lost, key=str)[:5]}"
