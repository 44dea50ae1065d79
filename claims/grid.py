"""One model for everything laid out in rows and columns.

Bordered (`+---+`, `│`), markdown, whitespace-aligned and tab-separated tables, and tool
output pasted as columns, are all read the same way:

1. Each line is cut into pieces: at `|` when it has borders, else at tabs and runs of two
   or more spaces; a piece is a value cell (a number with its unit, spread, "(+14%)" note
   or a "318K/316K" slash pair), an empty/N/A cell, or text.
2. A grid is a run of lines (blank lines and rules allowed between them) whose value cells
   line up; the lines above it that are not rows are its header, read over several lines
   and mapped onto the value columns by piece index or by character position; a lone
   short line above that is its title.
3. Every header cell and row label is classified: variant cue (claims.variants.role),
   swept parameter ("1 flow", "4K", "numjobs=2", a numeric key column), change ("Diff",
   "+12%" cells), spread ("stddev", "±"), run count, metric/unit, run index ("Run 2") or
   a plain name.
4. Which axis holds the variants is decided by scored evidence from both axes (cues,
   a change column or a `+0%` reference row, a swept parameter on the other axis, metric
   names on this one); a table of one system's numbers, or of repeated runs of one
   variant, has no variant axis and yields nothing.
5. Each candidate is paired with the baseline by row and column key.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from claims.commands import BENCH_PROGRAMS, OPTION_WORD
from claims.lexicon import contrasted, distinguishes, lone_release, names_a_release
from claims.model import Claim, Line, Value
from claims.normalise import normalise_line
from claims.numbers import (
    AGGREGATE_NAME,
    COLUMN_GAP,
    MAGNITUDES,
    MAX_LINE,
    RUNS_NAME,
    SLASH_PAIR,
    SPREAD_MARKS,
    SPREAD_NAME,
    Token,
    better_for,
    common_scale,
    is_unit,
    tokenize,
    tokens,
    unit_kind,
)
from claims.variants import baseline_index, clean_label, cue, decided, role

MAX_LABEL_WORDS = 8
MAX_HEADER_LINES = 3
_RULE = re.compile(r"^[\s\-=+|:._~*#]*$")
_RULE_CHARS = re.compile(r"[-=_~*#]{3,}")
# A list item written value first: "* 5,112,930 - baseline", "- 76.3 MB/s: this series"
_VALUE_FIRST = re.compile(r"^(?:[-*•+]\s+)?(?P<v>[~<]?[+-]?\d[\d.,]*(?:\s?[A-Za-zµ%/]{1,10})?)\s+[-–—:]\s+"
                          r"(?P<l>[A-Za-z(][^:;=]{0,60})$")
_MARKER = re.compile(r"\s(?:==+>|<==+|-->|<--|=>|<-)\s*(?P<mark>[^=<>]{2,60})$")
_NA = frozenset({"n/a", "na", "-", "--", "---", "?", "x", "same", "same as above"})
_PARAM_CELL = re.compile(r"[A-Za-z_][\w.-]{0,30}\s?=\s?[\w.,:-]{1,20}")
_NOTE = re.compile(r"\((?P<body>[^()]{1,60})\)")
# a value's note left open at a piece's end ("236.41 (", "245.18 *") and the piece that
# closes it ("0.00%)", "3.71%*"): _notes_joined
_NOTE_OPEN = re.compile(r"\d[^\s()*]*[^\S\n]+(?P<mark>\([^()*]{0,30}|\*)$")
_NOTE_CLOSE = {"(": re.compile(r"[^()*]{1,30}\)"), "*": re.compile(r"[^()*]{1,30}\*")}
_STARRED = re.compile(r"\*(?P<body>[^*()]{1,30})\*")  # "245.18 *   3.71%*": a percent between stars
_PCT = re.compile(r"(?P<sign>[+-])?\s?(?P<num>\d+(?:\.\d+)?)\s?%")
_GLUED_PAREN_UNIT = re.compile(r"(?<=\d)\((?=[A-Za-zµ/%]{1,12}\))")
_PAREN_UNIT = re.compile(r"^[(\[](?P<u>[A-Za-zµ/%. ]{1,16})[)\]]$")
_CELL_UNIT_TAIL = re.compile(r"\s+([(\[][A-Za-zµ/%.]{1,16}[)\]])$")  # a header cell's "(Mpps)" after its name
# "(usec, lower is better)", "(context switch, microseconds)": a unit, one item of a note
_UNIT_IN_TITLE = re.compile(r"[(\[](?:[^()\[\]]{0,40}?[,;]\s*)?(?P<u>[A-Za-zµ/%]{1,12})\s*(?:[,;][^()\[\]]{0,40})?[)\]]")
_UNIT_SAID = re.compile(r"(?i)(?<![\w-])in\s+(?P<u>[A-Za-zµ/%]{1,12})(?![\w/])")  # "... are in usec"
_PAREN_NUMBER = re.compile(r"(?P<v>[^()]{1,30}?)\s*\(\s*(?:±|\+-|\+/-)?\s*(?P<s>\d[\d.,]*%?)\s*\)")
# a note with no number printed after a value: "(??)", "(*)", "(noisy)"
_ANNOTATION = re.compile(r"[?*!]{1,3}|[a-z][a-z ]{2,20}")
# A value cell's first token is its value (or a sign or spread mark before it): a token is
# a word cut at blanks, and a value has a digit; a lone "+" joins the number after it
_FIRST_WORD = re.compile(r"\S+")
_LEADS = ("+", "+-", "±")
_WORD_NOTE = re.compile(r"\([^()\s]{1,30}\)")  # "(step:32)", "(tsc)" written against a word
_WORSE = re.compile(r"(?i)regress|slower|worse|drop|degrad|loss")

_CHANGE_NAME = re.compile(r"(?i)^(?:[+-]?%|\+-%|%\s?change|%diff|diff\.?|delta|change|percent(?:age)?|gain|"
                          r"improvement|improv\.?|speed-?up|ratio|increase|decrease|regression|"
                          r"(?:diff|delta|change|gain)\s?\(?%\)?|vs\.? \w+)$")
_SPREAD_ROW = re.compile(r"(?i)(?:stddev|stdev|std|coeffvar|cv|variance|rsd)(?:\s|$)")
_RUN_INDEX = re.compile(r"(?i)^(?:run|iter(?:ation)?|trial|sample|test|round|pass|try|#)\s*#?\s*\d{1,4}$"
                        r"|^\d{1,3}(?:st|nd|rd|th)(?: run)?$")
_PARAM_NAME = re.compile(r"^[~<>]?\d[\d.,]*\s?[A-Za-z%]{0,10}(?:\s\S+){0,2}$|^[\w.-]{1,20}\s?=\s?\S{1,20}$")


@dataclass
class Cell:
    """One value cell: the number, what is printed with it, and where it stands."""

    tok: Token
    start: int  # character columns, tabs expanded
    end: int
    piece: int  # index of the piece of the line it came from
    unit: str | None = None
    spread: Token | None = None
    stated: float | None = None  # "(+14%)" printed in the cell
    second: Token | None = None  # the other half of a "318K/316K" slash pair
    glued: bool = False  # cut out of a text piece ("batch = 1 410"), not a piece of its own


@dataclass
class GRow:
    line: Line
    index: int
    label: str
    cells: list[Cell | None]  # value columns; None for an empty or N/A cell
    npieces: int
    sep: str
    mark: str | None = None
    note: float | None = None  # a trailing "(45% improvement)" piece
    parts: list[str] = field(default_factory=list)  # the label's own pieces, left to right


@dataclass
class Grid:
    rows: list[GRow] = field(default_factory=list)
    header: list[list[tuple[int, int, str, int]]] = field(default_factory=list)  # per line: pieces
    header_seps: list[str] = field(default_factory=list)
    title: str | None = None
    unit: str | None = None
    first: int = 0
    last: int = 0
    names: list[str] = field(default_factory=list)  # per value column
    units: list[str | None] = field(default_factory=list)
    key_name: str | None = None
    section: str | None = None  # a label line further up that may name the table's variant
    swept: bool = False  # the columns are named by a row of rising numbers: a swept parameter
    code: bool = False  # its header is a line of code: a numbered source listing
    title_header: bool = False  # the title line is also the header of one column ("VQs")
    prose_lists: list[list[str]] = field(default_factory=list)  # lists of names in the text around it
    wrapped: bool = False  # its records were wrapped by the mail client and are joined again
    groups: list[tuple[str, list[int]]] = field(default_factory=list)  # a header over column groups


# A line of comma-separated values ("VHOST_NET_BATCH,1,16,64", "1234567,1345678"): two
# fields or more, no spaces inside them; never one number with thousands separators.
_CSV = re.compile(r"[\w.+%-]{1,40}(?:, ?[\w.+%-]{1,40}){1,30}")
_THOUSANDS = re.compile(r"[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?")


def _columns_of(text: str) -> list[int]:
    """Character column of each index of `text` with tabs expanded (8 wide), plus the end."""
    if "\t" not in text:
        return list(range(len(text) + 1))  # each character one column (most lines)
    col, out = 0, []
    for ch in text:
        out.append(col)
        col = (col // 8 + 1) * 8 if ch == "\t" else col + 1
    out.append(col)
    return out


def pieces(text: str) -> tuple[str, list[tuple[int, int, str]]]:
    """The separator kind of a line ('|', tab or spaces) and its pieces with their columns."""
    text = normalise_line(text[:MAX_LINE]).rstrip()
    cols = _columns_of(text)
    out: list[tuple[int, int, str]] = []
    if "|" in text:
        sep = "|"
        bounds = [-1] + [i for i, ch in enumerate(text) if ch == "|"] + [len(text)]
        for a, b in zip(bounds, bounds[1:], strict=False):
            seg = text[a + 1:b]
            s = len(seg) - len(seg.lstrip())
            out.append((cols[a + 1 + s], cols[b], seg.strip()))
        if out and not out[0][2] and text.lstrip().startswith("|"):
            out = out[1:]
        if out and not out[-1][2]:
            out = out[:-1]
        return sep, out
    if "," in text and _CSV.fullmatch(text.strip()) and not _THOUSANDS.fullmatch(text.strip()):
        sep, pos = ",", len(text) - len(text.lstrip())  # comma-separated values
        for field_ in text[pos:].split(","):
            if field_.strip():
                s0 = pos + len(field_) - len(field_.lstrip())
                out.append((cols[s0], cols[pos + len(field_.rstrip())], field_.strip()))
            pos += len(field_) + 1
        return sep, out
    sep = "\t" if "\t" in text.strip() else " "
    pos = len(text) - len(text.lstrip())
    spans: list[tuple[int, int]] = []
    for m in COLUMN_GAP.finditer(text + "  ", pos):
        if text[pos:m.start()].strip():
            spans.append((pos, m.start()))
        pos = m.end()
    for a, b in _notes_joined(text, spans):
        out.append((cols[a], cols[b], text[a:b].strip()))
    return sep, out


def _notes_joined(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Pieces split inside a value's note joined again: a note padded inside its marks
    ("236.41 (   0.00%)", "245.18 *   3.71%*", as compare tools align their columns)
    is one cell with its value, not a column of its own."""
    if "(" not in text and "*" not in text:
        return spans
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(spans):
        a, b = spans[i]
        opened = _NOTE_OPEN.search(text, a, b)
        if opened is not None and i + 1 < len(spans):
            close = _NOTE_CLOSE[opened.group("mark")[0]]
            if close.fullmatch(text, *spans[i + 1]):
                out.append((a, spans[i + 1][1]))
                i += 2
                continue
        out.append((a, b))
        i += 1
    return out


def _stated_of(body: str) -> float | None:
    m = _PCT.search(body)
    if m is None:
        return None
    v = float(m.group("num"))
    if m.group("sign") == "-" or (m.group("sign") is None and _WORSE.search(body)):
        v = -v
    return v


def _blanked(text: str, m: re.Match[str]) -> str:
    """`text` with the note `m` matched written over in blanks: the columns stay where they are."""
    return text[:m.start()] + " " * (m.end() - m.start()) + text[m.end():]


def _one_unit(a: str | None, b: str | None) -> bool:
    """Can two numbers of one cell be the two sides of a pair by their units: one unit,
    one of them bare, or two scales of one ("1.2ms/950us")? lmbench's "2p/0K" (two
    processes, no memory) is a column's name."""
    return a is None or b is None or a.lower() == b.lower() or common_scale(a, b) is not None


