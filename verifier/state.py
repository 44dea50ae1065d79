"""The bot's memory: one SQLite file, so a restart (or a `kill -9`) picks up where it was.

Every step checks what is stored before acting, so running it twice changes nothing.
What is kept: messages seen and the poll position per list, threads and why they are (or
are not) verified, claims (one row per spec version, a v2 of a series linked to the claim
it follows), every run record with its raw output as soon as it completes, verdicts, and
replies with their Message-ID and sending state.  The file, its schema and transactions
are verifier.state_db's; here each table is a small class over it, the rows are typed
records, and `State` composes the tables into the one object the bot and the CLI open.
"""
from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from claims.spec import Spec
from runners.results import RESULTS_VERSION, RunRecord, Verdict
from verifier.state_db import Database, StateError


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


def check_move(kind: str, table: Mapping[Any, frozenset[Any]], old: Any, new: Any) -> None:
    """StateError unless the table lets a `kind` go from `old` to `new`."""
    if old is not None and old == new:
        return
    if new not in table.get(old, frozenset()):
        raise StateError(f"a {kind} cannot go from {old or 'nothing'} to {new}")


@dataclass
class ThreadRow:
    """A thread the bot has seen, and where its verification stands."""

    thread_id: str
    list: str | None = None  # the mailing list it was seen on
    subject: str | None = None
    author: str | None = None
    status: ThreadStatus = ThreadStatus.SEEN
    reason: str | None = None
    requested_by: str | None = None


@dataclass
class ClaimRow:
    id: int
    thread_id: str
    message_id: str
    spec_id: str
    spec_hash: str
    status: ClaimStatus
    spec: dict[str, Any]
    reason: str | None = None
    previous_id: int | None = None
    series: str | None = None
    series_version: int | None = None


@dataclass
class ReplyRow:
    """One claim's reply: its Message-ID, where it stands, the outbox file it was written to."""

    claim_id: int
    thread_id: str | None
    author: str | None
    message_id: str | None
    status: ReplyStatus
    error: str | None = None
    path: str | None = None
    attempts: int = 0
    updated_at: float | None = None


