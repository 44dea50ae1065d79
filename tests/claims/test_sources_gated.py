"""The mbox reader on bytes (claims.sources.read_plain) builds the same message as the line
reader (claims.mime.message_from_lines), and so does the two-level read
(`iter_messages(prescan=True)`) for a message the gate passes: every field and every
line equal; for one it turns away, the same summary headers (`SUMMARY_HEADERS`: what the
extract output shows) and warnings, with no body lines.

Checked on real inputs: messages of the shared archive (each kind of body it holds), the
labelled corpus's texts (the training half: the validation half is never opened) sent as
7bit, 8bit Latin-1, base64, quoted-printable and inside MIME multiparts, and those
messages broken (headers cut, garbage bytes, a lost blank line, CR LF line ends); also the
decoded text the gate reads is exactly the text of the lines the full reader decodes.
"""
from __future__ import annotations

import base64
import itertools
import json
import lzma
import quopri
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

import claims.sources as sources
from claims.extract import extract_message
from claims.mbox import split_mbox
from claims.message import set_header
from claims.mime import SUMMARY_HEADERS, byte_lines, decode_leaf, leaf_text, message_from_bytes
from claims.model import Message
from claims.prescan import message_might_have_claims
from tests.paths import ROOT, SHARED

ARCHIVE = SHARED / "data" / "virtualization-list.mbox.xz"
_VALIDATION = re.compile(r"d1[0-5]\d")  # d102, d105, ..., d159 (multiples of 3) are never read


def _training_texts() -> list[Path]:
    out = []
    for p in sorted((SHARED / "corpus").glob("*.txt")):
        if _VALIDATION.fullmatch(p.stem) and int(p.stem[1:]) % 3 == 0:
            continue
        out.append(p)
    return out


TEXTS = _training_texts()
_CONTROL_WARNING = "control characters in the body replaced"


def passed(msg: Message) -> bool:
    return message_might_have_claims(msg, "")


def assert_same(raw: bytes, first: int = 2) -> bool:
    """The reads of one mbox message on its bytes (`read_plain`) against the line reader
    (`message_from_bytes`): equal, and the two-level read equal but for the body lines of
    a message the gate turns away; True when it passed."""
    full = message_from_bytes(raw, first, source="t.mbox")
    assert sources.read_mbox_message(raw, first, "t.mbox") == full
    two = sources.read_mbox_message(raw, first, "t.mbox", prescan=True)
    if passed(two):
        assert two == full
        return True
    assert two.lines == []
    # turned away: no body lines (and so no warning about their characters), and only the
    # headers its summary shows, which is all `verifier extract` prints of it
    assert two == summary_of(full)
    assert extract_message(two).to_dict() == extract_message(summary_of(full)).to_dict()
    return False


def summary_of(full: Message) -> Message:
    """What the two-level read keeps of a message it turns away, read in full."""
    want = Message(source=full.source,
                   warnings=[w for w in full.warnings if w != _CONTROL_WARNING])
    for key, value in full.headers.items():
        if key in SUMMARY_HEADERS:
            set_header(want, key, value)
    return want


def archive_sample(per_kind: int = 60, scan: int = 4000) -> list[tuple[int, bytes]]:
    """Up to `per_kind` messages of each body kind (transfer encoding, multipart) among
    the first `scan` messages of the shared archive."""
    kinds: dict[bytes, list[tuple[int, bytes]]] = {}
    with lzma.open(ARCHIVE) as f:
        for first, raw in itertools.islice(split_mbox(f), scan):  # type: ignore[arg-type]
            head = raw.split(b"\n\n", 1)[0].lower()
            m = re.search(rb"^content-(?:transfer-encoding|type):\s*(multipart|[\w-]+)", head, re.M)
            kind = m.group(1) if m else b""
            if b"multipart" in head:
                kind = b"multipart"
            got = kinds.setdefault(kind, [])
            if len(got) < per_kind:
                got.append((first, raw))
    return [x for got in kinds.values() for x in got]


def _mail(body: bytes, cte: str, ctype: str = "text/plain; charset=utf-8") -> bytes:
    head = (f"From: A <a@example.org>\nSubject: t\nMessage-ID: <m@x>\nMIME-Version: 1.0\n"
            f"Content-Type: {ctype}\nContent-Transfer-Encoding: {cte}\n\n")
    return head.encode() + body


def corpus_messages(text: str) -> list[bytes]:
    """One corpus text as the mails a list carries: each transfer encoding, Latin-1, and
    a multipart with an attachment."""
    raw = text.encode("utf-8")
    latin = text.encode("latin-1", "replace")
    part = (b"--b1\nContent-Type: text/plain; charset=utf-8\n\n" + raw +
            b"\n--b1\nContent-Type: application/octet-stream\nContent-Transfer-Encoding: base64\n\n"
            + base64.encodebytes(b"\x00\x01" * 40) + b"--b1--\n")
    return [
        _mail(raw, "7bit"),
        _mail(latin, "8bit", "text/plain; charset=iso-8859-1"),
        _mail(latin, "8bit", "text/plain"),  # undeclared 8-bit text
        _mail(base64.encodebytes(raw), "base64"),
        _mail(base64.encodebytes(raw.replace(b"\n", b"\r\n")), "base64"),
        _mail(quopri.encodestring(raw), "quoted-printable"),
        _mail(part, "7bit", 'multipart/mixed; boundary="b1"'),
    ]


