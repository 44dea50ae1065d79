"""The cheap exits of the extraction stages read as the scans they stand in front of.

A stage skips a regex scan (or a tokenisation) when a line lacks what the scan needs: a
code mark, a column gap, a digit, or when the line's own tokens serve for its stripped
copy.  Each premise is checked over the lines of real mail (the labelled corpus's training
half, the shapes folder) and on invented lines that hit each case.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from claims import blocks, commands, extract, grid, lkp, normalise, prose
from claims.message import message_from_text
from claims.numbers import MAX_LINE, has_digit, tokenize
from claims.prescan import might_have_claims
from tests.paths import SHARED

_VALIDATION = re.compile(r"d1[0-5]\d")  # d102, d105, ..., d159 (multiples of 3) are never read


def _texts() -> list[Path]:
    corpus = [p for p in sorted((SHARED / "corpus").glob("*.txt"))
              if not (_VALIDATION.fullmatch(p.stem) and int(p.stem[1:]) % 3 == 0)]
    return corpus + sorted((SHARED / "shapes").glob("*.txt"))


def _lines() -> list[str]:
    out: list[str] = []
    for p in _texts():
        out += [ln.text for ln in message_from_text(p.read_text(errors="replace")).lines]
    return out


LINES = _lines()
needs_mail = pytest.mark.skipif(not LINES, reason="../shared/corpus and shapes are not present")

# the scans as one pattern each, before their cheap exits
_CODE_WHOLE = re.compile(blocks._COMPILER.pattern + "|" + blocks._CODE.pattern)
_STRUCTURED_WHOLE = re.compile(r"\S(?: {3,}|\t)\S|\||^\s*[#$>]\s")


def _is_code(s: str) -> bool:
    return bool(blocks._COMPILER.match(s) or not blocks._CODE_MARKS.isdisjoint(s) and blocks._CODE.search(s))


@pytest.mark.parametrize("line", [
    "drivers/net/virtio_net.c:1234:5: warning: unused variable 'x'",
    "#define VIRTIO_NET_F_MRG_RXBUF 15",
    "  1234 |     if (!vi->mergeable_rx_bufs)",
    "        return err;",
    "static int foo(void) {",
    "while (budget--)",
    "if (x == 3)",
    "rx != tx",
])
def test_code_lines_have_a_code_mark(line: str) -> None:
    assert _CODE_WHOLE.search(line.strip())
    assert _is_code(line.strip())
    assert blocks.line_kind(line) == "code"


@needs_mail
def test_code_marks_hide_no_code_line_of_real_mail() -> None:
    for text in LINES:
        s = text.strip()
        assert _is_code(s) == bool(_CODE_WHOLE.search(s)), s


@pytest.mark.parametrize(("line", "structured"), [
    ("Throughput   12.3   14.1", True), ("rx\t12", True), ("| a | b |", True), ("$ ./run.sh 10", True),
    ("> quoted text", True), ("plain prose with  two spaces", False), ("The patch gives 12.3 Gbps.", False),
])
def test_structured_lines(line: str, structured: bool) -> None:
    assert prose._structured(line) is structured
    assert bool(_STRUCTURED_WHOLE.search(line)) is structured


@needs_mail
def test_structured_reads_real_mail_as_the_one_pattern() -> None:
    for text in LINES:
        for s in (text, text.strip()):
            assert prose._structured(s) == bool(_STRUCTURED_WHOLE.search(s)), s


def _readings(text: str) -> list[tuple[str, str, float | None, str | None, bool, bool]]:
    return [(t.text, t.kind, t.value, t.unit, t.percent, t.signed) for t in tokenize(text)]


@needs_mail
def test_a_lines_tokens_are_its_stripped_copys() -> None:
    """`blocks.line_kind` reads the line's own tokens (cached for later stages) for its strip."""
    for text in LINES:
        if len(text) <= MAX_LINE:
            assert _readings(text) == _readings(text.strip()), text


