"""The reply on the thread: an .eml in an outbox by default, mailed only with --send.

Kernel list etiquette: "Re: <subject>", In-Reply-To and References so it threads, To the
claim's author with the thread's other recipients in Cc, bottom-posted under a short quote
of the claim's own lines, plain text, short (the 0-day robot's layout: verdict first, a
table, machine and parameters, how to reproduce; the spec and every run attached, never
inline; a link to the results page for the rest).  Prose is wrapped to 72 columns;
preformatted text (quoted tool output, the table) is never re-wrapped.

A bot that mails strangers must be boring: it never writes to an address that is not in
the thread, takes each recipient from a parsed address (a display name never adds one)
and caps their number, strips control and escape characters a mail brought, replies at
most once per claim and spec (a record in the outbox's SQLite file), keeps a rate limit,
and sends only from a configured From:.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import smtplib
import sqlite3
import ssl
import textwrap
import time
from collections.abc import Iterable
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.utils import formataddr, formatdate, getaddresses, parseaddr
from pathlib import Path
from typing import Any

from claims.model import Message
from claims.spec import Spec
from runners.results import Results
from verifier.report import WIDTH, clean, render, spec_yaml

DEFAULT_SENDER = "perf claim verifier <verifier@localhost>"  # drafts only, never sent
MAX_RECIPIENTS = 20  # To + Cc; a long get_maintainer.pl list fits, a flood does not
QUOTE_LINES = 8  # of the claim, with [...] for what is left out
MAX_ROWS = 6  # table rows in the mail; the trailer and the attachment have them all
OPT_OUT = ('Reply with "verifier: no" on a line of its own and the bot will not run or '
           "write here again.")


class ReplyError(Exception):
    """A reply that must not be written or sent; the message is one line for the user."""


@dataclass
class SmtpSettings:
    host: str = "localhost"
    port: int = 25
    starttls: bool = False
    user: str | None = None
    password: str | None = None
    sender: str | None = None  # From:, required to send; drafts use DEFAULT_SENDER
    rate_per_hour: int = 10
    timeout: float = 30.0
    cafile: str | None = None  # a private CA for the server's certificate
    public_url: str | None = None  # base URL of `verifier serve`; the reply links to it


_ENV = {"host": "VERIFIER_SMTP_HOST", "port": "VERIFIER_SMTP_PORT",
        "starttls": "VERIFIER_SMTP_STARTTLS", "user": "VERIFIER_SMTP_USER",
        "password": "VERIFIER_SMTP_PASSWORD", "sender": "VERIFIER_SMTP_FROM",
        "rate_per_hour": "VERIFIER_SMTP_RATE_PER_HOUR", "cafile": "VERIFIER_SMTP_CAFILE",
        "public_url": "VERIFIER_PUBLIC_URL"}


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
        for key in ("host", "user", "password", "sender", "cafile", "public_url"):
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


_ANGLE = re.compile(r"<([^<>\s]+@[^<>\s]+)>")


def mailboxes(value: str | None) -> list[tuple[str, str]]:
    """(display name, address) pairs of a To/Cc header value, control characters gone."""
    return [(n, a) for n, a in getaddresses([clean(value, one_line=True)]) if a and "@" in a]


def author_address(value: str | None) -> tuple[str, str] | None:
    """The one mailbox of a From: header: the last <address> when there is one, else a
    single bare address.  A display name decoded from encoded words may hold commas and
    '@' ("Eve, a1@evil, a2@evil <eve@x>"): it never adds a recipient."""
    v = clean(value, one_line=True)
    angles = list(_ANGLE.finditer(v))
    if angles:
        m = angles[-1]
        name = v[:m.start()].strip().strip('"').strip()
        return name, m.group(1)
    boxes = mailboxes(v)
    return boxes[0] if len(boxes) == 1 else None


def _valid(addr: str) -> bool:
    """A deliverable address: archives hide domains as 'x@...il.com', never mail those."""
    _, a = parseaddr(addr)
    if "@" not in a or "..." in a or " " in a:
        return False
    local, _, domain = a.rpartition("@")
    return bool(local) and "." in domain and not domain.startswith(".")


def _addresses(values: Iterable[str | None]) -> list[tuple[str, str]]:
    return [box for v in values if v for box in mailboxes(v)]


def original_message(results: Results, thread: list[Message] | None = None) -> Message:
    """The message the claim came from: found in the thread by Message-ID, else rebuilt
    from the spec's source (author, subject, Message-ID)."""
    src = results.spec.source
    mid = src.message_id
    for m in thread or []:
        if mid and m.message_id and m.message_id.strip("<>") == mid.strip("<>"):
            return m
    return Message(message_id=mid, subject=src.subject, from_=src.author, date=src.date)


