"""Claims written as prose.

* variant lines: "- old bonding: 16.1 gbps" / "- new bonding: 17.5 gbps", "net-next: 8.017 Gbps",
  "after #1: 7.785 Gbps (- 2.9%, p=0.385 vs net-next)", also several in one line when an
  archive collapsed the whitespace ("copy mode: 767,743 pps batch mode: 1,055,201 pps (+37.4%)");
* "from 2.50Mpps to 3.05Mpps" and "4.1 Mpps -> 5.0 Mpps";
* changes stated alone: "improves ... by 12%", "a 5-10% boost", "2x faster", "+44.8%".
"""
from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TypeVar

from claims.commands import BENCH_PROGRAMS
from claims.lexicon import (
    BASELINE_AT,
    CANDIDATE_AT,
    adds_to,
    content_words,
    cue,
    extended_by,
    lone_release,
    names_a_release,
    signed_words,
)
from claims.model import Claim, Line, Value
from claims.numbers import (
    CLOCK_TAIL,
    COLUMN_GAP,
    MAGNITUDES,
    MAX_LINE,
    RUNS_NAME,
    Token,
    as_way,
    better_for,
    clock_seconds,
    common_scale,
    has_digit,
    is_rate,
    is_unit,
    names_a_cost,
    names_events,
    parse_number,
    spelled_rate,
    stated_tolerance,
    tokenize,
    tokens,
    unit_kind,
)
from claims.pairs import Row, make_row, pair_rows, strip_annotations
from claims.tables import Table, TRow, table_claims
from claims.variants import (
    clean_label,
    contrasted,
    pick_baseline,
    role,
    shared_subject,
)

_LINE_LABEL = re.compile(r"^\s*(?:[-*•]\s+|\d{1,2}(?:\.\d{1,2})*[.)]?\s+)?(?P<label>[^:\s][^:]{0,80}?):\s+(?P<rest>.*\d.*)$")
_HEADERISH = re.compile(r"(?i)^(?:subject|date|from|to|cc|signed-off-by|link|fixes|reviewed-by|acked-by|"
                        r"tested-by|reported-by|message-id|in-reply-to|references|commit|https?|"
                        r"suggested-by|co-developed-by|closes|cc'd|note|notes|v\d+|changes.*)$")
# time(1)'s "12m30.5s" after the minutes a number pattern stops at (_clocked reads it)
_CLOCK_UNIT = r"(?:h\d{1,4})?" + CLOCK_TAIL + r"(?!\w)"
# the word after a number and its magnitude, "1.2M cycles", that must stand after the other
# number too ("from 1.2M cycles to 310k cycles"): the unit both are counts of
_SCALED_WORD = r"(?:(?<=\d[kKMG])\s+(?P<{0}>(?!(?:up|down|all|to|from)\b)[A-Za-z][\w/]{{0,14}}))?"
_FROM_TO = re.compile(
    r"(?i)\bfrom\s+(?:~|about\s+|around\s+|approx\.?\s+)?(?P<a>\d[\d,]*(?:\.\d+)?)\s?(?P<ua>[A-Za-z%/][\w/%.]{0,20})?"
    + _SCALED_WORD.format("wa") +
    r"(?:\s*\([^()\n]{1,40}\))?"  # "from 1.834s (stddev 0.012) to 1.612s": an aside on the first
    r"\s+(?:(?:all\s+the\s+way\s+)?(?:up|down)\s+|(?P<mid>(?:[A-Za-z][\w-]*\s+){1,3}?)(?:up|down)\s+)?"
    r"to\s+(?:~|about\s+|around\s+)?(?P<b>\d[\d,]*(?:\.\d+)?)\s?"
    r"(?P<ub>" + _CLOCK_UNIT + r"|[A-Za-z%/][\w/%]{0,20})?(?(wa)\s+(?P=wa)\b|(?P<next>\s+[A-Za-z][\w/]{0,14})?)"
)
# "is down to 38 us from 45 us": the candidate first
_TO_FROM = re.compile(
    r"(?i)\b(?:(?:up|down|dropp?(?:ed|s)?|fell|falls|rose|rises|increased|decreased|reduced|improved|went|goes)\s+"
    # "reduces the run time to 41s (from 58s)": what the verb changes between it and "to"
    r"|(?:reduc|increas|improv|lower|decreas|cut|bring|brought|speed)\w*\s+(?P<mid>(?:[A-Za-z][\w/-]*\s+){1,4}?))"
    r"to\s+(?:~|about\s+|around\s+)?(?P<b>\d[\d,]*(?:\.\d+)?)\s?(?P<ub>[A-Za-z%/][\w/%]{0,20})?"
    + _SCALED_WORD.format("wb") +
    r"\s+\(?from\s+(?:~|about\s+|around\s+)?(?P<a>\d[\d,]*(?:\.\d+)?)\s?(?P<ua>[A-Za-z%/][\w/%.]{0,20})?"
    r"(?(wb)\s+(?P=wb)\b)(?P<next>(?!))?"
)
# "a throughput of 21 Gbps, up from 18 Gbps": the candidate first, the change after it
_UP_FROM = re.compile(
    r"(?i)(?<![\w.])(?P<b>\d[\d,]*(?:\.\d+)?)\s?(?P<ub>[A-Za-z%/][\w/%]{0,20})?"
    r"(?P<mid>(?:\s+(?!up\b|down\b)[A-Za-z][\w-]*){0,4})\s*,?\s+\(?(?:up|down)\s+from\s+"  # "95% of line rate, up from 80%"
    r"(?:~|about\s+|around\s+)?(?P<a>\d[\d,]*(?:\.\d+)?)\s?(?P<ua>[A-Za-z%/][\w/%.]{0,20})?(?P<next>(?!))?"
)
_CHANGE_AFTER = re.compile(
    r"(?i)^(?:improv\w*|boost|increase|increased|gain|gains|faster|better|speed-?up|"
    r"speedups|higher|more|uplift|jump|win|reduction|reduced|decrease|decreased|drop|lower|less|fewer|slower|"
    r"regression|degradation|saving|savings|loss|cut|overhead|improve|throughput|performance|perf|"
    r"bandwidth|iops|rate|pps)\b"
)
_NEGATIVE = re.compile(r"(?i)^(?:reduc|decreas|drop|lower|less|slower|regress|degrad|loss|lose|cut|"
                       r"overhead|shr[iu]nk|fewer|sav|down|fell|fall)")
_CHANGE_VERB = re.compile(r"(?i)\b(?:improv\w*|increas\w*|boost\w*|speed\w*|gain\w*|reduc\w*|decreas\w*|"
                          r"drop\w*|lower\w*|rais\w*|cut\w*|faster|slower|slow(?:s|ed|ing)?\s+down|better|worse|regress\w*|"
                          r"degrad\w*|sav\w*|win|wins|(?:go(?:es)?|went|gone|going|is|are|was|were)\s+(?:up|down))\b")
_TIMES = re.compile(r"(?i)^(?:faster|speed-?up|improvement|better|higher|throughput|quicker)\b")
_DOWN = re.compile(r"(?i)\bdown\b")  # "went down by 40x", "goes down by a factor of 4": the verb has no side
_WORSE = re.compile(r"(?i)^worse\b")  # "3x worse": a factor of merit, down (_each_measure turns it)
_STRONG_VERB = re.compile(r"(?i)\b(?:improv\w*|increas\w*|boost\w*|reduc\w*|decreas\w*|dropp?\w*|"
                          r"regress\w*|degrad\w*|go|goes|going|went|gone|jump\w*|rais\w*|rises|rose|risen|fell|falls|"
                          r"grew|grows|climb\w*|shr[iu]nk\w*|sav(?:es|ed|ing)|lower(?:s|ed|ing))\b")
_PERF_WORD = re.compile(r"(?i)\b(?:throughput|latency|bandwidth|pps|bps|iops|ops|rate|tps|qps|rps|"
                        r"cycles|score|trans|requests|transactions|speed|time)\b")
_MORE_PERF = re.compile(r"(?i)^(?:more|less|higher|lower|fewer)\s+(?:throughput|bandwidth|pps|iops|"
                        r"performance|ops|requests|transactions|packets|tps|qps|latency|cpu|cycles)\b")
# a comparative before what it compares: a measure when its words have a direction
_MORE_WHAT = re.compile(r"(?i)^(?:more|less|higher|lower|fewer)\s+(?P<what>[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,2})")
_RATIO = re.compile(r"(?i)\b\w+\s+per\s+[a-z]")  # "bytes per call": a measure named as a ratio
_LEADING_ZERO = re.compile(r"^[+-]?0\d")
_TIMES_HINT = re.compile(r"\d\s?[x×X]\b|\btimes\b")
_ARROWS = frozenset({"->", "=>", "→", "-->", "==>"})
_RANGE_PCT = re.compile(r"^~?(?P<a>\d+(?:\.\d+)?)%?(?:-|–|to)(?P<b>\d+(?:\.\d+)?)%$")
# what memory a change uses, measured in sizes: "Memory usage: 1.2 GB -> 1.0 GB", "RSS",
# "slab usage: 120 MB vs 98 MB" (a size alone is one set: "4K -> 16K entries")
_MEMORY_USE = re.compile(r"(?i)\b(?:usage|footprint|consumption|rss|memory\s+used|used\s+memory)\b")


def _measures_memory(text: str, pos: int) -> bool:
    """Does the clause before `pos` name memory used, so sizes at it are its measure?"""
    return _MEMORY_USE.search(_CLAUSE_BEFORE.split(text[max(0, pos - 60):pos])[-1]) is not None


_CLAUSE_BEFORE = re.compile(r"[.;!?]\s|\n\s*\n")


_SIZE_UNITS = re.compile(r"(?i)^(?:[kmgt]i?b?|[kmgt]?i?(?:bytes?|bits?)|b|threads?|cpus?|cores?|clients?|flows?|streams?|"
                         r"queues?|rings?|entries|packets?|frames?|sockets?|vmas?|pages?|kernels?|times?)$")


@dataclass
class Segment:
    label: str
    text: str  # what follows the label
    first: int  # line numbers
    last: int
    line: Line
    clean: bool  # only numbers and units after the label


_COLUMNS = re.compile(r"\S(?: {3,}|\t)\S|\|")  # column gaps, tabs, bars
_PROMPT_LEAD = re.compile(r"^\s*[#$>]\s")


def _structured(text: str) -> bool:
    """A line laid out as columns or a prompt, not prose; the column scan only runs on a
    line with what a column needs (three spaces, a tab or a bar), which most lines lack."""
    return _PROMPT_LEAD.match(text) is not None or (
        ("   " in text or "\t" in text or "|" in text) and _COLUMNS.search(text) is not None)


_ITEM_START = re.compile(r"^\s*(?:[-*•+]\s|\(?\d{1,2}[.)]\s|\(?[a-z]\)\s|[^:\s][^:]{0,50}:\s)")
_PROSE_WORD = re.compile(r"[A-Za-z]{2,}")
# two _PROSE_WORDs, found without listing every word: a run of letters ends, another starts
_TWO_PROSE_WORDS = re.compile(r"(?s)[A-Za-z]{2,}[^A-Za-z].*?[A-Za-z]{2}")
MAX_PASSAGE_LINES = 8


@dataclass
class Passage:
    """Consecutive prose lines of one quote depth and author read as one text, so that a
    sentence the mail client wrapped ("goes from ~6347" / "transactions/sec to 5830") is
    whole again for the templates.  It answers like a `Line` (text, number, depth, author,
    message_id) and maps an offset in its text back to the line it stands on."""

    lines: list[Line]
    text: str = ""
    starts: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.text and len(self.lines) == 1:  # most passages: a line of its own
            self.starts.append(0)
            self.text = self.lines[0].text[:MAX_LINE].rstrip()
        elif not self.text:
            parts: list[str] = []
            pos = 0
            for ln in self.lines:
                piece = ln.text[:MAX_LINE].strip() if parts else ln.text[:MAX_LINE].rstrip()
                self.starts.append(pos)
                parts.append(piece)
                pos += len(piece) + 1
            self.text = " ".join(parts)

    @property
    def number(self) -> int:
        return self.lines[0].number

    @property
    def depth(self) -> int:
        return self.lines[0].depth

    @property
    def author(self) -> str | None:
        return self.lines[0].author

    @property
    def message_id(self) -> str | None:
        return self.lines[0].message_id

    def line_at(self, pos: int) -> int:
        return self.lines[max(0, bisect_right(self.starts, pos) - 1)].number


def _line_at(ln: Line | Passage, pos: int) -> int:
    return ln.line_at(pos) if isinstance(ln, Passage) else ln.number


@lru_cache(maxsize=2048)  # `passages` asks of each line twice (as the line, then as the last); kept across messages
def _is_prose(text: str) -> bool:
    s = text.strip()
    return bool(s) and not _structured(s) and _TWO_PROSE_WORDS.search(s) is not None \
        and _CALL_TREE.match(s) is None  # "- 33.47% handle_tx_kick": a node of a perf call graph


_TAIL = re.compile(r"^\s*[A-Za-z][\w/-]*(?:\s+[A-Za-z][\w/-]*)?[.!]$")


def _sentence_tail(last: str, text: str) -> bool:
    """The last word or two of a sentence wrapped onto a line of their own ("... on TX" /
    "PPS."): prose, though too short to tell by itself."""
    return not last.rstrip().endswith((".", ":", "!", "?", ";")) and _TAIL.match(text) is not None


_DANGLING = re.compile(r"(?i)(?:^|\s)(?:from|to|by|of|than|vs\.?|versus)$")
# It ends the text, so it is looked for in the last 8 characters only, not at every position:
# the longest match is 7 (" versus"), and "^" at the cut would start a match of 8, so none.
_DANGLING_TAIL = 8


def _dangling(last: str, text: str) -> bool:
    """A sentence wrapped right after a word that needs its object ("... drops from" /
    "92% to 71%."): the next line goes on with it, though it holds too few words to pass as
    prose by itself, unless it is laid out as columns or starts an item."""
    return _DANGLING.search(last.rstrip()[-_DANGLING_TAIL:]) is not None and not _structured(text.strip()) \
        and bool(text.strip())


def passages(lines: Sequence[Line], skip: set[int]) -> list[Passage]:
    """The message as passages: wrapped prose lines joined (a new item, a "label:" line, a
    line ending in ":" or a change of depth or author starts another); any other line is a
    passage of its own."""
    out: list[Passage] = []
    cur: list[Line] = []
    size = 0
    for i, ln in enumerate(lines):
        if i in skip:
            if cur:
                out.append(Passage(cur))
            cur = []
            continue
        last = cur[-1] if cur else None
        size += len(ln.text) + 1
        if last is not None and len(cur) < MAX_PASSAGE_LINES and size <= MAX_LINE and ln.depth == last.depth \
                and ln.author == last.author and _is_prose(last.text) \
                and (_is_prose(ln.text) or _sentence_tail(last.text, ln.text) or _dangling(last.text, ln.text)) \
                and not _ITEM_START.match(ln.text) and not last.text.rstrip().endswith(":"):
            cur.append(ln)
            continue
        if cur:
            out.append(Passage(cur))
        cur, size = [ln], len(ln.text) + 1
    if cur:
        out.append(Passage(cur))
    return out


def line_segment_groups(ln: Line) -> list[list[Segment]]:
    """Groups of adjacent "label: value" segments inside one line. Public: the gate
    (claims.prescan) asks it whether a line is read as such segments."""
    text = ln.text[:MAX_LINE]
    if not has_digit(text):
        return []  # a segment is a label and the value after it
    toks = tokens(text)
    groups: list[list[Segment]] = []
    prev_end = -1  # index of the last token of the previous segment's value run
    for j, t in enumerate(toks[:-1]):
        if not t.text.endswith(":") or toks[j + 1].kind != "value":
            continue
        k = j
        while k - 1 > prev_end and j - (k - 1) < 5:
            p = toks[k - 1]
            if p.kind != "word" or p.text.endswith((".", ")", ":", ";")) or p.text in ("-", "*"):
                break
            if k - 2 >= 0 and toks[k - 2].kind == "value" and is_unit(p.text):
                break
            if COLUMN_GAP.search(text, p.end, toks[k].start):
                break  # "srcu   v6.12: 12.3": a column's gap ends the label, as the grid reads it
            k -= 1
        label = clean_label(" ".join(x.text for x in toks[k:j + 1]))
        end = j + 1
        depth = 0
        while end < len(toks):
            x = toks[end]
            if depth or x.text.startswith("("):
                depth += x.text.count("(") - x.text.count(")")
                depth = max(depth, 0)
            elif not (x.kind in ("value", "spread", "pvalue") or is_unit(x.text) or x.text in ("+-", "±")):
                break
            end += 1
        seg = Segment(label=label, text=text[toks[j + 1].start:toks[end - 1].end], first=ln.number,
                      last=ln.number, line=ln, clean=True)
        if not label or _HEADERISH.match(label):
            prev_end = end - 1
            continue
        if groups and k == prev_end + 1 and groups[-1]:
            groups[-1].append(seg)
        else:
            groups.append([seg])
        prev_end = end - 1
    return groups


