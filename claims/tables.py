"""Result tables.

Tables in a message are read by the grid model (claims.grid, through `all_table_claims`).
What stays here is `table_claims`, which pairs rows already cut into cells by another stage
(prose.variant_groups hands it "label: value value" lines): a row or column named as a
variant, or a change row, says what is compared; rows of one system's numbers yield nothing.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from claims.model import Better, Claim, Line
from claims.numbers import RUNS_NAME, Token, is_unit
from claims.pairs import Row, pair_rows
from claims.variants import pick_baseline, role

_CHANGE_LABEL = re.compile(r"(?i)\b(?:diff|delta|change|%change|percent|gain|improvement|speed-?up|"
                           r"ratio|increase|decrease|regression|%)\b|^[+-]?%$|^%")
_SPREAD_COL = re.compile(r"(?i)^(?:variance|var|stddev|stdev|std|sd|dev|%stddev|cv|spread|err|error|"
                         r"±|\+-|ci|confidence)$")


@dataclass
class TRow:
    label: str
    cells: list[Token | None]
    line: int  # line number in the original text
    index: int  # index into the message lines
    depth: int = 0
    mark: str | None = None  # "before the change" from "==> before the change"
    text: str = ""
    unit: str | None = None
    author: str | None = None
    message_id: str | None = None


@dataclass
class Table:
    rows: list[TRow] = field(default_factory=list)
    header: list[str] = field(default_factory=list)  # column names for the value columns
    header_text: str | None = None
    first: int = 0  # first line index
    last: int = 0




_HEADER_UNIT = re.compile(r"[(\[]([A-Za-zµ/%]{1,12})[)\]]")


def _split_header(text: str, k: int) -> list[str]:
    """Column names for k value columns from a header line."""
    if "|" in text:
        parts = [p.strip() for p in text.strip().strip("|").split("|")]
        return parts[-k:] if len(parts) >= k else []
    parts = [p for p in re.split(r"\t+|\s{2,}", text.strip()) if p]
    if len(parts) == k:
        return parts
    if len(parts) == k + 1:
        return parts[1:]
    words = text.split()
    if len(words) == k + 1:
        return words[1:]
    if len(words) % k == 0:
        step = len(words) // k
        return [" ".join(words[j:j + step]) for j in range(0, len(words), step)]
    return []


def _header_by_position(header: str, rows: list[TRow]) -> list[str]:
    """Column names of an aligned table: the header words standing above each cell."""
    if "|" in header or "\t" in header:
        return []
    row = next((r for r in rows if r.text and "|" not in r.text and "\t" not in r.text
                and all(c is not None for c in r.cells)), None)
    if row is None:
        return []
    words = [(m.start(), m.end(), m.group()) for m in re.finditer(r"\S+", header)]
    names: list[str] = []
    taken: set[int] = set()
    for c in row.cells:
        assert c is not None
        hit = [k for k, (s, e, _) in enumerate(words) if s <= c.end + 1 and e >= c.start - 1]
        if len(hit) != 1 or hit[0] in taken:
            return []
        taken.add(hit[0])
        names.append(words[hit[0]][2])
    return names


def _is_change_row(r: TRow) -> bool:
    vals = [c for c in r.cells if c is not None]
    if r.label and _CHANGE_LABEL.search(r.label):
        return True
    return bool(vals) and all(c.percent and (c.signed or not r.label) for c in vals) and not role(r.label)


def _is_param_row(r: TRow) -> bool:
    vals = [c.value for c in r.cells if c is not None]
    return (len(vals) >= 3 and len(vals) == len(r.cells) and all(v is not None and float(v).is_integer() for v in vals)
            and all(a < b for a, b in zip(vals, vals[1:], strict=False)))  # type: ignore[operator]


def table_claims(table: Table, better: Better = None) -> list[Claim]:
    rows = table.rows
    k = min(len(r.cells) for r in rows)
    if k == 0:
        return []
    for r in rows:  # extra leading numbers belong to the label ("patch 3  2.3  4")
        if len(r.cells) > k:
            extra = r.cells[:len(r.cells) - k]
            if any(c is None for c in extra):
                return []
            r.label = (r.label + " " + " ".join(c.text for c in extra if c is not None)).strip()
            r.cells = r.cells[len(r.cells) - k:]
    units = {u for u in _HEADER_UNIT.findall(table.header_text or "") if is_unit(u)}
    if len({u.lower() for u in units}) == 1:  # "baseline (Gbps)   patched (Gbps)"
        for r in rows:
            r.unit = r.unit or next(iter(units))
    header: list[str] = []
    unlabelled_head = (not rows[0].label and len(rows) >= 3 and all(r.label for r in rows[1:])
                       and all(c is not None for c in rows[0].cells))
    if rows and not role(rows[0].label) and not rows[0].mark and len(rows) >= 3 and (
            _is_param_row(rows[0]) or unlabelled_head):
        head = rows.pop(0)
        header = [f"{head.label} {c.text}".strip() for c in head.cells if c is not None]
    elif table.header_text:
        header = _header_by_position(table.header_text, rows) or _split_header(table.header_text, k)
        if not header and k >= 3:
            sub = _split_header(table.header_text, k - 1)
            header = [""] + sub if len(sub) == k - 1 else []
    change_rows = [r for r in rows if _is_change_row(r)]
    change_ids = {id(r) for r in change_rows}
    rows = [r for r in rows if id(r) not in change_ids]
    if not rows:
        return []
    skip_cols = {j for j, h in enumerate(header) if _SPREAD_COL.match(h.strip()) or RUNS_NAME.match(h.strip())}
    spread_cols = [j for j in skip_cols if _SPREAD_COL.match(header[j].strip())]
    runs_cols = [j for j in skip_cols if RUNS_NAME.match(header[j].strip())]
    if any(r.mark for r in rows):
        return _marked(rows, header, skip_cols, spread_cols, runs_cols, better)
    if len(header) == k:
        got = _by_columns(rows, header, better)
        if got:
            return got
    if not any(role(r.label) == "baseline" for r in rows) and not change_rows:
        return []
    if len(rows) < 2:
        return []
    bi = pick_baseline([r.label for r in rows])
    base = rows[bi]
    cands = [r for j, r in enumerate(rows) if j != bi]
    out: list[Claim] = []
    for n, cand in enumerate(cands):
        stated: list[float | None] = [None] * k
        if change_rows:
            ch = change_rows[n] if len(change_rows) == len(cands) else (change_rows[0] if len(cands) == 1 else None)
            if ch is not None:
                stated = [c.value if c is not None else None for c in ch.cells]
        out.extend(_pair(base, cand, header, skip_cols, spread_cols, runs_cols, stated, better))
    return out


def _as_row(r: TRow, cols: list[int], spread_cols: list[int], runs_cols: list[int]) -> Row:
    toks = [r.cells[j] for j in cols]
    row = Row(label=r.mark or r.label or None, tokens=[t for t in toks if t is not None], first=r.line,
              last=r.line, depth=r.depth, author=r.author, message_id=r.message_id, unit=r.unit)
    if runs_cols and r.cells[runs_cols[0]] is not None:
        row.runs = int(r.cells[runs_cols[0]].value or 0) or None  # type: ignore[union-attr]
    return row


def _pair(base: TRow, cand: TRow, header: list[str], skip_cols: set[int], spread_cols: list[int],
          runs_cols: list[int], stated: list[float | None], better: Better,
          key: str | None = None) -> list[Claim]:
    k = min(len(base.cells), len(cand.cells))
    cols = []
    for j in range(k):
        if j in skip_cols or cand.cells[j] is None:
            continue
        if base.cells[j] is None:
            fill = _baseline_from_stated(base, cand.cells[j], stated[j] if j < len(stated) else None)
            if fill is None:
                continue
            base.cells[j] = fill
        cols.append(j)
    if not cols:
        return []
    b, c = _as_row(base, cols, spread_cols, runs_cols), _as_row(cand, cols, spread_cols, runs_cols)
    b.columns = [header[j] if j < len(header) else None for j in cols]
    if key:
        b.key = key
    claims = pair_rows(b, c, tabular=True, better=better, context=key,
                       stated=[stated[j] if j < len(stated) else None for j in cols])
    if spread_cols:
        for cl in claims:
            for side, row in ((cl.baseline, base), (cl.candidate, cand)):
                sp = row.cells[spread_cols[0]]
                if side is not None and sp is not None:
                    side.spread, side.spread_kind = sp.value, "pct" if sp.percent else "abs"
    return claims


def _baseline_from_stated(base: TRow, cand: Token | None, stated: float | None) -> Token | None:
    """A missing baseline cell ("N/A") that a stated change shows was compared with another
    of the baseline's numbers: "+48%" for 4 means the baseline was 2.7."""
    if cand is None or stated is None or cand.value is None:
        return None
    for c in base.cells:
        if c is not None and c.value and abs((cand.value / c.value - 1) * 100 - stated) <= 2.5:
            return c
    return None


