"""How often a verdict is wrong, cell by cell, with the project's own sequential loop.

    python bench/verdict_sim.py                 # 2000 replications a cell (long: ~1 h)
    python bench/verdict_sim.py --reps 100      # a quick check (a few minutes)
    python bench/verdict_sim.py --jobs 2 --old-reps 200 --out table.txt
    python bench/verdict_sim.py --jobs 2 --cells bench/results/verdict_sim_cells.jsonl \
        --old-cells bench/results/verdict_sim_old.jsonl --old-near 2 --old-reps 2000

Each replication is one claim checked as `verifier check --calibrate` checks it: 10 A/A
baseline runs (verifier.calibration.calibration_of), then verifier.sequential's looks over
runs in the runners' ABBA order (tests/stats_sim.py), judged by verifier.verdict.  Cells:
true effect 0, +-2, +-5, +-10, +-20, +-50%; claim equal to the truth, half of it, an
explicit "no change", or the opposite (for a true 0: claims of +10%, +5%, "no change" and
-10%); per-run noise 1, 3, 10%; noise shapes lognormal, heavy-tailed, 5% spikes x8,
bimodal, drift, autocorrelated.

A verdict is wrong when it says something false about the truth: CONFIRMED or PARTLY
CONFIRMED of a false claim (opposite, or any claim on a true 0), CONTRADICTED, NOT
REPRODUCED or PARTLY CONFIRMED of a true claim (equal or half), CONTRADICTED on a true 0,
and for a "no change" claim CONFIRMED when the truth is beyond the band used or
CONTRADICTED when it is inside.  INCONCLUSIVE and INVALID are never wrong, only not
decisive.

Runs to a decision (`runs`): in one replication, the A/B runs per variant made when the
loop stopped, i.e. at the last look it took, whatever it stopped with (a verdict that
holds, INVALID, INCONCLUSIVE at the maximum of 30 or by futility); 0 when the calibration
showed before any A/B run that the claim cannot be checked here.  The calibration's 10
baseline runs are not counted (cached per runner and benchmark; the present rule has
none).  A cell's `runs` is the mean over its replications.  `old` is the same for the rule
at the branch point (`--old-rev`), run on the same cells without calibration as `check`
and the bot ran it.  That rule runs as it was, in a child process of its own
(bench/old_rule.py) on its tree exported whole by `git archive`: no module of today's tree
loads there.  `--old-cells` keeps its cells (bench/results/verdict_sim_old.jsonl: 100
replications a cell as first measured, by a loader that let today's modules in; 2000 in
the 50 cells re-measured with `--old-near 2 --old-reps 2000`, where the new rule ran more
than it or within two runs of it; 300 in the other 742, re-measured from its own tree
with `--only-old --old-reps 300`, which resumes where it stopped; the most replications
of a cell serve), and `--old-for-more N` measures it
again, with its verdicts, where the new rule runs more (kept apart, in *_verdicts.jsonl).
"""
from __future__ import annotations

import argparse
import io
import json
import math
import random
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import zlib
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from runners.results import Verdict, VerdictKind  # noqa: E402
from tests.stats_sim import SHAPES, Simulator, make_results, spec_dict  # noqa: E402
from verifier import verdict as V  # noqa: E402
from verifier.calibration import calibration_of  # noqa: E402
from verifier.sequential import run_sequential  # noqa: E402

EFFECTS = (0.0, 2.0, -2.0, 5.0, -5.0, 10.0, -10.0, 20.0, -20.0, 50.0, -50.0)
CLAIMS = ("equal", "half", "zero", "opposite")
AA_CLAIMS = {"equal": 10.0, "half": 5.0, "opposite": -10.0}  # claims checked on a true 0
NOISES = (1.0, 3.0, 10.0)
CALIBRATION_RUNS = 10
# the present rule's first look: it never stops with fewer runs per variant, so a cell
# where the new rule averages no more cannot run more than it (--old-near skips those)
OLD_FIRST_LOOK = 5