# "* 5,112,930 - baseline", "- 4.2 Mpps (with the patch)": an item whose value comes first
_VALUE_FIRST = re.compile(r"^\s*(?:[-*•+]\s+|\d{1,2}[.)]\s+)(?P<rest>~?\d[\d,.]*(?:\s?[A-Za-zµ%/][\w/%]{0,14})?)"
                          r"\s+(?:[-–:=]\s+|\((?=[^()]+\)\s*$))(?P<label>[A-Za-z][^\d()]{0,80}?)\)?\s*$")


def _value_first_row(ln: Line) -> Segment | None:
    m = _VALUE_FIRST.match(ln.text[:MAX_LINE])
    if m is None or (m.group("rest").split()[1:] and not is_unit(m.group("rest").split()[1])):
        return None
    label = clean_label(m.group("label"))
    if not label or len(label.split()) > 10 or _HEADERISH.match(label):
        return None
    return Segment(label, m.group("rest"), ln.number, ln.number, ln, True)


# "virtio-net without merge dma 428614.00 pps": a label without its colon, one measured value last
_VALUE_LAST = re.compile(r"^\s*(?:[-*•+]\s+)?(?P<label>[A-Za-z][^:\d|=()]{2,80}?)\s+~?(?P<rest>\d[\d,]*(?:\.\d+)?"
                         r"\s?(?P<unit>[A-Za-zµ/%][\w/%]{0,14}))\s*$")


def _value_last_row(ln: Line) -> Segment | None:
    """A row that names its variant and then gives one value with its unit, as a "label:
    value" line does without the colon; the unit must be a measure's (not a size), so
    that a sentence ending in "4 cores" or "in 2019" is no row."""
    m = _VALUE_LAST.match(ln.text[:MAX_LINE])
    if m is None or not is_unit(m.group("unit")) or _SIZE_UNITS.match(m.group("unit")) or m.group("unit") in MAGNITUDES:
        return None
    label = clean_label(m.group("label"))
    if not label or len(label.split()) > 10 or _HEADERISH.match(label):
        return None
    return Segment(label, m.group("rest"), ln.number, ln.number, ln, True)


def line_row(lines: Sequence[Line], i: int, skip: set[int]) -> tuple[Segment, int] | None:
    """A whole line "label: text with numbers" (with indented continuation lines), or an
    item that gives its value first ("* 5,112,930 - baseline"): the row's segment and the
    index of its last line. Public: the gate (claims.prescan) asks it whether a line is
    a row."""
    ln = lines[i]
    if not has_digit(ln.text[:MAX_LINE]):
        return None  # each form's value is in the line's own text (`rest` has a digit), most lines have none
    m = _LINE_LABEL.match(ln.text[:MAX_LINE])
    if not m:
        seg = _value_first_row(ln) or _value_last_row(ln)
        return (seg, i) if seg is not None else None
    label = clean_label(m.group("label"))
    if not label or len(label.split()) > 10 or _HEADERISH.match(label) or "http" in label:
        return None
    text = m.group("rest")
    indent = len(ln.text) - len(ln.text.lstrip())
    j = i
    while (j + 1 < len(lines) and j + 1 not in skip and lines[j + 1].text.strip()
           and (len(lines[j + 1].text) - len(lines[j + 1].text.lstrip()) > indent + 2
                or _unit_only(lines[j + 1].text))  # "...: 19.3" / "Gbits/sec": the unit wrapped
           and not _LINE_LABEL.match(lines[j + 1].text) and j - i < 4):
        j += 1
        text += " " + lines[j].text.strip()
    # "360(-87.3%)": the change glued to the value is an annotation, the value is still one
    toks = tokens(strip_annotations(text)[0])
    clean = all(t.kind in ("value", "spread", "pvalue") or is_unit(t.text) for t in tokens(_strip_ann(text)))
    if not any(t.kind == "value" for t in toks):
        return None
    return Segment(label, text, ln.number, lines[j].number, ln, clean), j


def _unit_only(text: str) -> bool:
    words = text.split()
    return 0 < len(words) <= 2 and all(is_unit(w.strip(".,;()")) for w in words)


def _strip_ann(text: str) -> str:
    return re.sub(r"\([^()]{0,120}\)", " ", text)


def variant_groups(lines: Sequence[Line], skip: set[int]) -> list[list[Segment]]:
    groups: list[list[Segment]] = []
    cur: list[Segment] = []
    last_i = -10
    i = 0
    while i < len(lines):
        if i in skip:
            i += 1
            continue
        ln = lines[i]
        inline = line_segment_groups(ln) if ":" in ln.text else []
        many = any(sum(r is not None for r in side_roles([seg.label for seg in g])) > 1 for g in inline)
        got = None if many else line_row(lines, i, skip)
        if got is not None:
            seg, j = got
            # (the lines between are read only for a row right after the last: up to one)
            if cur and i - last_i <= 2 and all(not lines[x].text.strip() for x in range(max(last_i + 1, 0), i)) \
                    and lines[i].depth == cur[-1].line.depth:
                cur.append(seg)
            else:
                if len(cur) >= 2:
                    groups.append(cur)
                cur = [seg]
            last_i = j
            i = j + 1
            continue
        if ln.text.strip():
            if len(cur) >= 2:
                groups.append(cur)
            cur = []
        if inline:
            groups.extend(g for g in inline if len(g) >= 2)
        i += 1
    if len(cur) >= 2:
        groups.append(cur)
    return groups


def _segment_row(seg: Segment) -> Row:
    return make_row(seg.label, seg.text, seg.first, seg.last, depth=seg.line.depth,
                    author=seg.line.author, message_id=seg.line.message_id, label_in_text=False)


def _repeats_split(group: list[Segment]) -> list[list[Segment]]:
    """A label seen again starts a new comparison: "Test: 64KB / Before: 21 / After: 25"
    then "Test: 16B / Before: 11 / After: 17" are two, not one baseline for eight rows."""
    subs: list[list[Segment]] = [[]]
    seen: set[str] = set()
    for seg in group:
        key = seg.label.lower()
        if key in seen:
            subs.append([])
            seen = set()
        subs[-1].append(seg)
        seen.add(key)
    return subs


def side_roles(labels: list[str]) -> list[str | None]:
    """The side each label of a group of "label: value" segments names, from its words
    (claims.variants.role) and from the others': "Upstream codebase" / "Upstream codebase
    with page pool" (the longer adds to it), "v6.6" / "v6.6+fix" (the candidate extends
    its baseline), "v6.12" / "this series" (a bare release beside a candidate: the kernel
    it changes, as the lexicon ranks it, claims.lexicon.lone_release)."""
    roles = [role(lab) for lab in labels]
    roles = [r or ("candidate" if any(roles[k] == "baseline" and adds_to(labels[k], lab)
                                      for k in range(len(labels))) else None)
             for r, lab in zip(roles, labels, strict=True)]
    roles = [r or ("baseline" if any(roles[k] == "candidate" and extended_by(lab, labels[k])
                                     for k in range(len(labels))) else None)
             for r, lab in zip(roles, labels, strict=True)]
    release = lone_release(labels)
    if release is not None and roles[release] is None and "candidate" in roles and "baseline" not in roles:
        roles[release] = "baseline"
    return roles


def group_claims(group: list[Segment], subject: str | None = None) -> list[Claim]:
    """Pairs among adjacent "label: value" lines whose labels tell the sides apart: by
    their words ("Before:", "old bonding:"), or against each other ("coalescing off:" /
    "coalescing on:"), or by a change stated beside a candidate."""
    subs = _repeats_split(group)
    if len(subs) > 1:
        return [c for sub in subs if len(sub) >= 2 for c in group_claims(sub, subject)]
    if len(group) >= 3 and not group[0].clean and role(group[0].label) is None and all(x.clean for x in group[1:]):
        # "kernel command line: intel_iommu=on ..." above the rows it was measured with
        # heads them: the rows are the comparison, the setting says what it is of
        got = group_claims(group[1:], subject)
        for claim in got:
            claim.context = claim.context or f"{group[0].label}: {group[0].text}"
        if got:
            return got
    labels = [s.label for s in group]
    roles = side_roles(labels)
    rows = [_segment_row(s) for s in group]
    stated = any(r.stated_pct is not None for r, ro in zip(rows, roles, strict=False) if ro != "baseline")
    relative = len(group) == 2 and roles == [None, None] and contrasted(labels, subject)
    if "baseline" not in roles and not ("candidate" in roles and stated) and not relative:
        return []
    # a baseline named outright and bare values beside it: each other line is a variant
    # measured against it ("* 5,112,930 - baseline" / "* 5,322,100 - page frags with recycling")
    against_base = roles.count("baseline") == 1 and all(s.clean for s in group) and not any(
        content_words(lab) for lab, r in zip(labels, roles, strict=True) if r == "baseline")
    if "candidate" not in roles and not stated and not (len(group) == 2 and roles[0] == "baseline") \
            and not relative and not against_base:
        return []
    if all(s.clean for s in group) and max(len(r.values) for r in rows) >= 2 and not relative:
        return _as_table(group, rows)
    bi = pick_baseline(labels, subject)
    base = rows[bi]
    cands = [r for j, r in enumerate(rows) if j != bi]
    if any(c.stated_pct is not None for c in cands):
        cands = [c for c in cands if c.stated_pct is not None]
    out: list[Claim] = []
    for c in cands:
        out.extend(pair_rows(base, c, tabular=False))
    used = [base.label, *(c.candidate.label for c in out if c.candidate is not None)]
    subject = shared_subject([lab for lab in used if not names_a_release(lab or "")])  # a kernel is a side
    # "Test: 64KB, g2h" heading its Before/After rows says what the pair is of
    head = group[0] if roles[0] is None and group[0].label not in used else None
    for claim in out:  # "RxIRQs before: 1 / RxIRQs after: 2": the labels name the metric
        if subject and claim.metric.lower() in ("value", (claim.unit or "").lower()):
            claim.metric = subject
            claim.better = claim.better or better_for(subject, claim.unit)  # named now: "avg packets drop"
        if head is not None and claim.context is None:
            claim.context = f"{head.label}: {head.text}"
    return out


def _as_table(group: list[Segment], rows: list[Row]) -> list[Claim]:
    """Collapsed tables: "Increment of VMAs: 0 100 ... next-2023: 111878 ... +2.37% ..."."""
    table = Table(first=0, last=0)
    for s, r in zip(group, rows, strict=False):
        vals = r.values
        half = len(vals) // 2
        cells: list[Token | None] = list(vals)
        change: list[Token | None] | None = None
        if len(vals) >= 4 and len(vals) % 2 == 0 and all(v.percent and v.signed for v in vals[half:]) \
                and not any(v.percent and v.signed for v in vals[:half]):
            cells, change = list(vals[:half]), list(vals[half:])
        table.rows.append(TRow(label=s.label, cells=cells, line=s.first, index=0, depth=s.line.depth,
                               author=s.line.author, message_id=s.line.message_id))
        if change is not None:
            table.rows.append(TRow(label="%", cells=change, line=s.first, index=0, depth=s.line.depth))
    return table_claims(table)


def _magnitudes(ua: str | None, ub: str | None) -> tuple[str, str] | None:
    """The two sides' units when they differ as scales of one quantity do ("1.2M" /
    "300k", "1.2ms" / "950us", "1.2GB" / "800MB"): each side keeps its own."""
    a, b = (u.rstrip(".,;)") if u else "" for u in (ua, ub))
    return (a, b) if common_scale(a or None, b or None) else None  # bare K/M/G prefixes too


def _counted(before: str) -> bool:
    """A bare magnitude ("812k") counts something when the sentence names a rate or a
    change just before it ("RPS went up from 812k"), not a size ("from 4K pages")."""
    near = before[-80:]
    return _PERF_WORD.search(near) is not None and _STRONG_VERB.search(near) is not None


# "9.1 +- 0.2 Gbps": a spread printed between a value and its unit
_SPREAD_BETWEEN = re.compile(r"(?<![\w.])(?P<v>\d[\d,]*(?:\.\d+)?)(?P<u1>\s?[A-Za-zµ/][\w/]{0,14})?"
                             r"\s*(?:\+-|±|\+/-)\s*\d[\d,]*(?:\.\d+)?%?(?:\s?(?P<u>[A-Za-zµ/][\w/]{0,14}))?")
_GLUED_NOTE = re.compile(r"(?<=%)\((?=[A-Za-z])")  # "~20%(hipri=1 vs hipri=0)"


def _fold_spread(m: re.Match[str]) -> str:
    """"9.1 +- 0.2 Gbps" and "9.1 Gbps +- 0.2" as "9.1 Gbps", padded to the same length."""
    u1, u = m.group("u1"), m.group("u")
    if u1 and not is_unit(u1.strip()):
        return m.group(0)
    if u and not is_unit(u.rstrip(".,;:)")):  # a word after the spread stays where it stood
        kept = m.group("v") + (u1 or "")
        return kept + " " * (m.start("u") - m.start() - len(kept)) + u
    kept = m.group("v") + (u1 or (" " + u if u else ""))
    return kept + " " * (len(m.group(0)) - len(kept))


def _template_text(ln: Line | Passage) -> str:
    """A line's text as the sentence templates read it, of the same length so that every
    offset still maps to its line: a spread between a value and its unit is taken out
    ("9.1 +- 0.2 Gbps vs 9.5 +- 0.1 Gbps" reads "9.1 Gbps vs 9.5 Gbps"), and a remark
    glued to a percentage is set apart ("~20%(hipri=1" reads "~20% hipri=1")."""
    text = ln.text[:MAX_LINE]
    if "+-" in text or "±" in text or "+/-" in text:
        text = _SPREAD_BETWEEN.sub(_fold_spread, text)
    return _GLUED_NOTE.sub(" ", text) if "%(" in text else text


def from_to_claims(ln: Line | Passage, nxt: Line | None = None) -> list[Claim]:
    """"from 2.50Mpps to 3.05Mpps" (the sentence may go on in the next line)."""
    if nxt is not None and isinstance(ln, Line):
        return from_to_claims(Passage([ln, nxt]))
    out: list[Claim] = []
    text = _template_text(ln)
    if "from" not in text.lower():
        return out
    found = [*_FROM_TO.finditer(text), *_TO_FROM.finditer(text), *_UP_FROM.finditer(text)]
    ends = [m.end() for m in found]
    for m in found:
        first, last = _line_at(ln, m.start()), _line_at(ln, m.end() - 1)
        if m.re is not _FROM_TO:
            first, last = last, first
        a, b = parse_number(m.group("a")), parse_number(m.group("b"))
        ua, ub = (_per_second(text, m, g) for g in ("ua", "ub"))
        if ua and ub and ub in (f"{ua}/s", "/s") and m.re is _FROM_TO:
            ua = ub  # "from 120k to 20k per second": both sides per second
        per_second = ub == "/s"  # "from 45000 to 1200 per second": a count, per second
        if per_second:
            ua = ub = None
        a, ua = _clocked(m.group("a"), ua, a)
        b, ub = _clocked(m.group("b"), ub, b)
        if ub and not is_unit(ub.rstrip(".,;)")) and ub.rstrip(".,;)") not in MAGNITUDES \
                and (ua or ub.lower() in _STOP_WORDS):
            ub = None  # "to 5830 on the same box": the word after it is no unit
        if a is None or b is None or _LEADING_ZERO.match(m.group("a")) or _LEADING_ZERO.match(m.group("b")):
            continue
        pre = text[max(0, m.start() - 2):m.start()]
        scales = _magnitudes(ua, ub)  # "from 1.2M to 300k": one count at two scales, each side's kept
        if ua and ub and ua.lower() != ub.lower() and not (ua.startswith("%") and ub.startswith("%")) and not scales:
            continue
        unit = (ub or ua or "").rstrip(".,;)") or None
        after = (m.group("next") or m.groupdict().get("wa") or m.groupdict().get("wb") or "").strip().rstrip(".,;)")
        if unit in MAGNITUDES and (ua or "") == (ub or "") and after and is_unit(unit + after) \
                and not _SIZE_UNITS.match(unit + after):
            unit = unit + after  # "from ~600k to ~800k IOPS": kIOPS
        elif unit in MAGNITUDES and ((ua or "") == (ub or "") or scales) and (
                _counted(text[max(0, m.start() - 200):m.start()]) or _STRONG_VERB.search(text[max(0, m.start() - 80):m.start()])
                and better_for(_metric_before(text, m.start()), None) is not None):
            pass  # "the RPS went up from 812k to 901k", "VM exits dropped from 1.2M to 300k"
        elif unit is not None and not is_unit(unit):
            continue
        near = text[max(0, m.start() - 80):m.start()]
        if unit is None and not (_STRONG_VERB.search(near) and (
                _PERF_WORD.search(near) or _RATIO.search(near)
                or better_for(_metric_before(text, m.start()), None) is not None)):
            continue  # "the stack depth is increased from 20 to 41": a count, not a measure
        mid = (m.groupdict().get("mid") or "").split()
        if _sets_a_knob(" ".join([near, *mid])):
            continue  # "increases the timeout from 5 seconds to 30": a setting the patch changes
        mid = _without_article(mid)  # "reduces the run time to": the measure, not its article
        if mid and mid[0].lower() == "of":
            mid = mid[1:]  # "95% of line rate, up from 80%": what the share is of names it
        named, at = _own_clause(text, m.start(), ends)
        metric = " ".join(mid) if mid and (_measure_word(mid[-1]) or names_a_cost(mid[-1])) else _metric_before(named, at, unit) or (unit or "value")
        if per_second and not _PER_SECOND_END.search(metric):
            metric += " per second"
        if unit is not None and unit not in MAGNITUDES and _SIZE_UNITS.match(unit) and not (
                better_for(metric, None) == "lower" and _STRONG_VERB.search(near)):
            continue  # a size set, not measured: but "the memory footprint drops from 120MB to 90MB"
        if "+" in pre or "-" in pre:
            continue
        claim = Claim(metric=metric, unit=unit, better=better_for(metric, unit),
                      baseline=Value(a, label="from", unit=scales[0] if scales else unit, line=first),
                      candidate=Value(b, label="to", unit=unit, line=last),
                      lines=(first, last), depth=ln.depth, author=ln.author,
                      message_id=ln.message_id)
        out.append(claim)
    return out


