"""Pairing two printed rows of numbers into claims.

Every shape of comparison — two tool-output blocks, two table rows, two "label: value"
lines — ends here: a baseline row and a candidate row whose numbers stand in the same
places are paired position by position.  Spreads (`+- 0.33%`), run counts and stated
changes ("(+37.4%)", "p=0.031") attach to the values; they never become claims of their own.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from claims.model import Better, Claim, Value
from claims.numbers import (
    MAGNITUDES,
    RUNS_NAME,
    SPREAD_NAME,
    Token,
    better_for,
    common_scale,
    is_unit,
    skeleton,
    stated_tolerance,
    tokenize,
    unit_kind,
)

_ANNOTATION = re.compile(r"\((?P<body>[^()]{0,120})\)")
_UNIT_AFTER = re.compile(r"\s*[(\[][^()\[\]]{1,12}[)\]]$")  # "stddev (%)": a column's unit after its name
_STATED = re.compile(r"(?<![\w.+/±])(?P<sign>[+-])(?!-)\s?(?P<num>\d+(?:\.\d+)?)\s?%")  # not a "+-" spread
# "(10.0% above baseline)", "(3% slower)": an unsigned change whose word gives the sign
_STATED_WORD = re.compile(r"(?i)(?<![\w.+-])(?P<num>\d+(?:\.\d+)?)\s?%\s+(?:(?P<up>above|higher|more|faster|better|"
                          r"up|increase|improvement|gain|over)|(?P<down>below|lower|less|slower|worse|down|"
                          r"decrease|drop|regression|loss|under))\b")
_PVAL = re.compile(r"(?i)\bp\s?(?:-value)?\s?[=<]\s?(?P<p>0?\.\d+|\d(?:\.\d+)?(?:e-?\d+)?)")
_KEY_UNIT = re.compile(r"\((\S{1,12})\)$")  # "clat (usec)": the unit a key gives its values
_RUNS = re.compile(r"(?i)\b(?:n\s?=\s?(?P<n1>\d{1,4})|(?P<n2>\d{1,4})\s+runs?\b|-r\s?(?P<n3>\d{1,4}))")


@dataclass
class Row:
    """A labelled sequence of printed numbers: one side of a comparison."""

    label: str | None
    tokens: list[Token]
    first: int  # line number in the original text
    last: int
    depth: int = 0
    author: str | None = None
    message_id: str | None = None
    stated_pct: float | None = None  # "(+37.4%)" written beside the row
    p_value: float | None = None
    runs: int | None = None
    key: str | None = None  # what is measured (a row key such as "TCP_RR"), if known
    columns: list[str | None] = field(default_factory=list)  # metric names by value position
    unit: str | None = None  # a unit written once for the row ("... 4.7 Mpps")
    label_in_text: bool = True  # the tokens start with the row's own "label:" (a whole line)

    @property
    def values(self) -> list[Token]:
        return [t for t in self.tokens if t.kind == "value"]


def strip_annotations(text: str) -> tuple[str, float | None, float | None]:
    """Remove "(+37.4%)" / "(-13.7%, p=0.031 vs net-next)" and return what they stated."""
    stated: float | None = None
    pval: float | None = None

    def repl(m: re.Match[str]) -> str:
        nonlocal stated, pval
        body = m.group("body")
        s = _STATED.search(body)
        w = _STATED_WORD.search(body) if s is None else None
        p = _PVAL.search(body)
        if s is None and w is None and p is None:
            return m.group(0)
        if s is not None and stated is None:
            stated = float(s.group("num")) * (-1 if s.group("sign") == "-" else 1)
        elif w is not None and stated is None:
            stated = float(w.group("num")) * (-1 if w.group("down") else 1)
        if p is not None and pval is None:
            try:
                pval = float(p.group("p"))
            except ValueError:
                pval = None
        return " "

    return _ANNOTATION.sub(repl, text[:4000]), stated, pval


def make_row(label: str | None, text: str, first: int, last: int | None = None, **kw) -> Row:
    body, stated, pval = strip_annotations(text)
    row = Row(label=label, tokens=tokenize(body), first=first, last=last if last is not None else first,
              stated_pct=stated, p_value=pval, **kw)
    return row


def units_of(tokens: list[Token]) -> list[str | None] | None:
    """The unit of each value in order, glued ("1892844.25pps") or written apart ("1854448 pps,"),
    so that two prose lines that print the same measures pair even when spaced or footnoted
    differently ("Baseline: 1854448pps, 860464156 bps. [3]" / "Batch: 1892844.25pps, 878280070bps.");
    None when a value carries no unit: bare numbers need the same words around them."""
    out: list[str | None] = []
    for i, t in enumerate(tokens):
        if t.kind != "value":
            continue
        unit = t.unit
        if unit is None and i + 1 < len(tokens) and tokens[i + 1].kind == "word":
            word = tokens[i + 1].text.strip("()[],;:.")
            unit = word if is_unit(word) else None
        if unit is None:
            return None
        out.append("%" if t.percent else unit.lower())
    return out


def spreads_of(tokens: list[Token]) -> dict[int, Token]:
    """Which value each spread qualifies: a bare "± x" the value just before it; a spread in
    parentheses ("( +- 0.09% )", perf stat) the first value of the line."""
    out: dict[int, Token] = {}
    first = next((i for i, t in enumerate(tokens) if t.kind == "value"), None)
    for s, t in enumerate(tokens):
        if t.kind != "spread":
            continue
        opened = any(x.text.startswith("(") for x in tokens[max(0, s - 2):s])
        if opened and first is not None:
            out.setdefault(first, t)
            continue
        prev = next((i for i in range(s - 1, -1, -1) if tokens[i].kind == "value"), None)
        if prev is not None:
            out.setdefault(prev, t)
    return out


def metric_name(tokens: list[Token], i: int, label_apart: bool = False) -> str:
    """Words that name the value at `tokens[i]`: the words after it, else the words before.
    `label_apart`: the row's label was cut off before the tokens ("base:" of "base:
    transactions: 1234567"), so a "name:" that opens them names a value."""
    packed = _packed_name(tokens, i) or _spaced_packed_name(tokens, i)
    if packed is not None:
        return packed
    if "=" in tokens[i].text:
        return tokens[i].text.strip("()[],;:").split("=", 1)[0]
    after: list[str] = []
    named_first = i > 0 and tokens[i - 1].kind == "word" and tokens[i - 1].text.strip("()[],;:").isalpha()
    ends = tokens[i].text.endswith((",", ";"))  # "IOPS = 297K, avg latency = 214.59us": the item ends here
    for k, t in enumerate(tokens[i + 1:i + 6] if not ends else (), i + 1):
        w = t.text.strip("()[],;:")
        if t.kind != "word" or not w or w in ("#", "|", "+-", "±", "==>", "=>", "->", "=", "~"):
            break
        if t.start - tokens[k - 1].end >= 2 and (after or k + 1 < len(tokens) and tokens[k + 1].kind == "value"):
            # "rx 1.23 Mpps  tx 1.45 Mpps", "real 112.3s   user 3481.2s": a gap of columns ends
            # the item, as a comma does (perf stat's "412,876,301      cache-misses" is one)
            break
        if t.text.endswith(":") and not is_unit(w) and any(x.kind == "value" for x in tokens[i + 2:i + 4]) \
                or _GLUED_ITEM.match(w):
            break  # "(622616400bps) errors: 7915231", "P:99 I:200" (cyclictest): the next items, not this value's name
        if named_first and k + 1 < len(tokens) and tokens[k + 1].kind == "value" and not is_unit(w):
            break  # "rx 102 tx 55": names stand before their values, so this one is the next value's
        after.append(w.rstrip(".") or w)  # "1.2 Mpps. After ...": the sentence ends there
        if t.text.endswith((",", ";", ")", ":", ".")) or len(after) >= 4:
            break
    unit = tokens[i].unit
    if unit is not None and len(after) > 1 and "".join(after) == unit:
        after = [unit]  # "12.34 M ops/s": the words spell the value's unit (Mops/s), as one would
    named = _named_before(tokens, i, label_apart)
    if named and after and _aside(tokens[i + 1]):
        after = []  # "tps = 512345.67 (without initial connection time)": the name stands before
    only_unit = not after or (unit is not None and after == [unit])
    if named and only_unit:
        return named  # "avg = 145 nsecs, total: 1455980341 nsecs, count: 9985224"
    if not after and (share := _share_of(tokens, i)) is not None:
        return share
    before: list[str] = []
    for j in range(i - 1, max(0, i - 4) - 1, -1):
        t = tokens[j]
        w = t.text.strip("()[],;:")
        if t.kind != "word" or not w or w in ("#", "|", "+-", "±", "=", "==>", "=>", "->", "~", "-", "*", "•") \
                or t.text.endswith((":", ",")):
            break  # "1797887912bps = 224735989bytes/sec": a sign between values names neither, nor a bullet
        if j and tokens[j - 1].kind == "value" and tokens[j - 1].unit == t.text:
            break  # "36 MB/s 3863 calls/s": the unit of the value before is not this one's name
        before.insert(0, w)
    if before and (not after or (unit and after[0] == unit and len(after) == 1)):
        return " ".join(before + after)
    return " ".join(after or before)


