"""Comparison rows in the 0-day/LKP report shape, often quoted in replies:

      129489 ±  2%     +94.7%     252151 ±  1%  will-it-scale.per_process_ops

baseline, optional stddev, change (percent, or an absolute delta for percentages),
candidate, optional stddev, metric name.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from claims.model import Claim, Line, Value
from claims.numbers import Token, better_for, tokenize

_SIGNED = re.compile(r"\s[+-]\d")


def _has_signed(text: str) -> bool:
    """`_SIGNED.search(text)`: a row's change is signed, so a line with neither "+" nor "-"
    (over half of a mail's lines) is passed by without the scan at each of its blanks."""
    return ("+" in text or "-" in text) and _SIGNED.search(text) is not None


def _shape(toks: list[Token]) -> tuple[Token, Token | None, Token, Token, Token | None, str] | None:
    i = 0
    seq = [t for t in toks if t.text not in ("±", "+-")]
    if len(seq) < 4 or seq[-1].kind != "word":
        return None
    name = seq[-1].text
    if not any(ch.isalpha() for ch in name) or len(name) < 3:
        return None
    body = seq[:-1]
    if body[0].kind != "value":
        return None
    base = body[0]
    i = 1
    bs = body[i] if i < len(body) and body[i].kind == "spread" else None
    i += 1 if bs else 0
    if i >= len(body) or body[i].kind != "value" or not body[i].signed:
        return None
    change = body[i]
    i += 1
    if i >= len(body) or body[i].kind != "value" or body[i].signed:
        return None
    cand = body[i]
    i += 1
    cs = body[i] if i < len(body) and body[i].kind == "spread" else None
    i += 1 if cs else 0
    if i != len(body):
        return None
    return base, bs, change, cand, cs, name


def lkp_claims(lines: Sequence[Line], skip: set[int]) -> tuple[list[Claim], set[int]]:
    out: list[Claim] = []
    covered: set[int] = set()
    for i, ln in enumerate(lines):
        if i in skip or len(ln.text) > 300 or not _has_signed(ln.text):
            continue
        got = _shape(tokenize(ln.text))
        if got is None:
            continue
        base, bs, change, cand, cs, name = got
        unit = "%" if name.endswith("%") else None
        b = Value(base.value or 0.0, label="baseline", unit=unit, line=ln.number)
        c = Value(cand.value or 0.0, label="candidate", unit=unit, line=ln.number)
        for v, s in ((b, bs), (c, cs)):
            if s is not None:
                v.spread, v.spread_kind = s.value, "pct" if s.percent else "abs"
        out.append(Claim(metric=name, unit=unit, better=better_for(name, unit), baseline=b, candidate=c,
                         claimed_change_pct=change.value if change.percent else None,
                         lines=(ln.number, ln.number), depth=ln.depth, author=ln.author,
                         message_id=ln.message_id))
        covered.add(i)
    return out, covered
