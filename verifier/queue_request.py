"""`verifier queue`: a maintainer asks the bot to verify a thread.

The request is written to the bot's state; the running bot picks it up on its next round.
A Message-ID the state has never seen must exist on one of the bot's lists (unless forced),
or it would stay "requested" for ever.
"""
from __future__ import annotations

import sys

from verifier.bot_config import BotError, load_bot_config
from verifier.fetch import FetchError
from verifier.fetch.lore import normalize_msgid
from verifier.state import REQUESTED, State, StateError


def queue(msgid: str, config: str | None = None, by: str = "operator",
          force: bool = False) -> int:
    """Mark the thread of `msgid` requested; 0, 1 when it opted out, 2 when it cannot be
    queued (a bad config or state, a Message-ID on none of the lists)."""
    try:
        mid = normalize_msgid(msgid)
        cfg, _ = load_bot_config(config)
        with State(cfg.state) as state:
            thread_id = state.threads.thread_of([mid]) or mid
            t = state.threads.thread(thread_id)
            if t is None and not state.threads.seen(mid) and not force:
                where = _find(mid, cfg.lists)
                if where is not None:
                    print(f"verifier queue: {where}; not queued (--force queues it anyway)",
                          file=sys.stderr)
                    return 2
            if t and t.status == "opted-out":
                print(f"verifier queue: <{thread_id}> opted out ({t.reason}); not queued",
                      file=sys.stderr)
                return 1
            state.threads.set_thread(thread_id, REQUESTED, f"queued by {by}", by)
    except (BotError, StateError, FetchError) as e:
        print(f"verifier queue: {e}", file=sys.stderr)
        return 2
    print(f"queued <{thread_id}>")
    return 0


def _find(mid: str, lists: list[str]) -> str | None:
    """None when one of the bot's lists has the message, else why it cannot be queued (a
    Message-ID that exists nowhere would stay "requested" for ever)."""
    from verifier.fetch.http import Http
    from verifier.fetch.lore import PublicInbox

    errors = []
    for url in lists:
        try:
            PublicInbox(url, Http(delay=0.0, timeout=(5.0, 20.0), retries=1)).raw(mid)
            return None
        except FetchError as e:
            if not e.not_found:
                errors.append(f"{url}: {e}")
    if errors:
        return f"cannot check <{mid}>: {errors[0][:200]}"
    return f"no message <{mid}> in {', '.join(lists)[:200]}"
