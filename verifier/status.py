"""`verifier status`: what the bot has seen, queued, run and replied, read from its state.

Without a Message-ID: counts, the requested/opted-out threads, and every reply that is
not sent (with its error).  With one: that thread's claims, runs, verdicts and replies.
"""
from __future__ import annotations

import sys
import time
from collections import Counter

from runners.results import RunRecord
from verifier.bot_config import BotError, load_bot_config
from verifier.fetch import FetchError
from verifier.fetch.lore import normalize_msgid
from verifier.state import REPLY_SENT, State, StateError


def status(config: str | None, msgid: str | None = None) -> int:
    """Print the overview, or the thread of `msgid`; 0, 1 for a thread the bot has not
    seen, 2 on a bad config or state."""
    try:
        cfg, smtp = load_bot_config(config)
        with State(cfg.state) as state:
            if msgid:
                lines = thread_status(state, normalize_msgid(msgid))
                if lines is None:
                    print(f"verifier status: the bot has not seen <{msgid}>",
                          file=sys.stderr)
                    return 1
                if smtp.public_url:
                    from urllib.parse import quote
                    mid = normalize_msgid(msgid).strip("<>")
                    lines.append(f"  page: {smtp.public_url.rstrip('/')}/m/"
                                 f"{quote(mid, safe='@')}")
            else:
                lines = overview(state)
    except (BotError, StateError, FetchError) as e:
        print(f"verifier status: {e}", file=sys.stderr)
        return 2
    from verifier.report import clean

    print(clean("\n".join(lines)))  # subjects and reasons come from mail: no escapes
    return 0


def _when(t: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.gmtime(t)) + " UTC" if t else "-"


def overview(state: State) -> list[str]:
    out = []
    for table, counts in state.counts().items():
        parts = ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) or "none"
        out.append(f"{table}: {parts}")
    for t in state.threads.threads():
        if t.status != "seen":
            out.append(f"thread <{t.thread_id}> {t.status}: {t.reason or ''} "
                       f"({t.subject or ''})".rstrip())
    for r in state.replies.replies():
        if r.status != REPLY_SENT:
            out.append(f"reply for claim {r.claim_id} {r.status}"
                       + (f": {r.error}" if r.error else "")
                       + (f" ({r.path})" if r.path else ""))
    return out


def ran_where(runs: list[RunRecord]) -> str:
    """'lab1 (12 ok), lab2 (3 ok, 1 lost)': which host ran what, from the stored records."""
    from runners.results import FailureKind

    by_host: dict[str, Counter[str]] = {}
    for r in runs:
        kind = "ok" if r.ok else "lost" if r.failure == FailureKind.LOST else "failed"
        by_host.setdefault(r.host or "?", Counter())[kind] += 1
    return ", ".join(f"{h} ({', '.join(f'{n} {k}' for k, n in sorted(c.items()))})"
                     for h, c in sorted(by_host.items()))


def thread_status(state: State, mid: str) -> list[str] | None:
    thread_id = state.threads.thread_of([mid]) or mid
    t = state.threads.thread(thread_id)
    if t is None:
        return None
    out = [f"thread <{thread_id}> in {t.list}: {t.status}"
           + (f" ({t.reason})" if t.reason else ""), f"  subject: {t.subject}"]
    for c in state.claims.claims(thread_id):
        runs = state.runs.runs(c.id)
        ok = sum(1 for r in runs if r.ok and not r.warmup)
        out.append(f"  claim {c.id} {c.spec_id} from <{c.message_id}>: {c.status}"
                   + (f" ({c.reason})" if c.reason else ""))
        if c.previous_id:
            out.append(f"    follows claim {c.previous_id} (earlier version of the series)")
        out.append(f"    runs stored: {len(runs)} ({ok} counted ok)")
        where = ran_where(runs)
        if where:
            runner = (state.claims.results_of(c.id) or {}).get("runner") or "runner"
            out.append(f"    ran on {runner}: {where}")
        v = state.runs.verdicts(c.id)
        if v:
            out.append(f"    verdict: {v[1]}")
            for row in v[0]:
                out.append(f"      {row.metric}: {row.verdict}")
        r = state.replies.reply(c.id)
        if r:
            out.append(f"    reply <{r.message_id}> {r.status} {_when(r.updated_at)}"
                       + (f": {r.error}" if r.error else ""))
    return out
