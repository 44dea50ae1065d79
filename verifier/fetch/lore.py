"""Public-inbox (lore) over HTTP: whole threads by Message-ID, single raw messages,
search results as mbox, and the new.atom feed.

The endpoints are the ones b4 and liblore use (public-inbox `Documentation/design_www.txt`):
`/<msgid>/t.mbox.gz` (thread, gzip mbox), `/<msgid>/raw`, `POST /?q=..&x=m` (search
results as gzip mbox; a body starting `x=` asks for full threads) and `/new.atom`.
"""
from __future__ import annotations

import re
import zlib
from dataclasses import dataclass, field
from urllib.parse import quote, unquote, urlsplit

from verifier.fetch.errors import FetchError
from verifier.fetch.http import Http

# public-inbox's mid_escape keeps RFC 3986 sub-delims, ':' and '@'; '/' becomes %2F.
_MID_SAFE = "!$&'()*+,;=:@~"
_MSGID = re.compile(r"^[^\s<>]+$")
# lore's short forms: /r/<msgid> and /all/<msgid> are the all-lists index.
_ALIASES = {"r": "all"}
# trailing path parts of a message URL that are views, not part of the Message-ID.
_VIEWS = {"", "T", "t", "raw", "t.mbox.gz", "t.atom"}


def normalize_msgid(text: str) -> str:
    """'<a@b>', 'mid:a@b', 'id:a@b', ' a@b ' -> 'a@b'; FetchError when it is not one."""
    s = text.strip()
    for prefix in ("mid:", "id:"):
        if s.lower().startswith(prefix):
            s = s[len(prefix):]
    s = s.strip().removeprefix("<").removesuffix(">")
    if not s or "@" not in s or not _MSGID.match(s):
        raise FetchError(f"not a Message-ID: {text.strip()[:80]!r}")
    return s


def mid_escape(msgid: str) -> str:
    return quote(msgid, safe=_MID_SAFE)


def parse_inbox_url(url: str) -> tuple[str, str] | None:
    """Split a public-inbox message URL into (inbox base URL, Message-ID), else None.

    https://lore.kernel.org/netdev/<msgid>/T/#u -> ('https://lore.kernel.org/netdev', msgid)
    https://lore.kernel.org/r/<msgid>           -> ('https://lore.kernel.org/all', msgid)
    """
    u = urlsplit(url)
    if u.scheme not in ("http", "https") or not u.netloc:
        return None
    parts = u.path.split("/")[1:]
    # find the first path part that is an (escaped) Message-ID
    for i, part in enumerate(parts):
        mid = unquote(part)
        if "@" in mid and all(p in _VIEWS for p in parts[i + 1:]):
            prefix = parts[:i]
            if prefix:
                prefix[-1] = _ALIASES.get(prefix[-1], prefix[-1])
            else:
                prefix = ["all"]
            return f"{u.scheme}://{u.netloc}/" + "/".join(prefix), mid
    return None


MAX_MBOX = 200 << 20  # a thread's mbox, decompressed; a gzip bomb stops here


def _gunzip(data: bytes, what: str, limit: int = MAX_MBOX) -> bytes:
    """Decompress a (multi-member) gzip, at most `limit` bytes of it: a 4 MB gzip of 4 GiB
    of NULs ends in a one-line FetchError, not in 4 GiB of memory."""
    if data[:2] != b"\x1f\x8b":
        return data
    out: list[bytes] = []
    total = 0
    rest = data
    try:
        while rest[:2] == b"\x1f\x8b":
            d = zlib.decompressobj(16 + zlib.MAX_WBITS)
            buf = rest
            while buf and not d.eof:
                chunk = d.decompress(buf, 1 << 20)
                total += len(chunk)
                if total > limit:
                    raise FetchError(f"{what} decompresses to more than {limit >> 20} MB; not read")
                out.append(chunk)
                buf = d.unconsumed_tail
            if not d.eof:
                raise FetchError(f"corrupt gzip data from {what}")
            rest = d.unused_data
    except zlib.error:
        raise FetchError(f"corrupt gzip data from {what}") from None
    return b"".join(out)


def check_mbox(data: bytes, what: str, msgid: str | None = None) -> bytes:
    """Refuse anything that is not an mbox (an HTML error page, a login wall)."""
    if not data.startswith(b"From "):
        raise FetchError(f"{what} did not return an mbox (got {data[:40]!r})")
    if msgid is not None and msgid.encode() not in data:
        raise FetchError(f"{what} returned a thread without <{msgid}>")
    return data


@dataclass
class PublicInbox:
    """One public-inbox, e.g. https://lore.kernel.org/all or http://127.0.0.1:8080/netdev."""

    base: str
    http: Http = field(default_factory=Http)

    def __post_init__(self) -> None:
        self.base = self.base.rstrip("/")

    def url(self, msgid: str, view: str = "") -> str:
        return f"{self.base}/{mid_escape(msgid)}/{view}"

    def thread_mbox(self, msgid: str) -> bytes:
        """The whole thread containing `msgid`, as mboxrd bytes."""
        url = self.url(msgid, "t.mbox.gz")
        try:
            data = self.http.get(url).content
        except FetchError as e:
            if e.not_found:
                raise FetchError(f"no message <{msgid}> in {self.base}", not_found=True) from None
            raise
        return check_mbox(_gunzip(data, url), url, msgid)

    def raw(self, msgid: str) -> bytes:
        """One message, as the list delivered it (no mbox From_ line)."""
        try:
            return self.http.get(self.url(msgid, "raw")).content
        except FetchError as e:
            if e.not_found:
                raise FetchError(f"no message <{msgid}> in {self.base}", not_found=True) from None
            raise

    def search_mbox(self, query: str, full_threads: bool = False) -> bytes:
        """Search results (or their whole threads) as mbox; b"" when nothing matches."""
        url = f"{self.base}/?q={quote(query)}&x=m"
        try:
            r = self.http.post(url, data=b"x=m" if full_threads else b"z=1")
        except FetchError as e:
            if e.not_found:  # public-inbox answers 404 to a search without results
                return b""
            raise
        data = _gunzip(r.content, url)
        return check_mbox(data, url) if data else b""

    def new_atom(self) -> bytes:
        return self.http.get(f"{self.base}/new.atom").content