def _value_cell(text: str, start: int, end: int, piece: int, pipe: bool = False) -> Cell | None:
    """A value cell from one piece's text, or None when it is not one number."""
    if _DIGIT.search(text) is None:
        return None  # a number has a digit: a piece of words is read no further
    stated = None
    for m in _NOTE.finditer(text):
        body = m.group("body")
        if _PCT.search(body) and not _PAREN_UNIT.match(m.group(0)) and not body.lstrip().startswith(SPREAD_MARKS):
            stated = _stated_of(body) if stated is None else stated
            text = _blanked(text, m)
        elif _ANNOTATION.fullmatch(body) and not is_unit(body.strip()):
            text = _blanked(text, m)  # "253k (??)"
    if "*" in text:
        for m in _STARRED.finditer(text):
            if _PCT.fullmatch(m.group("body").strip()):
                stated = _stated_of(m.group("body")) if stated is None else stated
                text = _blanked(text, m)
    t = _GLUED_PAREN_UNIT.sub(" (", text.strip())
    if not t:
        return None
    sp = SLASH_PAIR.fullmatch(t)
    if sp is not None:
        a, b = tokenize(sp.group("a")), tokenize(sp.group("b"))
        if len(a) == 1 == len(b) and a[0].kind == "value" == b[0].kind and _one_unit(a[0].unit, b[0].unit):
            return Cell(a[0], start, end, piece, unit=a[0].unit, second=b[0], stated=stated)
        return None
    if _PARAM_CELL.fullmatch(t):
        return None
    paren_spread = None
    ps = _PAREN_NUMBER.fullmatch(t)
    if ps is not None:  # "1267765 (14146)": a value and its spread as the header says "avg (stdev)"
        st = tokenize(ps.group("s"))
        if len(st) == 1 and st[0].kind == "value":
            paren_spread = Token(st[0].text, st[0].start, st[0].end, "spread", abs(st[0].value or 0.0),
                                 st[0].unit, st[0].percent)
            t = ps.group("v")
    first = _FIRST_WORD.search(t)
    if first is None or _DIGIT.search(first.group()) is None and first.group() not in _LEADS:
        return None  # the first token (the first word) is no value: most pieces of prose
    toks = tokens(t)
    vals = [x for x in toks if x.kind == "value"]
    if len(vals) != 1 or toks[0] is not vals[0] and toks[0].text not in ("+-", "±"):
        return None
    unit = vals[0].unit
    spread = None
    for x in toks[1:]:
        if x is vals[0] or x.text in ("+-", "±", "+/-", "(", ")"):
            continue
        if x.kind == "spread":
            spread = x
            continue
        w = x.text
        pu = _PAREN_UNIT.match(w)
        if pu and is_unit(pu.group("u")):
            unit = unit or pu.group("u")
            continue
        if x.kind == "word" and (is_unit(w) or pipe and x is toks[-1] and re.fullmatch(r"[A-Za-z/]{1,6}", w)):
            if vals[0].unit in MAGNITUDES and is_unit(vals[0].unit + w.strip("()")):
                unit = vals[0].unit + w.strip("()")
            else:
                unit = unit or w.strip("()[]")
            continue
        return None
    return Cell(vals[0], start, end, piece, unit=unit, spread=spread or paren_spread, stated=stated)


def _glued_values(text: str, start: int, piece: int) -> tuple[str, list[Cell | None]]:
    """A text piece ending in numbers separated by single spaces ("batch = 1 410 +0%"):
    the leading words and the trailing value cells."""
    last = text.rsplit(None, 1)[-1:]
    if last and _DIGIT.search(last[0]) is None and not _WORD_NOTE.fullmatch(last[0]) \
            and not is_unit(last[0]) and last[0].lower() not in _NA:
        return text.strip(), []  # the last token (the last word) is none the walk below takes
    toks = tokens(text)
    cells: list[Cell | None] = []
    i = len(toks) - 1
    unit = None
    while i > 1 and toks[i].kind == "word" and _WORD_NOTE.fullmatch(toks[i].text) \
            and any(x.kind == "value" for x in toks[i - 2:i]):
        i -= 1  # "... 39.204 ns (step:32)": a note after the values
    if i > 0 and toks[i].kind == "word" and is_unit(toks[i].text) and (
            toks[i - 1].kind == "value" or toks[i - 1].text.lower() in _NA):
        if toks[i - 1].unit != toks[i].text:
            unit = toks[i].text  # "2.3 4 Mpps": the row's unit
        i -= 1
    inner = None
    while i >= 0:
        t = toks[i]
        if t.kind == "value" and "=" not in t.text and not (t.unit and not is_unit(t.unit)
                                                             and t.unit not in MAGNITUDES):
            cells.insert(0, Cell(t, start + t.start, start + t.end, piece, unit=t.unit or inner or unit, glued=True))
            inner = None
        elif t.kind == "spread" and cells:
            pass
        elif t.kind == "word" and t.text.lower() in _NA and i > 0:
            cells.insert(0, None)
        elif t.kind == "word" and is_unit(u := _WORD_NOTE.sub("", t.text) or t.text) and i > 0 \
                and toks[i - 1].kind == "value" and cells:
            inner = u  # "182 MBytes", "141 cycles(tsc)" inside the row
        else:
            break
        i -= 1
    while cells and cells[0] is None:
        cells.pop(0)
    label = text[:toks[i].end].strip() if i >= 0 else ""
    return label, cells


@dataclass
class _Parsed:
    label: str
    cells: list[Cell | None]
    npieces: int
    sep: str
    mark: str | None
    note: float | None
    parts: list[str] = field(default_factory=list)


_DECIMAL = re.compile(r"\d+\.\d+")


def parse_line(text: str) -> _Parsed | None:
    """A table row: label text on either side, value cells between; None for other lines.
    Several steps read the same line, so results are cached: callers must not change them."""
    if _DIGIT.search(text, 0, MAX_LINE) is None:
        return None
    return _parse_line(text[:MAX_LINE])


@lru_cache(maxsize=1024)  # kept across messages (claims.numbers._tokenize says why and how many)
def _parse_line(text: str) -> _Parsed | None:
    mark = None
    m = _MARKER.search(text[:1000])
    if m:
        mark = clean_label(m.group("mark"))
        text = text[:m.start()]
    sep, ps = pieces(text)
    if not ps:
        return None
    if len(ps) >= 2 and all(names_a_release(t) for _, _, t in ps) \
            and 2 * sum(not _DECIMAL.fullmatch(t) for _, _, t in ps) >= len(ps) \
            and (_DECIMAL.fullmatch(ps[0][2]) or not all(_DECIMAL.fullmatch(t) for _, _, t in ps[1:])):
        # "6.7   6.7+series": the kernels a table's columns ran, its header; not a row
        # named by one ("6.8+patch  11.2  11.4  11.1", "6.13-rc1  1.62": a name, then
        # numbers that read as releases too)
        return None
    vf = _VALUE_FIRST.match(ps[0][2]) if len(ps) == 1 else None
    if vf is not None:  # "* 5,112,930 - baseline": the value, then what it is of
        s0 = ps[0][0]
        ps = [(s0 + vf.start("v"), s0 + vf.end("v"), vf.group("v")), (s0 + vf.start("l"), s0 + vf.end("l"), vf.group("l"))]
    left: list[str] = []
    right: list[str] = []
    cells: list[Cell | None] = []
    note = None
    keyed = 0  # pieces that name their own value ("rx 1.23 Mpps", "max_latency=23.4 ms")
    for k, (s, e, t) in enumerate(ps):
        low = t.lower()
        if not t or low in _NA:
            if cells or left or sep == "|":
                cells.append(None)
            continue
        c = _value_cell(t, s, e, k, pipe=sep == "|")
        if c is not None:
            if right:
                return None  # words between value cells: a sentence, not a row
            keyed += "=" in c.tok.text
            cells.append(c)
            continue
        nm = _NOTE.fullmatch(t)
        if nm and cells and _PCT.search(nm.group("body")):
            note = _stated_of(nm.group("body"))
            continue
        if cells:
            if sep != "|" and k == len(ps) - 1 and is_unit(t):
                continue  # "11  7  4  Gbps": the row's unit
            if any(x.kind == "value" for x in tokenize(t)):
                return None  # "RX-missed: 0   RX-packets: 36158": key-value pairs, not cells
            right.append(t)
            continue
        if not cells and not _RUN_INDEX.match(t) and all(not x or x.lower() in _NA or _value_cell(x, 0, 0, 0, pipe=sep == "|") is not None
                             for _, _, x in ps[k + 1:]):  # ("run 1": the row's name, whole)
            lab, glued = _glued_values(t, s, k)
            if glued and any(c is not None and c.tok.text.endswith((",", ";", ".")) for c in glued):
                return None  # "Batch: 1892844.25pps, 878280070bps.": a sentence's list
            if glued and (len(glued) >= 2 or sep not in " |" or len(ps) > 1 and sep != "|"
                          or sep == "|" and (len(ps) == 1 or _LABEL_VALUE.match(t) is not None)):
                # a bordered cell "randread 4k" is a name: only the whole line may glue one
                if len(ps) == 1:
                    sep = "_"  # collapsed: single spaces only, no column positions
                keyed += bool(lab) and len(glued) == 1
                left.append(lab)
                cells.extend(glued)
                continue
        keyed += _names_a_value(t)
        left.append(t)
    vals = [c for c in cells if c is not None]
    if not vals:
        return None
    if keyed >= 2 and keyed >= len(vals) + 1:
        return None  # "before:  rx 1.23 Mpps  tx 1.45 Mpps": named values, each its own column
    if len(vals) == 1 and vals[0].glued and len(ps) == 1 and len(cells) == 1:
        return None
    label = " ".join(left + right)
    if _CODE.search(label):
        return None  # a numbered source listing or a line of code, not a table row
    if len(label.split()) > MAX_LABEL_WORDS or len(right) > 1 or any(len(r.split()) > 4 for r in right):
        return None
    unit = None
    if sep != "|" and ps and is_unit(ps[-1][2]) and _value_cell(ps[-1][2], 0, 0, 0) is None:
        unit = ps[-1][2]
    for c in vals:
        if c.unit is None and unit:
            c.unit = unit
    return _Parsed(clean_label(label), cells, len(ps), sep, mark, note,
                   [clean_label(x) for x in left] if not right else [])


def _names_a_value(piece: str) -> bool:
    """A piece that is a name and its one value ("rx 1.23 Mpps", "Throughput 1234.56 MB/sec"):
    a measure printed with its name, as tools print key-value lines, not a row's label."""
    toks = tokens(piece)
    at = next((i for i, x in enumerate(toks) if x.kind == "value"), None)
    if at is None or not 1 <= at <= 3 or any(x.kind != "word" for x in toks[:at]):
        return False
    rest = toks[at + 1:]
    return all(x.kind == "word" and is_unit(x.text) for x in rest) and (toks[at].unit is not None or bool(rest))


def _is_rule(text: str) -> bool:
    t = normalise_line(text).strip()
    return bool(t) and _RULE.match(t) is not None and (_RULE_CHARS.search(t) is not None or set(t) <= set("|+-: "))


def _is_sentence(text: str) -> bool:
    t = text.strip()
    if len(pieces(t)[1]) >= 3:
        return False  # three cells or more: a header, however many words
    words = t.split()
    return len(words) > 14 or (len(words) > 4 and t.endswith((".", "?", "!", ",")))


def find_grids(lines: Sequence[Line], skip: set[int]) -> list[Grid]:
    """Runs of table rows with their headers and titles."""
    grids: list[Grid] = []
    cur: Grid | None = None
    blanks = 0
    pending: tuple[int, str] | None = None  # a short label line over a row of values
    for i, ln in enumerate(lines):
        if i in skip:
            cur, pending = _close(cur, grids), None
            continue
        text = ln.text
        if not text.strip():
            blanks += 1
            if blanks > 1:
                cur, pending = _close(cur, grids), None
            continue
        if _is_rule(text) or cur is not None and cur.rows[-1].sep == "|" and _RULED_NOTE.match(text):
            continue
        p = _closed_row(lines, i, parse_line(text))
        label = p.label if p is not None else ""
        if p is not None and not p.label and pending is not None and pending[0] == i - 1:
            label = pending[1]
        elif p is None and cur is not None and _label_only_row(text, cur.rows[-1]):
            continue  # "| long name |  |  |": a cell wrapped onto its own line, or a group's name
        elif p is None:
            words = text.split()
            if cur is not None and 1 <= len(words) <= 4 and len(text) < 60 and not _is_sentence(text) \
                    and not any(ch.isdigit() for ch in text) and pending is None:
                pending = (i, clean_label(text))
                continue
            cur, pending = _close(cur, grids), None
            blanks = 0
            continue
        if pending is not None and pending[0] != i - 1:
            cur = _close(cur, grids)
        pending = None
        if cur is not None and (cur.rows[-1].line.depth != ln.depth):
            cur = _close(cur, grids)
        if cur is not None and len(cur.rows) == 1:
            last = cur.rows[-1]
            if label and not last.label and len(last.cells) == len(p.cells) + 1 and _extends(last.cells[0], label):
                # "6.8  12.1 ..." over "6.8+patch  11.2 ...": the release is the first row's name
                cur.rows[-1] = replace(last, label=last.cells[0].tok.text, cells=last.cells[1:])  # type: ignore[union-attr]
        if cur is not None and not label and p.cells and cur.rows[-1].label \
                and len(p.cells) == len(cur.rows[-1].cells) + 1 and _extends(p.cells[0], cur.rows[-1].label):
            label, p = p.cells[0].tok.text, replace(p, cells=p.cells[1:])  # type: ignore[union-attr]
        if cur is None:
            cur = Grid(first=i)
            _read_header(cur, lines, i, skip, collapsed=p.sep == "_")
        cur.rows.append(GRow(ln, i, label, list(p.cells), p.npieces, p.sep, p.mark, p.note, list(p.parts)))
        cur.last = i
        blanks = 0
    _close(cur, grids)
    return grids


_BORDER_END = "|+*"
# a box's rule with a note written past it ("*-----*--------- process"): part of the box
_RULED_NOTE = re.compile(r"^\s*[*+|][-=*+|]{8,}[ \t]+[A-Za-z][A-Za-z ]{0,30}$")
NEAR_BORDER = 3  # lines: how far from a row the line closing its border may stand


def _extends(cell: Cell | None, label: str) -> bool:
    """Is `label` the number in `cell` and what was added to it ("6.8" / "6.8+patch",
    "5.15 with series")? Then the number names a row, as a release does."""
    if cell is None or cell.tok.unit or cell.tok.percent:
        return False
    rest = label[len(cell.tok.text):] if label.startswith(cell.tok.text) else ""
    rest = rest.lstrip().lower()
    return bool(rest) and (rest[0] in "+-_/(" or rest.startswith(("with ", "w/", "plus ")))