def _marked(rows: list[TRow], header: list[str], skip_cols: set[int], spread_cols: list[int],
            runs_cols: list[int], better: Better) -> list[Claim]:
    groups: dict[str, list[TRow]] = {}
    for r in rows:
        groups.setdefault(r.label, []).append(r)
    out: list[Claim] = []
    for key, grp in groups.items():
        if len(grp) < 2:
            continue
        bi = pick_baseline([r.mark for r in grp])
        for j, cand in enumerate(grp):
            if j != bi:
                out.extend(_pair(grp[bi], cand, header, skip_cols, spread_cols, runs_cols,
                                 [None] * len(cand.cells), better, key=key or None))
    return out


def _signed_pct(cell: Token | None) -> bool:
    """An empty cell or a signed percentage (`+12%`): a column of changes."""
    return cell is None or bool(cell.percent and cell.signed)


def _by_columns(rows: list[TRow], header: list[str], better: Better) -> list[Claim]:
    """Variants in columns ("test | before | after | change"): each row pairs its own cells."""
    k = len(header)
    change = [j for j in range(k) if _CHANGE_LABEL.search(header[j]) and not role(header[j])
              or all(_signed_pct(r.cells[j]) for r in rows)]
    label_col = None
    first = [r.cells[0] for r in rows]
    if not role(header[0]) and all(c is not None and c.value is not None and float(c.value).is_integer()
                                   and not c.percent for c in first):
        label_col = 0
    value_cols = [j for j in range(k) if j not in change and j != label_col
                  and not _SPREAD_COL.match(header[j].strip()) and not RUNS_NAME.match(header[j].strip())]
    if len(value_cols) < 2 or not any(role(header[j]) for j in value_cols):
        return []
    bi = value_cols[pick_baseline([header[j] for j in value_cols])]
    cands = [j for j in value_cols if j != bi]
    out: list[Claim] = []
    for n, r in enumerate(rows):
        base_tok = r.cells[bi]
        if base_tok is None:
            continue
        key = first[n]
        name = r.label or (f"{header[label_col]} {key.text}" if label_col is not None and key else None)
        for j in cands:
            c = r.cells[j]
            if c is None:
                continue
            stated = r.cells[change[0]] if len(change) == 1 and len(cands) == 1 else None
            b = Row(label=header[bi], tokens=[base_tok], first=r.line, last=r.line, depth=r.depth,
                    author=r.author, message_id=r.message_id, unit=r.unit, columns=[name])
            cand = Row(label=header[j], tokens=[c], first=r.line, last=r.line, depth=r.depth,
                       author=r.author, message_id=r.message_id, unit=r.unit)
            out.extend(pair_rows(b, cand, tabular=True, better=better, context=name,
                                 stated=[stated.value if stated is not None else None]))
    return out