@pytest.mark.parametrize(("line", "kinds"), [
    ("12.1 +- 0.3%", ["value", "word", "spread"]),
    ("12.1 +- about 3%", ["value", "word", "word", "value"]),  # a word between: no spread
    ("+ 3% faster", ["value", "word"]),  # a lone sign joins the value after it
    ("+ faster 3%", ["word", "word", "value"]),  # and stays a word before a word
    ("(+-0.5%) ok", ["spread", "word"]),
    ("port 40112 up", ["word", "word", "word"]),
    ("1,5 ms", ["value", "word"]),
    ("cpus 1,5", ["word", "word"]),
])
def test_words_without_digits_keep_their_context(line: str, kinds: list[str]) -> None:
    """The word without a digit (read in one step) ends a spread and takes a lone sign."""
    assert [t.kind for t in tokenize(line)] == kinds


@pytest.mark.parametrize("piece", ["Throughput", "n/a (noisy)", "(Mpps)", "baseline kernel"])
def test_a_piece_without_a_digit_is_no_cell(piece: str) -> None:
    assert grid._value_cell(piece, 0, len(piece), 0) is None


def test_a_piece_with_a_number_is_a_cell() -> None:
    cell = grid._value_cell("12.5 Mpps", 0, 9, 1)
    assert cell is not None and cell.tok.value == 12.5 and cell.unit == "Mpps"


@pytest.mark.parametrize("text", [
    "throughput doubled", "the boot time was cut in half", "Latency HALVES with it", "it triples the rate",
    "3 times faster", "it is many times faster", "a factor of 2", "2x faster", "an increase of 1.8",
])
def test_factor_hints(text: str) -> None:
    assert prose._factor_hint(text, text.lower())


@pytest.mark.parametrize("text", [
    "0x1f", "2 X faster", "2× faster", "ten TIMES", "timestamps", "An Increase Of ~3", "BY HALF", "behalf of 2",
    "İNCREASE OF 2", "speedup of roughly 4", "Doubles", "prof 3", "a factor of two", "offset 12",
])
def test_factor_hint_reads_odd_text_as_its_scans(text: str) -> None:
    whole = prose._TIMES_HINT.search(text) is not None or prose.FACTOR_HINT.search(text) is not None
    assert prose._factor_hint(text, text.lower()) == whole


@needs_mail
def test_factor_hint_reads_real_mail_as_its_scans() -> None:
    for text in LINES:
        whole = prose._TIMES_HINT.search(text) is not None or prose.FACTOR_HINT.search(text) is not None
        assert prose._factor_hint(text, text.lower()) == whole, text


def test_split_argv_gives_a_new_list_each_time() -> None:
    """Its words are kept for the next caller, who must not see what this one changed."""
    words = commands.split_argv("taskset -c 2 netperf -H host -t TCP_RR 2>&1")
    assert words == ["taskset", "-c", "2", "netperf", "-H", "host", "-t", "TCP_RR"]
    words.append("extra")
    assert commands.split_argv("taskset -c 2 netperf -H host -t TCP_RR 2>&1")[-1] == "TCP_RR"


@pytest.mark.parametrize("line", [
    "[    5.392845] virtio_net virtio0: ready", " mode change 100644 => 100755 tools/run.sh",
    "   text    data     bss     dec     hex filename", " 12345   678   90   13113   3339 vmlinux",
    "\t/* size: 72, cachelines: 2, members: 9 */", "\tu64 rx_bytes;   /*    16     8 */",
    "add/remove: 1/0 grow/shrink: 2/1 up/down: 96/-16 (80)", "function     old     new   delta",
    "the size /* 12 */ of it", "see [1] for the mode 100644 file", "text data bss",
])
def test_skipped_lines_scans_read_as_their_one_patterns(line: str) -> None:
    assert extract._log_line(line) == bool(extract._LOG_LINE.match(line))
    assert extract._size_output(line) == bool(extract._SIZE_OUTPUT.search(line))


@needs_mail
def test_skipped_lines_scans_read_real_mail_as_their_one_patterns() -> None:
    """The log and size scans look at the line's start alone unless its text needs more."""
    hits = 0
    for text in LINES:
        assert extract._log_line(text) == bool(extract._LOG_LINE.match(text)), text
        assert extract._size_output(text) == bool(extract._SIZE_OUTPUT.search(text)), text
        hits += extract._log_line(text) or extract._size_output(text)
    assert hits