def _share_of(tokens: list[Token], i: int) -> str | None:
    """The name of a percentage in parentheses after the words that name the value before
    them ("7.71s user time (  0.13%)", stress-ng: the share of the CPU time available):
    those words, as a share. None for any other value."""
    t = tokens[i]
    if not (t.percent and not t.signed and t.text.endswith(")")):
        return None
    j = i - 1 if t.text.startswith("(") else i - 2
    if j < 0 or not (t.text.startswith("(") or tokens[i - 1].text == "("):
        return None
    words: list[str] = []
    while j >= 0 and tokens[j].kind == "word" and len(words) < 4 and tokens[j].text.strip("()[],;:").isalpha():
        words.insert(0, tokens[j].text)
        j -= 1
    if not words or j < 0 or tokens[j].kind != "value" or tokens[j].percent or is_unit(words[0]):
        return None
    return " ".join(words) + " (%)"


_GLUED_ITEM = re.compile(r"[A-Za-z]{1,12}[:=]\d")  # a name and its value in one word


def _aside(tok: Token) -> bool:
    """Does `tok` open a parenthesis of words after a value ("(without initial connection
    time)", "(higher is better)"), not a unit written in one ("(MB/s)")? Such an aside
    says how or what for; the value's name, where one stands before it, is that one."""
    return tok.kind == "word" and tok.text.startswith("(") and not is_unit(tok.text.strip("()[],;:"))