def _closed_row(lines: Sequence[Line], i: int, p: _Parsed | None) -> _Parsed | None:
    """A bordered row with words after its closing border ("|  13  |  23.9  | 4000 mb"
    beside a boxed table): what stands outside the box is a note, not a cell.  The border
    is closing when a line near the row, at its quote depth, ends at that column with a
    border character (the header "|  8  |  512  |", the rule "*----*----*")."""
    if p is None or p.sep != "|":
        return p
    text = lines[i].text.rstrip()
    end = text.rfind("|")
    if end <= 0 or end == len(text) - 1 or not text.lstrip().startswith("|") or not text[end + 1:].strip():
        return p
    depth = lines[i].depth
    for n in range(max(0, i - NEAR_BORDER), min(len(lines), i + NEAR_BORDER + 1)):
        near = lines[n].text.rstrip()
        if n != i and lines[n].depth == depth and len(near) == end + 1 and near[end] in _BORDER_END:
            return parse_line(text[:end + 1])
    return p


def _label_only_row(text: str, last: GRow) -> bool:
    """A bordered line with text in its first cell only, as many cells as the rows above:
    part of the table (a label wrapped onto a second line, or a group's name)."""
    if last.sep != "|" or "|" not in text:
        return False
    sep, ps = pieces(text)
    return len(ps) >= 1 and bool(ps[0][2]) and all(not x for _, _, x in ps[1:]) \
        and text.count("|") >= last.line.text.count("|") - 1 and not _is_sentence(ps[0][2])


def _close(cur: Grid | None, grids: list[Grid]) -> Grid | None:
    """Keep the grid being read (when it has rows); the new current grid is none."""
    if cur is not None and cur.rows:
        grids.append(cur)
    return None


def _read_header(g: Grid, lines: Sequence[Line], i: int, skip: set[int], collapsed: bool = False) -> None:
    """Header lines above the first row (nearest last), and a lone short title line."""
    depth = lines[i].depth
    got: list[str] = []
    blanks = 0
    j = i - 1
    while j >= 0 and i - j <= 8:
        ln = lines[j]
        t = ln.text
        if j in skip or ln.depth != depth:
            if j in skip and ln.depth == depth and g.title is None:
                g.title = _run_above(lines, j, skip)  # the command the table ran, which the command reader took
            break
        if not t.strip():
            blanks += 1
            if blanks > 1 or (got and blanks > 0 and len(got) >= 1 and g.title is None and False):
                break
            j -= 1
            continue
        if _is_rule(t):
            j -= 1
            continue
        if parse_line(t) is not None or _is_sentence(t) or len(t) > 300:
            break
        sep, ps = pieces(t)
        intro = len(ps) == 1 and ps[0][2].endswith(":") and len(ps[0][2].split()) <= 14
        if _CODE.search(t) and not (intro and _BLOCK_CODE.search(t) is None):
            g.header, g.header_seps, g.title = [], [], None
            g.code = True  # a numbered source listing: no table
            return
        if len(ps) == 1 and not got and not blanks and not intro and i - j == 1 and ps[0][0] > 0 \
                and _header_above(lines, j, depth, skip):
            got.insert(0, t)  # the second line of a header ("TCP_NODELAY" under "virtio-net + vhost")
            j -= 1
            continue
        if len(ps) == 1 and (got or blanks or intro or len(ps[0][2].split()) <= 6):
            words = ps[0][2]
            if (word_count(words) <= 8 or intro) and not words.endswith((".", ",")) \
                    and not _list_item(lines, j, depth):
                g.title = words.rstrip(":")
            if got or (len(words.split()) <= 3 or collapsed and not intro) and i - j == 1 and not blanks:
                if not got:
                    got.insert(0, t)  # a one-word header over one value column
                    g.title_header = True
                    j -= 1
            break
        got.insert(0, t)
        blanks = 0
        if len(got) >= MAX_HEADER_LINES:
            break
        j -= 1
    if g.title is None or g.title_header:
        g.section = _section_title(lines, j, depth)
    for t in got:
        sep, ps = pieces(t)
        g.header.append([(s, e, x, k) for k, (s, e, x) in enumerate(ps)])
        g.header_seps.append(sep)
    if g.title:
        units = [m for m in _UNIT_IN_TITLE.finditer(g.title) if is_unit(m.group("u"))]
        if units:
            # "MTU(Bytes)/Bandwidth (Gbit/s)": the row key's name and unit, then the values'
            last = units[-1] if "/" in g.title[units[0].end():units[-1].start()] else units[0]
            g.unit = last.group("u")
        elif (m := _UNIT_SAID.search(g.title)) is not None and is_unit(m.group("u")):
            g.unit = m.group("u")  # "The numbers below are in usec (lower is better):"


_BULLET = re.compile(r"\s*[-*•+]\s")


def _list_item(lines: Sequence[Line], j: int, depth: int) -> bool:
    """Line j is one item of a bulleted list ("- CPU: Xeon Silver 4214" under "- Disk: ..."):
    it describes the setup beside its siblings; it is no title of the table under the list."""
    return _BULLET.match(lines[j].text) is not None and j > 0 and lines[j - 1].depth == depth \
        and _BULLET.match(lines[j - 1].text) is not None


def word_count(text: str) -> int:
    """The words of a line, not its operators: "host -> guest efficiency [Mbps / (%CPU_Host
    + %CPU_Guest)]" is six words long, however the author spaces its symbols."""
    return sum(1 for w in text.split() if any(ch.isalnum() for ch in w))


_CODE = re.compile(r"[;{}]|/\*|\*/|^\s*\*(?:\s|$)|->\w|&&|\|\||\*\w|\w\[\w|==|!=|\+\+|--\w|^(?:[-+]\s*)?#\w|\b[0-9a-f]{12,40}\b"
                   r"|\w\(\s*\\?$|\s\\$|(?:^|\s)#(?:define|include|ifn?def|if|else|endif)\b")
def _header_above(lines: Sequence[Line], j: int, depth: int, skip: set[int]) -> bool:
    """Line j-1 is a header line of several cells: line j, one piece under it, continues it."""
    if j < 1 or j - 1 in skip or lines[j - 1].depth != depth:
        return False
    t = lines[j - 1].text
    return bool(t.strip()) and not _is_rule(t) and parse_line(t) is None and not _is_sentence(t) \
        and len(pieces(t)[1]) >= 2 and _CODE.search(t) is None


_NAME_WORD = re.compile(r"[a-z][\w+.-]{2,30}")  # a word that names a thing: no code punctuation, 3+ letters
_JOINER = re.compile(r"[+&/]|and|with|w/")
# an intro line "RAMDISK (vq == vcpu):" is a title, not code; so is a sentence with a
# semicolon between its clauses ("The retransmits are gone; nstat over 60s:")
_BLOCK_CODE = re.compile(r"[{}]|;(?![^\S\n]+[A-Za-z])|/\*|\*/")
_DIGIT = re.compile(r"\d")
_LABEL_VALUE = re.compile(r"^[^:\d]{1,40}:\s*[~<+-]?\d")  # "Before: 5.2Mpps" in a piece of its own
_SHELLISH = re.compile(r"(?:^|\s)-\S|[&;=$`<>]|^\S*/|\(qemu\)|#")


def _section_title(lines: Sequence[Line], j: int, depth: int) -> str | None:
    """The label line a table stands under, above its command line or notes ("Baseline
    kernel", "grommet v2"): the nearest short line of one piece within a few lines; else,
    of the text lines there, the nearest that introduces it ("thread per VQ:") or that the
    lexicon reads as naming a side ("Current upstream (single thread per device)." over a
    note "After 8 jobs there was no perf diff.")."""
    text: list[str] = []
    for n in range(j, max(-1, j - 6), -1):
        ln = lines[n]
        t = ln.text.strip()
        if ln.depth != depth:
            break
        if not t or _is_rule(t):
            continue
        if parse_line(t) is not None:
            break
        _, ps = pieces(t)
        if len(ps) == 1 and len(t.split()) <= 6 and not t.endswith((".", ",", ";")) \
                and any(ch.isalpha() for ch in t) and not _SHELLISH.search(t):
            return clean_label(t)
        if len(ps) == 1 and len(t.split()) <= 16 and any(ch.isalpha() for ch in t):
            text.append(t)
    intro = [t for t in text if t.endswith(":")]
    if intro:
        return clean_label(intro[0])
    scored = [(abs(cue(t.rstrip(".")).score), -n, t) for n, t in enumerate(text)]
    best = max(scored, default=None)
    if best is not None and best[0] >= 0.35:
        return clean_label(best[2].rstrip("."))
    return None


def _scaled(t: Token) -> float:
    v = t.value or 0.0
    u = (t.unit or "")[:1]
    return v * {"K": 1e3, "k": 1e3, "M": 1e6, "G": 1e9}.get(u, 1.0) if u in MAGNITUDES else v


def _shape(g: Grid) -> int:
    """Bring every row to k value columns; returns k (0 when the rows do not line up)."""
    counts = [len(r.cells) for r in g.rows]
    multi = [c for c in counts if c >= 2]
    # the width most rows have: a short row ("1  same as above") is placed by position, a
    # long one has numbers in its label; ties go to the narrower width.  Numbers glued to
    # the label text ("batch = 1 410") that only some rows print are part of the label.
    whole = [len(r.cells) for r in g.rows if len(r.cells) >= 2 and None not in r.cells] or multi
    k = max(set(whole), key=lambda n: (whole.count(n), -n)) if multi else min(counts)
    if multi and k > min(multi) and all(c is not None and c.glued for r in g.rows
                                         for c in r.cells[:len(r.cells) - min(multi)]):
        k = min(multi)
    if k == 0:
        return 0
    if _cut_short(g.rows, k):
        k = max(counts)
    full = [r for r in g.rows if len(r.cells) == k]
    spans: list[tuple[int, int]] = []
    for j in range(k):
        cs = [r.cells[j] for r in full if r.cells[j] is not None]
        if not cs:
            spans.append((-1, -1))
        else:
            spans.append((min(c.start for c in cs), max(c.end for c in cs)))  # type: ignore[union-attr]
    g.rows = [r for r in g.rows if r.sep != "," or len(r.cells) == k]  # CSV rows print every field
    if not g.rows:
        return 0
    for r in g.rows:
        n = len(r.cells)
        if n > k:
            extra = r.cells[:n - k]
            if any(c is None for c in extra):
                return 0
            r.label = (r.label + " " + " ".join(c.tok.text for c in extra if c is not None)).strip()
            r.cells = r.cells[n - k:]
        elif n < k:
            placed = _placed(r.cells, spans)
            if r.sep == "|" and placed is None:
                pad: list[Cell | None] = [None] * (k - n)
                placed = pad + r.cells  # a bordered row without its label cell
            r.cells = placed or []
    g.rows = [r for r in g.rows if len(r.cells) == k]
    return k if g.rows else 0


def _cut_short(rows: list[GRow], k: int) -> bool:
    """Rows of k cells that stand under the first k cells of the longer rows (a run that
    "was recorded just for" the last columns): the short rows end early, the longer rows'
    first numbers are cells, not part of a label."""
    longer = [r for r in rows if len(r.cells) > k]
    short = [r for r in rows if len(r.cells) == k]
    if not longer or not short:
        return False
    return all(a is not None and b is not None and _gap((a.start, a.end), (b.start, b.end)) <= 2
               for r in longer for s in short for a, b in zip(r.cells[:k], s.cells, strict=True))


def _placed(cells: list[Cell | None], spans: list[tuple[int, int]]) -> list[Cell | None] | None:
    """A short row's cells put under the columns they stand below ("1848478.75 |" ending
    where the longer rows go on), or None when a cell stands under no column or two share one."""
    placed: list[Cell | None] = [None] * len(spans)
    for c in cells:
        if c is None:
            continue
        best = min(range(len(spans)), key=lambda j: _gap((c.start, c.end), spans[j]))
        if _gap((c.start, c.end), spans[best]) > 2 or placed[best] is not None:
            return None
        placed[best] = c
    return placed


def _gap(a: tuple[int, int], b: tuple[int, int]) -> int:
    if b[0] < 0:
        return 10**6
    return max(0, max(a[0], b[0]) - min(a[1], b[1]))


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(0, min(a[1], b[1]) - max(a[0], b[0]))