def thread_addresses(original: Message, thread: list[Message] | None) -> set[str]:
    """Every address that appears in the thread's From, To and Cc (lower-cased)."""
    msgs = list(thread or []) + [original]
    out = {a.lower() for m in msgs for _, a in _addresses([m.to, m.cc])}
    return out | {box[1].lower() for m in msgs if (box := author_address(m.from_))}


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
    author = author_address(original.from_)
    for boxes, out in (([author] if author else [], to),
                       (_addresses([original.to, original.cc]), cc)):
        for name, addr in boxes:
            ok = _valid(addr) or (not deliverable and "@" in addr)
            if addr.lower() in allowed and ok and addr.lower() not in seen:
                if len(to) + len(cc) >= MAX_RECIPIENTS:
                    break
                out.append(formataddr((name, addr)) if name else addr)
                seen.add(addr.lower())
    if not to:
        who = original.from_ or "unknown"
        raise ReplyError(f"no deliverable address for the claim's author ({who}): "
                         "archives hide domains; give the thread as mbox with --thread")
    return to, cc


def _number_patterns(spec: Spec) -> list[re.Pattern[str]]:
    """The claimed numbers as they may be printed in the mail (9023.86, 1.70, 9,023)."""
    out = []
    for m in spec.metrics:
        for x in (m.baseline, m.candidate):
            if isinstance(x, int | float) and x:
                g = f"{x:g}" if abs(x) < 1e6 else f"{x:.0f}"
                body = re.escape(g).replace(r"\.", r"[.,]") + (r"0*" if "." in g else "")
                out.append(re.compile(r"(?<![\d.,])" + body + r"(?![\d])"))
    return out


def quoted_lines(results: Results, limit: int = QUOTE_LINES) -> list[str]:
    """The claim's key lines, verbatim: the benchmark command and the lines that hold the
    claimed numbers, '[...]' where lines are left out; never re-wrapped."""
    spec = results.spec
    text = clean(spec.source.quote or "").expandtabs()
    lines = [ln.rstrip() for ln in text.splitlines()]
    if len(lines) <= limit:
        return lines
    pats = _number_patterns(spec)
    command = (spec.benchmark.original or "").strip()
    keep = [i for i, ln in enumerate(lines) if ln.strip() and any(p.search(ln) for p in pats)]
    first_cmd = next((i for i, ln in enumerate(lines) if command and command in ln), None)
    chosen = sorted({*([first_cmd] if first_cmd is not None else []), *keep})
    if not chosen:
        chosen = list(range(limit - 1))
    out: list[str] = []
    prev = -1
    for i in chosen:
        if len(out) >= limit - 1:
            break
        if i != prev + 1 and out:
            out.append("[...]")
        out.append(lines[i])
        prev = i
    if prev != len(lines) - 1:
        out.append("[...]")
    return out


def quote(results: Results, original: Message, width: int = WIDTH) -> str:
    """An attribution line and the claim's key lines quoted with '> ', as written."""
    box = author_address(original.from_)
    who = clean((box[0] if box else None) or original.from_ or "the author", one_line=True)
    date = clean(original.date, one_line=True)
    head = f"On {date}, {who} wrote:" if date else f"{who} wrote:"
    out = textwrap.wrap(head, width=width) or [head]
    out += [f"> {ln}".rstrip() for ln in quoted_lines(results)]
    return "\n".join(out)


def _subject(original: Message) -> str:
    s = clean(original.subject, one_line=True) or "performance claim"
    return s if s.lower().startswith("re:") else f"Re: {s}"


