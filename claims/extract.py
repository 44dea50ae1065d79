"""The claim extraction engine: one Message in, its commands, setup steps and claims out.

Stages run in order, each skipping the lines an earlier stage explained, so one printed
number becomes at most one claim:
  patch diffs and diffstats are skipped; shell lines give commands and setup steps;
  labelled blocks ("Before:"/"After:") and repeated command runs pair tool output;
  tables, LKP comparison rows, "label: value" lines, "from X to Y" and "X -> Y" give pairs;
  what is left may state a change alone ("improves by 12%").
Tool descriptions (claims.tools) name the metrics of pasted tool output and flag numbers
that are configuration rather than results.
"""
from __future__ import annotations

import math
import re
from collections.abc import Sequence

from claims.blocks import command_run_claims, labelled_block_claims
from claims.commands import find_commands, with_results
from claims.headings import tell_apart
from claims.hunks import fragment_runs, hunk_lines
from claims.lexicon import content_words, words
from claims.listings import listing_lines
from claims.lkp import lkp_claims
from claims.model import Better, Claim, Extraction, Line, Message
from claims.normalise import FLAT_MIN, unflatten_lines
from claims.numbers import (
    AGGREGATE_NAME,
    MAX_LINE,
    as_way,
    better_for,
    has_digit,
    is_rate,
    is_unit,
    stated_tolerance,
    tokens,
    unit_kind,
)
from claims.pairs import (
    stated_gains_signed,
    without_idle_counters,
    without_runs_that_did_not_happen,
)
from claims.prescan import message_might_have_claims, might_have_claims
from claims.prose import (
    Passage,
    group_claims,
    no_change_claims,
    passages,
    relative_claims,
    sentence_pairs,
    statement_claims,
    variant_groups,
)
from claims.tables import TablePasses

# a kernel log line "[    5.392845] ...", git's "mode change 100644 => 100755 path"
_LOG_LINE = re.compile(r"^\s*\[\s*\d+\.\d{3,}\]|.{0,60}\bmode (?:change )?\d{6}\b")
_DIFFSTAT = re.compile(r"^\s*\S+\s+\|\s+(?:\d+\s*[+-]*|Bin .*)$|^\s*\d+ files? changed")
# Sizes, not speed: size(1) ("text data bss dec hex filename" and its rows), pahole's
# "/* size: 72, cachelines: 2 */" and member offsets, bloat-o-meter's summary and header.
# All but the member offsets stand at the line's start: they are matched there alone, as
# _SIZE_HEAD, for a search would try each of them at every place in the line, in vain.
_SIZE_HEAD = re.compile(
    r"\s*text\s+data\s+bss\s+dec\s+hex\s+filename"
    r"|\s*\d+\s+\d+\s+\d+\s+\d+\s+[0-9a-f]+\s+\S*(?:\.o|\.ko|vmlinux)\b"
    r"|\s*/\*\s*(?:size|sum members|sum holes|padding|last cacheline|paddings|bit holes)\b.*\*/\s*$"
    r"|add/remove: \d+/\d+ grow/shrink: \d+/\d+ up/down:"
    r"|\s*function\s+old\s+new\s+delta\s*$")
_SIZE_TAIL = re.compile(r"/\*\s+\d+\s+\d+\s+\*/\s*$")  # a member's offset and size, after its declaration
_SIZE_OUTPUT = re.compile(rf"^(?:{_SIZE_HEAD.pattern})|{_SIZE_TAIL.pattern}")  # the two as one search

# What a line without a digit needs to match _SIZE_OUTPUT (its other patterns all have \d):
# one search for the three words
_DIGITLESS_SIZE = re.compile(r"/\*|text|function")

MAX_LINES = 100_000


