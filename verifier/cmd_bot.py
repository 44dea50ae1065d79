"""Run the bot: watch the configured lists, verify what people ask for, reply once.

    verifier bot --config bot.toml [--once] [--dry-run]

Settings are the [bot] and [smtp] tables of the config file (docs/bot.md). --once runs one
poll-work-reply round and exits; --dry-run writes replies to the outbox without sending.
"""
from __future__ import annotations

import argparse
import logging
import sys

from verifier.bot import Bot, BotError, load_bot_config
from verifier.state import StateError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", default=None, help="config file (default: $VERIFIER_CONFIG)")
    p.add_argument("--once", action="store_true", help="one round, then exit")
    p.add_argument("--dry-run", action="store_true",
                   help="record decisions and write replies to the outbox, send nothing")


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s bot: %(message)s", datefmt="%Y-%m-%d %H:%M:%S")
    try:
        cfg, smtp = load_bot_config(args.config, args.dry_run)
        bot = Bot(cfg, smtp)
    except (BotError, StateError) as e:
        print(f"verifier bot: {e}", file=sys.stderr)
        return 2
    try:
        bot.run_forever(once=args.once)
    except BotError as e:
        print(f"verifier bot: {e}", file=sys.stderr)
        return 2
    finally:
        bot.close()
    return 0
