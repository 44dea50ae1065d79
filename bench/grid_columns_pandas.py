#!/usr/bin/env python3
"""Column finding in whitespace-aligned tables: pandas.read_fwf's inference against the grid
model's own (claims.grid), on the tables of real mail the grid reads.

    python bench/grid_columns_pandas.py                 # train half + shapes
    python bench/grid_columns_pandas.py --show 5        # and print 5 disagreements
    python bench/grid_columns_pandas.py --reps 50

Issue 11 asked whether read_fwf (pandas is a declared dependency) may serve the grid model;
this decides it by measurement.  The tables are those claims.grid.find_grids finds split at
runs of spaces or tabs with two rows or more, in /work/splits/train (never the validation
half) and ../shared/shapes.  Each table's row lines (tabs expanded, as the grid reads them)
go to read_fwf(colspecs="infer") over all its rows, as favourable as read_fwf can be: no
header line, no prose.  Measured per table:
- cells agreeing: the grid's value cells (the piece of the line each number was read from)
  that read_fwf returns as one cell of the same row, of all the grid's value cells;
- tables split alike: every value cell agrees and read_fwf has no other cell with a digit;
- time per table, both sides interleaved, best of --reps: the grid's whole find_grids over
  the table's lines (its line cache emptied each time: it reads more than the columns),
  read_fwf on the same lines; and the ratio read_fwf / grid;
- import cost in a fresh interpreter: `import claims.grid` against that plus `import pandas`
  (wall seconds, best of 5, and peak RSS).
The disagreements printed by --show were read by hand: the report says who is right.
"""
from __future__ import annotations

import argparse
import io
import os
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
_NUMBER = re.compile(r"[~<]?[+-]?\d[\d.,]*[kKMG%]?")
FOLDERS = (Path("/work/splits/train"), ROOT.parent / "shared" / "shapes")


@dataclass
class Table:
    case: str
    lines: list[str]  # the row lines, normalised and tabs expanded
    cells: list[list[str]]  # per row: the text of each value cell the grid found
    numbers: list[list[str]]  # per row: the number of each of them
    source: list  # the message's Line objects first..last, for timing find_grids


@dataclass
class Compared:
    table: Table
    agree: int  # grid value cells that are one read_fwf cell, unit and all
    numbers: int  # grid value cells whose number is a read_fwf cell of its own (unit cut off)
    total: int
    unseen: int  # read_fwf cells that are a number the grid has no cell for
    fwf: list[list[str]]


def tables() -> list[Table]:
    from claims.grid import find_grids
    from claims.normalise import normalise_line
    from claims.sources import iter_messages

    out = []
    for folder in FOLDERS:
        for path in sorted(folder.glob("*.txt")):
            for msg in iter_messages(str(path)):
                for g in find_grids(msg.lines, set()):
                    if len(g.rows) < 2 or any(r.sep not in (" ", "\t") for r in g.rows):
                        continue
                    lines, cells, numbers = [], [], []
                    for r in g.rows:  # the grid's columns are tab-expanded, as here
                        text = normalise_line(r.line.text).rstrip().expandtabs(8)
                        lines.append(text)
                        found = [c for c in r.cells if c is not None]
                        cells.append([text[c.start:c.end].strip() for c in found])
                        numbers.append([c.tok.text for c in found])
                    out.append(Table(f"{folder.name}/{path.stem}", lines, cells, numbers,
                                     list(msg.lines[g.first:g.last + 1])))
    return out


def read_fwf(lines: list[str]) -> list[list[str]]:
    import pandas

    frame = pandas.read_fwf(io.StringIO("\n".join(lines) + "\n"), colspecs="infer",
                            infer_nrows=len(lines), header=None, dtype=str,
                            keep_default_na=False, skip_blank_lines=False)
    return [[str(x).strip() for x in row if str(x).strip()] for row in frame.values.tolist()]


