"""What a message asks the bot to do: `verifier: check` from an allowed address, `verifier:
no`/`stop` from the thread's author or a maintainer, or (verify_all) nothing but being a
patch with claims from a chosen author or list."""
from __future__ import annotations

import re
from email.utils import parseaddr

from claims.extract import extract_message, might_have_claims
from claims.model import Message
from verifier import state as st
from verifier.bot_config import BotContext

_TRIGGER = re.compile(r"^\s*verifier:\s*(check|no|stop)\b", re.I)

Decision = tuple[str | None, str | None, str | None]  # (thread status, why, asked by)


def address(value: str | None) -> str:
    return parseaddr(value or "")[1].lower()


def triggers(msg: Message) -> list[str]:
    """'check' / 'no' / 'stop' lines the sender wrote (quoted lines do not count)."""
    return [m.group(1).lower() for ln in msg.lines
            if ln.depth == 0 and (m := _TRIGGER.match(ln.text))]


def decide(ctx: BotContext, url: str, msg: Message, thread_id: str, who: str) -> Decision:
    if who and who == ctx.me:
        return None, "our own reply", None
    words = triggers(msg)
    thread = ctx.state.threads.thread(thread_id)
    author = thread.author if thread else who
    cfg = ctx.cfg
    if "no" in words or "stop" in words:
        if who == author or who in cfg.maintainers:
            return st.OPTED_OUT, f"opt-out by {who}", who
        return None, f"skipped because opt-out from {who} (not the author or a maintainer)", None
    if "check" in words:
        if who in cfg.allow or who in cfg.maintainers:
            return st.REQUESTED, f"asked by {who}", who
        return None, f"skipped because {who} is not on the allow-list", None
    if cfg.verify_all and _wanted_patch(ctx, url, msg, who):
        return st.REQUESTED, "verify-all: patch with claims", "verify_all"
    return None, None, None


def _wanted_patch(ctx: BotContext, url: str, msg: Message, who: str) -> bool:
    if not re.search(r"\[[^\]]*PATCH", msg.subject or "", re.I):
        return False
    if ctx.cfg.all_lists and url not in ctx.cfg.all_lists:
        return False
    if ctx.cfg.all_authors and who not in ctx.cfg.all_authors:
        return False
    return might_have_claims(msg.body) and bool(extract_message(msg).claims)
