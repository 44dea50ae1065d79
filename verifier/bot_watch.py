"""Watching the lists: every new message recorded once, with the decision it carries.

Three ways to find new messages (`watch` in [bot]): the list's new.atom feed, a search
query from the last position on, or the inbox's git epochs mirrored next to the state.
The poll position of each list is kept in the state, so a restart goes on from there.
"""
from __future__ import annotations

import hashlib
import json
import logging
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

from claims.model import Message
from claims.sources import InputError, iter_messages
from verifier.bot_config import BotContext
from verifier.bot_decide import address, decide
from verifier.fetch import FetchError

log = logging.getLogger("verifier.bot")

New = Iterator[tuple[str, Message | None]]  # (Message-ID, the message when already read)


def parse_raw(raw: bytes, name: str = "message") -> Message | None:
    try:
        return next(iter_messages(name, data=raw), None)
    except (InputError, ValueError) as e:
        log.info("skipped %s because it cannot be read: %s", name, e)
        return None


def atom_ids(feed: bytes) -> list[str]:
    """Message-IDs in a public-inbox new.atom feed, oldest first."""
    try:
        root = ET.fromstring(feed)
    except ET.ParseError as e:
        raise FetchError(f"new.atom is not a feed: {e}") from None
    ns = {"a": "http://www.w3.org/2005/Atom"}
    out = []
    for entry in root.findall("a:entry", ns):
        link = entry.find("a:link", ns)
        href = link.get("href", "") if link is not None else ""
        parts = [p for p in href.split("/") if p]
        if parts:
            out.append(unquote(parts[-1]))
    return out[::-1]


def poll(ctx: BotContext) -> int:
    """New messages of every list, each recorded with its decision; returns how many."""
    n = 0
    for url, inbox in ctx.inboxes.items():
        try:
            for mid, msg in _new_messages(ctx, url, inbox):
                n += see_message(ctx, url, msg) if msg else see(ctx, url, mid)
        except FetchError as e:
            log.warning("poll %s failed: %s", url, e)
    return n


def _new_messages(ctx: BotContext, url: str, inbox: Any) -> New:
    if ctx.cfg.watch == "git":
        yield from _git_messages(ctx, url)
        return
    if ctx.cfg.watch == "search":
        yield from _search_messages(ctx, url, inbox)
        return
    ids = atom_ids(inbox.new_atom())
    fresh = [i for i in ids if not ctx.state.threads.seen(i)]
    if ids and len(fresh) == len(ids) and ctx.state.threads.position(url):
        log.warning("poll %s: all %d feed entries are new; messages may have been "
                    "missed (poll more often or set a query)", url, len(ids))
    for mid in fresh:
        yield mid, None
    if ids:
        ctx.state.threads.set_position(url, ids[-1])


def _search_messages(ctx: BotContext, url: str, inbox: Any) -> New:
    """Search hits dated from two days before the last poll on (Date headers lie a
    little; the messages table drops what was already seen)."""
    started = time.time()
    since = ctx.state.threads.position(url)
    q = ctx.cfg.query or ""
    if since:
        q += time.strftime(" d:%Y%m%d..", time.gmtime(float(since) - 2 * 86400))
    data = inbox.search_mbox(q)
    for m in iter_messages("search.mbox", data=data) if data else []:
        if m.message_id and not ctx.state.threads.seen(m.message_id):
            yield m.message_id, m
    ctx.state.threads.set_position(url, str(int(started)))


def _git_messages(ctx: BotContext, url: str) -> New:
    """Every message of the inbox's git epochs (a mirror kept next to the state), in
    the order the list archived them, from the last commit read on."""
    from verifier.inbox_git import GitError, epoch_messages

    mirrors = ctx.cfg.state.parent / "mirrors" / hashlib.sha1(url.encode()).hexdigest()[:12]
    pos = json.loads(ctx.state.threads.position(url) or "{}")
    epoch = int(pos.get("epoch", 0))
    while True:
        last = pos.get("commit") if int(pos.get("epoch", 0)) == epoch else None
        try:
            n = 0
            for oid, raw in epoch_messages(f"{url}/{epoch}", mirrors / f"{epoch}.git",
                                           last):
                msg = parse_raw(raw, f"{url}/{epoch}:{oid[:12]}")
                if msg is not None and msg.message_id:
                    yield msg.message_id, msg
                n += 1
                if n % 200 == 0:
                    ctx.state.threads.set_position(url, json.dumps({"epoch": epoch, "commit": oid}))
                last = oid
        except GitError as e:
            if epoch == 0:
                raise FetchError(str(e)) from None
            return  # no further epoch
        if last:
            ctx.state.threads.set_position(url, json.dumps({"epoch": epoch, "commit": last}))
        pos = {"epoch": epoch, "commit": last}
        epoch += 1


def see(ctx: BotContext, url: str, mid: str) -> int:
    """Fetch, record one message and what it asks for; 1 if it was new."""
    if ctx.state.threads.seen(mid):
        return 0
    try:
        raw = ctx.inboxes[url].raw(mid)
    except FetchError as e:
        log.warning("fetch <%s> failed, will retry: %s", mid, e)
        return 0
    msg = parse_raw(raw, f"<{mid}>")
    if msg is None:
        ctx.state.threads.add_message(mid, url, mid, "", "", "")
        return 1
    return see_message(ctx, url, msg)


def see_message(ctx: BotContext, url: str, msg: Message) -> int:
    mid = (msg.message_id or "").strip("<>")
    if not mid or ctx.state.threads.seen(mid):
        return 0
    refs = [r.strip("<>") for r in [*msg.references, msg.in_reply_to or ""] if r]
    thread_id = ctx.state.threads.thread_of(refs) or (refs[0] if refs else mid)
    who = address(msg.from_)
    try:
        status, reason, by = decide(ctx, url, msg, thread_id, who)
    except Exception as e:  # noqa: BLE001 - one bad mail must not stop the bot
        status, reason, by = None, f"skipped because reading it failed: {e!r}"[:300], None
    ctx.state.threads.add_message(mid, url, thread_id, who, msg.subject or "", msg.date or "",
                                  status, reason, by)
    log.info("seen <%s> in %s from %s: %s", mid, url, who or "?",
             reason or "nothing asked")
    return 1
