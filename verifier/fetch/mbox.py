"""Read a fetched mbox into the message model, with the project's one reader
(claims.sources: MIME, charsets, quote depth, attributions)."""
from __future__ import annotations

from pathlib import Path

from claims.model import Message
from claims.sources import iter_messages


def read_messages(path: str | Path) -> list[Message]:
    """Every message of an mbox file, in file order."""
    return list(iter_messages(str(path)))
