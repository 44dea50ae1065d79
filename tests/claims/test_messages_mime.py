"""Raw RFC 822 messages (.eml): MIME, charsets, transfer encodings, attachments, broken MIME.

The fixtures are built here with the standard `email` package (a real MIME writer), so each
test states the exact shape it reads.
"""
from __future__ import annotations

from email.message import EmailMessage
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from pathlib import Path

import pytest

from claims.sources import InputError, iter_messages

BODY = ("Hi,\n\nOn Mon, 2 Jan 2023, Jane Roe wrote:\n> before: 10.5 Gbps\n> after: 12.1 Gbps\n"
        "\nNice, 15% better.\n")


def headers(msg, subject: str = "[PATCH net-next] net: faster foo") -> None:
    msg["From"] = "John Doe <jd@example.org>"
    msg["To"] = "netdev@vger.kernel.org"
    msg["Subject"] = subject
    msg["Date"] = "Mon, 02 Jan 2023 10:00:00 +0000"
    msg["Message-ID"] = "<reply.1@example.org>"
    msg["In-Reply-To"] = "<orig.1@example.org>"
    msg["References"] = "<cover.0@example.org> <orig.1@example.org>"


def write(tmp_path: Path, msg, name: str = "m.eml") -> Path:
    p = tmp_path / name
    p.write_bytes(bytes(msg))
    return p


def only(path: Path):
    msgs = list(iter_messages(str(path)))
    assert len(msgs) == 1
    return msgs[0]


def check_body(m) -> None:
    texts = [ln.text for ln in m.lines]
    assert "before: 10.5 Gbps" in texts and "Nice, 15% better." in texts
    quoted = [ln for ln in m.lines if ln.text.startswith(("before", "after"))]
    assert all(ln.depth == 1 and ln.author == "Jane Roe" for ln in quoted)
    assert all(ln.message_id == "orig.1@example.org" for ln in quoted)


def test_plain_8bit_utf8_exact_line_numbers(tmp_path: Path) -> None:
    msg = EmailMessage()
    headers(msg)
    msg.set_content(BODY + "Grüße\n", cte="8bit")
    path = write(tmp_path, msg)
    m = only(path)
    assert (m.message_id, m.from_, m.in_reply_to) == ("reply.1@example.org",
                                                      "John Doe <jd@example.org>",
                                                      "orig.1@example.org")
    assert m.references == ["cover.0@example.org", "orig.1@example.org"]
    check_body(m)
    raw = path.read_bytes().decode().split("\n")
    for ln in m.lines:
        assert raw[ln.number - 1].lstrip("> ") == ln.text
    assert m.lines[-1].text == "Grüße" and not m.warnings


def test_quoted_printable_lines_point_at_their_encoded_line(tmp_path: Path) -> None:
    long = "result " + "x" * 90 + " 42 Mpps"  # longer than 76: QP soft-wraps it
    msg = EmailMessage()
    headers(msg)
    msg.set_content(BODY + long + "\nté\n", cte="quoted-printable")
    path = write(tmp_path, msg)
    m = only(path)
    check_body(m)
    raw = path.read_bytes().decode().split("\n")
    line = next(ln for ln in m.lines if ln.text == long)
    assert raw[line.number - 1].startswith("result xxx") and raw[line.number - 1].endswith("=")
    assert m.lines[-1].text == "té"


def test_base64_body_decodes(tmp_path: Path) -> None:
    msg = EmailMessage()
    headers(msg)
    msg.set_content(BODY, cte="base64")
    m = only(write(tmp_path, msg))
    check_body(m)
    assert all(ln.number > 8 for ln in m.lines)  # inside the body, best effort


def test_latin1_charset(tmp_path: Path) -> None:
    msg = MIMEText(BODY + "Müller: 3 µs\n", "plain", "iso-8859-1")
    headers(msg)
    m = only(write(tmp_path, msg))
    check_body(m)
    assert m.lines[-1].text == "Müller: 3 µs" and not m.warnings


def test_encoded_word_subject(tmp_path: Path) -> None:
    msg = EmailMessage()
    headers(msg, subject="Re: [PATCH] réseau: plus rapide")
    msg.set_content(BODY)
    m = only(write(tmp_path, msg))
    assert m.subject == "Re: [PATCH] réseau: plus rapide"


