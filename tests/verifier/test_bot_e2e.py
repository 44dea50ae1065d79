"""The bot end to end with real parts: a public-inbox on loopback fed with public-inbox-mda
over time, the bot as a subprocess polling it, runs on the netns runner (1 s runs, capped
repetitions), replies to a real SMTP server (aiosmtpd) that delivers them back into the
inbox, and a `kill -9` of the bot in the middle of a run."""
from __future__ import annotations

import os
import secrets
import signal
import sqlite3
import subprocess
import sys

import pytest
from aiosmtpd.controller import Controller

from tests.botkit import (
    BOT,
    MAINTAINER,
    SEED001,
    STRANGER,
    bot,
    bot_config,
    count,
    reply,
    rows,
    thread,
    wait,
)
from tests.lore import free_port
from tests.paths import ROOT

pytestmark = pytest.mark.root


class ToInbox:
    """SMTP sink that delivers every mail it gets into the inbox with public-inbox-mda."""

    def __init__(self, inbox) -> None:
        self.inbox = inbox
        self.got: list[bytes] = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd API)
        self.got.append(envelope.original_content)
        self.inbox.deliver(envelope.original_content)
        return "250 OK"


def _netns_with(prefix: str) -> list[str]:
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    return [ln.split()[0] for ln in out.splitlines() if ln.startswith(prefix + "-")]


@pytest.mark.skipif(SEED001 is None, reason="shared seeds not present")
def test_bot_replies_once_to_asked_threads_and_survives_kill(local_inbox, tmp_path):
    inbox = local_inbox
    sink = ToInbox(inbox)
    ctl = Controller(sink, hostname="127.0.0.1", port=free_port())
    ctl.start()
    prefix = "pcvb" + secrets.token_hex(1)
    cfg = bot_config(tmp_path / "bot.toml", inbox.url, f"""
allow = ["maint@corpus.example"]
netns_prefix = "{prefix}"
max_runs = 5
""", f"""
[smtp]
host = "127.0.0.1"
port = {ctl.port}
from = "{BOT}"
""")
    db = tmp_path / "state.sqlite"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    log = open(tmp_path / "bot.log", "wb")  # noqa: SIM115
    proc = None
    try:
        asked, author_a, mail_a = thread("asked", 0)
        optout, author_b, mail_b = thread("optout", 1)
        stranger, _, mail_c = thread("stranger", 2)
        noise, _, mail_d = thread("noise", 3)
        for m in (mail_a, mail_b, mail_c, mail_d):
            inbox.deliver(m)
        proc = subprocess.Popen(bot(cfg), stdout=log, stderr=log, env=env)
        wait(lambda: count(db, "messages") >= 4,
              60, proc, "the first four messages")
        # requests arrive while the bot is polling
        subj = "[PATCH net-next] asked: gro flush timer"
        inbox.deliver(reply(asked, 1, MAINTAINER, "Looks good.\n\nverifier: check", subj))
        inbox.deliver(reply(optout, 1, MAINTAINER, "verifier: check", subj))
        inbox.deliver(reply(optout, 2, author_b, "Please do not.\nverifier: no", subj))
        inbox.deliver(reply(stranger, 1, STRANGER, "verifier: check", subj))
        # kill -9 in the middle of the asked thread's runs
        wait(lambda: count(db, "runs") >= 3, 120, proc,
              "three stored runs")
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        stored = count(db, "runs")
        assert stored >= 3
        assert not sink.got, "killed before the runs finished: nothing may be sent yet"
        # restart: the run resumes and the reply goes out once
        for _ in range(2):
            r = subprocess.run(bot(cfg, "--once"), capture_output=True, env=env, timeout=400)
            log.write(r.stderr)
            assert r.returncode == 0, r.stderr.decode()[-2000:]
        assert count(db, "runs") >= stored
        assert len(sink.got) == 1, [m[:300] for m in sink.got]
        assert f"In-Reply-To: <{asked}>".encode() in sink.got[0]
        claims = rows(db, "SELECT thread_id, status FROM claims")
        # the opt-out may land in a later poll than the maintainer's request; claims
        # queued in between must end skipped, never run to a reply
        assert [c for c in claims if c[0] != optout] == [(asked, "judged")]
        assert all(st == "skipped" for tid, st in claims if tid == optout)
        threads = dict(rows(db, "SELECT thread_id, status FROM threads"))
        assert threads[optout] == "opted-out" and threads[stranger] == "seen"
        assert threads[noise] == "seen"
        # the reply reached the thread in the inbox
        from verifier.fetch.lore import PublicInbox

        mbox = PublicInbox(inbox.url).thread_mbox(asked)
        assert mbox.count(b"From: " + BOT.encode()) == 1
        # a crash after SMTP but before 'sent' was recorded: the inbox has it, not re-sent
        with sqlite3.connect(db) as c:
            c.execute("UPDATE replies SET status='sending'")
        r = subprocess.run(bot(cfg, "--once"), capture_output=True, env=env, timeout=120)
        log.write(r.stderr)
        assert r.returncode == 0 and len(sink.got) == 1
        assert rows(db, "SELECT status FROM replies") == [("sent",)]
        assert b"already reached" in r.stderr
        st = subprocess.run([sys.executable, "-m", "verifier", "status", "--config", str(cfg),
                             asked], capture_output=True, text=True, env=env, timeout=60)
        assert st.returncode == 0 and "judged" in st.stdout and " sent " in st.stdout
    finally:
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
        ctl.stop()
        log.close()
        from verifier.pipeline import remove_stale_namespaces
        remove_stale_namespaces(prefix)
        assert not _netns_with(prefix)
