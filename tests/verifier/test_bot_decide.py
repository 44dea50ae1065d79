"""The bot's decisions against a real public-inbox on loopback (no runner needed):
who may ask, quoted triggers, opt-outs, verify-all, restart without repeats, replies that
cannot be sent staying queued with their error, rate limits, and the CLI's bad input."""
from __future__ import annotations

import sqlite3
import subprocess
import sys
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from runners.results import RunRecord
from tests.lore import free_port, read_case, rfc822
from tests.paths import SHARED
from verifier.bot import Bot
from verifier.bot_config import BotConfig
from verifier.bot_decide import triggers
from verifier.bot_plan import series_of
from verifier.reply import SmtpSettings
from verifier.state import State

SEED001 = next((SHARED / "seeds").glob("001_*.txt"), None)
pytestmark = pytest.mark.skipif(SEED001 is None, reason="shared seeds not present")
MAINT = "Net Maintainer <maint@corpus.example>"
NOW = datetime.now(UTC)


def _root(stem: str, subject: str | None = None, body: str | None = None) -> tuple[str, str, bytes]:
    case = read_case(SEED001)
    case = replace(case, subject=subject or f"[PATCH net-next] {stem}: gro flush timer")
    mid = f"{stem}.0@corpus.example"
    return mid, case.author, rfc822(case.subject, case.author, case.date, mid,
                                   body if body is not None else case.body)


def _re(root: str, n: int, who: str, text: str) -> bytes:
    return rfc822("Re: x", who, NOW + timedelta(minutes=n), f"r{n}.{root}", text + "\n",
                  in_reply_to=root, references=[root])


def _cfg(tmp_path: Path, url: str, **kw) -> BotConfig:
    return BotConfig(lists=[url], state=tmp_path / "state.sqlite", outbox=tmp_path / "outbox",
                     allow=["maint@corpus.example"], maintainers=["maint@corpus.example"], **kw)


def test_who_may_ask_and_stop(local_inbox, tmp_path):
    a, author, mail_a = _root("a")
    b, _, mail_b = _root("b")
    c, _, mail_c = _root("c")
    for m in (mail_a, mail_b, mail_c):
        local_inbox.deliver(m)
    local_inbox.deliver(_re(a, 1, MAINT, "verifier: check"))
    local_inbox.deliver(_re(b, 2, "Other <other@corpus.example>",
                            "> verifier: check\nI agree it should be checked."))
    local_inbox.deliver(_re(b, 3, MAINT, "Hmm.\n> verifier: check"))  # quoted: not asking
    local_inbox.deliver(_re(c, 4, MAINT, "verifier: check"))
    local_inbox.deliver(_re(c, 5, "Other <other@corpus.example>", "verifier: stop"))
    local_inbox.deliver(_re(a, 6, "Other <other@corpus.example>", "verifier: no"))
    bot = Bot(_cfg(tmp_path, local_inbox.url))
    assert bot.poll() == 9
    status = {t.thread_id: t.status for t in bot.state.threads.threads()}
    assert status == {a: "requested", b: "seen", c: "requested"}  # stop only from author/maint
    local_inbox.deliver(_re(c, 7, author, "Please don't.\nverifier: no"))
    bot.close()
    again = Bot(_cfg(tmp_path, local_inbox.url))  # a restart: only the new message
    assert again.poll() == 1 and again.poll() == 0
    assert again.state.threads.thread(c).status == "opted-out"
    again.close()


def test_verify_all_takes_patches_with_claims(local_inbox, tmp_path):
    a, _, mail_a = _root("va")
    b, _, mail_b = _root("vb", body="This patch renames a variable.\n")
    c, _, mail_c = _root("vc", subject="gro flush timer numbers (no patch)")
    for m in (mail_a, mail_b, mail_c):
        local_inbox.deliver(m)
    bot = Bot(_cfg(tmp_path, local_inbox.url, verify_all=True, dry_run=True))
    bot.poll()
    status = {t.thread_id: (t.status, t.reason) for t in bot.state.threads.threads()}
    assert status[a] == ("requested", "verify-all: patch with claims")
    assert status[b][0] == status[c][0] == "seen"
    assert bot.enqueue(a) == 1 and bot.enqueue(a) == 0  # once per spec version
    bot.close()


