"""Which messages can hold a claim at all: a cheap gate in front of the extractor.

Almost no message of a list archive holds a performance claim, a benchmark command or a
setup step, so `verifier extract` reads an archive faster than a bare parse only if most
messages are turned away before the message model and the extractor stages are built.
The gate must never turn away a message the extractor would find something in, and the
extractor is rewritten often, so the gate is not tuned to its words: it is built from
conditions that any claim, command or setup step needs, whatever model finds it.

Two levels: cheap cues over the whole text (regular expressions that start with a literal
or a digit), then, where a cue fires that many messages carry without a claim, the
extractor's own reader of that shape asked about the cue's lines only.
- Only text the extractor reads counts. Patch hunks (claims.hunks: also quoted ones, hunk
  headers the mail client wrapped, and runs of code lines whose hunk header a reviewer cut)
  and everything after a top-level `--` signature line are removed first (`readable`),
  never further than the extractor skips them (claims.hunks.cut_hunks cuts a subset of
  hunk_lines).
- Every claim needs a number ("every digit is Unicode-aware": `\\d` matches the digits the
  extractor's tokenizer reads).
- A change stated alone needs a number with `%`, `x`/`×`, "times" or "fold", and then
  claims.prose.relative_claims must find a change in that paragraph (`_states_change`).
- A pair in rows and columns or in blocks needs an operator or `vs` line between blocks,
  aligned numeric columns, two numbers with units on one line, `label: number` cells
  whose labels the lexicon (`claims.lexicon.side_word_pattern`) reads as variants, or one
  key printed with a number on two lines (before ":" or "=", or the words of a row that
  ends in its value, "Elapsed Time 102.41 (0.62)", in a run of blocks that pairs), or a
  0-day/LKP comparison row (a signed change between two numbers, on a line claims.lkp
  reads). The grid and block models are the costly
  stages and are not run here, but a cell, a repeated key or two measures on a line count
  only on a line one of their readers can take: a row of the grid model's own line parser
  or of the prose "label: value" rows, or a line a block can hold (a line of output, as
  claims.blocks.line_kind reads lines, at or below it, before code or another quote depth);
  two measures also count in a paragraph whose sentences the prose readers pair. A cell or
  a block's label counts only where its reader can pair it with something: a grid row with a
  second cell or a row of its grid beside it, a group of prose rows whose labels can tell
  the sides apart, a run of blocks (no code or other quote depth between) two of which hold
  a line of one shape; and two on one line only where a reader pairs two numbers of a line.
- A pair written in words (from/to either way round, "vs", "compared", "against", "instead of", "rather than",
  "(was X)", numbers with side words: "645 without the patch, ~625 with batch", or set in time:
  "was 8 ms; now it is 9 ms"; several measures at once, "p50/p99: 12/45 us before, 11/31
  after"; a sentence may wrap anywhere) passes only where the
  extractor's readers of such text find a pair in the cue's paragraph: the sentence
  templates, statements across sentences, "label: value" rows and tables (`_worded_pair`).
  A claim of no change needs no number, but the extractor reads one only in a message with
  a command or a claim, which pass by their own cues.
- A command or setup step: every line that may start one (a prompt, a loop, an echo into
  a file, a perf stat header, a path, script, assignment or variable first, a program
  word first or after a bullet or a `label:` (the command reader's own benchmarks, setup
  tools and wrappers: claims.commands.LINE_PROGRAMS), a benchmark-like word before an option, an
  unknown program named like a benchmark or sent to the background, its options on "\\"
  continuation lines or quoted too, a benchmark named with its version or of a listed
  family, "fio-3.35", before any word that may open its arguments (claims.commands.opens_args:
  "-4", "-", "$ARGS", "stat") on its line or one the reader joins to it, a span in backticks
  holding an option; and the same in a piece of a line after its first, behind a shell
  separator, a keyword or a wide gap: "x && fio-3.35 -4", "do ./my_bench $ARGS") is read
  with the lines it may join by claims.commands.find_commands itself (`_has_command`).
The gate is checked against extraction without it over the labelled corpus, the shapes,
their parts and re-layouts (paragraphs, windows of lines, re-quoted, re-indented, re-flowed,
blanks folded: tests/claims/test_prescan_variants.py) and (slow) the whole archive:
tests/claims/test_prescan.py counts every claim it would lose.

What it costs: the gate runs on every message, and most of an archive is turned away, so a
turned-away message pays for every cue. A pattern anchored at every line start (or one that
starts with a look-behind or a case-free word list) is tried at every character by the
regex engine. So each such cue is found from a mark its lines must hold, a literal the
engine skips to (a path's "/", a script's ".sh", an assignment's "=", a key's ":", an
option's dash, a hint's "of", a loop's "for", a newline before a hunk's first line), and
then the one pattern is matched from that line's start: the same lines, at a fraction of
the cost (tests/claims/test_prescan.py compares each finder with its pattern over the
corpus). A pattern that starts with one of a few characters ("#" or "$", ":" or "=", an
arrow) is tried at every character too: it is looked for as one pattern per character
(`_by_first_char`). The program words are found as tokens of the text's bytes, not as a
string made of every word, and a text is not split into its lines to find its long ones.
The same holds for what several cues need: the places a number may start are found once a
text, and every pattern that starts with a number (a change, columns, units, cells, row
ends, side numbers) is matched only there (`_matches_at`), not searched for at each of the
text's digits, and one that starts with a number and its unit only where such a number
starts (`_unit_starts`). A case-free pattern written in lower case (the lexicon's side
words, the reader's factor hints) is matched, case-sensitive, over the lower case, where
that is what `(?i)` folds. What the extractor's readers answer about a paragraph or a command window
is kept for the next message that quotes the same one, and so is the lexicon's answer
about a side's few words. bench/gate_cost.py times the gate against another commit's on
the texts an archive gives it, and checks that both pass the same ones.
"""
from __future__ import annotations

import bisect
import codecs
import itertools
import re
from collections.abc import Callable, Iterable, Iterator
from functools import cache, lru_cache
from typing import NamedTuple

from claims import numbers
from claims.commands import (
    ARG_MARKS,
    BACKTICKS,
    BENCH_NAME,
    BENCH_PROGRAMS,
    BULLET,
    FIRST_ARGS,
    JOIN_REACH,
    LINE_CHARS,
    LINE_PROGRAMS,
    join_continued,
    known_program,
    program_like,
    wrapped_args,
)
from claims.hunks import cut_hunks, cut_matches
from claims.listings import cut_listings
from claims.model import Line
from claims.normalise import FLAT_MIN, unflatten

# --- what the extractor never reads --------------------------------------------------------

# A top-level signature line: the message model drops everything after it.
_SIGNATURE = re.compile(r"--[ \t]*$", re.M)
# the same line after its newline: a literal the regex engine skips to (a loop over each
# "\n--" in Python, most of them a patch's "--- a/", cost a third more)
_SIGNATURE_AFTER = re.compile(r"\n--[ \t]*$", re.M)


def _signature(text: str) -> int:
    """Where the first top-level signature line starts, or -1 (found by its "\\n--": a
    regex anchored at every line start costs more)."""
    if text.startswith("--") and _SIGNATURE.match(text) is not None:
        return 0
    m = _SIGNATURE_AFTER.search(text)
    return -1 if m is None else m.start() + 1


# A pattern that starts with one of a few characters (a class, or an alternation of words
# with different first letters) is tried at every character of a text: the regex engine
# skips only to a literal. Such a pattern is written as one pattern for each of its first
# characters, each looked for only in a text that holds its mark (a literal each of its
# matches holds: `in` costs little): the same matches at a fraction of the cost.
Marked = tuple[tuple[str, re.Pattern[str]], ...]


def _by_first_char(*patterns: tuple[str, str], flags: int = 0) -> Marked:
    """Each (mark, pattern) compiled alone: the patterns are the alternatives of the one
    pattern they stand for, and every match of each holds its mark (its first character,
    or a word it holds)."""
    return tuple((mark, re.compile(pattern, flags)) for mark, pattern in patterns)


def _marked_finditer(marked: Marked, text: str) -> list[re.Match[str]]:
    """The matches of the one pattern `marked` stands for, in text order (where no match
    of one of its alternatives overlaps one of another's)."""
    found = [m for mark, pattern in marked if mark in text for m in pattern.finditer(text)]
    if len(marked) > 1:
        found.sort(key=re.Match.start)
    return found


def _marked_search(marked: Marked, text: str) -> bool:
    """Does the one pattern `marked` stands for match anywhere in `text`?"""
    return any(mark in text and pattern.search(text) is not None for mark, pattern in marked)


# Single lines the extractor skips wherever they are (claims.extract.skipped_lines): diffstat
# rows and summaries, kernel log lines; matched after the exact quote prefix the message
# model strips, with whitespace that never crosses a line.
_P = r"^(?>(?:[ \t]?>)*)"
_W = r"[^\S\n]"
_SKIPPED_LINE = re.compile(
    rf"{_P}{_W}*\S+{_W}+\|{_W}+(?:\d+{_W}*[+-]*|Bin [^\n]*)$|{_P}{_W}*\d+ files? changed[^\n]*"
    rf"|{_P}{_W}*\[{_W}*\d+\.\d{{3,}}\][^\n]*", re.M)
# what a line of each of those holds (a "| 12" or "| Bin ", "file(s) changed", a "[ 5.392"):
# only such lines are matched (none crosses a line); "|" and "[" alone stand on many more
_SKIPPED_MARK = re.compile(r"\|[^\S\n]+(?:\d|Bin )|files? changed|\[[^\S\n]*\d+\.\d{3}")
_SKIPPED_MARKS = _by_first_char(("|", r"\|[^\S\n]+(?:\d|Bin )"), ("changed", "files? changed"),
                                ("[", r"\[[^\S\n]*\d+\.\d{3}"))  # _SKIPPED_MARK; none overlaps another


def readable(text: str) -> str:
    """The part of a decoded body the extractor reads: no patch hunks, no numbered source
    listings, nothing after a top-level signature, no diffstat lines."""
    cut = _signature(text)
    if cut >= 0:
        text = text[:cut]
    text = cut_hunks(text)  # and headerless hunks (claims.hunks.fragment_runs)
    text = cut_listings(text)  # numbered source listings (claims.listings)
    marks = _marked_finditer(_SKIPPED_MARKS, text)  # in order: their line starts climb
    if marks:
        text = cut_matches(_SKIPPED_LINE, text, (text.rfind("\n", 0, m.start()) + 1 for m in marks))
    return text


# --- what every claim, command or setup step needs ------------------------------------------

# A number as the extractor's tokenizer reads one: not glued to a word before it ("v2",
# "eth0", "x86"), digits then at most a unit, then no more word characters ("3ef0e5ba" and
# "0x1f" are not numbers). `\d` is Unicode-aware, as in the tokenizer.
_TAIL = rf"(?:[A-Za-zµ%/][A-Za-zµ%/.]{{0,15}}|{numbers.CLOCK_TAIL})?"  # a unit, or time(1)'s "0m12.345s"
_N = rf"(?<![\w.])[~≈]?[+-]?(?:\d[\d,.]*|\.\d)(?:[eE][+-]?\d+)?{_TAIL}(?!\w)"
_NUM = re.compile(_N)
# the same, digit first (".5" is then read from its 5: never stricter)
_N0 = rf"\d(?<!\w\d)[\d,.]*(?:[eE][+-]?\d+)?{_TAIL}(?!\w)"
# a number with its unit, glued or one space away ("25 us", "1.2Mpps", "40%"); the units are
# the tokenizer's own (claims.numbers), so a unit it learns is one this gate knows
_UNIT = numbers.UNIT_RE.pattern
_U = rf"(?<![\w.])\d[\d,.]*(?:{numbers.CLOCK_TAIL}|[^\S\n]?(?=[^\W\d_]|%)(?i:{_UNIT}))(?![\w/])"
_U0 = rf"\d(?<!\w\d)[\d,.]*(?:{numbers.CLOCK_TAIL}|[^\S\n]?(?=[^\W\d_]|%)(?i:{_UNIT}))(?![\w/])"  # the same, digit first
# Each cue is written to start with a literal or a digit, so the regex engine skips to
# those (a leading alternation with `\b` or a unit list tried at every digit made the gate
# cost more than the reading): word boundaries are looked behind after the word.
_ALONE = 2  # the first cues: a change stated alone
_ARROW_CUE = 2  # an operator between variants: looked for as _ARROWS
_ARROW_HEADS = (("-", r"->(?!8(?<=-->8)(?:-|[^\S\n]*$))"), ("=", "=>"), ("→", "→"), ("⇒", "⇒"))
_ARROW_TAIL = rf"[^\S\n]*(?:\n[ \t>]*){{0,3}}{_N}"
_WORDED = 6  # the cues from here on: a pair written in words
_CUES = [re.compile(p, re.M) for p in (
    # a change stated alone: 12%, 1.5x, 3×, 2 times, tenfold
    # (a token of its own: "%40" in a URL, "0x%x" and "3c59x.c" are not)
    r"%(?<![\w%]%)[+-]?\d",
    r"\d(?<![\w.]\d)(?:[\d,.]*\d)?[^\S\n]?(?:%|[x×X](?=[\s)\],;:!?]|\.(?:\s|$)|$)"
    r"|per[^\S\n]?cent\b|times\b|-?fold\b)",
    # an operator between variants, or on a line between two blocks of output ("-->"), the
    # numbers below it; not a pair of scissors ("--->8---", "----->8" ending its line)
    rf"(?:{'|'.join(head for _, head in _ARROW_HEADS)}){_ARROW_TAIL}",
    # "vs" on a line between two blocks; "vs", "compared", "instead of" before a number
    rf"(?:vs(?<!\wvs)\b\.?|versus(?<!\wversus)\b)[^\S\n]*(?:\n[ \t>]*){{1,3}}{_N}",
    # aligned columns: two numbers with a column gap between them
    rf"{_N0}(?:[^\S\n]+[^\W\d][^\s|]{{0,15}})?(?:[^\S\n]{{2,}}|\t|[^\S\n]*\|[^\S\n]*){_N}",
    # two numbers with units on one line ("9.1 Gbps without the patch and 9.4 Gbps with it", or
    # a line of tool output in a block, "133292pps 68Mb/sec");
    # a unit starts with a letter or %: looked ahead before the unit list is tried
    rf"{_U0}[^\n]{{0,120}}?{_U}",
    # (from here on: cues of a pair written in words, _WORDED)
    # (a sentence wrapped between its words, or before the number: "rather\nthan 8.0 Gbps")
    *(rf"{w}(?<!\w{w}){rest}\b(?s:.){{0,80}}?{_N}"
      for w, rest in (("vs", ""), ("versus", ""), ("compared", ""), ("against", ""),
                      ("instead", r"(?:[ \t]+|[ \t]*\n[ \t>]*)of"), ("rather", r"(?:[ \t]+|[ \t]*\n[ \t>]*)than"))),
    r"\((?:was|previously|before)\b[^\S\n]*:?[^\S\n]*[~≈]?\d",  # "8.2s (previously 14.7s)": the earlier value aside
)]
_UNITS_CUE = 5  # two numbers with units on a line: it counts only where read (_measures_read)
# the cues whose every match starts at a number start (_matches_at): 1.5x, 40%, the columns
# and the units cues
# (their indices in _CUES: a compiled pattern's hash reads all its code, microseconds for
# the units cue, so patterns are not looked up in a set)
_DIGIT_FIRST = frozenset({1, 4, _UNITS_CUE})
_ARROWS = _by_first_char(*((mark, head + _ARROW_TAIL) for mark, head in _ARROW_HEADS), flags=re.M)
# "from X to Y", also wrapped across a line break: a `to` before a number, with a digit in
# the 61 characters before it (the last digit, then up to 60 others).
# (a hedge between, as claims.prose's templates allow: "to about 310k", "from ~1.2M")
_HEDGE = r"(?:(?:about|around|approx\.?)[\s>]+)?"
_TO = re.compile(rf"to(?<!\wto)[\s>]+{_HEDGE}[~≈]?[+-]?\d")
# and the other order, the later value first: "9.5 Gbps, up from 8.0", "dropped to 12 (from
# 15)" (claims.prose's _UP_FROM and _TO_FROM): a `from` before a number, a digit before it
_FROM = re.compile(rf"from(?<!\wfrom)[\s>]+{_HEDGE}[~≈]?[+-]?\d")


def _from_to(text: str) -> Iterator[int]:
    for m in itertools.chain(_TO.finditer(text), _FROM.finditer(text) if "from" in text else ()):
        if _DIGIT.search(text, max(0, m.start() - 61), m.start()) is not None:
            yield m.start()

