"""The message model's body reader: quote depth, attributions, signatures, footers, banners.

Every input kind (mbox, .eml, archive-page text, HTML page, a draft on stdin) ends up here
as a list of decoded body lines, each with its line number in the original input.
`fill_lines` turns them into `Line`s the extractor can trust: the quote markers removed
and counted, quoted text credited to the person an attribution line names, and the parts
that never carry a claim of the author (signatures, list footers) left out.

`message_from_text` reads text as a person sees it: an archive page copied from a browser
(list banner, navigation, `Date:`/`From:` lines, body, list footer) or a draft with no
headers at all.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from claims.clean import clean_line, has_control, one_line
from claims.model import Line, Message

_QUOTE = re.compile(r"^((?:[ \t]?>)+)[ ]?")

# Header names a person copying an archive page sees above the body.
_TEXT_HEADER = re.compile(
    r"^(date|from|to|cc|bcc|subject|message-id|in-reply-to|references|reply-to|sender|"
    r"list-id|user-agent|organization|x-mailer|mime-version|content-type|"
    r"content-transfer-encoding|list):[ \t]*(.*)$",
    re.IGNORECASE,
)
_KEY_HEADERS = {"date", "from", "subject", "message-id"}
_MAX_HEADER_VALUE = 300  # a "From: ..." line longer than this is prose, not a header
_HEADER_SEARCH_LINES = 40  # banners above the headers are short

# Attribution lines: "On <date>, X wrote:", "X <a@b> writes:", "* X <a@b> [date]:".
_VERB = r"(?:wrote|writes|said|schrieb|a écrit|escribió|写道)\s*[:：]\s*$"
_ATTR_ON = re.compile(r"^\s*(?:On|Am|Le|El|在)\s+(.+?)\s*" + _VERB, re.IGNORECASE)
_ATTR_WRITES = re.compile(r"^\s*([^\s>].{0,100}?)\s+" + _VERB)
_ATTR_VERB_FIRST = re.compile(  # "Am 06.05.19 um 14:22 schrieb Gerd Hoffmann:", "Den ..., skrev X:"
    r"^\s*(?:Am|Den)\s+.+?\s(?:schrieb|skrev)\s+(.+?)\s*[:：]\s*$")
_ATTR_STAR = re.compile(r"^\s*\*\s+(.+?)\s*(?:<[^>]*>|\([^)]*@[^)]*\))\s*\[[^\]]*\]\s*:\s*$")
_ATTR_QUOTING = re.compile(r"^\s*Quoting\s+(.+?)\s*(?:\([^)]*\))?\s*:\s*$")
_NOT_NAME = {"i", "what", "that", "which", "as", "have", "has", "had", "we", "you", "it", "is"}
_ADDR = re.compile(r"<[^>]*>|\([^)]*@[^)]*\)|\[[^\]]*@[^\]]*\]|\S+@\S+")

# List footers and archive trailers: where one starts, the rest at that depth is dropped.
_FOOTER_START = re.compile(
    r"^\s*(?:To unsubscribe from this list|Powered by blists|"
    r"next prev parent reply other threads|Thread overview:)",
    re.IGNORECASE,
)
_UNDERSCORES = re.compile(r"^_{20,}\s*$")
_SPECIAL_FIRST = {"-", "_", "T", "t", "P", "p", "n", "N"}
_COLONS = {":", "："}
_FOOTER_FIRST = {"_", "T", "t", "P", "p", "n", "N"}
_ORIGINAL_MESSAGE = re.compile(r"^-{3,}\s*Original Message\s*-{3,}$", re.IGNORECASE)
_SPECIAL_LAST = {":", "：", " ", "\t"}
_ON = ("On ", "Am ", "Le ", "Den ", "在")
_SEPARATORS = {"-", "--", "-- "}


def quote_depth(raw: str) -> tuple[int, str]:
    """Quote depth of a line and its text with the markers removed ('> > x' -> 2, 'x')."""
    if not raw or raw[0] not in "> \t":
        return 0, raw
    if raw[0] == ">":  # most quoted lines: '>' markers, then no '>' after a space or TAB
        text = raw.lstrip(">")
        if text[1:2] != ">":
            return len(raw) - len(text), text[1:] if text[:1] == " " else text
    m = _QUOTE.match(raw)
    if not m:
        return 0, raw
    return m.group(1).count(">"), raw[m.end():]


_NAME_ADDR = re.compile(r'^\s*"?([^"<]*?)"?\s*<[^>]*>\s*$')
_ADDR_NAME = re.compile(r"^\s*\S+@\S+\s*\(([^)]*)\)\s*$")


def person(text: str) -> str | None:
    """A person's name from a From header or attribution ('Eric <e@x>' -> 'Eric')."""
    text = text.strip()
    if not text:
        return None
    m = _NAME_ADDR.match(text) or _ADDR_NAME.match(text)
    if m and m.group(1).strip():
        return m.group(1).strip()
    bare = _ADDR.sub("", text).strip(" \"',")
    return bare or text.strip("<>") or None


