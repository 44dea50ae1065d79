"""Synthetic claims with a known truth, shared by the statistics tests and bench/.

Runs come in the runners' own ABBA order (runners.execute.abba_order), one batch per call,
with values from tests/sim_noise.py (its noise shapes: lognormal, heavy-tailed, spikes,
bimodal, drift, autocorrelated); the candidate is the baseline times (1 + true change), so
the true change is exact whatever the shape.  Nothing here fakes the statistics
themselves, only the benchmark that would produce the numbers.
"""
from __future__ import annotations

from typing import Any

from runners.execute import abba_order
from runners.results import Results, RunRecord
from tests.sim_noise import SHAPES, Noise, Session

__all__ = ["SHAPES", "Noise", "Simulator", "fixed", "make_results", "spec_dict"]


def spec_dict(claimed_pct: float | None, max_runs: int = 30, first: int = 5,
              better: str | None = "higher", spread_pct: float | None = None,
              runs: int | None = None, no_change: bool = False) -> dict[str, Any]:
    """A one-metric spec as a spec file holds it (also what older revisions read)."""
    metric: dict[str, Any] = {"name": "throughput", "unit": "tps", "better": better,
                              "claimed_change_pct": claimed_pct, "spread_pct": spread_pct,
                              "runs": runs}
    if no_change:
        metric["no_change"] = True
    return {"id": "sim", "variants": [{"name": "baseline"}, {"name": "candidate"}],
            "metrics": [metric], "run": {"repetitions": first, "max_repetitions": max_runs}}


def make_results(claimed_pct: float | None, max_runs: int = 30, first: int = 5,
                 better: str | None = "higher", spread_pct: float | None = None,
                 runs: int | None = None, no_change: bool = False) -> Results:
    return Results(spec=spec_dict(claimed_pct, max_runs, first, better, spread_pct, runs,
                                  no_change), runner="simulated")


class Simulator(Session):
    """The `more` callback: appends runs drawn from the true distributions, ABBA order,
    and keeps what each call asked for (`asked`)."""

    def __init__(self, results: Results, true_pct: float, noise_pct: float, seed: int,
                 base_mean: float = 1000.0, shape: str = "lognormal") -> None:
        super().__init__(true_pct, noise_pct, seed, abba_order, base_mean, shape)
        self.results = results

    def __call__(self, want: dict[str, int]) -> None:
        self.append_batch(self.results.runs, RunRecord, want)


def fixed(claimed_pct: float | None, true_pct: float, noise_pct: float, n: int,
          seed: int, shape: str = "lognormal") -> Results:
    """A fixed design: n runs per variant, one look."""
    res = make_results(claimed_pct, max_runs=n, first=n)
    Simulator(res, true_pct, noise_pct, seed, shape=shape)({"baseline": n, "candidate": n})
    return res