_CONJUNCTION = re.compile(r"(?i)\b(?:and|but|while|whereas)\b")


def _own_clause(text: str, pos: int, ends: list[int]) -> tuple[str, int]:
    """The text that names the pair at `pos` and where the pair starts in it: after a pair
    just before it, the words between, past their conjunction, when they hold a word of
    their own ("Verification time drops from 1.2s to 0.3s, and peak memory from 512MB to
    128MB": "peak memory"); else the whole text ("..., and from 3 to 4 with 8 streams":
    the first pair's measure again)."""
    prior = max((e for e in ends if e <= pos), default=-1)
    if prior < 0 or pos - prior > 80:
        return text, pos
    start = prior
    for c in _CONJUNCTION.finditer(text, prior, pos):
        start = c.end()
    words = re.findall(r"[A-Za-z][\w./%-]*", text[start:pos])
    if not any(len(w) > 2 and w.lower() not in _STOP_WORDS and w.lower() not in _FILLER for w in words):
        return text, pos
    return text[start:], pos - start


# what a patch sets, not what a run measures: "the timeout", "the poll interval", "the limit";
# a measure named by one of the _SIZED words is a setting too ("Ring size: 256 -> 1024 (+300%)")
_SIZED = r"sizes?|depths?|mtu"
_KNOB = re.compile(r"(?i)\b(?:timeouts?|intervals?|periods?|thresholds?|limits?|budgets?|quotas?|watermarks?|"
                   rf"{_SIZED}|"
                   r"weights?|default\s+(?!settings?\b|config\w*\b|kernel\b)[a-z][\w-]*)\b")  # "the default coalescing"
_SETTING_NAME = re.compile(rf"(?i)\b(?:{_SIZED})$")


def _sets_a_knob(before: str) -> bool:
    """Do the last words of the clause before a change name a setting (_KNOB)? "increases
    the timeout from", "The poll interval: 10 ms ->"; not "With the default settings,
    latency dropped from", whose setting stands in another clause."""
    clause = re.split(r"[,;]", _FULL_STOP.split(before)[-1])[-1]
    return _KNOB.search(" ".join(clause.split()[-4:])) is not None


_PER_SECOND = re.compile(r"(?i)\s+per\s+(?:second|sec)\b")
_PER_SECOND_END = re.compile(r"(?i)\bper\s+sec(?:ond)?$")


_Unit = TypeVar("_Unit", bound=str | None)


def _clocked(number: str, unit: _Unit, value: float | None) -> tuple[float | None, _Unit | str]:
    """A number the template read as "12" and "m30s" is time(1)'s "12m30s": 750 s."""
    tail = unit if isinstance(unit, str) else ""
    secs = clock_seconds(number + tail) if tail[:1] in ("h", "m") else None
    return (value, unit) if secs is None else (secs, "s")


def _per_second(text: str, m: re.Match[str], group: str) -> str | None:
    """The unit a template read after a number: "transactions per second" is the rate
    "transactions/s" when the word alone is no unit."""
    u = m.group(group)
    if not u:
        return None
    u = u.rstrip(".,;)") or None
    if u and u.lower() == "per" and _PER_SECOND.match(text, m.start(group) - 1):
        return "/s"  # "from 45000 to 1200 per second": a count per second
    if u and not is_unit(u) and _PER_SECOND.match(text, m.end(group)) and (rate := spelled_rate(u)):
        return rate
    return u


# "p50/p99: 12/45 us before, 11/31 us after": a sentence about as many measures as one list
# of names joined by slashes names, each list of as many numbers joined so one value of each
# measure. Names are words (not a unit's "KB/s", not "I/O"); numbers stand alone.
_NAME_LIST = re.compile(r"(?<![\w./-])[A-Za-z][\w.-]{0,14}\w(?:/[A-Za-z][\w.-]{0,14}\w){1,7}(?![\w/])")
_NUMBER_LIST = re.compile(r"(?<![\w./,])\d[\d,]*(?:\.\d+)?(?:/\d[\d,]*(?:\.\d+)?){1,7}(?![\d/]|\.\d)")


_NAME_SLASH = re.compile(r"/(?<=[\w.-]/)(?=[A-Za-z])")  # a slash a list of names holds (a literal first)


def _name_lists(text: str) -> list[re.Match[str]]:
    return [m for m in _NAME_LIST.finditer(text) if not is_unit(m.group())]


def may_list_measures(text: str) -> bool:
    """Might a passage within `text` be read measure by measure (each_measure): a list of
    names and two lists of as many numbers stand in it? (claims.prescan asks of a paragraph.)"""
    if text.count("/") < 3 or _NAME_SLASH.search(text) is None:
        return False
    counts = Counter(m.group().count("/") + 1 for m in _NUMBER_LIST.finditer(text))
    return any(n >= 2 for n in counts.values()) and any(counts[m.group().count("/") + 1] >= 2
                                                         for m in _name_lists(text))


def each_measure(ln: Line | Passage) -> list[tuple[str | None, Line | Passage]]:
    """The sentence once per measure its slashed lists name, with that measure's name, each
    list cut to its name or value (right-aligned in the list's place, so every offset stands
    on the same line); or the sentence alone, no name: "p50/p99: 12/45 us before, 11/31 us
    after" is "p50: 12 us before, 11 us after" and "p99: 45 us before, 31 us after", read by
    the same readers."""
    text = ln.text
    if text.count("/") < 3:
        return [(None, ln)]
    names = _name_lists(text)
    if len(names) != 1:
        return [(None, ln)]
    k = names[0].group().count("/") + 1
    lists = [m for m in _NUMBER_LIST.finditer(text) if m.group().count("/") + 1 == k]
    if len(lists) < 2:
        return [(None, ln)]
    spans = sorted([names[0], *lists], key=lambda m: m.start())
    out: list[tuple[str | None, Line | Passage]] = []
    for i, name in enumerate(names[0].group().split("/")):
        parts, pos = [], 0
        for m in spans:
            parts += [text[pos:m.start()], m.group().split("/")[i].rjust(len(m.group()))]
            pos = m.end()
        parts.append(text[pos:])
        cut = "".join(parts)
        out.append((name, Passage(ln.lines, cut, ln.starts) if isinstance(ln, Passage) else replace(ln, text=cut)))
    return out


def sentence_pairs(ln: Line | Passage) -> list[Claim]:
    """The pairs a passage's sentences state (_SENTENCE_READERS), measure by measure
    (each_measure): a pair of one measure of a list is named by it where its reader did not
    ("Latency p50/p99: ..." gives "Latency p50" and "Latency p99")."""
    out: list[Claim] = []
    for name, one in each_measure(ln):
        got = [c for read in _SENTENCE_READERS for c in read(one)]
        for c in got:
            if name is not None and name.lower() not in c.metric.lower().split():
                c.metric = f"{c.metric} {name}"
        out += got
    return out


def states_a_pair(ln: Line | Passage) -> bool:
    """Does a sentence of the passage state a pair (sentence_pairs), asked reader by reader?"""
    return any(read(one) for _, one in each_measure(ln) for read in _SENTENCE_READERS)


def _baseline_aside(word: str) -> bool:
    """A word in brackets that names the baseline ("(baseline)", "(before)", "(vanilla)")."""
    return len(word) > 2 and word[0] == "(" and word[-1] == ")" and cue(word[1:-1]).score <= BASELINE_AT


def arrow_claims(ln: Line | Passage) -> list[Claim]:
    if "->" not in ln.text and "=>" not in ln.text and "→" not in ln.text:
        return []
    toks = tokenize(ln.text[:MAX_LINE])
    out: list[Claim] = []
    for i, t in enumerate(toks):
        if t.text not in _ARROWS:
            continue
        left = next((toks[j] for j in (i - 1, i - 2) if j >= 0 and toks[j].kind == "value"), None)
        if left is None or (i - 2 >= 0 and left is toks[i - 2] and not is_unit(toks[i - 1].text)
                            and not _baseline_aside(toks[i - 1].text)):  # "812K (baseline) -> 905K"
            continue
        right = toks[i + 1] if i + 1 < len(toks) and toks[i + 1].kind == "value" else None
        if right is None or _LEADING_ZERO.match(left.text.strip("([")) or _LEADING_ZERO.match(right.text):
            continue
        unit = right.unit or left.unit
        near = ln.text[max(0, left.start - 120):right.end + 60]  # the arrow's clause: linear time
        stated = None
        for nxt in toks[i + 2:i + 4]:
            if nxt.kind == "value" and nxt.percent and nxt.signed and nxt.text.startswith("("):
                stated = nxt.value
                break
        agrees = stated is not None and _change_agrees(left.value, right.value, stated)
        if left.percent != right.percent or (unit and _SIZE_UNITS.match(unit) and not (
                unit in MAGNITUDES and (_PERF_WORD.search(near) or agrees and _labels_a_row(ln.text, left.start)))
                and not _measures_memory(ln.text, left.start)):
            continue  # a size set ("4K -> 16K entries"); but "IOPS: 812K -> 905K", "Memory usage: 1.2 GB -> 1.0 GB",
            # "XDP_DROP: 24.1M -> 26.3M (+9.1%)" (a count whose change is stated) count
        if (unit is None or not is_unit(unit)) and not (_PERF_WORD.search(near) or _STRONG_VERB.search(near)) \
                and not agrees:
            continue  # "version 7.0 -> 7.1", histogram buckets "2 -> 3 : 7"; but a measure's
            # change, stated after it, says so ("page_fault1_processes: 1234567 -> 1345678 (+9.0%)")
        if _sets_a_knob(ln.text[max(0, left.start - 80):left.start]):
            continue  # "the timeout 5s -> 30s"
        metric = _metric_before(ln.text, left.start, unit) or unit or "value"
        first, last = _line_at(ln, left.start), _line_at(ln, right.start)
        out.append(Claim(metric=metric, unit=unit, better=better_for(metric, unit),
                         baseline=Value(left.value or 0.0, unit=unit, line=first),
                         candidate=Value(right.value or 0.0, unit=unit, line=last),
                         claimed_change_pct=stated, lines=(first, last), depth=ln.depth,
                         author=ln.author, message_id=ln.message_id))
    return out


def _labels_a_row(text: str, pos: int) -> bool:
    """Are the words before `pos` on its line a row's label ("- XDP_DROP:"), a few words
    with no verb, not a sentence that sets a size ("The ring grows 4K -> 16K")?"""
    words = [w.strip(",:;") for w in text[text.rfind("\n", 0, pos) + 1:pos].split()]
    return len(words) <= 4 and not any(_is_change_verb(w) for w in words)


def _change_agrees(before: float | None, after: float | None, stated: float | None) -> bool:
    """Is `stated` (a percentage) the change from `before` to `after` (numbers.stated_tolerance)?"""
    if before is None or after is None or stated is None or before <= 0 or after < 0:
        return False
    change = (after - before) / before * 100.0
    return change * stated > 0 and abs(change - stated) <= stated_tolerance(stated)


_QUALIFIER = re.compile(r"^(?:(?i:p\d{2,3}(?:\.\d+)?|avg|average|mean|median|tail|max|min|peak|rx|tx|"
                        r"cpu|host|guest|aggregate|total|overall|single|small|memory|mem|slab|heap|swap|disk|"
                        r"network)|[A-Z][A-Z0-9_]{1,15})$")
_MEASURE = re.compile(r"(?i)^(?:throughput|tput|latency|latencies|bandwidth|pps|iops|rate|tps|qps|rps|"
                      r"utili[sz]ation|usage|load|goodput|jitter|rtt|cycles|transactions|requests|time|"
                      r"performance)$")


def _names_a_time(word: str) -> bool:
    """Is `word`, before "time", what the time is of ("boot time", "total run time"): a
    plain word, no article, preposition, filler or verb?"""
    w = word.lower()
    return word.isalpha() and w not in _STOP_WORDS and w not in _DETERMINERS and w not in _FILLER \
        and not _is_change_verb(w) and not _LINKING_VERB.fullmatch(w)


def _metric_before(text: str, pos: int, unit: str | None = None, subject_verb: bool = False) -> str:
    """The measure a sentence names before a number: "p99 latency also goes up, 45us" ->
    "p99 latency", "I see throughput dropping from" -> "throughput". With `subject_verb`,
    bare words before it name the measure only when a change verb ends them ("the memcpy
    cost dropped by 5%"): before a stated change ("you're talking ~1% gains", "3 versus 2
    seems a 50% saving") they are the clause around it, and the measure goes unnamed."""
    found = list(re.finditer(r"[A-Za-z][\w./%-]*", text[max(0, pos - 80):pos]))
    words = [m.group() for m in found]
    for k in range(len(words) - 1, -1, -1):
        if _MEASURE.match(words[k]):
            j = k
            # "p99 latency", "miss rate" (what the rate counts turns its direction: lower);
            # "boot time" (a plain word just before it, nothing between: not "(with X enabled) time")
            while j > 0 and k - j < 2 and (_QUALIFIER.match(words[j - 1]) or names_a_cost(words[j - 1])
                                           or j == k and names_a_cost(f"{words[j - 1]} {words[k]}")  # "drop rate"
                                           or words[k].lower() == "time" and _names_a_time(words[j - 1])
                                           and found[j - 1].string[found[j - 1].end():found[j].start()].isspace()):
                j -= 1
            return " ".join(words[j:k + 1])
    kind = unit_kind(unit) or ("rate" if unit and is_rate(unit) else None)
    if kind == "rate":  # "Context switches went down from 52k/s": the rate of what the subject counts
        subject = _subject_words(_words_before(text, pos))
        if names_events(subject):
            return subject
    if kind:  # "XDP_DROP goes 24.1 Mpps -> 26.3 Mpps" -> "XDP_DROP packet rate"
        test = next((w for w in reversed(words[-8:])
                     if re.fullmatch(r"[A-Z][A-Z0-9]*_[A-Z0-9_]+|(?:tcp|udp|sctp)_[a-z]{2,8}", w)), None)
        return f"{test} {kind}" if test else kind
    return _subject_words(_words_before(text, pos), subject_verb)


# "XDP_REDIRECT gets a 20% improvement": a verb that ends the subject of a stated change
_LINKING_VERB = re.compile(r"(?i)gets?|got|gains?|gained|sees?|saw|shows?|showed|has|have|had|gives?|gave|"
                           r"achieves?|achieved|yields?|yielded|is|are|was|were")


def _subject_words(words: str, need_verb: bool = False) -> str:
    """The sentence's subject among the words before a number: up to its verb, without a
    leading article ("The memcpy cost dropped from" -> "memcpy cost"); with `need_verb`,
    "" when no change verb follows the words."""
    ws = words.split()
    verbs = [k for k, w in enumerate(ws) if _is_change_verb(w) or need_verb and _LINKING_VERB.fullmatch(w)]
    # a noun of a change ("a nice improvement: ops/s went from") is the verb only when no
    # verb stands after it
    verb = next((k for k in verbs if not _NOUN_END.search(ws[k])), verbs[0]) if verbs else None
    if need_verb and (not verb or all(w.lower() in _STOP_WORDS or w.lower() in _FILLER for w in ws[:verb])):
        return ""
    if verb is not None:
        # "throughput improved from": the subject; "this improves per_process_ops from": the
        # object, what the verb changes
        objects = [w for w in ws[verb + 1:] if w.lower() not in _STOP_WORDS and not w.lower().endswith("ly")
                   and w.lower() not in ("up", "down", "out", "off")]  # "went down from": a particle
        ws = objects if objects and not need_verb else ws[:verb]
    ws = _without_article(ws)
    while ws and ws[-1].lower() in _HEDGES:  # "about 645 without the patch": no measure named
        ws.pop()
    while len(ws) > 1 and ws[-1].lower() in _AUXILIARIES:  # "the memory footprint is reduced from"
        ws.pop()
    # "the number of TLB flushes dropped from": what is counted (the words before may have
    # been cut between "number" and "of")
    if len(ws) > 1 and ws[0].lower() in ("number", "count"):
        ws = ws[1:]
    if len(ws) > 1 and ws[0].lower() == "of":
        ws = ws[1:]
    of = next((k for k, w in enumerate(ws) if w.lower() == "of"), None)
    if of and better_for(" ".join(ws[:of]), None) is not None:
        ws = ws[:of]  # "the memory footprint of the slab": the measure is what "of" hangs on
    elif of:
        ws = _without_article(ws[of + 1:])  # "the size of the queue": what it is of
    return " ".join(ws)


