"""Numbers as printed in mail text: tokens, units, spreads, and the shape of a line.

Every extractor stage reads lines through `tokenize`, so a value, its unit and a `+- x%`
spread are recognised the same way in tool output, tables and prose.  Tokens are cut at
whitespace (linear time, no backtracking), and each token is classified with anchored
regexes of bounded length.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

MAX_LINE = 4000  # longer lines are cut before any regex sees them

# A number as printed: 1,055,201 / 1.204.300 (dot groups, two or more) / 52,1076 (a
# misplaced comma) / 0.55 / 12 / .5 / 1e6.
_NUM = r"\d{1,3}(?:\.\d{3}){2,}|(?:\d{1,3}(?:,\d{3,4})+|\d+)(?:\.\d+)?(?:[eE][+-]?\d+)?|\.\d+"
_DOT_GROUPS = re.compile(r"\d{1,3}(?:\.\d{3}){2,}")
# Before the number: "~12", "<1%", "≈3", "#4"; a sign may stand apart ("+ 3%", joined below).
_VALUE_TOKEN = re.compile(
    rf"(?P<pre>[%~≈#<>≤≥]?)(?P<sign>[+-]?)(?P<num>{_NUM})(?P<unit>[A-Za-zµ%/][A-Za-zµ%/.]{{0,15}})?"
)
_RANGE_TOKEN = re.compile(rf"[+-]?(?:{_NUM})(?:-|–|\.\.\.?)[+-]?(?:{_NUM})[A-Za-z%/]*")
# A decimal comma ("1,5 ms", "12,3Gbit/s"): one or two digits after the comma are never a
# thousands group, but "cpus 1,5" is a list, so it is a number only with a unit beside it.
_DECIMAL_COMMA = re.compile(r"(?P<sign>[+-]?)(?P<num>\d{1,6},\d{1,2})(?P<unit>[A-Za-zµ%/][A-Za-zµ%/.]{0,15})?")
_FOOTNOTE = re.compile(r"\[\d{1,3}\][:,.;)]*$")
# a whole number in square brackets: a process's, a stream's or a CPU's id ("stress-ng: info:
# [1234] mmap", "[003]" in a trace), never a measurement
_BRACKETED_ID = re.compile(r"\[\d+\][:,.;)]*")
_KEY_VALUE = re.compile(r"(?P<k>[A-Za-z_][\w.-]{0,40})=(?P<v>[+-]?\d[\d,.]*(?:[eE][+-]?\d+)?[A-Za-z/%]{0,8})")
_STRIP = "([{<\"'`,;:)]}>!?*"
SPREAD_MARKS = ("+-", "±", "+/-")
# a cell holding both sides of a pair, "318K/316K" (under "(before/after)"): the grid reads
# it (claims.grid's slash cells) and the gate looks for it (claims.prescan._slash_cells)
SLASH_PAIR = re.compile(r"(?P<a>[~<]?\d[\d.,]*[A-Za-z%]{0,6})/(?P<b>[~<]?\d[\d.,]*[A-Za-z%]{0,6})")
# the gap between two columns of a line: a tab (and the blanks after it) or two blanks or more;
# the grid splits its rows into pieces at it (claims.grid.pieces) and a "label: value" segment's
# label ends at one (claims.prose.line_segment_groups)
COLUMN_GAP = re.compile(r"\t+ *|  +")
_CLOSED = frozenset(")],;")
_DIGIT = re.compile(r"\d")
_WORD = re.compile(r"\S+")
_WORDS = re.compile(r"(?=\S)[^\s\d]*(\d)?\S*")  # a word, its group set when it has a digit


# asked of each line by four or five stages in turn (the skipped lines, the rows, the stated
# orders, the passages): the search scans the line each time, a hit is a dict look-up
@lru_cache(maxsize=1024)
def has_digit(text: str) -> bool:
    """Whether `text` may hold a number: every value, spread, range and p-value token has a
    digit (`classify`), so a text without one tokenizes to words only, and a stage that
    reads numbers passes it by without its dearer work."""
    return _DIGIT.search(text) is not None

# Units a value may carry, as one grammar rather than a list of spellings: a known base
# quantity with an optional SI or binary prefix, optionally "/" a time unit ("Mbit/s",
# "Kpps", "transactions/sec", "msg/s", "usec", "µs").  Used to tell "767,743 pps batch
# mode:" apart: `pps` belongs to the number, `batch mode` is the next label.
_PREFIX = r"(?:[kmgtp]i?)?"  # amounts and counts; a time takes m, µ/u or n
_TIME = r"(?:[mµun]?(?:s|secs?)|(?:micro|milli|nano)?seconds?|msecs?|usecs?|nsecs?|mins?|minutes?|hr|hours?)"
_PER_TIME = rf"(?:/{_TIME}|ps)"  # "/s", "/sec", or the "ps" of "pps", "Mbps"
# Amounts that stand alone ("182 MBytes", "4 cycles") or as a rate.
_AMOUNT = r"(?:bytes?|b|bits?|cycles?|insns?|flops|ops|iops|ips)"
# Counts that are a unit only as a rate ("req/s", "Kpps"): "12 requests" counts things.
_COUNT = (r"(?:transactions?|trans\.?|tr|requests?|reqs?|req|r|queries|q|operations?|ops?|iops?|io|"
          r"messages?|msgs?|packets?|pkts?|pkt|p|frames?|f|calls?|events?|conn|connections?|"
          r"t|lines?|loops?|faults?|wakeups?|switch(?:es)?|interrupts?|irqs?)")
_LISTED = (
    rf"{_PREFIX}(?:{_AMOUNT}(?:{_PER_TIME})?|{_COUNT}{_PER_TIME}|hz)|{_TIME}|[kmg]/{_TIME}"
    rf"|(?:{_TIME}|cycles?)/(?:op|call|iter)"  # a cost per operation: "ns/op", "usecs/op"
    r"|%|x|percent|cpu|ipc|times|us/tr|usec/tr|lps|lpm|mwips|mflops|b/sec")
# the units above, and any count per second printed as one word ("records/s", "pages/sec",
# sar's "rxpck/s"); spelled out over three words only the listed counts make a rate
# (_per_time: "5 times per second" is how often something is done)
UNIT_RE = re.compile(rf"{_LISTED}|[a-z]{{3,16}}/s(?:ec(?:ond)?)?", re.IGNORECASE)
_LISTED_RE = re.compile(_LISTED, re.IGNORECASE)


# Packets dropped, counted or as a rate: "drops", "dropped", "drop rate", "packets drop"; a
# bare "drop" is also the action whose speed a test measures (XDP_DROP, pktgen's "rx drop").
# (in capitals only "DROPS", "DROPPED": "XDP_DROP rate" is the action's speed)
_DROPS = (r"(?:(?<![a-z])drop(?:s|ped|ping|[\s_-]+(?:rate|count))|Drop(?:s|ped|ping|[\s_-]+(?:rate|count))"
          r"|DROP(?:S|PED)|(?i:(?:packets?|pkts?)[\s_-]+drop))")

_HIGHER = re.compile(
    r"(?i)(pps|bps|b/s|bits?/s|bytes?/s|/s(ec)?$|/sec|iops|(?-i:(?<![^\W\d_kmgKMGT]))ops|throughput|bandwidth|rate|"
    r"(?<!re)trans(?!mi)|tps|qps|rps|req|per[ _]sec|per second|speed|(?:insns?|instructions)\s*(?:per\s+|/)cycle|ipc|burns|"
    r"\bhits?\b|efficien|"
    r"goodput|mpps|gbps|mbps|score|fork\(\) calls|"
    r"cpu\W{0,3}idle)"  # the CPU left idle, named so ("cpu idle= 76%"): the more, the cheaper the run
)
_LOWER = re.compile(  # (a latency is told before _HIGHER: better_for's _LATENCY)
    r"(?i)(\bus\b|\bms\b|\bns\b|usec|msec|nsec|seconds|\bsecs?\b|time|elapsed|"
    r"cycles|(?<![a-z])miss|cpu|util|overhead|context-switch|migrations|retr|loss|"
    r"instructions|\binsns?\b|(?<![a-z])await\b|s\.dem|us/tr|faults|jitter|\bs\b|footprint|usage|memory\s+(?:use|consumption)|peak\s+memory|\brss\b|"
    rf"\bcosts?\b|\bpower\b|\benergy\b|watts?\b|joules?\b|{_DROPS})"
)


@dataclass(slots=True)  # a message's lines hold many: slots halve them (peak RSS)
class Token:
    """One whitespace-separated token of a line, classified."""

    text: str
    start: int
    end: int
    kind: str  # "value" | "spread" | "range" | "word" | "pvalue"
    value: float | None = None
    unit: str | None = None
    percent: bool = False
    signed: bool = False


ID_WORDS = frozenset({"port", "pid", "tid", "irq", "id"})  # words that a number after names
MAGNITUDES = frozenset({"k", "K", "M", "G"})  # "812k", "4.2M": thousands, millions of what the text says
# A column or row named for how many runs its numbers are ("runs", "n", "iterations"): a
# count of the measurement, never one of its results (the grid and the table reader alike).
RUNS_NAME = re.compile(r"(?i)^(?:iterations?|runs?|n|samples?|count|reps?)$")
# A column named for the runs' spread ("stddev", "CoeffVar" is a row's: grid._SPREAD_ROW), not
# a result: a verdict cannot confirm or refute a spread as a change.
SPREAD_NAME = re.compile(r"(?i)^(?:variance|var|stddev|stdev|std|sd|dev|%stddev|cv|spread|err|error|"
                         r"±|\+-|\+/-|ci|confidence|std[.-]? ?dev\.?|rsd|std[-_ ]?err(?:or)?|stderr|"
                         r"(?:mean|median)[-_ ]ad|mad|siqr|iqr|mdev|"  # sockperf's "std-dev", "siqr"; ping's "mdev"
                         r"(?:\+/-|±|\+-) ?(?:stdev|stddev|std ?dev))$")  # wrk's "+/- Stdev": share within one
# A column or key named for a statistic of the runs ("Avg", "Max", "geomean"): "Min" is the
# minimum, not minutes, though the tokenizer reads "5 min" as a duration.
AGGREGATE_NAME = re.compile(r"(?i)^(?:avg|average|mean|median|min|max|total|sum|stddev|std|geomean|"
                            r"geo\.? mean)$")


@lru_cache(maxsize=2048)  # asked of a line's words by every stage; a message's words recur
def is_unit(word: str) -> bool:
    w = _unit_text(word)
    return bool(w) and len(w) <= 24 and UNIT_RE.fullmatch(w) is not None


def spelled_rate(count: str, per: str = "s") -> str | None:
    """The rate "N <count> per <time>" spells, as one unit ("transactions/s"), where the
    count is one of the listed ones: "5 times per second" says how often something is
    done, and "3 steps per second" counts what a change is made of."""
    unit = f"{_unit_text(count)}/{_unit_text(per)}"
    return unit if len(unit) <= 24 and _LISTED_RE.fullmatch(unit) is not None else None


def is_rate(word: str) -> bool:
    """A unit that is a count per unit of time ("calls/s", "Kpps", "Mbit/s")."""
    w = _unit_text(word)
    return is_unit(w) and _RATE_UNIT.match(w) is not None


def _unit_text(word: str) -> str:
    """A unit word without punctuation, a sentence's full stop included ("1.2 Mpps.")."""
    w = word.strip(_STRIP)
    return w[:-1].rstrip(_STRIP) if w.endswith(".") and len(w) > 1 else w