def _name_columns(g: Grid, k: int) -> None:
    """Column names (and units) from the header lines, by piece index or by position."""
    names: list[list[str]] = [[] for _ in range(k)]
    units: list[str | None] = [None] * k
    bare: dict[int, str] = {}  # a column's unit read from a bare header word ("CPU")
    key: list[str] = []
    full = [r for r in g.rows if all(c is not None for c in r.cells)] or g.rows
    spans = []
    for j in range(k):
        cs = [r.cells[j] for r in full if r.cells[j] is not None]
        spans.append((min(c.start for c in cs), max(c.end for c in cs)) if cs else (-1, -1))  # type: ignore[union-attr]
    label_end = min((s for s, _ in spans if s >= 0), default=0)
    ref = full[0]
    g.groups = []
    for h, (hdr, sep) in enumerate(zip(g.header, g.header_seps, strict=False)):
        groups = _column_groups(hdr, g.header[h + 1] if h + 1 < len(g.header) else [], spans)
        if groups:
            g.groups = groups
            continue
        tagged = _tagged_columns(hdr, spans, label_end)
        if tagged is not None:  # "Insns (A)  Insns (B)  Insns (DIFF)": a group line and its tags in one
            g.groups = tagged.groups
            key.extend(x for _, _, x, _ in tagged.labels)
            for j, (tag, unit) in enumerate(tagged.columns):
                names[j].append(tag)
                units[j] = units[j] or unit
            continue
        if h + 1 < len(g.header) and sep == " " and ref.sep == " ":
            hdr = _spanning_to_title(g, hdr, spans, label_end)
        words: list[tuple[int, int, str, int]] = []  # start, end, text, column (-1 = label)
        if sep == "#":  # a promoted row of numbers: one per column
            words.extend((0, 0, x, j) for j, (_, _, x, _) in enumerate(hdr[-k:]))
        elif ref.sep == "_" and len(hdr) == 1:  # collapsed: the words shared out evenly
            ws = hdr[0][2].split()
            lead = 1 if len(ws) == k + 1 else 0
            if len(ws) - lead >= k and (len(ws) - lead) % k == 0:
                step = (len(ws) - lead) // k
                if lead:
                    words.append((0, 0, ws[0], -1))
                for j in range(k):
                    words.append((0, 0, " ".join(ws[lead + j * step:lead + (j + 1) * step]), j))
        elif sep == ref.sep and sep in "|\t," and ref.cells[0] is not None:
            piece_of = {c.piece: j for j, c in enumerate(ref.cells) if c is not None}
            shift = ref.npieces - len(hdr)
            for s, e, x, idx in hdr:
                col = piece_of.get(idx + shift, -1)
                # "| Before (Mpps) |": the cell's bracketed unit is a word of its own, as
                # between spaced columns
                tail = _CELL_UNIT_TAIL.search(x)
                if tail is not None and x[:tail.start()].strip():
                    words.extend([(s, e, x[:tail.start()].strip(), col), (s, e, tail.group(1), col)])
                else:
                    words.append((s, e, x, col))
        elif any(sp[0] < 0 for sp in spans) and len(hdr) in (k, k - 1) \
                and all(len(x.split()) == 1 for _, _, x, _ in hdr):
            # a column of only "-" cells has no position: one name per column, right-aligned
            words.extend((s, e, x, n + k - len(hdr)) for n, (s, e, x, _) in enumerate(hdr))
        else:
            for s, e, x, _ in hdr:
                mine = []
                for m in re.finditer(r"\S+", x):
                    at = (s + m.start(), s + m.end())
                    best = min(range(k), key=lambda j: (_gap(at, spans[j]), -_overlap(at, spans[j])))
                    col = best
                    if at[1] <= label_end and _gap(at, spans[best]) > 0:
                        col = -1
                    mine.append((*at, m.group(), col))
                cols = sorted({c for *_, c in mine if c >= 0})
                if len(cols) >= 2 and -1 not in {c for *_, c in mine} and any(
                        _JOINER.fullmatch(w) and mine[n - 1][3] != mine[n + 1][3]
                        for n, (_, _, w, _) in enumerate(mine[1:-1], start=1)):
                    # "+" or "&" between words over two columns ties them together: one name
                    # over every column it spans ("virtio-net + vhost" over two)
                    mine = [(s, e, x, c) for c in cols]
                words.extend(mine)
            piece_cols = [{c for s, e, _, c in words if hs <= s and e <= he and c >= 0} for hs, he, _, _ in hdr]
            owners = [c for pc in piece_cols if len(pc) == 1 for c in pc]
            if len(hdr) == k and (any(len(pc) > 1 for pc in piece_cols) or len(owners) != len(set(owners))):
                # the header's cells do not stand over the columns (padding lost or odd
                # spaces): as many header cells as value columns name them in order
                words = [(s, e, x, n) for n, (s, e, x, _) in enumerate(hdr)]
        per_col = [" ".join(x for _, _, x, c in words if c == j and x) for j in range(k)]
        if k >= 2 and sep != "#" and per_col[0] and len(set(per_col)) == 1 and not is_unit(per_col[0]) \
                and _kind_of_name(per_col[0]) not in ("variant", "change", "spread"):
            # one word over every column alike ("INDEX  INDEX  INDEX"): what all of them
            # measure, not what tells them apart
            words = [w for w in words if w[3] < 0]
        for _, _, x, col in words:
            if not x:
                continue
            pu = _PAREN_UNIT.match(x)
            u = pu.group("u") if pu else x
            if col >= 0 and pu and col in bare and is_unit(u) and bare[col] == units[col] and not names[col]:
                # "CPU (%)": the bracketed unit is the column's; the bare word before it, its name
                names[col].append(bare.pop(col))
                units[col] = u
                continue
            if col >= 0 and is_unit(u) and not _CHANGE_NAME.match(x) and not (units[col] and pu) \
                    and not AGGREGATE_NAME.match(x):  # "min  avg  max": the minimum, not minutes
                if not pu and not units[col]:
                    bare[col] = u
                units[col] = units[col] or u
                continue  # a column has one unit: "(B)" after "Insns" names it (veristat's "Insns (B)")
            if col < 0:
                key.append(x)
            else:
                names[col].append(x)
    for j in range(k):
        # a cell that prints its value with its spread ("42373.79 ± 0.54%") stands under two
        # header words, the value's and the spread's ("IOPS  Error", "avg  stddev"): the
        # spread's word names a part of each cell, not the column
        cs = [r.cells[j] for r in g.rows if r.cells[j] is not None]
        if cs and all(c.spread is not None for c in cs):  # type: ignore[union-attr]
            names[j] = [x for x in names[j] if _kind_of_name(x) != "spread"]
    g.names = [" ".join(n) for n in names]
    g.units = units
    g.key_name = " ".join(key) or None


def _spanning_to_title(g: Grid, hdr: list[tuple[int, int, str, int]], spans: list[tuple[int, int]],
                       label_end: int) -> list[tuple[int, int, str, int]]:
    """A header cell over all the value columns, with a header line under it naming each
    ("Bandwidth (Gbit/s)" over "Before   After"): what every column measures, so the
    table's title (and its unit), not the first column's name; a cell over the label
    column beside it ("Features/") names the rows."""
    cols = [j for j, sp in enumerate(spans) if sp[0] >= 0]
    if len(cols) < 2:
        return hdr
    out = []
    for s, e, x, k in hdr:
        over = [j for j in cols if _overlap((s, e), spans[j]) > 0 or spans[j][0] <= s <= spans[j][1]]
        if s >= label_end - 4 and len(over) == len(cols) and (g.title is None or g.title_header):
            g.title, g.title_header = x, False
            m = _UNIT_IN_TITLE.search(x)
            if m and is_unit(m.group("u")):
                g.unit = g.unit or m.group("u")
            continue
        out.append((s, e, x, k))
    return out


# a header cell naming its column by a measure and a tag ("Insns (A)", "Duration (us) (DIFF)")
_TAGGED = re.compile(r"^(?P<m>[A-Za-z][^()]*?(?:\s*\([^()]{1,16}\))?)\s*\((?P<t>[^()]{1,16})\)$")


@dataclass
class _Tagged:
    groups: list[tuple[str, list[int]]]  # each measure and its columns
    columns: list[tuple[str, str | None]]  # each value column's tag and the unit its measure states
    labels: list[tuple[int, int, str, int]]  # the header cells over the row labels


def _tagged_columns(hdr: list[tuple[int, int, str, int]], spans: list[tuple[int, int]],
                    label_end: int) -> _Tagged | None:
    """A header line whose value columns are each named "<measure> (<tag>)", one measure
    over a run of columns told apart by their tags (veristat's "Insns (A)  Insns (B)
    Insns (DIFF)  States (A) ..."): the group line and the line of names under it that
    _column_groups reads, written as one. The tags must be what tells variants apart
    (the lexicon's side words, or lone capital letters as A/B runs name their inputs) and
    changes, the same run of them in every group, two variants at least: "Latency (avg)
    Latency (p99)" names two measures, not two variants. A tag padded apart from its
    measure ("Insns    (DIFF)") is read with it."""
    k = len(spans)
    cells: list[tuple[int, int, str, int]] = []
    for cell in hdr:
        s, e, x, n = cell
        if cells and x.startswith("(") and x.endswith(")") and cells[-1][1] >= label_end - 1 and (
                "(" not in cells[-1][2] if _PAREN_UNIT.match(x) is None else _TAGGED.match(cells[-1][2]) is None):
            # "Insns    (DIFF)", "States    (B)" ("(B)" alone reads as a unit): a tag padded apart
            ps, _, px, pn = cells[-1]
            cells[-1] = (ps, e, f"{px} {x}", pn)
            continue
        cells.append(cell)
    labels = [c for c in cells if c[1] < label_end - 1]
    values = [c for c in cells if c[1] >= label_end - 1]
    if k < 2 or len(values) != k or any(sp[0] < 0 for sp in spans):
        return None
    parts = [_TAGGED.match(x) for _, _, x, _ in values]
    if any(m is None for m in parts):
        return None
    measures = [m.group("m").strip() for m in parts if m is not None]
    tags = [m.group("t").strip() for m in parts if m is not None]
    runs: list[tuple[str, list[int]]] = []
    for j, measure in enumerate(measures):
        if runs and runs[-1][0] == measure:
            runs[-1][1].append(j)
        else:
            runs.append((measure, [j]))
    first = [tags[j] for j in runs[0][1]]
    if any([tags[j] for j in cols] != first for _, cols in runs) or len(set(measures)) != len(runs):
        return None
    kinds = ["change" if _kind_of_name(t) == "change" else
             "variant" if role(t) is not None or re.fullmatch(r"[A-Z]", t) else "other" for t in first]
    if "other" in kinds or kinds.count("variant") < 2 or len(set(first)) != len(first):
        return None
    columns: list[tuple[str, str | None]] = []
    for measure, cols in runs:
        u = _UNIT_IN_TITLE.search(measure)
        unit = u.group("u") if u is not None and is_unit(u.group("u")) else None
        columns.extend((tags[j], unit) for j in cols)
    return _Tagged([(_UNIT_IN_TITLE.sub("", m).strip(), cols) for m, cols in runs], columns, labels)


def _column_groups(hdr: list[tuple[int, int, str, int]], below: list[tuple[int, int, str, int]],
                   spans: list[tuple[int, int]]) -> list[tuple[str, list[int]]]:
    """A header line naming groups of columns ("TCP_RR" and "UDP_RR" over "base patched
    base patched"): fewer names than columns, the line under it naming every column of the
    groups with one run of names repeated once per group, and each group name standing
    over its own group; a key column ("flows", "1 flow") may stand before the groups.
    [] for any other header line."""
    k, m = len(spans), len(hdr)
    if m < 2 or any(sp[0] < 0 for sp in spans):
        return []
    for off in (0, 1):
        width = k - off
        if width % m or len(below) < width or len(below) > width + 1:
            continue
        p = width // m
        lower = [x for _, _, x, _ in below[-width:]]
        if p < 2 or any(lower[i] != lower[i % p] for i in range(width)) or len(set(lower[:p])) != p:
            continue
        out = []
        for n, (s, e, x, _) in enumerate(hdr):
            cols = list(range(off + n * p, off + (n + 1) * p))
            lo, hi = spans[cols[0]][0], spans[cols[-1]][1]
            if e < lo - 2 or s > hi + 2 or (cols[0] and s <= spans[cols[0] - 1][1]):
                break
            out.append((x, cols))
        else:
            return out
    return []


# --- classification -------------------------------------------------------------------

def name_kind(name: str) -> str:
    """What a row or column name is: 'change', 'spread', 'runs', 'index' ("Run 2"),
    'aggregate' ("Average"), 'variant', 'param', 'metric', 'name' or 'empty'.  The block
    model asks it of its row keys, so both read a name the same way."""
    return _kind_of_name(name)


@lru_cache(maxsize=1024)  # asked of each row's label and column's name by several steps (the change rows,
def _kind_of_name(name: str) -> str:  # the axis, the long format); kept across messages as the rows are
    n = name.strip()
    if not n:
        return "empty"
    bare = n.strip("()[] ")  # veristat's "Insns (DIFF)" under its unit: "(DIFF)"
    if (_CHANGE_NAME.match(n) or bare.isalpha() and _CHANGE_NAME.match(bare)) and role(n) is None:
        return "change"
    if SPREAD_NAME.match(n):
        return "spread"
    if RUNS_NAME.match(n):
        return "runs"
    if _RUN_INDEX.match(n):
        return "index"
    if AGGREGATE_NAME.match(n):
        return "aggregate"
    if role(n) is not None:
        return "variant"
    if _PARAM_NAME.match(n):
        return "param"
    if len(n) == 1 and n.isupper():
        return "name"  # "A", "B": a run's or an input's letter ("Insns (B)"), not bytes
    # a lone letter ("v6.5+s") says nothing of the direction: only words name a metric
    if is_unit(n) or better_for(_LONE_LETTER.sub(" ", n), None) is not None or unit_kind(n):
        return "metric"
    return "name"


_LONE_LETTER = re.compile(r"(?<![A-Za-z])[A-Za-z](?![A-Za-z])")
# a column that names which thing a row is of, by number: a CPU, a node, a queue, an IRQ
_ID_NAME = re.compile(r"(?i)^(?:cpu|core|node|numa|irq|pid|tid|id|port|socket)#?$")