def attribution(text: str) -> str | None:
    """The person an attribution line names, or None when the line is not one."""
    if len(text) > 300 or not text.rstrip().endswith((":", "：")):
        return None
    m = _ATTR_ON.match(text)
    if m:
        return _name_after_date(_ADDR.sub("", m.group(1)))
    m = _ATTR_VERB_FIRST.match(text) or _ATTR_STAR.match(text) or _ATTR_QUOTING.match(text)
    if m:
        return person(m.group(1))
    m = _ATTR_WRITES.match(text)
    if m and not text.lstrip().lower().startswith(("on ", "i ", "you ", "he ", "she ")):
        who = m.group(1)
        words = _ADDR.sub("", who).lower().split()
        if len(words) <= 6 and not _NOT_NAME.intersection(words):
            return person(who)
    return None


def _name_after_date(text: str) -> str | None:
    """'Thu, 2014-03-27 at 01:37 +0100, Daniel Borkmann ' -> 'Daniel Borkmann'."""
    parts = [p.strip() for p in text.split(",")]
    name: list[str] = []
    for part in reversed(parts):
        if not part or any(c.isdigit() for c in part):
            break
        name.insert(0, part)
    if name and len(parts) > len(name):
        return ", ".join(name).strip(" \"'") or None
    # no comma after the date: the name follows its last number ("On 3/27/14 Eric wrote:")
    m = re.search(r"\d[^\s]*\s+(?:(?:AM|PM|[A-Z]{3,4}|[+-]\d{4})\s+)*([^\d]+)$", text)
    if m:
        return m.group(1).strip(" ,\"'") or None
    return None


def fill_lines(msg: Message, texts: Sequence[str], numbers: Sequence[int]) -> Message:
    """Turn decoded body lines into `msg.lines`: depth, author, message id; cut sigs/footers.

    A signature ("-- ") or list footer at depth d drops the lines that follow it at depth
    >= d until the quoting comes back out; at depth 0 that is the rest of the message.
    This runs on every line of every message of an archive, so the common line (unquoted,
    nothing special at either end) takes the shortest path.
    """
    authors: dict[int, str | None] = {0: person(msg.from_) if msg.from_ else None}
    refs = msg.references or ([msg.in_reply_to] if msg.in_reply_to else [])
    own_id = msg.message_id
    author0 = authors[0]
    out: list[Line] = []
    append = out.append
    cut_depth = -1
    prev_depth, prev_text = -1, ""  # the previous line, for attributions split in two
    shift = 0  # 1 after an Outlook "-----Original Message-----" line
    controls = False
    # one look at the whole body (in C) instead of one call per line: almost no body has
    # a control character, and concatenating lines makes none
    dirty = has_control("".join(texts))
    for i, (raw, number) in enumerate(zip(texts, numbers, strict=False)):
        if dirty and has_control(raw):  # escape sequences never reach a terminal or a reply
            raw, controls = clean_line(raw), True
        c = raw[:1]
        if c == ">" or ((c == " " or c == "\t") and ">" in raw[:8]):
            depth, text = quote_depth(raw)
        else:
            depth, text = 0, raw
        if cut_depth >= 0:
            if depth >= cut_depth:
                continue
            cut_depth = -1
        first = text[:1]
        if first in _SPECIAL_FIRST or text[-1:] in _SPECIAL_LAST:
            stripped = text.strip()
            if first == "-":  # diff lines are many: only the signature marker matters here
                if stripped == "--" and text[:2] == "--":
                    cut_depth = depth  # "-- " signature (archives often drop the space)
                    _drop_trailing_blank(out, depth)
                    continue
                if depth == 0 and _ORIGINAL_MESSAGE.match(stripped):
                    shift = 1  # Outlook-style reply: what follows is the quoted message
                    authors[1] = None
            elif first in _FOOTER_FIRST and (_FOOTER_START.match(stripped) or (
                    first == "_" and _UNDERSCORES.match(stripped)
                    and _next_is_footer(texts, i + 1))):
                cut_depth = depth
                _drop_footer_lead(out, depth)
                continue
            if stripped[-1:] in _COLONS:
                who = attribution(stripped)
                if who is None and prev_depth == depth and prev_text.lstrip().startswith(_ON):
                    who = attribution(prev_text.strip() + " " + stripped)
                if who is not None:
                    authors[depth + 1] = who
                    for k in [k for k in authors if k > depth + 1]:
                        del authors[k]
        if shift:
            if depth == 0 and text[:5] == "From:" and authors.get(1) is None:
                authors[1] = person(text[5:])
            depth += shift
        if depth == 0:
            append(Line(text, number, 0, author0, own_id))
        else:
            append(Line(text, number, depth, authors.get(depth),
                        refs[-depth] if len(refs) >= depth else None))
        prev_depth, prev_text = depth, text
    msg.lines = out
    if controls:
        msg.warnings.append("control characters in the body replaced")
    return msg


