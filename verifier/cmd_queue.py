"""Ask the bot to verify a thread, as a maintainer: `verifier queue <msgid>`.

The request is written to the bot's state; the running bot picks it up on its next round.
A Message-ID the state has never seen must exist on one of the bot's lists (--force skips
that check).
"""
from __future__ import annotations

import argparse
import sys

from verifier.bot_config import BotError, load_bot_config
from verifier.fetch import FetchError
from verifier.fetch.lore import normalize_msgid
from verifier.state import REQUESTED, State, StateError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("msgid", help="Message-ID (or lore URL) of any message of the thread")
    p.add_argument("--config", default=None, help="config file (default: $VERIFIER_CONFIG)")
    p.add_argument("--by", default="operator", help="who asked (recorded)")
    p.add_argument("--force", action="store_true",
                   help="queue without asking the watched lists whether the message exists")


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


def run(args: argparse.Namespace) -> int:
    try:
        mid = normalize_msgid(args.msgid)
        cfg, _ = load_bot_config(args.config)
        with State(cfg.state) as state:
            thread_id = state.thread_of([mid]) or mid
            t = state.thread(thread_id)
            if t is None and not state.seen(mid) and not args.force:
                where = _find(mid, cfg.lists)
                if where is not None:
                    print(f"verifier queue: {where}; not queued (--force queues it anyway)",
                          file=sys.stderr)
                    return 2
            if t and t.status == "opted-out":
                print(f"verifier queue: <{thread_id}> opted out ({t.reason}); not queued",
                      file=sys.stderr)
                return 1
            state.set_thread(thread_id, REQUESTED, f"queued by {args.by}", args.by)
    except (BotError, StateError, FetchError) as e:
        print(f"verifier queue: {e}", file=sys.stderr)
        return 2
    print(f"queued <{thread_id}>")
    return 0