def claim_of(kind: str, true: float) -> float | None:
    """The claimed change of a cell (None: an explicit claim of no change)."""
    if kind == "zero":
        return None
    if true == 0:
        return AA_CLAIMS[kind]
    return {"equal": true, "half": true / 2, "opposite": -true}[kind]


def is_wrong(kind: str, true: float, v: Verdict) -> bool:
    name = v.verdict
    if name in (V.INCONCLUSIVE, V.INVALID, V.NOT_RUNNABLE):
        return False
    if kind == "zero":
        band = math.log1p((v.delta_pct or 1.0) / 100)
        beyond = abs(math.log1p(true / 100)) > band
        return (name == V.CONFIRMED and beyond) or (name == V.CONTRADICTED and not beyond)
    if true == 0 or kind == "opposite":  # a false claim
        return name in (V.CONFIRMED, V.PARTLY) or (true == 0 and name == V.CONTRADICTED)
    return name in (V.CONTRADICTED, V.NOT_REPRODUCED, V.PARTLY)  # a true claim


def one(shape: str, noise: float, true: float, kind: str, seed: int) -> tuple[str, bool, int]:
    """(verdict, wrong, runs per variant) of one replication."""
    claimed = claim_of(kind, true)
    res = make_results(claimed, no_change=claimed is None)
    sim = Simulator(res, true, noise, seed, shape=shape)

    def calibrate() -> dict[str, Any]:
        return calibration_of({"throughput": sim.calibrate(CALIBRATION_RUNS)},
                              CALIBRATION_RUNS)

    out = run_sequential(res, sim, calibrate=calibrate)
    v = out.verdicts[0]
    return v.verdict, is_wrong(kind, true, v), out.looks[-1] if out.looks else 0


_TREES: dict[str, tempfile.TemporaryDirectory[str]] = {}
_TREES_LOCK = threading.Lock()


def old_tree(rev: str) -> Path:
    """The whole tree at `rev`, exported once per process (removed at exit)."""
    with _TREES_LOCK:
        if rev not in _TREES:
            tar = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev],
                                 check=True, capture_output=True).stdout
            tmp = tempfile.TemporaryDirectory(prefix=f"oldrule-{rev}-")
            with tarfile.open(fileobj=io.BytesIO(tar)) as t:
                t.extractall(tmp.name, filter="data")
            _TREES[rev] = tmp
        return Path(_TREES[rev].name)


OldRuns = list[tuple[str, float | None, int]]  # per replication: verdict, band %, runs


def old_rule(rev: str, cells: list[tuple[str, float, float, str, int]]
             ) -> tuple[list[OldRuns], dict[str, str]]:
    """The rule at `rev` on (shape, noise, true, kind, replications) cells: per cell, per
    replication (verdict, noise band %, runs per variant), and the file of every project
    module the child loaded.  It runs in a child of its own (bench/old_rule.py), where
    no module of today's tree can load, on the runs of today's tests/sim_noise.py from
    the cell's seed (seed_of); it reads a 'no change' claim as a claimed 0%, which is how
    it read one, and has no calibration (it had none)."""
    jobs = []
    for shape, noise, true, kind, reps in cells:
        claimed = claim_of(kind, true)
        jobs.append({"spec": spec_dict(0.0 if claimed is None else claimed), "true": true,
                     "noise": noise, "shape": shape, "reps": reps,
                     "seed": seed_of(shape, noise, true, kind) * 10_000})
    child = subprocess.run(
        [sys.executable, "-I", str(ROOT / "bench" / "old_rule.py"), str(old_tree(rev)),
         str(ROOT / "tests" / "sim_noise.py")],
        input=json.dumps({"cells": jobs}), capture_output=True, text=True)
    if child.returncode:
        raise RuntimeError(f"the rule at {rev} failed: {child.stderr.strip()[-2000:]}")
    out = json.loads(child.stdout)
    runs = [[(str(v), d, int(n)) for v, d, n in c] for c in out["cells"]]
    return runs, out["modules"]


