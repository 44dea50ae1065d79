"""claims.html_text renders HTML as the walk over bs4's `html.parser` tree did, without bs4.

The reference below is that walk (the project's renderer until the standard-library one
replaced it, so that `verifier extract` of an mbox never loads bs4): block elements end a
line, `<br>` breaks one, blockquotes are quoted with '> ', comments, scripts and styles
are not shown. Both are run on real HTML: every HTML mail part of the shared archive (the
two in the fixtures, all of them in the slow test), every HTML part of the test fixtures'
mails, the archive pages of tests/fixtures/messages/html (whole, and their `<body>`), and
the archive's parts with markup spliced in at random places (unclosed and stray tags,
entities, CDATA, whitespace runs), where tree building and the streaming rules could part.
"""
from __future__ import annotations

import lzma
import random
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, CData, NavigableString, Tag
from bs4.exceptions import ParserRejectedMarkup

import claims.html_text as html_text
from claims.html_text import MAX_TAGS, html_part_text, strip_tags, visible_text
from claims.mbox import split_mbox
from claims.mime import Part, message_from_bytes
from claims.sources import iter_messages
from tests.paths import FIXTURES, SHARED

ARCHIVE = SHARED / "data" / "virtualization-list.mbox.xz"
MAILS = sorted(p for p in FIXTURES.rglob("*") if p.suffix in (".eml", ".mbox"))
PAGES = sorted((FIXTURES / "messages" / "html").glob("*.html"))
_Q_OPEN, _Q_CLOSE = "\x01quote+\x01", "\x01quote-\x01"


def bs4_text(markup: str, body: bool = False) -> str:
    """The reference: bs4's tree of `markup` (its `<body>`, else all of it) walked in
    document order; markup bs4 rejects, or with too many tags, as the text between tags."""
    try:
        if markup.count("<") > MAX_TAGS:
            raise RecursionError("too many tags")
        soup = BeautifulSoup(markup, "html.parser")
    except (ParserRejectedMarkup, AssertionError, RecursionError):
        return strip_tags(markup)
    node = (soup.body or soup) if body else soup
    pieces: list[str] = []
    stack: list[tuple[object, bool]] = [(node, False)]
    while stack:
        el, closing = stack.pop()
        if closing:
            assert isinstance(el, Tag)
            if el.name == "blockquote":
                pieces.append(_Q_CLOSE)
            elif el.name in html_text.BLOCKS and el.name != "pre":
                pieces.append("\n")
            continue
        if isinstance(el, NavigableString):
            if type(el) in (NavigableString, CData):  # not comments, scripts, doctypes
                pieces.append(str(el))
            continue
        assert isinstance(el, Tag)
        if el is not node:
            if el.name == "br":
                pieces.append("\n")
                continue
            if el.name == "blockquote":
                pieces.append(_Q_OPEN)
            stack.append((el, True))
        stack.extend((child, False) for child in reversed(el.contents))
    return html_text._quoted_lines("".join(pieces))


def html_parts(read) -> list[str]:  # type: ignore[no-untyped-def]
    """The markup of every HTML part the reader renders while `read()` runs."""
    seen: list[str] = []
    convert = html_text.html_part_text

    def record(part: Part) -> Part:
        seen.append("\n".join(part.texts))
        return convert(part)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(html_text, "html_part_text", record)
        read()
    return seen


def _fixture_parts() -> list[tuple[str, str]]:
    out = []
    for path in MAILS:
        parts = html_parts(lambda path=path: list(iter_messages(str(path))))
        out += [(f"{path.name}[{k}]", markup) for k, markup in enumerate(parts)]
    return out


FIXTURE_PARTS = _fixture_parts()


def test_the_fixtures_hold_the_archives_html_mails() -> None:
    names = {name.split("[")[0] for name, _ in FIXTURE_PARTS}
    assert {"archive-667073.eml", "archive-710201.eml"} <= names
    assert len(FIXTURE_PARTS) >= 4 and len(PAGES) >= 5