# A number in a cell: after a column gap, a `|`, a "label: ", a "key=" or a "key = "
# (output written "Rate = 5112930"). Written digit
# first (the context is looked behind), so the regex engine jumps from digit to digit.
_SIGN = "[-+~≈]?"
_CELL = re.compile(
    r"\d(?:" + "|".join(f"(?<={ctx}{sign}\\d)" for ctx in (r"[^\S\n][^\S\n]", r"\t", r"\|", r"\| ", r": ", r":\t", r"\w=", r"\w =[^\S\n]")
                        for sign in ("", "[-+~≈]")) + r")(?:[\d,.]*\d)?(?:[eE][+-]?\d+)?"
    + _TAIL + r"(?!\w)")
# A line that ends in ":" opens a block ("Before:", "After applying it, iperf3 says:")
# (an attribution "On .., X wrote:" names the quoted author; claims.message reads it as one).
# a number in a block, but not a list marker ("1. ", "2) ") or a footnote ("[1]")
_BLOCK_NUM = re.compile(r"(?<![\w.\[])[~≈]?[+-]?(?:\d[\d,.]*|\.\d)(?:[eE][+-]?\d+)?"
                        + _TAIL + r"(?!\w|[.)\]](?:[^\S\n]|\n|\Z))")


def _block_num_in(text: str, start: int, end: int) -> bool:
    """`_BLOCK_NUM.search(text, start, end)`, tried from the first digit on: the pattern
    starts with a look-behind, so a search is tried at every position, and a match starts
    at most three characters before its first digit ("~+.5")."""
    digit = _DIGIT.search(text, start, end)
    return digit is not None and _BLOCK_NUM.search(text, max(start, digit.start() - 3), end) is not None
# A row that names its variant and ends in one value with its unit, "label: value" without
# the colon ("virtio-net without merge dma 428614.00 pps": claims.prose._value_last_row)
_ROW_END = re.compile(rf"{_U0}[^\S\n]*$", re.M)
# the lines over a row's last value where its side may be named: its own ("baseline 1.23
# Mpps") and a label's with no colon over its block ("> base" over "> 1.23 Mpps")
_ROW_END_ABOVE = 2
# a line that holds one number and nothing else ("> 102.41"): a block's row whose side only
# a label over it names; found from its number (_matches_at), its line start checked
_BARE_END = re.compile(rf"{_N0}[^\S\n]*$", re.M)
_BLOCK_END = re.compile(r":(?<!wrote:)(?<!writes:)(?<!said:)(?<!schrieb:)(?<!crit:)(?<!escribió:)(?<!写道:)"
                        r"[^\S\n]*\n")

# The programs the command reader runs wherever they start a line, and the benchmarks it
# also reads in prose before an option: its own sets (claims.commands), so a program, wrapper
# or setup tool it learns is one the gate looks for ("netserver -D", "ssh host ./netserver",
# "nohup netserver &", "podman exec c1 ./x"). "for" and "echo" start sentences too; the gate
# looks for their shell forms instead (_LOOP_HEAD, _ECHO).
_PROGRAM_WORDS = LINE_PROGRAMS - {"for", "echo"}
_BENCH_WORDS = BENCH_PROGRAMS
# The words of a text that may be a program name: runs of word characters and dashes from a
# lower-case letter (every program word starts with one), so "`netperf`", "(ethtool",
# "./ip;" and "netperf." give theirs; each is then checked where it stands (_word_re).
_WORD_RUN = re.compile(r"[a-z][\w-]*")
# Those runs are found as bytes (_program_words): the text's UTF-8 with every byte but an
# ASCII letter, digit, "_" or "-" made a blank, then split at the blanks. A program word
# (ASCII) that stands whole, with no word character or dash on either side, is one of those
# tokens, and only such a word is found by _word_re or _prose_re; the split costs a third
# of the regex's runs, which make a string of every word of every message.
_ASCII_WORD = re.compile(r"[A-Za-z0-9_-]+")
_WORD_BYTES = bytes(b if _ASCII_WORD.fullmatch(chr(b)) else 0x20 for b in range(256))
_PROGRAM_BYTES = frozenset(w.encode() for w in _PROGRAM_WORDS if _ASCII_WORD.fullmatch(w))


# The same tokens tell, for free, whether a few other routes can find anything: each needs a
# word that stands whole wherever it holds (no letter, digit, "_" or "-" glued to it): a
# setup step's "echo" (_ECHO), a loop's "do" (_LOOP_HEAD), a perf stat header's "counter" (its
# " counter "), a script's "sh", "py" or "bash" (after its ".", _OWN_MARKS).
_FIRST_ARG_BYTES = frozenset(w.encode() for w in FIRST_ARGS)  # a known program's first argument (_known_names)
_MARK_BYTES = frozenset({b"echo", b"do", b"counter", b"sh", b"py", b"bash"}) | _FIRST_ARG_BYTES
_TOKEN_BYTES = _PROGRAM_BYTES | _MARK_BYTES
_SCRIPT_BYTES = frozenset({b"sh", b"py", b"bash"})


@lru_cache(maxsize=1)
def _tokens_found(text: str) -> frozenset[bytes]:
    """The program words and mark words (_MARK_BYTES) that stand whole somewhere in
    `text` (and perhaps a few that stand only glued to a non-ASCII letter, which _word_re
    then finds nowhere): one split of the text's bytes for every route that asks."""
    tokens = text.encode("utf-8", "surrogatepass").translate(_WORD_BYTES).split()
    return _TOKEN_BYTES.intersection(tokens)


def _program_words(text: str) -> list[str]:
    """The program words that stand whole somewhere in `text` (see _tokens_found)."""
    return [w.decode() for w in _tokens_found(text) if w in _PROGRAM_BYTES]
# What may stand before a program at the start of a line: quotes, a bullet, a backtick, a path.
# (the bullets are claims.commands' own, BULLET: "- ", "+ ", "=> ", "→", "2) ", "(2) ", "(b) ")
_BULLET = rf"{BULLET}?"
_LEAD = re.compile(rf"(?:[^\S\n]|>)*{_BULLET}`?(?:[\w.~-]*/)?")
_LEAD_NO_PATH = re.compile(rf"(?:[^\S\n]|>)*{_BULLET}`?")
# ... or a label ("client:", "Test Cmd:"), which the command reader drops before a program
_LABEL = r"[A-Za-z][\w./+()-]*(?:[^\S\n][\w./+()-]+){0,3}[^\S\n]*:[^\S\n]+"
_LEAD_LABEL = re.compile(rf"(?:[^\S\n]|>)*{_BULLET}{_LABEL}`?(?:[\w.~-]*/)?")
# a word the reader does not know starts a line with an option after it: a program it runs
# only when named like a benchmark (claims.commands.BENCH_NAME) or sent to the background
_UNKNOWN_PROGRAM = re.compile(
    rf"^(?:[^\S\n]|>)*{_BULLET}(?:{_LABEL})?`?(?P<w>[a-z][\w.+-]{{0,60}})(?:[^\S\n][^\n]*?)?[^\S\n][\"'\\]*-"
    r"(?=[-\"'\\]*[A-Za-z])[^\n]*", re.M)
_BENCH_STEM = re.compile(r"(?i:bench|perf|test|stress|load|mark|_rr|_stream|lat_|bw_|iops)")
# ... and before a prompt's # or $: [user@host dir], user@host:path, host
_PROMPT_LEAD = re.compile(r"(?:[^\S\n]|>)*(?:\[[^\]\n]{0,80}\]|[\w.@-]{1,60}:[^\s#$]{0,80}|[\w.~-]{1,60})?"
                          r"[^\S\n]?")
_PROMPT = re.compile(r"[#$][^\S\n]+\S")
_PROMPTS = _by_first_char(("#", r"#[^\S\n]+\S"), ("$", r"\$[^\S\n]+\S"))  # _PROMPT, one per mark
# A shell loop's head: the command reader reads every line whose first word (after a bullet
# or a `label:`) is "for", and its loop grammar (claims.setup_steps._FOR_ECHO) takes the
# "do" with or without a blank (";do"), or on a "\\" continuation line; so the head is
# what counts ("for NAME in", a C-style "for (("), and the reader reads the rest. Found
# from its "for" (a literal the regex engine skips to), then its line start asked.
_LOOP_HEAD = re.compile(r"for(?<![\w-]for)(?:[^\S\n]+\w+[^\S\n]+in\b|[^\S\n]*\(\()")
_ECHO = re.compile(rf"^(?:[^\S\n]|>)*{_BULLET}(?:{_LABEL})?`?(?:[\w.~-]*/)?echo\b[^\n]*"
                   r"(?:>|\|[^\S\n]*(?:sudo[^\S\n]+)?tee\b)", re.M)
# A program of one's own run by its path ("./vsock_perf --port 1234", "~/bin/x"), a script
# ("run.sh"), an assignment or a variable first ("NETPERF=... ", "$NETPERF -H"): the command
# reader's other words that may start a shell line (claims.commands.program_like).
# Found from the mark each kind of word carries (its "/", its ".sh", its "=", its "$"): the
# regex engine skips to those, where a pattern anchored at every line start costs about a
# microsecond a line. The text from the line start to the mark is then matched whole
# (`fullmatch`): the same lines as the one line-anchored pattern
#   ^LEAD (LABEL)? `? (sudo )? (?:(?:\.{0,2}/|~/)[\w.~/+-] | [\w.+-]+\.(?:sh|py|bash)(?![\w-])
#                                | [A-Za-z_]\w*=\S | \$\S{2})
# since none of its parts crosses a line, and a word can start only after the lead's last
# character (a blank, a ">", a backtick: looked behind at the mark).
_OWN_LEAD = rf"{_LEAD_NO_PATH.pattern}(?:{_LABEL})?`?(?:sudo[^\S\n]+)?"
_OWN_MARKS = tuple((re.compile(mark), re.compile(_OWN_LEAD + head)) for mark, head in (
    (r"/(?<![^\s>`.~]/)(?=[\w.~/+-])", r"(?:\.{0,2}|~)"),  # a path: ./x, ../x, /x, ~/x
    (r"\.(?<=[\w.+-]\.)(?:sh|py|bash)(?![\w-])", r"[\w.+-]+"),  # a script
    (r"=(?<=\w=)(?=\S)", r"[A-Za-z_]\w*"),  # an assignment
    (r"\$(?<![^\s>`]\$)(?=\S\S)", ""),  # a variable
))


# each mark's literal, asked first (`in` costs a tenth of a search): the script's extension
# is one of the text's tokens (_tokens_found) wherever the mark is
_OWN_HAS = (lambda text: "/" in text, lambda text: not _SCRIPT_BYTES.isdisjoint(_tokens_found(text)),
            lambda text: "=" in text, lambda text: "$" in text)


_OWN_SCREENED = (2, 3)  # an assignment or a variable first: read only where _may_run


def _own_program_lines(text: str) -> Iterator[int]:
    """The starts of the lines that begin with a program of one's own (see _OWN_MARKS)."""
    return (line for _, line in _own_program_marks(text))


def _own_program_marks(text: str) -> Iterator[tuple[int, int]]:
    """(the index of the mark in _OWN_MARKS, the line start) for each line that begins with
    a program of one's own."""
    for k, ((mark, lead), has) in enumerate(zip(_OWN_MARKS, _OWN_HAS, strict=True)):
        if not has(text):
            continue
        for m in mark.finditer(text):
            line = text.rfind("\n", 0, m.start()) + 1
            if lead.fullmatch(text, line, m.start()) is not None:
                yield k, line
# ... or named in a sentence before an option ("a fix in virtio_test --reset"): a path, or a
# word named like a benchmark (the stems claims.commands reads a benchmark's name by). Found
# from the option back to the word before it: options are rarer than words.
_OPTION = re.compile(r"-(?<=[^\S\n]-)-?[A-Za-z]")  # its dash first, the blank looked behind
_OWN_STEM = re.compile(r"(?i:bench|perf|test|stress|load|mark|iops|_rr|_stream|lat_|bw_)")


@cache
def _word_re(word: str) -> re.Pattern[str]:
    # the word first, its boundary looked behind after it: the engine skips to the word
    w = re.escape(word)
    return re.compile(rf"{w}(?<![\w-]{w})(?![\w-])")


@cache
def _prose_re(word: str) -> re.Pattern[str]:
    """A benchmark program named in prose before an option ("we ran netperf -t TCP_RR");
    the word first, as in _word_re."""
    w = re.escape(word)
    return re.compile(rf"{w}(?<![\w/.-]{w})[^\S\n]+(?:[a-z][a-z-]{{1,15}}[^\S\n]+)?-")


def _lines_matching(pattern: re.Pattern[str], text: str, word: str) -> Iterator[int]:
    """The line starts where `pattern` matches (a pattern anchored at a line start, a loop
    or an echo, that never crosses the line's end), tried only on the lines that hold
    `word`, which each of its matches holds: a pattern anchored at every line start is
    tried at every character."""
    tried = -1
    pos = text.find(word)
    while pos >= 0:
        line = text.rfind("\n", 0, pos) + 1
        if line != tried:
            tried = line
            if pattern.match(text, line) is not None:
                yield line
        pos = text.find(word, pos + 1)


def _at_line_start(text: str, pos: int, lead: re.Pattern[str] = _LEAD) -> bool:
    return lead.fullmatch(text, text.rfind("\n", 0, pos) + 1, pos) is not None


_DIGIT = re.compile(r"\d")
# Where a number can start: a digit after no word character. Every pattern that starts with
# `\d(?<!\w\d)` or a stricter look-behind (the units and column cues, cells, row ends,
# side numbers, a change stated alone) can match only there, so these are found once a text
# and each such pattern is matched at them (`_matches_at`), not searched for over the
# whole text: a search tries every one of its digits, most of them inside a run ("3ef0e5ba",
# dates, hex dumps), at about twice the cost.
_NUMBER_START = re.compile(r"\d(?<!\w\d)")


# Each character made one byte: a digit "0", any other word character "a", a line end
# "\n", the rest a blank; a number starts at a "0" first or after a blank or a line end,
# which bytes.find skips to (the regex tries every digit, most of them inside a run:
# "3ef0e5ba", dates, hex dumps). A Latin-1 character (most mail) is its own byte,
# translated; one Latin-1 cannot hold (a curly quote, a dash, CJK) is written as its kind's
# byte by an encoding error handler, called once a run of such characters (the regex over
# such a text cost twice as much).
_START_BYTES = bytes(0x30 if chr(b).isdecimal() else 0x61 if chr(b).isalnum() or b == 0x5F
                     else 0x0A if b == 0x0A else 0x20 for b in range(256))


def _start_kinds(error: UnicodeError) -> tuple[str, int]:
    """Each character of an unencodable run as the byte of its kind (see _START_BYTES)."""
    assert isinstance(error, UnicodeEncodeError)
    run = error.object[error.start:error.end]
    return "".join("0" if ch.isdecimal() else "a" if ch.isalnum() or ch == "_" else " " for ch in run), error.end


codecs.register_error("prescan-start-kinds", _start_kinds)


@lru_cache(maxsize=1)
def _marks(text: str) -> bytes:
    """`text` as the bytes of its characters' kinds (_START_BYTES), one byte a character."""
    return text.encode("latin-1", "prescan-start-kinds").translate(_START_BYTES)


@lru_cache(maxsize=1)
def _number_starts(text: str) -> list[int]:
    """Where numbers may start in `text` (the one text the gate is reading: a str keeps its
    hash, so asking again costs nothing)."""
    marks = _marks(text)
    starts = [0] if marks.startswith(b"0") else []
    for after in (b" 0", b"\n0"):
        pos = marks.find(after)
        while pos >= 0:
            starts.append(pos + 1)
            pos = marks.find(after, pos + 2)
    if b"\n0" in marks:
        starts.sort()
    return starts


# a line whose first word character is a digit, in the kinds of its characters (_marks): every
# line _VALUE_FIRST_AT matches is one. Found from each line end (a literal the engine skips
# to); the text's first line is asked apart.
_VALUE_FIRST_MARKS = re.compile(rb"\n *0")


# The patterns that start with a number and its unit (_U0: the units cue, a row's last
# value): the unit list is the costly part of each, so the number starts where _U0 matches
# are found once a text (_unit_starts, one in thirty), and each is matched only there.
_U0_AT = re.compile(_U0)


@lru_cache(maxsize=1)
def _unit_starts(text: str) -> list[int]:
    """The number starts (_number_starts) where a number with its unit starts (_U0): every
    match of a pattern that starts with _U0 starts at one of them."""
    return [pos for pos in _number_starts(text) if _U0_AT.match(text, pos) is not None]


