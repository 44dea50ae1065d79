"""A lean RFC 822 / MIME reader that keeps each body line's line number in the input.

Why not `email.message_from_bytes`: with `policy.default` it parses every header into
objects (slow over a 27k-message archive), and neither policy can say on which input line
a decoded body line sits. This reader works on the raw byte lines of one message, parses
headers as plain strings, walks multiparts by their boundaries and decodes only the text
parts. Lines of 7bit/8bit parts keep their exact line number; quoted-printable lines point
at the encoded line they start on; base64 and HTML parts are mapped proportionally
(best effort).
"""
from __future__ import annotations

import binascii
import codecs
import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from email.header import decode_header, make_header
from functools import cache, lru_cache
from types import MappingProxyType

from claims.clean import one_line
from claims.message import fill_lines, set_header
from claims.model import Message

_FOLD = re.compile(rb"\n[ \t]+")  # CRLF is normalised before parsing
_TRACE = {"received", "dkim-signature", "authentication-results", "received-spf",
          "delivered-to", "return-path", "thread-index", "accept-language", "content-language",
          # a list server's own headers, the same on every message of an archive
          "precedence", "sender", "errors-to", "dkim-filter", "ironport-sdr", "autocrypt"}
_PARAM = re.compile(r';\s*([\w.*-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;\s]*)')
_MAX_NESTING = 20
# What a message the two-level reader turns away keeps of its headers: what reading its
# body takes and what `verifier extract` shows of every message
# (claims.model.Extraction.to_dict); the others are decoded only for a message that passes.
SUMMARY_HEADERS = frozenset({"content-type", "content-transfer-encoding", "content-disposition",
                             "message-id", "subject", "from", "date", "in-reply-to"})
_TEXT_ATTACHMENTS = {"text/plain", "text/x-patch", "text/x-diff", "text/x-log", "text/csv"}


@dataclass
class Part:
    """Decoded text of one body part and the input line number of each of its lines."""

    texts: list[str]
    numbers: list[int]
    html: bool = False


@dataclass
class _Walk:
    warnings: list[str] = field(default_factory=list)
    plain: list[Part] = field(default_factory=list)
    html: list[Part] = field(default_factory=list)


def decode_header_value(raw: bytes) -> str:
    """Header bytes to one line of text: UTF-8 (or Latin-1 when not UTF-8), RFC 2047 words
    decoded (in any charset, bad bytes replaced), line breaks and controls removed."""
    try:
        value = raw.decode("utf-8")
    except UnicodeDecodeError:
        value = raw.decode("latin-1")
    if "=?" in value:
        try:
            value = str(make_header(decode_header(value)))
        except Exception:  # noqa: BLE001 - a charset the email package cannot use
            value = _decode_words(value)
    return one_line(value)


def _decode_words(value: str) -> str:
    """Encoded words decoded one by one with `decode_text` (total), else the raw text."""
    try:
        pieces = decode_header(value)
    except Exception:  # noqa: BLE001 - malformed encoded words: keep the raw text
        return value
    out = []
    for piece, cs in pieces:
        out.append(decode_text(piece, cs, []) if isinstance(piece, bytes) else piece)
    return "".join(out)


def parse_headers(lines: Sequence[bytes], start: int, end: int,
                  names: frozenset[str] | None = None) -> tuple[list[tuple[str, str]], int]:
    """Headers of the entity at lines[start:end] (no line endings) and its first body
    index; with `names`, only the headers of those names."""
    try:
        blank = lines.index(b"", start, end)  # type: ignore[attr-defined]
    except (ValueError, AttributeError):
        blank = end
    headers = parse_header_block(b"\n".join(lines[start:blank]), names)
    if headers is None:
        headers, body = _parse_headers_slow(lines, start, end)
        return [h for h in headers if names is None or h[0] in names], body
    return headers, min(blank + 1, end) if blank < end else end