def _without_article(words: list[str]) -> list[str]:
    """`words` without the determiners that open them ("the run time" -> "run time"), the
    last word kept."""
    k = 0
    while k < len(words) - 1 and words[k].lower() in _DETERMINERS:
        k += 1
    return words[k:]


def _is_change_verb(word: str) -> bool:
    """Is `word` a verb (or its noun) of a change: _STRONG_VERB's or _CHANGE_VERB's?"""
    return _STRONG_VERB.fullmatch(word) is not None or _CHANGE_VERB.fullmatch(word) is not None


_NUM_UNIT = (r"(?P<{0}>\d[\d,]*(?:\.\d+)?)\s?(?P<u{0}>[KMGk]\s(?=[A-Za-z][\w/]{{0,14}}/s(?:ec)?\b|(?:[tqrkpo]|io)?[pt]s\b)[\w/]+|"
             + _CLOCK_UNIT.replace("{", "{{").replace("}", "}}") + r"|[A-Za-zµ%/][\w/%]{{0,14}})?"
             r"(?P<ps{0}>(?<=[A-Za-z])\s+per\s+sec(?:ond)?\b)?")  # "123456.79 requests per second"
_NAMED = r"(?:\s*\((?P<l{0}>[^()\n]{{1,20}})\))?"  # "45us (base) vs 38us (patched)"
_CHANGE_NOUN = r"(?:patch(?:es|set)?|changes?|series|fix(?:es)?)"
_BASE_WORDS = (r"(?:before|without(?:\s+the|\s+this)?\s+" + _CHANGE_NOUN
               + r"|on\s+[\w-]+-next|unpatched)")
_CAND_WORDS = (r"(?:after|now|with(?:\s+the|\s+this|\s+my)?\s+" + _CHANGE_NOUN
               + r"|with\s+(?:it|them)|patched)")
# "9.41 Gbits/sec before and 9.39 Gbits/sec after", "14.88 Mpps now, compared to 12.1 Mpps before"
_WORDS_NAME = r"(?P<w{0}>(?:\s+(?!vs\b|versus\b|and\b|or\b|but\b)[A-Za-z][\w/+-]*){{1,5}})"
# one note after the pair that names both of its numbers, in their order
_BOTH_NAMED = re.compile(r"(?i)(?P<a>[^\s/]+(?:\s+[^\s/]+)?)\s+(?:vs\.?|versus)\s+(?P<b>[^\s/]+(?:\s+[^\s/]+)?)")
_SENTENCE_PAIRS = (
    re.compile(r"(?i)(?<![\w.])" + _NUM_UNIT.format("a") + _NAMED.format("a") + r"\s+\(?(?:vs\.?|versus)\s+~?"
               + _NUM_UNIT.format("b") + _NAMED.format("b")),
    # "11620op/s with simple spinlocks vs 384158op/s with qspinlocks": a few words name the first
    re.compile(r"(?i)(?<![\w.])" + _NUM_UNIT.format("a") + _WORDS_NAME.format("a") + r"\s+(?:vs\.?|versus)\s+~?"
               + _NUM_UNIT.format("b") + r"(?:" + _WORDS_NAME.format("b") + r")?"),
    # "183000 before, 21000 after", "15232 VM exits before and 1203 after": what is counted
    # may stand between the first number and its side
    re.compile(r"(?i)(?<![\w.])" + _NUM_UNIT.format("a") + r"(?:\s+(?P<na>(?!(?:before|without|on|unpatched)\b)"
               r"[A-Za-z][\w/-]*(?:\s+(?!(?:before|without|on|unpatched)\b)[A-Za-z][\w/-]*){0,2}))?\s+"
               + _BASE_WORDS + r"\s*(?:,?\s+(?:and|vs\.?|to)|[,;])\s+"
               + _NUM_UNIT.format("b") + r"\s+" + _CAND_WORDS + r"\b"),
    re.compile(r"(?i)(?<![\w.])" + _NUM_UNIT.format("b") + r"\s+" + _CAND_WORDS + r"\b[^.\d]{0,20}?"
               r"compared\s+(?:to|with)\s+~?" + _NUM_UNIT.format("a") + r"\s+" + _BASE_WORDS + r"\b"),
    # "brings the p99 latency to 38 us, compared to 45 us before": the yardstick is the baseline
    re.compile(r"(?i)(?<![\w.])~?" + _NUM_UNIT.format("b") + r"(?:" + _WORDS_NAME.format("b") + r")?\s*,?\s+"
               r"(?:compared|relative)\s+(?:to|with)\s+(?:~|about\s+)?" + _NUM_UNIT.format("a")
               + r"(?:" + _WORDS_NAME.format("a") + r")?"),
    # "below 3 ms instead of 35 ms", "1.9s rather than 2.4s": the candidate is named first
    re.compile(r"(?i)(?<![\w.])~?" + _NUM_UNIT.format("b") + r"(?:\s+(?!instead\b|rather\b)[A-Za-z][\w/-]*){0,5}?"
               r"\s+(?:instead\s+of|rather\s+than)\s+(?:~|about\s+)?" + _NUM_UNIT.format("a")),
    # "latency before: 25 us, after 20 us", "before 1.2 Mpps and after 1.5 Mpps"
    re.compile(r"(?i)\bbefore\s*:?\s+~?" + _NUM_UNIT.format("a") + r"\s*[,;]?\s+(?:and\s+|but\s+)?"
               r"after\s*:?\s+~?" + _NUM_UNIT.format("b")),
    # "boots in 8.2s (previously 14.7s)", "1.5 Mpps (was 1.2 Mpps)": the earlier value aside
    re.compile(r"(?i)(?<![\w.])~?" + _NUM_UNIT.format("b") + r"\s*\((?:was|previously|before)\s*:?\s*(?:~|about\s+)?"
               + _NUM_UNIT.format("a") + r"\s*\)"),
)

# the templates whose words say which number was measured before the change and which after
_SIDES_NAMED = frozenset(p for p in _SENTENCE_PAIRS if "before" in p.pattern)
# the word each of _SENTENCE_PAIRS needs, one of which vs_claims asks of a text first
_PAIR_WORDS = (("vs", "versus"), ("vs", "versus"), ("before", "without", "-next", "unpatched"), ("compared",),
               ("compared", "relative"), ("instead", "rather"), ("before",), ("(was", "(previously", "(before"))
_ANY_PAIR_WORD = tuple(dict.fromkeys(w for words in _PAIR_WORDS for w in words))  # none of them: no template reads

_TRAILING = re.compile(r"[^\d().,;:]{0,40}")


def vs_claims(ln: Line | Passage) -> list[Claim]:
    """Pairs inside a sentence: "45us vs 61us" (the first number is the baseline, as after
    "goes up"), "X before and Y after", "Y now, compared to X before"."""
    text = _template_text(ln)
    low = text.lower()
    if not any(w in low for w in _ANY_PAIR_WORD):
        return []
    out: list[Claim] = []
    read: dict[tuple[int, int], bool] = {}  # the numbers paired, by offsets: named or not
    claims_at: dict[tuple[int, int], list[Claim]] = {}
    plain = text.isascii()  # then lower-casing is what `(?i)` folds, and a word absent is never matched
    for pat, words in zip(_SENTENCE_PAIRS, _PAIR_WORDS, strict=True):
        if plain and not any(w in low for w in words):
            continue
        for m in pat.finditer(text):
            a, b = parse_number(m.group("a")), parse_number(m.group("b"))
            ua, ub = ((m.group(u) or "").rstrip(".,;)").replace(" ", "") for u in ("ua", "ub"))
            ua, ub = (spelled_rate(u) or u if u and m.group(ps) else u for u, ps in ((ua, "psa"), (ub, "psb")))
            a, ua = _clocked(m.group("a"), ua, a)
            b, ub = _clocked(m.group("b"), ub, b)
            counted = (m.groupdict().get("na") or "").strip()  # "15232 VM exits before and 1203 after"
            if counted and ua and not is_unit(ua):
                counted, ua = f"{m.group('ua').strip()} {counted}", ""  # "VM" is a word of what is counted
            # "812K vs 901K requests/s": the unit written once, after the last number
            if ua in MAGNITUDES and len(ub) > 1 and ub.startswith(ua):
                ua = ub
            elif ub in MAGNITUDES and len(ua) > 1 and ua.startswith(ub):
                ub = ua
            if a is None or b is None or a == b or (ua and ub and ua.lower() != ub.lower()):
                continue
            unit = ub or ua or None
            # "183k before, 21k after": a count's scale, where words name the sides as measured
            scaled = unit in MAGNITUDES and ua == ub and pat in _SIDES_NAMED
            if unit is not None and not scaled and (not is_unit(unit) or unit in _FACTOR_UNITS or _SIZE_UNITS.match(unit)
                                                    and not _measures_memory(text, min(m.start("a"), m.start("b")))):
                continue  # sizes set; factors proposed ("e.g. 2x rather than 16x"), each a ratio, no side's measure
            pos = min(m.start("a"), m.start("b"))
            if (unit is None or scaled) and not _PERF_WORD.search(text[max(0, pos - 80):pos]) \
                    and not _TEST_WORD.search(text, max(0, pos - 80), pos) \
                    and not names_events(_metric_before(text, pos)) \
                    and not (counted and (names_events(counted) or _PERF_WORD.search(counted))):
                continue  # "TCP_RR ...: 31100 vs 31150", "nr_migrations:"
            if _sets_a_knob(text[max(0, pos - 80):pos]) or _KNOB.search(text, pos, max(m.start("a"), m.start("b"))):
                continue  # "the watchdog threshold is 20s (was 10s)", "a 30s timeout instead of 5s": a setting
            metric = counted or _metric_before(text, pos, unit) or unit or "value"
            if unit == "%" and (_CHANGE_VERB.search(metric) or _CHANGE_VERB.search(_words_before(text, pos))):
                continue  # "bigger gains than v2 (~25% vs ~11%)": two changes, each against its own baseline
            names = m.groupdict()
            if "wa" in names and not (ua and ub):
                continue  # words between: each side needs its unit to be read as one measure
            name_a = names.get("la") or (names.get("wa") or "").strip() or None
            name_b = names.get("lb") or (names.get("wb") or "").strip() or None
            if "wa" in names and name_a and is_unit(name_a.split()[0]):
                continue  # "120k pps vs 135k pps": the unit after a scale, read by the first template
            if name_b and not name_a and (both := _BOTH_NAMED.fullmatch(name_b)) is not None:
                name_a, name_b = both.group("a"), both.group("b")  # "120k vs 135k pps (baseline vs patched)"
            sa, sb = _side(name_a or ""), _side(name_b or "")
            if not (name_a or name_b):  # "38 Gbps (vs. 33 Gbps on net-next)": the words after the second
                trailing = _TRAILING.match(text, m.end())
                sb = cue(trailing.group(0)).score if trailing and len(trailing.group(0).split()) <= 5 else 0.0
            if sa - sb >= 0.35 and (sa >= CANDIDATE_AT or sb <= BASELINE_AT):
                # "45us with the patch vs 61us without": the words, not the order, give the sides
                a, b, name_a, name_b = b, a, name_b, name_a
            elif pat is _SENTENCE_PAIRS[0] and not (name_a or name_b) and better_for(metric, unit) is not None \
                    and _stated_against(text, m, a, b, better_for(metric, unit)):
                # "20% faster than the old one (12.1 vs 10.1 Mpps)", "latency is down 20% (1.5us vs
                # 1.9us)": the stated change, signed as the value moves, orders them
                a, b = b, a
            names = {"la": name_a, "lb": name_b}
            la, lb = _line_at(ln, m.start("a")), _line_at(ln, m.start("b"))
            key = (min(m.start("a"), m.start("b")), max(m.start("a"), m.start("b")))
            if key in read:
                if not (name_a or name_b) or read[key]:
                    continue  # "1.2M ops/s vs 1.0M ops/s without the patch": the named reading wins
                out = [c for c in out if c not in claims_at.get(key, [])]
            read[key] = bool(name_a or name_b)
            out.append(Claim(metric=metric, unit=unit, better=better_for(metric, unit),
                             baseline=Value(a, label=names.get("la"), unit=unit, line=la),
                             candidate=Value(b, label=names.get("lb"), unit=unit, line=lb),
                             lines=(min(la, lb), max(la, lb)), depth=ln.depth, author=ln.author,
                             message_id=ln.message_id))
            claims_at.setdefault(key, []).append(out[-1])
    if any(_values(c)[2] for c in out):  # "With the patch, p50 is 12us vs 15us without": the side words win
        sided = {_values(c)[:2] for c in side_claims(ln)}
        out = [c for c in out if not _values(c)[2] or (_values(c)[1], _values(c)[0]) not in sided]
    return out


def _values(c: Claim) -> tuple[float | None, float | None, bool]:
    """A pair's baseline and candidate values, and whether neither side is named."""
    b, d = c.baseline, c.candidate
    return (b.value if b else None, d.value if d else None,
            b is not None and d is not None and b.label is None and d.label is None)


def _stated_against(text: str, m: re.Match[str], a: float, b: float, way: str | None = None) -> bool:
    """True when the change the sentence states beside an unnamed "X vs Y" fits Y -> X and
    not X -> Y: its sign says the first number is the new one. A change of merit (its
    measure unnamed: "perf bench shows 5% improvement: 5.123 sec vs 5.392 sec") is read
    as the way a measure of direction `way` moves (as_way)."""
    lo, hi = _sentence_around(text, m.start(), m.end())
    stated = [as_way(c.claimed_change_pct, way) if c.merit else c.claimed_change_pct
              for c in relative_claims(Line(text[lo:hi], 0)) if c.claimed_change_pct is not None]
    if len(stated) != 1 or not a or not b:
        return False
    pct, forward, back = stated[0], (b / a - 1) * 100, (a / b - 1) * 100
    return forward * pct < 0 < back * pct and abs(back - pct) <= max(2.0, 0.35 * abs(pct))


def _sentence_around(text: str, start: int, end: int) -> tuple[int, int]:
    lo = max((m.end() for m in _FULL_STOP.finditer(text, max(0, start - 300), start)), default=max(0, start - 300))
    nxt = _FULL_STOP.search(text, end, end + 300)
    return lo, nxt.start() if nxt else min(len(text), end + 300)


_SIDE_NUMBER = re.compile(r"(?<![\w.+-])~?(?P<n>\d(?:,?\d)*(?:\.\d+)?)(?:\s?(?P<u>[A-Za-zµ%/][\w/%]{0,20}))?"
                          r"(?P<after>(?:[ \t]+[^\s\d,;.()]+){1,6})?")
_PHRASE_END = re.compile(r"(?i)\s(?:and|but|while|vs\.?|versus|compared|or)\b")
_CLAUSE_MARK = re.compile(r"[,;:()]|\s(?:and|but|while|whereas|vs\.?|versus)\s")
_COMMA = re.compile(r"[,;]")