_COMMA_DECIMAL = re.compile(r"[+-]?(?:\d{1,3}(?:\.\d{3})+|\d+),\d{1,2}")  # "1,5", "1.234,56"


def parse_number(text: str) -> float | None:
    """'1,055,201' and '1.204.300' -> the number, '1,5' -> 1.5; None when `text` is not a plain number."""
    t = text.strip()
    if _COMMA_DECIMAL.fullmatch(t):
        t = t.replace(".", "").replace(",", ".")
    else:
        t = t.replace(".", "") if _DOT_GROUPS.fullmatch(t) else t.replace(",", "")
    try:
        return float(t)
    except ValueError:
        return None


def as_way(merit: float, way: str | None, factor: bool | None = None) -> float:
    """A change stated by its merit (better +, worse -) as the way a measure of direction
    `way` moves: a lower-better measure that got better went down. A `factor`'s ratio is
    inverted ("2x faster": the time halves, -50%), a percentage's sign is turned ("5%
    improvement" of a time: -5%, the corpus' convention). Not known which it was, a change
    of merit of 100% or more can only be a factor's."""
    if way != "lower":
        return merit
    if factor is None:
        factor = merit >= 100.0
    return (100.0 / (100.0 + merit) - 1.0) * 100.0 if factor else -merit