class ThreadTable:
    """Poll positions, messages seen, and threads with their status."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def position(self, lst: str) -> str | None:
        row = self.db.conn.execute("SELECT position FROM polls WHERE list=?", (lst,)).fetchone()
        return row[0] if row else None

    def set_position(self, lst: str, position: str) -> None:
        with self.db.step() as db:
            db.execute("INSERT INTO polls VALUES (?, ?, ?) ON CONFLICT (list) DO UPDATE "
                       "SET position=excluded.position, polled_at=excluded.polled_at",
                       (lst, position, time.time()))

    def seen(self, message_id: str) -> bool:
        return self.db.conn.execute("SELECT 1 FROM messages WHERE message_id=?",
                                    (message_id,)).fetchone() is not None

    def thread_of(self, message_ids: list[str]) -> str | None:
        """The thread a message belongs to, from any ancestor already stored."""
        for mid in message_ids:
            row = self.db.conn.execute("SELECT thread_id FROM messages WHERE message_id=?",
                                       (mid,)).fetchone()
            if row:
                return str(row[0])
        return None

    def add_message(self, message_id: str, lst: str, thread_id: str, from_addr: str,
                    subject: str, date: str, thread_status: str | None = None,
                    reason: str | None = None, requested_by: str | None = None) -> None:
        """Record a message and (in the same step) its thread and any decision it carries."""
        now = time.time()
        with self.db.step() as db:
            db.execute("INSERT OR IGNORE INTO messages VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (message_id, lst, thread_id, from_addr, subject, date, now))
            db.execute("INSERT OR IGNORE INTO threads (thread_id, list, subject, author, "
                       "status, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                       (thread_id, lst, subject, from_addr, SEEN, now))
            if thread_status is not None:
                self._set_thread(db, thread_id, thread_status, reason, requested_by)

    @staticmethod
    def _set_thread(db: sqlite3.Connection, thread_id: str, status: str,
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
        with self.db.step() as db:
            self._set_thread(db, thread_id, status, reason, requested_by)

    def messages_of(self, thread_id: str) -> list[str]:
        rows = self.db.conn.execute("SELECT message_id FROM messages WHERE thread_id=? "
                                    "ORDER BY seen_at", (thread_id,))
        return [r[0] for r in rows.fetchall()]

    _COLS = "thread_id, list, subject, author, status, reason, requested_by"

    def thread(self, thread_id: str) -> ThreadRow | None:
        row = self.db.conn.execute(f"SELECT {self._COLS} FROM threads WHERE thread_id=?",
                                   (thread_id,)).fetchone()
        return _thread_row(row) if row else None

    def threads(self, status: str | None = None) -> list[ThreadRow]:
        q = f"SELECT {self._COLS} FROM threads" + (" WHERE status=?" if status else "")
        rows = self.db.conn.execute(q + " ORDER BY updated_at", (status,) if status else ())
        return [_thread_row(r) for r in rows.fetchall()]


def _thread_row(row: tuple[Any, ...]) -> ThreadRow:
    return ThreadRow(row[0], row[1], row[2], row[3], ThreadStatus(row[4]), row[5], row[6])


class ClaimTable:
    """Claims (one row per spec version of a message) and their results."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def add_claim(self, thread_id: str, message_id: str, spec: Spec | Mapping[str, Any],
                  spec_hash: str, series: str | None = None,
                  series_version: int | None = None) -> tuple[int, bool]:
        """(claim id, created): the same spec version of the same message is one claim.

        A claim of a later version of the same series (same series key and benchmark
        program) links to the newest earlier one."""
        spec = spec.to_dict() if isinstance(spec, Spec) else dict(spec)
        now = time.time()
        with self.db.step() as db:
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

    _COLS = ("id, thread_id, message_id, spec_id, spec_hash, status, spec, reason, "
             "previous_id, series, series_version")

    @staticmethod
    def _row(row: tuple[Any, ...]) -> ClaimRow:
        return ClaimRow(int(row[0]), row[1], row[2], row[3], row[4], ClaimStatus(row[5]),
                        json.loads(row[6]), row[7], row[8], row[9], row[10])

    def claim(self, claim_id: int) -> ClaimRow | None:
        row = self.db.conn.execute(f"SELECT {self._COLS} FROM claims WHERE id=?",
                                   (claim_id,)).fetchone()
        return self._row(row) if row else None

    def claims(self, thread_id: str | None = None,
               status: tuple[str, ...] | None = None) -> list[ClaimRow]:
        q, args = f"SELECT {self._COLS} FROM claims WHERE 1=1", []
        if thread_id is not None:
            q += " AND thread_id=?"
            args.append(thread_id)
        if status:
            q += f" AND status IN ({','.join('?' * len(status))})"
            args.extend(status)
        return [self._row(r) for r in self.db.conn.execute(q + " ORDER BY id", args).fetchall()]

    def set_claim(self, claim_id: int, status: str, reason: str | None = None,
                  results: dict[str, Any] | None = None) -> None:
        status = ClaimStatus(status)
        with self.db.step() as db:
            cur = db.execute("SELECT status FROM claims WHERE id=?", (claim_id,)).fetchone()
            if cur is None:
                raise StateError(f"no claim {claim_id}")
            check_move("claim", CLAIM_NEXT, ClaimStatus(cur[0]), status)
            db.execute("UPDATE claims SET status=?, reason=?, updated_at=?, "
                       "results=COALESCE(?, results) WHERE id=?",
                       (status, reason, time.time(),
                        json.dumps(results) if results is not None else None, claim_id))

    def results_of(self, claim_id: int) -> dict[str, Any] | None:
        row = self.db.conn.execute("SELECT results FROM claims WHERE id=?",
                                   (claim_id,)).fetchone()
        return json.loads(row[0]) if row and row[0] else None


def _program(spec: dict[str, Any]) -> str:
    argv = (spec.get("benchmark") or {}).get("argv") or [""]
    return str(argv[0])