def compare(t: Table) -> Compared:
    fwf = read_fwf(t.lines)
    agree = numbers = total = unseen = 0
    for want, nums, got in zip(t.cells, t.numbers, fwf, strict=True):
        total += len(want)
        agree += sum(w in got for w in want)
        numbers += sum(w in got or n in got for w, n in zip(want, nums, strict=True))
        unseen += sum(_NUMBER.fullmatch(g) is not None and g not in nums and g not in want
                      for g in got)
    return Compared(t, agree, numbers, total, unseen, fwf)


def _best(fn, reps: int) -> float:
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def timings(ts: list[Table], reps: int) -> tuple[list[float], list[float]]:
    from claims import grid

    def ours(t: Table) -> None:
        grid._parse_line.cache_clear()
        grid.find_grids(t.source, set())

    mine, theirs = [], []
    for t in ts:  # interleaved: the load of the moment falls on both sides alike
        mine.append(_best(lambda t=t: ours(t), reps))
        theirs.append(_best(lambda t=t: read_fwf(t.lines), reps))
    return mine, theirs


def import_cost(modules: str) -> tuple[float, float]:
    """(best wall seconds of 5, peak RSS MiB) of a fresh interpreter importing `modules`."""
    # VmHWM, not ru_maxrss: the latter keeps the forking parent's size across exec
    code = (f"import time; t = time.perf_counter(); import {modules}; w = time.perf_counter() - t; "
            "hwm = [ln for ln in open('/proc/self/status') if ln.startswith('VmHWM')][0]; "
            "print(w, int(hwm.split()[1]) / 1024)")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env=env).stdout.split() for _ in range(5)]
    return min(float(w) for w, _ in runs), max(float(r) for _, r in runs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=20, help="timings: best of this many")
    ap.add_argument("--show", type=int, default=0, help="print this many disagreements")
    args = ap.parse_args()
    ts = tables()
    results = [compare(t) for t in ts]
    agree, total = sum(r.agree for r in results), sum(r.total for r in results)
    alike = [r for r in results if r.agree == r.total and not r.unseen]
    print(f"tables: {len(ts)} whitespace-aligned (2+ rows) in "
          f"{len({t.case for t in ts})} cases of {', '.join(str(f) for f in FOLDERS)}")
    numbers = sum(r.numbers for r in results)
    print(f"cells agreeing: {agree}/{total} ({agree / total:.1%}) as the grid reads them "
          f"(number and unit); {numbers}/{total} ({numbers / total:.1%}) with the number in "
          f"a read_fwf cell of its own; numbers only read_fwf has as cells: "
          f"{sum(r.unseen for r in results)}")
    print(f"tables split alike: {len(alike)}/{len(ts)} ({len(alike) / len(ts):.1%})")
    mine, theirs = timings(ts, args.reps)
    ratios = [b / a for a, b in zip(mine, theirs, strict=True)]
    print(f"time per table: grid find_grids median {statistics.median(mine) * 1e6:.0f} us, "
          f"read_fwf median {statistics.median(theirs) * 1e6:.0f} us; read_fwf / grid: median "
          f"{statistics.median(ratios):.1f}x (min {min(ratios):.1f}x, max {max(ratios):.1f}x)")
    base_t, base_rss = import_cost("claims.grid")
    with_t, with_rss = import_cost("claims.grid, pandas")
    print(f"import: claims.grid {base_t * 1e3:.0f} ms {base_rss:.0f} MiB; with pandas "
          f"{with_t * 1e3:.0f} ms {with_rss:.0f} MiB (+{(with_t - base_t) * 1e3:.0f} ms, "
          f"+{with_rss - base_rss:.0f} MiB, {with_t / base_t:.1f}x the time)")
    for r in [r for r in results if r not in alike][:args.show]:
        print(f"\n--- {r.table.case}: {r.agree}/{r.total} cells agree, {r.unseen} unseen")
        for line, want, got in zip(r.table.lines, r.table.cells, r.fwf, strict=True):
            print(f"  | {line}\n      grid {want}\n      fwf  {got}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