def stated_tolerance(stated: float) -> float:
    """How far a stated change in % may be from the one its printed numbers give and still
    be that change: rounding, plus 10% of its size (authors round "17.6%" to "18%"). A
    whole percent may be cut rather than rounded ("+5%" for 5.7%, "0%" for 0.6%: a table's
    column of whole percents, virtio_blk's io_poll cover letter), so it stands for anything
    less than a point away."""
    return max(WHOLE_PERCENT if float(stated).is_integer() else 0.6, 0.1 * abs(stated))


WHOLE_PERCENT = 0.999  # a point, but for the next whole percent itself


# time(1)'s "0m12.345s": what follows the minutes (the gate's number patterns take it as a unit)
CLOCK_TAIL = r"m\d{1,2}(?:\.\d+)?s"
_CLOCK = re.compile(r"(?:(?P<h>\d{1,4})h)?(?P<m>\d{1,4})m(?P<s>\d{1,2}(?:\.\d+)?)s")


def clock_seconds(word: str) -> float | None:
    """time(1)'s "12m30.5s" (or "1h2m3s") in seconds; None for any other word."""
    m = _CLOCK.fullmatch(word)
    if m is None:
        return None
    return int(m.group("h") or 0) * 3600 + int(m.group("m")) * 60 + float(m.group("s"))