def _next_is_footer(texts: Sequence[str], i: int) -> bool:
    if i >= len(texts):
        return False
    _, nxt = quote_depth(texts[i])
    return bool(re.search(r"mailing list\s*$", nxt.strip(), re.IGNORECASE))


def _drop_trailing_blank(out: list[Line], depth: int) -> None:
    while out and out[-1].depth == depth and not out[-1].text.strip():
        out.pop()


def _drop_footer_lead(out: list[Line], depth: int) -> None:
    """Drop the separator ('--', '-', '____') and blank lines a footer starts with."""
    _drop_trailing_blank(out, depth)
    while out and out[-1].depth == depth and (
        out[-1].text.rstrip() in _SEPARATORS or _UNDERSCORES.match(out[-1].text.strip())
    ):
        out.pop()
        _drop_trailing_blank(out, depth)


def set_header(msg: Message, name: str, value: str) -> None:
    """Record a header and fill the Message field it maps to (first occurrence wins)."""
    key = one_line(name).lower()
    value = one_line(value)
    if key in msg.headers:
        return
    msg.headers[key] = value
    if key == "message-id":
        msg.message_id = strip_id(value)
    elif key == "subject":
        msg.subject = value
    elif key == "from":
        msg.from_ = value
    elif key == "date":  # lore shows "Date: ...  [thread overview]"
        msg.date = value.replace("[thread overview]", "").strip() if "[" in value else value
    elif key == "to":
        msg.to = value
    elif key == "cc":
        msg.cc = value
    elif key == "in-reply-to":
        ids = message_ids(value)
        msg.in_reply_to = ids[0] if ids else (strip_id(value) or None)
    elif key == "references":
        msg.references = message_ids(value)


_ID = re.compile(r"<([^<>\s]+)>")


def strip_id(value: str) -> str | None:
    """'<a@b>' -> 'a@b'; bare ids are kept as they are."""
    value = value.strip()
    m = _ID.search(value)
    if m:
        return m.group(1)
    return value.split()[0] if value else None


def message_ids(value: str) -> list[str]:
    return _ID.findall(value)


def _find_header_block(lines: Sequence[str]) -> tuple[int, int] | None:
    """(first, end) of the `Date:`/`From:` block of an archive page, or None for a draft."""
    seen = 0
    for start in range(len(lines)):
        if seen >= _HEADER_SEARCH_LINES:
            return None
        if lines[start].strip():
            seen += 1
        m = _TEXT_HEADER.match(lines[start])
        if not m or len(m.group(2)) > _MAX_HEADER_VALUE:
            continue
        end, names = start, set()
        while end < len(lines):
            line = lines[end]
            hm = _TEXT_HEADER.match(line)
            if hm and len(hm.group(2)) <= _MAX_HEADER_VALUE:
                names.add(hm.group(1).lower())
            elif not (line[:1] in (" ", "\t") and line.strip() and end > start):
                break
            end += 1
        if len(names) >= 2 and names & _KEY_HEADERS:  # one "From:" line alone is prose
            return start, end
    return None


def message_from_text(text: str, source: str | None = None, first_line: int = 1) -> Message:
    """Read text as a person sees it: archive page copy (banner, headers, body) or a draft."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    lines = [ln[:-1] if ln.endswith("\r") else ln for ln in lines]
    return message_from_page_lines(lines, range(first_line, first_line + len(lines)), source)


def message_from_page_lines(lines: Sequence[str], numbers: Sequence[int],
                            source: str | None = None) -> Message:
    """`message_from_text` for lines whose input line numbers are given (HTML pages)."""
    msg = Message(source=source)
    block = _find_header_block(lines)
    body_start = 0
    if block is not None:
        start, end = block
        name, value = "", ""
        for line in lines[start:end]:
            if line[:1] in (" ", "\t") and name:
                value += " " + line.strip()
                continue
            if name:
                set_header(msg, name, value)
            hm = _TEXT_HEADER.match(line)
            if hm is None:
                name = ""
                continue
            name, value = hm.group(1), hm.group(2)
        if name:
            set_header(msg, name, value)
        if msg.subject is None:
            title = next((ln.strip() for ln in lines[:start] if ln.strip()), None)
            if title and len(title) < 300:
                msg.subject = one_line(title)
        body_start = end
        while body_start < len(lines) and not lines[body_start].strip():
            body_start += 1
    return fill_lines(msg, lines[body_start:], numbers[body_start:])
