"""Synthetic claims with a known truth, shared by the statistics tests and bench/.

Runs come in the runners' own ABBA order (runners.execute.abba_order), one batch per call,
and each run's value is the true mean times a noise factor from one of a few shapes seen on
real machines: lognormal, heavy-tailed (t, 3 df), 5% of runs spiking x8, bimodal (two
modes, as a flow landing on one of two queues), a slow drift over the whole session, and
autocorrelated (AR(1)) noise.  The candidate is the baseline times (1 + true change), so the
true change is exact whatever the shape; nothing here fakes the statistics themselves,
only the benchmark that would produce the numbers.
"""
from __future__ import annotations

import random

import numpy as np

from runners.execute import abba_order
from runners.results import Results, RunRecord

SHAPES = ("lognormal", "heavy", "spikes", "bimodal", "drift", "autocorr")


def make_results(claimed_pct: float | None, max_runs: int = 30, first: int = 5,
                 better: str | None = "higher", spread_pct: float | None = None,
                 runs: int | None = None, no_change: bool = False) -> Results:
    metric = {"name": "throughput", "unit": "tps", "better": better,
              "claimed_change_pct": claimed_pct, "spread_pct": spread_pct, "runs": runs}
    if no_change:
        metric["no_change"] = True
    spec = {"id": "sim", "variants": [{"name": "baseline"}, {"name": "candidate"}],
            "metrics": [metric], "run": {"repetitions": first, "max_repetitions": max_runs}}
    return Results(spec=spec, runner="simulated")


class Noise:
    """Log-scale noise of one session, run after run (the order matters for drift and
    autocorrelation); `sigma` is the per-run noise as a log standard deviation."""

    def __init__(self, shape: str, noise_pct: float, rng: np.random.Generator) -> None:
        if shape not in SHAPES:
            raise ValueError(f"unknown noise shape {shape!r}")
        self.shape, self.rng = shape, rng
        self.sigma = float(np.log1p(noise_pct / 100.0))
        self.t = 0
        self.ar = float(rng.normal(0, self.sigma))

    def next(self) -> float:
        s, rng = self.sigma, self.rng
        self.t += 1
        if self.shape == "heavy":
            return float(rng.standard_t(3)) * s / np.sqrt(3.0)
        if self.shape == "spikes":
            return float(rng.normal(0, s)) + (np.log(8.0) if rng.random() < 0.05 else 0.0)
        if self.shape == "bimodal":
            return (s if rng.random() < 0.5 else -s) + float(rng.normal(0, s / 3))
        if self.shape == "drift":  # one sigma every 10 runs, in the same direction
            return float(rng.normal(0, s)) + s * self.t / 10.0
        if self.shape == "autocorr":
            rho = 0.6
            self.ar = rho * self.ar + float(rng.normal(0, s * np.sqrt(1 - rho * rho)))
            return self.ar
        return float(rng.normal(0, s))


class Simulator:
    """The `more` callback: appends runs drawn from the true distributions, ABBA order,
    and keeps what each call asked for (`asked`)."""

    def __init__(self, results: Results, true_pct: float, noise_pct: float, seed: int,
                 base_mean: float = 1000.0, shape: str = "lognormal") -> None:
        self.results = results
        self.rng = np.random.default_rng(seed)
        self.order_rng = random.Random(seed)
        self.means = {"baseline": base_mean, "candidate": base_mean * (1 + true_pct / 100)}
        self.noise = Noise(shape, noise_pct, self.rng)
        self.batch = 0
        self.asked: list[dict[str, int]] = []

    def draw(self, variant: str) -> float:
        return float(self.means[variant] * np.exp(self.noise.next()))

    def calibrate(self, n: int = 10) -> list[float]:
        """n baseline runs before the A/B runs (the A/A calibration's)."""
        return [self.draw("baseline") for _ in range(n)]

    def __call__(self, want: dict[str, int]) -> None:
        self.asked.append(dict(want))
        self.batch += 1
        groups: dict[int, list[str]] = {}
        for name, n in want.items():
            if n > 0:
                groups.setdefault(n, []).append(name)
        for n, names in sorted(groups.items()):
            for variant in abba_order(names, n, self.order_rng):
                self.results.runs.append(RunRecord(
                    variant=variant, index=len(self.results.runs), batch=self.batch,
                    samples={"throughput": self.draw(variant)}))


def fixed(claimed_pct: float | None, true_pct: float, noise_pct: float, n: int,
          seed: int, shape: str = "lognormal") -> Results:
    """A fixed design: n runs per variant, one look."""
    res = make_results(claimed_pct, max_runs=n, first=n)
    Simulator(res, true_pct, noise_pct, seed, shape=shape)({"baseline": n, "candidate": n})
    return res