def _matches_at(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)` for a pattern whose every match starts at a number start
    (_number_starts): the leftmost match at or after where the last one ended, each time.
    A pattern that starts with _U0 is tried only at the unit starts (_unit_starts)."""
    end = 0
    unit_first = pattern is _ROW_END or pattern is _CUES[_UNITS_CUE]
    for pos in _unit_starts(text) if unit_first else _number_starts(text):
        if pos >= end and (m := pattern.match(text, pos)) is not None:
            yield m
            end = m.end()


def _found_at(pattern: re.Pattern[str], text: str) -> bool:
    """`pattern.search(text) is not None`, for a pattern as in _matches_at."""
    return next(_matches_at(pattern, text), None) is not None


def _lexicon_pattern(name: str, stand_in: re.Pattern[str]) -> re.Pattern[str]:
    """The pattern claims.lexicon's function `name` writes from its own words, or a broader
    `stand_in` when that module has changed shape."""
    try:
        from claims import lexicon

        return getattr(lexicon, name)()
    except (ImportError, AttributeError, re.error):
        return stand_in


# the words that name a variant
_VARIANT = _lexicon_pattern("side_word_pattern", re.compile(
    r"(?i)before|after|with|no|base|old|new|patch|orig|vanilla|upstream|next|pre|post|on|off"))
# The characters `(?i)` reads as another letter than their lower case does ("İ", "ı", "ſ"):
# in a text without them, a case-free pattern written in lower case (its classes taking
# a lower-case letter) matches where the same pattern, case-sensitive, matches the lower case,
# a third less costly at each position (tests/claims/test_prescan.py checks the lexicon's).
_FOLDS_APART = ("\u0130", "\u0131", "\u017f")


def _lower_case(pattern: re.Pattern[str]) -> re.Pattern[str] | None:
    """A case-free pattern written in lower case, without its `(?i)`: read over a text
    lower-cased (_folded_finditer); None for another pattern."""
    return re.compile(pattern.pattern[4:]) if pattern.pattern.startswith("(?i)") else None


def _folded_finditer(pattern: re.Pattern[str], lower: re.Pattern[str] | None,
                     text: str) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)` for a case-free pattern, read as `lower` (_lower_case) over
    the lower-cased text where no character folds apart; the matches' text is lower case."""
    if lower is not None and (text.isascii() or not any(ch in text for ch in _FOLDS_APART)):
        return lower.finditer(text.lower())
    return pattern.finditer(text)


_VARIANT_LOWER = _lower_case(_VARIANT)


# "+" names a side only as the lexicon's tokenizer reads it: before a letter ("+patch",
# "+gro"), never glued to a word; side_word_pattern also takes a "+" before a tab or a
# digit (a diff line, "+5%"), which no label scores on.
_PLUS = re.compile(r"\+(?<![\w+]\+)(?=[A-Za-z])")  # the "+" first: a literal the engine skips to


@lru_cache(maxsize=1024)
def _is_variant(text: str) -> bool:
    """Does `text` name a variant? Cached: the same few words after or before a number
    ("  ", " ms, ", " without the patch") are asked about again and again (three asks in
    four are repeats over the archive, most within a message: a few lines are kept)."""
    for m in _folded_finditer(_VARIANT, _VARIANT_LOWER, text):
        if m.group() != "+":
            return True
    return _PLUS.search(text) is not None


def might_have_claims(text: str) -> bool:
    """False only when no claim, command or setup step can be found in `text` (a decoded
    body, quote markers kept or removed)."""
    text = _with_unflattened(readable(text))
    if _DIGIT.search(text) is not None:
        for k in range(_ALONE, _WORDED):
            if _cue_found(k, text) and (k != _UNITS_CUE or _measures_read(text)):
                return True
        if _paired_cells(text) or _repeated_keys(text) or _states_change(text) or _lkp_rows(text):
            return True
        if _worded_pair(text):
            return True
    elif _states_change(text):  # "this halves the latency": a change sized by a word, no digit
        return True
    return _has_command(text)


def _cue_found(k: int, text: str) -> bool:
    """Does the cue _CUES[k] match anywhere in `text`?"""
    if k == _ARROW_CUE:
        return _marked_search(_ARROWS, text)
    return _found_at(_CUES[k], text) if k in _DIGIT_FIRST else _CUES[k].search(text) is not None


def _cue_matches(k: int, text: str) -> Iterator[re.Match[str]]:
    """The matches of the cue _CUES[k] (but the arrows), as `finditer` gives them."""
    return _matches_at(_CUES[k], text) if k in _DIGIT_FIRST else _CUES[k].finditer(text)


def _with_unflattened(text: str) -> str:
    """`text`, and after it the lines a page flattened cut back as the extractor cuts them
    (claims.normalise.unflatten): it reads such a line whole, then cut, so the gate does."""
    cut = [pieces for line in _long_lines(text) if len(pieces := unflatten(line)) > 1]
    if not cut:
        return text  # a long line that is not cut is read once, whole, by the extractor too
    return "\n".join([text, *(piece for pieces in cut for piece in pieces)])


def _long_lines(text: str) -> Iterator[str]:
    """The lines of `text` of FLAT_MIN characters or more, in order. Found from the last
    newline in each next FLAT_MIN characters (none there: a long line starts at the
    window), a few steps a text, not by splitting it into every one of its lines."""
    start = 0
    while start + FLAT_MIN <= len(text):
        newline = text.rfind("\n", start, start + FLAT_MIN)
        if newline >= 0:
            start = newline + 1  # the lines up to it are shorter
            continue
        end = text.find("\n", start + FLAT_MIN)
        end = len(text) if end < 0 else end
        yield text[start:end]
        start = end + 1


# a "key: number" or "key=number" cell ("rx-pps: 900100", "Rate = 5112930"): a key is a whole
# run of [\w.-] from a letter, at most 31 long, then blanks, ":" or "=", blanks and a number;
# found from its ":" or "=" back to the key (a pattern trying a key at every letter costs
# ten times more)
_KEY_SEP = re.compile(r"[:=](?=[^\S\n]*[~≈+-]?\d)")
_KEY_SEPS = _by_first_char((":", r":(?=[^\S\n]*[~≈+-]?\d)"), ("=", r"=(?=[^\S\n]*[~≈+-]?\d)"))  # _KEY_SEP
KEY_MAX = 31


def _is_key_char(ch: str) -> bool:
    return ch.isalnum() or ch in "_.-"  # `[\w.-]`: `\w` is str.isalnum() and "_"


def _keys(text: str) -> Iterator[tuple[str, int]]:
    """Each key (lower case) and where its line starts."""
    for m in _marked_finditer(_KEY_SEPS, text):
        end = m.start()
        while end > 0 and text[end - 1] != "\n" and text[end - 1].isspace():
            end -= 1
        start = end
        while start > 0 and end - start <= KEY_MAX and _is_key_char(text[start - 1]):
            start -= 1
        if 0 < end - start <= KEY_MAX and text[start] < "\x80" and text[start].isalpha():
            yield text[start:end].lower(), text.rfind("\n", 0, start)


# A row that ends in its value (and its unit, and an aside in parentheses) after words that
# name it, with no ":" or "=" between: "  Elapsed Time 102.41 (0.62)", "  rx 102 tx 55",
# "  Elapsed Time 102.41 s" (kernbench, and blocks under a label with no colon: "base",
# "patched"). Such lines end in a digit, or a digit and a word or two, which the kinds of
# the text's characters (_marks) show without a scan of the text: a literal "0" the regex
# engine skips to; then the line alone is read for its key, the words before the value.
_ROW_TAIL_MARKS = re.compile(rb"0[a ]{0,16}(?:\n|\Z)")
_ROW_WORD = re.compile(r"(?<![\w.])[A-Za-z][\w./%-]*")
# such a row (the words of its key, its value, a unit or two, an aside), reversed: matched
# at the line's end
_SPACED_ROW_REVERSED = re.compile(
    r"[^\S\n]*(?:\)[^()\n]{0,24}\([^\S\n]+)?(?:[\w/%.µ]{0,15}[A-Za-zµ%/][^\S\n]?){0,2}"
    r"(?:\d+[+-]?[eE])?[\d,.]*\d[~≈+-]?[^\S\n]+"
    r"(?P<k>(?:[\w./%-]*[A-Za-z][^\S\n]+){0,5}[\w./%-]*[A-Za-z])(?![\w.])")


def _row_key(text: str, start: int, end: int) -> str:
    """The key of the row from `start` to `end`: all its words, lower case, digits in them
    as one mark, so rows of one shape (the block model pairs those, claims.numbers.skeleton)
    have one key; "" for a row with no word."""
    return " ".join(numbers.DIGIT_RUN.sub("#", w.lower()) for w in _ROW_WORD.findall(text, start, end))


def _spaced_keys(text: str) -> Iterator[tuple[str, int]]:
    """Each key (lower case) of a row that ends in its value after the words that name it
    and where its line starts (as _keys gives them). The line is read from its end,
    reversed (_SPACED_ROW_REVERSED: one match where it must end, not a search from every
    character of the line)."""
    marks = _marks(text)
    for m in _ROW_TAIL_MARKS.finditer(marks):
        newline = text.rfind("\n", 0, m.start())
        end = m.end() - 1 if marks.endswith(b"\n", 0, m.end()) else m.end()
        if _SPACED_ROW_REVERSED.match(text[end - 1:newline if newline >= 0 else None:-1]) is not None:
            yield _row_key(text, newline + 1, end), newline


def _repeated_keys(text: str) -> bool:
    """One key printed with a number on two lines whose rows a reader can pair: blocks of
    one tool's output, which the block model pairs by their keys even when no label names
    a side (the variants may be named by the subject or by what each block runs), or the
    readings of a procedure printed twice (claims.blocks.transcript_claims). Each line
    must be one a block can hold (_in_a_block: a key on a line of code or of a trailer,
    with no output under it, is no row), and two of them must be rows that can give a
    claim (_may_pair): the same line quoted again, or a build's "W=1" on each of its
    lines, gives none."""
    known: dict[int, bool] = {}
    read: dict[int, _KeyLine] = {}
    if any(_may_pair(text, held, read) for held in _held_lines(text, _keys(text), known)):
        return True
    # a key with no ":" or "=" (_spaced_keys) keys rows of labelled blocks (its lines in a
    # run of blocks that pairs): the transcripts and runs of one command have their cues
    readers: _Readers | None = None
    for held in _held_lines(text, _spaced_keys(text), known):
        if _may_pair(text, held, read):
            readers = readers or _Readers.of(text)
            if any(readers.blocks.pairs_in_blocks(line) for line in held):
                return True
    # and the words after a row's first value ("12.3 us avg", "1835.1 (score)") key it
    for held in _held_lines(text, _value_first_keys(text), known):
        readers = readers or _Readers.of(text)
        if any(readers.blocks.pairs_in_blocks(line) for line in held):
            return True
    return False


def _value_first_keys(text: str) -> Iterator[tuple[str, int]]:
    """Each key of a row that opens with its value (_value_first_lines) and where its line
    starts (as _keys gives them, the line end before it): its words, digits in them as one
    mark, as _spaced_keys keys a row."""
    for line in _value_first_lines(text):
        end = text.find("\n", line)
        if key := _row_key(text, line, end if end >= 0 else len(text)):
            yield key, line - 1


def _held_lines(text: str, keys: Iterable[tuple[str, int]], known: dict[int, bool]) -> Iterator[list[int]]:
    """For each key on two lines or more, the starts of its lines a block can hold
    (_in_a_block), where two or more are."""
    lines_of: dict[str, list[int]] = {}
    for key, line in keys:
        at = lines_of.setdefault(key, [])
        if not at or at[-1] != line + 1:
            at.append(line + 1)  # the line's start
    for at in lines_of.values():
        if len(at) >= 2 and len(held := [line for line in at if _in_a_block(text, line, known)]) >= 2:
            yield held


class _Row(NamedTuple):
    """What the pairing of two block rows depends on, of one line's row as the block model
    reads it (claims.blocks.block_rows, the line alone)."""

    values: tuple[float | None, ...]  # the values pair_rows compares
    tail: bool  # a short row of numbers with no name: block_rows may join it to the row above
    key_column: bool  # a bare whole number and another value: a header may make it a name


class _KeyLine(NamedTuple):
    """A line as the message model gives it (claims.message.fill_lines) and its block row."""

    depth: int
    body: str
    row: _Row | None


def _key_line(text: str, line: int, read: dict[int, _KeyLine]) -> _KeyLine:
    """The line starting at `line` (see _KeyLine); `read` keeps those read for this text."""
    got = read.get(line)
    if got is None:
        end = text.find("\n", line)
        depth, body = _model_line(text[line:end if end >= 0 else len(text)])
        got = read[line] = _KeyLine(depth, body, _block_row(body))
    return got


@lru_cache(maxsize=1024)  # a reply quotes the lines its parent printed
def _block_row(body: str) -> _Row | None:
    """The row block_rows reads from the line `body` alone, if any (a line it drops, a
    sentence or a device's settings, or that has no value, is no row of any block)."""
    from claims.blocks import block_rows

    rows = block_rows([Line(body, 1, 0, None, None)], 0, 1, None, [], set())
    if not rows:
        return None
    row = rows[0]
    values = row.values
    # (claims.blocks._unwrapped's tail; _key_columns' bare whole number, which leaves a
    # value only beside another)
    return _Row(tuple(t.value for t in values),
                row.key is None and len(row.tokens) <= 3 and row.tokens[0].kind == "value",
                len(values) >= 2 and any(t.text.isdigit() for t in values))


def _model_line(raw: str) -> tuple[int, str]:
    """A line's quote depth and text as the message model reads them (fill_lines): quote
    markers off, a carriage return at its end off, control characters replaced."""
    from claims.clean import clean_line
    from claims.message import quote_depth

    depth, body = quote_depth(raw[:-1] if raw.endswith("\r") else raw)
    return depth, clean_line(body)


def _may_pair(text: str, lines: list[int], read: dict[int, _KeyLine]) -> bool:
    """Can a reader find a claim in a pair of these lines (their starts) of one key?
    - The block model (claims.blocks: labelled blocks, runs of one command, transcripts)
      reads each line's row with block_rows, and whichever way it pairs two rows (by
      their order, their keys or their shapes) claims.pairs.pair_rows gives a claim only
      where one of their values changed: it compares them place by place, as far as the
      shorter row goes (_common_part cuts the longer), and every value of a block row
      (its label, up to its first colon, holds none: block_rows clears label_in_text
      otherwise). The same line printed twice, quoted again or at another depth, gives
      none. Read alone here, a row may still differ in its block: a wrapped tail may join
      it, or be it (claims.blocks._unwrapped), and a header may make a bare whole number
      part of its name (_key_columns), which shifts the values after it.
    - The grid model (rows of claims.grid.parse_line) pairs rows under different labels,
      an unchanged value too.
    - The prose "label: value" rows (claims.prose.line_row) pair only under different
      labels (group_claims: a label seen again starts another comparison), and only a
      change (pair_rows); a continuation line may join a row."""
    from claims.grid import parse_line

    keyed = [_key_line(text, line, read) for line in lines]
    rows = [k.row for k in keyed if k.row is not None]
    if _some_change([row.values for row in rows]):
        return True
    if len(rows) >= 2 and (any(_wraps(text, line, read) for line, k in zip(lines, keyed, strict=True) if k.row)
                           or (any(row.key_column for row in rows) and _names_a_key_column(text))):
        return True
    if sum(1 for k in keyed if parse_line(k.body) is not None) >= 2:
        return True
    return _prose_pair(text, lines, read)


def _some_change(values: list[tuple[float | None, ...]]) -> bool:
    """Do two of these rows' values differ at a place both hold (a row and its own first
    values are no change)? Sorted by length, each must start the next, or two differ."""
    distinct = sorted(set(values), key=len)
    return any(len(a) == len(b) or a != b[:len(a)] for a, b in itertools.pairwise(distinct))


def _wraps(text: str, line: int, read: dict[int, _KeyLine]) -> bool:
    """Is the row of the line at `line` one a wrapped tail may join (_Row.tail): the line
    under it, or this line under the row of the line above?"""
    end = text.find("\n", line)
    if end >= 0 and (below := _key_line(text, end + 1, read).row) is not None and below.tail:
        return True
    own = _key_line(text, line, read).row
    return line > 0 and own is not None and own.tail \
        and _key_line(text, text.rfind("\n", 0, line - 1) + 1, read).row is not None


def _key_word_pattern() -> re.Pattern[str] | None:
    """A word that names a key column (claims.lexicon.names_key: the word, a ":" or "#"
    after it) standing alone, as a line's words are split, in the lower-cased text (a
    quote marker may be glued before it, or a label's colon: block_label's column names
    are the words after it); None when the lexicon's words are not at hand."""
    try:
        from claims import lexicon

        words = lexicon._KEY_HEADERS
    except (ImportError, AttributeError):
        return None
    alternatives = "|".join(sorted(map(re.escape, words)))
    return re.compile(rf"(?<![^\s>:])(?:{alternatives})[:#]*(?!\S)")


