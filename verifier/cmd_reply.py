"""Write the reply to the thread as an .eml in the outbox; --send mails it once.

    verifier reply results.json [--send] [--outbox DIR] [--thread MBOX|EML]

SMTP host, port, STARTTLS, sender (`from`, required to send), credentials and the results
page's `public_url` come from the [smtp] table of the config file or VERIFIER_SMTP_*
variables, never from the command line.  The thread gives the only addresses a reply may
go to: from --thread, else the cache (`verifier fetch <msgid>` puts it there); without
either the reply is refused, never sent without the list.
"""
from __future__ import annotations

import argparse

from verifier.options import add_config


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("results", help="results JSON file")
    p.add_argument("--send", action="store_true", help="mail it (default: dry run)")
    p.add_argument("--outbox", default=None,
                   help="folder for .eml files and the sent record (default: [smtp] outbox "
                        "in the config, else ./outbox)")
    p.add_argument("--thread", default=None,
                   help="the thread (mbox, .eml, archive page): its addresses are the only "
                        "ones a reply may go to")
    add_config(p)


def run(args: argparse.Namespace) -> int:
    from verifier.reply_run import reply_to_thread

    return reply_to_thread(args.results, args.send, args.outbox, args.thread, args.config)
