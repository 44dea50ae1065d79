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
import logging
import signal
import sys

from verifier.bot import Bot
from verifier.bot_config import BotError, load_bot_config
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
    old = {s: signal.signal(s, _stop) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        bot.run_forever(once=args.once)
    except BotError as e:
        print(f"verifier bot: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as e:
        # The runner's context managers have restored settings and deleted namespaces on
        # the way out; every finished run is already committed, so the next start resumes.
        from runners.process import kill_all

        kill_all()
        signum = e.args[0] if e.args and isinstance(e.args[0], int) else signal.SIGINT
        logging.getLogger("verifier.bot").info(
            "stopped by signal %d; the runs so far are stored, the next start resumes", signum)
        return 128 + int(signum)
    finally:
        for s, h in old.items():
            signal.signal(s, h)
        bot.close()
    return 0


def _stop(signum: int, frame: object) -> None:
    """SIGTERM/SIGHUP: unwind like Ctrl-C (cleanup on every path), once: a second signal
    during the cleanup is ignored so it cannot stop the cleanup half-way."""
    for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(s, signal.SIG_IGN)
    raise KeyboardInterrupt(signum)
