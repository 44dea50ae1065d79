"""Read a fetched mbox into the message model.

claims.sources.iter_messages is the project's reader (MIME, charsets, quote depth,
attributions); until it is importable this falls back to the standard library so that
fetching and threading work on their own.
"""
from __future__ import annotations

import email
import mailbox
from email.message import EmailMessage
from email.policy import default
from email.utils import getaddresses
from pathlib import Path
from typing import Any, cast

from claims.model import Message


def read_messages(path: str | Path) -> list[Message]:
    """Every message of an mbox file, in file order."""
    try:
        from claims.sources import iter_messages  # type: ignore[import-not-found]
    except ImportError:
        return _stdlib_messages(Path(path))
    return list(iter_messages(str(path)))


def _ids(value: str | None) -> list[str]:
    if not value:
        return []
    return [t.strip("<>") for t in str(value).replace(",", " ").split() if "@" in t]


def _body(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",)) if msg.is_multipart() else msg
    if part is None:
        return ""
    try:
        return str(part.get_content())
    except (LookupError, ValueError, KeyError):
        payload = part.get_payload(decode=True) or b""
        return payload.decode("utf-8", errors="replace") if isinstance(payload, bytes) else ""


def to_model(msg: EmailMessage, source: str | None = None) -> Message:
    """One stdlib message as claims.model.Message (lines with quote depth)."""
    from claims.message import fill_lines

    mid = _ids(msg.get("Message-ID"))
    irt = _ids(msg.get("In-Reply-To"))
    m = Message(
        message_id=mid[0] if mid else None,
        subject=str(msg.get("Subject", "")) or None,
        from_=str(msg.get("From", "")) or None,
        date=str(msg.get("Date", "")) or None,
        to=", ".join(a for _, a in getaddresses([str(msg.get("To", ""))]) if a) or None,
        cc=", ".join(a for _, a in getaddresses([str(msg.get("Cc", ""))]) if a) or None,
        in_reply_to=irt[0] if irt else None,
        references=_ids(msg.get("References")),
        headers=_headers(msg),
        source=source,
    )
    texts = _body(msg).splitlines()
    return fill_lines(m, texts, list(range(1, len(texts) + 1)))


def _headers(msg: EmailMessage) -> dict[str, str]:
    """Lower-case names, first occurrence wins (as claims.message.set_header records them)."""
    out: dict[str, str] = {}
    for k, v in msg.items():
        out.setdefault(k.lower(), str(v))
    return out


def _read_message(f: Any) -> EmailMessage:
    """One message of the mbox, parsed with the modern policy (an EmailMessage)."""
    return cast(EmailMessage, email.message_from_binary_file(f, policy=default))


def _stdlib_messages(path: Path) -> list[Message]:
    box = mailbox.mbox(path, factory=_read_message, create=False)  # type: ignore[arg-type]
    try:  # the factory makes each message an EmailMessage, whatever mbox's types say
        return [to_model(cast(EmailMessage, m), source=str(path)) for m in box if m is not None]
    finally:
        box.close()
