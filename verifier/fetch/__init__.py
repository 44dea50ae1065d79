"""Fetching whole threads: by Message-ID or URL, from public-inbox servers (lore by default)
or from the web archives maintainers link to, through a cache so each is fetched once.

Entry points for other commands:
- `fetch_thread(arg, inbox=None)` -> Path of a cached mbox holding the whole thread;
- `resolve_input(arg, inbox)` -> that path for a Message-ID/URL, None for a local file;
- `choose_inbox(cli_value)`: --inbox, else config `inbox`, else b4's `b4.midmask`, else lore.
All failures raise FetchError with a one-line message; nothing is cached on failure.

The network and HTML parts (requests, bs4: 23 MB and a third of a second) are imported only
when something is fetched, so `verifier extract local.mbox` never loads them.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from verifier.cache import Cache
from verifier.config import DEFAULT_INBOX, Config, ConfigError, load_config
from verifier.fetch.errors import FetchError

if TYPE_CHECKING:
    from verifier.fetch.http import Http

__all__ = ["ARCHIVES", "FetchError", "Target", "choose_inbox", "classify", "fetch_thread", "resolve_input"]

VIA = ("http", "b4")


def __getattr__(name: str) -> Any:
    """`ARCHIVES` (the web-archive adapters) loads bs4: only when someone asks for it."""
    if name == "ARCHIVES":
        from verifier.fetch.archives import ARCHIVES

        return ARCHIVES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class Target:
    """What the user named: a Message-ID (on `inbox`), a public-inbox URL, or an archive page."""

    kind: str  # msgid | inbox-url | archive
    msgid: str | None = None
    inbox: str | None = None
    url: str | None = None
    archive: str | None = None  # adapter name for archive pages

    def cache_key(self, via: str) -> str:
        if self.kind == "archive":
            return f"archive:{self.archive}:{self.url}"
        return f"thread:{via}:{self.inbox}:{self.msgid}"


def choose_inbox(cli_value: str | None, config: Config | None = None) -> str:
    """--inbox, else the config file's `inbox`, else b4's `b4.midmask`, else lore's /all."""
    if cli_value:
        return cli_value.rstrip("/")
    from verifier.fetch.b4cli import git_midmask, inbox_from_midmask

    cfg = config if config is not None else _config()
    if cfg.inbox_is_set:
        return cfg.inbox.rstrip("/")
    mask = git_midmask()
    if mask:
        return inbox_from_midmask(mask)
    return DEFAULT_INBOX


def _config() -> Config:
    try:
        return load_config()
    except ConfigError as e:
        raise FetchError(str(e)) from None


def is_remote(arg: str) -> bool:
    """True for an http(s) URL or something that can only be a Message-ID (not a file)."""
    if arg.startswith(("http://", "https://")):
        return True
    if arg == "-" or os.path.exists(arg):
        return False
    from verifier.fetch.lore import normalize_msgid

    try:
        normalize_msgid(arg)
    except FetchError:
        return False
    return True


def classify(arg: str, inbox: str | None = None, archive: str | None = None) -> Target:
    """Read what the user named; `archive` forces a web-archive adapter (for mirrors)."""
    from verifier.fetch.archives import ARCHIVES, archive_for
    from verifier.fetch.lore import normalize_msgid, parse_inbox_url

    if archive is not None and archive not in ARCHIVES:
        raise FetchError(f"unknown archive {archive!r} (known: {', '.join(ARCHIVES)})")
    if arg.startswith(("http://", "https://")):
        name = archive or archive_for(arg)
        if name is not None:
            return Target("archive", url=arg.split("#", 1)[0], archive=name)
        parsed = parse_inbox_url(arg)
        if parsed is None:
            raise FetchError(f"unknown archive or not a message URL: {arg[:120]}")
        base, msgid = parsed
        return Target("inbox-url", msgid=msgid, inbox=base, url=arg)
    return Target("msgid", msgid=normalize_msgid(arg), inbox=choose_inbox(inbox))


def http_from_config(config: Config | None = None) -> Http:
    """An Http client with the [fetch] settings of the config file (delay, timeout, retries)."""
    from verifier.fetch.http import Http

    try:
        sec = (config if config is not None else _config()).section("fetch")
        return Http(delay=float(sec.get("delay", 1.0)),
                    timeout=(10.0, float(sec.get("timeout", 60.0))),
                    retries=int(sec.get("retries", 3)))
    except ConfigError as e:
        raise FetchError(str(e)) from None
    except (TypeError, ValueError):
        raise FetchError("bad [fetch] settings in config: delay/timeout/retries must be numbers") from None


def download(target: Target, via: str = "http", http: Http | None = None) -> bytes:
    """The thread's mbox bytes, straight from the network."""
    from verifier.fetch.archives import fetch_archive_thread
    from verifier.fetch.b4cli import b4_thread
    from verifier.fetch.lore import PublicInbox

    if via not in VIA:
        raise FetchError(f"unknown fetch method {via!r} (use one of: {', '.join(VIA)})")
    if target.kind == "archive":
        return fetch_archive_thread(target.url or "", http or http_from_config(), target.archive)
    assert target.msgid is not None and target.inbox is not None
    if via == "b4":
        return b4_thread(target.url or target.msgid, target.inbox if target.kind == "msgid" else None,
                         msgid=target.msgid)
    return PublicInbox(target.inbox, http or http_from_config()).thread_mbox(target.msgid)


def fetch_thread(arg: str, inbox: str | None = None, via: str = "http", refresh: bool = False,
                 cache: Cache | None = None, http: Http | None = None,
                 archive: str | None = None, max_age: float | None = None) -> Path:
    """Path of a cached mbox with the whole thread of `arg` (Message-ID or URL).

    A cached copy is used unless `refresh`, or it is older than `max_age` seconds (a bot
    polling a live thread passes one; a person re-reading an old thread does not)."""
    target = classify(arg, inbox, archive)
    cache = cache or Cache("threads")
    key = target.cache_key(via)
    if not refresh:
        hit = cache.get(key, max_age=max_age)
        if hit is not None:
            return hit
    data = download(target, via=via, http=http)
    try:
        return cache.put(key, data)
    except OSError as e:
        raise FetchError(f"cannot write the cache: {e.strerror or e}") from None


def resolve_input(arg: str, inbox: str | None) -> str | None:
    """For `verifier extract` and friends: a local mbox path for a Message-ID or URL
    (fetched into the cache), None when `arg` is a local file or stdin. Raises FetchError."""
    if not is_remote(arg):
        return None
    return str(fetch_thread(arg, inbox))
