"""`claims.mbox.split_mbox` gives the same messages (line numbers, bytes, oversize sizes)
whatever the read blocks: every block size from 1 byte up, short reads, any split of the
input's head, checked against a line-by-line reading of the same rules. Also: oversize
exactly above max_message, a `From ` line that never ends held within max_message, and
time linear in the size of a huge message."""
from __future__ import annotations

import io
import random
import re
import time
import tracemalloc
from collections.abc import Iterator

import pytest

import claims.mbox as mbox

_DATED = b"From a@b Mon Jan  1 00:00:00 2020\n"
_PIECES = [_DATED, b"From c@d Tue Feb  2 11:22:33 2021\r\n", b"From x@y\n", b"From x@y\r\n",
           b"From mboxrd@z Thu Jan  1 00:00:00 1970\n", b"From me, a sentence\n",
           b"From my tests at 10:30 it is faster\n", b"From ", b">From ", b">>From x\n",
           b"\n>From here\n", b"\n", b"\r\n", b"\r", b"text\n", b"a>From b\n", b"From", b" ",
           b"x" * 70 + b"\n", b"@", b"1:00", b"F", b"rom ", b"\n\n"]


def _cases(seed: int, count: int) -> Iterator[bytes]:
    rng = random.Random(seed)
    for _ in range(count):
        body = b"".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 40)))
        data = rng.choice([_DATED, b"From x@y\r\n", b"From mboxrd@z Thu Jan  1 00:00:00 1970\n"]) + body
        yield data.replace(b"\n", b"\r\n").replace(b"\r\r", b"\r") if rng.random() < 0.2 else data


class _ShortReads(io.RawIOBase):
    """A stream answering each read with 1..n bytes, as pipes and decompressors do."""

    def __init__(self, data: bytes, seed: int) -> None:
        self.data, self.at, self.rng = data, 0, random.Random(seed)

    def read(self, n: int = -1) -> bytes:
        take = self.rng.randint(1, max(n, 1))
        chunk = self.data[self.at:self.at + take]
        self.at += len(chunk)
        return chunk


Split = list[tuple[int, bytes, int | None]]


def _split(stream: object, head: bytes, max_message: int) -> Split:
    got = mbox.split_mbox(stream, head, max_message)  # type: ignore[arg-type]
    out = []
    for line, raw in got:
        assert type(raw) in (bytes, mbox.Oversize)  # never a bytearray or view of the buffer
        out.append((line, bytes(raw), getattr(raw, "size", None)))
    return out


