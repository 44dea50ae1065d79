"""Planning: a requested thread's claims into the queue, each once per spec version.

The thread is fetched as the list has it now (the bot's own replies left out) and turned
into specs by verifier.pipeline.thread_specs, the rule `verifier check` uses too.  A v2 of
a series is linked to the claim it follows by its series key.
"""
from __future__ import annotations

import hashlib
import json
import logging
import re
from typing import Any

from claims.model import Message
from claims.sources import iter_messages
from verifier.bot_config import BotContext
from verifier.bot_decide import address
from verifier.fetch import FetchError
from verifier.pipeline import thread_specs

log = logging.getLogger("verifier.bot")

_SERIES = re.compile(r"^\s*(re:\s*|\[[^\]]*\]\s*)*", re.I)
_VERSION = re.compile(r"\[[^\]]*\bv(\d+)\b[^\]]*\]", re.I)


def series_of(subject: str | None) -> tuple[str, int]:
    """(series key, version): '[PATCH v2 net-next 1/3] foo' -> ('foo', 2)."""
    s = subject or ""
    m = _VERSION.search(s)
    return _SERIES.sub("", s).strip().lower(), int(m.group(1)) if m else 1


def spec_hash(spec: dict[str, Any]) -> str:
    """The spec version: what would run and be compared, not its seed or wording."""
    keep = {k: spec.get(k) for k in ("benchmark", "server", "variants", "metrics", "needs")}
    return hashlib.sha256(json.dumps(keep, sort_keys=True).encode()).hexdigest()[:16]


def thread_messages(ctx: BotContext, thread_id: str) -> tuple[str, list[Message]]:
    """The thread as the list has it now (the bot's own replies left out)."""
    url = ctx.list_of(thread_id)
    inbox = ctx.inbox(url)
    try:
        data = inbox.thread_mbox(thread_id)
    except FetchError as e:
        # the root may never have reached this list: ask for a message that did
        known = [m for m in ctx.state.threads.messages_of(thread_id) if m != thread_id]
        if not (e.not_found and known):
            raise
        data = inbox.thread_mbox(known[0])
    msgs = list(iter_messages("thread.mbox", data=data))
    return url, [m for m in msgs if address(m.from_) != ctx.me]


def enqueue(ctx: BotContext, thread_id: str) -> int:
    """Claims of a requested thread into the queue; returns how many are new."""
    state, limit = ctx.state, ctx.cfg.claims_per_thread
    try:
        _, msgs = thread_messages(ctx, thread_id)
    except FetchError as e:
        if e.not_found:
            state.threads.set_thread(thread_id, "extracted", f"not in the inbox: {e}")
            log.info("skipped <%s> because it is not in the inbox", thread_id)
        else:
            log.warning("thread <%s> not fetched, will retry: %s", thread_id, e)
        return 0
    try:
        specs = thread_specs(msgs)
    except Exception as e:  # noqa: BLE001 - recorded, the loop goes on
        state.threads.set_thread(thread_id, "extracted", f"extraction failed: {e!r}"[:300])
        log.warning("skipped <%s> because extraction failed: %r", thread_id, e)
        return 0
    added = 0
    for spec in specs[:limit]:
        d = spec.to_dict()
        src = d.get("source") or {}
        series, version = series_of(src.get("subject"))
        cid, new = state.claims.add_claim(thread_id, src.get("message_id") or thread_id, d,
                                          spec_hash(d), series, version)
        if not new:
            continue
        added += 1
        if not spec.benchmark.argv:
            state.claims.set_claim(cid, "not-runnable", "no benchmark command in the thread")
            log.info("skipped claim %d (%s) because the thread gives no command to run",
                     cid, d["id"])
            continue
        log.info("queued claim %d (%s) from <%s>", cid, d["id"], src.get("message_id"))
    if len(specs) > limit:
        log.info("skipped %d claims of <%s> because claims_per_thread is %d",
                 len(specs) - limit, thread_id, limit)
    thread = state.threads.thread(thread_id)
    state.threads.set_thread(thread_id, "extracted", f"{len(specs)} claim(s), {added} new",
                             thread.requested_by if thread else None)
    if not specs:
        log.info("skipped <%s> because no runnable claim was found", thread_id)
    return added
