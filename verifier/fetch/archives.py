"""Web archives that maintainers link to, one small adapter each.

An adapter reads one message page into a `PageMessage` (headers, body, links to the other
pages of the thread); `fetch_archive_thread` walks those links (bounded, polite) and turns
the pages into RFC 822 messages, so every archive yields the same mbox and the same
message model as lore. Page shapes (documented with the test pages in
tests/verifier/test_fetch_archives.py):

- lists.openwall.net (blists): `<pre>` with `Date:`/`From:`/`Subject:` lines then the body;
  navigation links `[<thread-prev]` and `[thread-next>]`. No Message-ID is shown.
- www.spinics.net and www.mail-archive.com (MHonArc): `<!--X-Message-Id: ..-->`,
  `<!--X-Reference: ..-->` comments, the body between `<!--X-Body-of-Message-->` markers;
  spinics lists Follow-Ups/References, mail-archive.com a `tSliceList` of the thread.
- public-inbox (lore) HTML: `<pre id=b>` with the headers and body, a "Thread overview"
  `<pre>` linking `../<msgid>/` pages. Only used when asked (`--archive public-inbox-html`):
  for public-inbox URLs the mbox endpoints (verifier.fetch.lore) are better.
- marc.info: one `<pre>` with `List:`/`Subject:`/`From:`/`Date:`/`Message-ID:` lines
  (addresses as `user () host ! com`) and `prev in thread`/`next in thread` links.
"""
from __future__ import annotations

import hashlib
import html as html_lib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.policy import SMTP
from typing import Any
from urllib.parse import urljoin, urlsplit

from bs4 import BeautifulSoup, Comment

from verifier.fetch.errors import FetchError
from verifier.fetch.http import Http
from verifier.thread import date_seconds

MAX_PAGES = 200


@dataclass
class PageMessage:
    """What one archive page says about one message."""

    url: str
    headers: dict[str, str]
    body: str
    links: list[str] = field(default_factory=list)  # other pages of the same thread


def _header_block(text: str) -> tuple[dict[str, str], str]:
    """'Name:<ws>value' lines (with continuation lines) up to a blank line, then the body."""
    headers: dict[str, str] = {}
    lines = text.split("\n")
    last = None
    n = 0
    while n < len(lines):
        line = lines[n]
        m = re.match(r"^([A-Za-z][A-Za-z-]*):\s*(.*)$", line)
        if m:
            last = m.group(1).title().replace("Message-Id", "Message-ID")
            headers[last] = m.group(2).strip()
        elif last and line.strip() and line[:1] in (" ", "\t"):
            headers[last] += " " + line.strip()
        else:
            break
        n += 1
    if n < len(lines) and not lines[n].strip():
        n += 1  # the blank line that ends the header block
    return headers, "\n".join(lines[n:])


def _href(a: Any) -> str:
    """A link's target (bs4 types attribute values loosely; href is one string)."""
    return str(a["href"])


def _links_by_text(soup: BeautifulSoup, base: str, pattern: str) -> list[str]:
    rx = re.compile(pattern, re.I)
    return [urljoin(base, _href(a)) for a in soup.find_all("a", href=True)
            if rx.search(a.get_text(" ", strip=True))]


def _shape_error(name: str, url: str, what: str) -> FetchError:
    return FetchError(f"{url}: not a {name} message page ({what} missing)")


# --- lists.openwall.net -------------------------------------------------------------

def parse_openwall(url: str, html: str) -> PageMessage:
    soup = BeautifulSoup(html, "lxml")
    for pre in soup.find_all("pre"):
        headers, body = _header_block(pre.get_text().lstrip("\n"))
        if "Subject" in headers and "From" in headers:
            links = _links_by_text(soup, url, r"^\[?<?thread-(prev|next)>?\]?$")
            return PageMessage(url, headers, body, links)
    raise _shape_error("lists.openwall.net", url, "<pre> with Subject/From")


# --- MHonArc (spinics.net, mail-archive.com) ----------------------------------------

