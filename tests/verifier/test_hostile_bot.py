"""Issue 15: one mail must never stop the bot.  On main a Subject encoded-word with CR LF
(4 of 4 rounds crashed) or a reply with a `charset=idna` part in an asked thread (3 of 3
rounds; 0 of 3 threads verified) ended every round with exit 3.  Here both sit beside a
normal asked thread on a real public-inbox on loopback; rounds run without a runner
(`run = false`: decide and queue), and every asked thread gets its claims queued."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest

from tests.lore import rfc822
from verifier.bot import Bot
from verifier.bot_config import BotConfig

MAINT = "Net Maintainer <maint@corpus.example>"
AUTHOR = "Pat Author <pat@corpus.example>"
NOW = datetime.now(UTC)
BODY = ("Throughput with netperf -H 10.0.0.2 -t TCP_STREAM -l 10:\n\n"
        "before: 9100 Mbps\nafter:  9500 Mbps\n")


def _root(stem: str, subject: bytes) -> tuple[str, bytes]:
    mid = f"{stem}.0@corpus.example"
    head = (f"From: {AUTHOR}\nTo: netdev@vger.kernel.org\nDate: Mon, 1 Jan 2024 00:00:00 +0000\n"
            f"Message-ID: <{mid}>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n")
    return mid, head.encode() + b"Subject: " + subject + b"\n\n" + BODY.encode()


def _ask(root: str, n: int) -> bytes:
    return rfc822("Re: x", MAINT, NOW + timedelta(minutes=n), f"r{n}.{root}",
                  "verifier: check\n", in_reply_to=root, references=[root])


def _idna_reply(root: str, n: int) -> bytes:
    return (f"From: Other <other@corpus.example>\nSubject: Re: x\nMessage-ID: <i{n}.{root}>\n"
            f"In-Reply-To: <{root}>\nReferences: <{root}>\nMIME-Version: 1.0\n"
            "Content-Type: multipart/mixed; boundary=b\n\n--b\n"
            "Content-Type: text/plain; charset=idna\n\nnice \xff numbers\n--b--\n").encode(
                "latin-1")


@pytest.mark.parametrize("rounds", [3])
def test_hostile_subject_and_idna_reply_do_not_stop_the_bot(local_inbox, tmp_path: Path,
                                                            rounds: int) -> None:
    crlf, mail_crlf = _root("crlf", b"=?utf-8?q?[PATCH_net-next]_gro=0D=0ABcc:_x@evil.example?=")
    idna, mail_idna = _root("idna", b"[PATCH net-next] gro: flush timer")
    plain, mail_plain = _root("plain", b"[PATCH net-next] gro: plain")
    for m in (mail_crlf, mail_idna, mail_plain):
        local_inbox.deliver(m)
    local_inbox.deliver(_idna_reply(idna, 1))
    for n, root in enumerate((crlf, idna, plain), 2):
        local_inbox.deliver(_ask(root, n))
    cfg = BotConfig(lists=[local_inbox.url], state=tmp_path / "state.sqlite",
                    outbox=tmp_path / "outbox", allow=["maint@corpus.example"],
                    maintainers=["maint@corpus.example"], run=False, dry_run=True)
    bot = Bot(cfg)
    try:
        for _ in range(rounds):
            bot.iterate()
        threads = {t.thread_id: t for t in bot.state.threads.threads()}
        queued = {c.thread_id for c in bot.state.claims.claims()}
        assert {crlf, idna, plain} <= queued, (threads, queued)
    finally:
        bot.close()
    from claims.sources import iter_messages

    (msg,) = iter_messages("crlf", data=mail_crlf)
    reply = EmailMessage()
    reply["Subject"] = "Re: " + (msg.subject or "")  # raised ValueError on main
    assert "\n" not in reply["Subject"] and "Bcc" in reply["Subject"]
