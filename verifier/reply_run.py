"""`verifier reply`: the reply to a thread written as an .eml in the outbox (verifier.reply),
mailed once with `send`.

The thread gives the only addresses a reply may go to: given as a file, else the cached
copy `verifier fetch` stored; without either the reply is refused, never sent without the
list.
"""
from __future__ import annotations

import sys

from claims.model import Message
from runners.results import Results
from verifier.config import ConfigError, load_config
from verifier.reply import ReplyError, reply, smtp_settings
from verifier.results_file import load_results


def reply_to_thread(results: str, send: bool = False, outbox: str | None = None,
                    thread: str | None = None, config: str | None = None) -> int:
    """Write the reply .eml of the results file `results` (and mail it once with `send`);
    0 with its Message-ID and path printed, or 2 with a one-line error."""
    try:
        section = load_config(config).section("smtp")
        settings = smtp_settings(section)
        box = outbox or section.get("outbox") or "outbox"
        res = load_results(results)
        if send and not settings.sender:
            raise ReplyError("no From: configured: set `from` in [smtp] (or "
                             "VERIFIER_SMTP_FROM) to send")
        out = reply(res, box, send=send, thread=_thread(thread, res),
                    settings=settings)
    except (ValueError, ReplyError, ConfigError) as e:
        print(f"verifier reply: {e}", file=sys.stderr)
        return 2
    print(out.message)
    print(out.path)
    return 0


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


def _thread(path: str | None, results: Results) -> list[Message]:
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
