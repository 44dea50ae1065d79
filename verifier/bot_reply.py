"""Replying: each judged claim's reply written to the outbox and mailed once.

The reply is the one `verifier reply --send` makes (verifier.reply.Outbox: the same
Message-ID, file and sent-ledger, so the two never send one reply twice and share the
hourly rate limit); the bot adds its own limits (per day, thread and author) and its
crash safety: a reply is recorded as 'sending' with its Message-ID before the SMTP call,
and after a crash the inbox is asked for that Message-ID before sending again.
"""
from __future__ import annotations

import email
import logging
import time
from email import policy
from pathlib import Path

from verifier import state as st
from verifier.bot_config import BotContext
from verifier.bot_execute import results_of
from verifier.bot_plan import thread_messages
from verifier.fetch import FetchError
from verifier.reply import Draft, Outbox, ReplyError
from verifier.state import ClaimRow

log = logging.getLogger("verifier.bot")


def reply_claim(ctx: BotContext, claim: ClaimRow) -> None:
    """Write the reply to the outbox and (unless dry run) send it, once."""
    state = ctx.state
    done = state.replies.reply(claim.id)
    if done and done.status in (st.REPLY_SENT, st.REPLY_DRY):
        return
    if done and done.status == st.REPLY_SENDING:
        return _finish_sending(ctx, claim, done)
    thread = state.threads.thread(claim.thread_id) or st.ThreadRow(claim.thread_id)
    if thread.status == st.OPTED_OUT:
        log.info("skipped reply to claim %d because the thread opted out", claim.id)
        return None
    author = thread.author or ""
    why = _limited(ctx, claim.thread_id, author)
    mid_hint = (done.message_id if done else None) or ""
    if why:
        if not done or done.error != why:
            state.replies.set_reply(claim.id, claim.thread_id, author, mid_hint, st.REPLY_PENDING,
                                    error=why)
            log.info("skipped reply to claim %d because %s (kept queued)", claim.id, why)
        return None
    results = results_of(ctx, claim.id)
    if results is None:
        return None
    try:
        _, msgs = thread_messages(ctx, claim.thread_id)
        with Outbox(ctx.cfg.outbox) as box:
            d = box.draft(results, msgs, ctx.smtp, deliverable=not ctx.cfg.dry_run,
                          requested_by=thread.requested_by)
    except (FetchError, ReplyError) as e:
        state.replies.set_reply(claim.id, claim.thread_id, author, mid_hint, st.REPLY_FAILED,
                                error=str(e))
        log.warning("reply to claim %d not built: %s", claim.id, e)
        return None
    if ctx.cfg.dry_run:
        state.replies.set_reply(claim.id, claim.thread_id, author, d.message_id, st.REPLY_DRY,
                                str(d.path))
        log.info("replied claim %d (dry run): %s", claim.id, d.path)
        return None
    state.replies.set_reply(claim.id, claim.thread_id, author, d.message_id, st.REPLY_SENDING,
                            str(d.path))
    _send(ctx, claim, d, author)
    return None


def _send(ctx: BotContext, claim: ClaimRow, d: Draft, author: str) -> None:
    try:
        with Outbox(ctx.cfg.outbox) as box:
            before = box.send(d, ctx.smtp)
    except ReplyError as e:
        ctx.state.replies.set_reply(claim.id, claim.thread_id, author, d.message_id,
                                    st.REPLY_FAILED, error=str(e))
        log.warning("reply to claim %d not sent, kept queued: %s", claim.id, e)
        return
    ctx.state.replies.set_reply(claim.id, claim.thread_id, author, d.message_id, st.REPLY_SENT)
    if before:
        log.info("replied claim %d: <%s> %s", claim.id, d.message_id, before)
    else:
        log.info("replied claim %d as <%s>", claim.id, d.message_id)


def _finish_sending(ctx: BotContext, claim: ClaimRow, rec: st.ReplyRow) -> None:
    """A crash between 'sending' and 'sent': look in the inbox before sending again."""
    mid, author = rec.message_id or "", rec.author or ""
    lost: Exception | None = None
    try:
        if rec.path is None:
            raise FileNotFoundError("no outbox file was recorded")
        raw = Path(rec.path).read_bytes()
    except OSError as e:
        raw, lost = None, e
    msg = email.message_from_bytes(raw, policy=policy.SMTP) if raw is not None else None
    url = ctx.list_of(claim.thread_id)
    try:
        ctx.inbox(url).raw(mid)
        if msg is not None:
            with Outbox(ctx.cfg.outbox) as box:
                box.record(str(msg["X-Verifier-Key"]), msg)  # type: ignore[arg-type]
        ctx.state.replies.set_reply(claim.id, claim.thread_id, author, mid, st.REPLY_SENT)
        log.info("replied claim %d: <%s> already reached %s", claim.id, mid, url)
        return
    except FetchError as e:
        if not e.not_found:
            log.warning("cannot tell whether <%s> was sent, will retry: %s", mid, e)
            return
    if msg is None:
        ctx.state.replies.set_reply(claim.id, claim.thread_id, author, mid, st.REPLY_FAILED,
                                    error=f"outbox copy lost: {lost}")
        return
    d = Draft(str(msg["X-Verifier-Key"]), msg, Path(rec.path or ""))  # type: ignore[arg-type]
    with Outbox(ctx.cfg.outbox) as box:
        before = box.sent(d.key)
    if before:  # the SMTP server took it; the list has not archived it (yet)
        ctx.state.replies.set_reply(claim.id, claim.thread_id, author, mid, st.REPLY_SENT)
        log.info("replied claim %d: <%s> is in the outbox's sent-ledger", claim.id, mid)
        return
    ctx.state.replies.set_reply(claim.id, claim.thread_id, author, mid, st.REPLY_SENDING)
    _send(ctx, claim, d, author)


def _limited(ctx: BotContext, thread_id: str, author: str) -> str | None:
    """Why the bot's own limits hold this reply back now, or None."""
    cfg, state = ctx.cfg, ctx.state
    day = time.time() - 86400
    if state.replies.replies_since(day) >= cfg.replies_per_day:
        return f"rate limit: {cfg.replies_per_day} replies per day"
    if state.replies.replies_since(0, thread_id=thread_id) >= cfg.replies_per_thread:
        return f"rate limit: {cfg.replies_per_thread} replies per thread"
    if author and state.replies.replies_since(day, author=author) >= cfg.replies_per_author:
        return f"rate limit: {cfg.replies_per_author} replies per author per day"
    return None
