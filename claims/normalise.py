"""Text as the grid reads it: one border character, one kind of space.

Tables reach us drawn with Unicode box characters (`│ ┼ ─`), ASCII (`| + -`), or with
non-breaking spaces a mail client put between columns.  The grid model splits cells on
`|` and aligns columns by character position, so every vertical border becomes `|`,
every horizontal rule or corner a `-`/`+`, and every odd space a plain one.  The mapping
is one character for one character: positions, and so column alignment, are kept.
"""
from __future__ import annotations

_VERTICAL = "│┃║╎╏┆┇┊┋"
_HORIZONTAL = "─━═╌╍┄┅┈┉"
_CROSS = "┌┐└┘├┤┬┴┼┏┓┗┛┣┫┳┻╋╔╗╚╝╠╣╦╩╬╒╓╕╖╘╙╛╜╞╟╡╢╤╥╧╨╪╫┍┎┑┒┕┖┙┚┝┞┟┠┡┢┥┦┧┨┩┪┭┮┯┰┱┲┵┶┷┸┹┺┽┾┿╀╁╂╃╄╅╆╇╈╉╊"
_SPACES = "\u00a0\u2007\u202f\u2009\u200a\u2002\u2003\u3000"
_TABLE = str.maketrans({**{c: "|" for c in _VERTICAL}, **{c: "-" for c in _HORIZONTAL},
                        **{c: "+" for c in _CROSS}, **{c: " " for c in _SPACES}})
_NEEDS = frozenset(_VERTICAL + _HORIZONTAL + _CROSS + _SPACES)


def normalise_line(text: str) -> str:
    """`text` with box-drawing borders as `|`/`-`/`+` and odd spaces as spaces, same length."""
    if _NEEDS.isdisjoint(text):
        return text
    return text.translate(_TABLE)
