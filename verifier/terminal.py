"""No escape sequence from a mail, a spec or a results file reaches a person's terminal.

The message model already replaces control characters in what it reads; this is the last
line for everything else the CLI prints (file names, stored results, error text).  When
stdout/stderr is a terminal, `guard()` wraps it so every write goes through
`claims.clean.printable` (newlines and TABs kept, escape sequences removed, other control
characters shown as U+FFFD).  Pipes and files are left byte-exact.  rich draws its own
progress and tables with escape sequences: it is given `raw(stream)`.
"""
from __future__ import annotations

import io
import sys
from typing import Any, TextIO

from claims.clean import printable


class SafeTerminal(io.TextIOBase):
    """A text stream that writes only printable text to the terminal it wraps."""

    def __init__(self, stream: TextIO) -> None:
        self.raw_stream = stream

    def write(self, s: str) -> int:  # type: ignore[override]
        self.raw_stream.write(printable(s))
        return len(s)

    def flush(self) -> None:
        self.raw_stream.flush()

    def isatty(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.raw_stream.fileno()

    def __getattr__(self, name: str) -> Any:  # encoding, errors, buffer, ...
        return getattr(self.raw_stream, name)


def guard() -> None:
    """Wrap sys.stdout and sys.stderr when they are terminals."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None or isinstance(stream, SafeTerminal):
            continue
        try:
            tty = stream.isatty()
        except (ValueError, OSError):
            continue
        if tty:
            setattr(sys, name, SafeTerminal(stream))


def raw(stream: TextIO) -> TextIO:
    """The terminal under a guarded stream, for rich (which escapes mail text itself)."""
    return getattr(stream, "raw_stream", stream)
