"""Run the bot: watch the configured lists, verify what people ask for, reply once.

    verifier bot --config bot.toml [--once] [--dry-run]

Settings are the [bot] and [smtp] tables of the config file (docs/bot.md). --once runs one
poll-work-reply round and exits; --dry-run writes replies to the outbox without sending.
SIGTERM (and SIGHUP) stop it like Ctrl-C: the run in progress is cleaned up (settings
restored, namespaces deleted), what finished is stored, exit status 128 + the signal.  One
bot per state file: a second one refuses to start.
"""
from __future__ import annotations

import argparse

from verifier.options import add_config


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_config(p)
    p.add_argument("--once", action="store_true", help="one round, then exit")
    p.add_argument("--dry-run", action="store_true",
                   help="record decisions and write replies to the outbox, send nothing")


def run(args: argparse.Namespace) -> int:
    from verifier.bot import serve

    return serve(args.config, once=args.once, dry_run=args.dry_run)