def parse_header_block(block: bytes, names: frozenset[str] | None = None) -> list[tuple[str, str]] | None:
    """The headers of a header block (its lines up to the blank line, no line endings), or
    None when a line is neither a header nor a continuation (the body then starts there:
    `_parse_headers_slow` finds where). With `names`, only the headers of those names,
    in their order: the two-level reader decodes no more than a message's summary needs.
    Transport and filter headers (`_skipped`) are never read."""
    if _NAME_FIRST.match(block) and _NOT_A_HEADER_LINE.search(block) is None:
        return plain_headers(block, len(block), names)
    headers = _parse_block_lines(block)
    if headers is None or names is None:
        return headers
    return [h for h in headers if h[0] in names]


def plain_header_end(data: bytes) -> int:
    """Where the header block of message bytes ends, `data.find(b"\\n\\n")`, when every
    line before it is a `name:` line (printable ASCII, no space) or a continuation, as
    nearly every mail's are; else -1. One regex scan both checks the lines and finds the
    end (a search for the blank line alone stops at each of the block's hundred lines)."""
    if _NAME_FIRST.match(data) is None:
        return -1
    m = _NOT_A_HEADER_LINE.search(data)
    end = -1 if m is None else m.start()
    return end if data[end + 1:end + 2] == b"\n" else -1


def plain_headers(data: bytes, end: int, names: frozenset[str] | None = None) -> list[tuple[str, str]]:
    """`parse_header_block(data[:end], names)` of a block of plain lines (see
    `plain_header_end`), without copying it: the headers wanted are found by a regular
    expression, so the forty-odd trace and list headers of a list message are never split."""
    first, rest = _headers_named(names)
    found = rest.finditer(data, 0, end)
    m = first.match(data, 0, end)
    return [(m.group(1).decode("latin-1").lower(), _header_value(m.group(2)))
            for m in (found if m is None else itertools.chain((m,), found))]


def _header_value(raw: bytes) -> str:
    """A header's value (after its colon, continuation lines and all) as one line."""
    return decode_header_value((_FOLD.sub(b" ", raw) if b"\n" in raw else raw).strip())


def _parse_block_lines(block: bytes) -> list[tuple[str, str]] | None:
    """`parse_header_block` of any block, one line at a time."""
    if b"\n " in block or b"\n\t" in block:
        block = _FOLD.sub(b" ", block)
    headers: list[tuple[str, str]] = []
    for raw in block.split(b"\n"):
        name, colon, value = raw.partition(b":")
        if not colon or not name or b" " in name.strip() or name[:1] in (b" ", b"\t"):
            if not raw.strip():
                continue
            return None
        key = name.strip().decode("latin-1").lower()
        if _skipped(key):
            continue  # transport and filter headers: never read, costly in bulk
        headers.append((key, decode_header_value(value.strip())))
    return headers


def _skipped(key: str) -> bool:
    return key in _TRACE or key[:2] == "x-" or key[:4] == "arc-" or key[:5] == "list-"


# A header block of plain lines is a header whose name is printable ASCII without a space
# (read as it is by `_parse_block_lines`) followed by such headers and continuation lines.
_NAME = rb"[!-9;-~]+"
_NAME_FIRST = re.compile(_NAME + b":")
_NOT_A_HEADER_LINE = re.compile(rb"\n(?![ \t]|%s:)" % _NAME)


@cache
def _headers_named(names: frozenset[str] | None) -> tuple[re.Pattern[bytes], re.Pattern[bytes]]:
    """Patterns of (name, value with its continuation lines) of each header of one of
    `names` (None: each header `_skipped` does not drop) in a plain header block: one for
    its first line, one for the others, whose every match opens with a newline (so the
    search jumps from line to line in C, and tries a name only where a line opens with a
    letter one of them does)."""
    if names is None:
        skipped = b"|".join(re.escape(k.encode()) for k in sorted(_TRACE))
        name = rb"(?!x-|arc-|list-|(?:%s):)(%s)" % (skipped, _NAME)
    else:
        initials = re.escape(bytes(sorted({ord(k[0]) for k in names})))
        name = rb"(?=[%s])(%s)" % (initials, b"|".join(re.escape(k.encode()) for k in sorted(names)))
    header = name + rb":([^\n]*(?:\n[ \t][^\n]*)*)"
    return re.compile(header, re.I), re.compile(b"\n" + header, re.I)