def test_the_gate_reads_no_claim_in_no_text() -> None:
    """`extract._passes_gate` asks the gate about a message with an empty text first."""
    assert not might_have_claims("")
    msg = message_from_text("Subject: x\n\nThroughput went from 10 Gbps to 12 Gbps with the patch.\n")
    assert extract._passes_gate(msg, msg.lines)
    msg = message_from_text("Subject: x\n\nThanks, applied.\n")
    assert not extract._passes_gate(msg, msg.lines)


def _passages_of_mail() -> list[prose.Passage]:
    return [p for path in _texts() for p in prose.passages(message_from_text(path.read_text(errors="replace")).lines,
                                                           set())]


@pytest.mark.parametrize("text", [
    "throughput went from two to three Gbps", "latency before and after the patch -> same",
    "ten Gbps vs eleven Gbps", "about a thousand without the patch, more with it",
])
def test_sentence_pairs_need_a_digit(text: str) -> None:
    assert prose.sentence_pairs(prose.Passage([message_from_text(text).lines[0]])) == []


@needs_mail
def test_sentence_pairs_of_real_mail_stand_in_passages_with_a_digit() -> None:
    """`extract` gives the sentence templates only passages with a digit: none pairs without."""
    with_pairs = 0
    for p in _passages_of_mail():
        got = prose.sentence_pairs(p)
        with_pairs += bool(got)
        assert not got or has_digit(p.text[:MAX_LINE]), p.text
    assert with_pairs


def _messages_lines() -> list[list]:
    return [message_from_text(p.read_text(errors="replace")).lines for p in _texts()]


@needs_mail
def test_rows_and_segments_of_real_mail_are_read_as_without_the_digit_exit(monkeypatch: pytest.MonkeyPatch) -> None:
    """`prose.line_row` and `prose.line_segment_groups` pass a line without a digit by."""
    every = _messages_lines()
    fast = [([prose.line_row(lines, i, set()) for i in range(len(lines))],
             [prose.line_segment_groups(ln) for ln in lines]) for lines in every]
    monkeypatch.setattr(prose, "has_digit", lambda _text: True)
    full = [([prose.line_row(lines, i, set()) for i in range(len(lines))],
             [prose.line_segment_groups(ln) for ln in lines]) for lines in every]
    assert fast == full
    assert any(r is not None for rows, _ in fast for r in rows)


def _prompt_whole(text: str) -> tuple[bool, str | None, str]:
    m = commands._PROMPT.match(text[:2000])
    if not m:
        return False, None, text
    return True, m.group("h1") or m.group("h2") or m.group("h3") or m.group("h4") or m.group("h5"), m.group("rest")


@pytest.mark.parametrize("line", [
    "$ ./run.sh 10", "root@host:~# netperf -H x", "[root@vm1 ~]$ iperf3 -c x", "guest $ ping x",
    "~/git/linux master $ git grep x", "# echo 1 > /proc/sys/x", "plain words: no prompt", "costs $5",
])
def test_prompts_have_their_mark(line: str) -> None:
    assert commands.strip_prompt(line) == _prompt_whole(line)


@needs_mail
def test_prompt_and_label_exits_read_real_mail_as_their_patterns() -> None:
    """`strip_prompt` passes by a line without "$" or "#", `_unlabel` one without ":"."""
    for text in LINES:
        assert commands.strip_prompt(text) == _prompt_whole(text), text
        m = commands._LABEL.match(text)
        if m is None:
            assert commands._unlabel(text) == text, text


@pytest.mark.parametrize("text", [
    "No measurable difference in TCP_RR", "throughput is unchanged", "within the noise", "results are the same",
    "we didn't see any regression", "latency stays flat", "on par", "NO IMPACT", "İs the same", "nothing to say",
])
def test_no_change_words_stand_in_every_no_change_match(text: str) -> None:
    assert prose._may_state_no_change(text) == bool(prose._NO_CHANGE.search(text))