# the words of a line are classified again in each cell and sentence cut from it; a message's
# words recur, so 2,048 serve as well as 8,192, which held ~2 MiB of the peak RSS
@lru_cache(maxsize=2048)
def classify(word: str) -> tuple[str, float | None, str | None, bool, bool]:
    """(kind, value, unit, percent, signed) for one token with punctuation stripped."""
    if _DIGIT.search(word) is None:  # every number, range, p-value and footnote has a digit
        return "word", None, None, False, False
    if _FOOTNOTE.fullmatch(word) or _BRACKETED_ID.fullmatch(word):
        return "word", None, None, False, False
    w = _FOOTNOTE.sub("", word.rstrip(".,;:)")).strip(_STRIP)
    if len(w) > 1 and w[0] == "/" and w[1] in "+-.0123456789":
        w = w[1:]
    if not w or len(w) > 40:
        return "word", None, None, False, False
    if w.startswith(("p=", "p<", "p-value=")):
        v = parse_number(w.split("=", 1)[-1].lstrip("<"))
        return ("pvalue", v, None, False, False) if v is not None else ("word", None, None, False, False)
    kv = _KEY_VALUE.fullmatch(w)
    if kv is not None and kv.group("k").lower() in ID_WORDS:
        return "word", None, None, False, False  # fio's "pid=4711": a name for a process
    if kv is not None and not w.startswith(("p=", "n=")):
        got = classify(kv.group("v"))  # neper/netperf omni "throughput=9400.21"
        return got if got[0] == "value" else ("word", None, None, False, False)
    if _RANGE_TOKEN.fullmatch(w):
        return "range", None, None, False, False
    if (secs := clock_seconds(w)) is not None:  # time(1): "real 0m12.606s"
        return "value", secs, "s", False, False
    m = _VALUE_TOKEN.fullmatch(w)
    if not m:
        d = _DECIMAL_COMMA.fullmatch(w)
        if d is not None and d.group("unit") and is_unit(d.group("unit")):
            return _decimal_comma(d, d.group("unit"))
        return "word", None, None, False, False
    unit = m.group("unit")
    if unit and unit.endswith("."):
        unit = unit[:-1]
    if unit and not is_unit(unit) and len(unit) > 3:
        return "word", None, None, False, False  # "2630v4", "64bit" style identifiers
    value = parse_number(m.group("num"))
    if value is None:
        return "word", None, None, False, False
    sign = m.group("sign")
    if sign == "-":
        value = -value
    pct = m.group("pre") == "%" or (unit is not None and unit.startswith("%"))
    if pct and unit == "%":
        unit = "%"
    return "value", value, unit, pct, bool(sign)


def _decimal_comma(d: re.Match[str], unit: str | None) -> tuple[str, float | None, str | None, bool, bool]:
    value = parse_number(d.group("num")) or 0.0
    sign = d.group("sign")
    return "value", -value if sign == "-" else value, unit, unit == "%", bool(sign)


def tokenize(line: str) -> list[Token]:
    """Classify the tokens of `line`; `+- 0.09%` and `± 2%` become spread tokens.

    Several stages read the same line, so results are cached; callers must not change the
    tokens they get.
    """
    return list(_tokenize(line[:MAX_LINE]))


def tokens(line: str) -> tuple[Token, ...]:
    """`tokenize`'s tokens as the cache holds them, not copied into a list: for readers that
    only read them (most calls; the copy was a fifth of a call that hits the cache)."""
    return _tokenize(line[:MAX_LINE])


# Several results packed into one word under as many names: "min/avg/max/mdev =
# 0.031/0.244/41.870/2.210 ms" (ping), "Min/Mean/Max = 77,665/90,153/106,895".
_PACKED_NAMES = re.compile(r"[A-Za-z][\w-]{0,15}(?:/[A-Za-z][\w-]{0,15}){1,7}")
_PACKED = re.compile(rf"(?:{_NUM})(?:/(?:{_NUM})){{1,7}}[A-Za-z%]{{0,6}},?")


def _packed(text: str) -> dict[int, list[tuple[int, int]]]:
    """Where each packed word of numbers starts, with the spans of its numbers, when the
    words before it name as many results ("a/b/c = 1/2/3")."""
    out: dict[int, list[tuple[int, int]]] = {}
    if "/" not in text or "=" not in text:
        return out
    words = list(re.finditer(r"\S+", text))
    for n in range(2, len(words)):
        names, eq, nums = words[n - 2], words[n - 1], words[n]
        if eq.group() != "=" or not _PACKED_NAMES.fullmatch(names.group()) or not _PACKED.fullmatch(nums.group()):
            continue
        parts = nums.group().rstrip(",").split("/")
        if len(parts) != names.group().count("/") + 1:
            continue
        spans, at = [], nums.start()
        for p in parts:
            spans.append((at, at + len(p)))
            at += len(p) + 1
        out[nums.start()] = spans
    return out


