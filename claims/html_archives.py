"""Read a message from an HTML archive page (openwall, lore, spinics, marc, mail-archive).

Each archive wraps the mail in its own markup, but they fall into few shapes:
- the headers and the body in one `<pre>` (lists.openwall.net, marc.info, lore's
  `<pre id=b>`): its text reads like a copied page, so `message_from_text` does the rest;
- MHonArc pages (spinics.net, mail-archive.com): the body between `<!--X-Body-of-Message-->`
  comments and the headers in `<!--X-Subject: ...-->` comments, `<li><em>From</em>: ...`
  items or `msgHead` spans.
Body lines are numbered by the HTML source line they sit on (exact inside a `<pre>`).

bs4 finds that structure (the `<pre>` and the line it starts on, MHonArc's header items);
the text of a page with none of it is rendered by claims.html_text, as HTML mail is.
"""
from __future__ import annotations

import html as html_lib
import re

from bs4 import BeautifulSoup, Tag
from bs4.exceptions import ParserRejectedMarkup

from claims.clean import one_line
from claims.html_text import BLOCKS, MAX_TAGS, TAG, strip_tags, visible_text
from claims.message import (
    fill_lines,
    message_from_page_lines,
    message_from_text,
    set_header,
    strip_id,
)
from claims.mime import decode_text
from claims.model import Message

_MHONARC_BODY = re.compile(r"<!--X-Body-of-Message-->(.*?)<!--X-Body-of-Message-End-->", re.S)
_MHONARC_HEAD = re.compile(r"<!--X-(Subject|Date|Message-Id): (.*?) ?-->")
_HEADERS_IN_TEXT = re.compile(r"^(?:Date|From|Subject|Message-I[dD]):", re.M)
_PRE_END = re.compile(r"</pre\s*>", re.IGNORECASE)
_THREAD_OVERVIEW = re.compile(r"\s*\[thread overview\]\s*$")
_MARC_NOISE = re.compile(r"^\s*\[(?:Download|prev in list|next in list|Download RAW)\b.*\]\s*$")


def _soup(markup: str | bytes) -> BeautifulSoup:
    return BeautifulSoup(markup, "html.parser")


def message_from_html(data: bytes | str, source: str | None = None) -> Message:
    """Read the message shown on an archive page; falls back to the page's visible text,
    and when the HTML parser rejects the page (`<![CDA`), to the text between its tags."""
    tags = data.count(b"<") if isinstance(data, bytes) else data.count("<")
    if tags > MAX_TAGS:  # bs4 costs ~5 s per MB of tags; an archive page has a few hundred
        src = data if isinstance(data, str) else decode_text(data, _declared_charset(data), [])
        msg = message_from_text(strip_tags(src), source=source)
        msg.warnings.append(f"HTML with {tags} tags (limit {MAX_TAGS}); read the text "
                            "between tags")
        return msg
    try:
        return _message_from_html(data, source)
    except (ParserRejectedMarkup, AssertionError, RecursionError) as e:
        src = data if isinstance(data, str) else decode_text(data, _declared_charset(data), [])
        msg = message_from_text(strip_tags(src), source=source)
        msg.warnings.append(f"HTML the parser rejects ({_why(e)}); read the text between tags")
        return msg


def _why(e: BaseException) -> str:
    return one_line(str(e.args[0]) if e.args else type(e).__name__)[:80]


def _message_from_html(data: bytes | str, source: str | None) -> Message:
    warnings: list[str] = []
    if isinstance(data, bytes):
        # decoded here, once, by the total decoder: bs4's own guess may name a codec
        # (idna, a NUL in a meta charset) that raises
        src = decode_text(data, _declared_charset(data), warnings)
    else:
        src = data
    soup = _soup(src)
    m = _MHONARC_BODY.search(src)
    if m:
        msg = _mhonarc(soup, src, m, source)
    else:
        pre = _message_pre(soup)
        if pre is not None and pre.sourceline is not None:
            texts, numbers = _pre_lines(src, pre)
            msg = message_from_page_lines(texts, numbers, source)
            msg.lines = [ln for ln in msg.lines
                         if not (ln.depth == 0 and _MARC_NOISE.match(ln.text))]
            while msg.lines and not msg.lines[0].text.strip():
                del msg.lines[0]
        else:
            lines = visible_text(src, within="body").split("\n")  # the body's, else the page's
            msg = Message(source=source)
            fill_lines(msg, lines, _spread_numbers(len(lines), src.count("\n") + 1))
            msg.warnings.append("no message markup recognised; read the page's visible text")
    _tidy_headers(msg)
    if msg.subject is None and soup.title and soup.title.string:
        msg.subject = one_line(soup.title.string)
    msg.warnings[:0] = warnings
    return msg


_META_CHARSET = re.compile(rb"""<meta[^>]{0,200}?charset=["']?([A-Za-z0-9_.:-]{1,40})""", re.I)