class RunTable:
    """Every run record as it completes, and the verdicts judged from them."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def add_run(self, claim_id: int, rec: RunRecord) -> None:
        """Store one run record as soon as it completes (raw output included)."""
        with self.db.step() as db:
            db.execute("INSERT OR IGNORE INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (claim_id, rec.index, rec.attempt, rec.variant, int(rec.warmup),
                        int(rec.ok), json.dumps(rec.to_dict()), time.time(),
                        RESULTS_VERSION))

    def runs(self, claim_id: int) -> list[RunRecord]:
        rows = self.db.conn.execute("SELECT record, version FROM runs WHERE claim_id=? "
                                    "ORDER BY idx, attempt", (claim_id,)).fetchall()
        return [RunRecord.from_dict(json.loads(r), int(v)) for r, v in rows]

    def set_verdicts(self, claim_id: int, verdicts: list[Verdict], summary: str) -> None:
        rows = [v.to_dict() for v in verdicts]
        with self.db.step() as db:
            db.execute("INSERT INTO verdicts VALUES (?, ?, ?, ?, ?) ON CONFLICT (claim_id) DO "
                       "UPDATE SET verdicts=excluded.verdicts, summary=excluded.summary, "
                       "decided_at=excluded.decided_at, version=excluded.version",
                       (claim_id, json.dumps(rows), summary, time.time(), RESULTS_VERSION))

    def verdicts(self, claim_id: int) -> tuple[list[Verdict], str] | None:
        """The claim's verdict rows and its summary; rows of any stored version."""
        row = self.db.conn.execute("SELECT verdicts, summary FROM verdicts WHERE claim_id=?",
                                   (claim_id,)).fetchone()
        return ([Verdict.from_dict(v) for v in json.loads(row[0])], row[1]) if row else None


class ReplyLedger:
    """Each claim's reply and its sending state; the counts the rate limits read."""

    def __init__(self, db: Database) -> None:
        self.db = db

    _COLS = "claim_id, thread_id, author, message_id, status, error, path, attempts, updated_at"

    def reply(self, claim_id: int) -> ReplyRow | None:
        row = self.db.conn.execute(f"SELECT {self._COLS} FROM replies WHERE claim_id=?",
                                   (claim_id,)).fetchone()
        return _reply_row(row) if row else None

    def set_reply(self, claim_id: int, thread_id: str, author: str, message_id: str,
                  status: str, path: str | None = None, error: str | None = None) -> None:
        """Record a reply's state; 'sending' is written (durably) before the SMTP call."""
        status = ReplyStatus(status)
        cur = self.db.conn.execute("SELECT status FROM replies WHERE claim_id=?",
                                   (claim_id,)).fetchone()
        check_move("reply", REPLY_NEXT, ReplyStatus(cur[0]) if cur else None, status)
        attempts = 1 if status == REPLY_SENDING else 0
        with self.db.durably(), self.db.step() as db:
            db.execute("INSERT INTO replies VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                       "ON CONFLICT (claim_id) DO UPDATE SET status=excluded.status, "
                       "error=excluded.error, message_id=excluded.message_id, "
                       "path=COALESCE(excluded.path, replies.path), "
                       "attempts=replies.attempts + excluded.attempts, "
                       "updated_at=excluded.updated_at",
                       (claim_id, thread_id, author, message_id, status, error, path,
                        attempts, time.time()))

    def replies(self, status: tuple[str, ...] | None = None) -> list[ReplyRow]:
        q = f"SELECT {self._COLS} FROM replies"
        args: tuple[str, ...] = ()
        if status:
            q += f" WHERE status IN ({','.join('?' * len(status))})"
            args = status
        return [_reply_row(r) for r in self.db.conn.execute(q + " ORDER BY claim_id",
                                                            args).fetchall()]

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
        return int(self.db.conn.execute(q, args).fetchone()[0])


def _reply_row(row: tuple[Any, ...]) -> ReplyRow:
    return ReplyRow(int(row[0]), row[1], row[2], row[3], ReplyStatus(row[4]), row[5], row[6],
                    int(row[7] or 0), row[8])


class State:
    """The open state database; every public step commits on its own.

    The steps are the tables' own: `threads` (ThreadTable: polls, messages, threads),
    `claims` (ClaimTable), `runs` (RunTable: runs, verdicts) and `replies` (ReplyLedger),
    all over one file; `db` is the raw connection (the web pages look a claim up by message)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.store = Database(path)
        self.path, self.db = self.store.path, self.store.conn
        self.threads = ThreadTable(self.store)
        self.claims = ClaimTable(self.store)
        self.runs = RunTable(self.store)
        self.replies = ReplyLedger(self.store)

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> State:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

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