def _mhonarc(url: str, html: str, name: str) -> tuple[BeautifulSoup, dict[str, str], list[str], str]:
    xs: dict[str, str] = {}
    refs: list[str] = []
    for m in re.finditer(r"<!--X-([A-Za-z0-9-]+): ?(.*?) ?-->", html):
        if m.group(1) == "Reference":
            refs.append(m.group(2).strip())
        else:
            xs.setdefault(m.group(1), m.group(2).strip())
    body = re.search(r"<!--X-Body-of-Message-->(.*?)<!--X-Body-of-Message-End-->", html, re.S)
    if "Message-Id" not in xs or body is None:
        raise _shape_error(name, url, "MHonArc X-Message-Id/X-Body-of-Message")
    text = BeautifulSoup(body.group(1), "lxml").get_text()
    soup = BeautifulSoup(html, "lxml")
    for c in soup.find_all(string=lambda s: isinstance(s, Comment)):
        c.extract()
    return soup, xs, refs, text.strip("\n") + "\n"


def _mhonarc_headers(xs: dict[str, str], refs: list[str]) -> dict[str, str]:
    h = {"Message-ID": f"<{_unentity(xs['Message-Id'])}>"}
    if "Subject" in xs:
        h["Subject"] = _unentity(xs["Subject"])
    if "Date" in xs:
        h["Date"] = _unentity(xs["Date"])
    if refs:
        ids = [f"<{_unentity(r)}>" for r in refs]
        h["References"] = " ".join(ids)
        h["In-Reply-To"] = ids[-1]
    return h


def _unentity(s: str) -> str:
    return html_lib.unescape(s)


def parse_spinics(url: str, html: str) -> PageMessage:
    soup, xs, refs, body = _mhonarc(url, html, "spinics.net")
    headers = _mhonarc_headers(xs, refs)
    for li in soup.find_all("li"):
        em = li.find("em")
        name = em.get_text(strip=True) if em else ""
        if name in ("From", "Date", "Subject", "To", "Cc") and (name == "From" or name not in headers):
            headers[name] = li.get_text(" ", strip=True).split(":", 1)[-1].strip()
    # Follow-Ups and References stay inside the thread; "Next by thread" runs on into the
    # next thread of the index, so it is not followed.
    links: list[str] = []
    for section in ("Follow-Ups", "References"):
        st = soup.find("strong", string=re.compile(section))
        if st and st.parent:
            links += [urljoin(url, _href(a)) for a in st.parent.find_all("a", href=True)]
    return PageMessage(url, headers, body, links)


def parse_mail_archive(url: str, html: str) -> PageMessage:
    soup, xs, refs, body = _mhonarc(url, html, "mail-archive.com")
    headers = _mhonarc_headers(xs, refs)
    for cls, name in (("sender", "From"), ("date", "Date"), ("subject", "Subject")):
        span = soup.find("span", class_=cls)
        if span is not None and (name == "From" or name not in headers):
            headers[name] = span.get_text(" ", strip=True)
    links: list[str] = []
    tslice = soup.find(class_="tSliceList")
    if tslice:
        links = [urljoin(url, _href(a)) for a in tslice.find_all("a", href=True)
                 if re.search(r"msg\d+\.html$", _href(a))]
    return PageMessage(url, headers, body, links)


# --- marc.info ----------------------------------------------------------------------

def _marc_address(s: str) -> str:
    return s.replace(" () ", "@").replace(" ! ", ".")


def parse_marc(url: str, html: str) -> PageMessage:
    soup = BeautifulSoup(html, "lxml")
    for pre in soup.find_all("pre"):
        text = pre.get_text()
        m = re.search(r"^Message-ID:\s*(\S.*)$", text, re.M)
        if not m or not re.search(r"^Subject:", text, re.M):
            continue
        head, _, body = text.partition("Download RAW message or body]")
        headers = {}
        for hm in re.finditer(r"^(List|Subject|From|Date|Message-ID):\s*(.*)$", head, re.M):
            headers[hm.group(1)] = hm.group(2).strip()
        headers.pop("List", None)
        headers["From"] = _marc_address(headers.get("From", ""))
        headers["Message-ID"] = "<" + _marc_address(headers["Message-ID"]) + ">"
        links = _links_by_text(soup, url, r"^(prev|next) in thread$")
        return PageMessage(url, headers, body.lstrip("\n"), links)
    raise _shape_error("marc.info", url, "<pre> with Subject/Message-ID")


# --- public-inbox (lore) HTML message pages -----------------------------------------