def cell(args: tuple[str, float, float, str, int, int, str | None]) -> dict[str, Any]:
    shape, noise, true, kind, reps, old_reps, old_rev = args
    base = seed_of(shape, noise, true, kind)
    c: Counter[str] = Counter()
    wrong = runs = 0
    for i in range(reps):
        name, w, n = one(shape, noise, true, kind, base * 10_000 + i)
        c[name] += 1
        wrong += w
        runs += n
    row = {"shape": shape, "noise": noise, "true": true, "kind": kind, "reps": reps,
           "wrong": wrong / reps, "runs": runs / reps, "counts": dict(c)}
    if old_reps and old_rev:
        row.update(old_cell((shape, noise, true, kind, old_reps, old_rev)))
    return row


def seed_of(shape: str, noise: float, true: float, kind: str) -> int:
    """A cell's seed: replication i of the new and of the present rule draw the same runs."""
    return zlib.crc32(repr((shape, noise, true, kind)).encode()) % 100_000


def old_cell(args: tuple[str, float, float, str, int, str]) -> dict[str, Any]:
    """The present rule on one cell: its wrong-verdict rate and mean runs per variant."""
    shape, noise, true, kind, old_reps, old_rev = args
    (reps,), _ = old_rule(old_rev, [(shape, noise, true, kind, old_reps)])
    c = Counter(name for name, _, _ in reps)
    wrong = sum(is_wrong(kind, true, Verdict(verdict=VerdictKind(name), delta_pct=band))
                for name, band, _ in reps)
    return {"old_wrong": wrong / old_reps, "old_runs": sum(n for _, _, n in reps) / old_reps,
            "old_reps": old_reps, "old_counts": dict(c)}


def table(rows: list[dict[str, Any]]) -> str:
    short = {V.CONFIRMED: "conf", V.CONTRADICTED: "contr", V.NOT_REPRODUCED: "notrep",
             V.PARTLY: "part", V.INCONCLUSIVE: "inc", V.INVALID: "inv"}
    out = [f"{'shape':<10}{'noise':>6}{'true':>6} {'claim':<9}{'wrong':>7}{'max1%':>6}"
           + "".join(f"{s:>7}" for s in short.values()) + f"{'runs':>6}{'old':>6}"
           f"{'oldwr':>7}"]
    for r in rows:
        n = r["reps"]
        pcts = "".join(f"{100 * r['counts'].get(k, 0) / n:>6.1f}%" for k in short)
        flag = "" if r["wrong"] <= 0.01 else "  <--"
        old = (f"{r['old_runs']:>6.1f}{100 * r['old_wrong']:>6.1f}%" if "old_runs" in r
               else "")
        out.append(f"{r['shape']:<10}{r['noise']:>5g}%{r['true']:>+5g}% {r['kind']:<9}"
                   f"{100 * r['wrong']:>6.2f}%{'ok' if not flag else 'NO':>6}{pcts}"
                   f"{r['runs']:>6.1f}{old}{flag}")
    return "\n".join(out)


def by_shape(rows: list[dict[str, Any]]) -> str:
    """One line per (shape, noise): the worst cell of each kind of wrong verdict, how
    often a verdict was reached, and the runs it took against the present rule."""
    out = [f"{'shape':<10}{'noise':>6}{'worst':>7}{'A/A c+c':>8}{'small':>7}{'decided':>8}"
           f"{'runs':>6}{'old':>6}{'oldwrong':>9}"]
    keys = list(dict.fromkeys((r["shape"], r["noise"]) for r in rows))
    for shape, noise in keys:
        rs = [r for r in rows if (r["shape"], r["noise"]) == (shape, noise)]
        aa = [r for r in rs if r["true"] == 0 and r["kind"] != "zero"]
        aa_bad = max(((r["counts"].get(V.CONFIRMED, 0) + r["counts"].get(V.CONTRADICTED, 0))
                      / r["reps"] for r in aa), default=0.0)
        small = max((r["counts"].get(V.CONTRADICTED, 0) / r["reps"] for r in rs
                     if r["kind"] == "half" and r["true"] != 0), default=0.0)
        decided = sum(1 - (r["counts"].get(V.INCONCLUSIVE, 0) + r["counts"].get(V.INVALID, 0))
                      / r["reps"] for r in rs) / len(rs)
        old = (f"{sum(r['old_runs'] for r in rs) / len(rs):>6.1f}"
               f"{100 * max(r['old_wrong'] for r in rs):>8.1f}%" if "old_runs" in rs[0] else "")
        out.append(f"{shape:<10}{noise:>5g}%{100 * max(r['wrong'] for r in rs):>6.2f}%"
                   f"{100 * aa_bad:>7.2f}%{100 * small:>6.2f}%{100 * decided:>7.0f}%"
                   f"{sum(r['runs'] for r in rs) / len(rs):>6.1f}{old}")
    return "\n".join(out)