def reply_key(results: Results) -> str:
    """One reply per claim and spec: the spec id plus where the claim sits in the thread."""
    spec = results.spec
    raw = f"{spec.id}|{spec.source.message_id}|{spec.source.lines}"
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def reply_message_id(results: Results, sender: str | None) -> str:
    """The reply's Message-ID, the same every time it is built (from its key and the
    sender's domain): a reply sent again after a crash is one message to the archive, and
    the bot can ask the inbox whether it arrived."""
    domain = parseaddr(sender or "")[1].rpartition("@")[2] or "localhost"
    return f"<verifier.{reply_key(results)}@{domain}>"


def page_url(results: Results, base: str | None) -> str | None:
    """Where `verifier serve` at `base` shows this claim: by Message-ID, then the spec."""
    from urllib.parse import quote as urlquote

    mid = results.spec.source.message_id
    if not base or not mid:
        return None
    sid = results.spec.id or ""
    return f"{base.rstrip('/')}/m/{urlquote(mid.strip('<>'), safe='@')}#{sid}"


def attachments(results: Results) -> list[tuple[str, str, str]]:
    """(file name, MIME subtype, text): the spec and the full results (every run, its raw
    output and samples) -- never inline."""
    sid = results.spec.id or "spec"
    full = json.dumps(results.to_dict(), indent=1, default=str)
    return [(f"spec-{sid}.yaml", "x-yaml", spec_yaml(results, width=100, inline=False)),
            (f"results-{sid}.json", "json", full)]


def _asker(requested_by: str | None) -> str | None:
    """Who asked, as the reply names them: a person's address, or the bot's own setting."""
    who = clean(requested_by, one_line=True)
    if not who:
        return None
    return who if "@" in who else f"the bot's {who} setting"


def body(results: Results, original: Message, requested_by: str | None = None,
         public_url: str | None = None) -> str:
    """The reply's text: the short quote, then the 0-day style report."""
    extra = {"attachments": [name for name, _, _ in attachments(results)],
             "page_url": page_url(results, public_url),
             "requested_by": _asker(requested_by),
             "optout": OPT_OUT,
             "fold_footer": False,  # one trailer line per row, like a Link: trailer
             "max_rows": MAX_ROWS}
    text = quote(results, original) + "\n\n" + render(results, "email", extra=extra)
    return clean(text)


def build_reply(results: Results, thread: list[Message] | None = None,
                sender: str | None = DEFAULT_SENDER, deliverable: bool = True,
                requested_by: str | None = None,
                public_url: str | None = None) -> EmailMessage:
    sender = sender or DEFAULT_SENDER
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
    msg["Message-ID"] = reply_message_id(results, sender)
    if original.message_id:
        mid = "<" + original.message_id.strip().strip("<>") + ">"
        refs = ["<" + r.strip().strip("<>") + ">" for r in original.references if r.strip()]
        msg["In-Reply-To"] = mid
        msg["References"] = " ".join([*refs, mid] if mid not in refs else refs)
    msg["X-Verifier-Key"] = reply_key(results)
    msg.set_content(body(results, original, requested_by, public_url), charset="utf-8",
                    cte="8bit")
    for name, subtype, text in attachments(results):
        msg.add_attachment(text, subtype=subtype, filename=name)
    return msg


@dataclass
class Draft:
    """A reply written to the outbox: its key in the sent-ledger, the message, the file."""

    key: str
    msg: EmailMessage
    path: Path

    @property
    def message_id(self) -> str:
        return str(self.msg["Message-ID"]).strip("<>")


