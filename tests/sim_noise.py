"""The runs of a synthetic benchmark, free of the project's own modules.

tests/stats_sim.py puts these runs into today's Results; bench/old_rule.py puts the same
runs into the Results of an older revision of the project, in a process where no module
of today's tree may load.  So this file imports only the standard library and numpy.

Each run's value is the true mean times a noise factor from one of a few shapes seen on
real machines: lognormal, heavy-tailed (t, 3 df), 5% of runs spiking x8, bimodal (two
modes, as a flow landing on one of two queues), a slow drift over the whole session, and
autocorrelated (AR(1)) noise.  The candidate is the baseline times (1 + true change), so
the true change is exact whatever the shape.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

SHAPES = ("lognormal", "heavy", "spikes", "bimodal", "drift", "autocorr")

# the runners' ABBA order: (variant names, runs of each, rng) -> the order to run them
Order = Callable[[Sequence[str], int, random.Random], list[str]]


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


class Session:
    """One session's runs: the seed fixes every value and the order of every batch."""

    def __init__(self, true_pct: float, noise_pct: float, seed: int, order: Order,
                 base_mean: float = 1000.0, shape: str = "lognormal") -> None:
        self.rng = np.random.default_rng(seed)
        self.order_rng = random.Random(seed)
        self.order = order
        self.means = {"baseline": base_mean, "candidate": base_mean * (1 + true_pct / 100)}
        self.noise = Noise(shape, noise_pct, self.rng)
        self.batch = 0
        self.asked: list[dict[str, int]] = []

    def draw(self, variant: str) -> float:
        return float(self.means[variant] * np.exp(self.noise.next()))

    def calibrate(self, n: int = 10) -> list[float]:
        """n baseline runs before the A/B runs (the A/A calibration's)."""
        return [self.draw("baseline") for _ in range(n)]

    def runs(self, want: dict[str, int]) -> Iterator[tuple[str, float]]:
        """One batch, (variant, value) run after run: variants asked for the same number
        of runs share ABBA blocks."""
        self.asked.append(dict(want))
        self.batch += 1
        groups: dict[int, list[str]] = {}
        for name, n in want.items():
            if n > 0:
                groups.setdefault(n, []).append(name)
        for n, names in sorted(groups.items()):
            for variant in self.order(names, n, self.order_rng):
                yield variant, self.draw(variant)

    def append_batch(self, runs: list[Any], record: Callable[..., Any], want: dict[str, int]) -> None:
        """One batch appended to a results' `runs` as `record`s (the RunRecord class of
        whichever tree runs: today's, or the present rule's in bench/old_rule.py)."""
        for variant, value in self.runs(want):
            runs.append(record(variant=variant, index=len(runs), batch=self.batch,
                               samples={"throughput": value}))