_BARE_ASIDE = re.compile(r"\(\s*\d[\d,]*(?:\.\d+)?\)[,;]?")


def _spread_aside(word: str, value: float | None, unit: str | None, signed: bool, out: list[Token]) -> bool:
    """Is `word` a bare number in parentheses, smaller than the value just before it, with
    no unit or sign of either? Benchmark summaries print a mean's standard deviation so
    (kernbench's "Elapsed Time 102.41 (0.62)", "1267765 (14146)"); a change has its sign
    or "%", a rate its unit ("(4115.20 per sec.)" is not closed)."""
    if value is None or unit is not None or signed or not out or _BARE_ASIDE.fullmatch(word) is None:
        return False
    prev = out[-1]
    return prev.kind == "value" and prev.unit is None and not prev.percent and prev.value is not None \
        and abs(value) < abs(prev.value)


_ORDINAL = frozenset({"st", "nd", "rd", "th"})  # "95th", "2nd": a place's name, no value's unit


# kept across messages, as the grid's rows, line kinds and prose tests are: a reply quotes its
# parent's lines, so half the misses go. 1,024 lines, not 2,048: kept full from message to
# message, 2,048 held 2.4 MiB more peak RSS (over 40 MiB); see test_extract_history
@lru_cache(maxsize=1024)
def _tokenize(text: str) -> tuple[Token, ...]:
    if _DIGIT.search(text) is None:  # most lines: words only, nothing to classify
        return tuple(Token(m.group(), m.start(), m.end(), "word") for m in _WORD.finditer(text))
    out: list[Token] = []
    spread_next = False
    sign_at: int | None = None  # where a lone "+" stood: "+ 3%" is +3%
    packed = _packed(text)
    groups: list[int] = []  # where each packed word's numbers start in `out`
    for m in _WORDS.finditer(text):
        word = m.group()
        if m.lastindex is None and word[0] not in "(+±":  # no digit, no sign or spread mark
            if sign_at is not None:
                out.append(Token("+", sign_at, sign_at + 1, "word"))
                sign_at = None
            spread_next = False
            out.append(Token(word, m.start(), m.end(), "word"))
            continue
        if m.start() in packed:
            groups.append(len(out))
            for a, b in packed[m.start()]:
                kind, value, unit, pct, signed = classify(text[a:b])
                out.append(Token(text[a:b], a, b, kind, value, unit, pct, signed))
            continue
        if word == "+" and not spread_next:
            sign_at = m.start()
            continue
        if word.lstrip("(") in SPREAD_MARKS:  # "+-", "(±", "(+/-" before a blank
            spread_next = True
            out.append(Token(word, m.start(), m.end(), "word"))
            continue
        # a spread mark starts with "+" or "±", after any "(": other words need no search
        glued = next((s for s in SPREAD_MARKS if word.lstrip("(").startswith(s)), None) \
            if word[0] in "(+±" else None
        if glued is not None:
            spread_next = True
            word = word.lstrip("(")[len(glued):]
        kind, value, unit, pct, signed = classify(word)
        start = m.start()
        if sign_at is not None:
            if kind == "value" and not signed and word[:1].isdigit():
                signed, start = True, sign_at
            else:
                out.append(Token("+", sign_at, sign_at + 1, "word"))
            sign_at = None
        if kind == "value" and word.endswith("]") and out and out[-1].text == "[":
            kind = "word"  # an id such as iperf's "[  5]"
        if kind == "value" and unit is None and not signed and out and out[-1].text.lower() in ID_WORDS:
            kind = "word"  # "port 40112", "pid 4711": a name for a thing, not a measurement
        if kind == "value" and unit in _ORDINAL:
            kind = "word"  # "95th (ms)", "2nd run", schbench's "50.0th:": a place's name, no measurement
        if kind == "value" and spread_next:
            kind, value = "spread", abs(value) if value is not None else None
        elif kind == "value" and _spread_aside(word, value, unit, signed, out):
            kind = "spread"  # "Elapsed Time 102.41 (0.62)", "1267765 (14146)": a mean and its deviation
        spread_next = False
        out.append(Token(text[start:m.end()], start, m.end(), kind, value, unit, pct, signed))
    if sign_at is not None:
        out.append(Token("+", sign_at, sign_at + 1, "word"))
    # A bare unit word right after a value belongs to it: "182 MBytes", "16.1 gbps", and
    # after a magnitude: "4.5M trans/s" is in Mtrans/s.
    # Not after a closing bracket or a clause mark: "(n - 1) % N" is code, "12, ms" a list.
    for i in range(1, len(out)):
        prev, cur = out[i - 1], out[i]
        if cur.kind != "word" or prev.text[-1:] in _CLOSED:
            continue  # a unit is a word
        if prev.kind == "word" and "," in prev.text:  # a decimal comma has a comma
            d = _DECIMAL_COMMA.fullmatch(prev.text.strip(_STRIP))
            if d is not None and not d.group("unit") and is_unit(cur.text):
                prev.kind, prev.value, _, prev.percent, prev.signed = _decimal_comma(d, None)
        # "20.434 M ops/s" (bpf's bench): a magnitude standing alone before its unit, Mops/s
        scaled = cur.text in MAGNITUDES and i + 1 < len(out) and out[i + 1].kind == "word" \
            and is_unit(cur.text + _unit_text(out[i + 1].text))
        if prev.kind == "spread" and prev.unit is None and (scaled or is_unit(cur.text)):  # "12.3 +- 0.5 us"
            prev.unit = cur.text + _unit_text(out[i + 1].text) if scaled else _unit_text(cur.text)
            prev.percent = prev.unit == "%"
        if prev.kind != "value":
            continue
        per = _per_time(out, i) if prev.unit is None else None
        if per is not None:  # "45123 transactions per second", "3.1 Gbit per sec"
            prev.unit = per
        elif prev.unit is None and scaled:
            prev.unit = cur.text + _unit_text(out[i + 1].text)
        elif prev.unit is None and is_unit(cur.text):
            prev.unit = _unit_text(cur.text)
            if prev.unit == "%":
                prev.percent = True
        elif prev.unit in MAGNITUDES and is_unit(prev.unit + _unit_text(cur.text)):
            prev.unit = prev.unit + _unit_text(cur.text)
    for i in range(2, len(out)):  # "12.345 ± 0.123M/s" (bpf's bench): the spread's unit is the value's
        if out[i].kind == "spread" and out[i].unit and not out[i].percent and out[i - 1].text in SPREAD_MARKS \
                and out[i - 2].kind == "value" and out[i - 2].unit is None:
            out[i - 2].unit = out[i].unit
    for g in groups:  # "= 0.031/0.244/41.870/2.210 ms": the unit is every number's
        n = next(len(v) for v in packed.values() if out[g].start == v[0][0])
        unit = out[g + n - 1].unit
        for t in out[g:g + n - 1]:
            if t.kind == "value" and t.unit is None and unit:
                t.unit = unit
    _dates_as_words(out)
    return tuple(out)


