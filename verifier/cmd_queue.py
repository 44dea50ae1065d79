"""Ask the bot to verify a thread, as a maintainer: `verifier queue <msgid>`.

The request is written to the bot's state; the running bot picks it up on its next round.
"""
from __future__ import annotations

import argparse
import sys

from verifier.bot import BotError, load_bot_config
from verifier.fetch import FetchError
from verifier.fetch.lore import normalize_msgid
from verifier.state import REQUESTED, State, StateError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("msgid", help="Message-ID (or lore URL) of any message of the thread")
    p.add_argument("--config", default=None, help="config file (default: $VERIFIER_CONFIG)")
    p.add_argument("--by", default="operator", help="who asked (recorded)")


def run(args: argparse.Namespace) -> int:
    try:
        mid = normalize_msgid(args.msgid)
        cfg, _ = load_bot_config(args.config)
        with State(cfg.state) as state:
            thread_id = state.thread_of([mid]) or mid
            t = state.thread(thread_id)
            if t and t["status"] == "opted-out":
                print(f"verifier queue: <{thread_id}> opted out ({t['reason']}); not queued",
                      file=sys.stderr)
                return 1
            state.set_thread(thread_id, REQUESTED, f"queued by {args.by}", args.by)
    except (BotError, StateError, FetchError) as e:
        print(f"verifier queue: {e}", file=sys.stderr)
        return 2
    print(f"queued <{thread_id}>")
    return 0