def _packed_name(tokens: list[Token], i: int) -> str | None:
    """The name of one number of a packed word ("Min/Mean/Max = 77,665/90,153/106,895",
    which the tokenizer reads as three values one "/" apart): the name at its place, after
    the packed word ("Min/Mean/Max: Min"), so a name that is also a unit ("Min") is not
    read as one."""
    g = i
    while g > 0 and tokens[g - 1].kind == "value" and tokens[g - 1].end + 1 == tokens[g].start:
        g -= 1
    n = i + 1
    while n < len(tokens) and tokens[n].kind == "value" and tokens[n - 1].end + 1 == tokens[n].start:
        n += 1
    if n - g < 2 or g < 2 or tokens[g - 1].text != "=" or tokens[g - 2].kind != "word":
        return None
    names = tokens[g - 2].text.split("/")
    return f"{tokens[g - 2].text}: {names[i - g]}" if len(names) == n - g and all(names) else None


def _spaced_packed_name(tokens: list[Token], i: int) -> str | None:
    """The same for numbers written apart, each with its unit ("min/avg/max/mdev = 82.1 us /
    99.1 us / 180.2 us / 12.3 us", ioping): the name at the value's place among them."""
    def after(k: int) -> int | None:  # the value after the value at k: its unit, "/", a value
        n = k + 1 if k + 1 < len(tokens) and tokens[k + 1].kind == "word" and tokens[k + 1].text != "/" else k
        return n + 2 if n + 2 < len(tokens) and tokens[n + 1].text == "/" and tokens[n + 2].kind == "value" else None

    start = i
    while start >= 2 and tokens[start - 1].text == "/":
        q = start - 2
        if q >= 1 and tokens[q].kind == "word" and tokens[q - 1].kind == "value":
            q -= 1  # the unit of the value before the "/"
        if tokens[q].kind != "value":
            break
        start = q
    if start < 2 or tokens[start - 1].text != "=" or tokens[start - 2].kind != "word":
        return None
    run = [start]
    while (n := after(run[-1])) is not None:
        run.append(n)
    names = tokens[start - 2].text.split("/")
    if len(run) < 2 or len(names) != len(run) or not all(names) or i not in run:
        return None
    return f"{tokens[start - 2].text}: {names[run.index(i)]}"


def _named_before(tokens: list[Token], i: int, label_apart: bool = False) -> str | None:
    """The name an item of a list written name first gives its value: "avg =" just before
    it, or "total:" after an earlier item of the line (a line's leading "Before patch:" is
    its label, not a name)."""
    j = i - 1
    if j >= 1 and tokens[j].text == "=" and tokens[j - 1].kind == "word":
        j -= 1
    elif not (j >= 0 and tokens[j].kind == "word" and tokens[j].text.endswith(":")
              and (label_apart and j == 0 or any(t.kind == "value" for t in tokens[:j]))):
        return None
    w = tokens[j].text.strip("()[],;:=")
    if not w or not w[0].isalpha() or (is_unit(w) and j >= 1 and tokens[j - 1].kind == "value"):
        return None  # "12 Mbps = 1.5 MB/s": the unit of the number before; "IOPS = 297K" names it
    if tokens[j + 1].text != "=":
        return w
    words = [w]  # "160, Total Rate = 1,441,759 op/s; Percpu Rate = 9,011": the name's other words
    for t in reversed(tokens[max(0, j - 3):j]):
        if t.kind != "word" or t.text.endswith((",", ";", ":")) or not t.text[:1].isalpha():
            break
        words.insert(0, t.text)
    return " ".join(words)


