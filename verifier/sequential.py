"""Sequential runs: calibrate, then stop as soon as the verdict holds, at pre-planned looks.

The A/A calibration runs first by default (off with calibrate=False), so the looks use the
noise band it sets and a claim it already shows to be too small for this runner is
INCONCLUSIVE before any A/B run.  Then four runs per variant when the calibration
measured the runner's variance (five without), and looks at 5, 6, 8, 10, 12, 15, 20, 25
and 30; every look judges at its nominal level of one group-sequential
boundary over the planned looks (verifier.verdict.BOUNDARY_SHAPE: the chance that the
interval misses the truth at any look is alpha), so peeking does not inflate wrong
verdicts.  The loop does not know how runs happen: it calls
`more({variant: extra_runs})`, which must append the new RunRecords to the same Results
(the runners' `run_batch` fits this), and `calibrate()` for the band.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from runners.results import Results, Verdict
from verifier.verdict import (
    INVALID,
    LOOKS,
    all_decided,
    judge,
    look_schedule,
    precheck,
)

More = Callable[[dict[str, int]], None]
MAX_RUNS = 30
FIRST_RUNS = 5


def first_batch(metrics: Sequence[object], maximum: int = MAX_RUNS,
                calibration: dict[str, Any] | None = None) -> int:
    """Runs per variant before the first look: four when the calibration measured this
    runner's per-run variance (its runs then add their degrees of freedom to the first
    look's interval, so four runs a side resolve what five did with Welch's interval),
    else five, whatever the claim.

    The looks are dense (LOOKS), so starting early costs a claim that needs more only
    the few nominal-level points the early looks take from the boundary, while planning
    a later first look from the claimed size (the mail's spread or the calibration's
    noise) cost every claim whose true change is larger than claimed the early stop it
    would have had (measured in bench/verdict_sim.py).  `metrics` is kept for callers;
    a claim too small for this runner is said before any run instead.
    """
    first = FIRST_RUNS
    if calibration and any("log_var" in m for m in (calibration.get("metrics") or {}).values()):
        first = LOOKS[0]
    return max(2, min(first, maximum))


def counts(results: Results) -> dict[str, int]:
    """Completed (non-warmup) runs per variant, failed ones included: they cost time too."""
    c: dict[str, int] = {}
    for r in results.runs:
        if not r.warmup:
            c[r.variant] = c.get(r.variant, 0) + 1
    return c


def _variants(results: Results) -> list[str]:
    names = [v.name for v in results.spec.variants]
    return names or list(dict.fromkeys(r.variant for r in results.runs))


def _seconds_per_run(results: Results) -> float:
    spans = [r.ended - r.started for r in results.runs if r.ended > r.started]
    return sum(spans) / len(spans) if spans else 0.0


@dataclass
class Outcome:
    verdicts: list[Verdict]
    looks: list[int] = field(default_factory=list)  # runs per variant at each look taken
    stopped: str = ""  # decided | maximum | time budget | invalid | not checkable here


Calibrate = Callable[[], dict[str, Any] | None]


def run_sequential(results: Results, more: More,
                   calibration: dict[str, Any] | None = None,
                   clock: Callable[[], float] = time.monotonic,
                   calibrate: Calibrate | bool | None = True) -> Outcome:
    """Calibrate first, then run batches until every row's verdict holds, the maximum, or
    the time budget.

    `calibrate` True (the default): when no calibration is given or kept in the results,
    the A/A calibration runs first through `more` itself (verifier.calibration.
    calibrate_through: DEFAULT_RUNS baseline runs, cached per runner, host and command,
    not counted as A/B runs), so the looks use its noise band and a claim smaller than
    this runner's noise is INCONCLUSIVE, with that reason, before any A/B run.  A
    callable calibrates its own way (`verifier check` runs calibrate_on); False or None
    turns calibration off (the 1% floor band).

    Writes the planned design into results.spec.run (repetitions = first batch,
    max_repetitions) so that re-judging the results file later uses the same alpha, keeps
    the calibration in results.calibration, and fills results.verdicts with the final
    verdicts.  When the calibration shows that no claimed row can be checked here, no A/B
    run is made.
    """
    spec = results.spec
    plan = spec.run
    maximum = int(plan.max_repetitions or MAX_RUNS)
    budget = plan.time_budget
    start = clock()
    calibration = calibration or getattr(results, "calibration", None) or None
    if calibration is None and calibrate:
        if callable(calibrate):
            calibration = calibrate() or None
        else:
            from verifier.calibration import calibrate_through

            calibration = calibrate_through(results, more) or None
    if calibration:
        results.calibration = calibration
    first = first_batch(spec.metrics, maximum, calibration)
    plan.repetitions, plan.max_repetitions = first, maximum
    schedule = look_schedule(first, maximum)
    variants = _variants(results)
    outcome = Outcome(verdicts=[])
    if _nothing_checkable(results, calibration):
        outcome.verdicts = results.verdicts = judge(results, calibration, final=True)
        outcome.stopped = "not checkable here"
        return outcome
    for i, target in enumerate(schedule):
        have = counts(results)
        want = {v: target - have.get(v, 0) for v in variants if have.get(v, 0) < target}
        if want and budget is not None and i > 0:
            per_run = _seconds_per_run(results)
            if clock() - start + per_run * sum(want.values()) > float(budget):
                outcome.stopped = "time budget"
                break
        if want:
            more(want)
        outcome.looks.append(target)
        last = i == len(schedule) - 1
        verdicts = judge(results, calibration, final=last)
        outcome.verdicts = verdicts
        if verdicts and all(v.verdict == INVALID for v in verdicts):
            outcome.stopped = "invalid"
            break
        if all_decided(verdicts):  # an INVALID row is decided: more runs cannot help it
            outcome.stopped = "decided" if not last else "maximum"
            break
    else:
        outcome.stopped = outcome.stopped or "maximum"
    if outcome.stopped == "time budget" or not all_decided(outcome.verdicts):
        outcome.verdicts = judge(results, calibration, final=True)
    results.verdicts = outcome.verdicts
    return outcome


def _nothing_checkable(results: Results, calibration: dict[str, Any] | None) -> bool:
    """Every claimed row is known not to be checkable here before any A/B run."""
    reasons = precheck(results, calibration)
    return bool(reasons) and all(reasons)