def skipped_lines(lines: Sequence[Line]) -> set[int]:
    """Indexes of patch hunks (claims.hunks, wrapped lines included), numbered source
    listings (claims.listings) and diffstat lines: code and line counts are not claims."""
    skip = hunk_lines(lines)
    for i, ln in enumerate(lines):
        t = ln.text
        if i in skip:
            continue
        if has_digit(t):
            if _DIFFSTAT.match(t) or _log_line(t) or _size_output(t):
                skip.add(i)
        elif ("|" in t and _DIFFSTAT.match(t)) or (_DIGITLESS_SIZE.search(t) is not None and _size_output(t)):
            skip.add(i)  # without a digit only a "| Bin" diffstat row or a size header can match
    return skip | fragment_runs(lines) | listing_lines(lines)


def _log_line(t: str) -> bool:
    """`_LOG_LINE.match(t)`: its time stamp opens with "[", git's mode line has "mode "."""
    return ("[" in t or "mode " in t) and _LOG_LINE.match(t) is not None


def _size_output(t: str) -> bool:
    """`_SIZE_OUTPUT.search(t)`, without trying its anchored patterns past the start."""
    return _SIZE_HEAD.match(t) is not None or ("*/" in t and _SIZE_TAIL.search(t) is not None)


def _off(claims: list[Claim], numbers: set[int]) -> list[Claim]:
    """The claims none of whose values stands on the given lines (which a grid has read)."""
    return [c for c in claims if not any(v is not None and v.line in numbers for v in (c.baseline, c.candidate))]


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def extract_message(msg: Message) -> Extraction:
    """All commands, setup steps and claims in one message.

    A line a page flattened (a whole body on one line) is read as it is first: several
    stages read such a line whole.  When no pair comes from it, it is cut back into lines
    (`normalise.unflatten_lines`) and read again, and the pairs found in it are kept."""
    lines = msg.lines
    if len(lines) > MAX_LINES:
        # A message this long is logs or an attachment; claims sit in its text, early on.
        msg.warnings.append(f"extract: only the first {MAX_LINES} of {len(lines)} lines were read")
        lines = lines[:MAX_LINES]
    ex = _extract_lines(msg, lines)
    cut = unflatten_lines(lines)
    if len(cut) == len(lines):
        return ex
    flat = {ln.number for ln in lines if len(ln.text) >= FLAT_MIN}
    if any(c.baseline is not None and c.lines[0] in flat for c in ex.claims):
        return ex
    again = _extract_lines(msg, cut)
    known = {(c.baseline.value, c.candidate.value) for c in ex.claims if c.baseline and c.candidate}
    ex.claims += [c for c in again.claims if c.baseline is not None and c.candidate is not None
                  and c.lines[0] in flat and (c.baseline.value, c.candidate.value) not in known]
    return ex


def _as_quoted(lines: Sequence[Line]) -> str:
    """The lines as a body, each with its quote markers written back ("> " a level, which
    claims.message.quote_depth reads back to the same depth and text): the gate reads a
    paragraph's lines at their depths, as the extractor does. Without the markers, quoted
    and unquoted lines with no blank line between read as one paragraph of prose."""
    return "\n".join("> " * ln.depth + ln.text if ln.depth else ln.text for ln in lines)


def _passes_gate(msg: Message, lines: Sequence[Line]) -> bool:
    """The gate's verdict on the lines: a message it passed on reading is not joined back
    into a body to be read again (the gate reads no claim in an empty text)."""
    return message_might_have_claims(msg, "") or might_have_claims(_as_quoted(lines))


