"""Pasted output compared block against block.

Two shapes: blocks under labels ("Before:" / "After:", "iperf3 results after the change:")
and runs of one command repeated after different setup steps (`echo 0 > .../gro_flush_timeout`
then `echo 2000 > ...`, each followed by the command and its output).  Lines of the two
blocks that have the same shape are paired number by number, whatever the tool.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from claims.commands import ShellEvent
from claims.model import Claim, Line
from claims.numbers import Token, skeleton, tokenize
from claims.pairs import Row, make_row, pair_rows, runs_in
from claims.setup_steps import variant_key
from claims.variants import clean_label, pick_baseline, role

MAX_BLOCK = 400
_HEADERISH = re.compile(r"^(?:subject|date|from|to|cc|signed-off-by|link|fixes|reviewed-by|acked-by|"
                        r"tested-by|reported-by|message-id|in-reply-to|references)$", re.I)


@dataclass
class Block:
    label: str | None
    start: int  # index of the first line after the label
    end: int  # index past the last line
    label_index: int | None = None
    header: list[str] = field(default_factory=list)  # column names written on the label line


def block_label(text: str) -> tuple[str, list[str]] | None:
    """('Before', ['Secs', ...]) for a line that introduces a block of results."""
    s = text.strip()
    if not s or len(s) > 140 or ":" not in s:
        return None
    header: list[str] = []
    if s.endswith(":"):
        label = s[:-1]
        if ":" in label:
            return None
    else:
        head, _, rest = s.partition(":")
        toks = tokenize(rest)
        if not rest.strip() or any(t.kind == "value" for t in toks) or len(head) > 60:
            return None
        label, header = head, rest.split()
    label = clean_label(label)
    if not label or len(label.split()) > 14 or _HEADERISH.match(label) or role(label) is None:
        return None
    if not re.search(r"(?i)\b(before|after|with|without|old|new|patched|unpatched|original|baseline|"
                     r"base|vanilla|patch(?:es|set)?|net-next|pre|post|results?)\b", label):
        return None
    return label, header


def is_sentence(text: str) -> bool:
    """A line of prose ("CPU utilization went from 140% to 118%."), never tool output."""
    words = text.split()
    return len(words) >= 5 and text.rstrip().endswith((".", "!", "?")) and \
        sum(1 for w in words if w.isalpha() and w.islower() and len(w) > 1) >= 3


def find_blocks(lines: Sequence[Line], skip: set[int]) -> list[Block]:
    blocks: list[Block] = []
    i, n = 0, len(lines)
    while i < n:
        got = None if i in skip else block_label(lines[i].text)
        if got is None:
            i += 1
            continue
        depth = lines[i].depth
        j = i + 1
        while j < n and j - i <= MAX_BLOCK and lines[j].depth == depth:
            if block_label(lines[j].text) is not None:
                break
            if not lines[j].text.strip() and j + 1 < n and is_sentence(lines[j + 1].text):
                break  # a blank line, then the prose goes on: the block ended
            j += 1
        blocks.append(Block(label=got[0], start=i + 1, end=j, label_index=i, header=got[1]))
        i = j
    return blocks


def _series(blocks: list[Block]) -> list[list[Block]]:
    out: list[list[Block]] = []
    has_candidate = False  # the current series already has a non-baseline block
    for b in blocks:
        cur = out[-1] if out else None
        is_base = role(b.label) == "baseline"
        adjacent = cur is not None and cur[-1].end == b.label_index
        if cur is None or not adjacent or (is_base and has_candidate):
            out.append([b])
            has_candidate = not is_base
        else:
            cur.append(b)
            has_candidate = has_candidate or not is_base
    return [s for s in out if len(s) >= 2]


def block_rows(lines: Sequence[Line], start: int, end: int, label: str | None,
               header: list[str], skip: set[int]) -> list[Row]:
    """The numeric lines of a block as rows, with column names from header lines above."""
    rows: list[Row] = []
    headers: list[str] = []
    runs: int | None = None
    for k in range(start, end):
        ln = lines[k]
        if k in skip:
            headers = []
            continue
        text = ln.text
        r = runs_in(text) if "run" in text else None
        if r is not None and "Performance counter" in text:
            runs = r
        row = make_row(label, text, ln.number, depth=ln.depth, author=ln.author,
                       message_id=ln.message_id, runs=runs)
        if not row.values:
            words = text.split()
            if len(words) >= 2 and len(text) < 200:
                headers.append(text)
            elif not text.strip():
                headers = []
            continue
        key_end = next((i for i, t in enumerate(row.tokens[:12]) if t.text.endswith(":")), None)
        if key_end is not None:
            row.key = " ".join(t.text for t in row.tokens[:key_end + 1]).rstrip(":")
        else:
            _name_column(row, text)
        row.columns = _columns(row, headers, header)
        rows.append(row)
    return rows


_NAME_COLUMN = re.compile(r"^\s*(?P<name>[A-Za-z][^\t]*?\S)(?:\t|\s{2,})[-+~]?\d")


def _name_column(row: Row, text: str) -> None:
    """Aligned output whose rows start with a name ("Dhrystone 2 using register variables
    116700.0  948326591.2"): numbers inside the name are part of it, not results, and the
    name says what the row measures."""
    m = _NAME_COLUMN.match(text)
    if m is None or len(m.group("name").split()) > 8:
        return
    end = m.end("name")
    if not any(t.kind == "value" and t.start >= end for t in row.tokens):
        return
    row.tokens = [Token(t.text, t.start, t.end, "word") if t.kind == "value" and t.end <= end
                  else t for t in row.tokens]
    row.key = m.group("name")


def _columns(row: Row, header_lines: list[str], header_words: list[str]) -> list[str | None]:
    vals = [t for t in row.tokens if t.kind == "value"]
    from claims.pairs import label_end

    first = label_end(row.tokens)
    body_vals = [t for i, t in enumerate(row.tokens) if t.kind == "value" and i >= first]
    if header_words and len(header_words) == len(body_vals):
        return [None] * (len(vals) - len(body_vals)) + list(header_words)
    if not header_lines:
        return []
    cols: list[str | None] = []
    for t in vals:
        names = []
        for h in header_lines[-4:]:
            for m in re.finditer(r"\S+", h):
                if m.start() <= t.end and m.end() >= t.start:
                    names.append(m.group())
        cols.append(" ".join(names) or None)
    return cols


def _pair_series(lines: Sequence[Line], sides: list[tuple[str | None, list[Row]]],
                 context: str | None) -> list[Claim]:
    base_i = pick_baseline([s[0] for s in sides])
    base_label, base_rows = sides[base_i]
    out: list[Claim] = []
    for j, (_, cand_rows) in enumerate(sides):
        if j == base_i:
            continue
        by_shape: dict[tuple[str, ...], list[Row]] = {}
        for r in cand_rows:
            by_shape.setdefault(skeleton(r.tokens), []).append(r)
        used: dict[tuple[str, ...], int] = {}
        for br in base_rows:
            shape = skeleton(br.tokens)
            k = used.get(shape, 0)
            cands = by_shape.get(shape, [])
            if k >= len(cands):
                continue
            used[shape] = k + 1
            out.extend(pair_rows(br, cands[k], tabular=True, context=context))
    return out


def labelled_block_claims(lines: Sequence[Line], skip: set[int]) -> tuple[list[Claim], set[int]]:
    """Claims from Before:/After:-style blocks; also the line indexes the blocks cover."""
    claims: list[Claim] = []
    covered: set[int] = set()
    for series in _series(find_blocks(lines, skip)):
        sides = [(b.label, block_rows(lines, b.start, b.end, b.label, b.header, skip)) for b in series]
        got = _pair_series(lines, sides, None)
        if got:
            claims.extend(got)
            # a block covers its label to the last line a claim came from, not to the next
            # label: "With patch:" may run on into tables of their own below it
            last = max(c.lines[1] for c in got)
            for b in series:
                end = next((k + 1 for k in range(b.end - 1, b.start - 1, -1)
                            if lines[k].number <= last), b.start)
                covered.update(range(b.label_index or b.start, max(end, b.start)))
    return claims, covered


def command_run_claims(lines: Sequence[Line], events: list[ShellEvent],
                       skip: set[int]) -> tuple[list[Claim], set[int]]:
    """Claims from one command run several times with different setup values."""
    runs: dict[str, list[tuple[dict[str, str], int, int, ShellEvent]]] = {}
    setup: dict[str, str] = {}
    next_index = [len(lines)] * len(events)
    for k in range(len(events) - 2, -1, -1):
        next_index[k] = events[k + 1].index
    for idx, ev in enumerate(events):
        if ev.setup is not None and ev.command is None:
            setup[variant_key(ev.setup)] = ev.setup.value or ""
            continue
        if ev.command is None:
            continue
        end = min(next_index[idx], ev.last + 1 + MAX_BLOCK)
        key = " ".join(ev.command.raw.split())
        runs.setdefault(key, []).append((dict(setup), ev.last + 1, end, ev))
        setup = {}
    claims: list[Claim] = []
    covered: set[int] = set()
    for key, group in runs.items():
        if len(group) < 2:
            continue
        keys = sorted({k for s, *_ in group for k in s})
        differing = [k for k in keys if len({s.get(k) for s, *_ in group}) > 1]
        if not differing:
            continue
        sides = []
        for s, start, end, _ev in group:
            label = ", ".join(f"{k}={s.get(k)}" for k in differing)
            rows = block_rows(lines, start, end, label, [], skip)
            sides.append((label, rows))
        got = _pair_series(lines, sides, key)
        for c in got:
            if c.tool is None:
                c.tool = group[0][3].command.tool if group[0][3].command else None
        claims.extend(got)
        if got:
            for _s, _start, end, ev in group:
                covered.update(range(ev.index, end))
    return claims, covered
