"""`claims.message.quote_depth` reads a line of plain '>' markers without its regex: the
same depth and text as the regex gives, on every line of up to 8 characters over the
characters that make or end a marker."""
from __future__ import annotations

import itertools

from claims.message import _QUOTE, quote_depth


def _by_regex(raw: str) -> tuple[int, str]:
    m = _QUOTE.match(raw) if raw[:1] in (">", " ", "\t") else None
    return (0, raw) if m is None else (m.group(1).count(">"), raw[m.end():])


def test_quote_depth_is_the_regex_reading() -> None:
    for n in range(9):
        for chars in itertools.product(">\t x\u00a0", repeat=n):
            raw = "".join(chars)
            assert quote_depth(raw) == _by_regex(raw), repr(raw)
    assert quote_depth(">> > x") == (3, "x") and quote_depth(">>  x") == (2, " x")