@needs_mail
def test_no_change_words_read_real_mail_as_the_pattern() -> None:
    hits = 0
    for p in _passages_of_mail():
        text = p.text[:MAX_LINE]
        whole = prose._NO_CHANGE.search(text) is not None
        assert prose._may_state_no_change(text) == whole, text
        hits += whole
    assert hits


@needs_mail
def test_size_and_listing_exits_read_real_mail_as_their_patterns() -> None:
    """A size line without a digit has one of _DIGITLESS_SIZE's words; a config line says
    "CONFIG_"; a listing row's rest holds a value only where it has a digit."""
    for text in LINES:
        if not has_digit(text):
            assert extract._DIGITLESS_SIZE.search(text) or not extract._SIZE_OUTPUT.search(text), text
        assert "CONFIG_" in text or not blocks._CONFIG.match(text), text
        m = blocks._NUMBERED.match(text)
        rest = text[m.end():] if m else text
        assert blocks._rest_has_value(text) == any(t.kind == "value" for t in tokenize(rest)), text


@pytest.mark.parametrize("text", [
    "45us vs 61us", "11620op/s with simple spinlocks versus 384158op/s with qspinlocks",
    "9.41 Gbits/sec before and 9.39 Gbits/sec after", "14.88 Mpps now, compared to 12.1 Mpps before",
    "brings it to 38 us, compared to 45 us", "3.1 Mpps relative to 2.9 Mpps", "below 3 ms instead of 35 ms",
    "latency before: 25 us, after 20 us", "9.1 Gbps on net-next and 9.8 Gbps patched",
])
def test_each_sentence_pair_pattern_has_its_word(text: str) -> None:
    hits = [pat for pat in prose._SENTENCE_PAIRS if pat.search(text)]
    assert hits
    for pat, words in zip(prose._SENTENCE_PAIRS, prose._PAIR_WORDS, strict=True):
        assert not pat.search(text) or any(w in text.lower() for w in words), pat.pattern


@needs_mail
def test_sentence_pair_words_stand_in_real_mail() -> None:
    for p in _passages_of_mail():
        text = prose._template_text(p)
        if text.isascii():
            for pat, words in zip(prose._SENTENCE_PAIRS, prose._PAIR_WORDS, strict=True):
                assert not pat.search(text) or any(w in text.lower() for w in words), text