_MONTH = re.compile(r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
                    r"Sept?(?:ember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)[.,]?")
_CLOCK_WORD = re.compile(r"\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?,?")
_YEAR = re.compile(r"(?:19[7-9]|20\d)\d,?")
_ZONE = re.compile(r"[+-](?:0\d|1[0-4])[0-5]\d\)?")


def _dates_as_words(out: list[Token]) -> None:
    """The numbers of a date or a timestamp are words: fio's "pid=1234: Mon Dec  7 10:00:00
    2026" over each run had paired the day and the year of two runs as measures. A day
    stands beside a month's name, a year after a month, a day of a date or a time of day."""
    dated = -2  # where the last token of a date stood
    for i, t in enumerate(out):
        if t.kind != "value" or t.unit is not None:
            continue
        before = out[i - 1].text if i else ""
        if t.signed:  # "10:00:00 +0000": the time's zone
            if _ZONE.fullmatch(t.text) and (dated == i - 1 or _CLOCK_WORD.fullmatch(before)):
                t.kind, t.value = "word", None
            continue
        after = out[i + 1].text if i + 1 < len(out) else ""
        month = _MONTH.fullmatch(before) is not None or _MONTH.fullmatch(after) is not None
        if t.text.rstrip(",").isdigit() and 1 <= (t.value or 0) <= 31 and month \
                or _YEAR.fullmatch(t.text) and (month or dated == i - 1 or _CLOCK_WORD.fullmatch(before)
                                                or _CLOCK_WORD.fullmatch(after)):
            t.kind, t.value = "word", None
            dated = i


def _per_time(out: list[Token], i: int) -> str | None:
    """The unit written over three words at `out[i]` ("transactions per second"), as one."""
    if i + 2 >= len(out) or out[i + 1].text.lower() != "per" or out[i + 2].kind != "word":
        return None
    return spelled_rate(out[i].text, out[i + 2].text)


def values(tokens: list[Token]) -> list[Token]:
    return [t for t in tokens if t.kind == "value"]


def skeleton(tokens: list[Token]) -> tuple[str, ...]:
    """The shape of a line: words lower-cased, values as `#` (with a glued unit)."""
    out = []
    for t in tokens:
        if t.kind == "value":
            out.append("#%" if t.percent else "#")
        elif t.kind == "spread":
            out.append("±")
        elif t.kind == "range":
            out.append("R")
        elif t.kind == "pvalue":
            out.append("p")
        else:
            w = t.text.strip(_STRIP).lower()
            if w:  # numbers inside a word are its values, not its shape: "(28.1GiB/60001msec)"
                out.append(DIGIT_RUN.sub("#", w) if _DIGIT.search(w) else w)
    return tuple(out)