_KEY_WORD = _key_word_pattern()


def _names_a_key_column(text: str) -> bool:
    """Can a header over a block make a row's bare whole number part of its name
    (claims.blocks._key_columns)? Only a column named by a word the lexicon reads as a key
    (claims.lexicon.names_key: "CPU", "queue"), alone over the number, does: a word of a
    header line, which holds no value (block_rows), or of the column names after a block
    label's colon (claims.blocks.block_label). Only the lines holding such a word are read
    (every line where the control characters the message model removes may join one)."""
    from claims.blocks import block_label
    from claims.clean import has_control
    from claims.lexicon import names_key
    from claims.pairs import make_row

    if _KEY_WORD is not None and not has_control(text.replace("\n", " ")):
        low = text.lower()
        starts = sorted({low.rfind("\n", 0, m.start()) + 1 for m in _KEY_WORD.finditer(low)})
    else:
        starts = [0, *(m.end() for m in re.finditer("\n", text))]
    for start in starts:
        end = text.find("\n", start)
        body = _model_line(text[start:end if end >= 0 else len(text)])[1]
        if any(names_key(w) for w in body.split()):
            if not make_row(None, body, 0).values:
                return True
            label = block_label(body)
            if label is not None and any(names_key(w) for w in label[1]):
                return True
    return False


def _prose_pair(text: str, lines: list[int], read: dict[int, _KeyLine]) -> bool:
    """Do two of these lines give prose "label: value" rows (claims.prose.line_row) under
    different labels whose values differ (or one of which the next line continues)?"""
    from claims.pairs import make_row
    from claims.prose import line_row

    segments: list[tuple[str, tuple[float | None, ...], bool]] = []  # label, values, continued
    for line in lines:
        k = _key_line(text, line, read)
        own = [Line(k.body, 1, k.depth, None, None)]
        end = text.find("\n", line)
        if end >= 0:
            own.append(Line(_key_line(text, end + 1, read).body, 2, k.depth, None, None))
        got = line_row(own, 0, set())
        if got is not None:
            seg = got[0]
            segments.append((seg.label.lower(), tuple(t.value for t in make_row(None, seg.text, 0).values), got[1] > 0))
    return any(a[0] != b[0] and (a[2] or b[2] or _some_change([a[1], b[1]]))
               for a, b in itertools.combinations(segments, 2))


def _line_kind_at(text: str, line: int) -> tuple[int, int, str]:
    """The end of the line starting at `line`, its quote depth and its kind as the block
    model reads it (claims.blocks.line_kind, on the line without its quote marks): the
    step of both walks that ask whether a block can hold a line (_in_a_block,
    _data_line_after)."""
    from claims.blocks import line_kind
    from claims.message import quote_depth

    end = text.find("\n", line)
    end = len(text) if end < 0 else end
    depth, body = quote_depth(text[line:end])
    return end, depth, line_kind(body)


def _in_a_block(text: str, line: int, known: dict[int, bool]) -> bool:
    """Can the line starting at `line` be a row of a block? claims.blocks.find_blocks puts
    a line in a block's range only if a line of output (its `line_kind` "data") stands at
    or below it at the same quote depth, before a non-blank line of another depth or a line
    of code (either ends the block, or the text above the next one). Skipped lines and
    listings end blocks too; they are not looked for here (which only passes more).
    `known` holds the answers already found for this text: the lines scanned on the way
    down get the same answer."""
    scanned: list[int] = []
    depth: int | None = None
    answer = False
    pos = after = line
    while pos <= len(text):
        if pos in known:
            answer = known[pos]
            break
        end, d, kind = _line_kind_at(text, pos)
        if kind != "blank":
            if depth is not None and d != depth:
                if d < depth and (pos := _Lines(text).past_interjection(after, depth)) >= 0:
                    continue  # a reply's words inside the quote: the block reads on past them
                break
            depth = d
            after = end + 1
            scanned.append(pos)
            if kind in ("data", "code"):
                answer = kind == "data"
                break
        pos = end + 1
    for p in scanned:
        known[p] = answer
    return answer


PARAGRAPH_REACH = 40  # lines: how far up and down a paragraph is read around a cue
# Paragraphs (and command windows) whose answer is kept: a reply quotes what its siblings
# quote, so about one paragraph in eight the gate asks a reader about has been asked just
# before (a longer memory finds few more: 64 keep nearly all those repeats, in little RSS).
PARAGRAPHS_KEPT = 64


def _worded_pair(text: str) -> bool:
    """A pair written in a sentence ("from X to Y", "9.1 Gbps without the patch and 9.4
    Gbps with it", "645 without the patch, ~625 with batch", "X instead of Y") is a claim
    only where the extractor's readers of such text find one in the paragraph of the cue:
    the sentence templates (claims.prose: from/to, arrows, vs, sides), statements across
    sentences, "label: value" rows and tables."""
    positions = itertools.chain(_from_to(text), _sided_numbers(text), _listed_numbers(text),
                                *((m.start() for m in cue.finditer(text)) for cue in _CUES[_WORDED:]))
    return _in_a_paragraph(text, positions, _pairs_in) or _slash_cells(text)


# Numbers listed with slashes under as many names ("p50/p99: 12/45 us before, 11/31 us
# after"): claims.prose.each_measure reads such a sentence once per measure, so its pair may
# stand where no cue of the listed text shows one (a number glued to a slash is no side's,
# _SIDE_NUM). Found from a slash between digits, a literal the engine skips to, and asked of
# the readers where its paragraph holds what each_measure cuts (prose.may_list_measures).
_LIST_SLASH = re.compile(r"/(?<=\d/)(?=\d)")


def _listed_numbers(text: str) -> Iterator[int]:
    """Where a list of numbers stands in a paragraph that each_measure may cut, once a
    paragraph."""
    from claims.prose import may_list_measures

    tried: set[int] = set()
    line_end = 0  # the slashes of one line share its paragraph: they come in order
    for m in _LIST_SLASH.finditer(text, 3):
        if m.start() < line_end:
            continue
        line_end = text.find("\n", m.start()) % (len(text) + 1)  # (none: the text's end)
        start, raw = _paragraph(text, m.start())
        if start not in tried:
            tried.add(start)
            if may_list_measures(raw):
                yield m.start()


# A cell that holds both sides ("318K/316K") under a name that names them ("IOPS
# (before/after)"): claims.grid._slash_claims reads a cell whose whole text is such a pair
# (numbers.SLASH_PAIR), so one stands after a blank, a "|", a quote mark or a line start and
# before one, a note's "(" or the line's end. Found from their slashes, literals the engine
# skips to; the name, from two words around a slash, one of them a side's.
_SLASH_NUMS = re.compile(r"/(?<=[\d.,A-Za-z%]/)[~<]?\d")
_SLASH_CELL = re.compile(rf"{numbers.SLASH_PAIR.pattern}(?=[\s|(]|$)")
_WORD_SLASH = re.compile(r"/(?<=[\w -]/)(?=[A-Za-z])")
SLASH_NAME = 21  # characters each side of its slash the grid reads as a side's name


def _slash_cell_at(text: str, slash: int) -> int:
    """Where the slash pair cell whose slash is at `slash` starts, or -1."""
    i = slash
    while i > 0 and slash - i < 6 and (text[i - 1].isascii() and text[i - 1].isalpha() or text[i - 1] == "%"):
        i -= 1
    while i > 0 and text[i - 1] in "0123456789.,":
        i -= 1
    if i > 0 and text[i - 1] in "~<":
        i -= 1
    if (i == 0 or text[i - 1] in " \t\n|>") and _SLASH_CELL.match(text, i) is not None:
        return i
    return -1


def _slash_cells(text: str) -> bool:
    """Does a reader find a pair where a slash pair cell stands at or below a line with two
    names around a slash, one of which the lexicon reads as a variant's (the grid's
    `(first/second)` header, whose roles it asks), within GRID_REACH lines? The grid reads
    such a header over its rows across blank lines, so the readers are asked about the
    lines from the name's to the end of the cell's paragraph."""
    names: list[int] | None = None  # the starts of the lines with such names, found once
    asked: set[int] = set()
    for m in _SLASH_NUMS.finditer(text):
        if (cell := _slash_cell_at(text, m.start())) < 0:
            continue
        if names is None:
            names = _side_slash_lines(text)
        k = bisect.bisect_right(names, cell) - 1
        if k < 0 or names[k] in asked or text.count("\n", names[k], cell) > GRID_REACH:
            continue
        asked.add(names[k])
        start, raw = _paragraph(text, cell)
        if _pairs_in(text[names[k]:start + len(raw)]):
            return True
    return False


def _side_slash_lines(text: str) -> list[int]:
    """The starts of the lines that hold two names around a slash, one a variant's (within
    SLASH_NAME characters of the slash, on its line), in order."""
    found: list[int] = []
    for w in _WORD_SLASH.finditer(text):
        line = text.rfind("\n", 0, w.start()) + 1
        if found and found[-1] == line:
            continue
        end = text.find("\n", w.end())
        end = len(text) if end < 0 else end
        if _is_variant(text[max(line, w.start() - SLASH_NAME):min(end, w.end() + SLASH_NAME)]):
            found.append(line)
    return found


def _in_a_paragraph(text: str, positions: Iterable[int], reader: Callable[[str], bool]) -> bool:
    """Does `reader` find what it reads in the paragraph (_paragraph) of one of `positions`,
    taken in order (no more than until it does), each paragraph asked once?"""
    tried: set[int] = set()
    for pos in positions:
        start, raw = _paragraph(text, pos)
        if start not in tried:
            tried.add(start)
            if reader(raw):
                return True
    return False


def _pairs_in(raw: str) -> bool:
    """Do the extractor's readers of sentences, rows and tables find a pair in the
    paragraph `raw` (see _paragraph)? Asked of its lines with their depths ranked
    (_pairs_ranked), whose answers are kept: a reply quotes its parent's paragraph one
    level deeper, in other markers (three paragraphs asked about in ten are asked again,
    one in ten in the same raw text)."""
    lines = _lines(raw)
    return _pairs_ranked("\n".join(ln.text for ln in lines), _depths_kept(lines))


@lru_cache(maxsize=PARAGRAPHS_KEPT)
def _pairs_ranked(texts: str, depths: bytes) -> bool:
    """_readers_pair of the lines `texts` (joined: no line holds a line end), numbered from
    1 as _lines numbers them, at the ranked depths `depths` (_depths_kept): the answer of
    every paragraph with these lines and ranks, whatever its real depths. A pure function
    of its arguments, so its answers are kept as they are (PARAGRAPHS_KEPT)."""
    return _readers_pair([Line(text, k + 1, depth, None, None)
                          for k, (text, depth) in enumerate(zip(texts.split("\n"), depths, strict=True))])


def _depths_kept(lines: list[Line]) -> bytes:
    """The lines' quote depths, each as its rank among them, 0 kept at 0 (fewer ranks than
    lines: a byte each). The readers _readers_pair asks (claims.prose, tables, grid, pairs,
    variants) read a line's depth only against another line's (`==`, `!=`) and against 0
    (prose._clauses reads only unquoted lines), and pass it on into rows and claims read
    the same way: none adds to a depth or reads it against another number (every `depth`
    in them and in what they import, lexicon, numbers, normalise, is one of these). The
    lines' other fields are their texts, their numbers (1 up, as _lines gives them) and
    no author or message; so a renumbering that keeps depths apart, in order, and 0 at 0
    gives the readers the same answer, and the joined texts and ranks are all they read."""
    levels = sorted({ln.depth for ln in lines} | {0})
    if len(levels) == 1:
        return bytes(len(lines))
    rank = {d: k for k, d in enumerate(levels)}
    return bytes(rank[ln.depth] for ln in lines)


def _readers_pair(lines: list[Line]) -> bool:
    """Do the readers of sentences, rows and tables find a pair in `lines`?"""
    from claims.prose import (
        group_claims,
        passages,
        statement_claims,
        states_a_pair,
        variant_groups,
    )
    from claims.tables import all_table_claims

    for p in passages(lines, set()):
        if states_a_pair(p):
            return True
    if statement_claims(lines, set()) or any(group_claims(g) for g in variant_groups(lines, set())):
        return True
    return bool(all_table_claims(lines, set())[0])


# what every match of claims.prose.FACTOR_HINT holds: its "of" and number ("an increase of
# 1.8") or one of its size words ("halves", "doubled", "by half"), found without trying a
# word at every position
_OF_NUMBER = re.compile(r"(?i)of\s+(?:about\s+|~|roughly\s+)?\d|halv|doubl|tripl|\b(?:by|in)\s+half\b")
# The same forms over the lower-cased text, each looked for on its own from its first
# letters (a literal the regex engine skips to: a case-free pattern is tried at every
# position, 1.5 CPU-s over the archive, and one alternation of the forms at each of their
# first letters, 0.5). Lower-casing is what `(?i)` folds everywhere but at "İ" and "ı"
# (which it reads as "i", and which lower-case to other letters): a text with either is
# read by _OF_NUMBER.
_OF_NUMBER_LOWER = re.compile(r"of\s+(?:about\s+|~|roughly\s+)?\d")
_SIZE_WORDS = ("halv", "doubl", "tripl")
_BY_HALF = re.compile(r"b(?<!\wb)y\s+half\b|i(?<!\wi)n\s+half\b")
# claims.prose.FACTOR_HINT's own forms over the lower-cased text, each from its word (its
# "\b" looked behind after it), where the hint's matches start: an "increase of 1.8", a
# "speed-up of ~3", "halves", "by half" ("a factor of 4": from "factor", its "a" found
# behind). The joint case-free pattern is tried at every position: 0.27 CPU-s over the
# texts of the archive that hold a size form, these 0.03.
_HINT_TAIL = r"\s+of\s+(?:about\s+|~|roughly\s+)?\d"
_HINT_FORMS = tuple(re.compile(rf"{w}(?<!\w{w}){rest}") for w, rest in (
    *((w, _HINT_TAIL) for w in ("increase", "improvement", "gain", "boost")), ("speed", rf"-?up{_HINT_TAIL}"),
    *((w, r"(?:e|es|ed|ing)\b") for w in _SIZE_WORDS)))
_A_FACTOR = re.compile(rf"factor{_HINT_TAIL}")


def _sizes_a_change(text: str) -> bool:
    """Does `text` hold a match of _OF_NUMBER (a form every factor hint holds)?"""
    if "\u0130" in text or "\u0131" in text:
        return _OF_NUMBER.search(text) is not None
    low = text.lower()
    return any(w in low for w in _SIZE_WORDS) or ("half" in low and _BY_HALF.search(low) is not None) \
        or _OF_NUMBER_LOWER.search(low) is not None


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"  # `\w`


def _factor_hints(text: str) -> list[int]:
    """Where claims.prose.FACTOR_HINT's matches start in `text`, in order (found from the
    words of its forms over the lower case, see _HINT_FORMS)."""
    from claims.prose import FACTOR_HINT

    if any(ch in text for ch in _FOLDS_APART):
        return [m.start() for m in FACTOR_HINT.finditer(text)]
    low = text.lower()
    starts = [m.start() for form in _HINT_FORMS for m in form.finditer(low)]
    if "half" in low:
        starts += (m.start() for m in _BY_HALF.finditer(low))
    for m in _A_FACTOR.finditer(low):  # "a factor of": an "a" standing alone, blanks, "factor"
        k = m.start()
        while k > 0 and low[k - 1].isspace():
            k -= 1
        if k < m.start() and k > 0 and low[k - 1] == "a" and (k == 1 or not _is_word_char(low[k - 2])):
            starts.append(k - 1)
    return sorted(starts)


def _states_change(text: str) -> bool:
    """A change stated alone (a percent, "2x", "tenfold", "an increase of 1.8": the reader's
    own FACTOR_HINT) is a claim only where the extractor's own reader of such sentences
    (claims.prose.relative_claims) finds one: it is asked about the paragraph of each cue,
    read into passages as the extractor reads them (a paragraph starts a passage)."""
    # the reader's hint starts with a word tried at every position (1.4 CPU-s over the
    # archive): it is looked for only in a text with its "of" and number or a size word,
    # and there from its forms' words (_factor_hints)
    hints = _factor_hints(text) if _sizes_a_change(text) else []
    return _in_a_paragraph(text, itertools.chain((m.start() for k in range(_ALONE) for m in _cue_matches(k, text)),
                                                 hints), _change_in)


