"""Split an mbox stream into messages without ever holding more than one message.

An archive of a busy list is gigabytes; reading it in 128 KB blocks and cutting at
separators keeps memory flat in the size of the mbox (one message plus one block), and
searching blocks with `bytes.find` instead of looping over lines in Python keeps it fast.
A message starts at a `From ` line that looks like a real separator (`From addr Day Mon dd
hh:mm...`), so an unescaped "From " sentence inside an mboxo body does not split it. mboxrd quoting (`>From `,
`>>From `) loses one `>`.

A message larger than `max_message` (a mail bomb, or an input that is not mail at all) is
not held: its first bytes are kept, the rest is counted and dropped, and it comes out as
an `Oversize` (its head, and its full size) so the reader can record "too large, skipped".
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import BinaryIO

BLOCK = 1 << 17  # larger blocks only grow the heap: glibc keeps what a 1 MB block grew
MAX_MESSAGE = 64 << 20  # bytes; a real message, attachments and all, is far smaller
OVERSIZE_HEAD = 64 << 10  # what is kept of an oversize message: its headers, for the warning


class Oversize(bytes):
    """The first bytes of a message too large to read; `size` is its full size in bytes."""

    size: int

    def __new__(cls, head: bytes, size: int) -> Oversize:
        obj = super().__new__(cls, head)
        obj.size = size
        return obj
_SEPARATOR = re.compile(rb"From \S+\s+\S.*\d{1,2}:\d\d")
_MBOXRD = re.compile(rb"^>(>*From )", re.M)


def _is_separator(buf: bytearray, nl: int, eol: int) -> bool:
    """Is the line buf[nl+1:eol] (which starts with 'From ') a message separator?

    `From <sender> <date with hh:mm>` always is; after a blank line `From <addr@host>` with
    no date is accepted too (some tools write that); a sentence never is.
    """
    if _SEPARATOR.match(buf, nl + 1, eol):
        return True
    after_blank = nl <= 0 or buf[nl - 1:nl] == b"\n" or buf[nl - 2:nl] == b"\n\r"
    if not after_blank:
        return False
    sender = buf[nl + 6:eol].split(None, 1)
    return bool(sender) and b"@" in sender[0]


def looks_like_separator(line: bytes) -> bool:
    """Does this first line of an input start an mbox (not a sentence "From my tests...")?"""
    if _SEPARATOR.match(line):
        return True
    sender = line[5:].split(None, 1) if line.startswith(b"From ") else []
    return bool(sender) and b"@" in sender[0]


def split_mbox(stream: BinaryIO, head: bytes = b"",
               max_message: int = MAX_MESSAGE) -> Iterator[tuple[int, bytes]]:
    """Yield (input line number of the message's first line, its bytes) for each message.

    `head` is data already read from `stream` (to sniff the format); the input must start
    with a `From ` line. A message is the bytes after its separator line up to the newline
    ending its last line; over `max_message` of them, it comes out as an `Oversize`. A
    `From ` line longer than max_message is no separator (it would have to be held whole to
    be judged), so memory stays bounded whatever the input: about max_message + 2 blocks,
    twice max_message at worst (a message that long, then a `From ` line as long). The
    output does not depend on how the stream's reads are cut.
    """
    # one bytearray, extended in place: re-joining the pending message to each block
    # recopied it, quadratic in its size. Positions index buf; its consumed prefix is
    # trimmed once a block long, keeping 2 bytes before the next candidate's newline for
    # the blank-line test of a CRLF "\r\n" line
    buf = bytearray(head)
    line = 1  # input line number of the current message's first line
    eol = buf.find(b"\n")
    while eol < 0:
        if len(buf) > max_message:
            return  # a first line longer than any message: nothing to split
        more = stream.read(BLOCK)
        if not more:
            return
        buf += more
        eol = buf.find(b"\n", len(buf) - len(more))
    if eol > max_message:
        return  # the same answer whether or not the newline came in the same read
    begin = eol + 1  # start of the current message: just after its separator line
    line += 1
    search = eol  # where the next separator's newline may be: at or after `search`
    eof = False
    dropped = dropped_lines = 0  # bytes and lines of the current message already dropped
    kept = b""  # the head of an oversize message
    quoted = False  # a ">From " in the current message: its mboxrd quoting to undo
    head_size = min(OVERSIZE_HEAD, max_message)  # never past the message's end

    def finished(end: int, size: int) -> bytes:
        """The current message, its bytes up to `end` in buf, `size` of them in all (the
        dropped ones too): an Oversize of its head when that is over max_message."""
        if size > max_message:
            return Oversize(kept if dropped else bytes(buf[begin:begin + head_size]), size)
        return _message(buf, begin, end, quoted)

    while True:
        # every "From " is looked at once (nearly all open a line): a separator candidate
        # when a newline precedes it, mboxrd quoting when a ">" does, so the message needs
        # no search of its own for ">From "
        nl = buf.find(b"From ", search + 1) - 1
        if nl >= 0 and buf[nl] != 10:  # not at a line start
            quoted = quoted or buf[nl] == 62  # ">"
            search = nl + 1
            continue
        if nl >= 0:
            end_line = buf.find(b"\n", nl + 1)
            if end_line < 0 and eof:
                end_line = len(buf)
            if end_line >= 0:
                if end_line - nl - 1 <= max_message and _is_separator(buf, nl, end_line):
                    yield line, finished(nl, dropped + nl - begin)
                    line += dropped_lines + buf.count(b"\n", begin, end_line + 1)
                    dropped = dropped_lines = 0
                    begin = end_line + 1
                    quoted = False
                search = end_line
                continue
            if len(buf) - nl - 1 > max_message:  # too long to be a separator: text
                search = max(len(buf) - 6, nl + 1)
                continue
            resume = nl  # separator line incomplete: read more, then look here again
        else:
            resume = max(len(buf) - 6, search)  # a "From " may start in the last 5 bytes
        if eof:
            break
        if dropped + resume - begin > max_message:
            # oversize for sure (all before `resume` is in it): keep its head, count and
            # drop the rest of what is searched
            if not dropped:
                kept = bytes(buf[begin:begin + head_size])
            dropped += resume - begin
            dropped_lines += buf.count(b"\n", begin, resume)
            begin = resume
        search = resume
        cut = min(begin, search) - 2
        if cut >= BLOCK:  # a block consumed: trim, copying only what is pending
            del buf[:cut]
            begin -= cut
            search -= cut
        more = stream.read(BLOCK)
        if more:
            buf += more
        else:
            eof = True
    if begin < len(buf) or dropped:
        # its size as if a separator followed: without the newline ending its last line
        yield line, finished(len(buf), dropped + len(buf) - begin - buf.endswith(b"\n"))


def _message(buf: bytearray, begin: int, end: int, quoted: bool) -> bytes:
    """Message bytes without the blank line the format puts before a separator; `quoted`:
    a ">From " was seen in them (its line, if it opens one, loses a ">")."""
    if end > begin and buf[end - 1] == 10:
        end -= 1  # the newline that ends the last line belongs to the line
    with memoryview(buf) as view:  # one copy, to bytes; released so buf can grow again
        data = bytes(view[begin:end])
    if quoted:
        data = _MBOXRD.sub(rb"\1", data)
    return data
