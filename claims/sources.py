"""Where messages come from: one entry point that tells an mbox from an .eml from a page.

`iter_messages(path)` accepts what a maintainer has at hand — an mbox (also .xz/.gz,
streamed), a raw .eml, an HTML archive page, the text of an archive page copied from a
browser, a draft with no headers, or "-" for stdin — and yields `Message`s. What cannot be
read at all raises `InputError` with a one-line reason; what is partly readable comes back
with `Message.warnings`.

Reading is bounded whatever the input (/dev/zero, a gzip of 4 GiB of NULs, one endless
line): at most `MAX_INPUT` bytes after decompression, and no more than `MAX_RATIO` times the
compressed size once past `BOMB_FLOOR`; a message over `claims.mbox.MAX_MESSAGE` or a
line over `MAX_LINE_BYTES` is skipped or cut with a warning on that message.

`iter_messages(path, prescan=True)` is the two-level reader `verifier extract` uses: each
mbox message is split on raw bytes, its header block cut at the blank line, only its
text's transfer encoding decoded, and the full message model (quote depth, authors,
signatures: `fill_lines`) built only when `claims.prescan` says the text can hold a claim;
the others come back with their headers and warnings but no body lines, so the extractor
skips them at once. A one-part text/plain message (most of a list) is read on its bytes
(`read_plain`), with the gate or without it; MIME parts go through the line reader's walk.
"""
from __future__ import annotations

import gzip
import io
import lzma
import re
import sys
import zlib
from collections.abc import Callable, Iterator
from functools import partial
from typing import BinaryIO

from claims.mbox import Oversize, looks_like_separator, split_mbox
from claims.message import fill_lines, message_from_text, set_header
from claims.mime import (
    MAX_MESSAGE_LINES,
    SUMMARY_HEADERS,
    byte_lines,
    content_type,
    decode_leaf,
    leaf_lines,
    leaf_text,
    message_from_bytes,
    message_from_lines,
    parse_header_block,
    plain_header_end,
    plain_headers,
)
from claims.model import Message
from claims.prescan import mark_passed, might_have_claims

HEAD_BYTES = 1 << 16
MAX_SINGLE_MESSAGE = 512 << 20  # an .eml/page bigger than this is not a message
MAX_INPUT = 8 << 30  # bytes read after decompression: twenty times the largest list archive we read
MAX_RATIO = 200  # decompressed / compressed; mail text compresses 5-10x, a bomb 1000x
BOMB_FLOOR = 256 << 20  # the ratio is judged once this much has come out
MAX_LINE_BYTES = 1 << 20  # a longer line is cut (tables and prose lines are short)

_HEADER_LINE = re.compile(rb"^[!-9;-~]+:")
_KNOWN = {b"from", b"date", b"subject", b"message-id", b"received", b"return-path", b"to",
          b"mime-version", b"content-type", b"delivered-to", b"in-reply-to", b"references"}
_HTML = re.compile(rb"<(?:!doctype\s+html|html|head|body|pre|div|table)\b", re.IGNORECASE)


class InputError(Exception):
    """Nothing readable in the input; the message is one line meant for the user."""