def _extract_lines(msg: Message, lines: Sequence[Line]) -> Extraction:
    """`extract_message` over the given lines of `msg`."""
    ex = Extraction(message=msg)
    if not lines or not _passes_gate(msg, lines):
        return ex
    skip = skipped_lines(lines)
    found = find_commands(lines, skip)
    ex.commands = _unique_commands(found.commands)
    ex.setup = found.setup
    claims: list[Claim] = []
    used = set(skip) | found.used
    # a wrapper that runs the benchmark ("taskset -c 2 perf stat ...") is part of the command
    # line, as in command_run_claims: only a step of its own names the output after it
    setup_lines = {k: e.setup.raw for e in found.events if e.setup and not e.command
                   for k in range(e.index, e.last + 1)}
    # a command printed with its result after a gap ("sockperf tp ... -m 64<TAB>284108.00")
    # is a row of output keyed by the command, as the prose readers take it: not neutral
    command_lines = {k for e in found.events if e.command and not e.prose_after
                     for k in range(e.index, e.last + 1)}
    # rows of several aligned value columns are a grid, whatever else their lines look like:
    # those grids read first; the rest of the tables after the blocks
    tables = TablePasses(lines, context=msg.subject or "")
    got, gridded = tables.solid(used)
    claims += got
    used |= gridded
    on_grid = {lines[i].number for i in gridded}
    got, covered = labelled_block_claims(lines, skip, command_lines, setup_lines, msg.subject)
    claims += _off(got, on_grid)
    used |= covered
    got, covered = command_run_claims(lines, found.events, skip)
    claims += _off(got, on_grid)
    used |= covered
    got, covered = lkp_claims(lines, used)
    claims += got
    used |= covered
    got, covered = tables.rest(used)
    claims += got
    used |= covered
    blocks_used = set(used)
    index_of: dict[int, list[int]] = {}  # built when a group first gives claims (few messages)
    for group in variant_groups(lines, used):
        got = group_claims(group, msg.subject)
        claims += got
        if got:
            if not index_of:
                for i, ln in enumerate(lines):
                    index_of.setdefault(ln.number, []).append(i)
            for seg in group:
                for number in range(seg.first, seg.last + 1):
                    used.update(index_of.get(number, ()))
    hard = set(skip) | found.used | blocks_used
    known = {(c.baseline.value, c.candidate.value): c for c in claims if c.baseline and c.candidate}
    hard_passages = passages(lines, hard)  # read again for "no regression" below
    stated_pairs = [c for passage in hard_passages if has_digit(passage.text[:MAX_LINE])
                    for c in sentence_pairs(passage)]  # wrapped sentences read whole
    for c in stated_pairs + statement_claims(lines, used):
        assert c.baseline is not None and c.candidate is not None
        pair = (c.baseline.value, c.candidate.value)
        if pair not in known:
            known[pair] = c
            claims.append(c)
        else:  # a sentence restating a pair of bare numbers says what they are in, and which way is better
            _fill_from(known[pair], c)
    # the passages of what is left: those read above unless the groups took lines (rarely)
    claims = _attach_relative(claims, hard_passages if used == hard else passages(lines, used))
    ex.commands = with_results(ex.commands, bool(claims))
    if ex.commands or claims:  # "no regression" is a claim to check where the mail ran or measured
        claims += [c for ln in hard_passages for c in no_change_claims(ln)]
    claims = without_runs_that_did_not_happen(without_idle_counters(claims))
    stated_gains_signed(claims)
    _apply_tools(claims, lines)
    claims = [c for c in claims if c.metric != "__config__"]
    _name_from_context(claims, lines)
    _directions_said(claims, lines)
    for c in claims:
        if c.author is None:
            c.author = msg.from_
        if c.message_id is None:
            c.message_id = msg.message_id
    ex.claims = _unique_claims(claims)
    tell_apart(ex.claims, lines)
    return ex


def _fill_from(claim: Claim, restated: Claim) -> None:
    """"Max: 41 -> 18" of a block, and "the max latency drops from 41us to 18us" below it:
    the sentence gives the unit the block's bare numbers lack, and with it the direction
    (the sentence's own, read from its words and unit)."""
    if claim.unit is None and restated.unit is not None:
        claim.unit = restated.unit
        for v in (claim.baseline, claim.candidate):
            if v is not None and v.unit is None:
                v.unit = restated.unit
    if claim.better is None and restated.better is not None:
        claim.better = restated.better


def _restates(pct: float, pair: Claim) -> bool:
    """A stated change on a line near a pair is that pair's when the sizes agree ("~20%"
    above "from 2.50 to 3.05"), not another change ("improves by 8%" under a -19% pair).
    In the pair's own sentence it is always the pair's, so a wrong sum is caught. Two drops
    of more than half are compared as folds: near -100% percents hardly differ (a 130-fold
    drop is -99.2%, a 1,700-fold one -99.9%), the factors do."""
    a, b = pair.baseline.value if pair.baseline else 0.0, pair.candidate.value if pair.candidate else 0.0
    if not a:
        return True
    change = (b - a) / a * 100.0
    if -100.0 < pct <= -50.0 and -100.0 < change <= -50.0:
        folds = (100.0 / (100.0 + pct), 100.0 / (100.0 + change))
        return max(folds) / min(folds) <= 1.35
    actual = abs(change)
    return abs(abs(pct) - actual) <= max(2.0, 0.35 * actual)


