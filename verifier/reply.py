"""The reply on the thread: an .eml in an outbox by default, mailed only with --send.

Kernel list etiquette: "Re: <subject>", In-Reply-To and References so it threads, To the
claim's author with the thread's other recipients in Cc, bottom-posted under a quote of
only the claim's lines, plain text within 72 columns.  A bot that mails strangers must be
boring: it never writes to an address that is not in the thread, replies at most once per
claim and spec (a record in the outbox's SQLite file), and keeps a rate limit.
"""
from __future__ import annotations

import hashlib
import os
import smtplib
import sqlite3
import ssl
import textwrap
import time
from collections.abc import Iterable
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.utils import formatdate, getaddresses, make_msgid, parseaddr
from pathlib import Path
from typing import Any

from claims.model import Message
from verifier.report import WIDTH, render, spec_yaml
from verifier.results import Results

DEFAULT_SENDER = "perf claim verifier <verifier@localhost>"


class ReplyError(Exception):
    """A reply that must not be written or sent; the message is one line for the user."""


@dataclass
class SmtpSettings:
    host: str = "localhost"
    port: int = 25
    starttls: bool = False
    user: str | None = None
    password: str | None = None
    sender: str = DEFAULT_SENDER
    rate_per_hour: int = 10
    timeout: float = 30.0
    cafile: str | None = None  # a private CA for the server's certificate


_ENV = {"host": "VERIFIER_SMTP_HOST", "port": "VERIFIER_SMTP_PORT",
        "starttls": "VERIFIER_SMTP_STARTTLS", "user": "VERIFIER_SMTP_USER",
        "password": "VERIFIER_SMTP_PASSWORD", "sender": "VERIFIER_SMTP_FROM",
        "rate_per_hour": "VERIFIER_SMTP_RATE_PER_HOUR", "cafile": "VERIFIER_SMTP_CAFILE"}


def smtp_settings(section: dict[str, Any] | None = None,
                  environ: dict[str, str] | None = None) -> SmtpSettings:
    """[smtp] from the config file, overridden by VERIFIER_SMTP_* variables.

    Credentials come only from these two places, never from the command line, so they do
    not end up in shell history or `ps`.
    """
    env = os.environ if environ is None else environ
    merged: dict[str, Any] = dict(section or {})
    if "from" in merged:
        merged["sender"] = merged.pop("from")
    for key, var in _ENV.items():
        if env.get(var):
            merged[key] = env[var]
    s = SmtpSettings()
    try:
        for key in ("host", "user", "password", "sender", "cafile"):
            if merged.get(key) is not None:
                setattr(s, key, str(merged[key]))
        if merged.get("port") is not None:
            s.port = int(merged["port"])
        if merged.get("rate_per_hour") is not None:
            s.rate_per_hour = int(merged["rate_per_hour"])
        if merged.get("starttls") is not None:
            v = merged["starttls"]
            s.starttls = v if isinstance(v, bool) else str(v).lower() in ("1", "true", "yes")
    except ValueError as e:
        raise ReplyError(f"bad smtp setting: {e}") from None
    return s


def _valid(addr: str) -> bool:
    """A deliverable address: archives hide domains as 'x@...il.com', never mail those."""
    _, a = parseaddr(addr)
    if "@" not in a or "..." in a or " " in a:
        return False
    local, _, domain = a.rpartition("@")
    return bool(local) and "." in domain and not domain.startswith(".")


def _addresses(values: Iterable[str | None]) -> list[tuple[str, str]]:
    return [(n, a) for n, a in getaddresses([v for v in values if v]) if a]


def original_message(results: Results, thread: list[Message] | None = None) -> Message:
    """The message the claim came from: found in the thread by Message-ID, else rebuilt
    from the spec's source (author, subject, Message-ID)."""
    src = (results.spec or {}).get("source") or {}
    mid = src.get("message_id")
    for m in thread or []:
        if mid and m.message_id and m.message_id.strip("<>") == mid.strip("<>"):
            return m
    return Message(message_id=mid, subject=src.get("subject"), from_=src.get("author"),
                   date=src.get("date"))