@pytest.mark.parametrize(("name", "markup"), FIXTURE_PARTS, ids=[n for n, _ in FIXTURE_PARTS])
def test_an_html_mail_part_renders_as_bs4s_tree(name: str, markup: str) -> None:
    assert visible_text(markup) == bs4_text(markup)


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_an_archive_page_and_its_body_render_as_bs4s_tree(page: Path) -> None:
    markup = page.read_text(encoding="utf-8", errors="replace")
    assert visible_text(markup) == bs4_text(markup)
    assert visible_text(markup, within="body") == bs4_text(markup, body=True)


_SPLICES = ["<p>", "</p>", "<br>", "</br>", "<br/>", "<p/>", "<blockquote>", "</blockquote>",
            "<pre>", "</pre>", "<div>", "</div>", "<li>", "<table><tr>", "</tr></table>",
            "<body>", "</body>", "</html>", "<b>", "</b>", "<img src=x>", "</img>", "</ a>",
            "  ", "\n", " \n\t", "\xa0", "&nbsp;", "&amp", "&bogus;", "&lt;", "&#150;", "&#0;",
            "&#x110000;", "&#xd800;", "&#65", "&#129;", "<![CDATA[ x ]]>", "<![CDATA[]]>",
            "<!-- c -->", "<!DOCTYPE html>", "<?pi x?>", "<script>a</p>b</script>",
            "<style>x</style>", "<template><p>t</p></template>", "<rt>r</rt>",
            "<textarea>  </textarea>", "<![if x]>", "<a\nhref=x>", "<", ">", "&", "</", "x y"]


def test_real_parts_with_markup_spliced_in_render_as_bs4s_tree() -> None:
    rng = random.Random(16)
    real = [m for _, m in FIXTURE_PARTS]
    for _ in range(150):
        src = rng.choice(real)
        k = rng.randrange(len(src))
        cut = src[:k] + "".join(rng.choice(_SPLICES) for _ in range(rng.randrange(1, 8)))
        markup = cut + src[k + rng.randrange(200):]
        if rng.random() < 0.2:  # a part cut short: what is open closes at the end
            markup = markup[:rng.randrange(len(markup) + 1)]
        assert visible_text(markup) == bs4_text(markup), markup
        assert visible_text(markup, within="body") == bs4_text(markup, body=True), markup


def test_runs_of_spliced_markup_alone_render_as_bs4s_tree() -> None:
    """Where the rules meet (a void tag's end tag after whitespace, CDATA in a script,
    a block closed by an outer end tag) short runs of the splices alone find more often."""
    rng = random.Random(9)
    for _ in range(2000):
        markup = "".join(rng.choice(_SPLICES) for _ in range(rng.randrange(1, 30)))
        assert visible_text(markup) == bs4_text(markup), markup
        assert visible_text(markup, within="body") == bs4_text(markup, body=True), markup


def test_rejected_and_oversized_markup_is_read_between_the_tags() -> None:
    rejected = "<p>a</p><![foo[ x ]]>b"  # html.parser: unknown status keyword 'foo'
    assert visible_text(rejected) == bs4_text(rejected) == "ab"
    many = "<b>x</b>" * (MAX_TAGS // 2 + 1)
    assert visible_text(many) == bs4_text(many) == "x" * (MAX_TAGS // 2 + 1)


def test_an_html_part_keeps_its_line_span() -> None:
    part = html_part_text(Part(["<p>one</p>", "<blockquote>two</blockquote>", "", ""],
                               [10, 11, 12, 13], html=True))
    assert part.texts == ["one", "", "> two"] and part.numbers == [10, 11, 12]


@pytest.mark.slow
@pytest.mark.skipif(not ARCHIVE.exists(), reason="shared archive not present")
def test_every_html_part_of_the_archive_renders_as_bs4s_tree() -> None:
    def read() -> None:
        with lzma.open(ARCHIVE) as f:
            for first, raw in split_mbox(f):  # type: ignore[arg-type]
                if b"text/html" in raw:
                    message_from_bytes(raw, first)

    parts = html_parts(read)
    assert len(parts) >= 2
    for markup in parts:
        assert visible_text(markup) == bs4_text(markup)
