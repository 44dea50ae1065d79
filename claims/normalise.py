"""Text as the stages read it: one border character, one kind of space, real lines.

Tables reach us drawn with Unicode box characters (`│ ┼ ─`), ASCII (`| + -`), or with
non-breaking spaces a mail client put between columns.  The grid model splits cells on
`|` and aligns columns by character position, so every vertical border becomes `|`,
every horizontal rule or corner a `-`/`+`, and every odd space a plain one.  The mapping
is one character for one character: positions, and so column alignment, are kept.
A body a page flattened onto one line is cut back into lines (`unflatten_lines`).
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from claims.model import Line
from claims.numbers import is_unit

_VERTICAL = "│┃║╎╏┆┇┊┋"
_HORIZONTAL = "─━═╌╍┄┅┈┉"
_CROSS = "┌┐└┘├┤┬┴┼┏┓┗┛┣┫┳┻╋╔╗╚╝╠╣╦╩╬╒╓╕╖╘╙╛╜╞╟╡╢╤╥╧╨╪╫┍┎┑┒┕┖┙┚┝┞┟┠┡┢┥┦┧┨┩┪┭┮┯┰┱┲┵┶┷┸┹┺┽┾┿╀╁╂╃╄╅╆╇╈╉╊"
_SPACES = "\u00a0\u2007\u202f\u2009\u200a\u2002\u2003\u3000"
_TABLE = str.maketrans({**{c: "|" for c in _VERTICAL}, **{c: "-" for c in _HORIZONTAL},
                        **{c: "+" for c in _CROSS}, **{c: " " for c in _SPACES}})
_NEEDS = frozenset(_VERTICAL + _HORIZONTAL + _CROSS + _SPACES)


def normalise_line(text: str) -> str:
    """`text` with box-drawing borders as `|`/`-`/`+` and odd spaces as spaces, same length."""
    if text.isascii() or _NEEDS.isdisjoint(text):  # (every character it maps is outside ASCII)
        return text
    return text.translate(_TABLE)


# -- pages that lost their line breaks --------------------------------------------------
#
# An archive page copied from a browser, or rendered without its <pre>, can hand us a whole
# body as one line: "Before:" is then followed by the tool's banner, and the result sits
# forty tokens later.  Every stage reads lines, so such a line is cut back into lines at the
# places a line must have ended: before a label ("Before:", "Signed-off-by:", "Apply this
# patchset:"), around a run of numbers that follows words (a row of output), before a "---"
# separator and a diffstat entry.  Lines a person wrote are never that long, so only a line
# of FLAT_MIN characters or more is cut; each piece keeps the line's number.

FLAT_MIN = 300
# a label: a capitalised word, up to two more words, a colon, then a space
_LABEL = re.compile(r"(?<!\S)[A-Z][\w/+-]*(?:\.[\w/+-]+)*(?:\s[\w/+()-]*[\w)]){0,2}:(?=\s)")  # no "Cloud. copy mode:"
_TITLE_AFTER = re.compile(r"\s[A-Z]")
_NUMBER = re.compile(r"^[-+~]?\(?\d[\d,.]*(?:[eE][-+]?\d+)?[%)]?,?$")
_DIFFSTAT = re.compile(r"(?<!\S)(?=\S+/\S+\s+\|\s+\d+\s+[-+]+(?:\s|$))|(?<!\S)(?=\d+ files? changed, )")
_SEPARATOR = re.compile(r"(?<!\S)(?=---(?:\s|$))")
MIN_ROW = 3  # numbers in a row of output


def unflatten(text: str) -> list[str]:
    """`text` cut back into the lines a page flattened (see above); [text] when it is short
    or shows no sign of lost line breaks (at least two cuts)."""
    if len(text) < FLAT_MIN:
        return [text]
    cuts: set[int] = set()
    for m in _LABEL.finditer(text):
        cuts.add(m.start())
        if _TITLE_AFTER.match(text, m.end()):
            cuts.add(m.end() + 1)  # "Before: MIGRATED TCP ...": the label stands on its own line
    cuts |= {m.start() for m in _DIFFSTAT.finditer(text)} | {m.start() for m in _SEPARATOR.finditer(text)}
    cuts |= _row_cuts(text)
    cuts.discard(0)
    if len(cuts) < 2:
        return [text]
    out: list[str] = []
    last = 0
    for c in sorted(cuts):
        piece = text[last:c].strip()
        if piece:
            out.append(piece)
        last = c
    if text[last:].strip():
        out.append(text[last:].strip())
    return out


def _row_cuts(text: str) -> set[int]:
    """Where a run of MIN_ROW or more numbers starts after a plain word, and where it
    ends before a word that is not its unit: a row of output laid on one line with its
    header.  A label's numbers ("Apply this patchset: 114531 85420 ...") stay with it."""
    words = [(m.start(), m.group()) for m in re.finditer(r"\S+", text)]
    cuts: set[int] = set()
    i = 0
    while i < len(words):
        if not _NUMBER.match(words[i][1]):
            i += 1
            continue
        j = i
        while j < len(words) and _NUMBER.match(words[j][1]):
            j += 1
        if j - i >= MIN_ROW:
            if i > 0 and not words[i - 1][1].endswith(":"):
                cuts.add(words[i][0])
            if j < len(words) and not is_unit(words[j][1].rstrip(",;.)")):
                cuts.add(words[j][0])
        i = j
    return cuts


def unflatten_lines(lines: Sequence[Line]) -> list[Line]:
    """`lines` with each flattened line cut back into lines (see `unflatten`); the pieces
    keep the line's number, depth and author, so claims still point at the input."""
    if all(len(ln.text) < FLAT_MIN for ln in lines):
        return list(lines)
    out: list[Line] = []
    for ln in lines:
        pieces = unflatten(ln.text)
        if len(pieces) == 1:
            out.append(ln)
        else:
            out.extend(replace(ln, text=p) for p in pieces)
    return out
