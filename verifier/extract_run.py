"""`verifier extract`: the claims, benchmark commands and setup steps of each message, as
a plain table with one summary line, or as one JSON document.

Messages are read one at a time (claims.sources, prescan=True: an mbox message that
cannot hold a claim is never fully modelled), so memory stays flat on a big mbox.
"""
from __future__ import annotations

import json
import os
import sys

from claims.extract import extract_message
from claims.model import Extraction, Value
from claims.sources import InputError, iter_messages


def extract(path: str, format: str = "table", inbox: str | None = None) -> int:
    """Print what each message of `path` (a file, "-", a Message-ID or URL) holds; 0, or 1
    with a one-line error."""
    if not _local(path):  # a Message-ID or URL: fetch the thread (the fetcher loads only then)
        from verifier.fetch import FetchError, resolve_input

        try:
            path = resolve_input(path, inbox) or path
        except FetchError as exc:
            print(f"verifier extract: {exc}", file=sys.stderr)
            return 1
    emit: _JsonStream | _Tables = _JsonStream() if format == "json" else _Tables()
    try:
        for msg in iter_messages(path, prescan=True):
            emit(extract_message(msg))  # one message at a time: memory stays flat on a big mbox
    except InputError as exc:
        return _fail(emit, f"{exc}")
    except (OSError, UnicodeError, ValueError) as exc:
        return _fail(emit, f"cannot read {path}: {exc}")
    emit.close()
    return 0


def _local(path: str) -> bool:
    """Stdin or a file here: what `verifier.fetch.resolve_input` leaves as it is, told
    without importing the fetcher (its config, cache and HTTP layers: 2.4 MiB)."""
    return path == "-" or ("://" not in path and os.path.exists(path))


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
