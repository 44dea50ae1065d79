"""The bot's memory: one SQLite file, so a restart (or a `kill -9`) picks up where it was.

Plain SQL only (TEXT/INTEGER/REAL, no SQLite-only column types), so the same schema can be
given to a server database later.  WAL mode and one transaction per step: a step that did
not commit did not happen, and every step checks what is stored before acting, so running
it twice changes nothing.  What is kept: messages seen and the poll position per list,
threads and why they are (or are not) verified, claims (one row per spec version, a v2 of
a series linked to the claim it follows), every run record with its raw output as soon as
it completes, verdicts, and replies with their Message-ID and sending state.
"""
from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from claims.spec import Spec
from runners.results import RESULTS_VERSION, RunRecord, Verdict

# History of the schema; a state file of an older one is upgraded when it is opened:
#   1  the first tables.
#   2  runs and verdicts keep the results format (runners.results.RESULTS_VERSION) their
#      JSON was written in (`version`, 1 for rows stored before), so that an upgraded
#      program reads the rows an older one stored.
SCHEMA_VERSION = 2
_UPGRADES = {
    1: ("ALTER TABLE runs ADD COLUMN version INTEGER NOT NULL DEFAULT 1",
        "ALTER TABLE verdicts ADD COLUMN version INTEGER NOT NULL DEFAULT 1"),
}

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS polls (
    list TEXT PRIMARY KEY, position TEXT, polled_at REAL);
CREATE TABLE IF NOT EXISTS messages (
    message_id TEXT PRIMARY KEY, list TEXT, thread_id TEXT, from_addr TEXT,
    subject TEXT, date TEXT, seen_at REAL);
CREATE TABLE IF NOT EXISTS threads (
    thread_id TEXT PRIMARY KEY, list TEXT, subject TEXT, author TEXT,
    status TEXT NOT NULL DEFAULT 'seen', reason TEXT, requested_by TEXT,
    updated_at REAL);
CREATE TABLE IF NOT EXISTS claims (
    id INTEGER PRIMARY KEY, thread_id TEXT NOT NULL, message_id TEXT NOT NULL,
    spec_id TEXT NOT NULL, spec_hash TEXT NOT NULL, series TEXT, series_version INTEGER,
    previous_id INTEGER, spec TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'queued',
    reason TEXT, results TEXT, created_at REAL, updated_at REAL,
    UNIQUE (message_id, spec_id, spec_hash));
CREATE TABLE IF NOT EXISTS runs (
    claim_id INTEGER NOT NULL, idx INTEGER NOT NULL, attempt INTEGER NOT NULL,
    variant TEXT, warmup INTEGER, ok INTEGER, record TEXT NOT NULL, stored_at REAL,
    version INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (claim_id, idx, attempt));
CREATE TABLE IF NOT EXISTS verdicts (
    claim_id INTEGER PRIMARY KEY, verdicts TEXT NOT NULL, summary TEXT, decided_at REAL,
    version INTEGER NOT NULL DEFAULT 1);
CREATE TABLE IF NOT EXISTS replies (
    claim_id INTEGER PRIMARY KEY, thread_id TEXT, author TEXT, message_id TEXT,
    status TEXT NOT NULL, error TEXT, path TEXT, attempts INTEGER DEFAULT 0,
    updated_at REAL);
