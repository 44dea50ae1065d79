"""The visible text of HTML, read with the standard library's `html.parser` alone.

The one renderer of HTML as text: an HTML mail part sent without a text/plain alternative
(`html_part_text`) and an archive page with no message markup (claims.html_archives).
Block elements end their line, `<br>` breaks one, `<blockquote>` text comes out quoted
with '> ' (so the message model reads its quote depth like mail's), no-break spaces are
spaces.

Why not bs4: the text is what rendering bs4's `html.parser` tree gives (the project
reads archive pages' structure with bs4, and this was that walk), but building the tree
costs bs4, soupsieve and charset_normalizer (~7 MiB of a `verifier extract` run's
memory, for the few HTML-only mails of a list) and a tree walked once. So the parser's
events are rendered as they come, with bs4's rules for the tree (checked on real HTML by
tests/claims/test_html_text.py against bs4's tree):
- an end tag closes the open elements above the most recent one of its name, and is
  ignored when none is open; void elements (`<br>`, `<img>`) never hold anything, and
  the first end tag after one of them (`<br></br>`) is swallowed; what is open at the
  end closes there;
- text between tags that is all whitespace becomes one "\\n" (it held a newline) or one
  space, except inside `<pre>` and `<textarea>`;
- text inside `<script>`, `<style>`, `<template>`, `<rt>` and `<rp>`, comments and
  declarations is not shown; `<![CDATA[...]]>` is;
- entities are read by the HTML5 table (an unknown `&name;` stays `&name`), numeric
  references by the HTML5 rules (0x80-0x9F as Windows-1252).
"""
from __future__ import annotations

import html as html_lib
import re
from collections import Counter
from html.entities import html5
from html.parser import HTMLParser

from claims.mime import Part

BLOCKS = frozenset({"p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "table",
                    "pre", "ul", "ol"})
# More tags than any archive page or HTML mail a person writes (a few hundred): such
# markup is read as the text between its tags (bs4 took 5 s per MB of nested <div>).
MAX_TAGS = 20_000

_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "keygen",
                   "link", "menuitem", "meta", "param", "source", "track", "wbr", "basefont",
                   "bgsound", "command", "frame", "image", "isindex", "nextid", "spacer"})
_PRESERVE = frozenset({"pre", "textarea"})  # whitespace-only text is kept as it is
_HIDDEN = frozenset({"script", "style", "template", "rt", "rp"})  # their text is not shown
_SPACES = " \n\t\x0c\r"
_Q_OPEN, _Q_CLOSE = "\x01quote+\x01", "\x01quote-\x01"
TAG = re.compile(r"<!--.*?-->|<(/?)([a-zA-Z][\w-]*)?[^>]*>", re.S)  # a tag (its name) or comment
_NUMBER_AND_REST = re.compile(r"([0-9]+)(.*)", re.S)
_HEX_AND_REST = re.compile(r"([0-9a-f]+)(.*)", re.S)
_ENTITIES: dict[str, str] = {}


