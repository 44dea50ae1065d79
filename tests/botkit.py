"""What the bot's end-to-end tests share: seed 001's claim as a new thread, replies to it,
the bot as a subprocess and the state database read directly."""
from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

from tests.lore import read_case, rfc822
from tests.paths import SHARED

SEED001 = next((SHARED / "seeds").glob("001_*.txt"), None)
MAINTAINER = "Net Maintainer <maint@corpus.example>"
STRANGER = "Some Stranger <stranger@elsewhere.example>"
BOT = "Perf Verifier <verifier@bot.example>"


def thread(stem: str, date_days: int) -> tuple[str, str, bytes]:
    """(root msgid, author, root mail): seed 001's claim as a new thread, its knob swapped
    for tx_queue_len: gro_flush_timeout cannot act in TCP_RR on veth (runners.effect), so the
    real seed ends NOT RUNNABLE HERE after the warm-up and the bot would have nothing to run."""
    case = read_case(SEED001)
    case = replace(case, stem=stem, date=case.date + timedelta(days=date_days),
                   subject=f"[PATCH net-next] {stem}: gro flush timer",
                   body=case.body.replace("/gro_flush_timeout", "/tx_queue_len"))
    root = f"{stem}.0@corpus.example"
    return root, case.author, rfc822(case.subject, case.author, case.date, root, case.body)


def reply(root: str, n: int, who: str, text: str, subject: str) -> bytes:
    from datetime import UTC, datetime
    return rfc822(f"Re: {subject}", who, datetime.now(UTC), f"{root}.r{n}", text + "\n",
                  in_reply_to=root, references=[root])


def bot(cfg: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "verifier", "bot", "--config", str(cfg), *extra]


def count(db: Path, table: str) -> int:
    """Rows in `table`; 0 while the state file or its schema does not exist yet."""
    got = rows(db, f"SELECT COUNT(*) FROM {table}") if db.exists() else []
    return int(got[0][0]) if got else 0


def rows(db: Path, q: str) -> list[tuple]:
    """The rows of `q`; none while the bot has not yet created its schema (a poll may come
    between the file's creation and the first table)."""
    try:
        with sqlite3.connect(db, timeout=30) as c:
            return c.execute(q).fetchall()
    except sqlite3.OperationalError as e:
        if "no such table" in str(e):
            return []
        raise


def wait(cond, timeout: float, proc: subprocess.Popen | None = None, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"bot exited ({proc.returncode}) waiting for {what}")
        time.sleep(0.3)
    raise AssertionError(f"timed out waiting for {what}")




def bot_config(path: Path, inbox_url: str, bot: str, smtp: str = "") -> Path:
    """A bot.toml for one test: the inbox, state and outbox beside it, one-second runs,
    no A/A calibration (the bot's default; these tests time its runs and replies, and
    verifier.sequential's tests cover the calibration) and a single maintainer; `bot`
    adds [bot] settings, `smtp` a whole [smtp] table."""
    path.write_text(f"""
[bot]
lists = ["{inbox_url}"]
interval = 1
state = "state.sqlite"
outbox = "outbox"
maintainers = ["maint@corpus.example"]
duration = 1
warmup = 1
calibrate = false
{bot.strip()}

{smtp.strip()}
""")
    return path