def _columns_by_loop(text: str) -> list[int]:
    col, out = 0, []
    for ch in text:
        out.append(col)
        col = (col // 8 + 1) * 8 if ch == "\t" else col + 1
    return [*out, col]


@pytest.mark.parametrize("text", ["", "a", "rx\t12", "\t\tx  y", "no tab at all  1 2 3"])
def test_columns_without_a_tab_are_the_indexes(text: str) -> None:
    assert grid._columns_of(text) == _columns_by_loop(text)


@needs_mail
def test_columns_of_real_mail() -> None:
    for text in LINES:
        assert grid._columns_of(text) == _columns_by_loop(text), text


_NOT_KEY_TABLE = str.maketrans("", "", "0123456789,.# \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f")


@pytest.mark.parametrize("text", ["Run 1: 12,345.6 pps", "#  tx\t3", "\x1c\x1dA B", "Größe 12", "a\u00a0b 3"])
def test_step_key_cuts_as_bytes_what_the_table_cuts(text: str) -> None:
    low = text.lower()
    assert blocks._step_key(text) == (low.translate(_NOT_KEY_TABLE) if low.isascii() else blocks._NOT_KEY.sub("", low))


@needs_mail
def test_step_key_of_real_mail_as_the_table_cuts() -> None:
    for text in LINES:
        low = text.lower()
        if low.isascii():
            assert blocks._step_key(text) == low.translate(_NOT_KEY_TABLE), text


def test_normalise_maps_no_ascii_character() -> None:
    """`normalise_line` returns an ASCII line as it is, unread."""
    assert not any(c.isascii() for c in normalise._NEEDS)
    assert normalise.normalise_line("a\u00a0│ b") == "a | b"


@needs_mail
def test_clauses_of_real_mail_are_read_as_without_the_digit_exit(monkeypatch: pytest.MonkeyPatch) -> None:
    """`prose._clauses` builds no passage of a paragraph without a digit."""
    every = _messages_lines()
    fast = [prose._clauses(lines, set()) for lines in every]
    monkeypatch.setattr(prose, "has_digit", lambda _text: True)
    assert fast == [prose._clauses(lines, set()) for lines in every]
    assert any(fast)


@pytest.mark.parametrize("text", ["", "a", "ab", "ab cd", "abcd", "a b c", "x1 y2", "ab12cd", "ab-cd", "ab\ncd", "Éé ab"])
def test_two_prose_words_as_counted(text: str) -> None:
    assert (prose._TWO_PROSE_WORDS.search(text) is not None) == (len(prose._PROSE_WORD.findall(text)) >= 2)


@pytest.mark.parametrize("text", ["drops from", "from", "FROM", "xfrom", "goes down to", "45us vs.", "12 versus",
                                  "aversus", "something tothan", " of", "up to"])
def test_dangling_tail_reads_as_the_whole(text: str) -> None:
    assert (prose._DANGLING.search(text[-prose._DANGLING_TAIL:]) is not None) == (prose._DANGLING.search(text) is not None)


@needs_mail
def test_prose_word_and_dangling_scans_read_real_mail_as_before() -> None:
    for text in LINES:
        s, r = text.strip(), text.rstrip()
        assert (prose._TWO_PROSE_WORDS.search(s) is not None) == (len(prose._PROSE_WORD.findall(s)) >= 2), s
        assert (prose._DANGLING.search(r[-prose._DANGLING_TAIL:]) is not None) == (prose._DANGLING.search(r) is not None)


@pytest.mark.parametrize("text", ["  129489 \u00b1  2%     +94.7%     252151 \u00b1  1%  will-it-scale.per_process_ops",
                                  "a -3 drop", "x\t+1", "no sign 12", "a+1", "-1 at the start", ""])
def test_lkp_signed_check_as_the_scan(text: str) -> None:
    assert lkp._has_signed(text) == (lkp._SIGNED.search(text) is not None)


@needs_mail
def test_lkp_signed_check_reads_real_mail_as_the_scan() -> None:
    assert all(lkp._has_signed(t) == (lkp._SIGNED.search(t) is not None) for t in LINES)


@pytest.mark.parametrize("text", ["", "one", "a. b", "a.b", "x; y", "x;y", "why? so", "yes! no", "1.5 Mpps ok",
                                  "no mark at all", "a \u2026 b"])
def test_sentences_without_an_end_mark_as_split(text: str) -> None:
    for end in (prose._FULL_STOP, prose._SENTENCE_END, None):
        assert not prose._ends_none(text, end) or [(text, 0)] == _split_sentences(text, end)
        assert prose._sentences(text, end) == _split_sentences(text, end)


@needs_mail
def test_sentences_of_real_mail_as_split() -> None:
    for text in LINES:
        for end in (prose._FULL_STOP, None):
            assert prose._sentences(text, end) == _split_sentences(text, end), text


def _split_sentences(text: str, end: re.Pattern[str] | None) -> list[tuple[str, int]]:
    """`prose._sentences` without its no-mark exit."""
    out, pos = [], 0
    for piece in (end or prose._SENTENCE_END).split(text):
        start = text.find(piece, pos)
        pos = start + len(piece)
        out.append((piece, start))
    return out


@pytest.mark.parametrize("text", ["  12 foo", "12", "abcdef1 2021-01-01 3", "deadbeef12 x 2020-02-02  7", "\u0663 x",
                                  "- 12", "failed 3", "", "   "])
def test_numbered_start_as_the_listing_match(text: str) -> None:
    assert blocks._NUMBERED_START.match(text) is not None or blocks._NUMBERED.match(text) is None


@needs_mail
def test_numbered_start_reads_real_mail_as_the_listing_match() -> None:
    assert all(blocks._NUMBERED_START.match(t) is not None or blocks._NUMBERED.match(t) is None for t in LINES)


# every word _NAMED_BY ends a text with, and what a number after it may follow
_NAMED_WORDS = ("patch", "patches", "commit", "version", "rev", "revision", "series", "part", "step", "case", "bug",
                "issue", "number", "no.", "cpu", "cpus", "core", "cores", "node", "nodes", "queue", "queues", "port",
                "ports", "vcpu", "vcpus", "v", "#")


def test_named_by_words_end_in_the_listed_characters() -> None:
    assert all(prose._NAMED_BY.search(w) for w in _NAMED_WORDS)
    ends = re.compile("(?i)[" + re.escape("".join({w[-1] for w in _NAMED_WORDS})) + "]")
    assert {chr(c) for c in range(0x110000) if ends.fullmatch(chr(c))} == prose._NAMED_BY_LAST


@pytest.mark.parametrize("text", ["", " ", "patch ", "PATCHES\n", "see no.", "#", "v", " v  ", "CPUſ", "vcpu\t",
                                  "xv", "eport ", "cpus\u00a0", "in version\n\n", "bug.", "of the queue  x",
                                  "Patch", "\u212a", "at step  \u2003"])
def test_named_by_as_the_search(text: str) -> None:
    assert prose._named_by(text) == (prose._NAMED_BY.search(text) is not None)


@needs_mail
def test_named_by_reads_real_mail_as_the_search() -> None:
    for text in LINES:
        for k in range(0, min(len(text), 400), 7):
            before = text[max(0, k - 20):k]
            assert prose._named_by(before) == (prose._NAMED_BY.search(before) is not None), before


def _commands_read(lines: list, monkeypatch: pytest.MonkeyPatch, passing: bool) -> str:
    with monkeypatch.context() as m:
        if not passing:
            m.setattr(commands, "_passed_by", lambda text, ran: False)
        return repr(commands.find_commands(lines))


_COMMAND_MAIL = """Hi,

I ran netperf against the box:
netperf -H 10.0.0.1 -t TCP_RR
netperf
1) netperf
* sockperf ping-pong
client: iperf3 -c 10.0.0.2
client: iperf3
server: nothing here
Performance counter stats for 'system wide':
Performance counter stats for './virtio_test --batch=64':
  ./vringh_test
  vringh_test now gives
while doing iperf -P 4 it drops
it's `perf stat -a` that I ran
$ uperf -m profile.xml
# echo 1 > /proc/sys/net/core/busy_poll
taskset -c 2 \\
  netperf -H host
FOO=bar
ip link set dev eth0 mtu 9000
numactl
./mybench --runs 3
mybench again
mybench: 12 ops
"""


@pytest.mark.parametrize("text", [_COMMAND_MAIL] + [ln + "\n" for ln in _COMMAND_MAIL.splitlines()])
def test_lines_passed_by_read_as_before(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = message_from_text(text).lines
    assert _commands_read(lines, monkeypatch, True) == _commands_read(lines, monkeypatch, False)


@needs_mail
def test_commands_of_real_mail_read_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    for p in _texts():
        lines = message_from_text(p.read_text(errors="replace")).lines
        assert _commands_read(lines, monkeypatch, True) == _commands_read(lines, monkeypatch, False), p.name


@pytest.mark.parametrize("pair", [("", ""), ("", "a"), ("abcd", "abce"), ("abcd", "abcde"), ("ab", "abc"),
                                  ("device_add x,id=b1", "device_add x,id=b1,cont-pages=on"), ("aaaa", "bbbb"),
                                  ("abcde", "edcba"), ("12345678", "1234567890")])
def test_alike_as_the_ratio(pair: tuple[str, str]) -> None:
    from difflib import SequenceMatcher

    assert blocks._alike(*pair) == (SequenceMatcher(None, *pair).ratio() >= 0.8)


@needs_mail
def test_alike_reads_real_lines_as_the_ratio() -> None:
    from difflib import SequenceMatcher

    texts = [t.strip() for t in LINES[::7] if t.strip()][:3000]
    for x, y in zip(texts, texts[1:], strict=False):
        for b in (y, x[:-1], x + "x", x.replace("1", "2")):
            assert blocks._alike(x, b) == (SequenceMatcher(None, x, b).ratio() >= 0.8), (x, b)