@lru_cache(maxsize=PARAGRAPHS_KEPT)
def _change_in(raw: str) -> bool:
    """Does the extractor's reader of a change stated alone find one in the paragraph `raw`?"""
    from claims.prose import passages, relative_claims

    return any(relative_claims(p) for p in passages(_lines(raw), set()))


_BLANK = re.compile(r"[ \t>]*\n")


def _paragraph(text: str, pos: int) -> tuple[int, str]:
    """Where the paragraph around `pos` starts, and its text (from the line after a blank
    one, quoted or not, to the next blank line; at most PARAGRAPH_REACH lines each way)."""
    start = text.rfind("\n", 0, pos) + 1
    for _ in range(PARAGRAPH_REACH):
        if start == 0:
            break
        above = text.rfind("\n", 0, start - 1) + 1
        if _BLANK.match(text, above) is not None:
            break
        start = above
    end = start
    for _ in range(2 * PARAGRAPH_REACH):
        nxt = text.find("\n", end)
        if nxt < 0:
            end = len(text)
            break
        if end > pos and _BLANK.match(text, end) is not None:
            break
        end = nxt + 1
    return start, text[start:end]


def _lines(raw: str) -> list[Line]:
    """The lines of `raw`, each read at its quote depth as the message model reads it."""
    from claims.message import quote_depth

    lines = []
    for k, line in enumerate(raw.split("\n")):
        depth, body = quote_depth(line)
        lines.append(Line(body, k + 1, depth, None, None))
    return lines


def _has_command(text: str) -> bool:
    """Does the extractor's own command reader find a command or a setup step here? It is
    asked only about the lines that can start one (_command_starts), each with the lines it
    may join; overlapping windows are read as one run of lines (_runs_in)."""
    starts = sorted({text.rfind("\n", 0, pos) + 1 for pos in _command_starts(text)})
    run_start = run_end = -1
    for line in starts:
        if line > run_end:
            if run_start >= 0 and _runs_in(text[run_start:run_end]):
                return True
            run_start = line
        run_end = max(run_end, _window_end(text, line))
    return run_start >= 0 and _runs_in(text[run_start:run_end])


def _command_starts(text: str) -> Iterator[int]:
    """Where a command or setup step may start: a shell prompt, a loop or an echo into a
    file, "Performance counter stats", a path run with arguments, a program word starting a
    line (after a bullet or a `label:` too) or, for a benchmark program or a program named
    like one, before an option in prose; a span in backticks holding an option; a
    benchmark named with its version ("fio-3.35") before its arguments; a lower-case word
    starting a line with an option after it, also on its "\\" continuation lines (the
    reader's own test for a program it does not know). A prompt, an
    assignment or a variable first counts only on a line where something may run
    (_may_run)."""
    found = _tokens_found(text)
    yield from (m.start() for m in _marked_finditer(_PROMPTS, text)
                if _at_line_start(text, m.start(), _PROMPT_LEAD) and _may_run(text, m.start()))
    if b"do" in found:  # every loop holds its "do" (after a ";", a blank or a "))")
        yield from (m.start() for m in _LOOP_HEAD.finditer(text)
                    if _at_line_start(text, m.start()) or _at_line_start(text, m.start(), _LEAD_LABEL))
    if b"echo" in found:
        yield from _lines_matching(_ECHO, text, "echo")
    if b"counter" in found:
        pos = text.find("Performance counter stats")
        if pos >= 0:
            yield pos
    for k, line in _own_program_marks(text):
        if k not in _OWN_SCREENED or _may_run(text, line):
            yield line
    yield from _piece_programs(text)
    options = [m.start() for m in _OPTION_DASH.finditer(text)]
    yield from _prose_own_program(text, options)
    if "`" in text:  # a command quoted in a sentence, judged as a line of its own
        yield from (m.start() for m in BACKTICKS.finditer(text) if _BACKTICK_OPTION.search(m.group(1)))
    for name in _NAMED:  # any program named so ("./xdp_redirect", "io_uring-bench")
        for m in name.finditer(text):
            if _NAMED_LEAD.fullmatch(text, text.rfind("\n", 0, m.start()) + 1, m.start()) is not None:
                yield m.start()
    for word in _program_words(text):
        if word in _BENCH_WORDS:
            yield from (m.start() for m in _prose_re(word).finditer(text))
        for m in _word_re(word).finditer(text):
            if _at_line_start(text, m.start()) or _at_line_start(text, m.start(), _LEAD_LABEL):
                yield m.start()
    yield from _known_names(text, found)
    yield from _unknown_program_lines(text, options)


# A span in backticks (the command reader's own pattern, claims.commands.BACKTICKS) is read
# as a command where a shell word after its first holds an option ("we ran `vsock_stress
# 10.0.0.1 -n 4` on the guest": the program need not stand before the option, nor the option
# unquoted): a blank, perhaps quotes or a backslash, a dash and more.
_BACKTICK_OPTION = re.compile(r"\s[\"'\\]*-[^\s`]")
# A program named like a benchmark: the name inside a token that starts its line (after the
# lead, no path before it). One fullmatch from the line start to the name: the lead ends in a
# blank, a ">" or a backtick, none of them a token character, so its split from the token
# is the one the token's start gives.
_NAMED = (re.compile("bench"), re.compile("xdp"))
_NAMED_LEAD = re.compile(rf"{_LEAD_NO_PATH.pattern}[\w.~/-]*")
# The words the command reader splits a line into (claims.shell.split_words: shlex, whose
# blanks are these; claims.commands._clean makes a no-break space one) and the separators
# of its pieces (claims.shell.pieces). A line with a quote, an escape, a backtick, a
# parenthesis or a redirection, where shlex and pieces join or cut words otherwise, is read.
_SHELL_BLANKS = re.compile(r"[ \t\r\xa0]+")
_SHELL_SEPARATORS = re.compile(r"[;|&]+")
_SHELL_QUOTING = re.compile(r"[\"'\\`()<>]")


def _may_run(text: str, pos: int) -> bool:
    """Can the command reader find a command or a setup step in the logical line at `pos`
    (a prompt, or an assignment or a variable first)? claims.commands.find_commands finds
    one only where a word of it (each shell word, and each of `a;b|c`'s) is
    - a setup step's program (claims.setup_steps.parse_setup: for, echo, sysctl, ethtool, tc,
      ip, taskset, numactl) or a wrapper (claims.shell.WRAPPERS): program words, which
      claims.commands.program_like reads;
    - a program _runs_benchmark runs: a known one (known_program, also of a listed family
      or with a version), a path or a script (_executable_word), all program_like, or a
      variable naming a known or benchmark-named program (`$NETPERF`: its `$` branch asks
      no more; a word after a variable, `$DIR/x`, runs its base); an assignment is never
      the program (claims.shell.invocation walks past it);
    - an option (`-x`, counted by OPTION_WORD for a program the reader does not know, and
      by the prose reader's _options_after), a word starting with a dash;
    or where the line goes on: a "\\" continuation, or the next line starting with an option
    (commands._wrapped_args; _wrapped_value needs an option ending this one). A program an
    earlier line ran counts again, but that line is a command of its own; a perf stat
    header is a start of its own. A trailing ":" or "." is read off the word
    (_results_after, _line_events)."""
    from claims.shell import basename

    line = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    end = len(text) if end < 0 else end
    body = text[line:end].lstrip(" \t>")
    if len(body) > 1500 or _SHELL_QUOTING.search(body) is not None:
        return True
    for word in _SHELL_BLANKS.split(body):
        for part in {word, word.rstrip(":.,"), *_SHELL_SEPARATORS.split(word)}:
            if part.startswith("-"):
                return True
            if not part.startswith("$"):
                if program_like(part) and _SHELL_ASSIGNMENT.match(part) is None:
                    return True
                continue
            base = basename(part)  # the program a variable's word runs: by its name, or its base's
            if base.startswith("$") and _benchmark_named(base.strip("${}").lower()) or \
                    not base.startswith("$") and program_like(base):
                return True
    after = text.find("\n", end + 1)
    nxt = text[end + 1:after if after >= 0 else len(text)]
    return nxt.lstrip(" \t>").startswith("-")


_SHELL_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")  # claims.shell._ASSIGNMENT

# A benchmark the reader knows by a name that is no program word: named with its version,
# "fio-3.35", "netperf_v2.7" (claims.commands.unversioned strips a "-", "_" or "." and digits;
# a token split leaves "fio-3" of it, where "iperf3.16" leaves "iperf3", a program word), or
# of a listed family, "pktgen_sample03" (commands.known_program). The reader runs a known
# program only with command-line words after it (commands._looks_like_args: a word that
# commands.opens_args, one of commands.ARG_MARKS or FIRST_ARGS first, or sub-command words
# and an option), so such a name is looked for only as the first word of a line that holds
# one (a search of the text for a version's "-" or "_" and digit costs 0.1 CPU-s an
# archive), or of a line that the reader's logical line from it reaches one on
# (_joined_from): the line of a shell word that opens with one of ARG_MARKS (an option's dash,
# "-4", a lone "-" or "--" too, or a variable's "$") or of such a word.
# A shell word's first character: after a blank or a quote mark's ">", perhaps behind quotes or
# a backslash that shlex drops (claims.shell.split_words); the mark first, the rest looked behind.
_ARG_OPENERS = _by_first_char(*((mark, rf"{re.escape(mark)}(?:" + "|".join(
    rf"(?<=[\s>]{before}{re.escape(mark)})" for before in ("", "[\"'\\\\]", "[\"'\\\\][\"'\\\\]")) + ")")
    for mark in ARG_MARKS))
_MARK_LEAD = re.compile(r"[ \t>]*[\"'\\]*")  # what stands before a mark that starts its line
# Where a piece of a line starts other than at the line's start: after a separator
# (claims.shell.pieces: ";", "&", "|", and so "&&", "||") or a keyword strip_keywords drops
# (claims.shell._KEYWORD_HEAD: "do", "then", "else", "exec", "{", "(", "!"), or a backtick;
# or a wide gap, where claims.shell.gap_splits cuts a line into pieces (its _GAP: a tab,
# three blanks); every word after it on the line is asked (_piece_names), since the reader
# walks past wrappers ("sudo", "taskset -c 2": claims.shell.invocation) and labels
# (commands._unlabel) to the program.
_PIECE_START = re.compile(r"[;&|({!`]|(?<![\w.-])(?:do|then|else|exec)(?![\w.-])|\t|[^\S\n]{3}")
_PIECE_WORD = re.compile(r"(?<![\w.+-])[\w.+-]+")  # a name, or a path's last part ("/usr/bin/fio-3.35")
# the first word of a line, after what may stand before a program (as _LEAD, _LEAD_LABEL)
_FIRST_NAME = re.compile(rf"(?:[^\S\n]|>)*{_BULLET}`?(?:[\w.~-]*/)?(?P<w>[\w.+-]+)")
_LABELLED_NAME = re.compile(rf"(?:[^\S\n]|>)*{_BULLET}{_LABEL}`?(?:[\w.~-]*/)?(?P<w>[\w.+-]+)")


def _known_names(text: str, found: frozenset[bytes]) -> Iterator[int]:
    """Where a benchmark the reader knows by such a name starts a line from which the
    reader's logical line (_joined_from) reaches a word that may be its first argument
    (commands.opens_args): a word that opens with a dash or a "$" (_ARG_OPENERS), "stat",
    "bench" or "record"."""
    # each marked line, and whether a word stands before a mark on it: a line whose every
    # mark starts it (a bullet's dash, most of them) names no program before it, and is
    # asked only for the lines above it that the reader may join it to
    lines: dict[int, bool] = {}
    for mark in _marked_finditer(_ARG_OPENERS, text):
        line = text.rfind("\n", 0, mark.start()) + 1
        if not lines.get(line):
            lines[line] = _MARK_LEAD.fullmatch(text, line, mark.start()) is None
    for word in _FIRST_ARG_BYTES.intersection(found):
        lines.update((text.rfind("\n", 0, m.start()) + 1, True) for m in _word_re(word.decode()).finditer(text))
    tried: set[int] = set()
    for marked, after_a_word in lines.items():
        for line in _joined_from(text, marked):
            if line in tried or line == marked and not after_a_word:
                continue
            tried.add(line)
            for first in (_FIRST_NAME, _LABELLED_NAME):
                m = first.match(text, line)
                if m is not None and known_program(m.group("w").rstrip(".")):
                    yield m.start("w")
                    break
            else:
                yield from _piece_names(text, line)


def _piece_names(text: str, line: int) -> Iterator[int]:
    """Where a known name (commands.known_program: a program word too) stands after a
    piece's start on the line at `line` (_PIECE_START, a wide gap too): "x && fio-3.35 -4",
    "cd /tmp; sudo pktgen_sample03 -i eth0", "exec fio-3.35 -4", "do netperf $ARGS", "{ iperf3
    stat", "foo<TAB>fio-3.35 -4"."""
    end = text.find("\n", line)
    end = len(text) if end < 0 else end
    start = _PIECE_START.search(text, line, end)
    if start is None:
        return
    for m in _PIECE_WORD.finditer(text, start.end(), end):
        if known_program(m.group().rstrip(".")):
            yield m.start()
            return


# A program of one's own run by its path or a script in a piece of a line after its first:
# after a piece start or a wide gap (_PIECE_START), anywhere after it on the line, since
# the reader walks past wrappers and labels to the program ("x && ./my_bench -4", "cd
# /tmp; sudo ./my_bench -4", "do ./my_bench $ARGS", "{ ./my_bench -4", "foo<TAB>./my_bench
# -4", "x && run.sh -4"). Found from the path's "/" (after a blank, a quote's ">", a
# backtick, a "." or "~", or a separator or keyword character glued to it: "cd
# /tmp;./x") or the script's extension (_OWN_MARKS); only a word the reader takes for a
# program (commands.program_like: not /sys/, /proc/, a .c file) is asked, and the reader
# reads the line.
_PIECE_PATH = re.compile(r"/(?<![^\s>`.~;&|({!]/)(?=[\w.~/+-])")
_SHELL_CHAR = r"[^\s;&|`'\"()<>]"  # a character of a shell word, as pieces and shlex end one
_SHELL_WORD = re.compile(rf"{_SHELL_CHAR}+")
_WORD_BEFORE = re.compile(rf"{_SHELL_CHAR}*\Z")  # the part of a shell word before a position


def _piece_programs(text: str) -> Iterator[int]:
    """The starts of the lines where a path or a script the reader runs as a program
    (program_like) stands after a piece start or a wide gap (see _PIECE_PATH)."""
    starts = []
    if "/" in text:
        for m in _PIECE_PATH.finditer(text):
            at = m.start()
            starts.append(at - 2 if text.startswith("..", at - 2) else at - 1 if text[at - 1:at] in (".", "~") else at)
    if _OWN_HAS[1](text):
        for m in _OWN_MARKS[1][0].finditer(text):
            line = text.rfind("\n", 0, m.start()) + 1
            before = _WORD_BEFORE.search(text, line, m.start())
            starts.append(before.start() if before is not None else m.start())
    for start in starts:
        word = _SHELL_WORD.match(text, start)
        if word is None or not program_like(word.group()):
            continue
        line = text.rfind("\n", 0, start) + 1
        if _PIECE_START.search(text, line, start) is not None:
            yield line


def _joined_from(text: str, line: int, wrapped: bool = True) -> Iterator[int]:
    """The starts of the lines from which claims.commands._joined's logical line may reach
    the line at `line`: that line, and the lines above it while the one above ends in a
    "\\" (commands.join_continued) or, if `wrapped`, this one continues a command a mail
    client wrapped (commands.wrapped_args, of the line without its quote marks: a line
    longer than the reader reads, which it cuts, is taken as one); at most JOIN_REACH lines
    up. Looser than the reader: quote depths, prompts and the first word are not asked."""
    yield line
    for _ in range(JOIN_REACH):
        if line == 0:
            return
        above = text.rfind("\n", 0, line - 1) + 1
        if not (text[above:line - 1].rstrip().endswith("\\") or wrapped and _wrapped_line(text, line)):
            return
        line = above
        yield line


def _wrapped_line(text: str, line: int) -> bool:
    """Does the line at `line` continue a wrapped command (commands.wrapped_args)?"""
    end = text.find("\n", line)
    body = text[line:end if end >= 0 else len(text)].lstrip(" \t>").lstrip()
    return body.startswith("-") and (len(body) > LINE_CHARS or wrapped_args(body))


def _benchmark_named(name: str) -> bool:
    """Does the program a variable names run a benchmark by its name
    (claims.commands._runs_benchmark: known_program, or BENCH_NAME)?"""
    return bool(name) and (known_program(name) or BENCH_NAME.search(name) is not None)


COMMAND_WINDOW = 21  # lines: a line and the 20 the command reader may join to it