class _Prefixed(io.RawIOBase):
    """A stream that first replays bytes already read (to sniff a format) then the rest;
    `served` counts the bytes it gave out (the compressed size, for the bomb check)."""

    def __init__(self, head: bytes, rest: BinaryIO, close_rest: bool) -> None:
        self._head = head
        self._rest = rest
        self._close_rest = close_rest
        self.served = len(head)

    def close(self) -> None:
        if self._close_rest and not self.closed:
            self._rest.close()
        super().close()

    def readable(self) -> bool:
        return True

    def readinto(self, buf) -> int:  # type: ignore[override]
        if self._head:
            n = min(len(buf), len(self._head))
            buf[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        data = self._rest.read(len(buf))
        buf[: len(data)] = data
        self.served += len(data)
        return len(data)


class _Bounded(io.RawIOBase):
    """The decompressed input, cut off with an InputError past MAX_INPUT bytes or, for a
    compressed input, past MAX_RATIO times what was read of the file."""

    def __init__(self, inner: BinaryIO, raw: _Prefixed | None, name: str) -> None:
        self._inner = inner
        self._raw = raw
        self._name = name
        self.count = 0

    def close(self) -> None:
        if not self.closed:
            self._inner.close()
        super().close()

    def readable(self) -> bool:
        return True

    def readinto(self, buf) -> int:  # type: ignore[override]
        data = self._inner.read(len(buf))
        n = len(data)
        buf[:n] = data
        self.count += n
        if self.count > MAX_INPUT:
            raise InputError(f"{self._name} is larger than {MAX_INPUT >> 30} GiB; "
                             "stopped reading (split it)")
        if self._raw is not None and self.count > BOMB_FLOOR \
                and self.count > MAX_RATIO * max(self._raw.served, 1):
            raise InputError(f"{self._name} decompresses to over {MAX_RATIO} times its size "
                             f"({self.count >> 20} MB so far); stopped reading (a decompression bomb?)")
        return n


def _open(path: str, data: bytes | None) -> tuple[BinaryIO, str]:
    """A binary stream of the input, decompressed when it is .xz or .gz, and its name."""
    if data is not None:
        raw: BinaryIO = io.BytesIO(data)
        name = path or "<data>"
    elif path == "-":
        raw, name = sys.stdin.buffer, "<stdin>"
    else:
        try:
            raw = open(path, "rb")  # noqa: SIM115 - closed by the caller's generator
        except OSError as e:
            raise InputError(f"cannot read {path}: {e.strerror or e}") from None
        name = path
    magic = raw.read(6)
    prefixed = _Prefixed(magic, raw, raw is not sys.stdin.buffer)
    stream: BinaryIO = io.BufferedReader(prefixed, 1 << 16)  # type: ignore[arg-type]
    packed = True
    if magic.startswith(b"\xfd7zXZ\x00"):
        stream = lzma.open(stream)  # type: ignore[assignment]
    elif magic.startswith(b"\x1f\x8b"):
        stream = gzip.open(stream)  # type: ignore[assignment]
    else:
        packed = False
    bounded = _Bounded(stream, prefixed if packed else None, name)
    return io.BufferedReader(bounded, 1 << 16), name  # type: ignore[arg-type,return-value]


def _read_head(stream: BinaryIO, name: str) -> bytes:
    try:
        head = stream.read(HEAD_BYTES)
        if len(head) == HEAD_BYTES:
            head += stream.readline(MAX_LINE_BYTES)  # bounded: /dev/zero has no newline
    except (OSError, EOFError, lzma.LZMAError, zlib.error) as e:
        raise InputError(f"cannot read {name}: {e}") from None
    return head


def detect(head: bytes) -> str:
    """The input kind from its first bytes: mbox, eml, html, text or binary."""
    sample = head[:8192]
    if sample.startswith(b"\xef\xbb\xbf"):
        sample = sample[3:]
    if _is_binary(sample):
        return "binary"
    first = sample.split(b"\n", 1)[0]
    if looks_like_separator(first.rstrip(b"\r")):
        return "mbox"
    if _HTML.search(sample[:4096]) and sample.lstrip()[:1] == b"<":
        return "html"
    if _looks_like_headers(sample):
        return "eml"
    if _HTML.search(sample[:2048]) and b"</" in sample:
        return "html"
    return "text"


def _is_binary(sample: bytes) -> bool:
    if not sample:
        return False
    if sample.count(b"\x00") > len(sample) // 100:
        return True
    control = sum(sample.count(bytes([c])) for c in range(32) if c not in (9, 10, 12, 13, 27))
    return control > len(sample) // 20


def _looks_like_headers(sample: bytes) -> bool:
    """True when the input starts with an RFC 822 header block (every line a header)."""
    names: set[bytes] = set()
    for line in sample.split(b"\n")[:200]:
        if not line.strip():
            break
        if line[:1] in (b" ", b"\t"):
            if not names:
                return False
            continue
        if not _HEADER_LINE.match(line) or len(line) > 998:  # RFC 5322 line limit
            return False
        names.add(line.split(b":", 1)[0].lower())
    return bool(names & _KNOWN)


def _decode_page(data: bytes, warnings: list[str]) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
            warnings.append("input is not valid UTF-8; read as Windows-1252")
        except UnicodeDecodeError:
            text = data.decode("utf-8", "replace")
            warnings.append("input is not valid UTF-8; undecodable bytes replaced")
        return text


def iter_messages(path: str, *, data: bytes | None = None, prescan: bool = False) -> Iterator[Message]:
    """Yield the messages of an input of any supported kind ("-" is stdin).

    `data` gives the bytes directly (path is then only the name used in messages). With
    `prescan`, mbox messages that cannot hold a claim come without body lines (see above).
    Raises InputError when nothing can be read, or when reading must stop (too large).
    """
    stream, name = _open(path, data)
    try:
        head = _read_head(stream, name)
        kind = detect(head)
        if not head.strip():
            raise InputError(f"{name} is empty")
        if head.startswith((b"\xff\xfe", b"\xfe\xff")):  # a UTF-16 draft saved on Windows
            whole = head + stream.read(MAX_SINGLE_MESSAGE)
            utf8 = whole.decode("utf-16", "replace").encode("utf-8")
            yield read_single(utf8, detect(utf8), name)
            return
        if kind == "binary":
            raise InputError(f"{name} is binary data, not a message or archive")
        if kind == "mbox":
            try:
                for first, raw in split_mbox(stream, head):
                    yield read_mbox_message(raw, first, name, prescan)
            except (OSError, EOFError, lzma.LZMAError, zlib.error) as e:
                raise InputError(f"cannot read {name}: {e}") from None
            return
        try:
            rest = stream.read(MAX_SINGLE_MESSAGE + 1 - len(head))
        except (OSError, EOFError, lzma.LZMAError, zlib.error) as e:
            raise InputError(f"cannot read {name}: {e}") from None
        whole = head + rest
        if len(whole) > MAX_SINGLE_MESSAGE:
            raise InputError(f"{name} is larger than {MAX_SINGLE_MESSAGE >> 20} MB and not an mbox")
        yield read_single(whole, kind, name)
    finally:
        stream.close()


def read_mbox_message(raw: bytes, first: int, name: str, prescan: bool = False) -> Message:
    """One message of an mbox (its first line is input line `first`); an oversize one
    comes back with its headers and a warning, lines over MAX_LINE_BYTES are cut. With
    `prescan`, only a message whose text passes the gate gets its body lines."""
    if isinstance(raw, Oversize):
        msg = message_from_bytes(raw.split(b"\n\n", 1)[0] + b"\n\n", first, source=name)
        msg.lines = []
        msg.warnings.append(f"message at line {first} is too large ({raw.size >> 20} MB); "
                            "skipped")
        return msg
    gate = might_have_claims if prescan else None
    if len(raw) <= MAX_LINE_BYTES:  # no line to cut
        read = read_plain(raw, first, name, gate)
        if read is not None:
            return read
    lines = byte_lines(raw)
    cut = 0
    if len(raw) > MAX_LINE_BYTES:
        for k, ln in enumerate(lines):
            if len(ln) > MAX_LINE_BYTES:
                lines[k] = ln[:MAX_LINE_BYTES]
                cut += 1
    msg = message_from_lines(lines, first, source=name, keep=gate)  # MIME parts: the walk
    if prescan and msg.lines:
        mark_passed(msg)
    if cut:
        msg.warnings.append(f"{cut} line(s) longer than {MAX_LINE_BYTES >> 20} MB cut")
    return msg


def read_plain(raw: bytes, first: int, name: str,
               gate: Callable[[str], bool] | None = None) -> Message | None:
    """A one-part text/plain message read on its bytes, the same `Message` the line reader
    (`claims.mime.message_from_lines`) makes of it, for less: the header block is cut at the
    first blank line and the body's transfer encoding decoded as one text. With a `gate`
    (the two-level read), the body lines are made only when it passes that text; the
    others keep their headers and warnings. None for what the line reader must read (MIME
    parts, a header block that runs into the body, too many lines, a reader error)."""
    try:
        return _read_plain(raw, first, name, gate)
    except Exception:  # noqa: BLE001 - the line reader reads it again and says what failed
        return None


def _read_plain(raw: bytes, first: int, name: str, gate: Callable[[str], bool] | None) -> Message | None:
    data = raw.replace(b"\r\n", b"\n") if b"\r" in raw else raw
    end = len(data) - (data[-1:] == b"\n")  # the line end of the last line (byte_lines drops it)
    if len(data) >= MAX_MESSAGE_LINES and _line_count(data, end) > MAX_MESSAGE_LINES:
        return None  # (a message of fewer bytes has fewer lines: most are never counted)
    headless = data[:1] == b"\n"  # no headers at all
    k = plain_header_end(data)
    headers_of: Callable[[frozenset[str] | None], list[tuple[str, str]] | None]
    if k >= 0:  # nearly every mail: lines of plain headers, then the blank line
        body = data[k + 2:end]
        headers_of = partial(plain_headers, data, k)
    else:
        k = -1 if headless else data.find(b"\n\n")
        if headless:
            block, body = b"", data[1:end]
        elif k < 0:
            block, body = data[:end], b""
        else:
            block, body = data[:k], data[k + 2:end]
        headers_of = partial(parse_header_block, block)
    headers = headers_of(SUMMARY_HEADERS if gate else None)
    if headers is None:
        return None
    mime, params = content_type(headers)
    if mime != "text/plain":
        return None
    msg = Message(source=name)
    for key, value in headers:
        set_header(msg, key, value)
    cte = next((v for n, v in headers if n == "content-transfer-encoding"), "")
    charset = params.get("charset")
    text = leaf_text(body, cte, charset, msg.warnings)
    if gate is not None:
        if not gate(text):
            return msg  # its summary and warnings; no body lines: nothing to extract
        mark_passed(msg)
        for key, value in headers_of(None) or ():  # the rest of its headers
            set_header(msg, key, value)
    count = _line_count(data, end)
    start = 1 if headless else count if k < 0 else data.count(b"\n", 0, k) + 2
    made = leaf_lines(text, cte, first + start, count - start)
    if made is None:
        made = decode_leaf(byte_lines(data), start, count, first, cte, charset, [])
    return fill_lines(msg, *made)


def _line_count(data: bytes, end: int) -> int:
    """As many lines as `claims.mime.byte_lines(data)` gives (`end`: where the last ends)."""
    return data.count(b"\n") + (end == len(data) and end > 0)


def read_single(data: bytes, kind: str, name: str) -> Message:
    """One message from the whole input of a single-message kind (eml, html, text)."""
    if kind == "eml":
        return message_from_bytes(data, 1, source=name)
    warnings: list[str] = []
    if kind == "html":
        from claims.html_archives import message_from_html

        msg = message_from_html(data, source=name)
    else:
        msg = message_from_text(_decode_page(data, warnings), source=name)
    msg.warnings[:0] = warnings
    return msg
