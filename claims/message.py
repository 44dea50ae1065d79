"""The message model's readers (minimal version: plain text and archive-page text).

`message_from_text` turns text as a person sees it (an archive page copied from a browser,
a cover-letter draft) into a Message whose lines carry their quote depth and their line
number in the original text.
"""
from __future__ import annotations

import re

from claims.model import Line, Message

_QUOTE = re.compile(r"^((?:[ \t]?>)+)[ ]?")


def quote_depth(raw: str) -> tuple[int, str]:
    """Quote depth of a line and its text with the markers removed ('> > x' -> 2, 'x')."""
    m = _QUOTE.match(raw)
    if not m:
        return 0, raw
    return m.group(1).count(">"), raw[m.end():]


def message_from_text(text: str, source: str | None = None, first_line: int = 1) -> Message:
    msg = Message(source=source)
    for i, raw in enumerate(text.splitlines()):
        depth, body = quote_depth(raw)
        msg.lines.append(Line(text=body, number=first_line + i, depth=depth))
    return msg