def test_alternative_with_html_only_falls_back_to_html_text(tmp_path: Path) -> None:
    msg = MIMEMultipart("alternative")
    headers(msg)
    msg.attach(MIMEText("<html><body><p>Hi,</p><p>before: 10.5 Gbps<br>after: 12.1 Gbps</p>"
                        "<blockquote><p>old: 1 Mpps</p></blockquote></body></html>", "html"))
    m = only(write(tmp_path, msg))
    texts = [ln.text.strip() for ln in m.lines]
    assert "before: 10.5 Gbps" in texts and "after: 12.1 Gbps" in texts
    old = next(ln for ln in m.lines if "old: 1 Mpps" in ln.text)
    assert old.depth == 1
    assert not any("<p>" in t for t in texts)


def test_alternative_prefers_plain(tmp_path: Path) -> None:
    msg = MIMEMultipart("alternative")
    headers(msg)
    msg.attach(MIMEText(BODY, "plain"))
    msg.attach(MIMEText("<p>HTML COPY</p>", "html"))
    m = only(write(tmp_path, msg))
    check_body(m)
    assert not any("HTML COPY" in ln.text for ln in m.lines)


def test_mixed_with_binary_attachment_skips_it_and_keeps_text_attachment(tmp_path: Path) -> None:
    msg = MIMEMultipart("mixed")
    headers(msg)
    msg.attach(MIMEText(BODY, "plain"))
    msg.attach(MIMEApplication(bytes(range(256)) * 40, Name="perf.data"))
    log = MIMEText("netperf output\n87380  16384  16384    10.00    9413.47\n", "plain")
    log.add_header("Content-Disposition", "attachment", filename="netperf.txt")
    msg.attach(log)
    path = write(tmp_path, msg)
    m = only(path)
    check_body(m)
    texts = [ln.text for ln in m.lines]
    assert "87380  16384  16384    10.00    9413.47" in texts
    raw = path.read_bytes().decode().split("\n")
    for ln in m.lines:  # 7bit parts: exact lines inside the multipart
        assert raw[ln.number - 1].lstrip("> ") == ln.text
    assert not m.warnings


def test_broken_mime_is_read_best_effort_with_a_warning(tmp_path: Path) -> None:
    raw = (b"From: a@b.c\nSubject: broken\nMIME-Version: 1.0\n"
           b"Content-Type: multipart/mixed; boundary=\"nowhere\"\n\n"
           b"--elsewhere\nContent-Type: text/plain\n\nbefore: 1 Gbps\nafter: 2 Gbps\n")
    path = tmp_path / "b.eml"
    path.write_bytes(raw)
    m = only(path)
    assert m.warnings and "boundary" in m.warnings[0]
    assert any(ln.text == "after: 2 Gbps" and ln.number == 10 for ln in m.lines)


def test_undeclared_latin1_bytes_warn_and_read(tmp_path: Path) -> None:
    path = tmp_path / "l.eml"
    path.write_bytes(b"From: a@b.c\nSubject: x\n\nM\xfcller: 3 Gbps\n")
    m = only(path)
    assert m.lines[0].text == "Müller: 3 Gbps" and m.warnings


def test_unknown_charset_and_encoding_warn(tmp_path: Path) -> None:
    path = tmp_path / "u.eml"
    path.write_bytes(b"From: a@b.c\nSubject: x\nContent-Type: text/plain; charset=klingon\n"
                     b"Content-Transfer-Encoding: x-weird\n\n10 Gbps\n")
    m = only(path)
    assert m.lines[0].text == "10 Gbps" and len(m.warnings) == 2


@pytest.mark.parametrize("content, reason", [
    (b"", "empty"),
    (b"   \n\n", "empty"),
    (bytes(range(256)) * 64, "binary"),
])
def test_unreadable_input_raises_input_error(tmp_path: Path, content: bytes, reason: str) -> None:
    path = tmp_path / "x"
    path.write_bytes(content)
    with pytest.raises(InputError, match=reason):
        list(iter_messages(str(path)))


def test_missing_file_and_directory_raise_input_error(tmp_path: Path) -> None:
    for p in (tmp_path / "nope.eml", tmp_path):
        with pytest.raises(InputError, match="cannot read"):
            list(iter_messages(str(p)))


def test_alternative_with_empty_plain_uses_the_html(tmp_path: Path) -> None:
    """Seen in the real archive: an empty text/plain next to the real text/html."""
    msg = MIMEMultipart("alternative")
    headers(msg)
    msg.attach(MIMEText("\n", "plain"))
    msg.attach(MIMEText("<p>before: 10.5 Gbps</p><p>after: 12.1 Gbps</p>", "html"))
    m = only(write(tmp_path, msg))
    assert [ln.text.strip() for ln in m.lines if ln.text.strip()] == ["before: 10.5 Gbps",
                                                                     "after: 12.1 Gbps"]