def _judged(bot: Bot, thread: str) -> int:
    """A claim from the real thread, with run records made up here (runs are real in
    test_bot_e2e; this test is about the reply path)."""
    bot.state.threads.set_thread(thread, "requested")
    assert bot.enqueue(thread) == 1
    claim = bot.state.claims.claims(thread)[-1]
    head = {"spec": claim.spec, "runner": "netns", "status": "complete"}
    for i in range(10):
        variant = "baseline" if i % 2 else "candidate"
        value = 9000.0 + i if variant == "baseline" else 8600.0 + i
        bot.state.runs.add_run(claim.id, RunRecord(variant=variant, index=i,
                                                   samples={"transaction_rate": value}))
    bot.state.claims.set_claim(claim.id, "running")
    bot.state.claims.set_claim(claim.id, "judged", None, head)
    return claim.id


def test_unsent_reply_stays_queued_then_sends_once(local_inbox, tmp_path):
    a, _, mail_a = _root("sa")
    b, _, mail_b = _root("sb")
    local_inbox.deliver(mail_a)
    local_inbox.deliver(mail_b)
    dead = free_port()  # nothing listens here
    smtp = SmtpSettings(host="127.0.0.1", port=dead, sender="Bot <bot@bot.example>",
                        timeout=5)
    bot = Bot(_cfg(tmp_path, local_inbox.url, replies_per_day=1), smtp)
    bot.poll()
    first, second = _judged(bot, a), _judged(bot, b)
    bot.iterate()
    r = bot.state.replies.reply(first)
    assert r.status == "failed" and "127.0.0.1" in r.error
    got: list[bytes] = []

    class Sink:
        async def handle_DATA(self, server, session, envelope):  # noqa: N802
            got.append(envelope.original_content)
            return "250 OK"

    ctl = Controller(Sink(), hostname="127.0.0.1", port=dead)
    ctl.start()
    try:
        bot.iterate()
        bot.iterate()
    finally:
        ctl.stop()
    assert bot.state.replies.reply(first).status == "sent" and len(got) == 1
    pending = bot.state.replies.reply(second)
    assert pending.status == "pending" and "1 replies per day" in pending.error
    from verifier.status import overview
    assert any("pending: rate limit" in ln for ln in overview(bot.state))
    bot.close()


def test_triggers_and_series():
    from claims.message import message_from_text
    msg = message_from_text("> verifier: check\nVerifier: Check please\nverifier: nope\n")
    assert triggers(msg) == ["check"]
    assert series_of("[PATCH v3 net-next 2/5] net: gro: timer") == ("net: gro: timer", 3)
    assert series_of("Re: [PATCH net-next] net: gro: timer") == ("net: gro: timer", 1)


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "verifier", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=60)