def _window_end(text: str, line: int) -> int:
    """Where the COMMAND_WINDOW lines from the line at `line` end."""
    end = line
    for _ in range(COMMAND_WINDOW):
        end = text.find("\n", end + 1)
        if end < 0:
            return len(text)
    return end


@lru_cache(maxsize=PARAGRAPHS_KEPT)
def _runs_in(raw: str) -> bool:
    """Do the lines of `raw` give a command or a setup step? Programs are named
    everywhere in mail ("Host# cat guest-agent.xml", "ip link is down"); what runs is
    decided by the extractor's own command reader (claims.commands.find_commands), each
    line read at its quote depth as the message model reads it. The lines above (the
    programs the message ran before, which only widen what counts) are asked at their own
    starts."""
    from claims.commands import find_commands

    return bool(find_commands(_lines(raw)).events)


def _prose_own_program(text: str, options: list[int]) -> Iterator[int]:
    """A path or a benchmark-named word, then whitespace and an option (_OPTION, at one
    of the `options` dashes), on one line."""
    for at in options:
        if _OPTION.match(text, at) is None:
            continue
        end = at
        while end > 0 and text[end - 1] != "\n" and text[end - 1].isspace():
            end -= 1
        start = end
        while start > 0 and not text[start - 1].isspace():
            start -= 1
        word = text[start:end]
        if "/" in word or _OWN_STEM.search(word) is not None:
            yield start


# An option as the command reader counts one (claims.commands.OPTION_WORD, `--?[A-Za-z]`
# at a shell word's start): a dash after a blank, then a letter after at most other dashes
# and what shlex drops (quotes, backslashes), which may stand before the dash too ("-x" in
# quotes, \-x); the blank may be a line end or a quote mark's ">" (an option starting its
# line). The dash first, the blank (and quotes) looked behind.
_OPTION_DASH = re.compile(r"-(?:(?<=[\s>]-)|(?<=[\s>][\"'\\]-)|(?<=[\s>][\"'\\][\"'\\]-))"
                          r"(?=[-\"'\\]*[A-Za-z])")


def _unknown_program_lines(text: str, options: list[int] | None = None) -> Iterator[int]:
    """The starts of the lines whose first word the command reader runs as a program it
    does not know: named like a benchmark or sent to the background, with an option
    (_runs_benchmark: `options > 0`; the `options` dashes, _OPTION_DASH, when given), on
    its line or on a "\\" continuation line of it."""
    if options is None:
        options = [m.start() for m in _OPTION_DASH.finditer(text)]
    lines = {text.rfind("\n", 0, at) + 1 for at in options}
    for line in lines:
        if _runs_unknown(_UNKNOWN_PROGRAM.match(text, line)):
            yield line
        else:  # the option on a continuation line of the program's ("x_bench \\", "  -n 4")
            yield from (start for start in itertools.islice(_joined_from(text, line, wrapped=False), 1, None)
                        if _runs_unknown(_UNKNOWN_PROGRAM.match(_continued(text, start))))


def _runs_unknown(m: re.Match[str] | None) -> bool:
    """Does a match of _UNKNOWN_PROGRAM name a program the reader runs (by its name, or sent
    to the background), or one it knows by a name that is no program word (_known_names)?"""
    return m is not None and (_BENCH_STEM.search(m.group("w")) is not None or m.group().rstrip().endswith("&")
                              or known_program(m.group("w")))


def _continued(text: str, line: int) -> str:
    """The line at `line` with its "\\" continuation lines, joined as the reader joins
    them (commands.join_continued), each line after the first without its quote marks."""
    end = text.find("\n", line)
    if end < 0:
        return text[line:].rstrip()
    return join_continued(text[line:end].rstrip(), _bodies_after(text, end))[0]


def _bodies_after(text: str, end: int) -> Iterator[str]:
    """The lines after the line end at `end`, each without its quote marks."""
    while end >= 0:
        pos = end + 1
        end = text.find("\n", pos)
        yield text[pos:end if end >= 0 else len(text)].lstrip(" \t>")


def _variant_near(text: str, pos: int, above: int = 2) -> bool:
    """Does the line at `pos`, or one of the `above` lines over it, name a variant
    ("before", "patched", "net-next", "with the series": claims.variants' own lexicon)?"""
    start = pos
    for _ in range(above + 1):
        start = text.rfind("\n", 0, start - 1) if start > 0 else -1
        if start < 0:
            break
    end = text.find("\n", pos)
    return _is_variant(text[start + 1:end if end >= 0 else len(text)])


BLOCK_REACH = 400  # characters after a block's label line in which its first numbers stand


def _data_line_after(text: str, start: int) -> bool:
    """Is a line within BLOCK_REACH characters after `start` one of output, as the block
    model reads lines (claims.blocks.line_kind: numbers laid out as output, not a sentence
    or a wrapped line of prose)? A block is opened only at such a line: a label over prose
    that quotes a number ("v3 -> v4:" over "- fix warnings with W=1 C=1") opens none. Every
    line with a digit is asked, since the block reader's numbers are more than _BLOCK_NUM's
    ("real 0m21.410s" is a time of 21.41 s)."""
    reach = min(len(text), start + BLOCK_REACH)
    m = _DIGIT.search(text, start, reach)
    while m is not None:
        end, _, kind = _line_kind_at(text, text.rfind("\n", 0, m.start()) + 1)
        if kind == "data":
            return True
        m = _DIGIT.search(text, end, reach)
    return False


def _measures_read(text: str) -> bool:
    """Two numbers with units on one line are read as a pair only on a line a reader takes
    as a row (_read_as_row: a table, "label: value" rows, a line of a block) or in a
    paragraph where the readers of sentences find a pair (_pairs_in): not in prose that
    sizes things ("4 KB buffers, using up to 1 GB of memory")."""
    known: dict[int, bool] = {}
    tried: set[int] = set()
    paragraphs: set[int] = set()
    for m in _matches_at(_CUES[_UNITS_CUE], text):
        line = text.rfind("\n", 0, m.start()) + 1
        if line in tried:
            continue
        tried.add(line)
        if _read_as_row(text, line, known):
            return True
        start, raw = _paragraph(text, m.start())
        if start not in paragraphs:
            paragraphs.add(start)
            if _pairs_in(raw):
                return True
    return False


# A 0-day/LKP comparison row holds a signed number after a blank (its change: "+94.7%", or
# "-7.2" for a percentage), as claims.lkp reads rows; looked for even where the columns are
# not aligned ("24.47 -7.2 17.29 mpstat.cpu.all.soft%", quoted by a client that folds blanks).
# Its digit is a number start (_number_starts): those are walked, not the text searched.
def _lkp_rows(text: str) -> bool:
    """Is a line with a change sign one claims.lkp's reader takes as a comparison row? The
    change has a number before it and one after it on its line (the two variants)."""
    from claims.lkp import lkp_claims
    from claims.message import quote_depth

    tried: set[int] = set()
    for pos in _number_starts(text):
        if pos < 2 or text[pos - 1] not in "+-" or text[pos - 2] == "\n" or not text[pos - 2].isspace():
            continue
        line = text.rfind("\n", 0, pos) + 1
        if line in tried:
            continue
        tried.add(line)
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end
        after = pos  # past the change, to the candidate
        while after < end and (text[after].isdigit() or text[after] in ".,%"):
            after += 1
        if _DIGIT.search(text, line, pos - 1) is None or _DIGIT.search(text, after, end) is None:
            continue
        depth, body = quote_depth(text[line:end])
        if lkp_claims([Line(body, 1, depth, None, None)], set())[0]:
            return True
    return False


_ROW = -2  # a cell candidate's mark in _paired_cells


def _read_as_row(text: str, line: int, known: dict[int, bool]) -> bool:
    """Does a reader that pairs cells take the line at `line` as a row of them? The grid
    model's own line parser (claims.grid.parse_line: tables too are read by it), the prose
    reader's "label: value" rows and segments (claims.prose.line_row and
    line_segment_groups), or a line a block can hold (_in_a_block). A numbered item
    ("  1) set W=1 for the build") is none of these."""
    from claims.grid import parse_line
    from claims.message import quote_depth
    from claims.prose import line_row, line_segment_groups

    end = text.find("\n", line)
    depth, body = quote_depth(text[line:end if end >= 0 else len(text)])
    ln = Line(body, 1, depth, None, None)
    return parse_line(body) is not None or line_row([ln], 0, set()) is not None \
        or (":" in body and bool(line_segment_groups(ln))) or _in_a_block(text, line, known)


# --- what a pair of cells needs: a structure of one reader that holds both -------------------
#
# A cell, a row's last value or a block's label is one side of a pair only where a reader
# pairs it with something: the grid model pairs cells of one row or of rows of one grid,
# the prose reader pairs "label: value" rows of one group whose labels can tell the sides
# apart, the block model pairs blocks of one run of output whose lines have a shape in
# common. Each is read over the lines around the candidate by the readers' own line parsers
# (claims.grid.parse_line, claims.prose.variant_groups, claims.blocks.line_kind and the row
# tokens of claims.pairs.make_row); a walk that would read further than its reach passes.

GRID_REACH = 40  # lines a walk from a grid row to the next row of its grid reads at most
# a line that starts with its value, after quote marks, blanks and a bullet: claims.grid.parse_line
# reads it as a row with its name after the value, where no cell context (_CELL) stands; asked
# only of the lines whose first word character is a digit (_VALUE_FIRST_MARKS)
_VALUE_FIRST_AT = re.compile(r"[ \t>]*(?:[-*+\u2022][ \t]+)?[~\u2248+-]?\d")
NAMES_REACH = 200  # rows of one grid whose names _rows_told_apart compares at most
GROUP_REACH = 60  # lines a walk from a row to either end of its run of prose rows reads at most
BLOCKS_REACH = 300  # lines a walk from a line of output to either end of its run of blocks reads at most
# What every line of code to the block model holds (claims.blocks.line_kind: a compiler's
# "file.c:12:", a "#define", a numbered listing's "|", a line ending in ";", "{" or "}", a
# call ending so, a keyword before "(", an "==" or "!="): only such a line's kind is read
# where the walks look for code (tests/claims/test_prescan.py checks the corpus's lines).
_CODE_SCREEN = re.compile(r"[#|;{}]|==|!=|:\d|\b(?:if|else|return|while|for|switch)\b\s*\(")
_ALNUM = re.compile(r"[^\W_]")  # a letter or digit (str.isalnum): a rule has none
# a box's rule with a note written past it: a line find_grids passes over (claims.grid._RULED_NOTE)
_RULED = re.compile(r"[^\S\n]*[*+|][-=*+|]{8,}")


def _sides_told(group: list) -> bool:
    """Can claims.prose.group_claims pair rows of this group (claims.prose.Segment)? It pairs
    only where a label names a side (claims.variants.role), or in a group of two rows whose
    labels are `contrasted`: cues of opposite signs, or a word in common that `decided`
    reads (with the message's subject, which the gate does not see: a word in common is
    taken). Such a pair of rows is the group, a part of it between two copies of one label,
    or, in a group of three, the two after a first row that is no clean row of numbers
    (a setting heading the rows: group_claims reads those two as a group of their own)."""
    from claims.lexicon import content_words, cue
    from claims.variants import role

    labels = [seg.label for seg in group]
    if any(role(lab) is not None for lab in labels):
        return True
    parts: list[list] = [[]]
    seen: set[str] = set()
    for seg in group:  # claims.prose._repeats_split
        if seg.label.lower() in seen:
            parts.append([])
            seen = set()
        parts[-1].append(seg)
        seen.add(seg.label.lower())
    if len(parts) > 1:
        return any(len(part) >= 2 and _sides_told(part) for part in parts)
    if len(group) == 3 and not group[0].clean and group[1].clean and group[2].clean:
        group = group[1:]
    if len(group) != 2 or not all(seg.label for seg in group):
        return False
    a, b = (seg.label for seg in group)
    return cue(a).score * cue(b).score < 0 or bool(set(content_words(a)) & set(content_words(b)))


def _unit_only(body: str) -> bool:
    """A line of one or two units, which claims.prose.line_row reads as a row's wrapped tail."""
    words = body.split()
    return 0 < len(words) <= 2 and all(numbers.is_unit(w.strip(".,;()")) for w in words)


def _shape(body: str) -> tuple[str, ...] | None:
    """The shape of a line of a block, as far as claims.blocks.block_rows can make it one of
    its rows' (None for a line that gives no row): claims.numbers.skeleton of its tokens
    (claims.pairs.make_row), every number and every word with a digit one mark "#".
    block_rows makes some numbers words of the row's name ("Dhrystone 2 using ...",
    "percentile 99.999 = 48.902", a CPU's number) and joins a wrapped row's two lines only
    into a shape another of its rows has; it changes a shape in no other way."""
    from claims.blocks import is_sentence
    from claims.numbers import skeleton
    from claims.pairs import make_row

    if _DIGIT.search(body) is None or is_sentence(body.strip()):
        return None
    tokens = make_row(None, body, 0).tokens
    if not any(t.kind == "value" for t in tokens):
        return None
    return tuple("#" if mark in ("#", "#%") or any(ch.isdigit() for ch in mark) else mark
                 for mark in skeleton(tokens))


class _Lines:
    """The lines of one text as the readers read them, each read once: its quote depth and
    text (claims.message.quote_depth) and its kind to the block model
    (claims.blocks.line_kind). The walks of the readers' structures (_RowReaders,
    _BlockRuns) share one."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._bodies: dict[int, tuple[int, str]] = {}
        self._kinds: dict[int, str] = {}

    def above(self, line: int) -> int:
        """The start of the line above the one starting at `line`, or -1 at the top."""
        return -1 if line == 0 else self.text.rfind("\n", 0, line - 1) + 1

    def below(self, line: int) -> int:
        """The start of the line below the one starting at `line`, or -1 at the end."""
        end = self.text.find("\n", line)
        return -1 if end < 0 else end + 1

    def body(self, line: int) -> tuple[int, str]:
        """The quote depth and the text of the line starting at `line`."""
        got = self._bodies.get(line)
        if got is None:
            from claims.message import quote_depth

            end = self.text.find("\n", line)
            got = self._bodies[line] = quote_depth(self.text[line:end if end >= 0 else len(self.text)])
        return got

    def kind(self, line: int) -> str:
        """The line's kind as the block model reads it (claims.blocks.line_kind)."""
        got = self._kinds.get(line)
        if got is None:
            from claims.blocks import line_kind

            got = self._kinds[line] = line_kind(self.body(line)[1])
        return got

    def is_code(self, line: int) -> bool:
        """Is the line code to the block model? Its kind is read only for a line with a mark
        every form of code has (_CODE_SCREEN), which most lines of prose lack."""
        return _CODE_SCREEN.search(self.body(line)[1]) is not None and self.kind(line) == "code"

    def past_interjection(self, after: int, depth: int) -> int:
        """Where the quote reads on past the words a reply wrote inside it
        (claims.blocks.interjections): from `after`, the start of the line under a line at
        `depth`, the first line with text at `depth` or deeper, when it is at `depth`, at most
        2 * MAX_INTERJECTION lines down, and every line with text before it is shallower
        and no line of output; -1 when it is not."""
        return self._quote_resumed(after, depth, self.below)

    def interjection_above(self, line: int, depth: int) -> int:
        """past_interjection read upward from the line at `line` (at `depth`): the start of
        the quoted line above the reply's words, or -1."""
        return self._quote_resumed(self.above(line), depth, self.above)

    def _quote_resumed(self, pos: int, depth: int, step: Callable[[int], int]) -> int:
        from claims.blocks import MAX_INTERJECTION

        between, words = 0, False
        while 0 <= pos and between <= 2 * MAX_INTERJECTION:
            d, body = self.body(pos)
            if body.strip():
                if d >= depth:
                    return pos if d == depth and words else -1
                if self.kind(pos) == "data":
                    return -1
                words = True
            between += 1
            pos = step(pos)
        return -1

    def blank_or_rule(self, line: int) -> bool:
        """Is the line blank, or a rule (claims.blocks.line_kind; a rule holds no letter or
        digit)?"""
        body = self.body(line)[1]
        return not body.strip() or _ALNUM.search(body) is None and self.kind(line) == "rule"