def _column_kinds(g: Grid, k: int) -> list[str]:
    kinds = []
    for j in range(k):
        cells = [r.cells[j] for r in g.rows if r.cells[j] is not None]
        kind = _kind_of_name(g.names[j]) if j < len(g.names) else "empty"
        unit = g.units[j] if j < len(g.units) else None
        if g.swept and kind in ("name", "empty", "metric"):
            kind = "param"
        if kind in ("empty", "name", "metric", "param") and cells:
            if all(c.tok.percent and c.tok.signed for c in cells if c is not None):  # type: ignore[union-attr]
                kind = "change"
            elif j < len(g.names) and _ID_NAME.match(g.names[j] or unit or "") and _ID_NAME.match(unit or "cpu") and all(
                    c is not None and not c.tok.percent and not c.tok.unit and float(c.tok.value or 0.5).is_integer()
                    for c in cells):
                kind = "index"  # mpstat's "CPU  3": which CPU, not how much of it
            elif all(c.tok.kind == "spread" for c in cells if c is not None):  # type: ignore[union-attr]
                kind = "spread"
        kinds.append(kind)
    return kinds


def _key_column(g: Grid, kinds: list[str]) -> bool:
    """The first value column is a key (a swept parameter) when its numbers rise row by row."""
    if len(kinds) < 2 or kinds[0] in ("variant", "change", "spread") or any(r.label for r in g.rows):
        return False
    cells = [r.cells[0] for r in g.rows]
    if any(c is None or c.tok.percent or c.tok.value is None for c in cells):
        return False
    vals = [_scaled(c.tok) for c in cells if c is not None]
    if len(vals) == 1:  # one row: a key when the other columns are the named variants
        return float(vals[0]).is_integer() and kinds[0] != "variant" and \
            sum(x == "variant" for x in kinds[1:]) >= 2
    return all(float(v).is_integer() for v in vals) and all(a < b for a, b in zip(vals, vals[1:], strict=False))


def _text_names(text: str, name: str) -> bool:
    key = re.sub(r"[^a-z0-9]", "", name.lower())
    return len(key) >= 2 and key in text


@dataclass
class _Axis:
    rows: bool  # variants are the rows (else the columns)
    variants: list[int]  # row or column indexes
    baseline: int


def _decide(g: Grid, k: int, kinds: list[str], key_col: bool, prose: str) -> _Axis | None:
    """Which axis holds the variants, from the evidence of both axes."""
    rows = g.rows
    labels = [r.label for r in rows]
    change_rows = [i for i, r in enumerate(rows) if _is_change_row(r)]
    changes = set(change_rows)
    body = [i for i in range(len(rows)) if i not in changes]
    rkinds = [_kind_of_name(labels[i]) for i in body]
    vcols = [j for j in range(k) if kinds[j] in ("variant", "name", "empty", "metric", "param")
             and not (key_col and j == 0)]
    ccols = [j for j in range(k) if kinds[j] == "change"]
    ckinds = [kinds[j] for j in vcols]
    if any(r.mark for r in rows) or _numbered_boxes(rows):
        return None
    if rkinds and all(x in ("index", "aggregate") for x in rkinds) and "variant" not in ckinds:
        return None  # repeated runs of one variant: not a comparison (under "base  patched", runs of each)
    col_score = 2.0 * sum(x == "variant" for x in ckinds)
    row_score = 2.0 * sum(x == "variant" for x in rkinds)
    # names with no cue word that the lexicon still tells apart ("v6.5" / "v6.5+s", "udp" /
    # "udp gso"): as good as one variant cue on that axis
    cnames = [g.names[j] for j in vcols]
    cols_told = "variant" not in ckinds and _told_apart(cnames)
    if cols_told:
        col_score += 2.0
    col_stated, row_stated = _stated_pattern(rows, body, vcols)
    col_score += col_stated
    row_score += row_stated
    rnames = [labels[i] for i in body]
    if "variant" not in rkinds and _told_apart(rnames):
        row_score += 2.0
    elif "variant" not in rkinds and "variant" not in ckinds and _one_word_apart(rnames, prose):
        row_score += 2.0
    ref_row = None
    computed_base = None
    if len(vcols) >= 2 and ccols:
        col_score += 1.5
    pct_cols = ccols + [j for j in vcols if kinds[j] in ("empty", "name") and all(
        rows[i].cells[j] is None or rows[i].cells[j].tok.percent for i in body)]  # type: ignore[union-attr]
    plain = [j for j in vcols if j not in pct_cols]
    for ch in pct_cols:
        for a, b in zip(plain, plain[1:], strict=False):
            computed_base = _change_computed_from(rows, body, [a, b], ch)
            if computed_base is not None:
                col_score += 3.0  # the change column is the candidate against the baseline column
                vcols, ccols = [a, b], [ch]
                kinds[ch] = "change"
                break
        if computed_base is not None:
            break
    if ccols and len(vcols) == 1:
        zero = [i for i in body if rows[i].cells[ccols[0]] is not None
                and rows[i].cells[ccols[0]].tok.value == 0]  # type: ignore[union-attr]
        row_score += 1.0
        if len(zero) == 1:
            ref_row = zero[0]
            row_score += 2.0
    if change_rows:
        row_score += 1.5
    rows_are_keys = key_col or (rkinds and all(x == "param" for x in rkinds))
    cols_are_keys = bool(ckinds) and all(x == "param" for x in ckinds)
    if rows_are_keys:
        col_score += 1.0
    if cols_are_keys:
        row_score += 1.0
    if ckinds and all(x == "metric" for x in ckinds):
        col_score -= 3.0
    if rkinds and all(x == "metric" for x in rkinds):
        row_score -= 3.0
    if any(x in ("index", "aggregate") for x in rkinds):
        row_score -= 3.0
    if row_score >= col_score and row_score > 0 and len(body) >= 2:
        if row_score < 2 and (not _named_in_text([labels[i] for i in body], prose) or len(vcols) < 2):
            return None
        if not any(x == "variant" for x in rkinds) and ref_row is None and not change_rows \
                and not (all(x in ("name", "variant", "param") for x in rkinds) and cols_are_keys
                         and any(x == "name" for x in rkinds)) \
                and not all(x in ("name", "variant") for x in rkinds):
            return None
        if ref_row is None and _one_side([labels[i] for i in body]):
            return None
        base = ref_row if ref_row is not None else _pick([labels[i] for i in body], body)
        if not _comparable([[(rows[base].cells[j], rows[i].cells[j]) for j in vcols] for i in body
                            if i != base and not _named_sides(labels[base], labels[i])]):
            return None
        return _Axis(True, body, base)
    if col_score > row_score and col_score > 0 and len(vcols) >= 2:
        if any(kinds[j] != "empty" for j in vcols):
            vcols = [j for j in vcols if kinds[j] != "empty"]  # a column without a name is no variant
        names = [g.names[j] for j in vcols]
        if col_score < 2 and not _named_in_text(names, prose):
            return None
        if not any(kinds[j] == "variant" for j in vcols) and not ccols and not cols_told \
                and not all(kinds[j] == "name" for j in vcols):
            return None
        if computed_base is None and _one_side(names):
            return None
        bj = computed_base if computed_base is not None else _pick(names, vcols)
        if not _comparable([[(rows[i].cells[bj], rows[i].cells[j]) for i in body] for j in vcols
                            if j != bj and not _named_sides(g.names[bj], g.names[j])]):
            return None
        return _Axis(False, vcols, bj)
    return None


def _one_side(names: list[str]) -> bool:
    """Do all the names name one side by the same words, differ in what is not a side,
    and nothing else ranks them
    ("srcu v6.12: 12.3 this series" / "srcu-fast v6.12: 3.2 this series": rows that each
    hold both sides, or runs of one patched kernel)? Then, unless the cells name the
    reference (a row of zero change, a column the changes were computed from), their order
    would be all that makes one the baseline, and it is not a comparison of theirs."""
    roles = {role(n) for n in names}
    # (names printed alike, "batch =" over its key column, differ in their cells only)
    return len(roles) == 1 and None not in roles and len(set(names)) == len(names) and not decided(names)


def _numbered_boxes(rows: list[GRow]) -> bool:
    """Cells that count 1, 2, 3, ... in reading order (a chart "[no warnings]  1  2" over
    "[warnings]  3  4" naming its boxes): numbers that name places, not measurements."""
    vals = [c.tok.value for r in rows for c in r.cells if c is not None]
    return len(vals) >= 4 and all(c is not None and not c.tok.unit and not c.tok.percent
                                  for r in rows for c in r.cells) \
        and vals == [float(n) for n in range(1, len(vals) + 1)]


FAR_APART = 100.0  # times: two sides of one comparison are not this far apart in most cells


def _named_sides(base: str, cand: str) -> bool:
    """Are `base` and `cand` named as the two sides of a comparison ("before" / "after",
    "w/o patch" / "w/ patch")? Their numbers may then lie any distance apart: nstat's
    "TcpRetransSegs  18231  12" under "before  after" is the fix, not two quantities."""
    return role(base) == "baseline" and role(cand) == "candidate"


def _comparable(groups: list[list[tuple[Cell | None, Cell | None]]]) -> bool:
    """The cells an axis would pair, one group per candidate, hold one quantity on both
    sides: no candidate whose numbers are, in most cells, orders of magnitude from the
    baseline's (unixbench's "BASELINE 116700.0" constant beside its "RESULT 947032915.5":
    a reference and a score, not two variants)."""
    for cells in groups:
        ratios = []
        for b, c in cells:
            if b is None or c is None or not b.tok.value or not c.tok.value or b.tok.percent != c.tok.percent:
                continue
            x, y = abs(_scaled(b.tok)), abs(_scaled(c.tok))
            ratios.append(max(x, y) / min(x, y))
        if ratios and sum(r > FAR_APART for r in ratios) * 2 > len(ratios):
            return False
    return True


def _told_apart(names: list[str]) -> bool:
    """Names with no cue word that still tell baseline from candidate: two states of one
    thing ("SMAP off" / "SMAP on"), or the baseline's name written inside every other
    ("v6.5" / "v6.5+s", "copy" / "zerocopy", "udp" / "udp gso")."""
    if not 2 <= len(names) <= 6 or not all(names) or len(set(names)) != len(names) or not distinguishes(names):
        return False
    if contrasted(names) or lone_release(names) is not None:
        return True
    squashed = [re.sub(r"[^a-z0-9]", "", n.lower()) for n in names]
    base = squashed[baseline_index(names)]
    return bool(base) and all(base in x for x in squashed)


def _one_word_apart(names: list[str], prose: str) -> bool:
    """Two row names that differ in one word, a word the message's text names ("xmit by
    sockperf" / "xmit by xsk"): the two things compared, the rest of the name shared."""
    if len(names) != 2:
        return False
    a, b = names[0].split(), names[1].split()
    if len(a) != len(b) or len(a) < 2:
        return False
    diff = [(x.lower(), y.lower()) for x, y in zip(a, b, strict=True) if x.lower() != y.lower()]
    if len(diff) != 1 or any(ch.isdigit() for n in names for ch in n) \
            or not all(_kind_of_name(w) == "name" and _NAME_WORD.fullmatch(w) for w in diff[0]):
        return False  # "RX packets 53" / "TX packets 53", "int nr_zones," / "int zone_sectors,"
    x, y = (re.split(r"[-_]", w) for w in diff[0])
    # or two ways of one thing, written as compounds of one head ("single-free" / "batch-free")
    shared = len(x) == len(y) == 2 and (x[0] == y[0]) != (x[1] == y[1]) and \
        all(len(p) >= 3 for p in set(x) ^ set(y))
    return shared or any(_text_names(prose, w) for w in diff[0])


def _stated_pattern(rows: list[GRow], body: list[int], vcols: list[int]) -> tuple[float, float]:
    """Evidence from changes printed in the cells ("5.7Mpps (+14%)"): a column with none
    beside columns that all have one is the baseline column (variants are the columns); a
    row with none beside rows that all have one is the baseline row."""
    def has(i: int, j: int) -> bool:
        c = rows[i].cells[j]
        return c is not None and c.stated is not None

    def moved(i: int, j: int) -> bool:  # "+0%" is the reference, printed
        c = rows[i].cells[j]
        return c is not None and bool(c.stated)

    if len(vcols) < 2 or len(body) < 1 or not any(moved(i, j) for i in body for j in vcols):
        return 0.0, 0.0
    full_cols = [j for j in vcols if all(has(i, j) for i in body if rows[i].cells[j] is not None)]
    bare_cols = [j for j in vcols if not any(moved(i, j) for i in body)]
    full_rows = [i for i in body if all(has(i, j) for j in vcols if rows[i].cells[j] is not None)]
    bare_rows = [i for i in body if not any(moved(i, j) for j in vcols)]
    full_cols = [j for j in full_cols if j not in bare_cols]
    full_rows = [i for i in full_rows if i not in bare_rows]
    col = 1.0 if bare_cols and len(bare_cols) + len(full_cols) == len(vcols) and full_cols else 0.0
    row = 1.0 if bare_rows and len(bare_rows) + len(full_rows) == len(body) and full_rows else 0.0
    return col, row


def _change_of(cell: Cell | None) -> float | None:
    """The change in percent a change column's cell states: its percentage, or the one
    noted beside a difference ("-2345 (-19.00%)"); a bare difference states none."""
    if cell is None:
        return None
    return cell.tok.value if cell.tok.percent else cell.stated