def _parse_headers_slow(lines: Sequence[bytes], start: int, end: int) -> tuple[list[tuple[str, str]], int]:
    """Line by line, for a header block that runs into the body without a blank line."""
    headers: list[tuple[str, bytes]] = []
    i = start
    while i < end:
        line = lines[i]
        if not line.strip():
            i += 1
            break
        if line[:1] in (b" ", b"\t"):
            if headers:
                name, value = headers[-1]
                headers[-1] = (name, value + b" " + line.strip())
            i += 1
            continue
        colon = line.find(b":")
        if colon <= 0 or b" " in line[:colon].strip():
            break  # not a header: the body starts here (broken, but it happens)
        headers.append((line[:colon].strip().decode("latin-1").lower(), line[colon + 1:].strip()))
        i += 1
    return [(n, decode_header_value(v)) for n, v in headers], i


def content_type(headers: Sequence[tuple[str, str]]) -> tuple[str, Mapping[str, str]]:
    """('text/plain', {'charset': 'utf-8'}) from a Content-Type header (default text/plain)."""
    return _content_type(next((v for n, v in headers if n == "content-type"), ""))


@lru_cache(maxsize=32)
def _content_type(value: str) -> tuple[str, Mapping[str, str]]:
    """Kept by value: most mails of a list share a few Content-Type values (the parameters
    come read-only, being shared)."""
    mime = value.split(";", 1)[0].strip().lower() or "text/plain"
    if "/" not in mime:
        mime = "text/plain"
    return mime, MappingProxyType({k.lower(): v.strip('"') for k, v in _PARAM.findall(value)})


def _header(headers: Sequence[tuple[str, str]], name: str) -> str:
    return next((v for n, v in headers if n == name), "")


def decode_text(data: bytes, charset: str | None, warnings: list[str]) -> str:
    """Bytes to text in the part's charset; bad bytes replaced with a warning, never raised.

    Total: any charset name a mail gives (NUL bytes, `idna`, `punycode`, bytes-to-bytes
    codecs such as `zlib`) and any bytes end in text, at worst UTF-8 with U+FFFD."""
    cs = _charset(charset, warnings)
    try:
        return data.decode(cs)
    except UnicodeDecodeError:
        if charset is None or cs == "utf-8":
            try:  # undeclared 8-bit text is most often Latin-1
                text = data.decode("cp1252")
                warnings.append("body is not valid UTF-8; read as Windows-1252")
                return text
            except UnicodeDecodeError:
                pass
    except Exception:  # noqa: BLE001 - codecs (idna, punycode, utf-16) fail in their own ways
        pass
    warnings.append(f"body is not valid {cs}; undecodable bytes replaced")
    try:
        return data.decode(cs, "replace")
    except Exception:  # noqa: BLE001 - idna and punycode have no 'replace' handler
        return data.decode("utf-8", "replace")


# Codecs that are not a mail charset although Python knows them: they turn bytes into
# other bytes, or read text as code (escapes) or as host names.
_NOT_CHARSETS = {"idna", "punycode", "raw-unicode-escape", "unicode-escape", "undefined",
                 "mbcs", "oem", "charmap"}


def _charset(charset: str | None, warnings: list[str]) -> str:
    """The codec name to decode a part with: the declared charset when it is a real text
    charset, else UTF-8 (with a warning)."""
    cs = (charset or "utf-8").strip().strip('"').lower()
    if cs in ("", "us-ascii", "ascii", "unknown-8bit", "x-unknown", "utf8", "default"):
        return "utf-8"
    shown = one_line(cs)[:40]
    try:
        info = codecs.lookup(cs)
    except (LookupError, ValueError, TypeError):
        warnings.append(f"unknown charset {shown!r}; read as UTF-8")
        return "utf-8"
    if not getattr(info, "_is_text_encoding", True) or info.name in _NOT_CHARSETS:
        warnings.append(f"charset {shown!r} is not a text charset; read as UTF-8")
        return "utf-8"
    return cs


