"""Ask the bot to verify a thread, as a maintainer: `verifier queue <msgid>`.

The request is written to the bot's state; the running bot picks it up on its next round.
A Message-ID the state has never seen must exist on one of the bot's lists (--force skips
that check).
"""
from __future__ import annotations

import argparse

from verifier.options import add_config


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("msgid", help="Message-ID (or lore URL) of any message of the thread")
    add_config(p)
    p.add_argument("--by", default="operator", help="who asked (recorded)")
    p.add_argument("--force", action="store_true",
                   help="queue without asking the watched lists whether the message exists")


def run(args: argparse.Namespace) -> int:
    from verifier.queue_request import queue

    return queue(args.msgid, args.config, args.by, args.force)