def _declared_charset(data: bytes) -> str | None:
    """The charset a page's <meta> declares (None: UTF-8, else Windows-1252)."""
    m = _META_CHARSET.search(data, 0, 4096)
    return m.group(1).decode("ascii") if m else None


def _tidy_headers(msg: Message) -> None:
    """Undo archive decorations: lore's '[thread overview]', marc's 'a () b ! com'."""
    if msg.date:
        msg.date = _THREAD_OVERVIEW.sub("", msg.date).strip()
    raw_id = msg.headers.get("message-id", "")
    if " () " in raw_id:
        msg.message_id = strip_id(raw_id.replace(" () ", "@").replace(" ! ", "."))
    for name in ("from", "to", "cc"):
        value = getattr(msg, name if name != "from" else "from_")
        if value and " () " in value:
            value = value.replace(" () ", "@").replace(" ! ", ".")
            setattr(msg, name if name != "from" else "from_", value)


def _message_pre(soup: BeautifulSoup) -> Tag | None:
    """The `<pre>` holding the message: lore's id=b, else one with header lines, else the largest."""
    pre = soup.find("pre", id="b")
    if isinstance(pre, Tag):
        return pre
    pres = [p for p in soup.find_all("pre") if isinstance(p, Tag)]
    for p in pres:
        if _HEADERS_IN_TEXT.search(p.get_text()[:3000]):
            return p
    if pres:
        return max(pres, key=lambda p: len(p.get_text()))
    return None


def _pre_lines(src: str, pre: Tag) -> tuple[list[str], list[int]]:
    """Text lines of a `<pre>` and the source line each starts on (tags may span lines)."""
    line_starts = [0]
    pos = src.find("\n")
    while pos >= 0:
        line_starts.append(pos + 1)
        pos = src.find("\n", pos + 1)
    sourceline = pre.sourceline or 1
    offset = line_starts[min(sourceline, len(line_starts)) - 1] + (pre.sourcepos or 0)
    begin = src.find(">", offset) + 1
    close = _PRE_END.search(src, begin)
    end = close.start() if close else len(src)
    first = sourceline + src.count("\n", offset, begin)
    return region_lines(src, begin, end, first)


def region_lines(src: str, begin: int, end: int, first_line: int) -> tuple[list[str], list[int]]:
    """Visible text lines of src[begin:end] with their source line numbers.

    Newlines inside tags (`<a\nhref=...>`) move the source line but not the text line;
    `<br>` and closing block tags start a text line without a source newline.
    """
    texts: list[str] = []
    numbers: list[int] = []
    cur: list[str] = []
    line = first_line
    start_line = first_line

    def text(seg: str) -> None:
        nonlocal line, start_line, cur
        parts = seg.split("\n")
        for part in parts[:-1]:
            cur.append(part)
            texts.append(html_lib.unescape("".join(cur)))
            numbers.append(start_line)
            cur = []
            line += 1
            start_line = line
        cur.append(parts[-1])

    pos = begin
    for m in TAG.finditer(src, begin, end):
        text(src[pos:m.start()])
        name = (m.group(2) or "").lower()
        if name == "br" or (m.group(1) and name in BLOCKS and name != "pre"):
            texts.append(html_lib.unescape("".join(cur)))
            numbers.append(start_line)
            cur = []
            start_line = line
        line += m.group(0).count("\n")
        if not "".join(cur):
            start_line = line
        pos = m.end()
    text(src[pos:end])
    if "".join(cur).strip():
        texts.append(html_lib.unescape("".join(cur)))
        numbers.append(start_line)
    if texts and not texts[0].strip():  # the newline right after <pre> is not content
        texts, numbers = texts[1:], numbers[1:]
    return texts, numbers


def _mhonarc(soup: BeautifulSoup, text: str, m: re.Match[str], source: str | None) -> Message:
    msg = Message(source=source)
    for name, value in _MHONARC_HEAD.findall(text):
        set_header(msg, "message-id" if name == "Message-Id" else name.lower(),
                   html_lib.unescape(value))
    head = re.search(r"<!--X-Head-of-Message-->(.*?)<!--X-Head-of-Message-End-->", text, re.S)
    if head:
        for li in _soup(head.group(1)).find_all("li"):
            em = li.find("em")
            if em is None:
                continue
            name = em.get_text().strip().lower()
            value = li.get_text()[len(em.get_text()):].lstrip(":").strip()
            set_header(msg, name, value)
    for cls, name in (("subject", "subject"), ("sender", "from"), ("date", "date")):
        span = soup.find("span", class_=cls)
        if isinstance(span, Tag):
            set_header(msg, name, span.get_text().strip())
    first = text.count("\n", 0, m.start(1)) + 1
    texts, numbers = region_lines(text, m.start(1), m.end(1), first)
    while texts and not texts[0].strip():
        texts, numbers = texts[1:], numbers[1:]
    fill_lines(msg, texts, numbers)
    return msg


def _spread_numbers(count: int, span: int) -> list[int]:
    return [1 + (i * span) // max(count, 1) for i in range(count)]