def thread_addresses(original: Message, thread: list[Message] | None) -> set[str]:
    """Every address that appears in the thread's From, To and Cc (lower-cased)."""
    msgs = list(thread or []) + [original]
    return {a.lower() for m in msgs for _, a in _addresses([m.from_, m.to, m.cc])}


def recipients(original: Message, thread: list[Message] | None, sender: str,
               deliverable: bool = True) -> tuple[list[str], list[str]]:
    """To: the claim's author; Cc: the original's To and Cc (the list), all from the thread.

    With `deliverable` False (a dry run) addresses an archive hid ('x@...il.com') are kept,
    so the draft shows who it is for; sending always drops them.
    """
    allowed = thread_addresses(original, thread)
    me = parseaddr(sender)[1].lower()
    seen = {me}
    to: list[str] = []
    cc: list[str] = []
    for field_values, out in (([original.from_], to), ([original.to, original.cc], cc)):
        for name, addr in _addresses(field_values):
            ok = _valid(addr) or (not deliverable and "@" in addr)
            if addr.lower() in allowed and ok and addr.lower() not in seen:
                out.append(f"{name} <{addr}>" if name else addr)
                seen.add(addr.lower())
    if not to:
        who = original.from_ or "unknown"
        raise ReplyError(f"no deliverable address for the claim's author ({who}): "
                         "archives hide domains; give the thread as mbox with --thread")
    return to, cc


def quote(results: Results, original: Message, width: int = WIDTH) -> str:
    """An attribution line and the claim's lines only, quoted with '> ' and kept in width."""
    src = (results.spec or {}).get("source") or {}
    text = src.get("quote") or ""
    who = parseaddr(original.from_ or "")[0] or original.from_ or "the author"
    head = f"On {original.date}, {who} wrote:" if original.date else f"{who} wrote:"
    out = textwrap.wrap(head, width=width) or [head]
    for line in text.splitlines():
        line = line.rstrip()
        if len(line) + 2 <= width:
            out.append(f"> {line}".rstrip())
        else:
            out.extend(textwrap.wrap(line, width=width, initial_indent="> ",
                                     subsequent_indent=">   ", break_long_words=True))
    return "\n".join(out)


def _subject(original: Message) -> str:
    s = (original.subject or "performance claim").strip()
    return s if s.lower().startswith("re:") else f"Re: {s}"


def reply_key(results: Results) -> str:
    """One reply per claim and spec: the spec id plus where the claim sits in the thread."""
    spec = results.spec or {}
    src = spec.get("source") or {}
    raw = f"{spec.get('id')}|{src.get('message_id')}|{src.get('lines')}"
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def build_reply(results: Results, thread: list[Message] | None = None,
                sender: str = DEFAULT_SENDER, deliverable: bool = True) -> EmailMessage:
    original = original_message(results, thread)
    to, cc = recipients(original, thread, sender, deliverable)
    # long Message-IDs stay on their header line: a folded In-Reply-To threads badly
    msg = EmailMessage(policy=policy.SMTP.clone(max_line_length=998))
    msg["From"] = sender
    msg["To"] = ", ".join(to)
    if cc:
        msg["Cc"] = ", ".join(cc)
    msg["Subject"] = _subject(original)
    msg["Date"] = formatdate(localtime=False)
    domain = parseaddr(sender)[1].rpartition("@")[2] or "localhost"
    msg["Message-ID"] = make_msgid(idstring=reply_key(results), domain=domain)
    if original.message_id:
        mid = "<" + original.message_id.strip().strip("<>") + ">"
        refs = ["<" + r.strip().strip("<>") + ">" for r in original.references if r.strip()]
        msg["In-Reply-To"] = mid
        msg["References"] = " ".join([*refs, mid] if mid not in refs else refs)
    msg["X-Verifier-Key"] = reply_key(results)
    body = quote(results, original) + "\n\n" + render(results, "email")
    msg.set_content(body, charset="utf-8", cte="8bit")
    sid = (results.spec or {}).get("id") or "spec"
    msg.add_attachment(spec_yaml(results, width=100, inline=False), subtype="x-yaml",
                       filename=f"spec-{sid}.yaml")
    return msg