def side_claims(ln: Line | Passage) -> list[Claim]:
    """A sentence that gives each number the side it was measured on, in words after it:
    "about 645 without the patch, ~625 with batch", "9.4 Gbps on net-next and 9.8 Gbps
    patched".  The lexicon reads each number's words; one number on the baseline side and
    the others on the opposite side are pairs, whatever order they are written in."""
    if not has_digit(ln.text[:MAX_LINE]):
        return []  # each side is a number (_SIDE_NUMBER): a text without a digit has none
    text = _template_text(ln)
    if "(" in text:  # "5.1 Gbps (baseline), 6.3 Gbps (patched)": a side named in parentheses
        text = unwrap_side_notes(text)
    out: list[Claim] = []
    for sentence, start in _sentences(text, _FULL_STOP):
        if not has_digit(sentence):
            continue  # (no digit: no number to side, see above)
        if not _sided(sentence):
            continue  # no word of one sign or the other: no number on that side (see _sided)
        sides = []
        past: list[tuple[float, str | None, float, str, int]] = []
        labelled: list[tuple[float, str | None, float, str, int]] = []  # each side named just before it
        measures = 0  # the numbers read as measures
        set_now: set[int] = set()  # where a number's words before set it now ("and is now 640 us")
        prev_end = 0
        matches = list(_SIDE_NUMBER.finditer(sentence))
        if len(matches) < 2:
            continue  # a pair is two numbers of one sentence: its words need no reading
        for m in matches:
            unit = (m.group("u") or "").rstrip(".,;:)") or None
            after = m.group("after") or ""
            words_after = after.split()
            if unit in MAGNITUDES and words_after and is_unit(unit + _unit_word(words_after[0])):
                # "100k rps;": the magnitude and the unit after it are one unit
                unit, after = unit + _unit_word(words_after[0]), after.split(words_after[0], 1)[1]
            elif unit is not None and not is_unit(unit):
                if m.end("n") == m.start("u") and unit not in MAGNITUDES:
                    continue  # "35395770f803", "9p": a name with digits in it, not a measure
                after, unit = " " + (m.group("u") or "") + after, None
            # the words since the last number or clause mark: "baseline 10.2 Gbps, patched 11.3"
            since = sentence[prev_end:m.start()].rstrip(" ,:~")
            ahead = _CLAUSE_MARK.split(since)[-1]
            commas = _COMMA.split(since)
            if len(commas) > 1 and commas[-1] == ahead and len(ahead.split()) <= 4 and not cue(ahead).role \
                    and 0 < len(commas[-2].split()) <= 3 and cue(commas[-2]).role and not re.search(r"[():]", commas[-2]):
                ahead = commas[-2]  # "...; with it, in 3.1s": the side set off by a comma
            prev_end = m.end("u") if m.group("u") and unit is not None else m.end("n")
            if unit is not None and _SIZE_UNITS.match(unit) and unit not in MAGNITUDES:
                continue
            if unit is None and _named_by(sentence[max(0, m.start() - 20):m.start()]):
                continue  # "he did not ack patch 2 while he acked patch 1": names, not measures
            end = _PHRASE_END.search(after)
            phrase = after[:end.start()] if end else after
            first = phrase.split()[:1]
            if unit is None and first and first[0].lower().rstrip(",.;:") in _COUNTED_OBJECTS:
                continue  # "I applied 3 patches before": what the number counts, no measure
            measures += 1
            if _NOW.search(ahead):
                set_now.add(start + m.start())
            # a side named just before the number: its last word names one ("base=", "patched")
            if 0 < len(ws := ahead.split()) <= 3 and cue(ws[-1]).role and (before := cue(ahead)).role \
                    and (value := parse_number(m.group("n"))) is not None:
                labelled.append((value, unit, before.score, ahead.strip(), start + m.start()))
            if not first or not cue(first[0]).reasons and not _LEAD_SIDE.match(first[0]) \
                    and not _NOW.fullmatch(first[0].rstrip(".,;:")):  # "is 640 us now": set now after it
                # else the few words before it, when they name a side
                n = len(ahead.split())
                said = cue(ahead)
                phrase = ahead if said.role and (0 < n <= 3 or n <= SIDE_CLAUSE_WORDS and (
                    cue(ahead.split()[0]).reasons or abs(said.score) >= 0.9)) else ""
                if not phrase and n > 3 and cue(tail := " ".join(ahead.split()[-3:])).role:
                    phrase = tail  # "with 16 threads the patched kernel does 1.45M": its last words
                if not phrase and said.score == 0 and 0 < n <= 4 and _NOW_LEAD.match(ahead):
                    phrase = ahead  # "now we get 2.9 Mpps"
                if not phrase:
                    if _PAST.search(ahead) and len(ahead.split()) <= 6 \
                            and (value := parse_number(m.group("n"))) is not None:
                        past.append((value, unit, PAST_SIDE, ahead.strip(), start + m.start()))
                    continue
            score = cue(phrase).score
            if not score and _NOW.search(phrase):
                score = NOW_SIDE  # "now it takes 1 ms": the time the patch is in
            if score and (value := parse_number(m.group("n"))) is not None:
                sides.append((value, unit, score, phrase.strip(), start + m.start()))
        if measures >= 2 and len(labelled) == measures:
            # every number named just before it ("base=1.23Mpps patched=1.41Mpps", "before
            # 9.1 Gbps after 9.4 Gbps"): the words after one name the next, not it
            sides, past = labelled, []
        base = [x for x in sides if x[2] < 0]
        cands = [x for x in sides if x[2] > 0]
        if not base and len(past) == 1 and cands and all((_NOW.search(c[3]) or c[4] in set_now) and c[4] > past[0][4]
                                                          for c in cands):
            base = past  # "throughput was 9.4 Gbps; with this series it is now 9.8 Gbps", "... is now 9.8 Gbps with it"
        if len(base) != 1 or not cands:
            continue
        b = base[0]
        for c in cands:
            unit = b[1] or c[1]
            if b[1] and c[1] and b[1].lower() != c[1].lower() or b[0] == c[0] or c[2] - b[2] < 0.35:
                continue
            if unit is None and not any(_NAMES_CHANGE.search(x[3]) for x in (b, c)):
                continue  # a bare number needs the change named ("without the patch"), not "in old"
            if _sets_a_knob(text[:min(b[4], c[4])]):
                continue  # "the timeout was 5 s; with this patch it is now 30 s": a setting the patch changes
            metric = _without_sides(_metric_before(text, min(b[4], c[4]), unit)) or unit or "value"
            lb, lc = _line_at(ln, b[4]), _line_at(ln, c[4])
            out.append(Claim(metric=metric, unit=unit, better=better_for(metric, unit),
                             baseline=Value(b[0], label=b[3], unit=unit, line=lb),
                             candidate=Value(c[0], label=c[3], unit=unit, line=lc),
                             lines=(min(lb, lc), max(lb, lc)), depth=ln.depth, author=ln.author,
                             message_id=ln.message_id))
    return out


def _without_sides(name: str) -> str:
    """`name` without the words at its end that name no measure: the first number's side
    when it stands just before it ("rx_pps: base=1.23M" -> "rx_pps"), or a stop word."""
    ws = name.split()
    while ws and not content_words(ws[-1]) and re.search(r"[A-Za-z]", ws[-1]):
        ws.pop()
    return " ".join(ws)


# the things a change is made of, counted by the number before them ("3 patches", "2 commits")
_COUNTED_OBJECTS = frozenset({"patches", "commits", "changes", "fixes", "series", "patchsets", "revisions",
                              "versions"})
SIDE_CLAUSE_WORDS = 8  # "on the unpatched kernel it yields 9.1 Gbps": a clause whose side word is strong


# a number set in the past ("was 45 us", "used to take 5 ms") is the baseline of one set "now"
_PAST_WORDS = ("was", "were", "used", "took", "had", "got", "gave")  # "used" as "used to"
_NOW_WORD = "now"
_PAST = re.compile(r"(?i)\b(?:" + "|".join(rf"{w}\s+to(?:\s+\w+)?" if w == "used" else w for w in _PAST_WORDS)
                   + r")\s*(?:about|around|~|only|just)?\s*$")
_NOW = re.compile(rf"(?i)\b{_NOW_WORD}\b")


def placed_in_time(words: str) -> bool:
    """Do the words before a number set it in the past ("was", "used to take") or now, as
    side_claims reads a side from them? The gate (claims.prescan) asks the same."""
    return _PAST.search(words) is not None or _NOW.search(words) is not None
_NOW_LEAD = re.compile(rf"(?i)^\s*(?:and\s+|but\s+)?(?:(?:it\s+)?(?:is|are)\s+)?{_NOW_WORD}\b")  # "and is now 640 us"

# Words a number's side is read from, below zero and above (claims.lexicon.signed_words, with
# _PAST's and _NOW's words): every phrase side_claims scores is cut from its sentence where no
# letter follows, and `cue` reads a word where none follows in the phrase, so a sentence
# without a word of each sign (the search asks no boundary before a word: a phrase may start
# inside one, after a number glued to it) has no pair. `cue` reads a label's first
# _CUE_SPAN characters (a word cut there may end inside a longer one), and only ASCII text
# lower-cases to the letters `cue` reads: other sentences are read whole.
_CUE_SPAN = 200
_SIDED_BELOW = signed_words(-1, frozenset(_PAST_WORDS), r"|w/o|-next|next-\d|un-?(?:patched|modified|optimi[sz]ed)|non-")
_SIDED_ABOVE = signed_words(1, frozenset({_NOW_WORD}), r"|w/|\+[a-z]|#\d|\d/\d")


def _sided(sentence: str) -> bool:
    """Whether `sentence` may give side_claims a pair (see above)."""
    if len(sentence) > _CUE_SPAN or not sentence.isascii():
        return True
    low = sentence.lower()
    return _SIDED_BELOW.search(low) is not None and _SIDED_ABOVE.search(low) is not None

# a word a number after it names ("patch 2", "v3", "CPU 5", "#4"), not a measurement
_NAMED_BY = re.compile(r"(?i)(?:\b(?:patch(?:es)?|commit|version|rev(?:ision)?|series|part|step|case|bug|"
                       r"issue|number|no\.|cpus?|cores?|nodes?|queues?|ports?|vcpus?|v)|#)\s*$")
# The last character of a _NAMED_BY match before its trailing blanks: each word's last
# letter in either case ("ſ" is an "s" to the case-blind match), "." of "no." and "#".
_NAMED_BY_LAST = frozenset("hstnvpegru" "HSTNVPEGRU" "ſ.#")
_WORD_NOTE = re.compile(r"\(([A-Za-z][\w +/-]{0,40})\)")


def unwrap_side_notes(text: str) -> str:
    """`text` with each note of words in parentheses ("(baseline)") read as its words, as
    side_claims reads a side named so; the gate (claims.prescan) reads them the same way."""
    return _WORD_NOTE.sub(lambda m: " " + m.group(1) + " ", text)


def _named_by(before: str) -> bool:
    """`_NAMED_BY.search(before)`: its search, tried at each place of the text, runs only
    when the text's last character past its blanks can end a match (one text in eight)."""
    return before.rstrip()[-1:] in _NAMED_BY_LAST and _NAMED_BY.search(before) is not None


def _unit_word(word: str) -> str:
    return word.strip(".,;:()")


PAST_SIDE = -0.5
NOW_SIDE = 0.6
_NAMES_CHANGE = re.compile(r"(?i)\b(?:patch\w*|series|fix(?:es)?|changes?|commit)\b")
# a side named by a word the lexicon scores only as a whole phrase's head ("on net-next")
_LEAD_SIDE = re.compile(r"(?i)^(?:on|in|for)$")


_FULL_STOP = re.compile(r"(?<=[.!?])\s+(?=\S)")


def _sentences(text: str, end: re.Pattern[str] | None = None) -> list[tuple[str, int]]:
    """The sentences of a text with their offsets ("1.5 Mpps." ends one; "1.5" does not)."""
    if _ends_none(text, end):
        return [(text, 0)]  # the split's look-behind would be tried at every blank in vain
    out, pos = [], 0
    for piece in (end or _SENTENCE_END).split(text):
        start = text.find(piece, pos)
        pos = start + len(piece)
        out.append((piece, start))
    return out


def _ends_none(text: str, end: re.Pattern[str] | None) -> bool:
    """Whether `text` lacks each mark a sentence ends at after (`_FULL_STOP`'s ".!?", and
    the ";" of `_SENTENCE_END`), so that it is one sentence: about half the texts read."""
    if "." in text or "!" in text or "?" in text:
        return False
    return end is _FULL_STOP or (end is None or end is _SENTENCE_END) and ";" not in text


_PREPOSITION = re.compile(r"(?i)(?:in|on|for|with|at|across|over|when|compared)\b")
_NEXT_CLAUSE = re.compile(r"(?i)(?:while|whereas|but|and|though|although)\b")  # "improved 2.5x while the tail ..."
_STOP_WORDS = frozenset({"with", "when", "and", "at", "on", "in", "for", "by", "compared", "the", "a", "is", "are",
                         "was", "were", "be", "been", "during", "using", "while", "if", "than", "over", "but",
                         "after", "before", "without", "since", "versus", "vs", "vs.", "relative", "here", "there",
                         "now", "as", "to", "from", "of", "or", "due", "because"})
# (not an adverbial phrase: "faster on average", "better in most cases", "in the worst case")
_WHAT_AFTER = re.compile(r"(?i)^\S+\s+(?:in|for|of|on)\s+(?:the\s+)?"
                         r"(?!(?:average|whole|balance|most|all|each|every|both|worst|best|general|practice)\b)"
                         r"(?P<what>(?:[\w/.-]+\s?){1,3})")


def _relative_metric(text: str, t: Token, after: str) -> str:
    """What a stated change is about: "a 5% improvement in TCP_RR" -> "TCP_RR",
    "throughput increased by 8.5%" -> "throughput", "12% more throughput" -> "more throughput",
    "reduces the p99 latencies in our tests by 60x" -> "p99 latencies" (the verb's object)."""
    obj = _object_before_by(text, t.start)
    if obj:
        return obj
    if t.text.endswith((",", ";")) or text[t.end:t.end + 1] in (",", ";"):
        after = ""  # "by 12x, and reduced inflation time": the words after the comma are another clause's
    noun = _change_noun_within(after)
    if noun is not None:  # "a 30% compile speed improvement": the words before the noun
        return after.split(noun, 1)[0]
    if not _CHANGE_AFTER.match(after):
        named = _metric_before(text, t.start)
        # "a reduction in execution time (3.7 %) and fewer": the measure named before it
        measured = bool(named.split()) and _MEASURE.match(named.split()[-1]) is not None
        # "-0.5% (noise)": an aside after it says how it stands, not what it is of
        return named if measured or _PREPOSITION.match(after) or not after.strip() or after.startswith("(") else after
    first = after.split()[0].strip(" .,;:()") if after.split() else ""
    if _MEASURE.match(first):  # "a 10% throughput improvement"
        return first
    rest = re.sub(r"^\s*(?:%|percent|per\s+cent)", "", text[t.end:t.end + 80]).strip()
    m = _WHAT_AFTER.match(rest) or _COMPARED.match(rest)
    if m:
        what = _noun_phrase(m.group("what").split())
        if what:
            return what
    return _metric_before(text, t.start, subject_verb=True)


# "7x higher memory per VQ", "12% more throughput", "10x faster balloon inflation": the
# comparative's noun is the measure
_COMPARED = re.compile(r"(?i)^(?:higher|lower|more|less|fewer|faster|slower|quicker|better|worse)\s+"
                       r"(?P<what>(?:[A-Za-z][\w/.-]*\s?){1,4})")
# "reduces the 99.9th percentile latencies in our tests by": the verb, its object, "by"
_VERB_OBJECT_BY = re.compile(r"(?i)\b(?:improv|increas|boost|reduc|decreas|lower|rais|cut|shrink|speed\w*\s+up|"
                             r"slow\w*\s+down|degrad|regress)\w*(?:\s+(?:up|down|out))?\s+(?P<what>(?:[\w/.%-]+\s+){1,8}?)by\s+"
                             r"(?:(?:about|around|roughly|nearly|almost|approximately|~|up\s+to|over|only|just)\s+)*~?$")
_DETERMINERS = frozenset({"the", "a", "an", "our", "its", "their", "this", "that", "these", "those", "my", "your",
                          "his", "her", "overall", "total"})


def _object_before_by(text: str, pos: int) -> str:
    """The object of "<verb> X by N": the words between the verb and "by", up to the first
    preposition ("reduced inflation time by 8.6x" -> "inflation time"); "" when the verb
    has none ("throughput increased by 8.5%": the subject is named before it)."""
    m = _VERB_OBJECT_BY.search(text[max(0, pos - 120):pos])
    if m is None:
        return ""
    ws = [w for w in m.group("what").split()]
    while ws and ws[0].lower() in _DETERMINERS:
        ws.pop(0)
    if not ws or ws[0].lower() in _STOP_WORDS or ws[0].lower() in ("it", "them", "this", "things", "that"):
        return ""
    return _noun_phrase(ws)


def _noun_phrase(words: list[str]) -> str:
    """The leading words up to a preposition, a verb of being or a sentence's end:
    "TX PPS. TCP_STREAM doesn't" -> "TX PPS", "PPS were seen" -> "PPS"."""
    out: list[str] = []
    for w in words:
        if w.lower().strip(".,;:()") in _STOP_WORDS:
            break
        out.append(w)
        if w.endswith((".", ",", ";", ":", ")")):
            break
    return " ".join(out).strip(" .,;:()")


_FILLER = frozenset(
    "a an the about around roughly almost nearly only just we i it you they can could see saw get "
    "got shows show showed result results test tests testing is are was were be been has have had "
    "also still that this these those there here to of in on at by for from with and or but so "
    "up down less more than which while when brought bring gives give makes make "
    "improves improved increases increased reduces reduced drops dropped boosts boosted "
    "goes went some any most much many several".split())


_ORDINAL = re.compile(r"(?i)p\d{2,3}(?:\.\d+)?|\d{2,3}(?:\.\d+)?(?:th|st|nd|rd)")  # "p99", "99.9th" name a measure


def _tidy_metric(name: str | None) -> str:
    """A stated change's subject without the sentence around it: "Test result shows about"
    -> "change", "| 8.2Mpps (+17%" -> "change", "TX PPS" stays."""
    words = [w.strip(" .,;:()[]|") for w in (name or "").split()]
    words = [w for w in words if w and (not any(ch.isdigit() for ch in w) or _ORDINAL.fullmatch(w)) and "%" not in w]
    while words and words[0].lower() in _FILLER:
        words.pop(0)
    while words and words[-1].lower() in _FILLER:
        words.pop()
    if not words or all(w.lower() in _FILLER for w in words):
        return "change"
    return " ".join(words)


def _words_before(text: str, pos: int) -> str:
    """The last few words before `pos` in its own sentence ("run fio 5 times. It shows
    about 2%": the count of runs is not what the change is of)."""
    near = text[max(0, pos - 80):pos]
    near = _FULL_STOP.split(near)[-1]
    near = _ITEM_END.split(near)[-1]  # "TCP_STREAM: +3.2%, TCP_RR: -1.1%": the item before ends at its number
    # "a nice improvement: ops/s went from": a clause of its own, with its own verb (not
    # "rx_pps: base=1.23M", whose label names the values)
    clause = _CLAUSE_COLON.split(near)[-1]
    if clause != near and (_STRONG_VERB.search(clause) or _CHANGE_VERB.search(clause)):
        near = clause
    words = re.findall(r"(?<![\w.'’-])[A-Za-z][\w./%-]*", near)  # (an option's letters, "-t 64", are none)
    k = max(len(words) - 4, 0)
    of = next((j for j in (k, k - 1) if j > 0 and words[j].lower() == "of"), None)
    if of is not None:
        k = max(of - 2, 0)  # "(the memory footprint) of the slab drops": the words "of" hangs on
    return " ".join(words[k:])