def _change_computed_from(rows: list[GRow], body: list[int], vcols: list[int], ccol: int) -> int | None:
    """The value column a change column was computed against, when its numbers say so:
    for most rows the stated % equals (other / this - 1) for one ordering of two columns."""
    if len(vcols) != 2:
        return None
    a, b = vcols
    votes = {a: 0, b: 0}
    n = 0
    for i in body:
        ca, cb, ch = rows[i].cells[a], rows[i].cells[b], rows[i].cells[ccol]
        if ca is None or cb is None or ch is None or not ca.tok.value or not cb.tok.value or ch.tok.value is None:
            continue
        n += 1
        for base, cand in ((ca, cb), (cb, ca)):
            want = (cand.tok.value / base.tok.value - 1.0) * 100.0  # type: ignore[operator]
            got = ch.tok.value if ch.tok.percent or ch.stated is None else ch.stated
            diff = cand.tok.value - base.tok.value  # type: ignore[operator]
            if abs(got - want) <= max(1.0, 0.1 * abs(want)) \
                    or not ch.tok.percent and abs(ch.tok.value - diff) <= 0.01 * max(1.0, abs(diff)):
                votes[a if base is ca else b] += 1  # a change in %, or the difference ("-2345 (-19.00%)")
    if n == 0:
        return None
    best = max(votes, key=lambda k: votes[k])
    other = b if best == a else a
    return best if votes[best] >= max(1, 0.6 * n) and votes[best] > votes[other] else None


def _runs_of(xs: list[str]) -> int:
    return sum(1 for i, x in enumerate(xs) if i == 0 or xs[i - 1] != x)


def _label_columns(rows: list[GRow]) -> list[list[list[str]]]:
    """Ways to read row labels as two label columns: their own pieces ("9p-cache-none",
    "seqread-psync"), else the first word and the rest, or all but the last word and the
    last ("xmit by syscall", "xmit by xsk", "recv by syscall", ...)."""
    out: list[list[list[str]]] = []
    if all(r.label.count(", ") == 1 for r in rows):  # "virtio, 1vcpu", "vhost-blk, 1vcpu"
        out.append([r.label.split(", ") for r in rows])
    if sum(len(r.parts) == 2 for r in rows) >= len(rows) / 2:
        seconds = {r.parts[1] for r in rows if len(r.parts) == 2}
        parts = []
        for r in rows:  # a first cell as wide as its column: "virtiofs-dax-cache-none seqread-psync"
            cut = r.parts if len(r.parts) == 2 else r.parts[0].rsplit(" ", 1) if len(r.parts) == 1 else []
            if len(cut) != 2 or len(r.parts) == 1 and cut[1] not in seconds:
                return out
            parts.append(cut)
        out.append(parts)
        return out
    words = [r.label.split() for r in rows]
    if all(len(w) >= 2 for w in words):
        out.append([[" ".join(w[:-1]), w[-1]] for w in words])
        out.append([[w[0], " ".join(w[1:])] for w in words])
    return out


def _long_format(g: Grid, prose: str) -> Grid | None:
    """Rows named by two label columns, one a variant cycling inside groups of the other
    ("9p-cache-none  seqread-psync", "virtiofs-cache-none  seqread-psync", ...): a grid
    whose rows are marked by their variant and keyed by the other column."""
    rows = g.rows
    if len(rows) < 4:
        return None
    for parts in _label_columns(rows):
        cols = [[x[0] for x in parts], [x[1] for x in parts]]
        for vi in (0, 1):
            var, key = cols[vi], cols[1 - vi]
            distinct_key, distinct_var = len(set(key)), len(set(var))
            if distinct_var < 2 or distinct_key < 2 or distinct_key >= len(rows) \
                    or len(set(zip(key, var, strict=True))) != len(rows) \
                    or distinct_var * distinct_key > 2 * len(rows) \
                    or not (_runs_of(key) == distinct_key and _runs_of(var) > distinct_var
                            or _runs_of(var) == distinct_var and _runs_of(key) > distinct_key):
                continue  # one side in contiguous groups, the other cycling through most of them
            names = list(dict.fromkeys(var))
            if any(_kind_of_name(n) in ("param", "index", "aggregate", "metric", "change") for n in names):
                continue
            if not any(role(n) for n in names) and not _named_in_text(names, prose):
                continue
            return replace(g, rows=[replace(r, label=key[n], mark=var[n]) for n, r in enumerate(rows)])
    return None


def _keyed_long_format(g: Grid, kinds: list[str]) -> Grid | None:
    """Rows named by a variant that cycles ("before", "after", "before", "after") with a
    first value column that is the same number inside each cycle ("queue 1", "queue 4"):
    the rows are marked by their variant and keyed by that column."""
    rows = g.rows
    labels = [r.label for r in rows]
    names = list(dict.fromkeys(labels))
    if len(rows) < 4 or not all(labels) or len(names) < 2 or len(rows) % len(names) \
            or len(g.names) < 2 or kinds[0] in ("variant", "change", "spread"):
        return None
    n = len(names)
    groups = [rows[i:i + n] for i in range(0, len(rows), n)]
    if any([r.label for r in grp] != names for grp in groups):
        return None  # the variants must come in one order inside every group
    keys = []
    for grp in groups:
        cells = [r.cells[0] for r in grp]
        if any(c is None for c in cells) or len({c.tok.value for c in cells if c is not None}) != 1:
            return None
        keys.append(cells[0].tok.text)  # type: ignore[union-attr]
    if len(set(keys)) != len(keys) or not (any(role(x) for x in names) or decided(names)):
        return None
    key = g.names[0] or g.key_name or ""
    return replace(g, rows=[replace(r, label=f"{key} {keys[i // n]}".strip(), mark=r.label, cells=r.cells[1:])
                            for i, r in enumerate(rows)],
                   names=g.names[1:], units=g.units[1:])


def _named_in_text(names: list[str], prose: str) -> bool:
    """Variants with no cue word pair only when the message's own text names them."""
    said = sum(_text_names(prose, n) for n in names)
    return len(names) >= 2 and (said >= 2 or said == 1 and len(names) == 2)


def _pick(names: list[str], idx: list[int]) -> int:
    """The baseline: a name the lexicon reads as one, else the lowest of names it tells
    apart by their relations ("v6.5" before "v6.5+s"), else the first not a candidate."""
    for n, i in zip(names, idx, strict=False):
        if role(n) == "baseline":
            return i
    if not any(role(n) for n in names) and decided(names):
        return idx[baseline_index(names)]
    for n, i in zip(names, idx, strict=False):
        if role(n) != "candidate":
            return i
    return idx[0]


_CHANGE_WORD = re.compile(r"(?i)\b(?:diff|delta|change|%change|percent|gain|improvement|speed-?up|"
                          r"ratio|increase|decrease|regression)\b|^[+-]?%$")


def _is_change_row(r: GRow) -> bool:
    vals = [c for c in r.cells if c is not None]
    if r.label and (_kind_of_name(r.label) == "change" or _CHANGE_WORD.search(r.label) and not role(r.label)):
        return True
    return bool(vals) and all(c.tok.percent and (c.tok.signed or not r.label) for c in vals) and not role(r.label)


# --- pairing ---------------------------------------------------------------------------

def _value(c: Cell, label: str | None, unit: str | None, line: int, second: bool = False) -> Value:
    tok = c.second if second and c.second is not None else c.tok
    v = Value(value=tok.value if tok.value is not None else 0.0, label=label or None, unit=unit, line=line)
    if c.spread is not None and not second:
        v.spread = c.spread.value or 0.0
        v.spread_kind = "pct" if c.spread.percent else "abs"
    return v


def _with_magnitude(unit: str | None, grid_unit: str | None) -> str | None:
    """A cell's unit, a bare magnitude ("950K") joined to the unit the grid names ("Kpps")."""
    return unit + grid_unit if unit in MAGNITUDES and grid_unit else unit


def _claim(g: Grid, metric: str, b: Cell, c: Cell, blabel: str, clabel: str, unit: str | None,
           rows: Sequence[GRow], stated: float | None, context: str | None,
           b_second: bool = False, c_second: bool = False) -> Claim | None:
    bt = b.second if b_second and b.second is not None else b.tok
    ct = c.second if c_second and c.second is not None else c.tok
    if bt.percent != ct.percent:
        return None
    first = min(r.line.number for r in rows)
    last = max(r.line.number for r in rows)
    cand = rows[-1].line
    unit = unit or b.unit or c.unit or bt.unit or ct.unit
    scales = common_scale(bt.unit, ct.unit)
    bunit = cunit = None
    if scales is not None:  # printed at two scales ("950K" / "1.1M"): each side keeps its own
        bunit, cunit = _with_magnitude(bt.unit, g.unit), _with_magnitude(ct.unit, g.unit)
        unit = scales[2] or g.unit
    elif bt.unit == ct.unit and bt.unit in MAGNITUDES and unit and unit[0] not in MAGNITUDES:
        unit = bt.unit + unit  # both at one scale ("810k", "830k" under "pps"): 810 kpps, not 810 pps
    unit = _with_magnitude(unit, g.unit)  # a bare "k" and the unit the grid names
    if bt.percent:
        unit = "%"
    metric = metric.strip() or unit_kind(unit) or (unit if unit not in MAGNITUDES else None) or "value"
    bline = next((r.line.number for r in rows if c is not None and b in r.cells), first)
    cline = next((r.line.number for r in rows if c in r.cells), last)
    claim = Claim(metric=metric, unit=bunit or unit, better=better_for(metric, unit),
                  baseline=_value(b, blabel, bunit or unit, bline, b_second),
                  candidate=_value(c, clabel, cunit or unit, cline, c_second),
                  lines=(first, last), context=context, depth=cand.depth, author=cand.author,
                  message_id=cand.message_id)
    claim.claimed_change_pct = stated if stated is not None else (c.stated if not c_second else None)
    return claim


def _column_name(g: Grid, j: int) -> str:
    """What a value column measures: its header name, else what its unit measures ("PPS")."""
    if j < len(g.names) and g.names[j]:
        return g.names[j]
    u = g.units[j] if j < len(g.units) else None
    return unit_kind(u) or u or ""


# words that make a line a clause ("And the result is something like:"), not a name
_CLAUSE_WORD = re.compile(r"(?i)(?<![\w/-])(?:is|are|was|were|be|been|here|we|i|you|they|it|this|these|those|following|"
                          r"below|above|like|looks?|shows?|showed|got|gets?|gives?|gave|see|saw|results|numbers)(?![\w/-])")
_PARENS = re.compile(r"\([^()]*\)")
_BARE_NUMBER = re.compile(r"[~<>]?\d[\d.,]*\s?[A-Za-z]{0,2}")


def _title_name(g: Grid) -> str | None:
    """The table's title as part of a metric's name ("size of rx/tx buffers in pages"),
    or None when the title is the sentence that introduces the table ("And the result is
    something like:"): a clause says where the table is, not what it measures."""
    t = clean_label(g.title or "")
    if not t or _program_title(g):
        return None
    bare = _PARENS.sub(" ", t)
    if len(bare.split()) >= 4 and _CLAUSE_WORD.search(bare) or len(bare.split()) > 6 and "," in bare:
        return None  # "On a Raspberry Pi 4 (arm64), building the kernel with make -j4": a scene set
    return t


def _program_title(g: Grid) -> str | None:
    """The title, when it names the benchmark the table was run with ("will-it-scale
    page_fault1, 48 processes", "fs_mark -d /mnt/test -n 100000"): what the table's
    claims are of, not what they measure, so no part of their names (its words would give
    them a direction: "fault" is a cost)."""
    t = clean_label(g.title or "")
    return t if _names_a_run(t) else None


def _run_above(lines: Sequence[Line], j: int, skip: set[int]) -> str | None:
    """The command line that ends at line `j` (its "\\" continuations joined), when it
    names a program run."""
    k = j
    while k > 0 and k - 1 in skip and lines[k - 1].depth == lines[j].depth and lines[k - 1].text.rstrip().endswith("\\"):
        k -= 1
    run = " ".join(lines[n].text.strip().rstrip("\\").strip() for n in range(k, j + 1)).rstrip(":")
    return run if _names_a_run(run) else None


def _names_a_run(text: str) -> bool:
    """Does `text` name a program run: one the project knows, or any one with options
    ("fs_mark -d /mnt/test ...")? A program's name alone is a name: "TCP_RR" over its group
    of columns."""
    words = text.split(None, 2)
    return len(words) > 1 and not words[0].startswith("-") and (
        words[0].lower().rstrip(",:") in BENCH_PROGRAMS or OPTION_WORD.match(words[1]) is not None)


def _metric(*parts: str | None) -> str:
    return " ".join(p for p in parts if p).strip()


def grid_claims(g: Grid, prose: str) -> list[Claim]:
    if g.code:
        return []
    k = _shape(g)
    if k == 0:
        return []
    _promote_header_row(g)
    if not g.rows:
        return []
    _name_columns(g, k)
    _name_rows_from_prose(g, k)
    if g.groups:  # each group of columns is a table of its own (with the key column before them)
        lead = list(range(g.groups[0][1][0]))
        return [cl for name, cols in g.groups for cl in _named_grid_claims(
            replace(g, rows=[replace(r, cells=[r.cells[j] for j in lead + cols]) for r in g.rows],
                    names=[g.names[j] for j in lead + cols], units=[g.units[j] for j in lead + cols],
                    title=_metric(_title_name(g), name), groups=[]), len(lead + cols), prose)]
    blocks = _side_by_side(g.names)
    if blocks:
        out: list[Claim] = []
        for cols in blocks:
            sub = replace(g, rows=[replace(r, cells=[r.cells[j] for j in cols]) for r in g.rows],
                          names=[g.names[j] for j in cols], units=[g.units[j] for j in cols])
            out.extend(_named_grid_claims(sub, len(cols), prose))
        return out
    return _named_grid_claims(g, k, prose)