def _value(tok: Token, row: Row, spread: Token | None, unit: str | None) -> Value:
    v = Value(value=tok.value if tok.value is not None else 0.0, label=row.label, unit=unit,
              line=row.first, runs=row.runs)
    if spread is not None:
        v.spread = spread.value
        v.spread_kind = "pct" if spread.percent else "abs"
    return v


def label_end(tokens: list[Token]) -> int:
    """Index just past a leading "label:" in a row (numbers inside it are not results)."""
    for i, t in enumerate(tokens[:12]):
        if t.text.endswith(":") and i + 1 < len(tokens):
            return i + 1
    return 0


def pair_rows(base: Row, cand: Row, *, tabular: bool, context: str | None = None,
              better: Better = None, stated: list[float | None] | None = None,
              fixed: frozenset[int] = frozenset()) -> list[Claim]:
    """Claims from two rows whose numbers stand in the same places (same shape of line).

    `tabular` rows (tool output, tables) keep unchanged cells when something else in the
    row changed; prose rows drop them (a duration written on both sides is no claim).
    `fixed`: positions among the values that hold a reference, not a result.
    """
    if skeleton(base.tokens) != skeleton(cand.tokens):
        bv, cv = base.values, cand.values
        if not (bv and len(bv) == len(cv) and (tabular or units_of(base.tokens) == units_of(cand.tokens))):
            return []
    bidx = [i for i, t in enumerate(base.tokens) if t.kind == "value"]
    cidx = [i for i, t in enumerate(cand.tokens) if t.kind == "value"]
    skip_b = label_end(base.tokens) if base.label_in_text else 0
    out: list[Claim] = []
    pairs = [(n, bi, ci) for n, (bi, ci) in enumerate(zip(bidx, cidx, strict=False)) if bi >= skip_b]
    changed = any(base.tokens[bi].value != cand.tokens[ci].value for _, bi, ci in pairs)
    if not changed:
        return []
    bspread, cspread = spreads_of(base.tokens), spreads_of(cand.tokens)
    for k, bi, ci in pairs:
        bt, ct = base.tokens[bi], cand.tokens[ci]
        if bt.value == ct.value and (not tabular or k in fixed):
            continue
        if bt.percent != ct.percent:
            continue
        col = base.columns[k] if k < len(base.columns) else None
        if col and SPREAD_NAME.match(_UNIT_AFTER.sub("", col)):
            continue  # perf trace's "stddev (%)" column: the runs' spread, no result
        named = metric_name(base.tokens, bi, not base.label_in_text) if not col else ""
        if named and SPREAD_NAME.match(named.rsplit(": ", 1)[-1]):
            continue  # fio's "avg=38.12, stdev=11.02": the spread of the samples, no result
        metric = col or named or base.key or bt.unit or "value"
        if not col and bt.text.startswith("(") and RUNS_NAME.match(metric):
            continue  # "16 (110458 samples)" (schbench): how many measurements, not one of them
        if not col and base.key and metric == bt.unit and unit_kind(metric) is None and len(pairs) == 1:
            metric = base.key  # "MemFree:   1234567 kB": a unit that says nothing of what it counts
        if base.key and col and base.key not in base.columns:  # a key among the columns names its own value
            metric = f"{base.key} {col}"
        unit = bt.unit or ct.unit or base.unit or cand.unit
        if not col and base.key and "=" in bt.text and base.key != metric:
            metric = f"{base.key} {metric}"  # "clat (usec): min=20, max=4100": the key names the line
            pu = _KEY_UNIT.search(base.key)
            if unit is None and pu is not None and is_unit(pu.group(1)):
                unit = pu.group(1)
        if unit and unit.startswith("%") and bt.percent:
            unit = "%"
        bunit, cunit = (_named_scale(u, metric) for u in _side_units(bt, ct, unit))
        claim = Claim(metric=metric, unit=bunit, better=better or better_for(metric, unit),
                      baseline=_value(bt, base, bspread.get(bi), bunit),
                      candidate=_value(ct, cand, cspread.get(ci), cunit),
                      lines=(min(base.first, cand.first), max(base.last, cand.last)),
                      context=context, depth=cand.depth, author=cand.author,
                      message_id=cand.message_id, p_value=cand.p_value)
        st = stated[k] if stated and k < len(stated) else None
        claim.claimed_change_pct = st if st is not None else cand.stated_pct
        out.append(claim)
    return out