_ITEM_END = re.compile(r"(?<=\d)%?[,;]\s")
_CLAUSE_COLON = re.compile(r"(?<=[A-Za-z]):\s")
# a noun a change verb's stem makes ("improvement", "reduction"): no verb of a sentence
_NOUN_END = re.compile(r"(?i)(?:ments?|tions?)$")


_AUXILIARIES = frozenset({"is", "are", "was", "were", "be", "been", "being", "has", "have", "had", "gets", "got",
                          "will", "would", "can", "could"})
_HEDGES = frozenset({"about", "around", "roughly", "nearly", "almost", "approximately", "approx",
                     "approx.", "~", "some", "over", "up", "to", "just", "only", "an", "a"})


_FOLD = re.compile(r"(?i)^~?(?P<n>\d+(?:\.\d+)?)-?fold\b")
_SIDE_WORD = re.compile(r"(?i)^(?:worse|better)\b")
_LOWER_BETTER = re.compile(r"(?i)\b(?:latenc\w*|time|times|delay|rtt|jitter|cycles|cpu|overhead|usage|load)\b")


def _direction(after: str) -> str | None:
    """The change word among the few words after a number ("6% throughput drop": drop),
    read as "up" or "down"; None when none of them is one."""
    for w in after.split()[:3]:
        w = w.strip(" .,;:()")
        if _NEGATIVE.match(w):
            return "down"
        if _CHANGE_AFTER.match(w) and not _MEASURE.match(w) and w.lower() not in ("more", "less", "performance",
                                                                                  "perf", "rate", "pps"):
            return "up"
    return None


# "%-22s", "%5d": a printf conversion read as a signed percentage
_PRINTF = re.compile(r"%[-+ #0]*\d+(?:\.\d+)?[A-Za-z]")
# "goes 100% cpu": a verb of motion without "up"/"down" reaches a level, it states no change
_REACHES = re.compile(r"(?i)went|goes|gone")
_CALL_TREE = re.compile(r"^[\s|`]*[-+]\s*\d{1,3}\.\d{2}%(?:\s+[A-Za-z_.][\w.\[\]<>@:+-]*)?\s*$")


# Every match of _TIMES_HINT is a number's "x" (_TIMES_X) or the word "times" (_TIMES_WORD),
# and of FACTOR_HINT in ASCII text (where lower-casing is what `(?i)` folds) one of
# _FACTOR_MARKS over the lower case: "of" and a number, or a stem of halve/double/triple, or
# "half".  Each is looked for apart, from its own letters: the one pattern is tried at
# every position of the text.
_TIMES_X = re.compile(r"\d\s?[x×X]\b")
_TIMES_WORD = re.compile(r"\btimes\b")
_FACTOR_MARKS = re.compile(r"of\s+(?:about\s+|~|roughly\s+)?\d|halv|doubl|tripl|half")


def _factor_hint(text: str, low: str) -> bool:
    """Whether `text` may state a change as a factor ("2x faster", "a factor of 3",
    "halves the latency"), `low` being its lower case."""
    if "times" in text and _TIMES_WORD.search(text) is not None:
        return True
    if ("x" in low or "×" in text) and _TIMES_X.search(text) is not None:
        return True
    if text.isascii() and _FACTOR_MARKS.search(low) is None:
        return False
    return FACTOR_HINT.search(text) is not None


def relative_claims(ln: Line | Passage, prev: Line | None = None) -> list[Claim]:
    """Changes stated alone: "+44.8%", "improves by 12%", "a 5-10% boost", "2x faster",
    "22 % increase", "a 40-fold drop", "2% worse" (worse latency is up, worse throughput
    down); a sentence wrapped from the line before lends its verb ("a decrease of /
    softirq time by up to 45%")."""
    text = _template_text(ln)
    low = text.lower()
    if "%" not in text and "percent" not in low and "fold" not in low and not _factor_hint(text, low):
        return []
    if _CALL_TREE.match(text):
        return []  # "+ 5.41% secondary_startup_64", "- 66.51%": a node of a perf call graph
    toks = tokenize(text)
    lead = (prev.text[-120:] + " ") if prev is not None and prev.depth == ln.depth else ""
    out: list[Claim] = []
    said: dict[int, list[tuple[str, float, bool]]] = {}  # the changes read at each token (name, %, merit)
    for i, t in enumerate(toks):
        if t.kind not in ("value", "range") and "%" not in t.text and _FOLD.match(t.text) is None:
            continue  # a word (or spread) that is no percentage, range or "40-fold" states no change
        pct: float | None = t.value if t.kind == "value" and t.percent else None
        signed = t.signed
        nxt = toks[i + 1].text.lower().rstrip(".,;:)") if i + 1 < len(toks) else ""
        skip = 1
        if t.kind == "value" and t.percent and nxt == "%":
            skip = 2  # "22 %": the number reader took the sign already
            signed = signed or (i > 0 and toks[i - 1].text in ("+", "-"))
        elif t.kind == "value" and not t.percent and t.value is not None and nxt in ("%", "percent", "per") \
                and t.text[-1:] not in ")],;":  # "(n - 1) % N" is code: a bracket parts number and "%"
            pct, skip = t.value, 2  # "22 % increase", "~1.5 percent lower"
            if nxt == "per" and i + 2 < len(toks) and toks[i + 2].text.lower().startswith("cent"):
                skip = 3
            signed = signed or (i > 0 and toks[i - 1].text in ("+", "-"))
            if i > 0 and toks[i - 1].text == "-":
                pct = -pct
        if pct is not None and not signed and i > 0 and toks[i - 1].text in ("+", "-") \
                and t.start - toks[i - 1].end <= 1:
            signed, pct = True, (-pct if toks[i - 1].text == "-" else pct)  # "+ 7%": a sign set apart
        after = " ".join(x.text for x in toks[i + skip:i + skip + 3])
        k = i - 1  # "improves by about 8%": the word before the hedge decides
        while k > 0 and toks[k].text.lower() in _HEDGES:
            k -= 1
        before = toks[k].text.lower() if i and k >= 0 else ""
        if before in ("+-", "±", "+/-") or t.percent and _PRINTF.search(t.text):
            continue  # a spread; "%-22s" is a printf conversion, not a percentage
        # "regressions (5%-10%)": a range of percentages, each with its sign, is one token
        ranged = t.kind == "range" or t.kind == "word" and "%" in t.text and _RANGE_PCT.match(
            t.text.strip("(),.;:~")) is not None
        if (t.kind == "value" or ranged) and (_BOUND_BEFORE.search(text[max(0, t.start - 40):t.start])
                                             or t.text.lstrip("(~").startswith(("<", ">", "≤", "≥"))):
            continue  # "less than 1%", "<~ 1%": a bound, not a measured change
        if (t.kind == "value" and not signed or ranged) and _LEVEL_BEFORE.search(text[max(0, t.start - 40):t.start]):
            continue  # "QPS increase to ~200%", "slows down to 10-20%": a level, whose base is unsaid
        if (t.kind == "value" or ranged) and _unasserted(text, t.start, t.end):
            continue  # "Is the overhead 5% or more?", "If it is 10% faster then ..."
        if t.percent and (after.split()[:1] and after.split()[0] in _ARROWS
                          or i > 0 and toks[i - 1].text.strip("(") in _ARROWS):
            continue  # "(42% -> 35%)": a level on one side of a pair, not a change
        behind = (lead if t.start < 80 else "") + text[max(0, t.start - 80):t.start]
        vals: list[float] = []
        fold = _FOLD.match(t.text) if t.kind != "value" or "fold" in t.text.lower() else None
        if fold is None and t.kind == "value" and t.value and nxt in ("fold", "-fold"):
            fold, after = _FOLD.match(f"{t.value}fold"), " ".join(x.text for x in toks[i + 2:i + 5])
        # "drop by about 4% to 5%": the range's upper end, of the measure and the sign its lower
        # end has; "by 5% on average and up to 20%": a second size of that change
        again = (i - 2 if i >= 2 and toks[i - 1].text.lower() == "to" and said.get(i - 2)
                 else _said_just_before(said, toks, i, k)) if pct is not None and not signed else None
        if pct is not None and again is not None:
            said[i] = [(name, math.copysign(pct, value), merit) for name, value, merit in said[again]]
            at = _line_at(ln, t.start)
            out.extend(Claim(metric=name, unit="%", claimed_change_pct=value, lines=(at, at), depth=ln.depth,
                             author=ln.author, message_id=ln.message_id, merit=merit)
                       for name, value, merit in said[i])
            continue
        if ranged:
            m = _RANGE_PCT.match(t.text.strip("(),.;:~"))
            verb = _CHANGE_VERB.search(text[max(0, t.start - 200):t.start])
            if m and (_CHANGE_AFTER.match(after) or verb):
                # "a 1-2% regression", "drops by 5-10%": the change word gives the sign
                down = _direction(after) == "down" if _CHANGE_AFTER.match(after) \
                    else verb is not None and _NEGATIVE.match(verb.group(0).split()[-1]) is not None
                vals = [-float(m.group(g)) if down else float(m.group(g)) for g in ("a", "b")]
        elif fold is not None:
            n = float(fold.group("n"))
            d = _direction(after) or _direction(text[t.end:t.end + 40])
            if n > 1 and d is not None:  # "a 40-fold drop" is 1/40 of before
                vals = [round((1.0 / n - 1.0) * 100.0, 4) if d == "down" else round((n - 1.0) * 100.0, 4)]
        elif pct is not None:
            if signed:
                vals = [pct]
            elif _SIDE_WORD.match(after):  # "2% worse": worse, which _each_measure signs for the measure
                vals = [-pct if after.lower().startswith("worse") else pct]
            elif _CHANGE_AFTER.match(after) and not after.lower().startswith(("more", "less", "fewer", "of")) \
                    and not t.text.endswith((",", ";")):  # "a cpu 100%, pps ...": clause ends
                vals = [-pct if _direction(after) == "down" else pct]
            elif _STRONG_VERB.fullmatch(before) and not _REACHES.fullmatch(before):
                vals = [-pct if _NEGATIVE.match(before) else pct]
            elif i > 1 and toks[i - 1].text.lower() in ("up", "down") and (
                    _BEING.match(toks[i - 2].text) or _MEASURE.match(toks[i - 2].text)):
                # "throughput is up 12% and latency down 8%"
                vals = [-pct if toks[i - 1].text.lower() == "down" else pct]
            elif (noun := _change_noun_within(after)) is not None:
                vals = [-pct if _NEGATIVE.match(noun) else pct]  # "a 30% compile speed improvement"
            elif _MORE_PERF.match(after) or (more := _MORE_WHAT.match(after)) is not None \
                    and better_for(more.group("what"), None) is not None:  # "25% fewer cache misses"
                vals = [-pct if _NEGATIVE.match(after) else pct]
            elif before in ("by", "to", "of") and _CHANGE_VERB.search(behind):
                # the change word nearest the number: "an improvement, with a reduction of ... of 3.7%"
                word = _last_change_word(behind)
                vals = [-pct if word is not None and _NEGATIVE.match(word) else pct]
            elif (t.text.startswith("(") or toks[k].text.startswith("(")) \
                    and (word := _last_change_word(behind[-60:])) is not None:
                # "a reduction in execution time (3.7 %)", "an improvement (approximately 3%)"
                vals = [-pct if _NEGATIVE.match(word) else pct]
            elif (noun_is := _NOUN_IS.search(behind[-60:])) is not None:
                # "the throughput regression is about 4 percent": the change named, then its size
                vals = [-pct if _NEGATIVE.match(noun_is.group("noun")) else pct]
            elif _OF_BEFORE.match(text[t.end:t.end + 40]) or nxt in ("%", "percent") and _OF_BEFORE.match(
                    text[toks[i + 1].end:toks[i + 1].end + 40]):
                # "latency is now 70% of what it was", "throughput is 112% of baseline"
                vals = [round(pct - 100.0, 4)] if 0 < pct < 1000 and pct != 100 else []
        elif t.kind == "value" and t.unit in _FACTOR_UNITS and t.value and t.value > 1 and (
                _TIMES.match(after) or _NEGATIVE.match(after) or _WORSE.match(after)
                or before == "by" and _STRONG_VERB.search(text[max(0, t.start - 80):t.start])
                or _STRONG_VERB.fullmatch(before) and (not after.strip() or _PREPOSITION.match(after)
                                                       or t.text.endswith((",", ";")) or _NEXT_CLAUSE.match(after))
                and _PERF_WORD.search(_FULL_STOP.split(behind)[-1]) is not None) \
                and _measured(after, _FULL_STOP.split(behind)[-1]):
            # "reduces the tail latency by 60x" leaves 1/60 of it; "2x faster" doubles
            strong = _STRONG_VERB.search(text[max(0, t.start - 80):t.start]) if before == "by" else (
                _STRONG_VERB.fullmatch(before))  # "latency increased 3x."
            down = _NEGATIVE.match(after) is not None or _WORSE.match(after) is not None or (
                strong is not None and (_NEGATIVE.match(strong.group(0)) is not None
                                        or before == "by" and _DOWN.search(behind[-40:]) is not None))
            vals = [round((1.0 / t.value - 1.0) * 100.0, 4) if down else round((t.value - 1.0) * 100.0, 4)]
        elif t.kind == "value" and t.unit is None and t.value and t.value > 1 and _BY_FACTOR.search(behind[-30:]) \
                and (strong := _STRONG_VERB.search(behind[-80:])) is not None:
            # "went up by a factor of 2", "reduced by a factor of 4": the verb gives the side
            down = _NEGATIVE.match(strong.group(0)) is not None or _DOWN.search(behind[-40:]) is not None
            vals = [round((1.0 / t.value - 1.0) * 100.0, 4) if down else round((t.value - 1.0) * 100.0, 4)]
        elif t.kind == "value" and t.value and after.lower().startswith("times ") and _TIMES.match(after[6:]):
            vals = [round((t.value - 1.0) * 100.0, 4)]
        elif t.kind == "value" and t.value and t.value > 1 and _TIMES_OF.match(after) \
                and any(_MEASURE.match(w) for w in re.findall(r"[A-Za-z]+", _FULL_STOP.split(behind)[-1])):
            vals = [round((t.value - 1.0) * 100.0, 4)]  # "the throughput ... is 6 times that of ..."
        elif t.kind == "value" and t.unit in _FACTOR_UNITS and t.value and t.value > 1 \
                and (of := _FACTOR_THE_OF.match(after)) is not None and _MEASURE.match(of.group("what")):
            vals = [round((t.value - 1.0) * 100.0, 4)]  # "achieves 1.21x the throughput of the baseline"
        elif t.kind == "value" and t.unit in _FACTOR_UNITS and t.value and t.value > 1 \
                and (noun_is := _NOUN_IS.search(behind[-60:])) is not None and not _NEGATIVE.match(noun_is.group("noun")):
            vals = [round((t.value - 1.0) * 100.0, 4)]  # "The speedup is about 1.8x": a factor its noun names
        elif t.kind == "value" and t.unit is None and t.value and 1 < t.value < 10 and "." in t.text \
                and _FACTOR_OF.search(behind[-40:]) and not (after.split()[:1] and is_unit(after.split()[0])):
            vals = [round((t.value - 1.0) * 100.0, 4)]  # "an increase of 1.8, almost doubling"
        if _of_the_runs(after):
            continue  # "10% of the runs were discarded": a share of the measurement, no change
        at = _line_at(ln, t.start)
        # "10% to 15% better throughput": the range's lower end, which its own words left unsaid
        lower_end = toks[i - 2] if pct is not None and not signed and len(vals) == 1 and i >= 2 \
            and toks[i - 1].text.lower() == "to" and toks[i - 2].kind == "value" and toks[i - 2].percent \
            and not toks[i - 2].signed and toks[i - 2].value and not said.get(i - 2) else None
        for v in vals:
            metric = _tidy_metric(_relative_metric(text, t, after))
            if _SETTING_NAME.search(metric):
                continue  # "Ring size: 256 -> 1024 (+300%)": a setting changed, no measure
            for name, value, merit in _each_measure(metric, v, behind, after, factor=pct is None and not ranged):
                if lower_end is not None and lower_end.value is not None:
                    out.append(Claim(metric=name, unit="%", claimed_change_pct=math.copysign(lower_end.value, value),
                                     lines=(at, at), depth=ln.depth, author=ln.author,
                                     message_id=ln.message_id, merit=merit))
                said.setdefault(i, []).append((name, value, merit))
                out.append(Claim(metric=name, unit="%", claimed_change_pct=value,
                                 lines=(at, at), depth=ln.depth, author=ln.author,
                                 message_id=ln.message_id, merit=merit))
    return out or _worded_magnitudes(ln, text)


SAID_AGAIN_WITHIN = 8  # tokens: "by 5% on average and up to 20%"


