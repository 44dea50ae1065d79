"""Synthetic claims with a known truth, shared by the statistics tests and bench/.

Samples are lognormal around a true mean, so the true change is exact; nothing here
fakes the statistics themselves, only the benchmark that would produce the numbers.
"""
from __future__ import annotations

import numpy as np

from verifier.results import Results, RunRecord


def make_results(claimed_pct: float | None, max_runs: int = 30, first: int = 5,
                 better: str | None = "higher", spread_pct: float | None = None,
                 runs: int | None = None) -> Results:
    metric = {"name": "throughput", "unit": "tps", "better": better,
              "claimed_change_pct": claimed_pct, "spread_pct": spread_pct, "runs": runs}
    spec = {"id": "sim", "variants": [{"name": "baseline"}, {"name": "candidate"}],
            "metrics": [metric], "run": {"repetitions": first, "max_repetitions": max_runs}}
    return Results(spec=spec, runner="simulated")


class Simulator:
    """The `more` callback: appends runs drawn from the true distributions."""

    def __init__(self, results: Results, true_pct: float, noise_pct: float, seed: int,
                 base_mean: float = 1000.0) -> None:
        self.results = results
        self.rng = np.random.default_rng(seed)
        self.means = {"baseline": base_mean, "candidate": base_mean * (1 + true_pct / 100)}
        self.sigma = np.log1p(noise_pct / 100.0)

    def draw(self, variant: str) -> float:
        mu = np.log(self.means[variant]) - self.sigma ** 2 / 2
        return float(np.exp(self.rng.normal(mu, self.sigma)))

    def __call__(self, want: dict[str, int]) -> None:
        for variant, n in want.items():
            for _ in range(n):
                idx = len(self.results.runs)
                self.results.runs.append(RunRecord(
                    variant=variant, index=idx, samples={"throughput": self.draw(variant)}))


def fixed(claimed_pct: float | None, true_pct: float, noise_pct: float, n: int,
          seed: int) -> Results:
    """A fixed design: n runs per variant, one look."""
    res = make_results(claimed_pct, max_runs=n, first=n)
    Simulator(res, true_pct, noise_pct, seed)({"baseline": n, "candidate": n})
    return res