def all_table_claims(lines: Sequence[Line], skip: set[int], context: str = "",
                     solid: bool = False) -> tuple[list[Claim], set[int]]:
    """Every table of the message, read by the grid model (claims.grid); `context` is other
    text of the message (its subject) that may name the variants.  `solid`: only tables of
    several rows of several aligned value columns, which no other reading explains better."""
    from claims.grid import all_grid_claims

    return all_grid_claims(lines, skip, context, solid=solid)


class TablePasses:
    """The extractor's two readings of one message's tables: the solid grids first, the
    rest after the blocks (each `all_table_claims`). Finding the grids is most of either;
    when the first pass reads none of them and the second skips the same lines (in most
    messages: nothing between took a line), the second reads the grids the first found."""

    def __init__(self, lines: Sequence[Line], context: str = "") -> None:
        self.lines = lines
        self.context = context
        self._kept: tuple[frozenset[int], list] | None = None

    def solid(self, skip: set[int]) -> tuple[list[Claim], set[int]]:
        from claims.grid import all_grid_claims, has_solid, message_grids

        grids = message_grids(self.lines, skip)
        if not has_solid(grids):
            self._kept = (frozenset(skip), grids)
            return [], set()
        return all_grid_claims(self.lines, skip, self.context, solid=True, grids=grids)

    def rest(self, skip: set[int]) -> tuple[list[Claim], set[int]]:
        from claims.grid import all_grid_claims

        kept, self._kept = self._kept, None
        grids = kept[1] if kept is not None and kept[0] == skip else None
        return all_grid_claims(self.lines, skip, self.context, grids=grids)