class _RowReaders:
    """Where the readers of rows pair a number of a line: the grid model (rows of one grid,
    cells of one row) and the prose reader (groups of "label: value" rows), walked over
    the lines around it; what each walk found is kept for the next candidate."""

    def __init__(self, lines: _Lines) -> None:
        self.lines = lines
        self.groups: dict[int, set[int] | None] = {}  # runs of prose rows read, by their first line
        self.breakers: dict[int, bool] = {}  # lines that end every group of prose rows (breaks_groups)

    def pairs_in_rows(self, line: int) -> bool:
        """Can a reader of rows pair a number on the line at `line` with another: the grid
        model as a row of a grid (grid_pairs), or the prose reader as a row of a group of
        "label: value" rows (prose_pairs)?"""
        from claims.grid import parse_line

        depth, body = self.lines.body(line)
        row = parse_line(body)
        return row is not None and self.grid_pairs(line, depth, row.cells) or self.prose_pairs(line)

    def holds_a_pair(self, line: int) -> bool:
        """Can a reader pair two numbers of the line at `line` with each other? Only the grid
        model, in a row of two value cells (or a cell of two halves, "318K/316K"), and the
        prose reader, in a line's "label: value" segments whose labels tell the sides apart
        (_sides_told): every other pair takes its two sides from two lines."""
        from claims.grid import parse_line
        from claims.prose import line_segment_groups

        depth, body = self.lines.body(line)
        row = parse_line(body)
        if row is not None and (sum(c is not None for c in row.cells) >= 2
                                or any(c is not None and c.second is not None for c in row.cells)):
            return True
        return ":" in body and any(len(g) >= 2 and _sides_told(g)
                                   for g in line_segment_groups(Line(body, 1, depth, None, None)))

    def grid_pairs(self, line: int, depth: int, cells: list) -> bool:
        """Can the grid model pair a number of the row at `line` (its `cells` as
        claims.grid.parse_line reads them)? grid_claims pairs two cells of one row (the
        variants in columns), the two halves of one cell, or cells of two rows of one grid;
        section_claims pairs the rows of grids of two columns or more. So a row of one cell
        pairs only with another row of its own grid (grid_row_beside)."""
        if len(cells) >= 2 or any(c is not None and c.second is not None for c in cells):
            return True
        return self.grid_row_beside(line, depth, 1) or self.grid_row_beside(line, depth, -1)

    def grid_row_beside(self, line: int, depth: int, step: int) -> bool:
        """Does claims.grid.find_grids read a row next to the one at `line` (below it for
        `step` 1, above for -1) into the same grid? Between two rows of a grid it passes over
        at most one blank line, rules, bordered lines of labels, and a short line of words
        (no digit, four words at most) right over the next row; a row at another quote depth,
        or any other line, closes the grid. (Any line with "|" is passed over, and every line
        claims.grid.parse_line reads is taken for a row: only more than find_grids joins.)"""
        from claims.grid import parse_line

        blanks = 0
        label_over = False  # find_grids' `pending`: a short label line over the next row
        pos = line
        for n in range(GRID_REACH):
            pos = self.lines.below(pos) if step > 0 else self.lines.above(pos)
            if pos < 0:
                return False
            d, body = self.lines.body(pos)
            if not body.strip():
                blanks += 1
                if blanks > 1 or label_over and step > 0:
                    return False
                continue
            if parse_line(body) is not None:
                return d == depth
            if label_over and step > 0:
                return False  # the label line stands right over the row it names
            if _ALNUM.search(body) is None or "|" in body or _RULED.match(body) is not None:
                continue  # a rule, a bordered line of labels, a box's rule with a note
            if not label_over and (step > 0 or n == 0) and 1 <= len(body.split()) <= 4 and len(body) < 60 \
                    and _DIGIT.search(body) is None:
                label_over = True
                continue
            return False
        return True

    def prose_pairs(self, line: int) -> bool:
        """Is the line at `line` in a group of rows claims.prose.variant_groups reads
        ("label: value" lines one under the other, at most one blank line between, or
        segments of one line) whose labels can tell the sides apart (_sides_told)? The reader
        itself is run over the lines between two ends no group crosses (group_end), where
        its walk starts as it does over the whole message."""
        from claims.prose import variant_groups

        top, closed = self.group_end(line, -1)
        if top not in self.groups:
            bottom, closed_below = self.group_end(line, 1)
            covered: set[int] | None = None  # (None: the run is longer than the walk reads)
            if closed and closed_below:
                starts: list[int] = []
                read: list[Line] = []
                pos = top
                while 0 <= pos <= bottom:
                    depth, body = self.lines.body(pos)
                    starts.append(pos)
                    read.append(Line(body, len(read) + 1, depth, None, None))
                    pos = self.lines.below(pos)
                covered = set()
                for group in variant_groups(read, set()):
                    if _sides_told(group):
                        covered.update(starts[k - 1] for seg in group for k in range(seg.first, seg.last + 1))
            self.groups[top] = covered
        covered = self.groups[top]
        return covered is None or line in covered

    def group_end(self, line: int, step: int) -> tuple[int, bool]:
        """The last line up (`step` -1) or down (1) from the line at `line` of the run of lines
        claims.prose.variant_groups may read as one group with it, and whether the run ends
        there within GROUP_REACH lines: a group never spans two blank lines, nor a line that
        breaks every group (breaks_groups)."""
        blanks = 0
        last = pos = line
        for _ in range(GROUP_REACH):
            nxt = self.lines.below(pos) if step > 0 else self.lines.above(pos)
            if nxt < 0:
                return last, True
            pos = nxt
            body = self.lines.body(pos)[1]
            if not body.strip():
                blanks += 1
                if blanks > 1:
                    return last, True
                continue
            blanks = 0
            if self.breaks_groups(pos):
                return last, True
            last = pos
        return last, False

    def breaks_groups(self, line: int) -> bool:
        """Does claims.prose.variant_groups end every group at the line at `line`? It does at
        a line it reads that is no row (claims.prose.line_row, which it asks with the lines
        under it, whose tail a row may take), and it reads every line that is no row's
        tail: line_row takes as a tail only a line indented three more than the row, or a
        unit alone."""
        got = self.breakers.get(line)
        if got is None:
            from claims.prose import line_row

            depth, body = self.lines.body(line)
            got = False
            if len(body) - len(body.lstrip()) <= 2 and not _unit_only(body):
                got = _DIGIT.search(body) is None
                if not got:
                    rows = [Line(body, 1, depth, None, None)]
                    pos = line
                    while len(rows) < 5 and (pos := self.lines.below(pos)) >= 0:
                        rows.append(Line(self.lines.body(pos)[1], len(rows) + 1, self.lines.body(pos)[0], None, None))
                    got = line_row(rows, 0, set()) is None
            self.breakers[line] = got
        return got


class _BlockRuns:
    """Where the block model pairs a block: runs of blocks (labelled lines of output) that
    hold two blocks of one row shape, walked over the lines around a candidate; the runs
    read are kept for the next candidate."""

    def __init__(self, lines: _Lines) -> None:
        self.lines = lines
        self.runs: dict[int, set[int] | None] = {}  # lines of output that pair, by the first line read
        self.tops: dict[int, int] = {}  # where the run of blocks a line is in starts (run_start)

    def pairs_in_blocks(self, line: int) -> bool:
        """Can the block model pair a number on the line at `line` with another: a line of a
        block (its line of output at or below it: output_at) in a run of blocks that pairs
        (blocks_pair)?"""
        output = self.output_at(line, self.lines.body(line)[0])
        return output >= 0 and self.blocks_pair(output)

    def labels_a_pair(self, line: int) -> bool:
        """Can the `...:` line at `line` name a block the block model pairs? A label is a text
        line (claims.blocks.line_kind) that block_label reads, over a line of output at its
        quote depth with no line of code or of another depth between (find_blocks starts the
        text above a block after those), in a run of blocks that pairs (blocks_pair)."""
        from claims.blocks import block_label

        depth, body = self.lines.body(line)
        if self.lines.kind(line) != "text" or block_label(body) is None:
            return False
        below = self.lines.below(line)
        output = -1 if below < 0 else self.output_at(below, depth)
        return output >= 0 and self.blocks_pair(output)

    def output_at(self, line: int, depth: int) -> int:
        """The start of the first line of output (claims.blocks.line_kind "data") at or below
        `line`, at `depth`, before a line of code or a non-blank line of another depth (where
        claims.blocks.find_blocks starts the text above a block anew); -1 when none."""
        pos = after = line
        while pos >= 0:
            kind = self.lines.kind(pos)
            if kind != "blank":
                d = self.lines.body(pos)[0]
                if d < depth and (pos := self.lines.past_interjection(after, depth)) >= 0:
                    continue  # a reply's words inside the quote (claims.blocks.interjections)
                if d != depth or kind == "code":
                    return -1
                if kind == "data":
                    return pos
                after = self.lines.below(pos)
            pos = self.lines.below(pos)
        return -1

    def blocks_pair(self, output: int) -> bool:
        """Can the block model pair the block that holds the line of output at `output` with
        another? claims.blocks._series runs only blocks that follow one another (the text
        above a block starts where the block before it ends: no line of code, skipped line
        or line of another quote depth, but one right under a line of output, between them;
        an aside merged into the block above is such a block too) and that hold rows of one
        shape (claims.numbers.skeleton) each. So the run of such blocks around it must hold
        two blocks with rows of one shape (paired_output)."""
        top = self.run_start(output)
        if top < 0:
            return True  # a run longer than the walk reads: not asked
        if top not in self.runs:
            self.runs[top] = self.paired_output(top)
        paired = self.runs[top]
        return paired is None or output in paired

    def run_start(self, output: int) -> int:
        """The first line with text of the run of blocks the line of output at `output` is in,
        found up from it: the run starts after a line of code, and at a line of another
        quote depth than the line with text above it unless it stands right under a line of
        output (claims.blocks.find_blocks starts the text above a block there); -1 when the
        walk reads BLOCKS_REACH lines. The lines passed keep the answer."""
        passed = []
        line, start = output, -1
        for _ in range(BLOCKS_REACH):
            if line in self.tops:
                start = self.tops[line]
                break
            passed.append(line)
            upper = self.lines.above(line)
            gap = False  # a blank line or a rule between the two lines with text
            while upper >= 0 and self.lines.blank_or_rule(upper):
                gap = True
                upper = self.lines.above(upper)
            depth = self.lines.body(line)[0]
            lowest = line  # the first line with text under `upper`: a rule passed over, or `line`
            if upper >= 0 and self.lines.body(upper)[0] < depth:
                lowest = self.lines.below(upper)
                while lowest != line and not self.lines.body(lowest)[1].strip():
                    lowest = self.lines.below(lowest)
            if upper >= 0 and self.lines.body(upper)[0] < depth == self.lines.body(lowest)[0] \
                    and (quoted := self.lines.interjection_above(lowest, depth)) >= 0:
                # a reply's words inside the quote (claims.blocks.interjections): the run reads
                # on above them, unless the quoted line there is code (the run starts after it)
                if self.lines.is_code(quoted):
                    start = line
                    break
                line = quoted
                continue
            if upper < 0 or self.lines.is_code(upper) \
                    or self.lines.body(upper)[0] != self.lines.body(line)[0] and (gap or self.lines.kind(upper) != "data"):
                start = line
                break
            line = upper
        for p in passed:
            self.tops[p] = start
        return start

    def paired_output(self, top: int) -> set[int] | None:
        """The lines of output of the run of blocks that starts at `top` (run_start) that are
        in runs of blocks with two blocks whose rows have one shape (_shape); None when the
        run is longer than 2 * BLOCKS_REACH lines. The lines are walked as
        claims.blocks.find_blocks walks them: a line of output opens a block after a text or
        arrow line (a label) or a non-blank line of another quote depth, which also breaks
        the run of blocks unless it stands right under a line of output (a rule's change of
        depth too, which run_start passes over: the run read may hold a few). The walk ends
        at a line of code, or where run_start would start another run. A block's rows are
        its lines of output and the lines of text above them since the last line of output
        (block_rows reads those under the block's label)."""
        run = 0
        blocks: list[tuple[int, list[str], list[int]]] = []  # per block: its run, its rows, its lines of output
        open_block = False
        depth: int | None = None
        label = False  # a text or arrow line since the last line of output
        waiting: list[str] = []  # the lines of text since the last line of output
        after_output = False  # the line before is a line of output
        quoted: int | None = None  # the depth of the last line with text, and the line under it
        after = pos = top
        for _ in range(2 * BLOCKS_REACH):
            if pos < 0:
                break
            line, pos = pos, self.lines.below(pos)
            d, body = self.lines.body(line)
            kind = self.lines.kind(line)
            if kind != "blank":
                if quoted is not None and d < quoted and (resumed := self.lines.past_interjection(after, quoted)) >= 0:
                    pos = resumed  # a reply's words inside the quote (claims.blocks.interjections)
                    continue
                quoted, after = d, pos
            if kind == "code":
                break
            right_under, after_output = after_output, kind == "data"
            if depth is not None and d != depth and kind != "blank":
                if not right_under:
                    if kind != "rule":
                        break  # another run starts here (run_start)
                    run += 1
                open_block, label, waiting = False, False, []
            if kind in ("blank", "rule"):
                continue
            depth = d
            if kind != "data":
                label = label or kind in ("text", "arrow")
                waiting.append(body)
                continue
            if not open_block or label:
                blocks.append((run, [], []))
                open_block = True
            blocks[-1][1].extend(waiting)
            blocks[-1][1].append(body)
            blocks[-1][2].append(line)
            label, waiting = False, []
        else:
            return None
        count: dict[int, int] = {}
        for r, _, _ in blocks:
            count[r] = count.get(r, 0) + 1
        seen: dict[int, set[tuple[str, ...]]] = {}
        pairing: set[int] = set()
        for r, rows, _ in blocks:
            if count[r] < 2 or r in pairing:
                continue
            shapes = {shape for row in rows if (shape := _shape(row)) is not None}
            if shapes & seen.setdefault(r, set()):
                pairing.add(r)
            seen[r] |= shapes
        return {line for r, _, outputs in blocks if r in pairing for line in outputs}


def _paired_cells(text: str) -> bool:
    """Two numbers in cells, or blocks opened by a `...:` line over a line of output (in the
    next few lines), anywhere in the text (blocks pair output that is far apart); a pair of
    them names its two variants, so each cell or block label has a variant word on its line
    or just above it (a table's header). Each counts only where a reader can pair it with
    something (_RowReaders.pairs_in_rows, _BlockRuns.pairs_in_blocks, labels_a_pair: a grid, a group of
    rows, a run of blocks), and two on one line only where a reader pairs two numbers of one line
    (_RowReaders.holds_a_pair): the two sides of every other pair stand on two lines. The variant
    words are looked up, once a line, only on the candidate lines, and the readers asked
    last: they are the costly part. Rows of a grid need no variant word where their names
    tell them apart (_rows_told_apart); a block a side names needs no second one where its
    run of blocks pairs (the block model pairs it with a block no side names: perf's
    banner over it, or nothing)."""
    # (line start, a position on it, lines above, where a block's output is looked for, or
    # _ROW for a cell, whose line a reader must take as a row, or -1)
    candidates: list[tuple[int, int, int, int]] = []
    for m in _matches_at(_CELL, text):
        candidates.append((text.rfind("\n", 0, m.start()) + 1, m.start(), 2, _ROW))
    for m in _matches_at(_ROW_END, text):
        candidates.append((text.rfind("\n", 0, m.start()) + 1, m.start(), _ROW_END_ABOVE, -1))
    for m in _matches_at(_BARE_END, text):
        line = text.rfind("\n", 0, m.start()) + 1
        if not text[line:m.start()].strip(" \t>~≈+-"):
            candidates.append((line, m.start(), _ROW_END_ABOVE, -1))
    if ":" in text:
        for m in _BLOCK_END.finditer(text):
            if _block_num_in(text, m.end(), m.end() + BLOCK_REACH):
                candidates.append((text.rfind("\n", 0, m.start()) + 1, m.start(), 0, m.end()))
    cell_lines = list(dict.fromkeys(line for line, _, _, output in candidates if output == _ROW))
    if len(candidates) < 2:
        return _rows_told_apart(text, cell_lines, None)
    named: dict[tuple[int, int], bool] = {}
    rows: dict[int, bool] = {}  # lines some reader takes as a row (_read_as_row)
    known: dict[int, bool] = {}  # lines a block can hold (_in_a_block)
    # the readers are asked last, once two candidates stand, those of rows first: the block
    # model's runs cost the most, and are read after every candidate's rows
    readers: _Readers | None = None
    kept = 0
    counted: dict[int, int] = {}  # candidates counted on each line
    later: list[tuple[int, bool]] = []  # (line, a block's label?) for the block model
    first: tuple[int, bool] = (-1, False)
    for line, pos, above, output in candidates:
        key = (line, above)
        if key not in named:
            named[key] = _variant_near(text, pos, above)
        if not named[key]:
            continue
        if output == _ROW:
            if line not in rows:
                rows[line] = _read_as_row(text, line, known)
            if not rows[line]:
                continue
        elif output >= 0 and not _data_line_after(text, output):
            continue
        kept += 1
        if kept == 1:
            first = (line, output >= 0)
            continue
        if readers is None:
            readers = _Readers.of(text)
            asked = [first, (line, output >= 0)]
        else:
            asked = [(line, output >= 0)]
        for at, label in asked:
            if label or not readers.rows.pairs_in_rows(at):
                later.append((at, label))
            elif _count(readers.rows, counted, at):
                return True
    if readers is None and kept == 1 and first[1]:
        readers = _Readers.of(text)
        later.append(first)
    if readers is not None:
        for line, label in later:
            # a block named by a side ("with the patch:") in a run of blocks that pairs is
            # one the block model pairs alone: with a block no side names (perf's banner
            # over it, or no label), which the lexicon then ranks as the other
            if label and readers.blocks.labels_a_pair(line):
                return True
            if not label and readers.blocks.pairs_in_blocks(line) and _count(readers.rows, counted, line):
                return True
    return _rows_told_apart(text, cell_lines, readers)