def parse_public_inbox_html(url: str, html: str) -> PageMessage:
    """A public-inbox message page (`/<list>/<msgid>/`): `<pre id=b>` holds the headers
    and body; the "Thread overview" block links every message of the thread."""
    soup = BeautifulSoup(html, "lxml")
    pre = soup.find("pre", id="b")
    if pre is None:
        raise _shape_error("public-inbox", url, "<pre id=b>")
    headers, body = _header_block(pre.get_text())
    if "Message-ID" not in headers or "From" not in headers:
        raise _shape_error("public-inbox", url, "From/Message-ID")
    headers["Date"] = headers.get("Date", "").replace("[thread overview]", "").strip()
    headers["Message-ID"] = headers["Message-ID"].replace("(raw)", "").strip()
    links: list[str] = []
    for block in soup.find_all("pre"):
        if "Thread overview" in block.get_text():
            links = [urljoin(url, _href(a)) for a in block.find_all("a", href=True)
                     if re.fullmatch(r"\.\./[^/]*@[^/]*/", _href(a))]
    return PageMessage(url, headers, body, links)


# --- walking and output -------------------------------------------------------------

Parser = Callable[[str, str], PageMessage]
ARCHIVES: dict[str, Parser] = {
    "openwall": parse_openwall,
    "spinics": parse_spinics,
    "marc": parse_marc,
    "mail-archive": parse_mail_archive,
    "public-inbox-html": parse_public_inbox_html,
}
HOSTS: dict[str, str] = {
    "lists.openwall.net": "openwall",
    "www.openwall.com": "openwall",
    "spinics.net": "spinics",
    "www.spinics.net": "spinics",
    "mail.spinics.net": "spinics",
    "marc.info": "marc",
    "www.mail-archive.com": "mail-archive",
    "mail-archive.com": "mail-archive",
}


def archive_for(url: str) -> str | None:
    """The archive name for a page URL by its host, or None for an unknown host."""
    return HOSTS.get((urlsplit(url).hostname or "").lower())


def _page_key(url: str) -> str:
    return url.split("#", 1)[0]


def walk_thread(url: str, parse: Parser, http: Http, max_pages: int = MAX_PAGES) -> list[PageMessage]:
    """Every page reachable from `url` through thread links on the same host."""
    host = urlsplit(url).netloc
    todo, seen = [_page_key(url)], {_page_key(url)}
    pages: list[PageMessage] = []
    while todo and len(pages) < max_pages:
        page_url = todo.pop(0)
        r = http.get(page_url)
        pages.append(parse(page_url, r.text))
        for link in pages[-1].links:
            key = _page_key(link)
            if key not in seen and urlsplit(key).netloc == host:
                seen.add(key)
                todo.append(key)
    return pages


def to_email(page: PageMessage) -> EmailMessage:
    """An RFC 822 message for a page; a Message-ID made from the URL when none is shown."""
    msg = EmailMessage(policy=SMTP)
    h = dict(page.headers)
    if "Message-ID" not in h:
        digest = hashlib.sha1(page.url.encode()).hexdigest()[:20]
        h["Message-ID"] = f"<{digest}@{urlsplit(page.url).hostname or 'archive'}>"
    for name in ("From", "To", "Cc", "Subject", "Date", "Message-ID", "In-Reply-To", "References"):
        value = h.get(name)
        if value:
            msg[name] = " ".join(value.split())
    msg["Archived-At"] = f"<{page.url}>"
    msg.set_content(page.body, cte="8bit")
    return msg


def mbox_bytes(messages: list[EmailMessage]) -> bytes:
    """mboxrd: a From_ line before each message, body lines '>*From ' quoted once more."""
    out = []
    for msg in messages:
        raw = msg.as_bytes(policy=SMTP.clone(linesep="\n"))
        raw = re.sub(rb"(?m)^(>*From )", rb">\1", raw)
        out.append(b"From mboxrd@z Thu Jan  1 00:00:00 1970\n" + raw.rstrip(b"\n") + b"\n\n")
    return b"".join(out)


def fetch_archive_thread(url: str, http: Http, archive: str | None = None) -> bytes:
    """The thread a web-archive page belongs to, as mbox bytes. `archive` names the
    adapter for a mirror or local copy whose host is not the archive's own."""
    name = archive or archive_for(url)
    if name is None:
        raise FetchError(f"unknown archive: {urlsplit(url).hostname or url}")
    parse = ARCHIVES.get(name)
    if parse is None:
        raise FetchError(f"unknown archive {name!r} (known: {', '.join(ARCHIVES)})")
    pages = walk_thread(url, parse, http)
    # stable sort: pages without a readable date keep their walk order
    pages.sort(key=lambda p: date_seconds(p.headers.get("Date")))
    return mbox_bytes([to_email(p) for p in pages])

