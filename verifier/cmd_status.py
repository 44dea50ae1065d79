"""What the bot has seen, queued, run and replied: `verifier status [msgid]`.

Without a Message-ID: counts, the requested/opted-out threads, and every reply that is
not sent (with its error).  With one: that thread's claims, runs, verdicts and replies.
"""
from __future__ import annotations

import argparse

from verifier.options import add_config


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("msgid", nargs="?", help="a thread's (or any of its messages') Message-ID")
    add_config(p)


def run(args: argparse.Namespace) -> int:
    from verifier.status import status

    return status(args.config, args.msgid)
