"""`claims.mbox.split_mbox` undoes mboxrd quoting only in the messages where its one search
of the stream saw a ">From ": that decision must never skip a message with a `>From ` line
(checked against undoing it in every message), whatever the read blocks, the input's head
and the message size limit."""
from __future__ import annotations

import io
import random

import pytest

import claims.mbox as mbox

_PIECES = [b"From a@b Mon Jan  1 00:00:00 2020\n", b"From ", b">From ", b">>From x\n", b"\n",
           b"text\n", b"From me, a sentence\n", b"From x@y\n", b"From a@b 1:00\n", b">", b"F",
           b"rom ", b"\r\n", b"From", b" ", b"a>From b\n", b"\n>From here\n", b"\n>>>From a\n"]


def _split(data: bytes, cut: int, max_message: int) -> list[tuple[int, bytes, int | None]]:
    got = mbox.split_mbox(io.BytesIO(data[cut:]), data[:cut], max_message)
    return [(line, bytes(raw), getattr(raw, "size", None)) for line, raw in got]


@pytest.mark.parametrize("seed", range(4))
def test_mboxrd_unquoted_wherever_a_quoted_from_line_is(monkeypatch: pytest.MonkeyPatch,
                                                        seed: int) -> None:
    rng = random.Random(seed)
    message = mbox._message
    for _ in range(3000):
        data = _PIECES[0] + b"".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 30)))
        monkeypatch.setattr(mbox, "BLOCK", rng.choice([1, 2, 3, 5, 7, 64, 1 << 17]))
        cut, limit = rng.randint(0, len(data)), rng.choice([10, 40, 1 << 20])
        monkeypatch.setattr(mbox, "_message", message)
        got = _split(data, cut, limit)
        monkeypatch.setattr(mbox, "_message", lambda buf, begin, end, quoted: message(buf, begin, end, True))
        assert got == _split(data, cut, limit), data
