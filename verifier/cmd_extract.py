"""Show the performance claims, benchmark commands and setup steps in messages.

    verifier extract thread.mbox
    verifier extract --format json msg.eml
    verifier extract - < cover-letter.txt

The table lists only the messages where something was found, then one summary line; JSON
has every message. An mbox is read in two levels (claims.sources, prescan=True): messages
that cannot hold a claim are never fully modelled.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator

from claims.extract import extract_message
from claims.message import message_from_text
from claims.model import Extraction, Message, Value

_HEADER = re.compile(r"^(Message-I[Dd]|Date|From|Subject):\s*(.*)$")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", help="a message, mbox, archive page or text file; - for stdin")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.add_argument("--inbox", help="public-inbox URL for a Message-ID (default: config, b4.midmask, lore)")


def _fallback_messages(path: str) -> Iterator[Message]:
    """Until claims.sources lands: the whole input as one text message."""
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    text = data.decode("utf-8", errors="replace")
    msg = message_from_text(text, source=path)
    for ln in msg.lines[:60]:
        m = _HEADER.match(ln.text)
        if not m:
            continue
        key, val = m.group(1).lower(), m.group(2).strip()
        if key.startswith("message-i") and msg.message_id is None:
            msg.message_id = val.strip("<>")
        elif key == "date" and msg.date is None:
            msg.date = val
        elif key == "from" and msg.from_ is None:
            msg.from_ = val
        elif key == "subject" and msg.subject is None:
            msg.subject = val
    yield msg


def read_messages(path: str) -> Iterator[Message]:
    try:
        from claims.sources import iter_messages  # type: ignore[attr-defined]
    except ImportError:
        return _fallback_messages(path)
    return iter_messages(path, prescan=True)


def _cell(v: Value | None) -> str:
    """'9.1 Gbps (without the patch)': the value, its unit and the mail's label for it."""
    if v is None:
        return ""
    return " ".join(x for x in (_fmt(v.value), v.unit or "", f"({v.label})" if v.label else "")
                    if x)


def _fmt(v: float | None) -> str:
    if v is None:
        return ""
    return f"{v:,.6g}" if abs(v) < 1e15 else f"{v:.6g}"


_COLUMNS = ("metric", "baseline", "candidate", "change", "claimed change", "where")
_CELL_WIDTH = 48  # a longer cell is cut with "…": a metric named by a whole sentence


def _print_table(ex: Extraction) -> None:
    """One message's findings as a plain text table (no rich: `verifier extract` of a
    local file loads nothing it does not need; the guarded stdout keeps it escape-free)."""
    m = ex.message
    title = f"{m.subject or m.source or 'message'}" + (f" — {m.from_}" if m.from_ else "")
    rows: list[tuple[str, ...]] = []
    for c in ex.claims:
        ch = f"{c.change_pct:+.1f}%" if c.change_pct is not None else ""
        cl = f"{c.claimed_change_pct:+.1f}%" if c.claimed_change_pct is not None else ""
        rows.append((c.metric, _cell(c.baseline), _cell(c.candidate), ch, cl,
                     f"lines {c.lines[0]}-{c.lines[1]}"))
    out = [title]
    if rows:
        rows = [tuple(x if len(x) <= _CELL_WIDTH else x[:_CELL_WIDTH - 1] + "…"
                      for x in r) for r in rows]
        widths = [max(len(r[k]) for r in [_COLUMNS, *rows]) for k in range(len(_COLUMNS))]
        for k, r in enumerate([_COLUMNS, *rows]):
            out.append("  ".join(x.ljust(w) for x, w in zip(r, widths, strict=True)).rstrip())
            if k == 0:
                out.append("  ".join("-" * w for w in widths))
    for cmd in ex.commands:
        out.append(f"command (line {cmd.line}{', host ' + cmd.host if cmd.host else ''}): {cmd.raw}")
    for st in ex.setup:
        out.append(f"setup {st.kind} (line {st.line}): {st.raw}")
    sys.stdout.write("\n".join(out) + "\n\n")


def run(args: argparse.Namespace) -> int:
    from verifier.fetch import FetchError, resolve_input  # a Message-ID or URL: fetch the thread
    try:
        args.path = resolve_input(args.path, getattr(args, "inbox", None)) or args.path
    except FetchError as exc:
        print(f"verifier extract: {exc}", file=sys.stderr)
        return 1
    from claims.sources import InputError
    emit: _JsonStream | _Tables = _JsonStream() if args.format == "json" else _Tables()
    try:
        for msg in read_messages(args.path):
            emit(extract_message(msg))  # one message at a time: memory stays flat on a big mbox
    except InputError as exc:
        return _fail(emit, f"{exc}")
    except (OSError, UnicodeError, ValueError) as exc:
        return _fail(emit, f"cannot read {args.path}: {exc}")
    emit.close()
    return 0


class _Tables:
    """The table format: a table for each message where something was found, a line on
    stderr for each message skipped as too large, and one summary line at the end."""

    def __init__(self) -> None:
        self.messages = self.found = self.claims = self.commands = self.setup = self.skipped = 0

    def __call__(self, ex: Extraction) -> None:
        self.messages += 1
        for w in ex.message.warnings:
            if "too large" in w or "cut" in w:
                self.skipped += "too large" in w
                print(f"verifier extract: {ex.message.source or 'input'}: {w}", file=sys.stderr)
        if not (ex.claims or ex.commands or ex.setup):
            return
        self.found += 1
        self.claims += len(ex.claims)
        self.commands += len(ex.commands)
        self.setup += len(ex.setup)
        _print_table(ex)

    def close(self) -> None:
        skipped = f", {self.skipped} skipped as too large" if self.skipped else ""
        print(f"{self.messages} message(s), {self.found} with findings: {self.claims} claim(s), "
              f"{self.commands} command(s), {self.setup} setup step(s){skipped}")
        sys.stdout.flush()


class _JsonStream:
    """Writes {"messages": [...]} element by element, so the output is one JSON document
    without holding every result."""

    def __init__(self) -> None:
        self.count = 0
        sys.stdout.write('{"messages": [')

    def __call__(self, ex: Extraction) -> None:
        body = json.dumps(ex.to_dict(), indent=1).replace("\n", "\n ")
        sys.stdout.write(("," if self.count else "") + "\n " + body)
        sys.stdout.flush()
        self.count += 1

    def close(self) -> None:
        sys.stdout.write("\n]}\n" if self.count else "]}\n")
        sys.stdout.flush()


def _fail(emit: _JsonStream | _Tables, msg: str) -> int:
    """A one-line error; the output is still closed so what came before stays readable."""
    emit.close()
    print(f"verifier extract: {msg}", file=sys.stderr)
    return 1