def _said_just_before(said: dict[int, list[tuple[str, float, bool]]], toks: Sequence[Token], i: int, k: int) -> int | None:
    """The token of the change said just before the percentage at toks[i], when this one
    is a hedged second size of it ("improves by 5% on average and up to 20%", "4.3% faster
    on average, up to 11% on the worst case"): after "and", "or" or a comma, then a hedge
    (toks[k] is the word before the hedge), in the same sentence, a few tokens on."""
    if k >= i - 1 or k < 0:
        return None  # no hedge between: "5% and 20%" may be two measures' changes
    before = toks[k].text.lower()
    if before not in ("and", "or") and not before.endswith(","):
        return None
    prior = max((j for j in said if i - SAID_AGAIN_WITHIN <= j < k), default=None)
    if prior is None or any(toks[j].text.endswith((".", "!", "?", ";")) for j in range(prior, k)):
        return None
    return prior


def _of_the_runs(after: str) -> bool:
    """The words after a percentage make it a share of the runs ("of the runs", "of all
    iterations"): how the measurement was taken, not what it found."""
    words = [w.strip("(),.;:").lower() for w in after.split()]
    if not words or words[0] != "of":
        return False
    rest = [w for w in words[1:] if w not in ("the", "all", "our", "these")]
    return bool(rest) and RUNS_NAME.match(rest[0]) is not None


# "halves the latency", "throughput doubled", "cut the boot time in half": a change whose
# size is a word; the verb's factor, and the measure it is of named beside it
_MAGNITUDE_WORD = re.compile(
    r"(?i)\b(?:(?P<half>halv(?:es|ed))|(?P<double>doubl(?:es|ed))|(?P<triple>tripl(?:es|ed))"
    r"|(?P<cut>cuts|dropped|drops|reduc(?:ed|es)|decreas(?:ed|es)|fell|went\s+down|shr(?:ank|unk|inks))"
    r"(?:\s+(?:[\w/-]+\s+){0,4}?)\s*(?:by\s+|in\s+)half)\b")
_MAGNITUDES_OF = {"half": -50.0, "cut": -50.0, "double": 100.0, "triple": 200.0}


def _measure_word(word: str) -> bool:
    """A word that names a measure: a measure's own word, or events counted ("IPIs")."""
    return _MEASURE.match(word) is not None or names_events(word)


def _worded_magnitudes(ln: Line | Passage, text: str) -> list[Claim]:
    """Changes sized by a word ("This halves the latency", "Throughput doubled"): only of a
    measure named as the verb's subject or object in its clause, and only as a report (not
    "would double", "if it halves")."""
    out: list[Claim] = []
    for m in _MAGNITUDE_WORD.finditer(text):
        kind = next(k for k in _MAGNITUDES_OF if m.group(k))
        lo = max(0, m.start() - 60)
        clause_before = re.split(r"[,;:()]|[.!?]\s", text[lo:m.start()])[-1]
        obj = re.split(r"[,;:()]|[.!?]\s", text[m.end():m.end() + 40])[0]
        obj_words = [w for w in re.findall(r"[A-Za-z][\w/-]*", obj)[:4]  # "halves the number of IPIs": IPIs
                     if w.lower() not in _DETERMINERS and w.lower() not in ("number", "count", "of")]
        subj_words = re.findall(r"[A-Za-z][\w/-]*", clause_before)[-5:]
        measure = next((w for w in obj_words[:2] if _measure_word(w)), None) if kind != "cut" or not m.group(
            "cut").lower().startswith(("cut",)) else None
        measure = measure or next((w for w in reversed(subj_words) if _measure_word(w)), None)
        if kind == "cut" and measure is None:
            inner = re.findall(r"[A-Za-z][\w/-]*", m.group(0))
            measure = next((w for w in inner if _measure_word(w)), None)
        if measure is None or measure.lower() == "time" and re.search(r"(?i)\b(?:the|a)\s+time\b", m.group(0) + obj) \
                or _unasserted(text, m.start(), m.end()) \
                or _NOT_MEASURED.search(clause_before) is not None:
            continue
        at = _line_at(ln, m.start())
        out.append(Claim(metric=measure.lower(), unit="%", claimed_change_pct=_MAGNITUDES_OF[kind],
                         lines=(at, at), depth=ln.depth, author=ln.author, message_id=ln.message_id))
    return out


_NOUN_IS = re.compile(r"(?i)\b(?P<noun>improvement|gain|speed-?up|boost|uplift|regression|degradation|slowdown|"
                      r"reduction)s?\s+(?:is|was|are|were)\s+(?:(?:about|around|roughly|nearly|almost|"
                      r"approximately|only|just|~|up\s+to)\s+)*~?$")
_OF_BEFORE = re.compile(r"(?i)^\s*of\s+(?:what\s+it\s+was|(?:the\s+)?(?:baseline|unpatched)\b|before\b)")
_BEING = re.compile(r"(?i)^(?:is|are|was|were|be|been|went|goes|go|gone)$")
_BOUND_BEFORE = re.compile(r"(?i)(?:\b(?:less|lower|smaller|fewer|no\s+more|not\s+more|more|greater|higher|larger)"
                           r"\s+than|\bbelow|\bunder|\bbeneath|\bwithin|\babove|\bexceed\w*|[<>≤≥]=?~?)"
                           r"\s*(?:~|about\s+|around\s+|roughly\s+|approx\w*\.?\s+)?$")
_LEVEL_BEFORE = re.compile(r"(?i)\b(?:increas\w*|decreas\w*|reduc\w*|dropp?\w*|improv(?:e|es|ed|ing)|rais\w*|ris\w*|rose|"
                           r"fell|fall\w*|went|go(?:es)?|gone|cut|lower\w*|grow\w*|grew|jump\w*|climb\w*|shr[iu]nk\w*)"
                           r"\s+to\s+(?:~|about\s+|around\s+|roughly\s+|approx\w*\.?\s+)?$")
_UNASSERTED = re.compile(r"(?i)\b(?:if|whether|unless|hope\w*|expect\w*|would|might|wonder\w*|guess)\b")


def _unasserted(text: str, start: int, end: int) -> bool:
    """A change asked about or supposed, not reported: its sentence is a question, or its
    clause (since the last comma) opens with a condition or a wish."""
    lo, hi = _sentence_around(text, start, end)
    if text[lo:hi].rstrip().endswith("?"):
        return True
    clause = re.split(r"[,;:(]\s", text[lo:start])[-1]
    return _UNASSERTED.search(clause) is not None


_CHANGE_NOUN_WORD = re.compile(r"(?i)^(?:improv\w*|boost|increase|gain|speed-?up|uplift|reduction|decrease|"
                               r"regression|degradation|slowdown)$")


def _change_noun_within(after: str) -> str | None:
    """A change noun that one or two plain words (the measure) part from the number:
    "30% compile speed improvement" -> "improvement"; None past a stop word or a number."""
    ws = [w.strip(".,;:()") for w in after.split()[:3]]
    for k, w in enumerate(ws):
        if _CHANGE_NOUN_WORD.match(w):
            return w if k > 0 else None
        if not re.fullmatch(r"[A-Za-z][\w/-]*", w) or w.lower() in _STOP_WORDS or w.lower() in _FILLER:
            return None
    return None


def _measured(after: str, behind: str) -> bool:
    """A bare comparative ("16x less", "7x higher") states a change only of a measure: one
    it names after it ("7x higher memory per VQ") or one the clause names before it ("the
    latency is 3x lower"); "we are paying remote 16x less (128 credits ...)" names none."""
    if not re.match(r"(?i)(?:higher|lower|more|less|fewer)\b", after):
        return True
    m = _COMPARED.match(after)
    if m and _noun_phrase(m.group("what").split()):
        return True
    return _PERF_WORD.search(behind) is not None or any(_MEASURE.match(w) for w in re.findall(r"[A-Za-z]+", behind))


_FACTOR_THE_OF = re.compile(r"(?i)^the\s+(?P<what>[\w-]+)\s+of\b")
_TIMES_OF = re.compile(r"(?i)^times\s+(?:that|those|the\s+\w+)\s+of\b|^times\s+as\s+(?:fast|high|much|many|quick)\b")
_BY_FACTOR = re.compile(r"(?i)\bby\s+a\s+factor\s+of\s+(?:about\s+|~|roughly\s+)?$")
_FACTOR_OF = re.compile(r"(?i)\b(?:increase|improvement|speed-?up|gain|boost)\s+of\s+(?:about\s+|~)?$")
# a change stated as a factor in words; public: the gate (claims.prescan) looks for it too
FACTOR_HINT = re.compile(r"(?i)\b(?:increase|improvement|speed-?up|gain|boost|a\s+factor)\s+of\s+(?:about\s+|~|roughly\s+)?\d"
                         r"|\b(?:halv|doubl|tripl)(?:e|es|ed|ing)\b|\bby\s+half\b|\bin\s+half\b")
# words that say better or worse, not up or down: signed for the measure (a latency that
# improves or is faster went down, one that regresses or is worse went up)
_EVALUATIVE = re.compile(r"(?i)\b(?:improv\w*|better|worse|boost\w*|gain\w*|speed-?ups?|(?:speeds?|sped)\s+up|win\w*|"
                         r"regress\w*|degrad\w*|faster|slower|slow-?downs?|slows?\s+down)\b")
_AND_MEASURES = re.compile(r"(?i)(?:^|[^\w/-])(?P<a>[\w/-]+(?:\s[\w/-]+)?)\s+and\s+(?P<b>[\w/-]+(?:\s[\w/-]+)?)"
                           r"\s+(?:[a-z]+\s+){1,2}$")


def _last_change_word(text: str) -> str | None:
    found = list(_CHANGE_VERB.finditer(text))
    return found[-1].group(0).split()[-1] if found else None  # "went down": down


def _each_measure(metric: str, value: float, behind: str, after: str,
                  factor: bool = False) -> list[tuple[str, float, bool]]:
    """A stated change once per measure it names, signed as the words mean it for that
    measure: "IOPS and average latency improved about 10%" is +10% IOPS and -10% latency
    (an improved latency went down); a literal "increased" or "reduced" keeps its sign.
    The third of each: the sign is the change's merit (better +, worse -), not its way,
    as words of merit give it for a measure whose direction they do not name
    ("hackbench regresses by 5%": a time that rose, or a rate that fell). A `factor` of
    merit turned into a way inverts its ratio ("latency improved 2x" halves it: -50%),
    where a percentage's sign is turned ("latency improves by 20%": -20%)."""
    m = _AND_MEASURES.search(behind[-80:])
    names = [m.group("a"), m.group("b")] if m and all(_MEASURE.match(x.split()[-1]) for x in (
        m.group("a"), m.group("b"))) else [metric]
    near = behind[-60:] + " " + after
    evaluative = _EVALUATIVE.search(near) is not None and _STRONG_LITERAL.search(near) is None
    out = []
    for n in names:
        measure = _FACTOR_WORDS.sub("", n)  # "1.55 times faster": a factor's words, no run time
        way = "lower" if _LOWER_BETTER.search(measure) else better_for(measure, None) if measure else None
        if evaluative and way == "lower":
            value = round(as_way(value, way, factor), 2)  # (of a rounded ratio)
        out.append((n, value, evaluative and way is None))
    return out


_FACTOR_UNITS = frozenset({"x", "X", "×"})
_FACTOR_WORDS = re.compile(r"(?i)^times\b\s*")
_STRONG_LITERAL = re.compile(r"(?i)\b(?:increas\w*|decreas\w*|reduc\w*|drop\w*|rais\w*|lower\w*|higher|"
                             r"more|less|fewer|cut\w*)\b")


# "no regression", "no measurable difference", "unchanged", "the same", "within noise"
_NO_CHANGE = re.compile(
    r"(?i)\b(?:no\s+(?:(?:measurable|noticeable|significant|visible|observable|obvious|real|major|big|"
    r"statistically|perf(?:ormance)?|throughput|latency)\s+){0,3}(?:regressions?|differences?|changes?|"
    r"impact|degradation|drops?|loss|slowdown)"
    r"|(?P<same>(?:is|are|was|were|remains?|remained|stays?|stayed|looks?|seems?|basically|essentially|roughly)"
    r"\s+(?:\w+\s+)?(?:unchanged|the\s+same|identical|flat|on\s+par|equivalent))"
    r"|(?:within|in)\s+(?:the\s+)?(?:run-to-run\s+|measurement\s+)?(?:noise|margin\s+of\s+error|error\s+margin)"
    r"|unchanged|same\s+(?:performance|throughput|latency|numbers|results|bandwidth|pps|iops)"
    r"|(?P<saw>(?:did\s*n[o']t|do\s*n[o']t|have\s*n[o']t|could\s*n[o']t|never)\s+(?:see|saw|notice|observe|measure|"
    r"find|detect)\w*\s+(?:any|a)\s+(?:\w+\s+){0,3}?(?:regressions?|differences?|changes?|impact|degradation|"
    r"slowdown)))\b")
# What every match of _NO_CHANGE holds in ASCII text, lower-cased: the change it denies
# ("regression", "difference", "impact"...) or the sameness or noise it states
_NO_CHANGE_WORDS = re.compile(r"regression|difference|change|impact|degradation|drop|loss|slowdown|"
                              r"same|identical|flat|par|equivalent|noise|margin")


def _may_state_no_change(text: str) -> bool:
    """`_NO_CHANGE.search(text)`, its case-free scan of every position run only on a text
    with one of its words (lower-casing is what `(?i)` folds in ASCII text alone)."""
    if text.isascii() and _NO_CHANGE_WORDS.search(text.lower()) is None:
        return False
    return _NO_CHANGE.search(text) is not None


# a doubt, a wish or a condition, not a measurement: "make sure there is no regression"
_NOT_MEASURED = re.compile(r"(?i)\b(?:if|whether|should|would|could|might|may|hope\w*|expect\w*|make\s+sure|"
                           r"ensure|check|verify|want|need|wonder\w*|not|isn't|aren't|wasn't|weren't|"
                           r"didn't|don't|doesn't|without|any|unless|before\s+i|to\s+see)\b|n't\b")
_TEST_WORD = re.compile(r"\b(?:TCP|UDP|SCTP)_[A-Z]{2,8}\b")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=\S)")
_NO_CHANGE_MEASURE = re.compile(r"(?i)\b(?:throughput|latency|bandwidth|pps|iops|performance|perf|tps|qps|rps|"
                                r"cpu\s+(?:usage|utili[sz]ation|load)|transaction\s+rate|packet\s+rate)\b")


def no_change_claims(ln: Line | Passage) -> list[Claim]:
    """Claims of no change: a sentence that names what was measured (a metric, a test
    such as TCP_RR, a benchmark program) and says it stayed as it was ("no measurable
    difference in TCP_RR", "throughput is unchanged", "within noise"); questions, wishes and
    conditions ("make sure there is no regression", "if it's the same") are not claims, and a
    sentence that states numbers of its own is read by the number templates instead."""
    text = ln.text[:MAX_LINE]
    if not _may_state_no_change(text):
        return []
    out: list[Claim] = []
    pos = 0
    for sentence in _SENTENCE_END.split(text):
        start = text.find(sentence, pos)
        pos = start + len(sentence)
        m = _NO_CHANGE.search(sentence)
        numbers = re.findall(r"(?<![\w.])\d[\d,.]*", sentence)
        if m is None or sentence.rstrip().endswith("?") or re.search(r"\d\s?%|\d\s?[x×]\b", sentence) \
                or len(numbers) >= 2 and len({x.rstrip(".,") for x in numbers}) > 1:
            continue  # its numbers say more ("unchanged: 45us before and 45us after" says the same)
        clause = re.split(r"[,;:]\s|\bbut\b", sentence[:m.start()])[-1]
        if _NOT_MEASURED.search(clause) or not m.group("saw") and _NOT_MEASURED.search(sentence[m.start():m.end()]):
            continue
        measure = _NO_CHANGE_MEASURE.search(sentence)
        test = _TEST_WORD.search(sentence)
        program = next((w for w in re.findall(r"[\w./-]+", sentence) if _bench_program(w)), None)
        if measure is None and (test is None and program is None or m.group("same")):
            continue  # "testpmd is the same as Tx": a setup likened, not a measure
        metric = " ".join(x for x in (test.group(0) if test else program,
                                      measure.group(0).lower() if measure else None) if x)
        at = _line_at(ln, start + m.start())
        out.append(Claim(metric=metric, better=better_for(metric, None), no_change=True, lines=(at, at), depth=ln.depth,
                         author=ln.author, message_id=ln.message_id, context=sentence.strip()[:200]))
    return out


def _bench_program(word: str) -> bool:
    name = word.rsplit("/", 1)[-1].strip(".").lower()
    return len(name) > 2 and name in BENCH_PROGRAMS and name not in ("bench", "ping", "ab", "perf")


