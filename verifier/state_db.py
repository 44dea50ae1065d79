"""The state file itself: the SQLite schema, its upgrades, and one transaction per step.

Plain SQL only (TEXT/INTEGER/REAL, no SQLite-only column types), so the same schema can be
given to a server database later.  WAL mode and one transaction per step: a step that did
not commit did not happen.  verifier.state reads and writes the tables.
"""
from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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


class StateError(Exception):
    """The state file cannot be opened or is from another program."""


class Database:
    """The open state file at this schema version; `step()` is one transaction."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            self.conn.execute("PRAGMA journal_mode=WAL")
            # NORMAL in WAL mode: a killed process loses nothing committed; only a power
            # cut may lose the last steps.  Replies are written `durably()`.
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self.conn.executescript(SCHEMA)
            with self.step():
                self.conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)",
                                  (str(SCHEMA_VERSION),))
            self._upgrade()
            got = self.conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        except (OSError, sqlite3.Error) as e:
            raise StateError(f"cannot use state {self.path}: {e}") from None
        if got is None or got[0] != str(SCHEMA_VERSION):
            raise StateError(f"{self.path}: state schema {got and got[0]}, "
                             f"this program writes {SCHEMA_VERSION}")

    def _upgrade(self) -> None:
        """Bring an older state file to this schema, one version per step."""
        while True:
            got = self.conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            old = int(got[0]) if got and str(got[0]).isdigit() else None
            if old not in _UPGRADES:
                return
            with self.step() as db:
                for sql in _UPGRADES[old]:
                    db.execute(sql)
                db.execute("UPDATE meta SET value=? WHERE key='schema'", (str(old + 1),))

    def close(self) -> None:
        self.conn.close()

    @contextmanager
    def step(self) -> Iterator[sqlite3.Connection]:
        """One transaction: everything inside commits together or not at all."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    @contextmanager
    def durably(self) -> Iterator[None]:
        """Steps inside are on disk when they return, power cut or not (a reply's
        'sending' before the SMTP call)."""
        self.conn.execute("PRAGMA synchronous=FULL")
        try:
            yield
        finally:
            self.conn.execute("PRAGMA synchronous=NORMAL")
