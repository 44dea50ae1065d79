"""Slow: the real virtualization list archive in a local public-inbox, walked by the bot in
dry-run with verify_all (plan only: nothing runs, nothing is sent).  Prints messages read
per second, the threads it would verify and why, and the claims it queued.

    python -m pytest -m slow -s tests/verifier/test_bot_archive_slow.py
(VERIFIER_ARCHIVE_LIMIT=N loads the first N messages; default 0 = all 27,573; the listing
is written to $VERIFIER_BOT_PLAN, default /tmp/bot-archive-plan.txt.)
"""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.lore import archive_inbox
from verifier.bot import Bot
from verifier.bot_config import BotConfig

pytestmark = pytest.mark.slow


@pytest.mark.timeout(3600)
def test_bot_walks_the_real_archive(tmp_path):
    t0 = time.monotonic()
    with archive_inbox(default_limit=0) as (inbox, mails):
        t_index = time.monotonic() - t0
        cfg = BotConfig(lists=[inbox.url], state=tmp_path / "state.sqlite",
                        outbox=tmp_path / "outbox", watch="git", verify_all=True,
                        dry_run=True, run=False, claims_per_thread=3)
        bot = Bot(cfg)
        t0 = time.monotonic()
        seen = bot.poll()
        t_poll = time.monotonic() - t0
        requested = bot.state.threads.threads("requested")
        t0 = time.monotonic()
        for t in requested:
            bot.enqueue(t.thread_id)
        t_enqueue = time.monotonic() - t0
        claims = bot.state.claims.claims()
        lines = [f"{len(mails)} mails read, imported and indexed in {t_index:.0f} s; "
                 f"bot read {seen} "
                 f"in {t_poll:.1f} s = {seen / max(t_poll, 1e-9):.0f} messages/s; "
                 f"{len(requested)} threads requested (verify-all) ; enqueue took "
                 f"{t_enqueue:.1f} s; {len(claims)} claims queued"]
        for t in bot.state.threads.threads():
            if t.status == "seen":
                continue
            lines.append(f"\n<{t.thread_id}> {t.status}: {t.reason}\n  {t.subject}")
            for c in bot.state.claims.claims(t.thread_id):
                b = c.spec.get("benchmark") or {}
                metrics = ", ".join(f"{m.get('name')} {m.get('claimed_change_pct')}%"
                                    for m in c.spec.get("metrics", [])[:3])
                quote = ((c.spec.get("source") or {}).get("quote") or "").strip()
                first = quote.splitlines()[0][:100] if quote else ""
                lines.append(f"  claim {c.id}: {' '.join(b.get('argv', []))}\n"
                             f"    metrics: {metrics}\n    quote: {first}")
        text = "\n".join(lines)
        Path(os.environ.get("VERIFIER_BOT_PLAN", "/tmp/bot-archive-plan.txt")).write_text(text)
        print(lines[0])
        bot.close()
        assert seen >= 0.95 * len(mails)  # a few archive entries share a Message-ID
        assert requested and claims
        assert all(c.status in ("queued", "not-runnable") for c in claims)  # plan: none ran