class _Render(HTMLParser):
    """Parser events to the pieces of the visible text (see the module docstring)."""

    def __init__(self, within: str | None) -> None:
        super().__init__(convert_charrefs=False)
        self.pieces: list[str] = []
        self._data: list[str] = []  # the text since the last tag (one string of the tree)
        self._open: list[str] = []
        self._count: Counter[str] = Counter()
        self._preserve = self._hidden = 0
        self._swallow: list[str] = []  # void tags whose next end tag is theirs
        # with `within`, only what the first such element holds is shown
        self._within = within
        self._scope = -1  # the index of that element in _open once it opens
        self._shown = within is None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._flush()
        self._push(tag)
        if tag in _VOID:
            self._pop()
            self._swallow.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._flush()
        self._push(tag)
        self._close(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self._swallow:
            self._swallow.remove(tag)
            return
        self._flush()
        self._close(tag)

    def handle_data(self, data: str) -> None:
        self._data.append(data)

    def handle_entityref(self, name: str) -> None:
        if not _ENTITIES:
            for key, char in sorted(html5.items()):
                _ENTITIES.setdefault(key[:-1] if key.endswith(";") else key, char)
        self._data.append(_ENTITIES.get(name, "&" + name))

    def handle_charref(self, name: str) -> None:
        hexa = name[:1] in ("x", "X")
        digits = name[1:] if hexa else name
        try:
            number, rest = int(digits, 16 if hexa else 10), ""
        except ValueError:
            m = (_HEX_AND_REST if hexa else _NUMBER_AND_REST).search(digits)
            if m is None:
                self._data.extend(("", digits))
                return
            number, rest = int(m.group(1), 16 if hexa else 10), m.group(2)
        self._data.extend((_character(number), rest))

    def handle_comment(self, data: str) -> None:
        self._flush()

    def handle_decl(self, decl: str) -> None:
        self._flush()

    def handle_pi(self, data: str) -> None:
        self._flush()

    def unknown_decl(self, data: str) -> None:
        self._flush()
        if data.upper().startswith("CDATA["):
            self._data.append(data[len("CDATA["):])
            self._flush(shown=True)
        # any other declaration is not shown

    def finish(self) -> str:
        """Close the parser and what is still open; the text with its quote markers."""
        self.close()
        self._flush()
        while self._open:
            self._pop()
        return "".join(self.pieces)

    def _flush(self, shown: bool = False) -> None:
        """End a run of text: shown unless it sits in a hidden element (a CDATA section
        always is), whitespace-only runs as one newline or space outside <pre>."""
        if not self._data:
            return
        text = "".join(self._data)
        self._data = []
        if not self._preserve and not text.strip(_SPACES):
            text = "\n" if "\n" in text else " "
        if self._shown and (shown or not self._hidden):
            self.pieces.append(text)

    def _push(self, tag: str) -> None:
        self._open.append(tag)
        self._count[tag] += 1
        self._preserve += tag in _PRESERVE
        self._hidden += tag in _HIDDEN
        if self._shown:
            if tag == "br":
                self.pieces.append("\n")
            elif tag == "blockquote":
                self.pieces.append(_Q_OPEN)
        elif self._scope < 0 and tag == self._within:
            self._scope, self._shown = len(self._open) - 1, True

    def _close(self, tag: str) -> None:
        """Close the most recent open `tag` and what is open above it (none open: nothing)."""
        if self._count[tag]:
            while self._open and self._pop() != tag:
                pass

    def _pop(self) -> str:
        tag = self._open.pop()
        self._count[tag] -= 1
        self._preserve -= tag in _PRESERVE
        self._hidden -= tag in _HIDDEN
        if self._shown:
            if len(self._open) == self._scope:  # the element shown is done
                self._shown = False
            elif tag == "blockquote":
                self.pieces.append(_Q_CLOSE)
            elif tag in BLOCKS and tag != "pre":
                self.pieces.append("\n")
        return tag


def _character(number: int) -> str:
    """A numeric character reference's character, by the HTML5 rules."""
    if number == 0 or number > 0x10FFFF or 0xD800 <= number <= 0xDFFF:
        return "\ufffd"
    if 0x80 <= number <= 0x9F:
        try:
            return bytes([number]).decode("cp1252")
        except UnicodeDecodeError:
            pass
    return chr(number)


def visible_text(markup: str, within: str | None = None) -> str:
    """The visible text of `markup` (see the module docstring); with `within` (a tag
    name), only the text inside the first such element, or all of it when there is none.
    Markup the parser rejects (`<![CDA`) or with more than MAX_TAGS tags is read as the
    text between its tags."""
    if markup.count("<") > MAX_TAGS:
        return strip_tags(markup)
    parser = _Render(within)
    try:
        parser.feed(markup)
        text = parser.finish()
    except AssertionError:  # html.parser's way of rejecting markup
        return strip_tags(markup)
    if within and parser._scope < 0:
        return visible_text(markup)
    return _quoted_lines(text)


def strip_tags(src: str) -> str:
    """The text between the tags, entities read: for markup no parser should walk."""
    return html_lib.unescape(TAG.sub("", src))


def _quoted_lines(text: str) -> str:
    """Lines with the blockquote markers turned into '> ' prefixes, no-break spaces as spaces."""
    out: list[str] = []
    depth = 0
    for line in text.split("\n"):
        while _Q_OPEN in line or _Q_CLOSE in line:
            o, c = line.find(_Q_OPEN), line.find(_Q_CLOSE)
            if o >= 0 and (c < 0 or o < c):
                before, line = line[:o], line[o + len(_Q_OPEN):]
                if before.strip():
                    out.append("> " * depth + before)
                depth += 1
            else:
                before, line = line[:c], line[c + len(_Q_CLOSE):]
                if before.strip():
                    out.append("> " * depth + before)
                depth = max(0, depth - 1)
        out.append("> " * depth + line.replace("\xa0", " "))
    return "\n".join(out)


def html_part_text(part: Part) -> Part:
    """The text of an HTML mail part (sent with no text/plain alternative), its lines
    numbered proportionally over the part's input lines."""
    lines = visible_text("\n".join(part.texts)).split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    first = part.numbers[0] if part.numbers else 1
    span = (part.numbers[-1] - first + 1) if part.numbers else 1
    return Part(lines, [first + (i * span) // max(len(lines), 1) for i in range(len(lines))])