RESTATED_WITHIN = 10  # lines: how far from a pair a sentence that repeats its change may stand


def _attach_relative(claims: list[Claim], left: Sequence[Passage]) -> list[Claim]:
    """Changes stated alone in the passages `left` become relative claims, unless they
    restate a pair's change ("~20% improvements (from 2.50Mpps to 3.05Mpps)") — then they
    attach to that pair."""
    # a pair's stated change, by value and where it stands: the same percent far away in the
    # message is another claim, not this pair restated
    stated = [(round(c.claimed_change_pct, 1), c.lines) for c in claims
              if c.claimed_change_pct is not None]
    # and by what it is of: the same change of the same measure, anywhere in the message (the
    # 0-day robot's "a -12.3% regression of will-it-scale.per_process_ops" over its table)
    stated_of = [(round(c.claimed_change_pct, 1), c.metric) for c in claims
                 if c.claimed_change_pct is not None and c.baseline is not None]
    open_pairs: dict[int, list[Claim]] = {}  # pairs without a stated change, by line number
    for c in claims:
        if c.baseline is not None and c.claimed_change_pct is None and c.lines[1] - c.lines[0] < 50:
            for n in range(c.lines[0] - 2, c.lines[1] + 3):
                open_pairs.setdefault(n, []).append(c)
    out = list(claims)
    for ln in left:
        for rel in relative_claims(ln):
            v = rel.claimed_change_pct
            at = rel.lines[0]
            if v is None or any(abs(round(v, 1) - sv) <= 0.11
                                and first - RESTATED_WITHIN <= at <= last + RESTATED_WITHIN
                                for sv, (first, last) in stated) \
                    or any(abs(round(v, 1) - sv) <= 0.11 and rel.metric.strip() and _names(rel.metric, metric)
                           for sv, metric in stated_of):
                continue
            near = [c for c in open_pairs.get(at, ()) if c.claimed_change_pct is None
                    and (c.lines[0] <= at <= c.lines[1] and not _another_measure(rel.metric, c.metric)
                         or _restates(v, c))]
            if len(near) > 1:  # two pairs near: the one the sentence names ("10% more IOPS")
                near = [c for c in near if _names(rel.metric, c.metric)] or near
            if len(near) > 1:  # else the one whose change it is to its rounding
                near = [c for c in near if c.change_pct is not None
                        and abs(abs(v) - abs(c.change_pct)) <= max(0.6, 0.05 * abs(v))]
            if len(near) == 1:
                # a change of merit beside a pair whose direction is known: the way it moves
                near[0].claimed_change_pct = round(_merit_as_way(v, near[0]), 2) if rel.merit else v
                continue
            out.append(rel)
    return out


def _merit_as_way(merit: float, pair: Claim) -> float:
    """A change of merit stated beside `pair` as the way the pair's measure moves. Words
    of merit under 100% say a factor or a percentage alike ("a 1.5x speedup", "20% faster"
    of a time: the ratio inverted, -33% and -17%; or the corpus' "5% improvement": -5%), and
    the reading is not kept with the number; where the pair's printed numbers are the
    ratio's change and not the percentage's, the ratio is what was said ("1.5x speedup
    (from 3.0s to 2.0s)" is -33%, not a -50% the numbers contradict)."""
    way = as_way(merit, pair.better)
    ratio = as_way(merit, pair.better, factor=True)
    change = pair.change_pct
    if change is not None and abs(ratio - change) <= stated_tolerance(ratio) < abs(way - change):
        return ratio
    return way