# the digits inside a word, one mark in a shape ("v6.7", "v10": "v#"; claims.prescan keys rows so)
DIGIT_RUN = re.compile(r"\d+(?:[.,]\d+)*")


_PREFIX_SCALE = {"k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9}


def _prefixed(unit: str | None) -> tuple[float, str] | None:
    """A unit as its K/M/G prefix's scale and the rest ("950K": 1e3 and ""; "Gbps": 1e9
    and "bps"); None for a unit with no such prefix."""
    if not unit or unit[0] not in _PREFIX_SCALE:
        return None
    if unit[1:2] == "i" and unit[2:3] in ("B", "b"):  # "MiB/s": a binary prefix
        rest = unit[2:]
        return (2.0 ** (10 * (" KMG".index(unit[0].upper()))), rest) if is_unit(unit) and is_unit(rest) else None
    rest = unit[1:]
    if rest and not (is_unit(unit) and is_unit(rest)):
        return None
    return _PREFIX_SCALE[unit[0]], rest


_SECONDS = {"ns": 1e-9, "nsec": 1e-9, "nsecs": 1e-9, "nanosecond": 1e-9, "nanoseconds": 1e-9,
            "us": 1e-6, "µs": 1e-6, "usec": 1e-6, "usecs": 1e-6, "microsecond": 1e-6, "microseconds": 1e-6,
            "ms": 1e-3, "msec": 1e-3, "msecs": 1e-3, "millisecond": 1e-3, "milliseconds": 1e-3,
            "s": 1.0, "sec": 1.0, "secs": 1.0, "second": 1.0, "seconds": 1.0,
            "min": 60.0, "mins": 60.0, "minute": 60.0, "minutes": 60.0}


def common_scale(a_unit: str | None, b_unit: str | None) -> tuple[float, float, str | None] | None:
    """Two values printed at different magnitudes of one unit ("950K" / "1.1M", "940 Mbps"
    / "1.2 Gbps", "op/s" / "kop/s", "1.2ms" / "950us"): the factors that bring both to the
    bare unit, and that unit. A pair compares numbers only in one unit (grid cells and block
    lines alike)."""
    if a_unit == b_unit or a_unit is None or b_unit is None:
        return None
    ta, tb = _SECONDS.get(a_unit.lower()), _SECONDS.get(b_unit.lower())
    if ta is not None and tb is not None:
        return (None if ta == tb else (ta, tb, "s"))
    a, b = _prefixed(a_unit), _prefixed(b_unit)
    if a is None and b is None:
        return None
    ra = a[1] if a else a_unit
    rb = b[1] if b else b_unit
    if ra != rb or (a is None) != (b is None) and not ra:
        return None
    return (a[0] if a else 1.0), (b[0] if b else 1.0), ra or None


_OPTION = re.compile(r"(?<!\S)--?[A-Za-z][\w-]*")  # "lock2_threads -s 10 -t 64": "-s" is no seconds
# "CPUs 4", "8 cpus", "cpu=2": how many CPUs ran the test, a swept setting, not CPU usage
_CPU_COUNT = re.compile(r"(?i)\b(?:\d{1,4}\s?cpus?|cpus?\s?[=:]?\s?\d{1,4})\b(?!\s?%)")


# Events nobody wants: counted per second or as a rate they are still lower-better
# (`perf-stat.overall.branch-miss-rate%`, `page-faults/sec`, `TCPLossProbes/s`).
# A word's start only, in lower case or camel case: not "transmission", "default", "install";
# and not a word with a number glued on, which names a test (will-it-scale's "page_fault1").
_UNWANTED = re.compile(r"(?:(?<![a-z])(?i:miss|loss|retrans|fault|stall|error|errs\b|fail)"
                       r"|Miss|Loss|Retrans|Fault|Stall|Error|Fail"
                       # packets dropped, their count or rate; not the action (XDP_DROP, "rx drop", a
                       # test whose packet rate is its speed)
                       rf"|{_DROPS})(?![A-Za-z]*\d)")


_LATENCY = re.compile(r"(?i)latenc")
# the harmonic mean, the mean of rates: mmtests (compare-kernels) heads the rows of a
# throughput "Hmean" (and "BHmean-99", of the best 99%), a time's or a latency's "Amean"
_HARMONIC_MEAN = re.compile(r"(?<![A-Za-z])B?Hmean(?![a-z])")
# Events a change is made to avoid, counted: what the measure's name ends with, counted
# (plural) or as a rate ("TLB flushes", "VM exits per second", "IPI rate", "context
# switches/s"). Only as the head of the name: "throughput with interrupt coalescing" is a
# throughput, and "by syscall" beside "by xsk" names a way of doing it, not a count.
_EVENT = r"(?:flush|shootdown|ipi|interrupt|irq|wake-?up|context[- ]switch|migration|vm[- ]?exit|exit|syscall|system call|bounce)"
_EVENTS = re.compile(rf"(?i)(?<![a-z])(?:{_EVENT}(?:e?s)(?:\s+(?:count|per\s+sec(?:ond)?)|/s(?:ec)?)?"
                     rf"|{_EVENT}\s+(?:rate|count))$")


def names_events(name: str) -> bool:
    """Does the measure `name` count events a change is made to avoid ("TLB flushes", "VM
    exits", "IPI rate"), whose count or rate is better lower?"""
    return _EVENTS.search(_CPU_COUNT.sub(" ", _OPTION.sub("", name)).strip()) is not None


def names_a_cost(word: str) -> bool:
    """Does `word` name something unwanted ("miss", "loss", "drops", "errors"), whose rate or
    count is better lower: "miss" in "miss rate" turns the rate's direction."""
    return _UNWANTED.search(word) is not None


@lru_cache(maxsize=512)  # asked of each claim, and again of a table's columns: ~6,000 calls, ~1,000 names
def better_for(metric: str | None, unit: str | None) -> Literal["higher", "lower"] | None:
    """Which way is good, judged from the metric's name and unit (a command's options in
    the name, or a count of the CPUs that ran it, say nothing of it)."""
    text = _CPU_COUNT.sub(" ", _OPTION.sub("", f"{metric or ''} {unit or ''}")).strip()
    if _LATENCY.search(text):
        return "lower"  # a latency is lower-is-better whatever it is of ("Request Latencies", "trans latency")
    if _HARMONIC_MEAN.search(text):
        return "higher"  # a mean of rates (mmtests' "Hmean faults/sec-4"): what was done per unit of time
    if _UNWANTED.search(text):
        return "lower"
    if unit and _DURATION.match(_unit_text(unit)) and "idle" not in text.lower():
        return "lower"  # a time, whatever it is of: ioping's "99 requests completed in 9.81 ms"
    if names_events(metric or ""):
        return "lower"  # "TLB flushes", "IPI rate" (per second or not): events the change avoids
    if _HIGHER.search(text):
        return "higher"
    if _LOWER.search(text):
        return "lower"
    return None


# What a rate counts, by the base word of its unit (prefix and "/time" removed).
_RATE_OF = (
    (re.compile(r"(?i)^(?:transactions?|trans\.?|tr|t)$"), "transaction rate"),
    (re.compile(r"(?i)^(?:requests?|reqs?|r|queries|q)$"), "request rate"),
    (re.compile(r"(?i)^(?:packets?|pkts?|p)$"), "packet rate"),
    (re.compile(r"(?i)^(?:conn|connections?)$"), "connection rate"),
    (re.compile(r"(?i)^(?:messages?|msgs?)$"), "message rate"),
    (re.compile(r"(?i)^(?:frames?|f)$"), "frame rate"),
    (re.compile(r"(?i)^(?:operations?|ops?)$"), "operation rate"),
    (re.compile(r"(?i)^(?:bytes?|b|bits?)$"), "throughput"),
    (re.compile(r"(?i)^(?:iops?|io)$"), "IOPS"),
)
_RATE_UNIT = re.compile(rf"(?i)^(?P<pre>(?:[kmgtp]i?)?)(?P<base>[a-z.]+?)(?:/{_TIME}|ps)$")
_DURATION = re.compile(rf"(?i)^{_TIME}$")
_LATENCY_EXTRA = re.compile(r"(?i)^(?:us/tr|usec/tr)$")


def unit_kind(unit: str | None) -> str | None:
    """What a unit measures ("trans/s" -> "transaction rate"), to name a metric written only as a unit."""
    if not unit:
        return None
    u = _unit_text(unit)
    if u.lower() == "iops" or (len(u) == 5 and u[0] in MAGNITUDES and u[1:].lower() == "iops"):
        return "IOPS"
    m = _RATE_UNIT.match(u)
    if m is not None and is_unit(u):
        for base in (m.group("pre") + m.group("base"), m.group("base")):  # "trans/s", "Ktrans/s"
            kind = next((kind for pat, kind in _RATE_OF if pat.match(base)), None)
            if kind:
                return kind
        return None
    if _DURATION.match(u):
        return "latency" if re.fullmatch(r"(?i)[mµun](?:s|secs?)|[mun]secs?", u) else "time"
    if _LATENCY_EXTRA.match(u):
        return "latency"
    if re.fullmatch(r"(?i)(?:[kmgt]i?)?(?:bits?)", u):
        return "throughput"
    return None
