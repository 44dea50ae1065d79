"""Pasted output compared block against block.

Two shapes: blocks under labels ("Before:" / "After:", "iperf3 results after the change:")
and runs of one command repeated after different setup steps (`echo 0 > .../gro_flush_timeout`
then `echo 2000 > ...`, each followed by the command and its output).  Lines of the two
blocks that have the same shape are paired number by number, whatever the tool.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from difflib import SequenceMatcher
from functools import lru_cache

from claims.commands import ShellEvent
from claims.grid import name_kind
from claims.lexicon import content_words, cue, distinguishes, names_key
from claims.model import Claim, Line
from claims.numbers import MAX_LINE, Token, is_unit, skeleton, tokenize, tokens
from claims.pairs import Row, make_row, pair_rows, runs_in
from claims.setup_steps import variant_key
from claims.tools.lines import line_samples
from claims.variants import clean_label, decided, pick_baseline, rank, role

MAX_BLOCK = 400
MAX_SERIES = 32  # blocks in one comparison; more is a log, and bounds the pairwise label checks
_HEADERISH = re.compile(r"^(?:subject|date|from|to|cc|signed-off-by|link|fixes|reviewed-by|acked-by|"
                        r"tested-by|reported-by|message-id|in-reply-to|references)$", re.I)


@dataclass
class Block:
    label: str | None
    start: int  # index of the first line after the label
    end: int  # index past the last line
    label_index: int | None = None
    header: list[str] = field(default_factory=list)  # column names written on the label line
    arrow: bool = False  # an arrow line ("-->", "=>") stands between this block and the one before
    first_data: int = 0  # index of the block's first line of numbers
    window: int = 0  # index of the first line after the previous block's numbers


@lru_cache(maxsize=256)  # a block's label lines are asked of several times as it opens (the callers only read it)
def block_label(text: str) -> tuple[str, list[str]] | None:
    """('Before', ['Secs', ...]) for a line that introduces a block of results: any short
    text ("without prefetch", "- after", "1.1 Zero-copy mode", "Prior:", the sentence that
    introduces a run), with the column names written after its colon, if any."""
    s = text.strip()
    if not s or len(s) > 160:
        return None
    header: list[str] = []
    head, colon, rest = s.partition(":")
    if colon and rest.strip() and not any(t.kind == "value" for t in tokens(rest)) and len(head) <= 60 \
            and not rest.strip().endswith(":") and len(rest.split()) >= 2 and not is_sentence(rest):
        label, header = head, rest.split()  # "Before:  Secs  MB/s"
    else:
        label = s
    label = clean_label(_SECTION.sub("", label))
    if not label or len(label.split()) > 24 or _HEADERISH.match(label) or not any(ch.isalpha() for ch in label):
        return None
    return label, header


_SECTION = re.compile(r"^\s*(?:[-*•#]+\s*)?(?:\(?\d{1,2}(?:\.\d{1,2})*[.)]|\d{1,2}(?:\.\d{1,2})+|[a-z][.)]|[ivx]{1,4}[.)])"
                      r"\s+(?=[A-Za-z])")
_ARROW_LINE = re.compile(r"^\s*(?:-+>|=+>|→|⇒|vs\.?|versus)\s*$", re.I)
_RULE = re.compile(r"^\s*[-=*~_#+|.:]{3,}\s*$")
# a compiler's message ("foo.c:12:3: warning ..."), else code by its marks: each of the
# patterns of _CODE has one of _CODE_MARKS, which most lines lack (no regex scan for them)
_COMPILER = re.compile(r"^\S+\.\w{1,4}:\d+:(?:\d+:)?\s+(?:warning|error|note|fatal)\b")
_CODE_MARKS = frozenset("#|;{}(=")
# a line of a disassembly (objdump, the kernel's decodecode): its offset, then its bytes
_DISASSEMBLY = re.compile(r"[0-9a-f]{1,16}:\*?\t(?:[0-9a-f]{2} )+ *\t")  # tabs as objdump prints them
_CODE = re.compile(r"#\s*define\b|^\s*\d*\s*\|\s|"
                   r"[;{}]\s*$|\b(?:if|else|return|while|for|switch)\b\s*\(|\w\([^()]*\)\s*[;{]|"
                   r"[\w)\]][^\S\n]*(?:==|!=)(?![=>])")  # an operator after its operand: not sockperf's
# "====>" arrow, nor hackbench's "(== 400 tasks)"
_GAPS = re.compile(r"\S(?:\s{2,}|\t)\S")
# a source line under its line number, also as git blame prints it ("8daafe9ebbd21a Xuan Zhuo
# 2023-08-10  2778   * reset, ..."); a kernel config line ("CONFIG_CMA_SIZE_MBYTES=200")
_NUMBERED = re.compile(r"^\s*(?:[0-9a-f]{7,40}\s+.{0,60}?\d{4}-\d\d-\d\d\s+)?(?P<n>\d{1,6})(?=\s|$)")
# where _NUMBERED can match: its hash or its number opens the line (one character tried)
_NUMBERED_START = re.compile(r"\s*[\da-f]")
_CONFIG = re.compile(r"^\s*(?:#\s*)?CONFIG_[A-Z0-9_]+(?:=|\s+is not set\b)")
# a bucket of a printed histogram (bcc funclatency/biolatency): "  8 -> 15  : 186485  |****|"
# a histogram's bucket: bcc's "  2 -> 3  : 123  |****   |", or any count before a bar drawn
# in marks ("[2, 4)   1234 |@@@@@@@    |", bpftrace)
_BUCKET = re.compile(r"^\s*\d+\s*->\s*\d+\s*:\s*\d+\s*\||.*\d\s+\|(?=[@*#= ]{16,}\|\s*$)[ ]*[@*#=]*[ ]*\|")
# a line that prints a device's configuration: a MAC address, or a setting that is true/false
_SETTINGS = re.compile(r"(?i)(?<![\w:])[0-9a-f]{2}(?::[0-9a-f]{2}){5}(?![\w:])|\b[a-z][\w-]*\s+(?:true|false)\b")
# a program's state dumped as "field: value", the field reached through a pointer
# ("vq->packed.avail_wrap_counter: 0"): what a structure holds, not a measurement
_STATE = re.compile(r"\b[a-z_]\w*->[a-z_]\w*(?:(?:->|\.)\w+)*[._]\w*\s*[:=]")
_DIGIT = re.compile(r"\d")  # a value has one: the tokens of other lines are not read
_MAX_GAP = 8  # text lines between two blocks that still belong to one comparison


def is_sentence(text: str) -> bool:
    """A line of prose ("CPU utilization went from 140% to 118%."), never tool output."""
    words = text.split()
    return len(words) >= 5 and text.rstrip().endswith((".", "!", "?")) and \
        sum(1 for w in words if w.isalpha() and w.islower() and len(w) > 1) >= 3


def _is_prose(text: str) -> bool:
    """A wrapped line of a paragraph ("arrival of 32 1K packets only triggers one"): mostly
    plain lower-case words, whatever its end. One keyed value with words in parentheses
    after it (pgbench's "tps = 512345.67 (without initial connection time)") is output:
    the words are its aside."""
    if _KEYED_ASIDE.match(text):
        return False
    words = text.split()
    plain = sum(1 for w in words if w.strip(",;.()").isalpha() and w.islower() and len(w) > 1)
    # "Total inflation duration was 63 seconds. No deflate-queue activity": a sentence
    # ends inside the line
    return (len(words) >= 6 and plain >= 0.6 * len(words)) or _two_sentences(text)


_KEYED_ASIDE = re.compile(r"\s*[A-Za-z][\w.-]*(?: [A-Za-z][\w.-]*){0,3}\s?[=:]\s*[-+~]?\d[\d,.]*(?:\s?[A-Za-z/%]\S{0,11})?"
                          r"\s+\([^()]{1,80}\)\s*$")


def _two_sentences(text: str) -> bool:
    """A line where one sentence ends and the next begins ("Total inflation duration was
    63 seconds. No deflate-queue activity"): prose, however many numbers it quotes."""
    words = text.split()
    plain = sum(1 for w in words if w.strip(",;.()").isalpha() and w.islower() and len(w) > 1)
    return len(words) >= 5 and plain >= 4 and SENTENCE_INSIDE.search(text) is not None


@lru_cache(maxsize=2048)  # asked by the transcript reader, then find_blocks; kept across messages
def line_kind(text: str) -> str:
    """What a line is to the block reader: blank, rule, arrow, data (numbers laid out as
    output), header (column names) or text (a label, a heading, a sentence). Public: the
    gate (claims.prescan) reads lines by it to pass only texts where a block can open."""
    s = text.strip()
    if not s:
        return "blank"
    if _ARROW_LINE.match(s):
        return "arrow"
    if _RULE.match(s):
        return "rule"
    if _COMPILER.match(s) or not _CODE_MARKS.isdisjoint(s) and _CODE.search(s) or _DISASSEMBLY.match(s):
        return "code"
    if s.endswith(":") and len(s) <= 160 and not _GAPS.search(s):
        return "text"  # "Run 2 (cpu at 1.2 GHz):", "Self-test, 4 queues:" introduce what follows
    body = s
    whole = len(text) <= MAX_LINE  # then the line's own tokens (cached for the other stages) are s's
    m = _SECTION.match(s)
    if m is not None and not is_unit(s[m.end():].split()[0].rstrip(",;:")):
        body, whole = s[m.end():], False  # "1.1 Zero-copy mode" is a heading, "1.08 MBytes" a value
    has_value = _DIGIT.search(body) is not None and any(t.kind == "value" for t in tokens(text if whole else body))
    if has_value and not is_sentence(s) and not _is_prose(s):
        return "data"
    if has_value:
        return "text"
    head, colon, _rest = s.partition(":")
    if _GAPS.search(s) and (len(s.split()) >= 3 or text[:1].isspace()) and not (colon and head and not _GAPS.search(head)
                                                                     and role(head) is not None):
        return "header"  # column names; "Before:   Secs  RxIRQs" is a label with its header
    return "text"


def _listings(lines: Sequence[Line]) -> set[int]:
    """Lines of source code printed under their line numbers (a build robot's report, a
    quoted function) and kernel config lines: numbers there count lines and sizes, not
    results.  A listing is a run of three or more lines whose leading numbers climb by
    one to three, most with no other number on the line (a table of thread counts, "1
    100 / 2 180 / 4 350", has results beside each count)."""
    out: set[int] = set()
    run: list[int] = []
    prev: int | None = None

    def close() -> None:
        if len(run) >= 3 and sum(1 for k in run if _rest_has_value(lines[k].text)) <= len(run) // 3:
            out.update(run)

    for i, ln in enumerate(lines):
        if "CONFIG_" in ln.text and _CONFIG.match(ln.text):
            out.add(i)
        m = _NUMBERED.match(ln.text) if _NUMBERED_START.match(ln.text) else None  # (one line in eight)
        n = int(m.group("n")) if m else None
        if n is not None and prev is not None and run and 1 <= n - prev <= 3 and lines[run[-1]].depth == ln.depth:
            run.append(i)
        elif n is not None or run:  # (an empty run has nothing to close)
            close()
            run = [i] if n is not None else []
        prev = n
    close()
    return out


def _rest_has_value(text: str) -> bool:
    m = _NUMBERED.match(text)
    rest = text[m.end():] if m else text
    return _DIGIT.search(rest) is not None and any(t.kind == "value" for t in tokenize(rest))  # a value has a digit


def find_blocks(lines: Sequence[Line], skip: set[int], neutral: frozenset[int] | set[int] = frozenset(),
                setup: dict[int, str] | None = None, aside: set[int] | None = None) -> list[Block]:
    """Runs of output lines, each labelled by the nearest text above it.

    Output is any run of lines of numbers (tool output, "key=value" lines, aligned rows);
    text between two runs (a bare line, a bullet, a numbered heading, a sentence, a setup
    step, an arrow) starts a new block and names it.  A command line belongs to the block
    it runs; the text above a command is its label, not the output's header below it.
    Column headers (words spaced as columns) never split a block.
    """
    setup = setup or {}
    listing = _listings(lines)
    aside = interjections(lines) if aside is None else aside
    blocks: list[Block] = []
    cur: Block | None = None
    window: list[int] = []  # non-blank lines since the current block's last numbers
    window_start = 0
    depth = None
    for i, ln in enumerate(lines):
        if i in aside:
            continue  # a reply's words inside the quote it answers: the quote reads on
        if i in skip and i not in setup:
            cur, window, window_start = None, [], i + 1
            continue
        if depth is not None and ln.depth != depth and ln.text.strip():
            cur, window, window_start = None, [], i
        kind = "setup" if i in setup else "command" if i in neutral else "code" if i in listing else line_kind(ln.text)
        if kind in ("blank", "rule"):
            continue
        if kind == "code":  # a listing with line numbers is code, not output
            cur, window, window_start = None, [], i + 1
            continue
        depth = ln.depth
        if kind != "data":
            window.append(i)
            continue
        labels = [k for k in window if k in setup or (k not in neutral and line_kind(lines[k].text) == "text")]
        arrow = any(k not in setup and k not in neutral and line_kind(lines[k].text) == "arrow" for k in window)
        if cur is None or labels or arrow:
            if cur is not None:
                cur.end = max(cur.end, cur.first_data + 1)
            cur = _open_block(lines, i, window, labels, setup, neutral, arrow, window_start)
            blocks.append(cur)
        cur.end = i + 1
        window, window_start = [], i + 1
    return blocks


MAX_INTERJECTION = 15  # lines of a reply's words inside a quote that the quote reads past


def interjections(lines: Sequence[Line]) -> set[int]:
    """The lines a reply writes inside the text it quotes: the lines between a quoted line
    and the nearest line above it at its depth or deeper, when that one is at its depth,
    they are at most 2 * MAX_INTERJECTION, and those with text (all shallower) are no line
    of output (a question asked between two quoted tables, "Some questions on the results:
    ..."). The quoted text is one message, whose blocks read on past them; a reply that
    pastes its own numbers there is no interjection. (claims.prescan's walks of blocks
    pass over the same lines: _Lines.past_interjection and interjection_above.)"""
    out: set[int] = set()
    above: list[tuple[int, int]] = []  # (depth, index) of lines with text, each deeper than the next
    prev = -1  # the last line with text
    for i, ln in enumerate(lines):
        if not ln.text.strip():
            continue
        while above and above[-1][0] < ln.depth:
            above.pop()
        if above and above[-1][0] == ln.depth:
            _, anchor = above.pop()
            # words between (the lines with text there are all shallower), none of output:
            # the kinds asked only here, of a few lines (most of a message is never between)
            if ln.depth and prev != anchor and i - anchor - 1 <= 2 * MAX_INTERJECTION \
                    and not any(line_kind(lines[k].text) == "data" for k in range(anchor + 1, i)):
                out.update(range(anchor + 1, i))
        above.append((ln.depth, i))
        prev = i
    return out


def _open_block(lines: Sequence[Line], i: int, window: list[int], labels: list[int], setup: dict[int, str],
                neutral: frozenset[int] | set[int], arrow: bool, window_start: int) -> Block:
    """A block whose numbers start at line `i`, named by the text in `window` above it."""
    steps = [setup[k] for k in window if k in setup]
    label: str | None = None
    header: list[str] = []
    label_index: int | None = None
    if steps:
        label = ", ".join(steps)
        label_index = next(k for k in window if k in setup)
    else:
        label_index = _pick_label(lines, window, labels, neutral)
        if label_index is not None:
            got = block_label(lines[label_index].text)
            assert got is not None
            label, header = got
    start = (label_index + 1) if label_index is not None else (window[0] if window else i)
    return Block(label=label, start=min(start, i), end=i + 1, label_index=label_index, header=header,
                 arrow=arrow, first_data=i, window=window_start)


def _pick_label(lines: Sequence[Line], window: list[int], labels: list[int],
                neutral: frozenset[int] | set[int]) -> int | None:
    """Which text above a block names it, of the last few text lines (those above the
    command line when a command runs the output: what follows it is the tool's): an
    underlined title; else a short line right above; else the nearest line that
    introduces ("...:", "...,") or that the lexicon reads as naming a side (over the
    tool's own banner under it: "setting to a 60 second run"); else the nearest."""
    near = [k for k in labels[-4:] if block_label(lines[k].text) is not None]
    named_ok = [k for k in near if not _COMMANDISH.search(lines[k].text)]
    if named_ok and len(named_ok) < len(near):
        near = named_ok  # "time ./vringh_test --parallel" runs the output, it does not name it
    if not near:
        return None
    commands = [k for k in window if k in neutral]
    after_cmd = [k for k in near if commands and k > commands[0]]
    if commands and any(k < commands[0] for k in near) and not any(
            lines[k].text.rstrip().endswith(":") or cue(block_label(lines[k].text)[0]).role  # type: ignore[index]
            for k in after_cmd):
        near = [k for k in near if k < commands[0]]  # text under the command is its output
    headings = [k for k in near if k + 1 < len(lines) and _RULE.match(lines[k + 1].text)]
    if headings:  # "5.8.0-rc4" over "=========": a title names what follows it
        return headings[-1]
    # "The per-socket numbers come from this command," introduces what follows; "- Linux
    # modified without the patch" names a side: the nearest of either
    named = [k for k in near if lines[k].text.rstrip().endswith((":", ","))
             or (abs(cue(block_label(lines[k].text)[0]).score) >= 0.35  # type: ignore[index]
                 and not _two_sentences(lines[k].text))]
    if len(lines[near[-1]].text.split()) <= 4 and not lines[near[-1]].text.rstrip().endswith("."):
        return near[-1]  # a short line right above ("ipv4 single") is the name itself
    # "with the patch:" over perf's "Performance counter stats for 'system wide':": the
    # line that names a side, over the tool's own banner that introduces its output
    sided = [k for k in named if lines[k].text.rstrip().endswith(":")
             and cue(block_label(lines[k].text)[0]).role is not None]  # type: ignore[index]
    if sided:
        return sided[-1]
    if named:
        return named[-1]
    # "Without patch (kernel 4.19.0-5):" over a paragraph that describes the run: the
    # label that names a side, further up, still names the block
    far = [k for k in labels[:-4] if k not in neutral and _label_like(lines[k].text)
           and (got := block_label(lines[k].text)) is not None and cue(got[0]).role is not None]
    if far:
        return far[-1]
    return near[-1]


def _label_like(text: str) -> bool:
    """A line that can name what follows it: short, or introducing it ("...:"), never a
    line of a paragraph."""
    s = text.strip()
    return not _is_prose(s) and not is_sentence(s) and (len(s.split()) <= 8 or s.endswith(":"))


def block_rows(lines: Sequence[Line], start: int, end: int, label: str | None,
               header: list[str], skip: set[int], aside: set[int] | frozenset[int] = frozenset()) -> list[Row]:
    """The numeric lines of a block as rows, with column names from header lines above; a
    reply's words inside the quote (`aside`: interjections) are no part of it."""
    rows: list[Row] = []
    headers: list[str] = []
    header_at = -2  # the index of the last header line
    tail: list[str] = []  # the names of a wrapped record's second line, for the row under it
    tail_at = -1
    runs: int | None = None
    header_shape: tuple[bool, bool] | None = None  # (value first, keyed) of the first row under the headers
    section = _section_of(label) if label and role(label) is None else None  # the rows' heading, its unit
    for k in range(start, end):
        if k in aside:
            continue
        ln = lines[k]
        text = ln.text
        head = _section_of(text) if ":" not in text else None
        if head is not None and k + 1 < end and _KEYED_ROW.match(lines[k + 1].text):
            section = head
            continue  # its numbers say how the rows were sampled ("runtime 30 (s) (370213 total samples)")
        if not text.strip():
            section = None
        # "Performance counter stats for 'cmd' (10 runs):" names a command (a skipped
        # line) and also says how many runs the numbers under it are the mean of
        r = runs_in(text) if "run" in text else None
        if r is not None and "Performance counter" in text:
            runs = r
        if k in skip:
            headers = []
            continue
        if is_sentence(text.strip()) or _two_sentences(text):
            continue  # a sentence that quotes a number describes the run; it is not its output
        if _BUCKET.match(text):
            continue  # a histogram's bucket is a share of a distribution; its summary line is the result
        if _SETTINGS.search(text) or ("->" in text and _STATE.search(text)):
            continue  # a device's settings ("vdpa0: mac 00:e8:.. link up link_announce false max_vq_pairs 1")
        row = make_row(label, text, ln.number, depth=ln.depth, author=ln.author,
                       message_id=ln.message_id, runs=runs)
        if not row.values:
            words = text.split()
            if len(words) >= 2 and len(text) < 200 and _column_names(text):
                headers.append(text)
                header_at = k
                header_shape = None
            elif not text.strip():
                headers = []
            continue
        _name_numbers(row)
        key_end = next((i for i, t in enumerate(row.tokens[:12]) if t.text.endswith(":")), None)
        if key_end is not None and (row.tokens[0].kind == "value" or any(t.text == "=" for t in row.tokens[:key_end])) \
                and any(t.kind == "value" and not _SETTING.fullmatch(t.text) for t in row.tokens[:key_end]):
            key_end = None  # "133292pps 68Mb/sec errors:", "avg = 145 nsecs, total:": numbers are results,
            # not a name (a name's numbers follow its word: "test 0 (128 bit key, 16 byte blocks):", tcrypt)
            row.label_in_text = False
        if key_end is not None:  # "numjobs=4 : IOPS = 383K": a setting names the run, as a word does
            row.key = " ".join(t.text for t in row.tokens[:key_end + 1]).rstrip(":").strip(_KEY_MARKS) or None
        else:
            _name_column(row, text)
        if section is not None:  # "Wakeup Latencies percentiles 99.0th", "... max" (of "min=1, max=4891")
            row.key = f"{section[0]} {row.key}" if row.key else section[0]
            if section[1] and not any(t.unit for t in row.values if not t.text.endswith(":")):
                row.unit = section[1]
        shape = (row.tokens[0].kind == "value", key_end is not None)
        if headers and header_shape is not None and shape != header_shape:
            headers = []  # wrk's "Requests/sec:  97245.11" after its table: a line of its own shape
        header_shape = shape if headers and header_at < k and header_shape is None else header_shape
        if tail and tail_at == k:  # the second line of a wrapped record: named in order
            cols = _columns(row, [], tail)
        elif _wrapped_record(lines, k, end, headers, header_at):
            cols = _columns(row, headers[-2:-1], header)
            tail, tail_at = headers[-1].split(), k + 1
        else:
            cols = _columns(row, headers, header)
        row.columns = _item_names(row.tokens) or cols
        _key_columns(row)
        rows.append(row)
    return _unwrapped(rows)


# a line inside a block that heads the keyed rows under it: words, then the unit the rows
# are in ("Wakeup Latencies percentiles (usec) runtime 30 (s) (370213 total samples)", schbench)
_SECTION_HEAD = re.compile(r"\s*(?P<head>[A-Za-z][\w-]*(?: [A-Za-z][\w-]*){1,5}) \((?P<unit>[^()\s]{1,12})\)")
_KEYED_ROW = re.compile(r"\s*(?:\*\s*)?[\w.%-]+:\s*[-+~]?\d")  # a row under it: "  * 99.0th: 50"


def _section_of(text: str) -> tuple[str, str | None] | None:
    """The heading words and the unit of a line that heads rows (_SECTION_HEAD), else None."""
    head = _SECTION_HEAD.match(text) if "(" in text else None
    if head is None:
        return None
    unit = head.group("unit")
    return head.group("head"), unit if is_unit(unit) else None


# a setting written into a row's name: "numjobs=4", "bs=4k" (a name, "=", a value)
_SETTING = re.compile(r"[A-Za-z][\w.-]*=[\w.]+")
_KEY_MARKS = " \t-*+•>"  # the bullet or dash a row's name is listed under ("-- numjobs=4 :")


def _wrapped_record(lines: Sequence[Line], k: int, end: int, headers: list[str], header_at: int) -> bool:
    """A record the mail client wrapped, its header alike (sar's "IFACE rxpck/s ... txkB/s"
    over "rxcmp/s ... %ifutil", each "Average: enp8s0 ..." row over a line of as many bare
    numbers as the header's second line has names): the second header line names the
    numbers under the row, not the row's own, so the two lines are no stacked header."""
    if len(headers) < 2 or header_at != k - 1 or k + 1 >= end:
        return False
    under = tokenize(lines[k + 1].text)
    return bool(under) and all(t.kind == "value" for t in under) and len(under) == len(headers[-1].split())


def _key_columns(row: Row) -> None:
    """A whole number under a header that names an identifier ("CPU", "queue") says which
    CPU or queue the row is about: it joins the row's name and is no result of its own."""
    vals = [i for i, t in enumerate(row.tokens) if t.kind == "value"]
    if len(row.columns) != len(vals) or not any(names_key(c) for c in row.columns):
        return
    cols: list[str | None] = []
    for i, c in zip(vals, row.columns, strict=True):
        t = row.tokens[i]
        if names_key(c) and t.unit is None and not t.percent and t.text.isdigit():
            row.tokens[i] = Token(t.text, t.start, t.end, "word")
        else:
            cols.append(c)
    row.columns = cols


def _name_numbers(row: Row) -> None:
    """A bare number between a word and "= value" is part of the value's name ("percentile
    99.999 = 48.902", "bucket 4 = 12"), not a result of its own."""
    t = row.tokens
    for i in range(1, len(t) - 2):
        if t[i].kind == "value" and t[i].unit is None and not t[i].percent and t[i - 1].kind == "word" \
                and t[i + 1].text == "=" and t[i + 2].kind == "value":
            t[i] = Token(t[i].text, t[i].start, t[i].end, "word")


def _column_names(text: str) -> bool:
    """A line of words that can name the columns under it ("Recv   Send    Send"): spaced
    as columns, and not a rule, a sentence, a wrapped line of prose or a line that introduces what follows
    ('Result of "grep balloon /proc/vmstat" after the test:')."""
    s = text.strip()
    if _GAPS.search(s) is None or s.endswith((":", ".", ",")) or _COLUMN_RULES.match(s):
        return False  # ("-------- ------ --------": rules under the names, no names)
    cells = _CELL_GAP.split(s)
    if len(cells) >= 3 and all(len(cell.split()) <= 2 for cell in cells):
        # short names spaced as columns, however plain ("syscall   calls  errors  total",
        # perf trace) and with a period inside ("Avg. Latency", memtier): no sentence
        return True
    return not (is_sentence(s) or _is_prose(s) or SENTENCE_INSIDE.search(s))


_CELL_GAP = re.compile(r"\s{2,}|\t")
_COLUMN_RULES = re.compile(r"[-=~_+|]{2,}(?:\s+[-=~_+|]{2,})+$")


SENTENCE_INSIDE = re.compile(r"[a-z)\]]\.\s+[A-Z][a-z]")  # "... path. The ...": prose; not "1. Machine"


def _closed_name(tokens: list[Token], k: int) -> str:
    """The name that the "...:" word at `tokens[k]` ends: the word itself (not the bracket
    that opens a list of items: "[User: 120.3 ms, System: ..."), or where it
    closes a parenthesis ("σ):" of hyperfine's "Time (mean ± σ):"), the words from the
    one before that parenthesis opens."""
    name = tokens[k].text.rstrip(":")
    if not name.endswith(")") or "(" in name:  # the word itself, without a list's "[" ("[User: 120.3 ms")
        return name if name.endswith((")", "]")) else name.lstrip("[(")
    j = k - 1
    while j >= max(k - 5, 0) and tokens[j].kind == "word" and "(" not in tokens[j].text:
        j -= 1
    if j < max(k - 5, 0) or tokens[j].kind != "word":
        return name
    if tokens[j].text.startswith("(") and j > 0 and tokens[j - 1].kind == "word":
        j -= 1
    return " ".join(t.text for t in tokens[j:k + 1]).rstrip(":")


def _item_names(tokens: list[Token]) -> list[str | None]:
    """The name of each value of a line that lists named items, each name written before
    its value: "RX-packets: 68152727   RX-missed: 0   RX-bytes: 3816552712", "Guest:
    notified 10036893, pinged 68278".  [] for any other line (the words after a value
    name it there: "4.7 Mpps", "900 MB/s 300 calls/s")."""
    names: list[str | None] = []
    n_values = 0
    for i, t in enumerate(tokens):
        if t.kind != "value":
            continue
        n_values += 1
        prev = tokens[i - 1] if i else None
        if prev is not None and prev.kind == "word" and prev.text.endswith(":") and len(prev.text) > 1:
            names.append(_closed_name(tokens, i - 1))  # "RX-missed: 0"
            continue
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        closes = t.text.endswith((",", ";")) or nxt is None or (nxt.kind == "word" and nxt.text.endswith(":"))
        if prev is not None and prev.kind == "word" and closes and prev.text[-1:].isalpha() and not is_unit(prev.text):
            names.append(prev.text)  # "notified 10036893,"
            continue
        return []
    return names if n_values >= 2 else []


def _unwrapped(rows: list[Row]) -> list[Row]:
    """Rows a mail client wrapped ("1K: [ 5] ... 7.95 Gbits/sec 0" over "223 KBytes"): a
    short line of numbers under a row, with no name of its own, is the row's tail when the
    two together have the shape of another row of the block."""
    if len(rows) < 3:
        return rows
    shapes = {skeleton(r.tokens) for r in rows}
    out: list[Row] = []
    for r in rows:
        prev = out[-1] if out else None
        if prev is not None and r.first == prev.last + 1 and r.key is None and len(r.tokens) <= 3 \
                and r.tokens[0].kind == "value" and skeleton(prev.tokens) + skeleton(r.tokens) in shapes:
            shift = (prev.tokens[-1].end + 1) if prev.tokens else 0
            prev.tokens = list(prev.tokens) + [replace(t, start=t.start + shift, end=t.end + shift) for t in r.tokens]
            prev.last = r.last
            continue
        out.append(r)
    return out


_NAME_COLUMN = re.compile(r"^\s*(?P<name>[A-Za-z][^\t]*?\S)(?:\t|\s{2,})[-+~]?\d")


def _name_column(row: Row, text: str) -> None:
    """Aligned output whose rows start with a name ("Dhrystone 2 using register variables
    116700.0  948326591.2"): numbers inside the name are part of it, not results, and the
    name says what the row measures."""
    m = _NAME_COLUMN.match(text)
    if m is None or len(m.group("name").split()) > 8:
        return
    end = m.end("name")
    if not any(t.kind == "value" and t.start >= end for t in row.tokens):
        return
    if any(t.kind == "value" and t.end <= end and t.unit for t in row.tokens):
        return  # "Throughput 1234.56 MB/sec  8 clients" (dbench): a measured value, not a name's number
    row.tokens = [Token(t.text, t.start, t.end, "word") if t.kind == "value" and t.end <= end
                  else t for t in row.tokens]
    row.key = m.group("name")


def _columns(row: Row, header_lines: list[str], header_words: list[str]) -> list[str | None]:
    vals = [t for t in row.tokens if t.kind == "value"]
    from claims.pairs import label_end

    first = label_end(row.tokens)
    body_vals = [t for i, t in enumerate(row.tokens) if t.kind == "value" and i >= first]
    if header_words and len(header_words) == len(body_vals):
        return [None] * (len(vals) - len(body_vals)) + list(header_words)
    if not header_lines:
        return []
    cells = _CELL_GAP.split(header_lines[-1].strip())
    if first == 0 and len(cells) == len(vals) > 1:
        # turbostat's "Busy%<TAB>PkgWatt<TAB>CorWatt" over "0.41<TAB>1.92<TAB>0.35": as many
        # names as values, and no label: named in order, whatever their widths or tabs
        return list(cells)
    cols: list[str | None] = []
    for t in vals:
        names = []
        for h in header_lines[-4:]:
            for m in re.finditer(r"\S+", h):
                if m.start() <= t.end and m.end() >= t.start:
                    # the whole name a single space joins ("Avg. Latency" over a value that
                    # stands under "Latency"), when no other value stands under it
                    cell = next((c for c in _HEADER_CELL.finditer(h) if c.start() <= m.start() < c.end()), m)
                    alone = not any(v is not t and cell.start() <= v.end and cell.end() >= v.start for v in vals)
                    names.append((cell if alone else m).group())
        cols.append(" ".join(dict.fromkeys(names)) or None)
    return cols


_HEADER_CELL = re.compile(r"\S+(?: \S+)*")


def _pair_series(lines: Sequence[Line], sides: list[tuple[str | None, list[Row]]],
                 context: str | None, base_i: int | None = None,
                 subject: str | None = None) -> list[Claim]:
    if base_i is None:
        base_i = pick_baseline([s[0] for s in sides], subject)
    base_label, base_rows = sides[base_i]
    base_rows = _without_samples(base_rows)
    out: list[Claim] = []
    for j, (_, cand_rows) in enumerate(sides):
        if j == base_i:
            continue
        cand_rows = _without_samples(cand_rows)
        matched: list[tuple[Row, Row]] = []
        if _aligned(base_rows, cand_rows):  # the same lines in the same order: pair line by line
            matched = [_common_part(br, cr) for br, cr in zip(base_rows, cand_rows, strict=True)]
        else:  # rows named by a key ("1K:", "avg-latency"): the key pairs them, in any order
            matched = _by_key(base_rows, cand_rows)
        if matched:
            fixed = _reference_columns(matched)
            for br, cr in matched:
                out.extend(_keyed(br, cr, _tool_named(br, pair_rows(br, cr, tabular=True, context=context, fixed=fixed)),
                                  _swept(br, fixed)))
            continue
        by_shape: dict[tuple[str, ...], list[Row]] = {}
        for r in cand_rows:
            by_shape.setdefault(skeleton(r.tokens), []).append(r)
        used: dict[tuple[str, ...], int] = {}
        base_count: dict[tuple[str, ...], int] = {}
        for br in base_rows:
            base_count[skeleton(br.tokens)] = base_count.get(skeleton(br.tokens), 0) + 1
        for br in base_rows:
            shape = skeleton(br.tokens)
            k = used.get(shape, 0)
            cands = by_shape.get(shape, [])
            if k >= len(cands) or (len(cands) != base_count[shape] and base_count[shape] > 1):
                continue  # lines of one shape printed a different number of times: which is which?
            used[shape] = k + 1
            out.extend(_keyed(br, cands[k], _tool_named(br, pair_rows(br, cands[k], tabular=True, context=context))))
    return out


def _tool_named(row: Row, claims: list[Claim]) -> list[Claim]:
    """The claims of a row that is one line of a tool's output, named as the tool's
    description names that line's numbers (iperf3's "1.34 GBytes" is the transfer, its
    "144 KBytes" the congestion window, a setting that is no claim); other rows' as they are."""
    if not claims:
        return claims
    named = line_samples(" ".join(t.text for t in row.tokens))
    if not named:
        return claims
    out: list[Claim] = []
    for c in claims:
        assert c.baseline is not None
        s = next((s for s in named if _close(s.value, c.baseline.value) and (s.unit or "") in ((c.unit or ""), "count")),
                 None)
        if s is None:
            out.append(c)
            continue
        if s.config:
            continue
        c.metric, c.better = s.metric, s.better
        out.append(c)
    return out


def _keyed(base: Row, cand: Row, claims: list[Claim], swept: str | None = None) -> list[Claim]:
    """A key the two rows are printed under that their claims' metrics do not hold names
    the run, not the number ("1K:   [  5] ... 4.63 GBytes" named by iperf3 as the
    transfer, "-- numjobs=4 : IOPS = 383K" named by its words): it is each claim's
    context, as a row label is (else every size's transfer is one "transfer", and their
    specs are not told apart). A key that names the number ("MemFree: 1234 kB") is in it,
    one that names the first of the row's numbers ("Rx-pps: 8861574 Rx-bps: 3969985208")
    is among its columns, and one that is the metric and more (the command a row of
    results is printed after) already says it."""
    key = _row_key(base, cand) or swept
    if key is None or key in base.columns:
        return claims
    k = _folded(key)
    for c in claims:
        m = _folded(c.metric)
        if k not in m and m not in k:  # "Execl Throughput" is the tool's "execl_throughput"
            c.context = f"{c.context}: {key}" if c.context else key
    return claims


def _folded(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


def _swept(row: Row, fixed: frozenset[int]) -> str | None:
    """A row's first number when it is a reference (_reference_columns: the same on both
    sides, another down the rows) written as a setting ("Threads = 160, Total Rate = ..."):
    the parameter the rows sweep, which names the row as a key does."""
    first = next((i for i, t in enumerate(row.tokens) if t.kind == "value"), None)
    if 0 not in fixed or first is None or first < 2 or row.tokens[first - 1].text != "=" \
            or row.tokens[first - 2].kind != "word":
        return None  # a reference printed bare (UnixBench's BASELINE column) names nothing
    return " ".join(t.text for t in row.tokens[:first + 1]).strip(_KEY_MARKS + ",;:") or None


def _row_key(base: Row, cand: Row) -> str | None:
    """The key two paired rows are printed under: one, or both where they differ (a typo
    on one side, "256:" beside "256K:", is shown as it is, not corrected)."""
    if base.key is None or cand.key is None or base.key.lower() == cand.key.lower():
        return base.key or cand.key
    return f"{base.key} / {cand.key}"


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


MIN_REFERENCE_ROWS = 3  # rows that print one column unchanged before it reads as a reference


def _reference_columns(matched: list[tuple[Row, Row]]) -> frozenset[int]:
    """Value positions printed the same in every row of both blocks (UnixBench's BASELINE
    column, a configured size): a reference the tool prints beside its results, not one."""
    widths = [len(b.values) for b, c in matched if len(b.values) == len(c.values)]
    if not widths:
        return frozenset()
    width = max(set(widths), key=widths.count)  # the rows of the table; a total row prints fewer
    rows = [(b, c) for b, c in matched if len(b.values) == len(c.values) == width]
    if len(rows) < MIN_REFERENCE_ROWS:
        return frozenset()
    return frozenset(k for k in range(width)
                     if all(b.values[k].value == c.values[k].value for b, c in rows)
                     and len({b.values[k].value for b, _ in rows}) > 1)


def _loose_shape(tokens: list[Token]) -> tuple[str, ...]:
    """A line's shape with the word after each number read as its unit, whatever its
    scale: "Total Rate = 1,441,759 op/s" and "Total Rate = 1,992 kop/s" are one line."""
    out: list[str] = []
    for t, sk in zip(tokens, _skeleton_of_each(tokens), strict=True):
        if out and out[-1] in ("#", "#%") and t.kind == "word" and len(t.text) <= 12 and sk:
            out.append("u")
        elif t.kind == "word" and any(ch.isdigit() for ch in t.text):
            out.append("w#")  # "15004411(c14990001+d14410)": numbers inside a word
        elif sk:
            out.append(sk)
    return tuple(out)


def _skeleton_of_each(tokens: list[Token]) -> list[str]:
    return [(skeleton([t]) or ("",))[0] for t in tokens]


def _same_start(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """One line's shape, or the start of the other's holding two numbers or more: a field
    one side prints after its results ("..., pipe 2") does not unpair the line."""
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return long_[:len(short)] == short and (len(short) == len(long_) or sum(x in ("#", "#%") for x in short) >= 2)


def _common_part(base: Row, cand: Row) -> tuple[Row, Row]:
    """The two rows cut to the numbers both print (see `_same_start`)."""
    nb, nc = len(base.values), len(cand.values)
    if nb == nc:
        return base, cand
    n = min(nb, nc)

    def cut(r: Row) -> Row:
        idx = [i for i, t in enumerate(r.tokens) if t.kind == "value"]
        end = idx[n - 1] + 1
        if end < len(r.tokens) and r.tokens[end].kind == "word" and is_unit(r.tokens[end].text):
            end += 1
        return replace(r, tokens=r.tokens[:end])

    return (cut(base) if nb > n else base), (cut(cand) if nc > n else cand)


def _aligned(base: list[Row], cand: list[Row]) -> bool:
    """Two sides that print the same lines in the same order: as many rows, each of the
    shape of the row at its place on the other side, and the names the rows carry the
    same at most places (a typo in one name, "256K:" for "256:", does not move a row)."""
    if len(base) != len(cand) or len(base) < 2:
        return False
    if any(not _same_start(_loose_shape(b.tokens), _loose_shape(c.tokens)) for b, c in zip(base, cand, strict=True)):
        return False
    keyed = [(b.key.lower(), c.key.lower()) for b, c in zip(base, cand, strict=True) if b.key and c.key]
    return not keyed or sum(b == c for b, c in keyed) >= 0.6 * len(keyed)


def _without_samples(rows: list[Row]) -> list[Row]:
    """A side's rows without its single runs ("Run 1") when it also prints their aggregate
    ("Average"): the aggregate is what the side claims, a run is one sample of it (as the
    grid reads tables printed one per variant)."""
    kinds = [name_kind(r.key) if r.key else None for r in rows]
    if "aggregate" not in kinds or "index" not in kinds:
        return rows
    return [r for r, k in zip(rows, kinds, strict=True) if k != "index"]


def _by_key(base: list[Row], cand: list[Row]) -> list[tuple[Row, Row]]:
    """Rows paired by their keys ("1K:", "avg-latency") when most rows of both sides have
    one; a key printed twice on a side is left out (which is which?).  [] when the rows
    are not keyed: the caller pairs them by shape and order."""
    bk = [r.key.lower() for r in base if r.key]
    ck = [r.key.lower() for r in cand if r.key]
    if len(bk) < 2 or len(bk) < 0.6 * len(base) or len(ck) < 0.6 * len(cand):
        return []
    once_b = {k for k in bk if bk.count(k) == 1}
    by = {r.key.lower(): r for r in cand if r.key and ck.count(r.key.lower()) == 1}
    out = [(r, by[r.key.lower()]) for r in base if r.key and r.key.lower() in once_b and r.key.lower() in by]
    return out if len(out) >= 0.5 * len(bk) else []


def _shapes(rows: list[Row]) -> set[tuple[str, ...]]:
    return {sk for r in rows if "#" in (sk := skeleton(r.tokens)) or "#%" in sk}


def _gap(lines: Sequence[Line], a: Block, b: Block, aside: set[int]) -> int:
    return sum(1 for k in range(a.end, b.first_data) if lines[k].text.strip() and k not in aside)


def _series(lines: Sequence[Line], blocks: list[Block], rows: list[list[Row]], aside: set[int]) -> list[list[int]]:
    """Consecutive blocks whose output has lines of one shape: each run is one comparison
    (block indexes).  Empty blocks (a sentence between two outputs) are passed over; a
    baseline after a baseline and a candidate, or a label seen again, starts a new one."""
    out: list[list[int]] = []
    cur: list[int] = []
    for i, b in enumerate(blocks):
        if not rows[i]:
            continue
        if _self_compared(rows[i]):  # "Upstream: 47.5 / Upstream + page_pool: 50.2" inside
            if len(cur) >= 2:
                out.append(cur)
            cur = []
            continue
        if cur:
            prev = blocks[cur[-1]]
            seen = {(blocks[k].label or "").lower() for k in cur}
            roles = {role(blocks[k].label) for k in cur}
            restart = (role(b.label) == "baseline" and {"baseline", "candidate"} <= roles) \
                or ((b.label or "").lower() in seen and len(seen) > 1) or len(cur) >= MAX_SERIES
            if b.window == prev.end and _gap(lines, prev, b, aside) <= _MAX_GAP and not restart \
                    and _shapes(rows[cur[-1]]) & _shapes(rows[i]):
                cur.append(i)
                continue
            if len(cur) >= 2:
                out.append(cur)
        cur = [i]
    if len(cur) >= 2:
        out.append(cur)
    return out


def _self_compared(rows: list[Row]) -> bool:
    """A block whose own rows are named as the two sides ("Before: 1.2", "After: 1.5") is a
    comparison of its own, not one variant of a comparison between blocks."""
    keys = list(dict.fromkeys(r.key for r in rows if r.key))
    return len(keys) >= 2 and any(role(k) is not None for k in keys) and decided(keys)


def _families(labels: list[str | None]) -> list[list[int]]:
    """Labels naming two subjects ("ipv4 single", "ipv4 batched", "ipv6 without batching"):
    each subject named twice or more is its own comparison."""
    firsts = [next(iter(content_words(lab or "")), None) for lab in labels]
    groups: dict[str | None, list[int]] = {}
    for k, f in enumerate(firsts):
        groups.setdefault(f, []).append(k)
    if len(labels) < 3 or len(groups) < 2 or None in groups or max(len(g) for g in groups.values()) < 2:
        return [list(range(len(labels)))]
    return [g for g in groups.values() if len(g) >= 2]


def _comparable(names: list[str | None]) -> bool:
    """Labels that can name the sides by their relation alone: short ones ("without
    prefetch" / "with prefetch"), or sentences written in parallel ("The per-socket numbers
    come from ..." / "The busy-poll thread numbers come from ...").  Two unrelated
    sentences above two tables need a label that names a side outright."""
    if any(role(n) is not None for n in names) or all(len((n or "").split()) <= 6 for n in names):
        return True
    sets = [set(content_words(n or "")) for n in names]
    common = set.intersection(*sets) if sets else set()
    return all(s and len(common) >= 0.4 * len(s) for s in sets)


def _steps(above: str | None, below: str | None) -> bool:
    """Two sentences that name no side outright, the "after" one printed above the "before"
    one ("This is the number after this operation." over "This is the number before the VM
    starts."): steps of one procedure read top to bottom, not a candidate printed first."""
    return all(lab and is_sentence(lab) and role(lab) is None for lab in (above, below))


def _answers(cand: str | None, base: str | None, subject: str | None) -> bool:
    """Can a block labelled `cand` be the other side of one labelled `base`? A baseline
    named by its side ("xsk without zero copy") is answered by a label the lexicon reads a
    side in ("With `-o timeout=10`", "net-next + list forwarding"), or that shares a word
    with it ("xsk zero copy") or with the patch's subject ("grommet v2" under "[RFC v2]
    grommet: ..."); not by another thing measured beside them ("sockperf": a reference
    tool's block, printed after the two variants). Without a subject to ask, it may."""
    if role(base) is None or cue(cand).reasons or not subject:
        return True
    words = set(content_words(cand or ""))
    return not (words.isdisjoint(content_words(base or "")) and words.isdisjoint(content_words(subject or "")))


def comparisons(labels: list[str | None], arrows: list[bool],
                subject: str | None = None) -> list[tuple[int, list[int]]]:
    """(baseline, candidates) among the labelled blocks of one series.  An arrow between
    two blocks reads left to right; otherwise the lexicon must tell the baseline apart
    (one label clearly lowest); labels that say nothing give no comparison."""
    if any(arrows[1:]):
        return [(k - 1, [k]) for k in range(1, len(labels)) if arrows[k]]
    out: list[tuple[int, list[int]]] = []
    for fam in _families(labels):
        names = [labels[k] for k in fam]
        if len({(n or "").lower() for n in names}) < len(names) or not distinguishes(names, subject) \
                or not _comparable(names):
            continue
        scores = rank(names, subject)
        lo = min(range(len(names)), key=lambda k: (scores[k], k))
        cands = [fam[k] for k in range(len(names)) if k != lo and scores[k] >= scores[lo] + 0.35
                 and (k > lo or not _steps(names[k], names[lo])) and _answers(names[k], names[lo], subject)]
        if cands:
            out.append((fam[lo], cands))
    return out


_COMMANDISH = re.compile(r"(?:^|\s)(?:\.{0,2}/[\w.-]+/?\S*|--?[A-Za-z][\w-]*)(?=\s|$)")
_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")


def _merge_asides(blocks: list[Block], rows: list[list[Row]]) -> None:
    """Text inside one variant's output does not end the variant's block: a block that
    names no side joins the block before it when it follows a block that names one and
    is a sentence ("Note the first run was cold."), or a sub-heading every variant repeats
    ("ramfs:", "for a 60.03s run time:" under "Before:" and again under "After:")."""
    masked = [_DIGITS.sub("#", (b.label or "").lower()) for b in blocks]
    where: dict[str, list[int]] = {}  # blocks naming no side, by masked label
    for k, m in enumerate(masked):
        if role(blocks[k].label) is None:
            where.setdefault(m, []).append(k)
    _merge_repeated(blocks, rows, masked, where)
    # whether each block follows, with nothing between, one that names a side or one that
    # does so in turn: a sub-heading "every variant repeats" stands so at each repeat
    inside = [False] * len(blocks)
    prev_k: int | None = None
    for i, b in enumerate(blocks):
        if not rows[i]:
            continue
        if prev_k is not None and b.window == blocks[prev_k].end:
            p = blocks[prev_k]
            inside[i] = role(p.label) is not None or p.arrow or inside[prev_k]
        prev_k = i
    owner: int | None = None  # the last block that names a side
    for i in range(len(blocks)):
        b = blocks[i]
        if not rows[i]:
            continue
        if role(b.label) is not None or b.arrow:
            owner = i
            continue
        prev = next((k for k in range(i - 1, -1, -1) if rows[k]), None)
        if owner is None or prev is None or b.window != blocks[prev].end or not b.label:
            owner = None
            continue
        aside = is_sentence(b.label + ".") and (b.label.rstrip().endswith((".", "!", "?")) or len(b.label.split()) >= 8)
        same = where.get(masked[i], [])
        repeated = bool(same) and (same[0] < owner or same[-1] > i) and all(inside[j] for j in same)
        if not (aside or repeated) or cue(b.label).score * cue(blocks[owner].label).score < 0:
            owner = None  # "with x" after "without x" is the other side, not a sub-heading
            continue
        blocks[prev].end = b.end
        for r in rows[i]:
            r.label = blocks[prev].label
        rows[prev].extend(rows[i])
        rows[i] = []
        b.end = b.first_data = blocks[prev].end


def _merge_repeated(blocks: list[Block], rows: list[list[Row]], masked: list[str],
                    where: dict[str, list[int]]) -> None:
    """A sub-heading printed under each of several variants ("Throughput (since last
    show)" under "### virtio PMD ..." and again under "### AF_XDP PMD ..."), whatever the
    variants' labels say: each copy follows, with no text between, a block whose label
    is printed once, a different one each time; each copy is part of that block."""
    count: dict[str, int] = {}
    for m in masked:
        count[m] = count.get(m, 0) + 1
    for m, ks in where.items():
        if len(ks) < 2 or not m or any(not rows[k] or not blocks[k].label for k in ks):
            continue
        prevs = [next((j for j in range(k - 1, -1, -1) if rows[j]), None) for k in ks]
        if any(p is None or blocks[k].window != blocks[p].end or count[masked[p]] != 1
               for k, p in zip(ks, prevs, strict=True)) or len(set(prevs)) != len(prevs):
            continue
        for k, p in zip(ks, prevs, strict=True):
            assert p is not None
            blocks[p].end = blocks[k].end
            for r in rows[k]:
                r.label = blocks[p].label
            rows[p].extend(rows[k])
            rows[k] = []
            blocks[k].end = blocks[k].first_data = blocks[p].end


def _names_above_repeats(lines: Sequence[Line], blocks: list[Block], rows: list[list[Row]],
                         neutral: frozenset[int] | set[int]) -> None:
    """Blocks under one label that names no side ("stats:" under "### vhost-user PMD" and
    again under "### AF_XDP PMD"): a label every variant repeats names what is printed,
    not the variant; the nearest line above it that differs from block to block names
    each (a label naming a side, "Before:" under "TCP" and under "UDP", stays, unless it
    is the only label)."""
    groups: dict[str, list[int]] = {}
    # one label over every block tells none apart, even one with a side's word ("# function
    # 'default' (...)", perf bench's banner)
    one = len({b.label.lower() for k, b in enumerate(blocks) if rows[k] and b.label}) == 1
    for k, b in enumerate(blocks):
        if rows[k] and b.label and (one or role(b.label) is None):
            groups.setdefault(b.label.lower(), []).append(k)
    for ks in groups.values():
        if len(ks) < 2 or len(ks) > MAX_SERIES:
            continue
        above = [_names_above(lines, blocks[j], neutral) for j in ks]
        for level in range(min(len(a) for a in above)):  # lines every block repeats name none
            names = [a[level][1].lower() for a in above]
            if len(set(names)) == 1:
                continue
            # past lines they share, only names of sides ("before:" / "after:") name them
            if len(set(names)) == len(ks) and (level == 0 or all(role(a[level][1]) for a in above)):
                for j, a in zip(ks, above, strict=True):
                    blocks[j].label_index, blocks[j].label = a[level]
                    for r in rows[j]:
                        r.label = a[level][1]
            break


def _names_above(lines: Sequence[Line], b: Block, neutral: frozenset[int] | set[int]) -> list[tuple[int, str]]:
    """The lines above a block's own label that could name it (see `_label_like`), nearest
    first, up to the first that cannot ("# Running 'mem/memcpy' benchmark:" and then
    "before:", over perf bench's "# function 'default' ..." and its result)."""
    out: list[tuple[int, str]] = []
    if b.label_index is None:
        return out
    for k in range(b.label_index - 1, b.window - 1, -1):
        t = lines[k].text
        if not t.strip() or k in neutral or line_kind(t) != "text" or not _label_like(t):
            continue
        got = block_label(t)
        if got is None:
            break
        out.append((k, got[0]))
    return out


def _condition(labels: list[str | None]) -> list[tuple[str, ...]]:
    """Each label without the numbers that name only its own block ("Run 2 (cpu at 1.2
    GHz)" -> "run (cpu at 1.2 ghz)"): what a run measures, not which run it is."""
    toks = [(lab or "").lower().replace("(", " ").replace(")", " ").split() for lab in labels]
    counts: dict[str, int] = {}
    for ts in toks:
        for t in set(ts):
            counts[t] = counts.get(t, 0) + 1
    return [tuple(t for t in ts if not (t.rstrip(":,").isdigit() and counts[t] == 1)) for ts in toks]


def _sides_by_sentence(lines: Sequence[Line], blocks: list[Block]) -> list[tuple[int, int]]:
    """Blocks whose labels name no side, split by a sentence between them that does ("Runs
    2 and 3 use the patched driver."): the blocks on one side of it are the baseline, the
    other the candidate, and each pairs with the one of the same condition."""
    for k in range(1, len(blocks)):
        b = blocks[k]
        stop = b.label_index if b.label_index is not None else b.first_data
        paras, cur = [], []  # the sentences between, joined across wrapped lines
        for n in range(b.window, stop):
            t = lines[n].text.strip()
            if t:
                cur.append(t)
            elif cur:
                paras.append(" ".join(cur))
                cur = []
        if cur:
            paras.append(" ".join(cur))
        said = [cue(p).score for p in paras if is_sentence(p) and abs(cue(p).score) >= 0.5]
        if len(said) != 1:
            continue
        before, after = list(range(k)), list(range(k, len(blocks)))
        if len(before) != len(after):
            return []
        keys = _condition([x.label for x in blocks])
        by_key = {keys[i]: i for i in before}
        if len(by_key) != len(before) or {keys[i] for i in after} != set(by_key) \
                or len({keys[i] for i in after}) != len(after):
            return []
        base_first = said[0] > 0  # the sentence names the candidate: what follows it is the change
        out = []
        for j in after:
            i = by_key[keys[j]]
            out.append((i, j) if base_first else (j, i))
        return out
    return []


def labelled_block_claims(lines: Sequence[Line], skip: set[int], neutral: frozenset[int] | set[int] = frozenset(),
                          setup: dict[int, str] | None = None,
                          subject: str | None = None) -> tuple[list[Claim], set[int]]:
    """Claims from one procedure run twice (`transcript_claims`), then from labelled output
    blocks (see `find_blocks`) in the lines the runs leave; also the line indexes they
    cover.  The runs go first: a transcript's comments read as labels would pair one
    run's readings with each other."""
    setup = setup or {}
    claims, covered = transcript_claims(lines, skip, set(neutral) | set(setup), subject)
    more, more_covered = _block_claims(lines, set(skip) | covered, neutral, setup, subject)
    return claims + more, covered | more_covered


def _block_claims(lines: Sequence[Line], skip: set[int], neutral: frozenset[int] | set[int],
                  setup: dict[int, str], subject: str | None) -> tuple[list[Claim], set[int]]:
    claims: list[Claim] = []
    covered: set[int] = set()
    aside = interjections(lines)
    blocks = find_blocks(lines, skip, neutral, setup, aside)
    if len(blocks) < 2:
        return claims, covered
    row_skip = set(skip) | set(neutral) | set(setup)
    rows = [block_rows(lines, b.start, b.end, b.label, b.header, row_skip, aside) for b in blocks]
    _names_above_repeats(lines, blocks, rows, neutral)
    _merge_asides(blocks, rows)
    for series in _series(lines, blocks, rows, aside):
        labels = [blocks[k].label for k in series]
        arrows = [blocks[k].arrow for k in series]
        found: list[Claim] = []
        compared: set[int] = set()
        pairs_of = comparisons(labels, arrows, subject)
        matched = [] if pairs_of else _sides_by_sentence(lines, [blocks[k] for k in series])
        for base, cands in pairs_of:
            members = [series[base]] + [series[c] for c in cands]
            compared.update(members)
            sides = [(blocks[k].label, rows[k]) for k in members]
            found.extend(_pair_series(lines, sides, None, base_i=0))
        for base, cand in matched:
            compared.update((series[base], series[cand]))
            sides = [(blocks[series[k]].label, rows[series[k]]) for k in (base, cand)]
            found.extend(_pair_series(lines, sides, None, base_i=0))
        if found:
            claims.extend(found)
            # the series was read as one structure: its blocks (also one left unpaired, a
            # reference on another family) are covered from the label to the last line a
            # claim came from, not to the next label: "With patch:" may run on into tables
            last = max(c.lines[1] for c in found)
            for k in series:
                b = blocks[k]
                end = b.end if k not in compared else next(
                    (j + 1 for j in range(b.end - 1, b.start - 1, -1) if lines[j].number <= last), b.start)
                # a label that is a sentence with numbers ("This gives 5% more:") keeps them
                first = b.label_index if b.label_index is not None and not any(
                    ch.isdigit() for ch in lines[b.label_index].text) else b.start
                covered.update(range(first, max(end, b.start)))
    return claims, covered


def command_run_claims(lines: Sequence[Line], events: list[ShellEvent],
                       skip: set[int]) -> tuple[list[Claim], set[int]]:
    """Claims from one command run several times with different setup values."""
    runs: dict[str, list[tuple[dict[str, str], int, int, ShellEvent]]] = {}
    setup: dict[str, str] = {}
    next_index = [len(lines)] * len(events)
    for k in range(len(events) - 2, -1, -1):
        next_index[k] = events[k + 1].index
    for idx, ev in enumerate(events):
        if ev.setup is not None and ev.command is None:
            setup[variant_key(ev.setup)] = ev.setup.value or ""
            continue
        if ev.command is None:
            continue
        end = min(next_index[idx], ev.last + 1 + MAX_BLOCK)
        key = " ".join(ev.command.raw.split())
        runs.setdefault(key, []).append((dict(setup), ev.last + 1, end, ev))
        setup = {}
    claims: list[Claim] = []
    covered: set[int] = set()
    for key, group in runs.items():
        if len(group) < 2:
            continue
        keys = sorted({k for s, *_ in group for k in s})
        differing = [k for k in keys if len({s.get(k) for s, *_ in group}) > 1]
        if not differing:
            continue
        sides: list[tuple[str | None, list[Row]]] = []
        for s, start, end, _ev in group:
            label = ", ".join(f"{k}={s.get(k)}" for k in differing)
            rows = block_rows(lines, start, end, label, [], skip)
            sides.append((label, rows))
        got = _pair_series(lines, sides, key)
        for c in got:
            if c.tool is None:
                c.tool = group[0][3].command.tool if group[0][3].command else None
        claims.extend(got)
        if got:
            for _s, _start, end, ev in group:
                covered.update(range(ev.index, end))
    return claims, covered


# -- one procedure run twice -------------------------------------------------------------
#
# "Following example change to use X" between two transcripts of one procedure: the same
# comments, commands and prompts in the same order, each followed by a reading, once per
# variant.  The steps both runs print are the skeleton; the reading after the k-th copy of
# a step in one run pairs with the reading after the k-th copy of that step in the other.
# Which run is the baseline is read from the lines in which the runs differ ("device_add
# ...,id=b1" / "device_add ...,id=b1,cont-pages=on") or a sentence between them that names
# a side; when neither tells, the runs give no claim.

MIN_STEPS = 3  # steps the two runs share, printed as often in each
_MASK = re.compile(r"\d+(?:[.,]\d+)*")
# What _masked may mask, fold or put in (digits, the "," and "." inside numbers, "#",
# blanks): without them, two lines _masked makes equal are equal. ASCII lines (most) are
# cut as bytes (bytes.translate deletes in one C loop; str.translate maps each character
# through a table, 3x the time), others by the Unicode-aware classes _MASK and str.split use.
_NOT_KEY_ASCII = b"0123456789,.# \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"
_NOT_KEY = re.compile(r"[\d,.#\s]")


def _step_key(text: str) -> str:
    low = text.lower()
    if low.isascii():
        return low.encode("ascii").translate(None, _NOT_KEY_ASCII).decode("ascii")
    return _NOT_KEY.sub("", low)


def _masked(text: str) -> str:
    return " ".join(_MASK.sub("#", text.lower()).split())


def transcript_claims(lines: Sequence[Line], skip: set[int], neutral: frozenset[int] | set[int] = frozenset(),
                      subject: str | None = None) -> tuple[list[Claim], set[int]]:
    """Claims from one procedure printed twice, once per variant (see above)."""
    claims: list[Claim] = []
    covered: set[int] = set()
    at_depth: dict[int, list[int]] = {}
    for i, ln in enumerate(lines):
        if ln.text.strip() and i not in skip:
            at_depth.setdefault(ln.depth, []).append(i)
    for depth in sorted(at_depth):
        got, cov = _two_runs(lines, at_depth[depth], skip, neutral, subject)
        claims += got
        covered |= cov
    return claims, covered


def _two_runs(lines: Sequence[Line], idx: list[int], skip: set[int], neutral: frozenset[int] | set[int],
              subject: str | None) -> tuple[list[Claim], set[int]]:
    def kind(i: int) -> str:
        return "command" if i in neutral else line_kind(lines[i].text)

    # A shared step is printed at least twice, its numbers aside: a line whose _step_key
    # stands once is none, and only the others are read (most lines of a message stand once).
    keys = {i: _step_key(lines[i].text) for i in idx}
    copies: dict[str, int] = {}
    for key in keys.values():
        copies[key] = copies.get(key, 0) + 1
    kinds = {i: kind(i) for i in idx if copies[keys[i]] > 1}
    where: dict[str, list[int]] = {}
    for i, k in kinds.items():
        if k != "data":
            where.setdefault(_masked(lines[i].text), []).append(i)
    twice = _shared_steps([tuple(ks) for ks in where.values()])
    anchored = {a for a, _ in twice}
    if sum(1 for ks in where.values() if anchored.intersection(ks)) < MIN_STEPS:
        return [], set()
    firsts, seconds = [a for a, _ in twice], [b for _, b in twice]
    if max(firsts) >= min(seconds) or seconds != sorted(seconds):
        return [], set()  # (the steps interleave: no line's kind is needed)
    kinds = {i: kinds[i] if i in kinds else kind(i) for i in idx}
    a_start, a_end, b_start, b_end = firsts[0], max(firsts), min(seconds), seconds[-1]
    # each run's readings after its last step: up to the next step of that run's own
    a_end = _readings_end(idx, kinds, a_end, b_start)
    b_end = _readings_end(idx, kinds, b_end, len(lines))
    anchor_of = {ks[0]: ks[1] for ks in twice}
    a_data = _readings(idx, kinds, a_start, a_end, set(firsts))
    b_data = _readings(idx, kinds, b_start, b_end, set(seconds))
    sides = _sides(lines, idx, kinds, (a_start, a_end), (b_start, b_end), set(firsts) | set(seconds), subject)
    if sides is None:
        return [], set()
    first_is_base, base_label, cand_label = sides
    claims: list[Claim] = []
    for (anchor, n), i in a_data.items():
        j = b_data.get((anchor_of.get(anchor, -1), n))
        if j is None:
            continue
        ra = block_rows(lines, i, i + 1, None, [], skip)
        rb = block_rows(lines, j, j + 1, None, [], skip)
        if len(ra) != 1 or len(rb) != 1 or skeleton(ra[0].tokens) != skeleton(rb[0].tokens):
            continue
        base, cand = (ra[0], rb[0]) if first_is_base else (rb[0], ra[0])
        base.label, cand.label = base_label, cand_label
        claims += pair_rows(base, cand, tabular=True)
    # readings carry units ("AnonHugePages: 65536 kB"); bare fields of a dump ("max_tx_vq
    # = 1,") are states the runs print, not measurements
    if not any(c.unit for c in claims) or not any(c.baseline and c.candidate and c.baseline.value != c.candidate.value for c in claims):
        return [], set()
    return claims, set(range(a_start, a_end)) | set(range(b_start, b_end))


def _shared_steps(copies: list[tuple[int, ...]]) -> list[tuple[int, int]]:
    """(copy in the first run, copy in the second) of each step both runs print, in the
    order of the first run.  A step printed twice is one in each run; one printed 2k times
    ("cat /proc/meminfo" before and after each stage) is k in each, the j-th of one run
    with the j-th of the other, when its k-th and (k+1)-th copies fall on either side of
    the line where the steps printed twice change from the first run to the second."""
    pairs = [(ks[0], ks[1]) for ks in copies if len(ks) == 2]
    lo = max((a for a, _ in pairs), default=-1)
    hi = min((b for _, b in pairs), default=1 << 30)
    for ks in sorted((ks for ks in copies if len(ks) > 2 and len(ks) % 2 == 0), key=len):
        k = len(ks) // 2
        if ks[k - 1] < hi and ks[k] > lo:
            pairs += list(zip(ks[:k], ks[k:], strict=True))
            lo, hi = max(lo, ks[k - 1]), min(hi, ks[k])
    return sorted(pairs)


def _readings_end(idx: list[int], kinds: dict[int, str], last_step: int, stop: int) -> int:
    """Past the reading that follows a run's last shared step: a few more steps of its own
    may stand between ("cat /proc/meminfo" under the comment that names the reading)."""
    end = last_step + 1
    steps = 0
    for i in idx:
        if i <= last_step:
            continue
        if i >= stop:
            break
        if kinds[i] == "data":
            end = i + 1
        elif end > last_step + 1 or steps >= 3:
            break
        else:
            steps += 1
    return end


def _readings(idx: list[int], kinds: dict[int, str], start: int, end: int,
              anchors: set[int]) -> dict[tuple[int, int], int]:
    """The data lines of one run, each keyed by the nearest shared step above it and its
    place among the data lines under that step (shapes are compared by the caller)."""
    out: dict[tuple[int, int], int] = {}
    anchor, n = -1, 0
    for i in idx:
        if i < start or i >= end:
            continue
        if i in anchors:
            anchor, n = i, 0
        elif kinds[i] == "data":
            out[(anchor, n)] = i
            n += 1
    return out


def _label_above(lines: Sequence[Line], idx: list[int], kinds: dict[int, str], start: int) -> str | None:
    """The line right above a run that can name it ("Before:", "- base with retpoline"
    over the command that starts the run), if any."""
    above = [i for i in idx if i < start][-4:]
    for k in reversed(above):
        if kinds[k] == "command":
            continue  # the command (and its wrapped tail) that runs the procedure
        t = lines[k].text.strip()
        if kinds[k] != "text" or is_sentence(t) or len(t.split()) > 8:
            return None
        got = block_label(lines[k].text)
        return got[0] if got is not None else None
    return None


def _alike(x: str, y: str) -> bool:
    """`SequenceMatcher(None, x, y).ratio() >= 0.8`, its cheap upper bounds (the lengths,
    then the characters in common) asked first: most pairs of two runs' steps fail them."""
    if x and y and 2.0 * min(len(x), len(y)) / (len(x) + len(y)) < 0.8:
        return False  # (ratio's own form of the bound: its matches are at most the shorter)
    matcher = SequenceMatcher(None, x, y)
    return matcher.quick_ratio() >= 0.8 and matcher.ratio() >= 0.8


def _sides(lines: Sequence[Line], idx: list[int], kinds: dict[int, str], a: tuple[int, int],
           b: tuple[int, int], shared: set[int], subject: str | None) -> tuple[bool, str, str] | None:
    """(the first run is the baseline, baseline label, candidate label), or None when
    nothing tells.  The runs' own steps that the other run writes a little differently
    ("device_add ...,id=b1" / "device_add ...,id=b1,cont-pages=on") name the variants;
    else a sentence between the runs that names a side."""
    above = [_label_above(lines, idx, kinds, start) for start in (a[0], b[0])]
    if above[0] and above[1] and above[0].lower() != above[1].lower() and decided(above, subject):
        sa, sb = rank(above, subject)  # "Before:" / "After:" over the two runs
        return (True, above[0], above[1]) if sa < sb else (False, above[1], above[0])
    own_a = [lines[i].text.strip() for i in idx if a[0] <= i < a[1] and i not in shared and kinds[i] != "data"]
    own_b = [lines[i].text.strip() for i in idx if b[0] <= i < b[1] and i not in shared and kinds[i] != "data"]
    for x in own_a:
        for y in own_b:
            if x == y or not _alike(x, y) or not decided([x, y], subject):
                continue
            sx, sy = rank([x, y], subject)
            return (True, x, y) if sx < sy else (False, y, x)
    between = " ".join(lines[i].text.strip() for i in idx if a[1] <= i < b[0])
    score = cue(between).score if between else 0.0
    if abs(score) < 0.5:
        return None
    return (True, "first run", "second run") if score > 0 else (False, "second run", "first run")