# Several statements, each naming one variant in its words and giving its numbers:
#   * We start with a baseline of 4208772.571 pps and 269361444.6 bytes/s.
#   * When we add the batching, I see a small performance decrease:
#     4133292.308 and 264530707.7 bytes/s.
#   * However, the buf api outperforms the baseline: 4551319.631pps, 291205178.1 bytes/s
_ITEM = re.compile(r"^\s*(?:[-*•+]\s+|\(?\d{1,2}[.)]\s+|\(?[a-z]\)\s+)")
# the baseline named as what another is measured against ("outperforms the baseline")
_AGAINST = re.compile(r"(?i)\b(?:than|over|outperform\w*|beat\w*|vs\.?|versus|compared\s+(?:to|with)|against|"
                      r"relative\s+to)\s+(?:the\s+|a\s+|our\s+)?[\w-]+")
MAX_STATEMENT_VALUES = 4
STATED_BASELINE = -0.9  # a statement names the baseline when its words score this low


@dataclass
class Statement:
    """One sentence (or list item) of a paragraph: the words before its first number, and
    its measured values (value, unit, offset) in order."""

    head: str
    values: list[tuple[float, str | None, int]]
    passage: Passage
    start: int
    tail: str = ""  # the words after its last value, when they are few

    @property
    def side(self) -> float:
        """The side its head names; a head that names none lets the few words after its
        numbers speak ("34.25% Hitm of the first cache line without this commit")."""
        return _side(self.head) or cue(self.tail).score


MAX_TAIL_WORDS = 15


def _statement(p: Passage, sentence: str, start: int) -> Statement | None:
    if not has_digit(sentence):
        return None  # a statement has a value, and a value a digit: no tokens to read
    toks = [t for t in tokens(sentence) if t.kind in ("value", "spread", "range", "pvalue")]
    vals: list[tuple[float, str | None, int]] = []
    # a percentage is a level ("34.25% Hitm", "reduces to 1.57%") when the sentence states
    # no change: "a 5% gain" is read by the change templates, against a baseline unsaid
    # (read at the first unsigned percentage: most sentences have none)
    levels: bool | None = None
    last = 0
    for t in toks:
        if t.kind != "value" or t.value is None:
            continue
        if t.percent and levels is None and not t.signed:
            levels = "%" in sentence and not relative_claims(Line(sentence, 0))
        if t.percent and (t.signed or not levels):
            continue
        unit = "%" if t.percent else t.unit.rstrip(".,;:)") if t.unit else None
        if unit is not None and (not is_unit(unit) or _SIZE_UNITS.match(unit)):
            return None  # a size or a count in the sentence: a setup, not a measurement
        vals.append((t.value, unit, start + t.start))
        last = t.end
    if not vals or len(vals) > MAX_STATEMENT_VALUES:
        return None
    head = sentence[:vals[0][2] - start]
    tail = sentence[last:]
    return Statement(head=head, values=vals, passage=p, start=start,
                     tail=tail if len(tail.split()) <= MAX_TAIL_WORDS else "")


def _side(head: str) -> float:
    """The side a statement's words put it on; a baseline named as the yardstick ("the buf
    api outperforms the baseline") puts it on the other side."""
    against = _AGAINST.search(head)
    if against is not None and cue(against.group(0)).score < 0:
        return max(cue(head[:against.start()]).score, 0.0) + 0.5
    return cue(head).score


def _paragraphs(lines: Sequence[Line], skip: set[int]) -> list[list[Statement]]:
    """Statements of each paragraph (lines of one depth between blank lines), its list
    items read whole across the lines they wrap over."""
    out: list[list[Statement]] = []
    cur: list[Line] = []

    def flush() -> None:
        items: list[list[Line]] = []
        for ln in cur:
            if not items or _ITEM.match(ln.text):
                items.append([ln])
            else:
                items[-1].append(ln)
        found: list[tuple[Passage, str, int]] = []  # the sentences with a digit
        for item in items:
            if not any(has_digit(ln.text[:MAX_LINE]) for ln in item):
                continue  # the passage's text would have no digit either (see below)
            p = Passage(item)
            if len(p.text) > MAX_LINE or not _PROSE_WORD.search(p.text) or not has_digit(p.text):
                continue  # (no digit: no sentence of it has a value, see _statement)
            found += [(p, sentence, start) for sentence, start in _sentences(p.text, _FULL_STOP)
                      if has_digit(sentence)]
        if len(found) < 2:
            return  # a paragraph gives pairs from two statements or more, each with a digit
        stmts = [st for p, sentence, start in found if (st := _statement(p, sentence, start)) is not None]
        if len(stmts) >= 2:
            out.append(stmts)

    for i, ln in enumerate(lines):
        gap = i in skip or not ln.text.strip()  # (a patch's lines are skipped: no layout read)
        structured = not gap and _structured(ln.text.strip()) and not _ITEM.match(ln.text)
        if gap or structured or (cur and ln.depth != cur[-1].depth) or len(cur) >= 3 * MAX_PASSAGE_LINES:
            if cur:
                flush()
            cur = [] if gap or structured else [ln]
            continue
        cur.append(ln)
    if cur:
        flush()
    return out


@dataclass
class Clause:
    """A clause of own prose with two or more measured values: their units in order, the
    words around them (the clause's shape) and the side its sentence names."""

    values: list[tuple[float, str, int]]
    shape: frozenset[str]
    side: float
    passage: Passage
    head: str


_TWO_DIGITS = re.compile(r"\d\D*\d")
_CLAUSE_SPLIT = re.compile(r",\s+(?:and|but|while|whereas)\s+|;\s+|\s+whereas\s+")
PARALLEL_SHAPE = 0.6  # the share of words two clauses must have in common to measure one thing


def _clauses(lines: Sequence[Line], skip: set[int]) -> list[Clause]:
    out: list[Clause] = []
    cur: list[Line] = []

    def flush() -> None:
        if not any(has_digit(ln.text[:MAX_LINE]) for ln in cur):
            return  # no digit in its lines, none in their passage: no value, so no clause of two
        p = Passage(list(cur))
        if len(p.text) > MAX_LINE:
            return
        for sentence, start in _sentences(p.text, _FULL_STOP):
            pos = 0
            for piece in _CLAUSE_SPLIT.split(sentence):
                at = sentence.find(piece, pos)
                pos = at + len(piece)
                if _TWO_DIGITS.search(piece) is None:
                    continue  # a clause of two values has two digits
                vals: list[tuple[float, str, int]] = []
                for t in tokens(piece):
                    unit = (t.unit or "").rstrip(".,;:)")
                    if t.kind == "value" and t.value is not None and unit and is_unit(unit) \
                            and not _SIZE_UNITS.match(unit):
                        vals.append((t.value, unit, start + at + t.start))
                if len(vals) < 2:
                    continue
                first = vals[0][2] - start - at
                shape = frozenset(w.lower() for w in re.findall(r"[A-Za-z]{3,}", piece[first:]))
                head = sentence[:first + at]
                out.append(Clause(vals, shape, cue(head).score, p, head))

    for i, ln in enumerate(lines):
        if i in skip or not ln.text.strip() or ln.depth != 0 or not _is_prose(ln.text) and not _ITEM.match(ln.text) \
                and not (cur and _sentence_tail(cur[-1].text, ln.text)):
            if cur:  # (most lines end no clause's lines: nothing to read)
                flush()
                cur = []
            continue
        cur.append(ln)
    flush()
    return out


def _parallel(b: Clause, c: Clause) -> bool:
    """Clause b measures what c does (the same units in order, mostly the same words) and
    names no side of its own."""
    common = len(b.shape & c.shape) / max(1, len(b.shape | c.shape))
    return [u.lower() for _, u, _ in b.values] == [u.lower() for _, u, _ in c.values] and common >= PARALLEL_SHAPE \
        and abs(b.side) < CANDIDATE_AT


def parallel_claims(lines: Sequence[Line], skip: set[int]) -> list[Claim]:
    """Pairs between two clauses of a message's own text that measure the same things in
    the same shape ("8 workers get ~40K/s operations with 800% CPU utilization" ...
    "Test this patch, the guest side get ~200K/s operations with 300% CPU utilization"),
    however far apart: the later one's sentence names the change, the earlier one names
    no side, and it is the only earlier clause of that shape."""
    clauses = _clauses(lines, skip)
    out: list[Claim] = []
    for k, c in enumerate(clauses):
        if c.side < CANDIDATE_AT or _NAMES_CHANGE.search(c.head) is None:
            continue
        earlier = [b for b in clauses[:k] if _parallel(b, c)]
        if len(earlier) != 1:
            continue
        b = earlier[0]
        if any(bv == cv for (bv, _, _), (cv, _, _) in zip(b.values, c.values, strict=True)):
            continue
        for (bv, unit, bpos), (cv, _, cpos) in zip(b.values, c.values, strict=True):
            # "~200K/s operations with 300% CPU utilization": the words after each value name it
            named = _noun_phrase(re.findall(r"[A-Za-z][\w/.-]*[.,;]?|\S+", c.passage.text[cpos:cpos + 60])[1:4])
            metric = named if named and not any(ch.isdigit() for ch in named) else (
                _metric_before(c.passage.text, cpos, unit) or unit)
            out.append(_sentences_claim(b, c, (bv, bpos), (cv, cpos), unit, metric, c.passage))
    return out


def _sentences_claim(b: Statement | Clause, c: Statement | Clause, base: tuple[float, int],
                     cand: tuple[float, int], unit: str, metric: str, owner: Passage) -> Claim:
    """The pair of the value at offset base[1] of `b` and at cand[1] of `c`, each side
    labelled by its sentence's head; `owner` is the passage the claim is attributed to."""
    lb, lc = _line_at(b.passage, base[1]), _line_at(c.passage, cand[1])
    return Claim(metric=metric, unit=unit, better=better_for(metric, unit),
                 baseline=Value(base[0], label=clean_label(b.head) or None, unit=unit, line=lb),
                 candidate=Value(cand[0], label=clean_label(c.head) or None, unit=unit, line=lc),
                 lines=(min(lb, lc), max(lb, lc)), depth=owner.depth,
                 author=owner.author, message_id=owner.message_id)


def statement_claims(lines: Sequence[Line], skip: set[int]) -> list[Claim]:
    """Pairs across the sentences of a paragraph: one statement whose words name the
    baseline and others that name no baseline give numbers in the same units, place by
    place ("a baseline of X pps and Y bytes/s" / "with batching: X' and Y' bytes/s");
    and pairs between parallel clauses of the whole message (`parallel_claims`)."""
    out: list[Claim] = parallel_claims(lines, skip) + stated_order_claims(lines, skip)
    for stmts in _paragraphs(lines, skip):
        sides = [s.side for s in stmts]
        # the baseline named outright ("a baseline of", "the vanilla kernel", "without the
        # patch"), not a lean ("Not tainted 5.0.0-13"): nothing else ties the sentences together
        base = [k for k, sc in enumerate(sides) if sc <= STATED_BASELINE]
        if len(base) != 1:
            continue
        b = stmts[base[0]]
        for k, c in enumerate(stmts):
            if k == base[0] or len(c.values) != len(b.values) or sides[k] < 0 \
                    or not any(cu for _, cu, _ in c.values):
                continue  # "We ran it 5 times." after "a baseline of 4 Mpps" measures nothing
            pairs: list[tuple[float, float, str, int, int]] = []
            for (bv, bu, bpos), (cv, cu, cpos) in zip(b.values, c.values, strict=True):
                unit = bu or cu
                if unit is None or (bu and cu and bu.lower() != cu.lower()) or bv == cv or not bv or not cv \
                        or not (bu and cu) and not 0.1 <= cv / bv <= 10:
                    pairs = []  # a unit left out is the list's unit only for a number of its size
                    break
                pairs.append((bv, cv, unit, bpos, cpos))
            for bv, cv, unit, bpos, cpos in pairs:
                metric = _statement_metric(b.passage.text, bpos, unit)
                out.append(_sentences_claim(b, c, (bv, bpos), (cv, cpos), unit, metric, b.passage))
    return out


def _statement_metric(text: str, pos: int, unit: str) -> str:
    """What a statement's value measures: the measure named before it ("a baseline of 4
    Mpps"), else the noun right after it ("34.25% Hitm of the first cache line")."""
    metric = _metric_before(text, pos, unit)
    if metric and any(_MEASURE.match(w) for w in metric.split()) or unit_kind(unit):
        return metric or unit
    named = _noun_phrase(re.findall(r"[A-Za-z][\w/.-]*[.,;]?|\S+", text[pos:pos + 60])[1:4])
    return named if named and not any(ch.isdigit() for ch in named) else metric or unit


STATED_FIT = 0.2  # how near (a share of the stated change) two values' change must come to it


def _measured_values(text: str) -> list[tuple[float, str, int]] | None:
    """A line's measured values (value, unit, offset); None when it holds a size or count."""
    vals: list[tuple[float, str, int]] = []
    for t in tokens(text[:MAX_LINE]):
        unit = (t.unit or "").rstrip(".,;:)")
        if t.kind != "value" or t.value is None or t.percent or not unit:
            continue
        if not is_unit(unit) or _SIZE_UNITS.match(unit):
            return None
        vals.append((t.value, unit, t.start))
    return vals


def _line_shape(text: str) -> frozenset[str]:
    return frozenset(w.lower() for w in re.findall(r"[A-Za-z]{3,}", text))


def _fits(change: float, unit: str, named: str, stated: list[tuple[float, str]]) -> bool:
    """`change` (in %) of a place measured in `unit` and named `named` is a change stated: of
    the same sign and near its size, and of that measure when the statement names one
    ("Rate is ~1.5 percent lower" is of the pps, not of the ns per packet beside them)."""
    names = {w.lower() for w in re.findall(r"[A-Za-z]+", f"{unit} {unit_kind(unit) or ''} {named}")}
    for pct, metric in stated:
        said = {w.lower() for w in re.findall(r"[A-Za-z]{2,}", metric)} - {"change"}
        if said and not said & names:
            continue
        if pct * change > 0 and abs(change - pct) <= max(0.3, STATED_FIT * abs(pct)):
            return True
    return False


def stated_order_claims(lines: Sequence[Line], skip: set[int]) -> list[Claim]:
    """Two adjacent lines of one shape that no word sides ("89.25 ns per packet at
    11,204,330 pps" / "90.58 ns per packet at 11,040,118 pps"), ordered by a change the
    message states ("Rate is ~1.5 percent lower after the patch"): when the values of one
    place change by it read one way and not the other, that way runs from the baseline
    to the candidate, and every place of the two lines pairs so."""
    rows: list[tuple[int, list[tuple[float, str, int]], frozenset[str]] | None] = []
    for i, ln in enumerate(lines):
        # values first: most lines have none, and then neither the lexicon nor the shape is read
        vals = None if i in skip or not has_digit(ln.text[:MAX_LINE]) else _measured_values(ln.text)
        if vals and cue(ln.text).score:
            vals = None
        rows.append((i, vals, _line_shape(ln.text)) if vals else None)

    def same(x: int, y: int) -> bool:
        a, b = rows[x], rows[y]
        if a is None or b is None or lines[x].depth != lines[y].depth:
            return False
        return [u.lower() for _, u, _ in a[1]] == [u.lower() for _, u, _ in b[1]] \
            and len(a[2] & b[2]) / max(1, len(a[2] | b[2])) >= PARALLEL_SHAPE

    found = [i for i in range(len(lines) - 1) if same(i, i + 1)
             and not (i > 0 and same(i - 1, i)) and not (i + 2 < len(lines) and same(i + 1, i + 2))]
    if not found:
        return []
    stated = [(c.claimed_change_pct, c.metric) for p in passages(lines, set()) for c in relative_claims(p)
              if c.claimed_change_pct is not None]
    out: list[Claim] = []
    for i in found:
        a, b = rows[i], rows[i + 1]
        assert a is not None and b is not None
        pairs = [(av, bv, unit, _named_after(lines[i].text, ap))
                 for (av, unit, ap), (bv, _, _) in zip(a[1], b[1], strict=True)]
        forward = any(av and _fits((bv / av - 1) * 100, unit, named, stated) for av, bv, unit, named in pairs)
        backward = any(bv and _fits((av / bv - 1) * 100, unit, named, stated) for av, bv, unit, named in pairs)
        if forward == backward or any(av == bv for av, bv, *_ in pairs):
            continue
        base, cand = (lines[i], lines[i + 1]) if forward else (lines[i + 1], lines[i])
        for av, bv, unit, named in pairs:
            bval, cval = (av, bv) if forward else (bv, av)
            metric = named or unit
            out.append(Claim(metric=metric, unit=unit, better=better_for(metric, unit),
                             baseline=Value(bval, label="before", unit=unit, line=base.number),
                             candidate=Value(cval, label="after", unit=unit, line=cand.number),
                             lines=(lines[i].number, lines[i + 1].number), depth=cand.depth,
                             author=cand.author, message_id=cand.message_id))
    return out


def _named_after(text: str, pos: int) -> str:
    """The words right after a value that name it ("89.25 ns per packet at" -> "ns per packet")."""
    named = _noun_phrase(re.findall(r"[A-Za-z][\w/.-]*[.,;]?|\S+", text[pos:pos + 60])[1:4])
    return named if named and not any(ch.isdigit() for ch in named) else ""


# the readers of a sentence that states a pair, in the order the extractor asks them: the
# extractor (sentence_pairs) and the gate (states_a_pair) ask the same ones
_SENTENCE_READERS: tuple[Callable[[Line | Passage], list[Claim]], ...] = (
    from_to_claims, arrow_claims, vs_claims, side_claims)
