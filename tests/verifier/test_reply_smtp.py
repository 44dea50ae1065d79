"""Replies sent to a real SMTP server on loopback (aiosmtpd) and read back as they arrived."""
from __future__ import annotations

import email
import socket
from email import policy

import pytest
from aiosmtpd.controller import Controller

from claims.spec import Source
from tests.stats_sim import fixed
from verifier.cmd_reply import add_arguments, run
from verifier.reply import ReplyError, SmtpSettings, build_reply, reply, smtp_settings

FROM = "Verifier <bot@example.org>"

QUOTE = ("lpaa5:~# ./netperf -H lpaa6 -t TCP_RR -l 20 -Cc -- -r 40000,40000\n"
         "16384  87380  40000   40000  20.00   9023.86  2.02   1.70   107.513  90.561")
ORIG_ID = "1415241576.13896.62.camel@edumazet-glaptop2.roam.corp.google.com"


class Sink:
    def __init__(self) -> None:
        self.got: list[tuple[list[str], bytes]] = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd API)
        self.got.append((list(envelope.rcpt_tos), envelope.original_content))
        return "250 OK"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def smtp():
    sink = Sink()
    ctl = Controller(sink, hostname="127.0.0.1", port=_free_port())
    ctl.start()
    try:
        yield sink, ctl.port
    finally:
        ctl.stop()


@pytest.fixture
def results(tmp_path):
    res = fixed(-4.1, -4.0, 1.0, 10, 11)
    res.spec.source = Source(
        author="Eric Dumazet <eric.dumazet@gmail.com>",
        subject="[PATCH net-next] net: gro: add a per device gro flush timer",
        message_id=ORIG_ID, lines=[30, 45], quote=QUOTE,
        date="Wed, 05 Nov 2014 18:39:36 -0800")
    res.runner = "netns"
    return res


MBOX = (f"From x@y Thu Jan  1 00:00:00 1970\nFrom: Eric Dumazet <eric.dumazet@gmail.com>\n"
        f"To: Rick Jones <rick.jones2@hp.com>\nCc: netdev <netdev@vger.kernel.org>\n"
        f"Subject: Re: [PATCH net-next] net: gro: add a per device gro flush timer\n"
        f"Message-ID: <{ORIG_ID}>\nDate: Wed, 05 Nov 2014 18:39:36 -0800\n\n"
        f"{QUOTE}\n").encode()


def _thread(tmp_path):
    from claims.model import Message
    return [Message(message_id=ORIG_ID, subject="Re: [PATCH net-next] net: gro: add a per "
                    "device gro flush timer", from_="Eric Dumazet <eric.dumazet@gmail.com>",
                    to="Rick Jones <rick.jones2@hp.com>",
                    cc="David Miller <davem@davemloft.net>, netdev <netdev@vger.kernel.org>",
                    references=["<5457a1b0.1@hp.com>"], date="Wed, 05 Nov 2014 18:39:36 -0800")]


def test_send_threads_and_fits_72_columns(smtp, results, tmp_path):
    sink, port = smtp
    s = SmtpSettings(host="127.0.0.1", port=port, sender=FROM)
    out = reply(results, tmp_path / "outbox", send=True, thread=_thread(tmp_path), settings=s)
    assert out.sent, out.message
    assert len(sink.got) == 1
    rcpt, raw = sink.got[0]
    assert sorted(rcpt) == sorted(["eric.dumazet@gmail.com", "rick.jones2@hp.com",
                                   "davem@davemloft.net", "netdev@vger.kernel.org"])
    msg = email.message_from_bytes(raw, policy=policy.default)
    assert msg["Subject"] == "Re: [PATCH net-next] net: gro: add a per device gro flush timer"
    assert msg["In-Reply-To"] == f"<{ORIG_ID}>"
    assert msg["References"].split() == ["<5457a1b0.1@hp.com>", f"<{ORIG_ID}>"]
    assert "eric.dumazet@gmail.com" in msg["To"] and "netdev@vger.kernel.org" in msg["Cc"]
    body = msg.get_body(("plain",)).get_content()
    lines = body.splitlines()
    # prose within 72 columns; quoted tool output and the trailer are kept as they are
    assert max(len(x) for x in lines if not x.startswith((">", "verifier-result:"))) <= 72
    assert "> " + QUOTE.splitlines()[1] in lines  # 75 columns, not re-wrapped
    assert "-- " in lines
    # bottom-posted: the quote (only the claim's lines) comes before the verdict
    quoted = [x for x in lines if x.startswith(">")]
    assert quoted and lines.index(quoted[0]) < next(i for i, x in enumerate(lines)
                                                    if "CONFIRMED" in x)
    assert not any("unsubscribe" in x for x in quoted)
    assert any(x.startswith("verifier-result: ") for x in lines)
    names = [p.get_filename() for p in msg.iter_attachments()]
    assert names == [f"spec-{results.spec.id}.yaml", f"results-{results.spec.id}.json"]


def test_second_send_says_already_sent(smtp, results, tmp_path):
    sink, port = smtp
    s = SmtpSettings(host="127.0.0.1", port=port, sender=FROM)
    first = reply(results, tmp_path / "ob", send=True, thread=_thread(tmp_path), settings=s)
    second = reply(results, tmp_path / "ob", send=True, thread=_thread(tmp_path), settings=s)
    assert first.sent and not second.sent
    assert "already sent" in second.message
    assert len(sink.got) == 1