def _another_measure(sentence_metric: str, metric: str) -> bool:
    """Does a stated change name a measure the pair is not of ("Throughput is identical (9.41
    vs 9.40 Gbps), but CPU usage drops 15%": the 15% is the CPU's, not the throughput's)?"""
    r, p = sentence_metric.lower(), metric.lower()
    if not r.strip() or _names(r, p) or _names(p, r):
        return False
    return better_for(r, None) is not None


def _names(sentence_metric: str, metric: str) -> bool:
    """Does a stated change's measure ("IOPS per core") name the pair's metric ("IOPS")?"""
    words = set(re.findall(r"\w+", sentence_metric.lower()))
    own = re.findall(r"\w+", metric.lower())
    return bool(own) and all(w in words for w in own)


def _apply_tools(claims: list[Claim], lines: Sequence[Line]) -> None:
    """Name pasted tool output the way its tool description does; drop configuration."""
    pairs = [c for c in claims if c.baseline is not None and c.candidate is not None]
    if not pairs:
        return
    try:
        from claims.tools import all_tools

        tools = all_tools()
    except Exception:  # a broken tool module must not stop extraction
        return
    texts = [ln.text for ln in lines]
    by_line: dict[int, list] = {}
    for tool in tools:
        try:
            blocks = tool.find_outputs(texts)
        except Exception:
            continue
        for block in blocks:
            for s in block.samples:
                if s.line is not None and 0 <= s.line < len(lines):
                    by_line.setdefault(lines[s.line].number, []).append((tool.name, s))
    if not by_line:
        return
    for c in pairs:
        assert c.baseline is not None
        for name, s in by_line.get(c.baseline.line or -1, []):
            if not _close(float(s.value), c.baseline.value):
                continue
            if getattr(s, "config", False) or getattr(s, "kind", None) == "config" or \
                    (s.label or "").lower() in ("config", "configuration", "setting"):
                c.metric = "__config__"
                break
            c.metric, c.tool = s.metric, name
            shared = c.candidate is not None and c.candidate.unit == c.baseline.unit  # else printed at its own scale
            c.unit = s.unit or c.unit
            c.better = s.better or c.better
            c.baseline.unit = c.unit
            if c.candidate is not None and shared:
                c.candidate.unit = c.unit
            break


_TEST_NAME = re.compile(r"\b(?:TCP|UDP|SCTP|DCCP)_[A-Z]{2,8}\b|(?<!\S)-t\s+(?P<t>[A-Za-z][\w-]{1,30})")


_COPULA_END = re.compile(r"(?i)(?<=\w)\s+(?:is|are|was|were|=)$")


def _name_from_context(claims: list[Claim], lines: Sequence[Line]) -> None:
    """A metric written only as its unit ("trans/s"), or named only by the words that
    tell its sides apart ("baseline: 3.41 Mpps"), is named by what it measures and the
    test named just above it: "TCP_RR transaction rate"."""
    index = {ln.number: i for i, ln in enumerate(lines)}
    for c in claims:
        c.metric = _COPULA_END.sub("", c.metric)  # "cpu is 100%": the name is "cpu" (a word stays before)
        if c.unit is None and c.baseline is not None and is_unit(c.metric) and c.metric != "%" \
                and not AGGREGATE_NAME.match(c.metric):  # "Min:" (cyclictest) is a minimum
            c.unit = c.metric  # a table column headed by its unit ("| kernel | Mpps |")
            for v in (c.baseline, c.candidate):
                if v is not None:
                    v.unit = v.unit or c.unit
        if c.metric.lower() not in ((c.unit or "").lower(), "value", "") and not _sides_only(c.metric) or c.tool:
            continue
        i = index.get(c.lines[0])
        if c.unit is None and i:
            above = next((ln for ln in reversed(lines[max(0, i - 2):i]) if ln.text.strip()), None)
            if above is not None:
                _unit_from_intro(c, above)
        kind = unit_kind(c.unit) or c.unit or "value"
        test = None
        if i is not None:
            for ln in reversed(lines[max(0, i - 12):i]):
                found = [m.group("t") or m.group(0) for m in _TEST_NAME.finditer(ln.text[:MAX_LINE])]
                if found:
                    test = found[-1]
                    break
        c.metric = f"{test} {kind}" if test else kind