class Outbox:
    """The outbox folder: the .eml files and the one sent-ledger (SQLite) of what was
    mailed and when, for `verifier reply --send` and the bot alike: a reply goes out once
    per claim and spec, and at most `rate_per_hour` replies an hour."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path / "sent.sqlite")
            self.db.execute("CREATE TABLE IF NOT EXISTS sent (key TEXT PRIMARY KEY, "
                            "message_id TEXT, recipients TEXT, sent_at REAL)")
        except (OSError, sqlite3.Error) as e:
            raise ReplyError(f"cannot use outbox {self.path}: {e}") from None

    def __enter__(self) -> Outbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def draft(self, results: Results, thread: list[Message] | None, s: SmtpSettings,
              deliverable: bool, requested_by: str | None = None) -> Draft:
        """Build the reply and write it as reply-<key>.eml."""
        msg = build_reply(results, thread, s.sender, deliverable=deliverable,
                          requested_by=requested_by, public_url=s.public_url)
        key = reply_key(results)
        return Draft(key, msg, self.write(key, msg))

    def write(self, key: str, msg: EmailMessage) -> Path:
        p = self.path / f"reply-{key}.eml"
        p.write_bytes(bytes(msg))
        return p

    def send(self, d: Draft, s: SmtpSettings) -> str | None:
        """Mail the draft unless the ledger has it: None when sent now, else when it was
        sent before.  ReplyError (rate limit, SMTP) leaves it unsent."""
        done = self.sent_note(d.key)
        if done:
            return done
        if self.sent_since(time.time() - 3600) >= s.rate_per_hour:
            raise ReplyError(f"rate limit: {s.rate_per_hour} replies in the last hour; "
                             f"kept {d.path} unsent")
        deliver(d.msg, s)
        self.record(d.key, d.msg)
        return None

    def sent_note(self, key: str) -> str | None:
        """'already sent as <id> at <time> UTC' when the ledger has the key."""
        done = self.sent(key)
        if done is None:
            return None
        return (f"already sent as {done[0]} at "
                f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime(done[1]))} UTC")

    def sent(self, key: str) -> tuple[str, float] | None:
        row = self.db.execute("SELECT message_id, sent_at FROM sent WHERE key = ?",
                              (key,)).fetchone()
        return (row[0], row[1]) if row else None

    def sent_since(self, t: float) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM sent WHERE sent_at >= ?",
                                   (t,)).fetchone()[0])

    def record(self, key: str, msg: EmailMessage) -> None:
        """Into the ledger (once: a reply found in the inbox after a crash is recorded
        here without being sent again)."""
        rcpt = ", ".join(filter(None, [msg["To"], msg["Cc"]]))
        with self.db:
            self.db.execute("INSERT OR IGNORE INTO sent VALUES (?, ?, ?, ?)",
                            (key, msg["Message-ID"], rcpt, time.time()))

    def close(self) -> None:
        self.db.close()


def deliver(msg: EmailMessage, s: SmtpSettings) -> None:
    """Hand the message to the configured SMTP server (STARTTLS and login when configured)."""
    if not s.sender or parseaddr(msg["From"] or "")[1] != parseaddr(s.sender)[1]:
        raise ReplyError("no From: configured: set `from` in [smtp] (or VERIFIER_SMTP_FROM) "
                         "to send")
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
          settings: SmtpSettings | None = None,
          requested_by: str | None = None) -> Outcome:
    """Write the reply to the outbox, and mail it when `send` (once per claim and spec)."""
    s = settings or SmtpSettings()
    if send and not s.sender:
        raise ReplyError("no From: configured: set `from` in [smtp] (or VERIFIER_SMTP_FROM) "
                         "to send")
    with Outbox(outbox) as box:
        key = reply_key(results)
        done = box.sent_note(key)
        if send and done:
            return Outcome(box.path / f"reply-{key}.eml", False, f"{done}; not sending again")
        d = box.draft(results, thread, s, deliverable=send, requested_by=requested_by)
        if not send:
            to, cc = recipients(original_message(results, thread), thread,
                                s.sender or DEFAULT_SENDER, False)
            hidden = [parseaddr(a)[1] or a for a in to + cc if not _valid(a)]
            note = (f" (undeliverable, --send will leave out: {', '.join(hidden)})"
                    if hidden else "")
            return Outcome(d.path, False, f"dry run: reply written to {d.path}{note}")
        box.send(d, s)
        return Outcome(d.path, True, f"sent {d.msg['Message-ID']} to "
                                     f"{', '.join(filter(None, [d.msg['To'], d.msg['Cc']]))}")
