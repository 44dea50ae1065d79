"""Where messages come from: one entry point that tells an mbox from an .eml from a page.

`iter_messages(path)` accepts what a maintainer has at hand — an mbox (also .xz/.gz,
streamed), a raw .eml, an HTML archive page, the text of an archive page copied from a
browser, a draft with no headers, or "-" for stdin — and yields `Message`s. What cannot be
read at all raises `InputError` with a one-line reason; what is partly readable comes back
with `Message.warnings`.
"""
from __future__ import annotations

import gzip
import io
import lzma
import re
import sys
import zlib
from collections.abc import Iterator
from typing import BinaryIO

from claims.mbox import looks_like_separator, split_mbox
from claims.message import message_from_text
from claims.mime import message_from_bytes
from claims.model import Message

HEAD_BYTES = 1 << 16
MAX_SINGLE_MESSAGE = 512 << 20  # an .eml/page bigger than this is not a message

_HEADER_LINE = re.compile(rb"^[!-9;-~]+:")
_KNOWN = {b"from", b"date", b"subject", b"message-id", b"received", b"return-path", b"to",
          b"mime-version", b"content-type", b"delivered-to", b"in-reply-to", b"references"}
_HTML = re.compile(rb"<(?:!doctype\s+html|html|head|body|pre|div|table)\b", re.IGNORECASE)


class InputError(Exception):
    """Nothing readable in the input; the message is one line meant for the user."""


class _Prefixed(io.RawIOBase):
    """A stream that first replays bytes already read (to sniff a format) then the rest."""

    def __init__(self, head: bytes, rest: BinaryIO, close_rest: bool) -> None:
        self._head = head
        self._rest = rest
        self._close_rest = close_rest

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
        return len(data)


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
    stream: BinaryIO = io.BufferedReader(_Prefixed(magic, raw, raw is not sys.stdin.buffer), 1 << 16)  # type: ignore[arg-type]
    if magic.startswith(b"\xfd7zXZ\x00"):
        stream = lzma.open(stream)  # type: ignore[assignment]
    elif magic.startswith(b"\x1f\x8b"):
        stream = gzip.open(stream)  # type: ignore[assignment]
    return stream, name


def _read_head(stream: BinaryIO, name: str) -> bytes:
    try:
        head = stream.read(HEAD_BYTES)
        if len(head) == HEAD_BYTES:
            head += stream.readline()
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


def iter_messages(path: str, *, data: bytes | None = None) -> Iterator[Message]:
    """Yield the messages of an input of any supported kind ("-" is stdin).

    `data` gives the bytes directly (path is then only the name used in messages).
    Raises InputError when nothing can be read.
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
                    yield message_from_bytes(raw, first, source=name)
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