def summary(rows: list[dict[str, Any]]) -> str:
    worst = max(rows, key=lambda r: r["wrong"])
    aa = [r for r in rows if r["true"] == 0 and r["kind"] != "zero"]
    aa_bad = max(((r["counts"].get(V.CONFIRMED, 0) + r["counts"].get(V.CONTRADICTED, 0))
                  / r["reps"] for r in aa), default=0.0)
    small = [r for r in rows if r["kind"] == "half" and r["true"] != 0]
    small_bad = max((r["counts"].get(V.CONTRADICTED, 0) / r["reps"] for r in small),
                    default=0.0)
    runs = sum(r["runs"] for r in rows) / len(rows)
    reps = Counter(r["reps"] for r in rows)
    lines = [f"cells {len(rows)}, replications a cell: "
             + ", ".join(f"{n} ({k} cells)" for n, k in sorted(reps.items(), reverse=True)),
             f"worst cell wrong {100 * worst['wrong']:.2f}% ({worst['shape']}, "
             f"{worst['noise']:g}%, {worst['true']:+g}%, {worst['kind']}); cells above 1%: "
             f"{sum(r['wrong'] > 0.01 for r in rows)}",
             f"A/A (true 0, claims +10/+5/-10%): CONFIRMED or CONTRADICTED at most "
             f"{100 * aa_bad:.2f}% in a cell",
             f"half-size claims in the true direction: CONTRADICTED at most "
             f"{100 * small_bad:.2f}% in a cell",
             f"runs per variant, mean over cells: {runs:.1f} (+{CALIBRATION_RUNS} baseline "
             "runs of calibration, cached per runner and benchmark)"]
    if "old_runs" in rows[0]:
        old_runs = sum(r["old_runs"] for r in rows) / len(rows)
        old_worst = max(rows, key=lambda r: r["old_wrong"])
        old_reps = Counter(r["old_reps"] for r in rows)
        lines.append(f"present rule ({rows[0].get('old_rev', 'branch point')}; replications "
                     "a cell: " + ", ".join(f"{n} ({k} cells)"
                                            for n, k in sorted(old_reps.items(), reverse=True))
                     + f"): runs per "
                     f"variant {old_runs:.1f}, worst cell wrong "
                     f"{100 * old_worst['old_wrong']:.1f}%, cells above 1%: "
                     f"{sum(r['old_wrong'] > 0.01 for r in rows)}")
        dec = [(round(r["runs"], 1), round(r["old_runs"], 1)) for r in rows]
        lines.append(f"cells where the new rule runs more than the present one (runs to a "
                     f"decision, both to 0.1): {sum(a > b for a, b in dec)} of {len(dec)}; by "
                     f"more than 0.5 run {sum(a > b + 0.5 for a, b in dec)}, 1 run "
                     f"{sum(a > b + 1 for a, b in dec)}, 2 runs {sum(a > b + 2 for a, b in dec)};"
                     f" largest {max(a - b for a, b in dec):+.1f} runs per variant")
    return "\n".join(lines)