class Outbox:
    """The outbox folder: .eml files and a SQLite record of what was sent, and when."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path / "sent.sqlite")
            self.db.execute("CREATE TABLE IF NOT EXISTS sent (key TEXT PRIMARY KEY, "
                            "message_id TEXT, recipients TEXT, sent_at REAL)")
        except (OSError, sqlite3.Error) as e:
            raise ReplyError(f"cannot use outbox {self.path}: {e}") from None

    def write(self, key: str, msg: EmailMessage) -> Path:
        p = self.path / f"reply-{key}.eml"
        p.write_bytes(bytes(msg))
        return p

    def sent(self, key: str) -> tuple[str, float] | None:
        row = self.db.execute("SELECT message_id, sent_at FROM sent WHERE key = ?",
                              (key,)).fetchone()
        return (row[0], row[1]) if row else None

    def sent_since(self, t: float) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM sent WHERE sent_at >= ?",
                                   (t,)).fetchone()[0])

    def record(self, key: str, msg: EmailMessage) -> None:
        rcpt = ", ".join(filter(None, [msg["To"], msg["Cc"]]))
        with self.db:
            self.db.execute("INSERT INTO sent VALUES (?, ?, ?, ?)",
                            (key, msg["Message-ID"], rcpt, time.time()))

    def close(self) -> None:
        self.db.close()


def deliver(msg: EmailMessage, s: SmtpSettings) -> None:
    """Hand the message to the configured SMTP server (STARTTLS and login when configured)."""
    if s.user and not s.starttls:
        raise ReplyError(f"SMTP {s.host}:{s.port}: refusing to send credentials "
                         "without STARTTLS")
    try:
        with smtplib.SMTP(s.host, s.port, timeout=s.timeout) as smtp:
            if s.starttls:
                smtp.starttls(context=ssl.create_default_context(cafile=s.cafile))
            if s.user:
                smtp.login(s.user, s.password or "")
            smtp.send_message(msg)
    except (OSError, smtplib.SMTPException) as e:
        raise ReplyError(f"SMTP {s.host}:{s.port}: {e}") from None


@dataclass
class Outcome:
    path: Path
    sent: bool
    message: str


def reply(results: Results, outbox: str | os.PathLike[str], send: bool = False,
          thread: list[Message] | None = None,
          settings: SmtpSettings | None = None) -> Outcome:
    """Write the reply to the outbox, and mail it when `send` (once per claim and spec)."""
    s = settings or SmtpSettings()
    box = Outbox(outbox)
    try:
        key = reply_key(results)
        done = box.sent(key)
        if send and done:
            return Outcome(box.path / f"reply-{key}.eml", False,
                           f"already sent as {done[0]} at "
                           f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime(done[1]))} UTC; "
                           "not sending again")
        if not send:
            msg = build_reply(results, thread, s.sender, deliverable=False)
            path = box.write(key, msg)
            to, cc = recipients(original_message(results, thread), thread, s.sender, False)
            hidden = [parseaddr(a)[1] or a for a in to + cc if not _valid(a)]
            note = (f" (undeliverable, --send will leave out: {', '.join(hidden)})"
                    if hidden else "")
            return Outcome(path, False, f"dry run: reply written to {path}{note}")
        msg = build_reply(results, thread, s.sender)
        path = box.write(key, msg)
        if box.sent_since(time.time() - 3600) >= s.rate_per_hour:
            raise ReplyError(f"rate limit: {s.rate_per_hour} replies in the last hour; "
                             f"kept {path} unsent")
        deliver(msg, s)
        box.record(key, msg)
        return Outcome(path, True, f"sent {msg['Message-ID']} to "
                                   f"{', '.join(filter(None, [msg['To'], msg['Cc']]))}")
    finally:
        box.close()
