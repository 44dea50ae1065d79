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


def cached_thread(message_id: str | None, inbox: str | None = None) -> str | None:
    """The cached mbox of the thread of `message_id` (as `verifier fetch` stored it)."""
    if not message_id:
        return None
    from verifier.cache import Cache
    from verifier.fetch import FetchError, choose_inbox, classify

    try:
        target = classify(message_id.strip("<>"), choose_inbox(inbox))
    except FetchError:
        return None
    hit = Cache("threads").get(target.cache_key("http"))
    return str(hit) if hit else None


def _thread(path: str | None, results):
    from claims.sources import InputError, iter_messages

    mid = results.spec.source.message_id
    where = path or cached_thread(mid)
    if not where:
        raise ReplyError(f"the thread of <{mid}> is not in the cache: give it with --thread "
                         "MBOX, or `verifier fetch` it first (a reply never goes without the "
                         "list)")
    try:
        return list(iter_messages(where))
    except (InputError, OSError) as e:
        raise ReplyError(f"--thread {where}: {e}") from None


def run(args: argparse.Namespace) -> int:
    try:
        section = load_config(args.config).section("smtp")
        settings = smtp_settings(section)
        outbox = args.outbox or section.get("outbox") or "outbox"
        results = load_results(args.results)
        if args.send and not settings.sender:
            raise ReplyError("no From: configured: set `from` in [smtp] (or "
                             "VERIFIER_SMTP_FROM) to send")
        out = reply(results, outbox, send=args.send, thread=_thread(args.thread, results),
                    settings=settings)
    except (ValueError, ReplyError, ConfigError) as e:
        print(f"verifier reply: {e}", file=sys.stderr)
        return 2
    print(out.message)
    print(out.path)
    return 0