def more_runs(rows: list[dict[str, Any]]) -> str:
    """The cells where the new rule runs more than the present one, most first, with what
    each rule decided there (the present rule's verdicts when measured: --old-for-more)."""
    short = {V.CONFIRMED: "conf", V.CONTRADICTED: "contr", V.NOT_REPRODUCED: "notrep",
             V.PARTLY: "part", V.INCONCLUSIVE: "inc", V.INVALID: "inv"}

    def mix(counts: dict[str, int], n: int) -> str:
        return " ".join(f"{short.get(k, k)} {100 * v / n:.0f}%"
                        for k, v in sorted(counts.items(), key=lambda kv: -kv[1]) if v)

    worse = [r for r in rows if "old_runs" in r
             and round(r["runs"], 1) > round(r["old_runs"], 1)]
    worse.sort(key=lambda r: r["old_runs"] - r["runs"])
    out = [f"{'shape':<10}{'noise':>6}{'true':>6} {'claim':<9}{'runs':>6}{'old':>6}  "
           "new rule's verdicts | present rule's verdicts"]
    for r in worse:
        old = (mix(r["old_counts"], r.get("old_counts_reps", r["old_reps"]))
               if r.get("old_counts")
               else f"wrong {100 * r['old_wrong']:.1f}%")
        out.append(f"{r['shape']:<10}{r['noise']:>5g}%{r['true']:>+5g}% {r['kind']:<9}"
                   f"{r['runs']:>6.1f}{r['old_runs']:>6.1f}  {mix(r['counts'], r['reps'])} | "
                   f"{old}")
    return "\n".join(out)


