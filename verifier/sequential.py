"""Sequential runs: calibrate, then stop as soon as the verdict holds, at pre-planned looks.

The A/A calibration (when asked for) runs first, so the looks use the noise band it sets
and a claim it already shows to be too small for this runner is INCONCLUSIVE before any
A/B run.  Then five runs per variant (more when the claim's own size and spread, or the
calibration's noise, say five cannot tell), then looks at 10, 20 and 30 runs per variant;
every look judges at the Pocock nominal level of the planned looks (a group-sequential
boundary: the chance that the interval misses the truth at any look is alpha), so peeking
does not inflate wrong verdicts.  The loop does not know how runs happen: it calls
`more({variant: extra_runs})`, which must append the new RunRecords to the same Results
(the runners' `run_batch` fits this), and `calibrate()` for the band.
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from claims.spec import sample_name
from runners.results import Results, Verdict
from verifier.stats import noise_band, noise_sd, pct, pocock_alpha, runs_needed
from verifier.verdict import (
    ALPHA,
    INVALID,
    all_decided,
    claimed_of,
    judge,
    look_schedule,
    precheck,
    too_small,
)

More = Callable[[dict[str, int]], None]
MAX_RUNS = 30
FIRST_RUNS = 5


def per_run_cv(metric: dict[str, Any]) -> float | None:
    """The claim's own per-run coefficient of variation, in percent, when the mail gives one.

    A spread printed with a run count is taken as perf stat prints it: the relative
    standard error of the mean over N runs, so the per-run CV is spread * sqrt(N).
    Without a run count it is taken as the per-run spread itself.
    """
    s = metric.get("spread_pct")
    if s is None:
        return None
    runs = metric.get("runs")
    return abs(float(s)) * math.sqrt(runs) if runs and runs > 1 else abs(float(s))


def first_batch(metrics: list[dict[str, Any]], maximum: int = MAX_RUNS,
                calibration: dict[str, Any] | None = None) -> int:
    """Runs per variant before the first look: 5, or what the claim needs, snapped to a look.

    The claim is the alternative hypothesis: a 47% change resolves in a handful of runs, a
    4% change with 2% per-run noise needs about 15-35, and looking at 5 first would waste a
    look (each look costs confidence).  The noise is the calibration's when it measured
    one, else the mail's own spread.
    """
    need = FIRST_RUNS
    alpha = pocock_alpha(look_schedule(FIRST_RUNS, maximum), ALPHA)
    for m in metrics:
        sd = noise_sd(calibration, sample_name(m))
        cv = pct(sd) if sd else per_run_cv(m)
        cl = claimed_of(m)
        if cv is None or cl.pct is None or cl.pct == 0 or cl.no_change:
            continue
        if too_small(cl, noise_band(calibration, sample_name(m)), sd, maximum, alpha):
            continue  # judged INCONCLUSIVE without runs: it must not set the batch size
        need = max(need, runs_needed(cl.pct, cv, alpha=alpha))
    if need <= FIRST_RUNS:
        return FIRST_RUNS
    for n in (10, 20, 30):
        if need <= n:
            return min(n, maximum)
    return maximum


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


def run_sequential(results: Results, more: More,
                   calibration: dict[str, Any] | None = None,
                   clock: Callable[[], float] = time.monotonic,
                   calibrate: Callable[[], dict[str, Any] | None] | None = None) -> Outcome:
    """Calibrate (when `calibrate` is given and no calibration is), then run batches until
    every row's verdict holds, the maximum, or the time budget.

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
    if calibration is None and calibrate is not None:
        calibration = calibrate() or None
    calibration = calibration or getattr(results, "calibration", None) or None
    if calibration:
        results.calibration = calibration
    first = first_batch([asdict(m) for m in spec.metrics], maximum, calibration)
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