def _side_by_side(names: list[str]) -> list[list[int]]:
    """Column blocks of tables printed side by side: the header's names repeat
    ("buf size | copy | zerocopy |   | buf size | copy | zerocopy")."""
    k = len(names)
    if k < 4 or not names[0]:
        return []
    for q in range(2, k):
        if names[q] != names[0]:
            continue
        width = q - 1 if not names[q - 1] else q
        if width < 2 or names[q:q + width] != names[:width]:
            continue
        blocks = [list(range(0, width))]
        at = q
        while at + width <= k and names[at:at + width] == names[:width]:
            blocks.append(list(range(at, at + width)))
            at += width + (q - width)
        return blocks
    return []


def _named_grid_claims(g: Grid, k: int, prose: str) -> list[Claim]:
    kinds = _column_kinds(g, k)
    slash = any(all(r.cells[j] is None or r.cells[j].second is not None for r in g.rows)  # type: ignore[union-attr]
                and any(r.cells[j] is not None for r in g.rows) for j in range(k))
    if slash:
        return _slash_claims(g, k, kinds)
    if any(r.mark for r in g.rows):
        return _marked_claims(g, k, kinds)
    long = _long_format(g, prose) or _keyed_long_format(g, kinds)
    if long:
        return _marked_claims(long, len(long.names), _column_kinds(long, len(long.names)))
    key_col = _key_column(g, kinds)
    axis = _decide(g, k, kinds, key_col, prose)
    if axis is None:
        return []
    spread_of = _spread_columns(kinds, k)
    runs_col = next((j for j in range(k) if kinds[j] == "runs"), None)
    out: list[Claim] = []
    if axis.rows:
        rows = g.rows
        base = rows[axis.baseline]
        cands = [i for i in axis.variants if i != axis.baseline]
        change_rows = [r for r in rows if _is_change_row(r)]
        ccols = [j for j in range(k) if kinds[j] == "change"]
        vcols = [j for j in range(k) if kinds[j] not in ("change", "spread", "runs", "index")]
        vcols = _varying(vcols, [(base, rows[i]) for i in cands])
        for n, i in enumerate(cands):
            cand = rows[i]
            ch = None
            if change_rows:
                ch = change_rows[n] if len(change_rows) == len(cands) else (
                    change_rows[0] if len(cands) == 1 else None)
            for j in vcols:
                b, c = base.cells[j], cand.cells[j]
                if c is None:
                    continue
                stated = None
                if ch is not None and ch.cells[j] is not None:
                    stated = _change_of(ch.cells[j])
                if b is None:
                    b = _baseline_from_stated(base, c, stated)
                    if b is None:
                        continue
                elif len(ccols) == 1 and len(vcols) == 1 and cand.cells[ccols[0]] is not None:
                    stated = _change_of(cand.cells[ccols[0]])
                elif cand.note is not None and len(vcols) == 1:
                    stated = cand.note
                title = _title_name(g)
                # a column named by a bare number ("8", "4K") says nothing of what was set:
                # the title names the knob ("size of rx/tx buffers in pages 8")
                swept = _BARE_NUMBER.fullmatch(g.names[j]) is not None and title is not None \
                    and not (title.startswith("(") or any(ch in title for ch in ",:"))
                name = _metric(_column_name(g, j), title) if not g.names[j] else \
                    _metric(title if swept else None, g.names[j])
                cl = _claim(g, name, b, c, base.label or (base.mark or ""), cand.label, g.units[j] or g.unit,
                            [base, cand], stated, g.title)
                if cl is not None:
                    _spread(cl, spread_of.get(j), base, cand)
                    _runs(cl, runs_col, base, cand)
                    out.append(cl)
        return out
    bj = axis.baseline
    group = _gutter_group(g, k, bj)
    cands = [j for j in axis.variants if j != bj and j in group]
    ccols = [j for j in range(k) if kinds[j] == "change"]
    # a column before the variants' that none of them is ("rw  bs  hipri=0  hipri=1": the
    # block size) is a setting each row was run with: it names the row with its label
    params = [j for j in range(1 if key_col else 0, min(axis.variants))
              if kinds[j] not in ("change", "spread", "runs", "index")]
    for r in g.rows:
        if _is_change_row(r) or _SPREAD_ROW.match(r.label):
            continue  # mmtests' "Stddev 1", "CoeffVar 1": the runs' noise, no result to reproduce
        b = r.cells[bj]
        if b is None:
            continue
        keytxt = _key_text(g, r) if key_col and r.cells[0] is not None else None
        rowname = _metric(r.label or keytxt, *(_metric(g.names[j], r.cells[j].tok.text)  # type: ignore[union-attr]
                                                for j in params if r.cells[j] is not None)) or None
        for j in cands:
            c = r.cells[j]
            if c is None:
                continue
            stated = None
            if len(ccols) == 1 and len(cands) == 1 and r.cells[ccols[0]] is not None:
                stated = _change_of(r.cells[ccols[0]])
            elif r.note is not None and len(cands) == 1:
                stated = r.note
            cl = _claim(g, _metric(_title_name(g), rowname), b, c, g.names[bj], g.names[j], g.units[bj] or g.units[j] or g.unit,
                        [r], stated, _metric(_program_title(g), rowname) or None)
            if cl is not None:
                _spread(cl, spread_of.get(bj), r, None, spread_of.get(j))
                out.append(cl)
    return out


def _varying(cols: list[int], pairs: list[tuple[GRow, GRow]]) -> list[int]:
    """The columns whose numbers move between the rows paired: a column printed the same on
    both sides of every pair, beside columns that move, is a setting or a reference
    constant ("BASELINE 116700.0" on each side of unixbench's index), not a result."""
    def same(j: int) -> bool:
        got = [(a.cells[j], b.cells[j]) for a, b in pairs if a.cells[j] is not None and b.cells[j] is not None]
        return len(got) >= 2 and all(x.tok.value == y.tok.value and x.tok.unit == y.tok.unit  # type: ignore[union-attr]
                                     for x, y in got)
    fixed = [j for j in cols if same(j)]
    return [j for j in cols if j not in fixed] if fixed and len(fixed) < len(cols) else cols