def run_old(keys: list[tuple[Any, ...]], args: argparse.Namespace, store: Path,
            reps: int) -> dict[tuple[Any, ...], dict[str, Any]]:
    """The present rule's cells from `store`: a cell measured with at least `reps`
    replications serves (any, when `reps` is 0), the others are run at `reps` (none when
    0) and appended."""
    have: dict[tuple[Any, ...], dict[str, Any]] = {}
    if store.exists():
        for line in store.read_text().splitlines():
            r = json.loads(line)
            key = (r["shape"], r["noise"], r["true"], r["kind"])
            # the most replications measured serve; with as many, the one with verdicts
            if r["old_rev"] == args.old_rev and r["old_reps"] >= max(reps, 1) \
                    and (r["old_reps"], "old_counts" in r) >= (
                        have.get(key, {}).get("old_reps", 0), "old_counts" in have.get(key, {})):
                have[key] = r
    todo = [k for k in keys if k not in have]
    if todo and reps:
        work = [(*k, reps, args.old_rev) for k in todo]
        with ThreadPoolExecutor(max(args.jobs, 1)) as ex:  # each cell is a child process
            for k, r in zip(todo, ex.map(old_cell, work), strict=True):
                r.update(shape=k[0], noise=k[1], true=k[2], kind=k[3], old_rev=args.old_rev)
                have[k] = r
                with store.open("a") as f:
                    f.write(json.dumps(r) + "\n")
    return {k: {n: have[k][n] for n in ("old_wrong", "old_runs", "old_reps", "old_counts")
                if n in have[k]}
            for k in keys if k in have}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=2000, help="replications a cell")
    ap.add_argument("--old-reps", type=int, default=0,
                    help="replications a cell of the present rule (0: not run)")
    ap.add_argument("--old-rev", default="727855b", help="git revision of the present rule")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--shapes", default=",".join(SHAPES))
    ap.add_argument("--noises", default=",".join(f"{n:g}" for n in NOISES))
    ap.add_argument("--effects", default=",".join(f"{e:g}" for e in EFFECTS),
                    help="true effects (%%) of the cells to run")
    ap.add_argument("--out", default=None, help="also write the table here")
    ap.add_argument("--old-cells", default=None,
                    help="a JSON-lines file of the present rule's cells (it does not change: "
                         "measured once, reused; with --old-reps, missing cells are run)")
    ap.add_argument("--old-for-more", type=int, default=0, metavar="N",
                    help="run the present rule N times more in the cells where the new one "
                         "runs more, keeping its verdicts (into --old-cells)")
    ap.add_argument("--old-near", type=float, default=None, metavar="R",
                    help="measure the present rule again at --old-reps (into --old-cells) in "
                         "the cells where the new rule runs more than it or within R runs "
                         "of it, and more than the present rule's first look")
    ap.add_argument("--only-old", action="store_true",
                    help="only measure the present rule into --old-cells")
    ap.add_argument("--cells", default=None,
                    help="a JSON-lines file: each finished cell is appended, and cells "
                         "already in it are not run again (a long run can resume)")
    args = ap.parse_args()
    shapes = args.shapes.split(",")
    noises = [float(x) for x in args.noises.split(",")]
    old_store = Path(args.old_cells) if args.old_cells else None
    effects = [float(x) for x in args.effects.split(",")]
    keys = [(s, n, e, k) for s in shapes for n in noises for e in effects for k in CLAIMS]
    olds = (run_old(keys, args, old_store, 0 if args.old_near is not None else args.old_reps)
            if old_store else {})
    if args.only_old:
        return 0
    inline_old = 0 if old_store else args.old_reps
    cells = [(*k, args.reps, inline_old, args.old_rev) for k in keys]
    done: dict[tuple[Any, ...], dict[str, Any]] = {}
    store = Path(args.cells) if args.cells else None
    if store and store.exists():
        for line in store.read_text().splitlines():
            r = json.loads(line)
            key = (r["shape"], r["noise"], r["true"], r["kind"])
            # a cell measured with at least as many replications serves (the most kept)
            if r["reps"] >= args.reps and r["reps"] >= done.get(key, {}).get("reps", 0):
                done[key] = r
    # in a shuffled order, so that a run stopped early has cells of every shape and noise
    todo = [c for c in cells if c[:4] not in done]
    random.Random(1).shuffle(todo)
    t0 = time.monotonic()

    def keep(r: dict[str, Any]) -> None:
        done[(r["shape"], r["noise"], r["true"], r["kind"])] = r
        if store:
            with store.open("a") as f:
                f.write(json.dumps(r) + "\n")

    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as ex:
            for r in ex.map(cell, todo, chunksize=2):
                keep(r)
    else:
        for c in todo:
            keep(cell(c))
    rows = [done[c[:4]] for c in cells]
    for r in rows:
        r["old_rev"] = args.old_rev
        r.update(olds.get((r["shape"], r["noise"], r["true"], r["kind"]), {}))
    if args.old_near is not None and old_store and args.old_reps:
        near = [(r["shape"], r["noise"], r["true"], r["kind"]) for r in rows
                if "old_runs" in r and r["old_reps"] < args.old_reps
                and r["runs"] > OLD_FIRST_LOOK and r["runs"] >= r["old_runs"] - args.old_near]
        found = run_old(near, args, old_store, args.old_reps)
        for r in rows:
            r.update(found.get((r["shape"], r["noise"], r["true"], r["kind"]), {}))
    if args.old_for_more and old_store:  # what the present rule decided where it ran less
        more = [(r["shape"], r["noise"], r["true"], r["kind"]) for r in rows
                if "old_runs" in r and round(r["runs"], 1) > round(r["old_runs"], 1)
                and "old_counts" not in r]
        # kept apart: its runs are not the comparison's, which re-measuring only the cells
        # that came out worse would bias towards the new rule
        found = run_old(more, args, old_store.with_name(old_store.stem + "_verdicts.jsonl"),
                        args.old_for_more)
        for r in rows:
            f = found.get((r["shape"], r["noise"], r["true"], r["kind"]))
            if f and "old_counts" in f:
                r["old_counts"], r["old_counts_reps"] = f["old_counts"], f["old_reps"]
    text = (table(rows) + "\n\n" + by_shape(rows) + "\n\n" + summary(rows)
            + f"\n({time.monotonic() - t0:.0f} s)")
    if any("old_runs" in r for r in rows):
        text += "\n\n" + more_runs(rows)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")
    return 0 if all(r["wrong"] <= 0.01 for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