CREATE INDEX IF NOT EXISTS claims_thread ON claims (thread_id);
CREATE INDEX IF NOT EXISTS messages_thread ON messages (thread_id);
"""



class ThreadStatus(StrEnum):
    SEEN = "seen"  # read, nobody asked
    REQUESTED = "requested"  # a maintainer or the author asked (or verify-all)
    EXTRACTED = "extracted"  # its claims are queued (or why there are none)
    OPTED_OUT = "opted-out"  # stands until a person clears it by hand


class ClaimStatus(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    JUDGED = "judged"
    NOT_RUNNABLE = "not-runnable"
    FAILED = "failed"
    SKIPPED = "skipped"  # its thread opted out before it ran


class ReplyStatus(StrEnum):
    PENDING = "pending"  # held back (rate limit), tried again later
    SENDING = "sending"  # written before the SMTP call: a crash here is looked up, not resent
    SENT = "sent"
    FAILED = "failed"  # not built or not sent; tried again
    DRY = "dry-run"  # written to the outbox only


# Where each status may go next (a status may always be set again: steps are idempotent).
# A claim runs again after a restart (running -> running); an opted-out thread ignores
# every other status.
THREAD_NEXT: dict[ThreadStatus, frozenset[ThreadStatus]] = {
    ThreadStatus.SEEN: frozenset({ThreadStatus.REQUESTED, ThreadStatus.OPTED_OUT}),
    ThreadStatus.REQUESTED: frozenset({ThreadStatus.EXTRACTED, ThreadStatus.OPTED_OUT}),
    ThreadStatus.EXTRACTED: frozenset({ThreadStatus.REQUESTED, ThreadStatus.OPTED_OUT}),
    ThreadStatus.OPTED_OUT: frozenset(),
}
CLAIM_NEXT: dict[ClaimStatus, frozenset[ClaimStatus]] = {
    ClaimStatus.QUEUED: frozenset({ClaimStatus.RUNNING, ClaimStatus.NOT_RUNNABLE,
                                   ClaimStatus.FAILED, ClaimStatus.SKIPPED}),
    ClaimStatus.RUNNING: frozenset({ClaimStatus.JUDGED, ClaimStatus.NOT_RUNNABLE,
                                    ClaimStatus.FAILED, ClaimStatus.SKIPPED}),
    ClaimStatus.JUDGED: frozenset(),
    ClaimStatus.NOT_RUNNABLE: frozenset(),
    ClaimStatus.FAILED: frozenset(),
    ClaimStatus.SKIPPED: frozenset(),
}
_RETRY = frozenset({ReplyStatus.PENDING, ReplyStatus.FAILED, ReplyStatus.DRY,
                    ReplyStatus.SENDING})
REPLY_NEXT: dict[ReplyStatus | None, frozenset[ReplyStatus]] = {
    None: _RETRY,  # no reply yet
    ReplyStatus.PENDING: _RETRY,
    ReplyStatus.FAILED: _RETRY,
    ReplyStatus.SENDING: frozenset({ReplyStatus.SENT, ReplyStatus.FAILED}),
    ReplyStatus.SENT: frozenset(),
    ReplyStatus.DRY: frozenset(),
}

SEEN, REQUESTED, OPTED_OUT = ThreadStatus.SEEN, ThreadStatus.REQUESTED, ThreadStatus.OPTED_OUT
REPLY_PENDING, REPLY_SENDING, REPLY_SENT, REPLY_FAILED, REPLY_DRY = (
    ReplyStatus.PENDING, ReplyStatus.SENDING, ReplyStatus.SENT, ReplyStatus.FAILED,
    ReplyStatus.DRY)


class StateError(Exception):
    """The state file cannot be opened or is from another program."""


def check_move(kind: str, table: Mapping[Any, frozenset[Any]], old: Any, new: Any) -> None:
    """StateError unless the table lets a `kind` go from `old` to `new`."""
    if old is not None and old == new:
        return
    if new not in table.get(old, frozenset()):
        raise StateError(f"a {kind} cannot go from {old or 'nothing'} to {new}")


@dataclass
class ClaimRow:
    id: int
    thread_id: str
    message_id: str
    spec_id: str
    spec_hash: str
    status: str
    spec: dict[str, Any]
    reason: str | None = None
    previous_id: int | None = None
    series: str | None = None
    series_version: int | None = None


class State:
    """The open state database; every public method is one committed step."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            # NORMAL in WAL mode: a killed process loses nothing committed; only a power
            # cut may lose the last steps.  Replies are written with FULL (see set_reply).
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SCHEMA)
            with self.step():
                self.db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)",
                                (str(SCHEMA_VERSION),))
            self._upgrade()
            got = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        except (OSError, sqlite3.Error) as e:
            raise StateError(f"cannot use state {self.path}: {e}") from None
        if got is None or got[0] != str(SCHEMA_VERSION):
            raise StateError(f"{self.path}: state schema {got and got[0]}, "
                             f"this program writes {SCHEMA_VERSION}")

    def _upgrade(self) -> None:
        """Bring an older state file to this schema, one version per step."""
        while True:
            got = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            old = int(got[0]) if got and str(got[0]).isdigit() else None
            if old not in _UPGRADES:
                return
            with self.step() as db:
                for sql in _UPGRADES[old]:
                    db.execute(sql)
                db.execute("UPDATE meta SET value=? WHERE key='schema'", (str(old + 1),))

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> State:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def step(self) -> Iterator[sqlite3.Connection]:
        """One transaction: everything inside commits together or not at all."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # --- polling and messages ------------------------------------------------------

    def position(self, lst: str) -> str | None:
        row = self.db.execute("SELECT position FROM polls WHERE list=?", (lst,)).fetchone()
        return row[0] if row else None

    def set_position(self, lst: str, position: str) -> None:
        with self.step() as db:
            db.execute("INSERT INTO polls VALUES (?, ?, ?) ON CONFLICT (list) DO UPDATE "
                       "SET position=excluded.position, polled_at=excluded.polled_at",
                       (lst, position, time.time()))

    def seen(self, message_id: str) -> bool:
        return self.db.execute("SELECT 1 FROM messages WHERE message_id=?",
                               (message_id,)).fetchone() is not None

    def thread_of(self, message_ids: list[str]) -> str | None:
        """The thread a message belongs to, from any ancestor already stored."""
        for mid in message_ids:
            row = self.db.execute("SELECT thread_id FROM messages WHERE message_id=?",
                                  (mid,)).fetchone()
            if row:
                return row[0]
        return None

    def add_message(self, message_id: str, lst: str, thread_id: str, from_addr: str,
                    subject: str, date: str, thread_status: str | None = None,
                    reason: str | None = None, requested_by: str | None = None) -> None:
        """Record a message and (in the same step) its thread and any decision it carries."""
        now = time.time()
        with self.step() as db:
            db.execute("INSERT OR IGNORE INTO messages VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (message_id, lst, thread_id, from_addr, subject, date, now))
            db.execute("INSERT OR IGNORE INTO threads (thread_id, list, subject, author, "
                       "status, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                       (thread_id, lst, subject, from_addr, SEEN, now))
            if thread_status is not None:
                self._set_thread(db, thread_id, thread_status, reason, requested_by)

    def _set_thread(self, db: sqlite3.Connection, thread_id: str, status: str,
                    reason: str | None, requested_by: str | None) -> None:
        status = ThreadStatus(status)
        cur = db.execute("SELECT status FROM threads WHERE thread_id=?", (thread_id,)).fetchone()
        if cur and cur[0] == OPTED_OUT and status != OPTED_OUT:
            return  # an opt-out stands until a person clears it by hand
        check_move("thread", THREAD_NEXT, ThreadStatus(cur[0]) if cur else SEEN, status)
        db.execute("INSERT INTO threads (thread_id, status, reason, requested_by, updated_at) "
                   "VALUES (?, ?, ?, ?, ?) ON CONFLICT (thread_id) DO UPDATE SET "
                   "status=excluded.status, reason=excluded.reason, "
                   "requested_by=excluded.requested_by, updated_at=excluded.updated_at",
                   (thread_id, status, reason, requested_by, time.time()))

    def set_thread(self, thread_id: str, status: str, reason: str | None = None,
                   requested_by: str | None = None) -> None:
        with self.step() as db:
            self._set_thread(db, thread_id, status, reason, requested_by)

    def messages_of(self, thread_id: str) -> list[str]:
        rows = self.db.execute("SELECT message_id FROM messages WHERE thread_id=? "
                               "ORDER BY seen_at", (thread_id,))
        return [r[0] for r in rows.fetchall()]

    def thread(self, thread_id: str) -> dict[str, Any] | None:
        row = self.db.execute("SELECT thread_id, list, subject, author, status, reason, "
                              "requested_by FROM threads WHERE thread_id=?",
                              (thread_id,)).fetchone()
        keys = ("thread_id", "list", "subject", "author", "status", "reason", "requested_by")
        return dict(zip(keys, row, strict=True)) if row else None

    def threads(self, status: str | None = None) -> list[dict[str, Any]]:
        q = "SELECT thread_id FROM threads" + (" WHERE status=?" if status else "")
        rows = self.db.execute(q + " ORDER BY updated_at", (status,) if status else ())
        return [t for (tid,) in rows.fetchall() if (t := self.thread(tid))]

    # --- claims ----------------------------------------------------------------------

    def add_claim(self, thread_id: str, message_id: str, spec: Spec | Mapping[str, Any],
                  spec_hash: str, series: str | None = None,
                  series_version: int | None = None) -> tuple[int, bool]:
        """(claim id, created): the same spec version of the same message is one claim.

        A claim of a later version of the same series (same series key and benchmark
        program) links to the newest earlier one."""
        spec = spec.to_dict() if isinstance(spec, Spec) else dict(spec)
        now = time.time()
        with self.step() as db:
            row = db.execute("SELECT id FROM claims WHERE message_id=? AND spec_id=? AND "
                             "spec_hash=?", (message_id, spec["id"], spec_hash)).fetchone()
            if row:
                return int(row[0]), False
            prev = None
            if series and series_version:
                program = _program(spec)
                for pid, pspec in db.execute(
                        "SELECT id, spec FROM claims WHERE series=? AND series_version<? "
                        "ORDER BY series_version DESC, id DESC", (series, series_version)):
                    if _program(json.loads(pspec)) == program:
                        prev = int(pid)
                        break
            cur = db.execute(
                "INSERT INTO claims (thread_id, message_id, spec_id, spec_hash, series, "
                "series_version, previous_id, spec, status, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?)",
                (thread_id, message_id, spec["id"], spec_hash, series, series_version, prev,
                 json.dumps(spec), now, now))
            return int(cur.lastrowid or 0), True

    _CLAIM_COLS = ("id, thread_id, message_id, spec_id, spec_hash, status, spec, reason, "
                   "previous_id, series, series_version")

    def _claim(self, row: tuple[Any, ...]) -> ClaimRow:
        return ClaimRow(int(row[0]), row[1], row[2], row[3], row[4], row[5],
                        json.loads(row[6]), row[7], row[8], row[9], row[10])

    def claim(self, claim_id: int) -> ClaimRow | None:
        row = self.db.execute(f"SELECT {self._CLAIM_COLS} FROM claims WHERE id=?",
                              (claim_id,)).fetchone()
        return self._claim(row) if row else None

    def claims(self, thread_id: str | None = None,
               status: tuple[str, ...] | None = None) -> list[ClaimRow]:
        q, args = f"SELECT {self._CLAIM_COLS} FROM claims WHERE 1=1", []
        if thread_id is not None:
            q += " AND thread_id=?"
            args.append(thread_id)
        if status:
            q += f" AND status IN ({','.join('?' * len(status))})"
            args.extend(status)
        return [self._claim(r) for r in self.db.execute(q + " ORDER BY id", args).fetchall()]

    def set_claim(self, claim_id: int, status: str, reason: str | None = None,
                  results: dict[str, Any] | None = None) -> None:
        status = ClaimStatus(status)
        with self.step() as db:
            cur = db.execute("SELECT status FROM claims WHERE id=?", (claim_id,)).fetchone()
            if cur is None:
                raise StateError(f"no claim {claim_id}")
            check_move("claim", CLAIM_NEXT, ClaimStatus(cur[0]), status)
            db.execute("UPDATE claims SET status=?, reason=?, updated_at=?, "
                       "results=COALESCE(?, results) WHERE id=?",
                       (status, reason, time.time(),
                        json.dumps(results) if results is not None else None, claim_id))

    def results_of(self, claim_id: int) -> dict[str, Any] | None:
        row = self.db.execute("SELECT results FROM claims WHERE id=?", (claim_id,)).fetchone()
        return json.loads(row[0]) if row and row[0] else None

    # --- runs and verdicts -----------------------------------------------------------

    def add_run(self, claim_id: int, rec: RunRecord) -> None:
        """Store one run record as soon as it completes (raw output included)."""
        with self.step() as db:
            db.execute("INSERT OR IGNORE INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (claim_id, rec.index, rec.attempt, rec.variant, int(rec.warmup),
                        int(rec.ok), json.dumps(rec.to_dict()), time.time(),
                        RESULTS_VERSION))

    def runs(self, claim_id: int) -> list[RunRecord]:
        rows = self.db.execute("SELECT record, version FROM runs WHERE claim_id=? "
                               "ORDER BY idx, attempt", (claim_id,)).fetchall()
        return [RunRecord.from_dict(json.loads(r), int(v)) for r, v in rows]

    def set_verdicts(self, claim_id: int, verdicts: list[Verdict], summary: str) -> None:
        rows = [v.to_dict() for v in verdicts]
        with self.step() as db:
            db.execute("INSERT INTO verdicts VALUES (?, ?, ?, ?, ?) ON CONFLICT (claim_id) DO "
                       "UPDATE SET verdicts=excluded.verdicts, summary=excluded.summary, "
                       "decided_at=excluded.decided_at, version=excluded.version",
                       (claim_id, json.dumps(rows), summary, time.time(), RESULTS_VERSION))

    def verdicts(self, claim_id: int) -> tuple[list[Verdict], str] | None:
        """The claim's verdict rows and its summary; rows of any stored version."""
        row = self.db.execute("SELECT verdicts, summary FROM verdicts WHERE claim_id=?",
                              (claim_id,)).fetchone()
        return ([Verdict.from_dict(v) for v in json.loads(row[0])], row[1]) if row else None

    # --- replies ---------------------------------------------------------------------

    def reply(self, claim_id: int) -> dict[str, Any] | None:
        row = self.db.execute("SELECT claim_id, thread_id, author, message_id, status, error, "
                              "path, attempts, updated_at FROM replies WHERE claim_id=?",
                              (claim_id,)).fetchone()
        keys = ("claim_id", "thread_id", "author", "message_id", "status", "error", "path",
                "attempts", "updated_at")
        return dict(zip(keys, row, strict=True)) if row else None

    def set_reply(self, claim_id: int, thread_id: str, author: str, message_id: str,
                  status: str, path: str | None = None, error: str | None = None) -> None:
        """Record a reply's state; 'sending' is written before the SMTP call."""
        status = ReplyStatus(status)
        cur = self.db.execute("SELECT status FROM replies WHERE claim_id=?",
                              (claim_id,)).fetchone()
        check_move("reply", REPLY_NEXT, ReplyStatus(cur[0]) if cur else None, status)
        attempts = 1 if status == REPLY_SENDING else 0
        self.db.execute("PRAGMA synchronous=FULL")  # on disk before the SMTP call
        try:
            self._set_reply(claim_id, thread_id, author, message_id, status, path, error,
                            attempts)
        finally:
            self.db.execute("PRAGMA synchronous=NORMAL")

    def _set_reply(self, claim_id: int, thread_id: str, author: str, message_id: str,
                   status: str, path: str | None, error: str | None, attempts: int) -> None:
        with self.step() as db:
            db.execute("INSERT INTO replies VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                       "ON CONFLICT (claim_id) DO UPDATE SET status=excluded.status, "
                       "error=excluded.error, message_id=excluded.message_id, "
                       "path=COALESCE(excluded.path, replies.path), "
                       "attempts=replies.attempts + excluded.attempts, "
                       "updated_at=excluded.updated_at",
                       (claim_id, thread_id, author, message_id, status, error, path,
                        attempts, time.time()))

    def replies(self, status: tuple[str, ...] | None = None) -> list[dict[str, Any]]:
        q = "SELECT claim_id FROM replies"
        args: tuple[str, ...] = ()
        if status:
            q += f" WHERE status IN ({','.join('?' * len(status))})"
            args = status
        return [r for (cid,) in self.db.execute(q + " ORDER BY claim_id", args).fetchall()
                if (r := self.reply(int(cid)))]

    def replies_since(self, t: float, *, thread_id: str | None = None,
                      author: str | None = None) -> int:
        """Replies sent (or being sent) since `t`, for the rate limits."""
        q = ("SELECT COUNT(*) FROM replies WHERE status IN ('sending', 'sent', 'dry-run') "
             "AND updated_at >= ?")
        args: list[Any] = [t]
        if thread_id is not None:
            q += " AND thread_id=?"
            args.append(thread_id)
        if author is not None:
            q += " AND author=?"
            args.append(author)
        return int(self.db.execute(q, args).fetchone()[0])

    def counts(self) -> dict[str, dict[str, int]]:
        """Rows per status, per table: what `verifier status` prints first."""
        out: dict[str, dict[str, int]] = {}
        out["messages"] = {"seen": int(self.db.execute(
            "SELECT COUNT(*) FROM messages").fetchone()[0])}
        for table in ("threads", "claims", "replies"):
            rows = self.db.execute(f"SELECT status, COUNT(*) FROM {table} GROUP BY status")
            out[table] = {s: int(n) for s, n in rows.fetchall()}
        out["runs"] = {"stored": int(self.db.execute("SELECT COUNT(*) FROM runs").fetchone()[0])}
        return out


def _program(spec: dict[str, Any]) -> str:
    argv = (spec.get("benchmark") or {}).get("argv") or [""]
    return str(argv[0])
