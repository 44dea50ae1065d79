"""Patch hunks in mail: where a diff starts, which lines belong to it, and where it ends.

Code of a change is never a claim, so the extractor skips patch hunks and the pre-scan cuts
them before it looks for cues. Both use this module, so the gate never reads less than the
extractor skips: `hunk_lines` walks a message's lines (quote depth known), `cut_hunks`
cuts the same hunks out of a decoded body by regular expressions (no line loop in
Python: most of an archive's text is patches), and never cuts a line `hunk_lines` keeps.

A hunk is a first line (`diff --git`, `Index:`, `--- a/`, `+++ b/`, `@@ -n,m +k,l @@`)
and the diff lines after it (empty lines included): at any quote depth for the extractor,
which reads a re-quoted patch whole, at the same quote prefix for the gate, which cuts
no more. Mail clients
wrap long lines, so the run tolerates what a wrap leaves:
- a hunk header wrapped after its `@@ ... @@` ("@@ -674,14 +674,6 @@ static long
  pp_ioctl(struct file *file, unsigned int" / "cmd, unsigned long arg)"): up to WRAP lines
  after a header, then a diff line at the header's depth (a quoting client that re-wraps
  the quote often gives the tail one quote level less: any quoted line is a tail of a
  quoted header; an unquoted header's tail is unquoted);
- (hunk_lines only) a code line wrapped inside the hunk: up to WRAP lines the same way,
  while the header's line counts say the hunk is not over.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from claims.model import Line

START = r"(?:diff --git |Index: |--- a/|\+\+\+ b/|@@ -\d+(?:,\d+)? \+\d+)"
BODY = (r"(?:[ +\-\\]|@@ |diff --git |index [0-9a-f]|new file mode|deleted file mode|"
        r"similarity index|rename (?:from|to)|old mode|new mode|Binary files)")
WRAP = 2  # lines a wrapped header or code line may leave before the hunk goes on

_START = re.compile(START)
_BODY = re.compile(BODY)
_HEADER = re.compile(r"@@ -\d+(?:,(?P<old>\d+))? \+\d+(?:,(?P<new>\d+))? @@")
# the lines of a file's head reset the counts: no header read yet
_FILE_HEAD = re.compile(r"diff --git |Index: |--- a/|\+\+\+ b/|index [0-9a-f]")


def _header_counts(text: str) -> tuple[int, int] | None:
    m = _HEADER.match(text)
    if m is None:
        return None
    return int(m.group("old") or 1), int(m.group("new") or 1)


def _tail_depth_ok(depth: int, hunk_depth: int) -> bool:
    """A wrapped tail of a line at `hunk_depth`: quoted if the hunk is, unquoted if not."""
    return depth > 0 if hunk_depth > 0 else depth == 0


def _resumes(lines: Sequence[Line], i: int, depth: int) -> int:
    """If lines[i:] are at most WRAP wrapped tails and then a diff line at `depth`, the
    number of tails; else 0."""
    for k in range(i, min(i + WRAP, len(lines))):
        ln = lines[k]
        if not _tail_depth_ok(ln.depth, depth):
            return 0
        nxt = lines[k + 1] if k + 1 < len(lines) else None
        if nxt is not None and nxt.depth == depth and nxt.text and _BODY.match(nxt.text):
            return k - i + 1
    return 0


def hunk_lines(lines: Sequence[Line]) -> set[int]:
    """Indexes of the lines of patch hunks (see the module doc), wrapped lines included."""
    skip: set[int] = set()
    i, n = 0, len(lines)
    while i < n:
        ln = lines[i]
        if not _START.match(ln.text):
            i += 1
            continue
        depth = ln.depth
        counts = _header_counts(ln.text)
        after_header = counts is not None
        skip.add(i)
        i += 1
        while i < n:
            ln = lines[i]
            t = ln.text
            if not t or _BODY.match(t):
                skip.add(i)
                head = _header_counts(t)
                if head is not None:
                    counts, after_header = head, True
                    i += 1
                    continue
                after_header = False
                if counts is not None:
                    c = t[:1] or " "  # an empty line is a context line whose space the mail dropped
                    old, new = counts
                    if c == " ":
                        counts = (old - 1, new - 1)
                    elif c == "-" and not t.startswith("--- a/"):
                        counts = (old - 1, new)
                    elif c == "+" and not t.startswith("+++ b/"):
                        counts = (old, new - 1)
                    elif _FILE_HEAD.match(t):
                        counts = None
                i += 1
                continue
            open_hunk = after_header or (counts is not None and (counts[0] > 0 or counts[1] > 0))
            tails = _resumes(lines, i, depth) if open_hunk else 0
            if not tails:
                break
            skip.update(range(i, i + tails))
            i += tails
            after_header = False
    return skip


# A hunk without its header: a reviewer cut the diff lines above ("> +\tj = (j + 1) % n;"),
# or pasted code lines of a change. FRAGMENT_RUN lines or more in a row at one depth, each an
# added or removed line of code: the marker, then a tab, an indent or a code word. A table
# border ("+----+") or a signed number ("+5.2%") is none of these. claims.extract skips the
# same runs (fragment_runs), by depth; here they are matched with one exact quote prefix,
# which never cuts more.
FRAGMENT_LINE = re.compile(r"(?:[+-]\t|\+(?: {2}|[A-Za-z_#{}/*])|\+$)")
FRAGMENT_RUN = 3


def fragment_runs(lines: Sequence[Line]) -> set[int]:
    """Indexes of the lines in headerless hunks (FRAGMENT_RUN or more FRAGMENT_LINEs in a
    row at one depth): code of a change, never a claim. The extractor skips them."""
    out: set[int] = set()
    start = -1
    for i, ln in enumerate(lines):
        code = ln.text[:1] in ("+", "-") and FRAGMENT_LINE.match(ln.text) is not None
        if start >= 0 and (not code or ln.depth != lines[start].depth):
            if i - start >= FRAGMENT_RUN:
                out.update(range(start, i))
            start = -1
        if code and start < 0:
            start = i
    if start >= 0 and len(lines) - start >= FRAGMENT_RUN:
        out.update(range(start, len(lines)))
    return out


# --- the same hunks cut from a decoded body (quote markers in the text) ---------------------

_NOT_QUOTED = r"(?![ \t]?>)"
_QUOTED = r"(?=[ \t]?>)"
_HEAD_TAIL = r"@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@[^\n]*"
# An unquoted hunk: its first line (a header with its wrapped tails), then diff lines or
# empty lines, all unquoted; a later header in the run may carry tails too.
_TAILS = rf"(?:\n{_NOT_QUOTED}[^\n]*){{1,{WRAP}}}(?=\n{_NOT_QUOTED}{BODY})"
_HUNK = re.compile(
    rf"^{_NOT_QUOTED}(?:{_HEAD_TAIL}(?:{_TAILS})?|{START}[^\n]*)"
    rf"(?:\n{_NOT_QUOTED}(?:{_HEAD_TAIL}(?:{_TAILS})?|{BODY}[^\n]*|(?=\n|\Z)))*", re.M)
# A quoted hunk: every line with the same quote prefix as its first line (an empty one with
# or without the space after it); a header's wrapped tails may be any quoted line.
_QTAILS = rf"(?:\n{_QUOTED}[^\n]*){{1,{WRAP}}}(?=\n(?P=q)(?(s) |(?! )){_NOT_QUOTED}{BODY})"
_QHUNK = re.compile(
    rf"^(?P<q>(?>(?:[ \t]?>)+))(?P<s> )?{_NOT_QUOTED}(?:{_HEAD_TAIL}(?:{_QTAILS})?|{START}[^\n]*)"
    rf"(?:\n(?P=q)(?:(?(s) |(?! )){_NOT_QUOTED}(?:{_HEAD_TAIL}(?:{_QTAILS})?|{BODY}[^\n]*)|[ \t]*(?=\n|\Z)))*",
    re.M)
_FRAG = r"(?:[+-]\t|\+(?: {2}|[A-Za-z_#{}/*])|\+(?=\n|\Z))[^\n]*"
_FRAGMENT = re.compile(rf"^{_NOT_QUOTED}{_FRAG}(?:\n{_NOT_QUOTED}{_FRAG}){{{FRAGMENT_RUN - 1},}}", re.M)
_QFRAGMENT = re.compile(
    rf"^(?P<q>(?>(?:[ \t]?>)+))(?P<s> )?{_NOT_QUOTED}{_FRAG}"
    rf"(?:\n(?P=q)(?(s) |(?! )){_NOT_QUOTED}{_FRAG}){{{FRAGMENT_RUN - 1},}}", re.M)
HINTS = ("diff --git ", "Index: ", "--- a/", "+++ b/", "@@ -")
# The lines where each of those patterns can start (every one is anchored at a line start):
# a hint or a code line's marker first, after a quote prefix for the quoted ones. A pattern
# tried at every character of a body cost the gate more than all its cues; tried only at
# these lines (cut_matches) it cuts the same text.
_HINT = r"(?:diff --git |Index: |--- a/|\+\+\+ b/|@@ -)"
_AT_HUNK = re.compile(rf"\n(?={_HINT})")
_AT_QHUNK = re.compile(rf"\n(?=[ \t>]*> ?{_HINT})")
_AT_FRAGMENT = re.compile(r"\n(?=[+-])")
_AT_QFRAGMENT = re.compile(r"\n(?=[ \t>]*> ?[+-])")


def line_marks(mark: re.Pattern[str], text: str) -> Iterator[int]:
    """The line starts a `mark` (a newline before what such a line starts with) finds,
    the text's first line included, in order."""
    yield 0
    for m in mark.finditer(text):
        yield m.start() + 1


