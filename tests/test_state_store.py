"""verifier.state on a real SQLite file: idempotent steps, series links, sticky opt-outs,
and run records that survive a `kill -9` of the writing process."""
from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from runners.results import RunRecord
from verifier.state import OPTED_OUT, REQUESTED, State, StateError

SPEC = {"id": "netperf-abc-1", "benchmark": {"argv": ["netperf", "-t", "TCP_RR"]}}


def test_claim_once_per_spec_version(tmp_path):
    with State(tmp_path / "s.sqlite") as s:
        a, new_a = s.add_claim("t@x", "m@x", SPEC, "h1")
        b, new_b = s.add_claim("t@x", "m@x", SPEC, "h1")
        c, new_c = s.add_claim("t@x", "m@x", SPEC, "h2")  # the spec changed: a new version
        assert (a, new_a, new_b, new_c) == (b, True, False, True) and c != a
        assert [x.id for x in s.claims("t@x")] == [a, c]


def test_v2_of_a_series_links_to_v1(tmp_path):
    with State(tmp_path / "s.sqlite") as s:
        v1, _ = s.add_claim("t1@x", "m1@x", SPEC, "h1", "net: gro timer", 1)
        other = dict(SPEC, id="iperf3-1", benchmark={"argv": ["iperf3", "-c", "h"]})
        s.add_claim("t1@x", "m1@x", other, "h3", "net: gro timer", 1)
        v2, _ = s.add_claim("t2@x", "m2@x", dict(SPEC, id="netperf-def-1"), "h9",
                            "net: gro timer", 2)
        claim = s.claim(v2)
        assert claim is not None and claim.previous_id == v1


def test_opt_out_sticks(tmp_path):
    with State(tmp_path / "s.sqlite") as s:
        s.add_message("r@x", "L", "r@x", "a@x", "s", "d")
        s.set_thread("r@x", OPTED_OUT, "opt-out by a@x")
        s.add_message("q@x", "L", "r@x", "m@x", "s", "d", REQUESTED, "asked by m@x", "m@x")
        assert s.thread("r@x")["status"] == OPTED_OUT
        assert s.seen("q@x") and s.thread_of(["nope@x", "q@x"]) == "r@x"


def test_reply_states_and_rate_counts(tmp_path):
    with State(tmp_path / "s.sqlite") as s:
        s.set_reply(1, "t@x", "a@x", "r1@bot", "sending", "/o/1.eml")
        s.set_reply(1, "t@x", "a@x", "r1@bot", "failed", error="SMTP: refused")
        r = s.reply(1)
        assert r["status"] == "failed" and r["error"] == "SMTP: refused"
        assert r["path"] == "/o/1.eml" and r["attempts"] == 1
        assert s.replies_since(0, thread_id="t@x") == 0  # a failed reply is not a reply
        s.set_reply(1, "t@x", "a@x", "r1@bot", "sent")
        assert s.replies_since(time.time() - 60, author="a@x") == 1


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
    s.add_run(1, RunRecord(variant="baseline", index=i, stdout="x" * 20000,
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
        runs = s.runs(1)
    # every acknowledged run is there, each whole
    assert len(runs) >= acked + 1
    assert [r.index for r in runs] == list(range(len(runs)))
    assert all(len(r.stdout) == 20000 and r.samples["transaction_rate"] == 1000.0 + r.index
               for r in runs)
    assert isinstance(runs[0], RunRecord)
