"""verifier.state on a real SQLite file: idempotent steps, series links, sticky opt-outs,
and run records that survive a `kill -9` of the writing process."""
from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from runners.results import FailureKind, RunRecord, Verdict, VerdictKind
from verifier.state import (
    CLAIM_NEXT,
    OPTED_OUT,
    REPLY_NEXT,
    REQUESTED,
    THREAD_NEXT,
    ClaimStatus,
    ReplyRow,
    ReplyStatus,
    State,
    StateError,
    ThreadRow,
    ThreadStatus,
)

SPEC = {"id": "netperf-abc-1", "benchmark": {"argv": ["netperf", "-t", "TCP_RR"]}}


def test_claim_once_per_spec_version(tmp_path):
    with State(tmp_path / "s.sqlite") as s:
        a, new_a = s.claims.add_claim("t@x", "m@x", SPEC, "h1")
        b, new_b = s.claims.add_claim("t@x", "m@x", SPEC, "h1")
        c, new_c = s.claims.add_claim("t@x", "m@x", SPEC, "h2")  # the spec changed: a new version
        assert (a, new_a, new_b, new_c) == (b, True, False, True) and c != a
        assert [x.id for x in s.claims.claims("t@x")] == [a, c]


def test_v2_of_a_series_links_to_v1(tmp_path):
    with State(tmp_path / "s.sqlite") as s:
        v1, _ = s.claims.add_claim("t1@x", "m1@x", SPEC, "h1", "net: gro timer", 1)
        other = dict(SPEC, id="iperf3-1", benchmark={"argv": ["iperf3", "-c", "h"]})
        s.claims.add_claim("t1@x", "m1@x", other, "h3", "net: gro timer", 1)
        v2, _ = s.claims.add_claim("t2@x", "m2@x", dict(SPEC, id="netperf-def-1"), "h9",
                                   "net: gro timer", 2)
        claim = s.claims.claim(v2)
        assert claim is not None and claim.previous_id == v1


def test_opt_out_sticks(tmp_path):
    with State(tmp_path / "s.sqlite") as s:
        s.threads.add_message("r@x", "L", "r@x", "a@x", "s", "d")
        s.threads.set_thread("r@x", OPTED_OUT, "opt-out by a@x")
        s.threads.add_message("q@x", "L", "r@x", "m@x", "s", "d", REQUESTED, "asked by m@x", "m@x")
        assert s.threads.thread("r@x").status == OPTED_OUT
        assert s.threads.seen("q@x") and s.threads.thread_of(["nope@x", "q@x"]) == "r@x"


def test_reply_states_and_rate_counts(tmp_path):
    with State(tmp_path / "s.sqlite") as s:
        s.replies.set_reply(1, "t@x", "a@x", "r1@bot", "sending", "/o/1.eml")
        s.replies.set_reply(1, "t@x", "a@x", "r1@bot", "failed", error="SMTP: refused")
        r = s.replies.reply(1)
        assert r.status == "failed" and r.error == "SMTP: refused"
        assert r.path == "/o/1.eml" and r.attempts == 1
        assert s.replies.replies_since(0, thread_id="t@x") == 0  # a failed reply is not a reply
        s.replies.set_reply(1, "t@x", "a@x", "r1@bot", "sending")  # tried again
        s.replies.set_reply(1, "t@x", "a@x", "r1@bot", "sent")
        assert s.replies.reply(1).attempts == 2
        assert s.replies.replies_since(time.time() - 60, author="a@x") == 1


def test_rows_are_typed_records(tmp_path):
    with State(tmp_path / "s.sqlite") as s:
        s.threads.add_message("m@x", "netdev", "m@x", "a@x", "subj", "d", REQUESTED, "asked", "b@x")
        s.replies.set_reply(7, "m@x", "a@x", "r7@bot", "dry-run", "/o/7.eml")
        assert s.threads.thread("m@x") == ThreadRow("m@x", "netdev", "subj", "a@x",
                                                    ThreadStatus.REQUESTED, "asked", "b@x")
        assert s.threads.threads("seen") == [] and s.threads.threads() == [s.threads.thread("m@x")]
        (r,) = s.replies.replies()
        assert isinstance(r, ReplyRow) and r.status is ReplyStatus.DRY and r.claim_id == 7
        assert (r.path, r.attempts, r.error) == ("/o/7.eml", 0, None)
        assert s.replies.replies(("sent",)) == [] and s.replies.reply(8) is None


def test_not_a_state_file(tmp_path):
    p = tmp_path / "junk.sqlite"
    p.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StateError, match="cannot use state"):
        State(p)


def test_other_schema_version_refused(tmp_path):
    p = tmp_path / "s.sqlite"
    State(p).close()
    with sqlite3.connect(p) as c:
        c.execute("UPDATE meta SET value='99' WHERE key='schema'")
    with pytest.raises(StateError, match="schema 99"):
        State(p)


WRITER = """
import sys, time
from runners.results import RunRecord
from verifier.state import State
s = State(sys.argv[1])
i = 0
while True:
    s.runs.add_run(1, RunRecord(variant="baseline", index=i, stdout="x" * 20000,
                                samples={"transaction_rate": 1000.0 + i}))
    print(i, flush=True)
    i += 1
"""