def test_cli_bad_input_is_one_line(tmp_path):
    r = _cli("bot", "--config", str(tmp_path / "missing.toml"), "--once", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "no config file" in r.stderr
    bad = tmp_path / "bad.toml"
    bad.write_text('[bot]\nlists = ["ftp://x"]\n')
    r = _cli("bot", "--config", str(bad), cwd=tmp_path)
    assert r.returncode == 2 and "lists" in r.stderr and "Traceback" not in r.stderr
    bad.write_text('[bot]\nlists = ["http://127.0.0.1:9/x"]\nintervall = 3\n')
    r = _cli("status", "--config", str(bad), cwd=tmp_path)
    assert r.returncode == 2 and "unknown setting(s): intervall" in r.stderr
    for body, says in (('runner = "fleet"', "needs scheduler"),
                       ('runner = "ssh"', "runner must be netns or fleet"),
                       ('runner = "fleet"\nscheduler = "tcp://127.0.0.1:9"\ntags = ["a b"]',
                        "bad tag")):
        bad.write_text(f'[bot]\nlists = ["http://127.0.0.1:9/x"]\n{body}\n')
        r = _cli("bot", "--config", str(bad), "--once", cwd=tmp_path)
        assert r.returncode == 2 and says in r.stderr and r.stderr.count("\n") == 1, r.stderr


def test_cli_queue_and_status(tmp_path):
    cfg = tmp_path / "bot.toml"
    cfg.write_text('[bot]\nlists = ["http://127.0.0.1:9/netdev"]\nstate = "s.sqlite"\n')
    r = _cli("queue", "--config", str(cfg), "<abc@x.example>", cwd=tmp_path)
    assert r.returncode == 2 and "cannot check" in r.stderr  # no inbox to ask: not queued
    r = _cli("queue", "--config", str(cfg), "<abc@x.example>", "--force", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    r = _cli("status", "--config", str(cfg), cwd=tmp_path)
    assert "thread <abc@x.example> requested: queued by operator" in r.stdout
    with State(tmp_path / "s.sqlite") as s:
        s.threads.set_thread("abc@x.example", "opted-out", "opt-out by a@x")
    r = _cli("queue", "--config", str(cfg), "abc@x.example", cwd=tmp_path)
    assert r.returncode == 1 and "opted out" in r.stderr
    r = _cli("queue", "--config", str(cfg), "not a msgid", cwd=tmp_path)
    assert r.returncode == 2 and "not a Message-ID" in r.stderr


def test_git_watch_reads_every_message_once(local_inbox, tmp_path):
    """More messages than a new.atom page (25) between polls: the git mirror misses none."""
    for i in range(30):
        local_inbox.deliver(rfc822(f"[PATCH] n{i}", "A <a@x.example>", NOW, f"n{i}@x.example",
                                   "hello\n"))
    bot = Bot(_cfg(tmp_path, local_inbox.url, watch="git"))
    assert bot.poll() == 30
    local_inbox.deliver(_re("n3@x.example", 1, MAINT, "verifier: check"))
    bot.close()
    again = Bot(_cfg(tmp_path, local_inbox.url, watch="git"))
    assert again.poll() == 1 and again.poll() == 0
    assert again.state.threads.thread("n3@x.example").status == "requested"
    again.close()


def test_search_watch(tmp_path):
    """Search needs the Xapian index the server opened at start (mails delivered while it
    runs were not searchable here), so the mails land first."""
    from tests.lore import LocalInbox
    inbox = LocalInbox()
    try:
        a, _, mail_a = _root("qa")
        inbox.deliver(mail_a)
        inbox.deliver(rfc822("unrelated", "B <b@x.example>", NOW, "u@x.example", "hi\n"))
        inbox.deliver(_re(a, 1, MAINT, "verifier: check"))
        inbox.start()
        bot = Bot(_cfg(tmp_path, inbox.url, watch="search", query="s:PATCH OR s:Re"))
        assert bot.poll() == 2 and bot.poll() == 0
        assert bot.state.threads.thread(a).status == "requested"
        assert not bot.state.threads.seen("u@x.example")
        bot.close()
    finally:
        inbox.stop()


def test_sending_not_in_inbox_is_sent_again_with_the_same_id(local_inbox, tmp_path):
    """A crash after 'sending' was recorded, with the reply nowhere in the inbox: the same
    .eml (same Message-ID, so the list archive would keep one) goes out again, once.  A
    crash after the SMTP server took it (the outbox's sent-ledger, which `verifier reply
    --send` keeps too, has it) sends nothing again."""
    a, _, mail_a = _root("ga")
    local_inbox.deliver(mail_a)
    got: list[bytes] = []

    class Sink:
        async def handle_DATA(self, server, session, envelope):  # noqa: N802
            got.append(envelope.original_content)
            return "250 OK"

    ctl = Controller(Sink(), hostname="127.0.0.1", port=free_port())
    ctl.start()
    try:
        smtp = SmtpSettings(host="127.0.0.1", port=ctl.port, sender="Bot <bot@bot.example>")
        bot = Bot(_cfg(tmp_path, local_inbox.url), smtp)
        bot.poll()
        cid = _judged(bot, a)
        bot.iterate()
        assert len(got) == 1 and bot.state.replies.reply(cid).status == "sent"
        # `verifier reply --send` on the bot's outbox: one ledger, so not sent again
        from verifier.bot_plan import thread_messages
        from verifier.reply import reply

        again = reply(bot.results(cid), tmp_path / "outbox", send=True,
                      thread=thread_messages(bot.ctx, a)[1], settings=smtp)
        assert not again.sent and "already sent" in again.message and len(got) == 1
        bot.state.db.execute("UPDATE replies SET status='sending'")  # ledger has it
        bot.iterate()
        assert len(got) == 1 and bot.state.replies.reply(cid).status == "sent"
        bot.state.db.execute("UPDATE replies SET status='sending'")  # crashed before SMTP
        with sqlite3.connect(tmp_path / "outbox" / "sent.sqlite") as ledger:
            ledger.execute("DELETE FROM sent")
        bot.iterate()
        bot.iterate()
    finally:
        ctl.stop()
    mid = f"Message-ID: <{bot.state.replies.reply(cid).message_id}>".encode()
    assert len(got) == 2 and mid in got[0] and mid in got[1]
    sent = bot.state.replies.reply(cid)
    assert sent.status == "sent" and sent.attempts == 2
    bot.close()