def _oracle(data: bytes, max_message: int) -> Split:
    """The splitter's rules, one line at a time: a `From ` line is a separator when it has a
    date (hh:mm) or follows a blank line and names an addr@host, and is no longer than
    max_message; a message is the bytes between separator lines less the newline ending its
    last line; over max_message bytes it is an Oversize of its first bytes."""
    parts = data.split(b"\n")
    lines = [p + b"\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
    if not lines or not lines[0].endswith(b"\n") or len(lines[0]) - 1 > max_message:
        return []
    out: Split = []

    def close(first: int, body: list[bytes], last: bool) -> None:
        raw = b"".join(body)
        if not last or raw.endswith(b"\n"):
            raw = raw[:-1]
        if len(raw) > max_message:
            out.append((first, raw[:min(mbox.OVERSIZE_HEAD, max_message)], len(raw)))
            return
        if not last and raw.endswith(b"\n"):
            raw = raw[:-1]  # the blank line before a separator
        out.append((first, re.sub(rb"(?m)^>(>*From )", rb"\1", raw), None))

    first, body = 2, []
    for i, ln in enumerate(lines[1:], 1):
        text = ln.rstrip(b"\n")
        sender = text[5:].split(None, 1)
        if text.startswith(b"From ") and len(text) <= max_message and (
                mbox._SEPARATOR.match(text) or lines[i - 1] in (b"\n", b"\r\n")
                and sender and b"@" in sender[0]):
            close(first, body, False)
            first, body = i + 2, []
        else:
            body.append(ln)
    if body:
        close(first, body, True)
    return out


def _check(data: bytes, rng: random.Random, monkeypatch: pytest.MonkeyPatch,
           max_message: int = 1 << 20) -> None:
    want = _oracle(data, max_message)
    monkeypatch.setattr(mbox, "BLOCK", 1 << 20)
    assert _split(io.BytesIO(data), b"", max_message) == want, data
    for block in rng.sample(range(1, 65), 6) + [rng.choice([97, 200, 1000])]:
        monkeypatch.setattr(mbox, "BLOCK", block)
        cut = rng.randint(0, len(data))
        assert _split(io.BytesIO(data[cut:]), data[:cut], max_message) == want, (data, block, cut)
    monkeypatch.setattr(mbox, "BLOCK", rng.choice([1, 7, 64, 4096]))
    assert _split(_ShortReads(data, rng.randrange(1 << 30)), b"", max_message) == want, data


@pytest.mark.parametrize("data", [
    # (a) two separators in a row: the second's line crosses a block boundary
    _DATED + b"From c@d Tue Feb  2 11:22:33 2021\nbody\n",
    _DATED + b"From x@y\n\nFrom z@w Mon Jan  1 00:00:00 2020\nFrom v@u Mon Jan  1 00:00:00 2020\n",
    # (b) a CRLF blank line just before an undated `From addr@host` separator
    b"From a@b Mon Jan  1 00:00:00 2020\r\n\r\nFrom x@y\r\nbody\r\n",
    b"From x@y\r\nhi\r\n\r\nFrom x@y\r\n\r\nFrom x@y\r\n\r\n",
    # an undated `From addr` line after a non-blank line is text; a sentence never splits
    _DATED + b"body\nFrom x@y\n\nFrom me, a sentence\n>From quoted\n>>From twice\n",
    _DATED + b"\n\n\n",  # an empty message at the end
])
def test_known_block_boundary_cases(data: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(data)
    want = _oracle(data, 1 << 20)
    for block in range(1, len(data) + 2):
        monkeypatch.setattr(mbox, "BLOCK", block)
        for cut in (0, rng.randint(0, len(data))):
            got = _split(io.BytesIO(data[cut:]), data[:cut], 1 << 20)
            assert got == want, (block, cut)
    _check(data, rng, monkeypatch)


@pytest.mark.parametrize("seed", range(4))
def test_random_mboxes_split_alike_in_any_blocks(monkeypatch: pytest.MonkeyPatch,
                                                 seed: int) -> None:
    rng = random.Random(seed)
    for data in _cases(seed, 400):
        _check(data, rng, monkeypatch)


@pytest.mark.parametrize("seed", range(2))
def test_random_mboxes_with_oversize_messages(monkeypatch: pytest.MonkeyPatch,
                                              seed: int) -> None:
    rng = random.Random(seed)
    monkeypatch.setattr(mbox, "OVERSIZE_HEAD", 16)
    for data in _cases(seed + 100, 300):
        _check(data, rng, monkeypatch, rng.choice([12, 20, 40, 60, 100, 300]))


def test_oversize_exactly_above_max_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """A message of max_message bytes is read whole, one of max_message + 1 is not, whether
    another message follows it or the input ends, in any blocks."""
    limit = 5050
    for size in (limit - 1, limit, limit + 1, limit + 2):
        body = (b"y" * 99 + b"\n") * (size // 100) + b"z" * (size % 100)  # no newline last
        for data in (_DATED + body + b"\n" + _DATED + b"next\n", _DATED + body + b"\n",
                     _DATED + body):
            for block in (1 << 20, 4096, 100, 7):
                monkeypatch.setattr(mbox, "BLOCK", block)
                first = _split(io.BytesIO(data), b"", limit)[0]
                if size > limit:
                    assert first == (2, body[:min(mbox.OVERSIZE_HEAD, limit)], size), (size, block)
                else:
                    assert first == (2, body, None), (size, block)


class _Endless(io.RawIOBase):
    """`prefix`, then `size` bytes of one line without a newline (made as asked, never
    held), then `suffix`."""

    def __init__(self, prefix: bytes, size: int, suffix: bytes) -> None:
        self.prefix, self.left, self.suffix = prefix, size, suffix

    def read(self, n: int = -1) -> bytes:
        if self.prefix:
            out, self.prefix = self.prefix, b""
            return out
        if self.left:
            take = min(n, self.left)
            self.left -= take
            return b"x" * take
        out, self.suffix = self.suffix, b""
        return out


def test_a_from_line_that_never_ends_is_held_within_max_message() -> None:
    """A `From ` line longer than max_message is no separator (it would have to be held whole
    to be judged): the message it is in is oversize, and memory stays bounded."""
    limit = 1 << 20
    after = b"\n" + _DATED + b"next\n"
    stream = _Endless(_DATED + b"Subject: s\n\nFrom ", 16 * limit, after)
    tracemalloc.start()
    try:
        got = _split(stream, b"", limit)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < limit + 4 * mbox.BLOCK, peak
    size = len(b"Subject: s\n\nFrom ") + 16 * limit
    head = (b"Subject: s\n\nFrom " + b"x" * mbox.OVERSIZE_HEAD)[:mbox.OVERSIZE_HEAD]
    assert got == [(2, head, size), (6, b"next", None)]


def test_a_first_line_that_never_ends_yields_nothing_in_bounded_memory() -> None:
    limit = 1 << 20
    tracemalloc.start()
    try:
        got = _split(_Endless(b"From ", 16 * limit, b"\n" + _DATED), b"", limit)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert got == [] and peak < limit + 4 * mbox.BLOCK, peak


class _Timed(io.RawIOBase):
    """A stream noting the CPU time and offset of each read."""

    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0
        self.marks: list[tuple[int, float]] = []

    def read(self, n: int = -1) -> bytes:
        self.marks.append((self.at, time.process_time()))
        chunk = self.data[self.at:self.at + n]
        self.at += len(chunk)
        return chunk


def test_a_huge_message_splits_in_linear_time() -> None:
    """Reading the last 8 MB of a 48 MB message costs about what its first 8 MB did (1.3 to
    1.5 times, measured), not 8 times (the pending message recopied at every block, as
    before). CPU time between reads, the least ratio of 3 runs: robust on a loaded machine."""
    size = 48 << 20
    data = _DATED + (b"y" * 99 + b"\n") * (size // 100)
    ratios = []
    for _ in range(3):
        stream = _Timed(data)
        ((_, raw),) = mbox.split_mbox(stream)  # type: ignore[arg-type]
        assert len(raw) == len(data) - len(_DATED) - 1
        del raw

        def cpu(lo: int, hi: int, marks: list[tuple[int, float]] = stream.marks) -> float:
            times = [t for at, t in marks if lo <= at <= hi]
            return times[-1] - times[0]

        ratios.append(cpu(size - size // 6, size) / max(cpu(0, size // 6), 1e-6))
    assert min(ratios) < 3, ratios