def test_runs_survive_kill_9_of_the_writer(tmp_path):
    db = tmp_path / "s.sqlite"
    p = subprocess.Popen([sys.executable, "-c", WRITER, str(db)], stdout=subprocess.PIPE,
                         text=True)
    acked = -1
    try:
        for line in p.stdout:  # type: ignore[union-attr]
            acked = int(line)
            if acked >= 40:
                break
        p.send_signal(signal.SIGKILL)
    finally:
        p.wait(timeout=10)
    with State(db) as s:
        runs = s.runs.runs(1)
    # every acknowledged run is there, each whole
    assert len(runs) >= acked + 1
    assert [r.index for r in runs] == list(range(len(runs)))
    assert all(len(r.stdout) == 20000 and r.samples["transaction_rate"] == 1000.0 + r.index
               for r in runs)
    assert isinstance(runs[0], RunRecord)


def test_statuses_move_only_along_the_transition_tables(tmp_path):
    with State(tmp_path / "s.sqlite") as s:
        cid, _ = s.claims.add_claim("t@x", "m@x", SPEC, "h1")
        with pytest.raises(StateError, match="from queued to judged"):
            s.claims.set_claim(cid, ClaimStatus.JUDGED)  # never judged without running
        s.claims.set_claim(cid, ClaimStatus.RUNNING)
        s.claims.set_claim(cid, ClaimStatus.RUNNING)  # a restart runs it again
        s.claims.set_claim(cid, ClaimStatus.JUDGED)
        with pytest.raises(StateError, match="from judged to running"):
            s.claims.set_claim(cid, ClaimStatus.RUNNING)
        assert s.claims.claim(cid).status == "judged" == ClaimStatus.JUDGED
        with pytest.raises(ValueError):
            s.claims.set_claim(cid, "done")  # not a status at all
        s.threads.add_message("t@x", "L", "t@x", "a@x", "s", "d")
        with pytest.raises(StateError, match="from seen to extracted"):
            s.threads.set_thread("t@x", ThreadStatus.EXTRACTED)
        s.replies.set_reply(cid, "t@x", "a@x", "r@bot", ReplyStatus.SENDING)
        s.replies.set_reply(cid, "t@x", "a@x", "r@bot", ReplyStatus.SENT)
        with pytest.raises(StateError, match="from sent to sending"):
            s.replies.set_reply(cid, "t@x", "a@x", "r@bot", ReplyStatus.SENDING)  # sent once only
    assert set(CLAIM_NEXT) == set(ClaimStatus) and set(THREAD_NEXT) == set(ThreadStatus)
    assert set(REPLY_NEXT) == {None, *ReplyStatus}


# The tables of schema 1, as a state file written before its upgrade has them.
SCHEMA_1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE runs (
    claim_id INTEGER NOT NULL, idx INTEGER NOT NULL, attempt INTEGER NOT NULL,
    variant TEXT, warmup INTEGER, ok INTEGER, record TEXT NOT NULL, stored_at REAL,
    PRIMARY KEY (claim_id, idx, attempt));
CREATE TABLE verdicts (
    claim_id INTEGER PRIMARY KEY, verdicts TEXT NOT NULL, summary TEXT, decided_at REAL);
INSERT INTO meta VALUES ('schema', '1');
"""


def test_a_schema_1_state_is_upgraded_and_its_rows_read(tmp_path):
    import json

    p = tmp_path / "old.sqlite"
    lost = {"variant": "candidate", "index": 3, "ok": False, "attempt": 0,
            "error": "worker lost: lab2 went away during the run", "host": "lab2"}
    row = {"metric": "throughput", "verdict": "CONFIRMED", "n_base": 5, "n_cand": 5,
           "sentence": "throughput: CONFIRMED.", "an_old_key": 1}
    with sqlite3.connect(p) as c:
        c.executescript(SCHEMA_1)
        c.execute("INSERT INTO runs VALUES (1, 3, 0, 'candidate', 0, 0, ?, 0)",
                  (json.dumps(lost),))
        c.execute("INSERT INTO verdicts VALUES (1, ?, 'CONFIRMED', 0)", (json.dumps([row]),))
    with State(p) as s:
        (run,) = s.runs.runs(1)
        assert run.failure == FailureKind.LOST and run.unfinished
        (v,), summary = s.runs.verdicts(1)
        assert isinstance(v, Verdict) and v.verdict == VerdictKind.CONFIRMED
        assert (v.n_base, v.extra, summary) == (5, {"an_old_key": 1}, "CONFIRMED")
        s.runs.add_run(1, RunRecord(variant="baseline", index=4, ok=False, error="worker lost",
                                    failure=FailureKind.LOST))
        assert [r.failure for r in s.runs.runs(1)] == [FailureKind.LOST] * 2
        s.runs.set_verdicts(1, [v], summary)
        again = s.runs.verdicts(1)[0][0].to_dict()  # the missing keys get their defaults
        assert {k: again[k] for k in row} == row and again["decided"] is True
    with sqlite3.connect(p) as c:
        assert c.execute("SELECT value FROM meta WHERE key='schema'").fetchone() == ("2",)