def _value_first_lines(text: str) -> list[int]:
    """The starts of the lines of `text` that start with a value (_VALUE_FIRST_AT), found
    among those whose first word character is a digit (_VALUE_FIRST_MARKS)."""
    firsts = [line for m in _VALUE_FIRST_MARKS.finditer(_marks(text))
              if _VALUE_FIRST_AT.match(text, line := m.start() + 1)]
    if _VALUE_FIRST_AT.match(text):
        firsts.insert(0, 0)
    return firsts


class _Readers(NamedTuple):
    rows: _RowReaders
    blocks: _BlockRuns

    @staticmethod
    def of(text: str) -> _Readers:
        """The row and block readers of `text`, over one walk of its lines."""
        walked = _Lines(text)
        return _Readers(_RowReaders(walked), _BlockRuns(walked))


def _count(rows: _RowReaders, counted: dict[int, int], line: int) -> bool:
    """Count a candidate on the line at `line`: are there two now, on two lines, or on one
    line a reader pairs two numbers of (_RowReaders.holds_a_pair)?"""
    counted[line] = counted.get(line, 0) + 1
    return len(counted) >= 2 or counted[line] == 2 and rows.holds_a_pair(line)


def _rows_told_apart(text: str, cell_lines: list[int], readers: _Readers | None) -> bool:
    """Two rows of one grid whose names may tell baseline from candidate with no variant
    word: claims.grid._decide pairs rows by their names alone where the baseline's name is
    written inside the other's ("virtio-blk" / "virtio-blk-numa": _told_apart), where two
    names differ in one word (_one_word_apart) or share one (lexicon.contrasted), or where
    one is a bare release (lexicon.lone_release). Asked of every two rows of a run of lines
    with a cell (`cell_lines`) or a value first ("* 5,112,930 - udp gso": _VALUE_FIRST_AT) that
    are grid rows (claims.grid.parse_line) one below the other, as find_grids joins them
    (_RowReaders.grid_row_beside); a name pair passes on any of those relations of its
    squashed text or its words, looser than the grid model's own tests."""
    from claims.grid import parse_line
    from claims.lexicon import lone_release

    firsts = _value_first_lines(text)
    if firsts:
        cell_lines = sorted(set(cell_lines).union(firsts))
    # a row of a grid of two rows or more has another within GRID_REACH lines (find_grids
    # passes over a blank line, a short label line, rules and bordered lines between two)
    cell_lines = [line for k, line in enumerate(cell_lines)
                  if k and text.count("\n", cell_lines[k - 1], line) <= GRID_REACH
                  or k + 1 < len(cell_lines) and text.count("\n", line, cell_lines[k + 1]) <= GRID_REACH]
    if len(cell_lines) < 2:
        return False
    rows = readers.rows if readers is not None else _RowReaders(_Lines(text))
    names: list[tuple[str, str, set[str]]] = []  # the run's names: as printed, squashed, words
    for k, line in enumerate(cell_lines):
        depth, body = rows.lines.body(line)
        row = parse_line(body)
        if row is None or not row.label.strip():
            continue
        if k and names and not rows.grid_row_beside(cell_lines[k - 1], depth, 1):
            names = []  # a grid ends between the two
        label = row.label.strip()
        squashed = re.sub(r"[^a-z0-9]", "", label.lower())
        words = set(label.lower().split())
        for other, osquashed, owords in names:
            if squashed and osquashed and squashed != osquashed \
                    and (squashed in osquashed or osquashed in squashed or words & owords
                         or lone_release([label, other]) is not None):
                return True
        names.append((label, squashed, words))
        if len(names) > NAMES_REACH:
            return True  # a grid longer than the walk reads: not asked
    return False


# A number as claims.prose.side_claims reads one (not glued to a word, a dot, a sign) and its
# unit; then the words after it up to a digit or a clause mark, the first of which names the
# side ("645 without the patch,"), or leads it ("9.4 Gbps on net-next"); or the few words
# before it since a clause mark ("baseline 645, patched 625"). A paragraph break between two
# numbers parts them.
# (a date or a time, "2019/4/26 3:35", is no measure: no "/" or ":" glued on either side)
_SIDE_NUM = re.compile(r"\d(?<![\w.+/:-]\d)(?:\d|,\d)*(?:\.\d+)?(?!\d|[/:.]\d)")
_SIDE_AFTER = re.compile(r"(?:[^\S\n]*[-–—:])?[^\d,;.()]{0,100}")  # a clause: up to 15 words
_CLAUSE = re.compile(r"[,;:()]|[.!?]\s|\s(?:and|but|while|whereas|vs\.?|versus)\s")  # a sentence end too
# A paragraph break parts two numbers; a sentence end does not, since claims.prose reads a
# baseline named in one sentence against the numbers of the next ("statement_claims").
_PARAGRAPH_END = re.compile(r"\n[ \t>]*\n")
SIDE_SPAN = 300  # characters: two numbers of one paragraph, wrapped over a few lines
SIDE_BEFORE = 80  # characters before a number that may name its side: eight words at most


def _side_before(text: str, start: int, prev_end: int) -> bool:
    return _side_in_last_clause(text[max(prev_end, start - SIDE_BEFORE):start])


@lru_cache(maxsize=256)
def _side_in_last_clause(before: str) -> bool:
    """Do the few words of the last clause of `before` name a side? Cached: more than half
    the texts before a number are asked about again, most soon after (the blanks between
    a table's values, a label repeated on every row: 256 kept hold nearly all repeats)."""
    if "(" in before:  # "1.10M IOPS (baseline) / 1.32M": a side's note read as words
        from claims.prose import unwrap_side_notes

        before = unwrap_side_notes(before)
    ahead = _CLAUSE.split(before.rstrip(" ,:~"))[-1]
    words = ahead.split()
    if not 0 < len(words) <= 8:
        return False
    if _is_variant(ahead):
        return True
    # "was 8.0 Gbps; now it is 9.5 Gbps": a time names a side
    from claims.prose import placed_in_time

    return placed_in_time(ahead)


def _side_after(text: str, end: int) -> bool:
    m = _SIDE_AFTER.match(text, end)
    if m is not None and _is_variant(m.group()):
        return True
    if m is None or not text.startswith("(", m.end()):
        return False
    # "1.10M IOPS (baseline)": claims.prose.side_claims reads a note of words as its words
    from claims.prose import unwrap_side_notes

    m = _SIDE_AFTER.match(unwrap_side_notes(text[end:end + 2 * SIDE_BEFORE]))
    return m is not None and _is_variant(m.group())


def _sided_numbers(text: str) -> Iterator[int]:
    """Two numbers of one paragraph that each have a side word where claims.prose.side_claims
    reads one ("645 without the patch, ~625 with batch", "baseline 645, patched 625"; also
    claims.grid's value-first rows, "* 5,112,930 - baseline"), or where statement_claims
    reads a statement's side: anywhere in its sentence before its first value ("Without
    the patch, the rate is 9.1 Gbps.": _Head). The words are the lexicon's
    (`_is_variant`); looked up only for a number with another number in its paragraph.
    Yields where the second number of each such pair stands: within SIDE_SPAN of a sided
    one, or further in its paragraph where the readers pair them at any distance (a
    statement and one whose head names the baseline, either first: statement_claims; two
    sided numbers of one sentence of a passage: side_claims, _one_sentence). A pair of statements needs a value with a unit in the one that is
    not the baseline (_with_unit)."""
    nums = [(m.start(), m.end()) for m in _matches_at(_SIDE_NUM, text)]
    paragraph = _paragraph_numbers(text, nums)
    last_sided = last_named = -1
    head = _Head(text)
    for k, (start, end) in enumerate(nums):
        prev_end = nums[k - 1][1] if k else 0
        in_before = k > 0 and paragraph[k - 1] == paragraph[k]
        if not (in_before or k + 1 < len(nums) and paragraph[k + 1] == paragraph[k]):
            continue
        named = head.named(start, end)
        sided = named or _side_after(text, end) or _side_before(text, start, prev_end)
        if last_sided >= 0 and start - nums[last_sided][0] <= SIDE_SPAN and paragraph[last_sided] == paragraph[k]:
            yield start  # a number after a sided one: statements need only the baseline named
        elif sided and in_before and start - nums[k - 1][0] <= SIDE_SPAN:
            yield start
        elif last_named >= 0 and paragraph[last_named] == paragraph[k] and _with_unit(text, start) \
                or named and in_before and any(_with_unit(text, nums[j][0]) for j in range(k - 1, -1, -1)
                                               if paragraph[j] == paragraph[k]):
            yield start  # far from the other: a statement and the named baseline
        elif sided and last_sided >= 0 and paragraph[last_sided] == paragraph[k] \
                and _one_sentence(text, nums[last_sided][1], start):
            yield start  # far from the other: two sided numbers of one sentence
        if sided:
            last_sided = k
        if named:
            last_named = k


def _one_sentence(text: str, start: int, end: int) -> bool:
    """Can the text from `start` to `end` lie in one sentence of one passage as
    claims.prose.passages joins lines (at most MAX_PASSAGE_LINES, each of prose: the lines
    from the first to the last, read alone, make one passage)?"""
    from claims.prose import MAX_PASSAGE_LINES, passages

    if text.count("\n", start, end) >= MAX_PASSAGE_LINES or _SENTENCE_STOP.search(text, start, end) is not None:
        return False
    first = text.rfind("\n", 0, start) + 1
    last = text.find("\n", end)
    return len(passages(_lines(text[first:last if last >= 0 else len(text)]), set())) == 1


# a number and its unit as the tokenizer may read them in a passage, whose lines it joins
# (claims.numbers: its units; blanks, a line end and quote marks between, more than it takes)
_UNIT_NEAR = re.compile(rf"\d[\d,.]*[\s>]{{0,12}}(?=[^\W\d_]|%)(?i:{_UNIT})(?![\w/])")


def _with_unit(text: str, start: int) -> bool:
    """Might the number at `start` be a value with a unit to claims.prose._statement?"""
    return _UNIT_NEAR.match(text, start) is not None


def _paragraph_numbers(text: str, nums: list[tuple[int, int]]) -> list[int]:
    """For each number (start, end), in order, the index of its paragraph: two numbers of
    one paragraph have the same. A paragraph break holds no digit, so one between two
    numbers stands in the text between them; it holds a line end, found first (most
    numbers have none before the next: a line's values)."""
    paragraph: list[int] = []
    b = prev_end = 0
    for start, end in nums:
        if text.find("\n", prev_end, start) >= 0 and _PARAGRAPH_END.search(text, prev_end, start) is not None:
            b += 1
        paragraph.append(b)
        prev_end = end
    return paragraph


# where claims.prose._FULL_STOP splits a statement's sentences (after a stop, at a blank),
# and where its paragraphs end (_PARAGRAPH_END)
_SENTENCE_STOP = re.compile(rf"[.!?]\s|{_PARAGRAPH_END.pattern}")
_LAST_STOP = re.compile(rf"(?s:.*)(?:{_SENTENCE_STOP.pattern})")  # the last one in a span


_QUOTED_BREAK = re.compile(r"\n[ \t>]*")  # a line end and the next line's quote marks


class _Head:
    """The sentence a number stands in, read from its start up to the numbers asked about,
    in order: do the words before the number in its sentence name the baseline as
    claims.prose.statement_claims asks a statement's head to (`_side` of the words before
    its first value, commas and all: lexicon.cue scoring STATED_BASELINE or less)? The
    head is read as the reader's passage holds it (its lines joined with a blank, quote
    marks dropped, at most claims.numbers.MAX_LINE characters: a longer passage gives no
    statement). It is scored only once a word that can score below zero stands in it
    (_BASELINE_WORDS), and again where a side word (`_is_variant`) stands since the last
    score: the lexicon scores its own words, and words after them only ever shrink a score
    (a long label's scale), so a score kept names the baseline as often or more. The head
    ends at the sentence's first number the reader takes as a value (_passed_over tells
    those it does not); a sentence ends at a stop or a paragraph break."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.start = 0  # where the sentence of the last number asked about starts
        self.read = 0  # how far it has been read for side words
        self.negative = False  # a word that can score below zero stands in it up to `read`
        self.said = False  # its head up to `read` names the baseline
        self.done = False  # its head is read: a value the reader takes stands at `read`
        self.stop = -1  # where the sentence after it starts, once looked for

    def named(self, start: int, end: int) -> bool:
        if self.done and start < self.stop:
            return self.said
        text = self.text
        if self.stop <= start:  # a new sentence since: it starts after the last stop before the number
            last = _LAST_STOP.match(text, self.read, start)
            if last is not None:
                self.start = self.read = last.end()
            self.said = self.done = self.negative = False
            m = _SENTENCE_STOP.search(text, start)
            self.stop = m.end() if m is not None else len(text) + 1
        if not self.done:
            # once a word below zero stands in the head, a side word since is all that is
            # asked: every word of _BASELINE_WORDS is a side word (_is_variant), so the
            # words read since are looked through once, not for each kind
            if self.negative:
                if _is_variant(text[self.read:start]):
                    self.said = self._scored(start)
            elif _has_baseline_word(text[self.read:start]):
                self.negative = True
                self.said = self._scored(start)
            self.read = start
            self.done = not _passed_over(text, start, end)
        return self.said

    def _scored(self, start: int) -> bool:
        head = self.text[self.start:start]
        return len(head) <= 4 * numbers.MAX_LINE and _names_baseline(_QUOTED_BREAK.sub(" ", head))


@lru_cache(maxsize=1024)
def _names_baseline(head: str) -> bool:
    from claims.lexicon import cue
    from claims.prose import STATED_BASELINE

    return len(head) <= numbers.MAX_LINE and cue(head).score <= STATED_BASELINE


# the words that can pull a label's score below zero (every side word, failing that): each
# of their matches is a side word's too (_Head asks only _is_variant once it has found one)
_BASELINE_WORDS = _lexicon_pattern("baseline_word_pattern", _VARIANT)
_BASELINE_LOWER = _lower_case(_BASELINE_WORDS)


@lru_cache(maxsize=1024)
def _has_baseline_word(text: str) -> bool:
    """Does `text` hold a word of _BASELINE_WORDS? Cached and read lower-cased, as
    _is_variant reads its words."""
    return next(_folded_finditer(_BASELINE_WORDS, _BASELINE_LOWER, text), None) is not None
# before a number the reader passes over: a spread's mark, an id's bracket, a p-value's "="
# or "<" (any "=" or "<": more is read, never less)
_PASSED_BEFORE = re.compile(r"±|\+-|\[|=|<")


def _passed_over(text: str, start: int, end: int) -> bool:
    """Might claims.prose._statement pass over the number at start:end on its way to its
    first value? It takes the tokens claims.numbers.tokenize reads as values, but a
    percentage (a change, or a level), and not a range or a list ("1-5", "1/2"), a spread
    ("± 2", "+- 2", "+/- 2"), a p-value ("p=0.03", "p < 0.05"), an id ("[  5]", "port 4711":
    numbers.ID_WORDS)."""
    if text.startswith(("%", "-", "/", " %"), end) or _PASSED_BEFORE.search(text, max(0, start - 8), start):
        return True
    if start == 0 or not text[start - 1].isspace():
        return False
    word = text[max(0, start - 8):start].rsplit(None, 1)[-1:]
    return bool(word) and word[0].lower() in numbers.ID_WORDS


_PASSED = "_prescan_passed"


def mark_passed(msg: object) -> None:
    """Record on a message that its decoded body passed the gate (the reader checked it
    before building the lines), so the extractor does not scan it a second time."""
    setattr(msg, _PASSED, True)


def message_might_have_claims(msg: object, text: str) -> bool:
    """The gate for a message whose lines are `text`: already passed, or passes now."""
    return getattr(msg, _PASSED, False) or might_have_claims(text)

