"""Write the reply to the thread as an .eml in the outbox; --send mails it once.

    verifier reply results.json [--send] [--outbox DIR] [--thread MBOX|EML]

SMTP host, port, STARTTLS, sender and credentials come from the [smtp] table of the
config file or VERIFIER_SMTP_* variables, never from the command line.
"""
from __future__ import annotations

import argparse
import sys

from verifier.cmd_report import load_results
from verifier.config import ConfigError, load_config
from verifier.reply import ReplyError, reply, smtp_settings


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("results", help="results JSON file")
    p.add_argument("--send", action="store_true", help="mail it (default: dry run)")
    p.add_argument("--outbox", default=None,
                   help="folder for .eml files and the sent record (default: [smtp] outbox "
                        "in the config, else ./outbox)")
    p.add_argument("--thread", default=None,
                   help="the thread (mbox, .eml, archive page): its addresses are the only "
                        "ones a reply may go to")
    p.add_argument("--config", default=None, help="config file (default: $VERIFIER_CONFIG)")


def _thread(path: str | None):
    if not path:
        return None
    from claims.sources import InputError, iter_messages
    try:
        return list(iter_messages(path))
    except (InputError, OSError) as e:
        raise ReplyError(f"--thread {path}: {e}") from None


def run(args: argparse.Namespace) -> int:
    try:
        section = load_config(args.config).section("smtp")
        settings = smtp_settings(section)
        outbox = args.outbox or section.get("outbox") or "outbox"
        out = reply(load_results(args.results), outbox, send=args.send,
                    thread=_thread(args.thread), settings=settings)
    except (ValueError, ReplyError, ConfigError) as e:
        print(f"verifier reply: {e}", file=sys.stderr)
        return 2
    print(out.message)
    print(out.path)
    return 0