def _spread(count: int, first: int, span: int) -> list[int]:
    """Line numbers for `count` decoded lines that came from `span` encoded lines."""
    if count <= 0:
        return []
    span = max(span, 1)
    return [first + (i * span) // count for i in range(count)]


def _split(text: str) -> list[str]:
    parts = text.split("\n")
    if parts and parts[-1] == "":
        parts.pop()
    return [p[:-1] if p.endswith("\r") else p for p in parts]


def decode_leaf(lines: Sequence[bytes], start: int, end: int, first_no: int,
                cte: str, charset: str | None, warnings: list[str]) -> tuple[list[str], list[int]]:
    """Decode the body lines[start:end] of a text part; numbers are input line numbers."""
    cte = cte.strip().lower()
    if cte == "quoted-printable":
        logical, begins = _qp_logical(lines, start, end)
        texts = decode_text(_unqp(logical, warnings), charset, warnings).split("\n")
        if len(texts) == len(begins):
            return texts, [first_no + b for b in begins]
        return texts, _spread(len(texts), first_no + start, end - start)
    if cte == "base64":
        data = _unbase64(b"\n".join(lines[start:end]), warnings)
        if data is None:
            return [], []
        texts = _split(decode_text(data, charset, warnings))
        return texts, _spread(len(texts), first_no + start, end - start)
    _check_8bit(cte, warnings)
    data = b"\n".join(lines[start:end])
    texts = decode_text(data, charset, warnings).split("\n")
    if len(texts) == end - start:
        return texts, list(range(first_no + start, first_no + end))
    return texts, _spread(len(texts), first_no + start, end - start)


def leaf_text(body: bytes, cte: str, charset: str | None, warnings: list[str]) -> str:
    """The decoded text of a text part's body bytes (LF line ends, the last one dropped):
    `"\\n".join` of what `decode_leaf` gives for its lines, with the same warnings, but
    without a list of lines: the two-level reader's gate reads only this."""
    cte = cte.strip().lower()
    if cte == "quoted-printable":
        lines = body.split(b"\n")
        logical, _ = _qp_logical(lines, 0, len(lines))
        return decode_text(_unqp(logical, warnings), charset, warnings)
    if cte == "base64":
        data = _unbase64(body, warnings)
        if data is None:
            return ""
        text = decode_text(data, charset, warnings)
        if "\r" in text:
            return "\n".join(_split(text))
        return text[:-1] if text[-1:] == "\n" else text
    _check_8bit(cte, warnings)
    return decode_text(body, charset, warnings)


def leaf_lines(text: str, cte: str, first: int, count: int) -> tuple[list[str], list[int]] | None:
    """The lines and line numbers `decode_leaf` gives for a part whose `leaf_text` is the
    non-empty `text` and whose body is the `count` input lines from line `first`, made
    from that text without decoding it again; None for quoted-printable, whose numbers
    follow its soft line breaks (decode_leaf reads them)."""
    cte = cte.strip().lower()
    if cte == "quoted-printable" or not text:
        return None
    texts = text.split("\n")
    if cte != "base64" and len(texts) == count:
        return texts, list(range(first, first + count))
    return texts, _spread(len(texts), first, count)


def _check_8bit(cte: str, warnings: list[str]) -> None:
    if cte not in ("", "7bit", "8bit", "binary"):
        warnings.append(f"unknown transfer encoding {cte!r}; read as 8bit")


def _qp_logical(lines: Sequence[bytes], start: int, end: int) -> tuple[list[bytes], list[int]]:
    """Quoted-printable lines joined at their soft breaks, and the index each starts at."""
    logical: list[bytes] = []
    begins: list[int] = []
    buf: list[bytes] = []
    begin = start
    for k in range(start, end):
        raw = lines[k].rstrip()
        if not buf:
            begin = k
        if raw.endswith(b"="):
            buf.append(raw[:-1])
            continue
        buf.append(raw)
        logical.append(b"".join(buf))
        begins.append(begin)
        buf = []
    if buf:
        logical.append(b"".join(buf))
        begins.append(begin)
    return logical, begins


def _unqp(logical: list[bytes], warnings: list[str]) -> bytes:
    try:
        return b"\n".join(binascii.a2b_qp(ln) for ln in logical)
    except (binascii.Error, ValueError):
        warnings.append("broken quoted-printable; read as is")
        return b"\n".join(logical)


def _unbase64(encoded: bytes, warnings: list[str]) -> bytes | None:
    """A base64 body (line breaks and junk ignored), or None with a warning when broken.

    Nearly every body is padded as it should be and decoded as it is; for the others,
    the line breaks go with `bytes.translate`, and the regex runs only on a body with
    other bytes left: nearly every body has none, and the regex's copy of a large
    attachment costs more than the decoding."""
    if encoded.rstrip(b"=\n").find(b"=") < 0:  # padded at the end only, as mailers write it
        try:  # skips line breaks and junk itself: the same bytes unless it raises
            return binascii.a2b_base64(encoded)
        except (binascii.Error, ValueError):
            pass  # short of padding, or one data character too many: mended below
    raw = encoded.translate(None, b"\n")
    if raw.translate(None, _BASE64_ALPHABET):
        raw = _NOT_BASE64.sub(b"", raw)
    raw = raw.rstrip(b"=")
    raw = raw[: len(raw) - (len(raw) % 4 == 1)]  # a lone trailing char cannot decode
    try:
        return binascii.a2b_base64(raw + b"=" * (-len(raw) % 4))
    except (binascii.Error, ValueError):
        warnings.append("broken base64 part skipped")
        return None


_NOT_BASE64 = re.compile(rb"[^A-Za-z0-9+/=]")
_BASE64_ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="


def _walk(lines: Sequence[bytes], start: int, end: int, first_no: int,
          headers: list[tuple[str, str]], body: int, walk: _Walk, nesting: int) -> None:
    """Collect the text parts of one entity (headers already parsed, body at lines[body:end])."""
    mime, params = content_type(headers)
    if mime.startswith("multipart/"):
        if nesting >= _MAX_NESTING:
            walk.warnings.append("MIME nesting too deep; inner parts skipped")
            return
        boundary = params.get("boundary")
        if not boundary:
            walk.warnings.append("multipart without boundary; body read as text")
            mime = "text/plain"
        else:
            parts = _split_parts(lines, body, end, boundary.encode("utf-8", "replace"))
            if parts is None:
                walk.warnings.append("MIME boundary not found; body read as text")
                mime = "text/plain"
            else:
                target = _Walk(warnings=walk.warnings) if mime == "multipart/alternative" else walk
                for ps, pe in parts:
                    ph, pb = parse_headers(lines, ps, pe)
                    _walk(lines, ps, pe, first_no, ph, pb, target, nesting + 1)
                if target is not walk:  # alternative: the plain text unless it is empty
                    if any(t.strip() for p in target.plain for t in p.texts) or not target.html:
                        walk.plain.extend(target.plain)
                    else:
                        walk.plain.extend(html_part_text(p) for p in target.html)
                return
    if mime == "message/rfc822" and nesting < _MAX_NESTING:
        ih, ib = parse_headers(lines, body, end)
        _walk(lines, body, end, first_no, ih, ib, walk, nesting + 1)
        return
    disposition = _header(headers, "content-disposition").lower()
    attached = disposition.startswith("attachment")
    if mime == "text/html" and not attached:
        texts, numbers = decode_leaf(lines, body, end, first_no,
                                     _header(headers, "content-transfer-encoding"),
                                     params.get("charset"), walk.warnings)
        walk.html.append(Part(texts, numbers, html=True))
        return
    if mime in _TEXT_ATTACHMENTS or (mime.startswith("text/") and not attached):
        texts, numbers = decode_leaf(lines, body, end, first_no,
                                     _header(headers, "content-transfer-encoding"),
                                     params.get("charset"), walk.warnings)
        walk.plain.append(Part(texts, numbers))


def html_part_text(part: Part) -> Part:
    """An HTML part as text lines (the HTML parser is imported only when a mail has no
    plain text)."""
    from claims.html_text import html_part_text as convert

    return convert(part)


def _split_parts(lines: Sequence[bytes], start: int, end: int,
                 boundary: bytes) -> list[tuple[int, int]] | None:
    """[(first, end)] line ranges of the parts between `--boundary` lines."""
    dash = b"--" + boundary
    parts: list[tuple[int, int]] = []
    begin: int | None = None
    for k in range(start, end):
        line = lines[k]
        if line[:2] != b"--" or not line.startswith(dash):
            continue
        rest = line[len(dash):].rstrip()
        if rest not in (b"", b"--"):
            continue
        if begin is not None:
            parts.append((begin, k))
        if rest == b"--":
            return parts
        begin = k + 1
    if begin is None:
        return None
    parts.append((begin, end))
    return parts


# A message larger than this is not a mail a person wrote a claim in (a 50 MB mail took 14 s
# and 785 MB): its headers are read, its body skipped with a warning.  The largest of the
# real archive's 27,573 messages has 16,016 lines and 384 KB.
MAX_MESSAGE_BYTES = 4 << 20
MAX_MESSAGE_LINES = 50_000


def message_from_bytes(data: bytes, first_no: int = 1, source: str | None = None) -> Message:
    """Read one RFC 822 message; its first line is line `first_no` of the input."""
    if len(data) > MAX_MESSAGE_BYTES:
        head = data[: data.find(b"\n\n", 0, 1 << 20) + 1 or 1 << 16]
        msg = _read(head.split(b"\n"), first_no, source, body=False)
        msg.warnings.append(f"message too large ({len(data) / 2**20:.1f} MB, limit "
                            f"{MAX_MESSAGE_BYTES >> 20} MB): body skipped")
        return msg
    return message_from_lines(byte_lines(data), first_no, source)


def byte_lines(data: bytes) -> list[bytes]:
    """A message's lines without their endings (CR LF or LF), no empty last line."""
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n")
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


def message_from_lines(lines: list[bytes], first_no: int = 1, source: str | None = None,
                       keep: Callable[[str], bool] | None = None) -> Message:
    """Read one RFC 822 message given as byte lines without their line endings.

    Never raises: a message too large is read for its headers only, one this reader cannot
    follow comes back with what it could read and a warning saying so. With `keep`, the
    decoded text of the parts is passed to it first, and the body lines are built only
    when it says yes (the two-level reader's pre-scan)."""
    if len(lines) > MAX_MESSAGE_LINES:
        msg = _read(lines, first_no, source, body=False)
        msg.warnings.append(f"message too large ({len(lines)} lines, limit "
                            f"{MAX_MESSAGE_LINES}): body skipped")
        return msg
    return _read(lines, first_no, source, keep=keep)


def _read(lines: list[bytes], first_no: int, source: str | None, body: bool = True,
          keep: Callable[[str], bool] | None = None) -> Message:
    msg = Message(source=source)
    try:
        end = min(len(lines), len(lines) if body else 4096)
        headers, start = parse_headers(lines, 0, end, None if keep is None else SUMMARY_HEADERS)
        for name, value in headers:
            set_header(msg, name, value)
        if not body:
            return msg
        walk = _Walk(warnings=msg.warnings)
        _walk(lines, 0, len(lines), first_no, headers, start, walk, 0)
        if walk.plain:
            parts = walk.plain
        elif walk.html:
            parts = [html_part_text(p) for p in walk.html]
        else:
            parts = []
            if start < len(lines):
                msg.warnings.append("no text part in the message")
        texts: list[str] = []
        numbers: list[int] = []
        for p in parts:
            texts.extend(p.texts)
            numbers.extend(p.numbers)
        if keep is not None:
            if not keep("\n".join(texts)):
                return msg
            for name, value in parse_headers(lines, 0, end)[0]:  # the rest of its headers
                set_header(msg, name, value)
        return fill_lines(msg, texts, numbers)
    except RecursionError:
        msg.lines = []
        msg.warnings.append("message structure too deep to read: body skipped")
        return msg
    except Exception as e:  # noqa: BLE001 - one unreadable mail must not stop an mbox
        msg.lines = []
        msg.warnings.append(f"{UNREADABLE}: {type(e).__name__}: {one_line(str(e))[:120]}")
        return msg


# The start of the warning a message gets when this reader failed on it (a bug to fix:
# bench/fuzz.py counts these as failures).
UNREADABLE = "message could not be read (reader error)"