def test_dry_run_sends_nothing(smtp, results, tmp_path):
    sink, _ = smtp
    out = reply(results, tmp_path / "ob", send=False, thread=_thread(tmp_path))
    assert not out.sent and out.path.exists() and sink.got == []


def test_rate_limit(smtp, results, tmp_path):
    sink, port = smtp
    s = SmtpSettings(host="127.0.0.1", port=port, rate_per_hour=1, sender=FROM)
    reply(results, tmp_path / "ob", send=True, thread=_thread(tmp_path), settings=s)
    results.spec.id = "another-spec"
    with pytest.raises(ReplyError, match="rate limit"):
        reply(results, tmp_path / "ob", send=True, thread=_thread(tmp_path), settings=s)
    assert len(sink.got) == 1


def test_never_to_an_address_outside_the_thread(results):
    # the archive hid the domain: nothing deliverable, so no reply at all
    results.spec.source.author = "Eric Dumazet <eric.dumazet@...il.com>"
    with pytest.raises(ReplyError, match="no deliverable address"):
        build_reply(results)
    # a Cc that is not in the thread is never added
    results.spec.source.author = "Eric Dumazet <eric.dumazet@gmail.com>"
    msg = build_reply(results)
    assert msg["Cc"] is None and msg["To"] == "Eric Dumazet <eric.dumazet@gmail.com>"


def test_settings_from_env_not_command_line():
    s = smtp_settings({"host": "mail", "port": 587, "starttls": True},
                      {"VERIFIER_SMTP_PASSWORD": "pw", "VERIFIER_SMTP_USER": "bot"})
    assert (s.host, s.port, s.starttls, s.user, s.password) == ("mail", 587, True, "bot", "pw")


def test_cli_send_twice(smtp, results, tmp_path, monkeypatch, capsys):
    import argparse
    sink, port = smtp
    path = tmp_path / "results.json"
    results.save(path)
    monkeypatch.setenv("VERIFIER_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.setenv("VERIFIER_SMTP_HOST", "127.0.0.1")
    monkeypatch.setenv("VERIFIER_SMTP_PORT", str(port))
    monkeypatch.setenv("VERIFIER_CACHE", str(tmp_path / "cache"))
    p = argparse.ArgumentParser()
    add_arguments(p)
    argv = [str(path), "--send", "--outbox", str(tmp_path / "ob")]
    # no From: configured, then no thread anywhere: refused in one line, nothing sent
    assert run(p.parse_args(argv)) == 2
    assert "no From: configured" in capsys.readouterr().err
    monkeypatch.setenv("VERIFIER_SMTP_FROM", FROM)
    assert run(p.parse_args(argv)) == 2
    assert "not in the cache" in capsys.readouterr().err and sink.got == []
    # the thread in the cache (as `verifier fetch` leaves it) is read: the list stays in Cc
    from verifier.cache import Cache
    from verifier.fetch import choose_inbox, classify
    Cache("threads").put(classify(ORIG_ID, choose_inbox(None)).cache_key("http"), MBOX)
    assert run(p.parse_args(argv)) == 0
    assert "netdev@vger.kernel.org" in capsys.readouterr().out
    assert run(p.parse_args(argv)) == 0
    assert "already sent" in capsys.readouterr().out
    assert len(sink.got) == 1
    assert run(p.parse_args([str(tmp_path / "missing.json")])) == 2


def test_starttls_and_login(results, tmp_path):
    """STARTTLS with a certificate from a CA made here, then AUTH LOGIN over the TLS link."""
    import ssl
    import subprocess

    from aiosmtpd.smtp import AuthResult

    key, crt = tmp_path / "k.pem", tmp_path / "c.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(crt)], check=True, capture_output=True)
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.load_cert_chain(crt, key)
    seen = []

    def auth(server, session, envelope, mechanism, data):
        seen.append((data.login, data.password))
        return AuthResult(success=data.login == b"bot" and data.password == b"s3cret")

    sink = Sink()
    ctl = Controller(sink, hostname="127.0.0.1", port=_free_port(), tls_context=ctx,
                     require_starttls=True, authenticator=auth, auth_require_tls=True)
    ctl.start()
    try:
        s = smtp_settings({"host": "127.0.0.1", "port": ctl.port, "starttls": True,
                           "cafile": str(crt), "from": FROM},
                          {"VERIFIER_SMTP_USER": "bot", "VERIFIER_SMTP_PASSWORD": "s3cret"})
        out = reply(results, tmp_path / "ob", send=True, thread=_thread(tmp_path), settings=s)
    finally:
        ctl.stop()
    assert out.sent and len(sink.got) == 1
    assert seen == [(b"bot", b"s3cret")]


def test_no_credentials_without_starttls(results, tmp_path):
    s = SmtpSettings(host="127.0.0.1", port=_free_port(), user="bot", password="pw",
                     sender=FROM)
    with pytest.raises(ReplyError, match="without STARTTLS"):
        reply(results, tmp_path / "ob", send=True, thread=_thread(tmp_path), settings=s)


def test_dry_run_keeps_hidden_addresses_send_refuses(smtp, results, tmp_path):
    sink, port = smtp
    results.spec.source.author = "Eric Dumazet <eric.dumazet@...il.com>"
    out = reply(results, tmp_path / "ob", send=False)
    assert out.path.exists() and "undeliverable" in out.message
    s = SmtpSettings(host="127.0.0.1", port=port, sender=FROM)
    with pytest.raises(ReplyError, match="no deliverable address"):
        reply(results, tmp_path / "ob", send=True, settings=s)
    assert sink.got == []