def _sides_only(name: str) -> bool:
    """Is `name` made only of the words that tell sides apart ("baseline", "this" of
    "Before this series:", "patched kernel"): no measure's name? (A row's number, "16", has
    no words at all: it names the row.)"""
    return bool(words(name)) and not content_words(name)


# the author says which way is better: "(higher is better)", "lower is better:", "smaller
# is better"
_BETTER_SAID = re.compile(r"(?i)\b(?P<way>higher|lower|bigger|larger|smaller|more|less)\s+(?:is|=)\s+better\b")
_WAY: dict[str, Better] = {"higher": "higher", "bigger": "higher", "larger": "higher", "more": "higher",
                           "lower": "lower", "smaller": "lower", "less": "lower"}
SAID_REACH = 6  # lines above a claim's first where the words that head its numbers stand


# what a measure is by its own name or unit, whatever the author says over a table of many
_MEASURED_AS = re.compile(r"(?i)latenc|\btime|duration|throughput|bandwidth|iops|pps\b|bps\b|/s\b|/sec\b|"
                          r"\brate\b|usage|utili[sz]|\bcpu\b|%")


def _directions_said(claims: list[Claim], lines: Sequence[Line]) -> None:
    """A claim whose name gives no direction takes the one the author wrote over its
    numbers ("Here are the numbers (usec, lower is better):"), the nearest above it
    within SAID_REACH lines, or on its own lines. So does a claim whose name gives one
    only by a word in it that is no measure: a test named "will-it-scale/page_fault2"
    under "(higher is better)" counts operations, not faults. A name or unit that says
    what is measured (a latency, a time, a rate, a share) keeps its own direction."""
    undirected = [c for c in claims if c.baseline is not None and (
        c.better is None or _MEASURED_AS.search(f"{c.metric} {c.unit or ''}") is None)]
    if not undirected:
        return
    index = {ln.number: i for i, ln in enumerate(lines)}
    for c in undirected:
        first, last = index.get(c.lines[0]), index.get(c.lines[1])
        if first is None or last is None:
            continue
        for i in range(last, max(-1, first - SAID_REACH - 1), -1):
            m = _BETTER_SAID.search(lines[i].text[:MAX_LINE])
            if m is not None:
                c.better = _WAY[m.group("way").lower()]
                break


# a line that introduces the values under it: it ends on a verb or a colon
_INTRO_END = re.compile(r"(?i)(?:\b(?:is|are|was|were|be)|:)\s*$")


def _unit_from_intro(c: Claim, above: Line) -> None:
    """A claim with no name or unit, under a sentence that introduces its values and names
    their rate or their time ("ops/sec of memtier_benchmark client is" over "dim off:
    978437.23" / "dim on: 1143638.28"; "Kernel compile, elapsed seconds, 5 runs:"), a blank
    line between or not: that unit is the claim's, once, and so names it."""
    if _INTRO_END.search(above.text) is None:
        return
    rates = {w for t in tokens(above.text[:MAX_LINE])
             if t.kind == "word" and (is_rate(w := t.text.strip(",.;:()")) or unit_kind(w) in ("time", "latency"))}
    if len(rates) == 1:
        c.unit = rates.pop()
        c.better = c.better or better_for(c.unit, c.unit)
        for v in (c.baseline, c.candidate):
            if v is not None:
                v.unit = v.unit or c.unit


def _unique_commands(cmds: list) -> list:
    seen: set[tuple[str, str | None]] = set()
    out = []
    for c in cmds:
        key = (" ".join(c.raw.split()), c.host)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def _unique_claims(claims: list[Claim]) -> list[Claim]:
    seen: set[tuple] = set()
    out = []
    for c in claims:
        if c.baseline is not None and c.candidate is not None and c.baseline.value == 0 \
                and c.candidate.value == 0:
            continue  # "RX-missed: 0" on both sides: a counter that stayed idle, no claim
        key = (c.baseline.value if c.baseline else None, c.candidate.value if c.candidate else None,
               c.claimed_change_pct if c.baseline is None else None, c.lines, c.metric)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out
