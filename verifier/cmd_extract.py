"""Show the performance claims, benchmark commands and setup steps in messages.

    verifier extract thread.mbox
    verifier extract --format json msg.eml
    verifier extract - < cover-letter.txt

The table lists only the messages where something was found, then one summary line; JSON
has every message. An mbox is read in two levels (claims.sources, prescan=True): messages
that cannot hold a claim are never fully modelled.
"""
from __future__ import annotations

import argparse

from verifier.options import add_inbox


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", help="a message, mbox, archive page or text file; - for stdin")
    p.add_argument("--format", choices=("table", "json"), default="table")
    add_inbox(p, "public-inbox URL for a Message-ID (default: config, b4.midmask, lore)")


def run(args: argparse.Namespace) -> int:
    from verifier.extract_run import extract

    return extract(args.path, args.format, args.inbox)