IDLE_RATE = 1.0  # events (packets, kB) per second: less than one is no traffic at all
BUSY_RATE = 1000.0  # what a counter of the row that does see the test's traffic shows
# a count per second as sar, ifstat or nstat print it ("txpck/s", "rxkB/s", "calls/s"):
# no M/G/T scale before it, so the number is what passed in one second
_PER_SECOND = re.compile(r"^(?![MGT])[A-Za-z%]*/s(?:ec)?$")


def _per_second_count(c: Claim) -> bool:
    name = c.unit or (c.metric.split()[-1] if c.metric else "")
    return _PER_SECOND.match(name) is not None


def without_idle_counters(claims: list[Claim]) -> list[Claim]:
    """Drop the counters of a row that saw no traffic: a per-second count below one on
    both sides, beside a per-second count of the same pair of rows in the thousands on
    both sides (sar -n DEV under a UDP receive test: "rxpck/s 654230.40  txpck/s 0.10";
    the reverse direction's packets and kB are noise, not what the test measured).
    Claims of different row pairs (lines, labels) are judged apart."""
    rows: dict[tuple, list[Claim]] = {}
    for c in claims:
        if c.baseline is not None and c.candidate is not None and _per_second_count(c):
            key = (c.baseline.line, c.candidate.line, c.baseline.label, c.candidate.label)
            rows.setdefault(key, []).append(c)
    idle: set[int] = set()
    for rates in rows.values():
        sides = [(abs(c.baseline.value), abs(c.candidate.value)) for c in rates]  # type: ignore[union-attr]
        if len(rates) < 2 or not any(min(s) >= BUSY_RATE for s in sides):
            continue
        idle |= {id(c) for c, s in zip(rates, sides, strict=True) if max(s) < IDLE_RATE}
    return [c for c in claims if id(c) not in idle] if idle else claims


def without_runs_that_did_not_happen(claims: list[Claim]) -> list[Claim]:
    """Drop a claim whose one side is a throughput of exactly zero: a benchmark that
    measures more-is-better and prints 0 did not run there (an operation the setup does not
    support, "0(KiB/s)" in virtio-fs's fio table; a failed run), so the claim's -100% is no
    change anyone could reproduce. Counters that may fall to zero (retransmits, errors)
    are lower-is-better and stay."""
    def zero_rate(c: Claim) -> bool:
        return c.better == "higher" and c.baseline is not None and c.candidate is not None \
            and (c.baseline.value == 0) != (c.candidate.value == 0)

    return [c for c in claims if not zero_rate(c)]


def stated_gains_signed(claims: list[Claim]) -> None:
    """A stated percentage that is the pair's change in size but not in sign is a gain, not
    a change ("123.4s -> 118.9s, a 3.6% speedup"; compare tools print "0.3847 (1.69%)" for
    a time that fell): it is signed as the printed numbers move, so that the claim says one
    thing. A size that does not match stays as written, for the arithmetic check."""
    for c in claims:
        stated, change = c.claimed_change_pct, c.change_pct
        if stated and change and (stated > 0) != (change > 0) \
                and abs(abs(stated) - abs(change)) <= stated_tolerance(stated):
            c.claimed_change_pct = -stated


def _named_scale(unit: str | None, metric: str) -> str | None:
    """A bare magnitude ("IOPS=2.51M", "IOPS=1523k") joined to the unit the metric's name
    ends with: 2.51 MIOPS, as the grid joins a cell's to its column's ("950K" under "pps")."""
    if unit not in MAGNITUDES or not metric.split():
        return unit
    word = metric.split()[-1]
    return unit + word if is_unit(word) and is_unit(unit + word) else unit


def _side_units(bt: Token, ct: Token, unit: str | None) -> tuple[str | None, str | None]:
    """Each side's unit: one for both, or each its own when the tool changed its scale
    between them ("1,441,759 op/s" / "1,992 kop/s"). Values stay as printed; the units
    put them in one (Claim.change_pct reads them)."""
    if common_scale(bt.unit, ct.unit) is None:
        return unit, unit
    return bt.unit, ct.unit


def runs_in(text: str) -> int | None:
    m = _RUNS.search(text[:2000])
    if not m:
        return None
    return int(m.group("n1") or m.group("n2") or m.group("n3"))
