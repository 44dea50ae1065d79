"""Numbered source listings in mail: code printed with its line numbers, never a claim.

Build bots and reviewers paste the code around a warning with each line's number in front
("  1799\tstatic int mlx5_vdpa_get_config(...)"), often after `git blame`'s columns
("cc5e710759470b Jason Wang  2019-01-16  1950  \\t\\tunsigned int log_num, ...").  Such
lines look like rows of aligned numbers to the table readers and to the gate's cues, and
a build report holds hundreds of them.  A listing is a run of LISTING_RUN or more lines at
one quote depth whose numbers count up by one, each number followed by a tab, two spaces
or the line's end, whatever follows it not led by a number nor, unless it reads as C,
holding one after a column gap (then it is a table with a row number: "1  tcp_rr  1200"),
and at least one line of the run reading as C (`;`, a brace, a comment, a preprocessor
line): shell history ("  501  netperf -H host") and numbered lists stay text.

The extractor skips these lines (`listing_lines`, by quote depth) and the gate cuts the
same runs out of a decoded body (`cut_listings`, by exact quote prefix), each line judged
by the one `_listed` below, so the gate never cuts a line the extractor reads.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from claims.model import Line

LISTING_RUN = 3  # lines: fewer is not yet a listing

# `git blame` columns (commit, path, author, date) and a line number, then the code
_LINE = re.compile(r"[ \t]*(?:\^?[0-9a-f]{7,40}[ \t]+[^\n]*?\d{4}-\d\d-\d\d[ \t]+)?[ \t]*@?"
                   r"(?P<n>\d{1,6})(?:\t|  |[ \t]*$)(?P<code>[^\n]*)")
# what a table's row has after its row number: a value first, or one after a column gap
# (unless the line reads as C: "# define HPAGE_SHIFT_DEFAULT\t28\t/* ... */")
_LEAD = re.compile(r"[ \t]*[-+~]?\.?\d")
_CELL = re.compile(r"(?:\t|  |\|)[ \t]*[-+~]?\.?\d")
_C_CODE = re.compile(r"[;{}]|/\*|\*/|^[ \t]*#[ \t]*(?:define|include|if|ifdef|ifndef|else|endif)\b")
# where a listing line's number ends (every line of a run with code has one)
_MARK = re.compile(r"\d(?=\t|  )")
# _MARK looked for from what follows the digit: a pattern that starts with a digit is tried
# at every digit of a text (dates, hex dumps), one that starts with a literal skips to it
_MARKS = (re.compile(r"\t(?<=\d\t)"), re.compile(r"  (?<=\d  )"))
_PREFIX = re.compile(r"(?>(?:[ \t]?>)*)")


def _listed(body: str) -> tuple[int, str] | None:
    """A listing line's number and code, or None (`body`: the text without quote markers)."""
    m = _LINE.fullmatch(body)
    if m is None:
        return None
    code = m.group("code")
    if _LEAD.match(code) or (_CELL.search(code) and not _C_CODE.search(code)):
        return None
    return int(m.group("n")), code


def _is_listing(codes: Sequence[str]) -> bool:
    return len(codes) >= LISTING_RUN and any(_C_CODE.search(c) is not None for c in codes)


def listing_lines(lines: Sequence[Line]) -> set[int]:
    """Indexes of the lines in numbered source listings (see the module doc)."""
    out: set[int] = set()
    run: list[int] = []
    codes: list[str] = []
    last = -2
    for i, ln in enumerate(lines):
        got = _listed(ln.text)
        if got is not None and run and lines[run[-1]].depth == ln.depth and got[0] == last + 1:
            run.append(i)
            codes.append(got[1])
        else:
            if _is_listing(codes):
                out.update(run)
            run, codes = ([i], [got[1]]) if got is not None else ([], [])
        last = got[0] if got is not None else -2
    if _is_listing(codes):
        out.update(run)
    return out


def _line_at(text: str, start: int) -> tuple[int, str, tuple[int, str] | None]:
    """The line starting at `start`: its end, its quote prefix, and `_listed` of the rest."""
    end = text.find("\n", start)
    end = len(text) if end < 0 else end
    q = _PREFIX.match(text, start, end)
    prefix_end = q.end() if q is not None else start
    return end, text[start:prefix_end], _listed(text[prefix_end:end])


def marked_lines(text: str) -> list[int]:
    """The starts of the lines that hold a `_MARK`, in order (found by `_MARKS`: the same
    lines at a third of the cost)."""
    return sorted({text.rfind("\n", 0, m.start()) + 1 for mark in _MARKS for m in mark.finditer(text)})


def cut_listings(text: str) -> str:
    """`text` without its numbered source listings: the runs `listing_lines` skips, found
    from the lines that hold `_MARK` and grown up and down line by line at one prefix."""
    out: list[str] = []
    kept = 0  # the text from here on is not yet in `out`
    pos = 0  # the text before this is decided
    for start in marked_lines(text):
        if start < pos:
            continue
        end, prefix, got = _line_at(text, start)
        if got is None:
            pos = end
            continue
        first, last_end, codes = start, end, [got[1]]
        number = got[0]
        while first > 0:  # up: the lines just above, while their numbers count to this one
            above = text.rfind("\n", 0, first - 1) + 1
            if above < pos:
                break
            a_end, a_prefix, a = _line_at(text, above)
            if a is None or a_prefix != prefix or a[0] != number - 1:
                break
            first, number = above, a[0]
            codes.insert(0, a[1])
        number = got[0]
        while last_end < len(text):  # down
            b_end, b_prefix, b = _line_at(text, last_end + 1)
            if b is None or b_prefix != prefix or b[0] != number + 1:
                break
            last_end, number = b_end, b[0]
            codes.append(b[1])
        if _is_listing(codes):
            out.append(text[kept:first])
            pos = kept = min(len(text), last_end + 1)
        else:
            pos = last_end
    if not out:
        return text
    out.append(text[kept:])
    return "".join(out)