def broken(raw: bytes, rng: random.Random) -> bytes:
    """The message damaged in one of the ways real mail is."""
    how = rng.randrange(6)
    cut = rng.randrange(len(raw) + 1)
    if how == 0:
        return raw[:cut]  # cut off anywhere, in the headers too
    if how == 1:
        return raw[:cut] + bytes(rng.randrange(256) for _ in range(40)) + raw[cut:]
    if how == 2:
        return raw.replace(b"\n\n", b"\n", 1)  # the header block runs into the body
    if how == 3:
        return raw.replace(b"\n", b"\r\n")
    if how == 4:
        return b"\n" + raw  # no headers at all
    return raw.replace(b"Content-Transfer-Encoding: ", b"Content-Transfer-Encoding: x-", 1)


@pytest.mark.skipif(not ARCHIVE.exists(), reason="shared archive not present")
def test_archive_messages_read_the_same_in_two_levels() -> None:
    sample = archive_sample()
    assert len(sample) > 150
    results = [assert_same(raw, first) for first, raw in sample]
    assert any(results) and not all(results)  # both paths of the reader are taken


@pytest.mark.skipif(not TEXTS, reason="shared corpus not present")
def test_corpus_texts_in_every_encoding_read_the_same() -> None:
    results = [assert_same(raw) for p in TEXTS
               for raw in corpus_messages(p.read_text(encoding="utf-8", errors="replace"))]
    assert sum(results) > len(results) // 2  # the corpus is mostly claims: most pass


@pytest.mark.skipif(not (TEXTS and ARCHIVE.exists()), reason="shared material not present")
def test_broken_messages_read_the_same() -> None:
    rng = random.Random(16)
    sample = [raw for _, raw in archive_sample(per_kind=15)]
    sample += [m for p in TEXTS[::4] for m in corpus_messages(p.read_text(encoding="utf-8"))]
    for raw in sample:
        assert_same(broken(raw, rng))


def test_odd_messages_read_the_same() -> None:
    for raw in [b"", b"\n", b"\n\n", b"Subject: x", b"Subject: x\n", b"Subject: x\n\n",
                b"Subject: x\n\n\n", b"Subject: x\n\nbefore 10 Gbps, after 12 Gbps\n\n\n",
                b"no header here\n\n10 -> 12 Gbps", b"Subject: x\n y\n\n10 -> 12 Gbps",
                b"Subject: =?utf-8?q?caf=C3=A9?=\n\n10 -> 12 Gbps\r\n\r\n",
                _mail(b"10 -> 12 Gbps\n", "7bit", "text/plain; charset=zlib"),
                _mail(b"10 -> 12 Gbps\n", "7bit", "text/plain; charset=no-such-set"),
                _mail(b"!!!not base64 at all\n", "base64"),
                _mail(b"MTAgLT4gMTIgR2Jwcw=\n", "base64"),  # padding cut
                _mail(b"10 =\n-> 12 Gbps=3D=\n", "quoted-printable"),
                _mail(b"\x1b[31m10 -> 12 Gbps\x1b[0m\n", "8bit"),
                _mail("10 → 12 Gbps\n".encode("utf-16"), "8bit", "text/plain; charset=utf-16"),
                _mail(b"10 -> 12 Gbps\n\xff\xfe\n", "8bit", "text/plain; charset=utf-8")]:
        assert_same(raw)


def test_the_gate_reads_the_text_of_the_lines() -> None:
    """`leaf_text` is the text `decode_leaf`'s lines join to, with the same warnings."""
    bodies = [b"", b"\n", b"a\n\nb", b"a \nb=\nc", b"=C3=A9t=C3=A9 =\n10%\n", b"\xe9t\xe9\n",
              base64.encodebytes(b"x\r\ny\r\n\r\n"), base64.encodebytes(b"x\ny\r"), b"@@@",
              base64.encodebytes(b"x\ny\n\n"),
              base64.encodebytes("été".encode("latin-1"))]
    for body, cte, charset in itertools.product(
            bodies, ["7bit", "base64", "quoted-printable", "x-uuencode"], [None, "latin-1", "utf-8"]):
        lines = byte_lines(body + b"\n")
        want_warnings: list[str] = []
        texts, _ = decode_leaf(lines, 0, len(lines), 1, cte, charset, want_warnings)
        got_warnings: list[str] = []
        text = leaf_text(body, cte, charset, got_warnings)
        assert (text, got_warnings) == ("\n".join(texts), want_warnings), (body, cte, charset)


def test_a_mbox_of_broken_messages_is_read_without_a_traceback(tmp_path: Path) -> None:
    rng = random.Random(3)
    messages = [broken(_mail(b"before 10 Gbps\nafter 12 Gbps\n", cte), rng)
                for cte in ("7bit", "base64", "quoted-printable") for _ in range(5)]
    messages.append(bytes(rng.randrange(256) for _ in range(3000)).replace(b"\nFrom ", b"\n"))
    data = b"".join(b"From a@example.org Mon Jan  2 10:00:00 2023\n" + m + b"\n" for m in messages)
    path = tmp_path / "broken.mbox"
    path.write_bytes(data)
    out = subprocess.run([sys.executable, "-m", "verifier", "extract", "--format", "json", str(path)],
                         capture_output=True, text=True, cwd=ROOT, check=False, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    assert len(json.loads(out.stdout)["messages"]) == len(messages)


@pytest.mark.slow
@pytest.mark.skipif(not ARCHIVE.exists(), reason="shared archive not present")
def test_whole_archive_reads_the_same_in_two_levels() -> None:
    with lzma.open(ARCHIVE) as f:
        results = [assert_same(raw, first) for first, raw in split_mbox(f)]  # type: ignore[arg-type]
    assert len(results) > 27000 and 0 < sum(results) < len(results) // 2