def _gutter_group(g: Grid, k: int, j: int) -> set[int]:
    """The value columns printed in one group with column j: an aligned table whose one
    gutter is far wider than the others sets the columns past it apart ("p 7+8" ...
    "virtio-net + vhost": a reference of another kind, not a variant of the series)."""
    full = [r for r in g.rows if r.sep == " " and all(c is not None for c in r.cells)]
    if k < 4 or len(full) < 2:
        return set(range(k))
    gaps = [min(r.cells[n + 1].start - r.cells[n].end for r in full) for n in range(k - 1)]  # type: ignore[union-attr]
    inner = sorted(gaps)[len(gaps) // 2]
    wide = [n for n, x in enumerate(gaps) if x >= max(2 * inner, inner + 4)]
    if len(wide) != 1:
        return set(range(k))
    cut = wide[0] + 1
    return set(range(cut)) if j < cut else set(range(cut, k))


def _baseline_from_stated(base: GRow, cand: Cell, stated: float | None) -> Cell | None:
    """An empty baseline cell ("N/A") whose row states one value for the columns: the cell
    the stated change was computed from ("2.7  N/A" with "+48%" under "4")."""
    if stated is None or cand.tok.value is None or stated <= -100:
        return None
    want = cand.tok.value / (1 + stated / 100.0)
    hits = [c for c in base.cells if c is not None and c.tok.value
            and abs(c.tok.value - want) <= 0.03 * abs(c.tok.value)]
    return hits[0] if len(hits) == 1 else None


def _spread_columns(kinds: list[str], k: int) -> dict[int, int]:
    """Which value column each spread column qualifies: the one just left of it."""
    out: dict[int, int] = {}
    for j in range(k):
        if kinds[j] == "spread":
            v = next((i for i in range(j - 1, -1, -1) if kinds[i] not in ("spread", "change", "runs")), None)
            if v is None:
                v = next((i for i in range(j + 1, k) if kinds[i] not in ("spread", "change", "runs")), None)
            if v is not None:
                out[v] = j
    return out


def _spread(cl: Claim, col: int | None, base: GRow, cand: GRow | None, ccol: int | None = None) -> None:
    for v, row, j in ((cl.baseline, base, col), (cl.candidate, cand or base, ccol if cand is None else col)):
        if v is None or j is None or row.cells[j] is None:
            continue
        t = row.cells[j].tok  # type: ignore[union-attr]
        v.spread, v.spread_kind = abs(t.value or 0.0), "pct" if t.percent else "abs"


def _runs(cl: Claim, col: int | None, base: GRow, cand: GRow) -> None:
    if col is None:
        return
    for v, row in ((cl.baseline, base), (cl.candidate, cand)):
        c = row.cells[col]
        if v is not None and c is not None and c.tok.value:
            v.runs = int(c.tok.value)


def _promote_header_row(g: Grid) -> None:
    """A first row of rising whole numbers ("fio jobs  1  2  4  8") names the columns."""
    rows = g.rows
    if len(rows) < 2:
        return
    head = rows[0]
    vals = [c for c in head.cells if c is not None]
    if role(head.label) or head.mark or len(vals) < 2 or len(vals) != len(head.cells):
        return
    if any(c.stated is not None or c.spread is not None for c in vals) or g.header and len(g.header[-1]) >= len(vals):
        return  # a measured row ("167102  186049 (+11%)") under a header naming every column
    nums = [_scaled(c.tok) for c in vals]
    rising = all(c.tok.unit is None for c in vals) and all(float(v).is_integer() for v in nums) and all(a < b for a, b in zip(nums, nums[1:], strict=False))
    unlabelled = not head.label and len(rows) >= 3 and all(r.label for r in rows[1:])
    if not (rising and len(vals) >= 3) and not unlabelled:
        return
    rows.pop(0)
    g.swept = rising
    if g.header or head.label or rising:
        g.header = [[(c.start, c.end, f"{head.label} {c.tok.text}".strip() if head.label else c.tok.text, c.piece)
                     for c in vals]]
        g.header_seps = ["#"]


def _key_text(g: Grid, r: GRow) -> str:
    """A row's name from the key column: the column's name and the row's key ("IO size 512B")."""
    return _metric(g.key_name or g.names[0], r.cells[0].tok.text)  # type: ignore[union-attr]


def _slash_claims(g: Grid, k: int, kinds: list[str]) -> list[Claim]:
    """Cells that hold both sides ("318K/316K" under "(before/after)"), each named by its
    column's measure and its row: its label, or the swept parameter in the first column
    ("IO size 512B")."""
    out: list[Claim] = []
    keyed = _key_column(g, kinds) and all(r.cells[0] is None or r.cells[0].second is None for r in g.rows)
    for j in range(k):
        name = g.names[j]
        m = re.search(r"\(?([A-Za-z][\w -]{0,20})/([A-Za-z][\w -]{0,20})\)?", name)
        if m is None:
            continue
        first, second = m.group(1).strip(), m.group(2).strip()
        r1, r2 = role(first), role(second)
        if r1 is None and r2 is None:
            continue
        swap = r1 == "candidate" or r2 == "baseline"
        # the measure is the name without its sides ("IOPS (before/after)": IOPS), or, where
        # the grid took that word as the column's unit, what the unit measures
        measure = (name[:m.start()] + name[m.end():]).strip(" :") or unit_kind(g.units[j] or g.unit or "")
        for r in g.rows:
            c = r.cells[j]
            if c is None or c.second is None:
                continue
            row = r.label or (_key_text(g, r) if keyed and j > 0 and r.cells[0] is not None else "")
            cl = _claim(g, _metric(measure, row), c, c, second if swap else first, first if swap else second,
                        g.units[j] or g.unit, [r], None, row, b_second=swap, c_second=not swap)
            if cl is not None:
                out.append(cl)
    return out


def _marked_claims(g: Grid, k: int, kinds: list[str]) -> list[Claim]:
    """Rows marked "==> before the change" / "==> after the change", grouped by their label."""
    groups: dict[str, list[GRow]] = {}
    for r in g.rows:
        groups.setdefault(r.label, []).append(r)
    spread_of = _spread_columns(kinds, k)
    runs_col = next((j for j in range(k) if kinds[j] == "runs"), None)
    vcols = [j for j in range(k) if kinds[j] not in ("change", "spread", "runs")]
    out: list[Claim] = []
    for key, grp in groups.items():
        if len(grp) < 2:
            continue
        bi = _pick([r.mark or "" for r in grp], list(range(len(grp))))
        base = grp[bi]
        for n, cand in enumerate(grp):
            if n == bi:
                continue
            for j in vcols:
                b, c = base.cells[j], cand.cells[j]
                if b is None or c is None:
                    continue
                metric = _metric(key or None, _column_name(g, j))
                cl = _claim(g, metric, b, c, base.mark or "", cand.mark or "", g.units[j] or g.unit,
                            [base, cand], None, key or None)
                if cl is not None:
                    _spread(cl, spread_of.get(j), base, cand)
                    _runs(cl, runs_col, base, cand)
                    out.append(cl)
    return out


# Two numbers standing in columns: "0.032     0.030", "5.0Mpps | 5.7Mpps", "1820113\t0.00007".
_TWO_CELLS = re.compile(r"\d[^\s|]{0,12}(?: [A-Za-z/%]{1,8})?(?:[ \t]*\|[ \t]*|\t[ \t]*| {2,})[~<+-]?\.?\d")


class _Prose(str):
    """The message's text outside its tables, lower-case letters and digits only, built the
    first time a table asks whether the text names its variants."""

    _build: Callable[[], str]
    _text: str | None

    def __new__(cls, build: Callable[[], str]) -> _Prose:
        obj = super().__new__(cls, "")
        obj._build = build
        obj._text = None
        return obj

    def __contains__(self, key: object) -> bool:
        if self._text is None:
            self._text = self._build()
        return isinstance(key, str) and key in self._text


def might_hold_grid(text: str) -> bool:
    """A cheap test for the pre-scan: two lines hold two numbers in separate columns."""
    m = _TWO_CELLS.search(text)
    if m is None:
        return False
    nl = text.find("\n", m.end())
    return nl >= 0 and _TWO_CELLS.search(text, nl) is not None


def _label_starts(r: GRow) -> list[int]:
    """Where each piece of a row's label starts on its line."""
    out, at = [], 0
    for part in r.parts:
        at = r.line.text.find(part, at)
        if at < 0:
            return []
        out.append(at)
        at += len(part)
    return out


def _carry_labels(g: Grid) -> None:
    """A row label printed only in the inner label column, under the outer one's blank cell
    ("guest rx  before" over "          after"): the row belongs to the group named above
    it, whose outer pieces it takes."""
    prev: GRow | None = None
    for r in g.rows:
        if len(r.parts) >= 2:
            prev = r
            continue
        if prev is None or len(r.parts) != 1:
            prev = None
            continue
        starts, own = _label_starts(prev), _label_starts(r)
        if not starts or not own or own[0] == 0 or abs(own[0] - starts[-1]) > 1:
            prev = None
            continue
        r.parts = prev.parts[:-1] + r.parts
        r.label = " ".join(r.parts)


def _unwrap_records(g: Grid) -> None:
    """Records the mail client wrapped, header and rows alike (sar's "IFACE rxpck/s ...
    txkB/s" over "rxcmp/s ... %ifutil", each "Average: vnet0 ..." row over a row of bare
    numbers; a bordered table whose rows go on under their first line): one row per record,
    named by both header lines in order.  The header may be cut inside a cell name
    ("direct +" / "counter + smp_mb()"): then those two pieces are one name."""
    rows = g.rows
    if len(g.header) < 2 or len(rows) < 2 or len(rows) % 2 or g.header_seps[-1] == "#":
        return
    heads, tails = rows[0::2], rows[1::2]
    a, b = len(heads[0].cells), len(tails[0].cells)
    h1, h2 = g.header[-2], g.header[-1]
    if any(not r.label or len(r.cells) != a or None in r.cells for r in heads) \
            or any(r.label or len(r.cells) != b or None in r.cells for r in tails) \
            or any(r.index != t.index - 1 for r, t in zip(heads, tails, strict=True)) \
            or len({r.sep for r in rows}) != 1 or rows[0].sep not in " |":
        return
    label_end = min(c.start for c in heads[0].cells if c is not None)
    over = [p for p in h1 if p[1] > label_end]  # the first line's names over value columns
    if len(over) == a and len(h2) == b:
        names = over + h2
    elif len(over) == a + 1 and len(h2) == b:
        cut = over[-1]
        names = over[:-1] + [(cut[0], h2[0][1], f"{cut[2]} {h2[0][2]}", cut[3])] + h2[1:]
    else:
        return  # the header's first line was not cut where the rows were
    g.rows = [replace(r, cells=r.cells + t.cells, sep="\t", npieces=r.npieces + t.npieces)
              for r, t in zip(heads, tails, strict=True)]
    g.header = g.header[:-2] + [names]
    g.header_seps = g.header_seps[:-2] + ["#"]
    g.wrapped = True


def _solid(g: Grid) -> bool:
    """A grid no other reading explains better: two rows or more, each with two value cells
    or more standing in columns of their own (not glued to a label, not a collapsed page)."""
    if g.wrapped:
        return True  # one record over two header lines and two rows, joined
    full = [r for r in g.rows if r.sep != "_" and sum(c is not None and not c.glued for c in r.cells) >= 2]
    return len(full) >= 2 and len(full) * 2 > len(g.rows)


def message_grids(lines: Sequence[Line], skip: set[int]) -> list[Grid]:
    """The grids of `lines` (indexes in `skip` not read), records unwrapped and labels
    carried: what all_grid_claims reads."""
    grids = find_grids(lines, skip)
    for g in grids:
        _unwrap_records(g)
        _carry_labels(g)
    return grids


def has_solid(grids: list[Grid]) -> bool:
    """Does the pass before the blocks (`solid`) read any of these grids? If not, it leaves
    them as they are."""
    return any(_solid(g) for g in grids)


def all_grid_claims(lines: Sequence[Line], skip: set[int], context: str = "",
                    solid: bool = False, grids: list[Grid] | None = None) -> tuple[list[Claim], set[int]]:
    """Claims from every grid in the message, and the lines the grids that compared cover;
    `solid`: only from the grids `_solid` keeps (the pass that reads before the blocks);
    `grids`: message_grids(lines, skip) when already read (the grids read are changed)."""
    claims: list[Claim] = []
    covered: set[int] = set()
    if grids is None:
        grids = message_grids(lines, skip)
    if solid:
        grids = [g for g in grids if _solid(g)]
    if not grids:
        return claims, covered
    _inherit_headers(grids)
    for g in grids:
        g.prose_lists = _lists_near(lines, g)
    _inherit_row_names(grids)
    inside = {i for g in grids for i in range(g.first, g.last + 1)}
    prose = _Prose(lambda: re.sub(r"[^a-z0-9]", "", context[:1000].lower() + " ".join(
        ln.text.lower() for i, ln in enumerate(lines[:5000]) if i not in inside)[:200_000]))
    idle: list[Grid] = []
    for g in grids:
        got = grid_claims(g, prose)
        if got:
            claims.extend(got)
            covered.update(range(g.first, g.last + 1))
        elif any(g.names) and g.header:
            idle.append(g)
    for group in _sections(idle):
        got = section_claims(group)
        if got:
            claims.extend(got)
            for g in group:
                covered.update(range(g.first, g.last + 1))
    return claims, covered


SHARED_HEADER_WITHIN = 25  # lines: how far below a header a stacked table may still share it


def _header_row(g: Grid) -> list[tuple[int, int, str, int]] | None:
    """A one-row grid that is a header: a label over rising whole numbers ("numjobs 1 2 4
    8 12 16"), as pieces naming each number's column ("numjobs=4")."""
    if len(g.rows) != 1 or not g.rows[0].label or g.rows[0].sep not in (" ", "\t", ","):
        return None
    r = g.rows[0]
    cells = [c for c in r.cells if c is not None]
    nums = [c.tok.value for c in cells]
    if len(cells) < 3 or len(cells) != len(r.cells) or any(c.tok.unit or c.tok.percent for c in cells) \
            or any(v is None or not float(v).is_integer() for v in nums) \
            or not all(a < b for a, b in zip(nums, nums[1:], strict=False)):  # type: ignore[operator]
        return None
    key = r.label.replace(" ", "_")
    return [(c.start, c.end, f"{key}={c.tok.text}", n) for n, c in enumerate(cells)]


def _inherit_headers(grids: list[Grid]) -> None:
    """Tables stacked under one header ("numjobs 1 2 4 ..." over a block per variant, each
    under its own label): a table with no header of several cells takes the one above it,
    at the same quote depth and within a few lines."""
    shared: tuple[int, int, list[list[tuple[int, int, str, int]]], list[str]] | None = None
    for g in grids:
        depth = g.rows[0].line.depth
        own = [h for h in g.header if len(h) >= 2]
        if own:
            shared = (g.last, depth, [h for h, _ in zip(g.header, g.header_seps, strict=False)], list(g.header_seps))
            continue
        row = _header_row(g)
        if row is not None:
            shared = (g.last, depth, [row], [" "])
            continue
        if shared is not None and shared[1] == depth and g.first - shared[0] <= SHARED_HEADER_WITHIN \
                and not g.code:
            g.header = shared[2] + g.header
            g.header_seps = shared[3] + g.header_seps
            shared = (g.last, depth, shared[2], shared[3])
        else:
            shared = None


_LIST_SPLIT = re.compile(r"\s*(?:[,;]|\band\b|\bthen\b|\bvs\.?(?=\s)|\bversus\b)\s*")
NAMES_WITHIN = 6  # lines: how far from a table the sentence naming its rows may stand


def _lists_near(lines: Sequence[Line], g: Grid) -> list[list[str]]:
    """Lists of names in the lines just above and below a table ("the rows are base,
    +batching and +buf_api"), nearest first, for a table whose rows carry no names."""
    depth = g.rows[0].line.depth
    if sum(1 for r in g.rows if not r.label) < 2:
        return []
    near = list(range(g.first - 1, max(-1, g.first - 1 - NAMES_WITHIN), -1)) + \
        list(range(g.last + 1, min(len(lines), g.last + 1 + NAMES_WITHIN)))
    out = []
    for n in near:
        ln = lines[n]
        if ln.depth != depth or not ln.text.strip() or parse_line(ln.text) is not None:
            continue
        chunks = [c for c in (c.strip(" .:()") for c in _LIST_SPLIT.split(ln.text[:300])) if c]  # ", and" cuts twice
        if len(chunks) >= 2:
            out.append(chunks)
    return out


def _inherit_row_names(grids: list[Grid]) -> None:
    """Tables stacked under one sentence naming their rows ("each row is base, +batching
    and +buf_api", then a pktgen table and a testpmd table): a table with as many unnamed
    rows as the one above it, at the same depth and near it, reads the same list."""
    for prev, g in zip(grids, grids[1:], strict=False):
        if g.prose_lists or not prev.prose_lists or len(g.rows) != len(prev.rows) \
                or any(r.label for r in g.rows) or g.rows[0].line.depth != prev.rows[0].line.depth \
                or g.first - prev.last > SHARED_HEADER_WITHIN:
            continue
        g.prose_lists = prev.prose_lists


def _name_rows_from_prose(g: Grid, k: int) -> None:
    """Rows with no names take them from a sentence near the table that lists as many
    names as there are rows, in order, when the lexicon can tell those names apart."""
    rows = g.rows
    if len(rows) < 2 or any(r.label for r in rows) or not g.swept and _key_column(g, _column_kinds(g, k)):
        return
    n = len(rows)
    for chunks in g.prose_lists:
        for at in range(0, len(chunks) - n + 1):
            run = list(chunks[at:at + n])
            run[0] = run[0].split()[-1] if run[0] else ""
            if not all(run) or any(len(x.split()) > 3 or not any(ch.isalpha() for ch in x) for x in run) \
                    or len(set(run)) != n:
                continue
            if any(role(x) is not None for x in run) and decided(run):
                for r, name in zip(rows, run, strict=True):
                    r.label = name
                return


def _sections(grids: list[Grid]) -> list[list[Grid]]:
    """Tables printed one per variant: the same columns, each under its own label."""
    out: list[list[Grid]] = []
    cur: list[Grid] = []
    for g in grids:
        label = _label_of(g)
        if label and _SHELLISH.search(label):
            label = None
        if label and cur and _same_columns(g.names, cur[-1].names) and g.first - cur[-1].last <= 40 \
                and g.rows[0].line.depth == cur[-1].rows[0].line.depth:
            cur.append(g)
            continue
        if len(cur) >= 2:
            out.append(cur)
        cur = [g] if label else []
    if len(cur) >= 2:
        out.append(cur)
    return out


def _same_columns(a: list[str], b: list[str]) -> bool:
    """Two tables print the same columns: the same names, the key column's name allowed
    on one of them only ("VQs" written over the first block of a stack)."""
    return len(a) == len(b) and a[1:] == b[1:] and (a[:1] == b[:1] or not a[0] or not b[0]) and any(a[1:])


def _row_key(g: Grid, r: GRow, key_col: bool) -> str:
    """What names a row across tables: its label, else the number in its key column."""
    if r.label or not key_col or r.cells[0] is None:
        return r.label
    return r.cells[0].tok.text


def _label_of(g: Grid) -> str | None:
    """What names a table printed one per variant: its title, unless the title is the
    header of its key column ("VQs" over 1, 2, 4, ...), then the label line above."""
    if g.title_header and g.section:
        return g.section
    return g.title or g.section


def section_claims(group: list[Grid]) -> list[Claim]:
    """Pair each table with the baseline table, row by row label, column by column."""
    labels = [_label_of(g) or "" for g in group]
    if len(set(labels)) != len(labels):
        return []
    bi = _pick(labels, list(range(len(group))))
    base = group[bi]
    k = len(base.names)
    kinds = _column_kinds(base, k)
    key_col = _key_column(base, kinds)
    vcols = [j for j in range(k) if kinds[j] not in ("change", "spread", "runs", "index")
             and not (key_col and j == 0)]
    by_label = {_row_key(base, r, key_col): r for r in base.rows if _row_key(base, r, key_col)}
    matched = [(by_label[rk], r) for n, g in enumerate(group) if n != bi for r in g.rows
               if (rk := _row_key(g, r, key_col)) in by_label and len(r.cells) == k]
    vcols = _varying(vcols, matched)
    has_aggregate = any(_kind_of_name(lab) == "aggregate" for lab in by_label)
    out: list[Claim] = []
    for n, g in enumerate(group):
        if n == bi:
            continue
        for r in g.rows:
            rk = _row_key(g, r, key_col)
            b = by_label.get(rk)
            if b is None or len(r.cells) != k or (has_aggregate and _kind_of_name(r.label) == "index"):
                continue
            for j in vcols:
                bc, cc = b.cells[j], r.cells[j]
                if bc is None or cc is None:
                    continue
                row = r.label or (f"{base.names[0] or g.names[0]} {rk}".strip() if key_col else "")
                cl = _claim(g, _metric(row, _column_name(g, j)), bc, cc, labels[bi], labels[n],
                            g.units[j] or base.units[j] or g.unit, [b, r], None, row or None)
                if cl is not None:
                    out.append(cl)
    return out