def cut_matches(pattern: re.Pattern[str], text: str, lines: Iterable[int]) -> str:
    """`pattern.sub("", text)` for a pattern that matches only at a line start, never
    empty, tried only at `lines` (increasing line starts that include every line where
    it can match)."""
    out: list[str] = []
    pos = 0
    for line in lines:
        if line >= pos and (m := pattern.match(text, line)) is not None:
            out.append(text[pos:m.start()])
            pos = m.end()
    if not out:
        return text
    out.append(text[pos:])
    return "".join(out)


def cut_at_marks(pattern: re.Pattern[str], text: str, mark: re.Pattern[str]) -> str:
    """`cut_matches(pattern, text, line_marks(mark, text))`, the marks looked for only after
    each cut: the lines inside a hunk, most of a patch's, are not searched a second time."""
    out: list[str] = []
    pos = line = 0  # the text before `pos` is decided; the next line tried starts at `line`
    while True:
        if (m := pattern.match(text, line)) is not None:
            out.append(text[pos:m.start()])
            pos = m.end()
        nxt = mark.search(text, max(pos, line + 1) - 1)  # the next marked line at or after pos
        if nxt is None:
            break
        line = nxt.start() + 1
    if not out:
        return text
    out.append(text[pos:])
    return "".join(out)


def cut_hunks(text: str) -> str:
    """`text` without its patch hunks and headerless runs of code lines, quoted or not
    (a subset of what hunk_lines and fragment_runs skip)."""
    if any(h in text for h in HINTS):
        text = cut_at_marks(_HUNK, text, _AT_HUNK)
        if ">" in text:
            text = cut_at_marks(_QHUNK, text, _AT_QHUNK)
    if "\n+" in text or "> +" in text or ">+" in text or text.startswith("+"):
        text = cut_at_marks(_FRAGMENT, text, _AT_FRAGMENT)
        if ">" in text:
            text = cut_at_marks(_QFRAGMENT, text, _AT_QFRAGMENT)
    return text
