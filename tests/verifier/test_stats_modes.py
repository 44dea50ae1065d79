"""Far runs are rare runs: a second mode of the metric is not a set of stragglers
(stats._far), and a claim of no change is confirmed at the level of any claim while its
contradiction keeps half of it (verdict.judge_row)."""
from __future__ import annotations

import math

import numpy as np

from claims.spec import Metric
from tests.stats_sim import Noise
from verifier import stats, verdict
from verifier.calibration import calibration_of


def _mode_runs(rng: np.random.Generator, major: int, minor: int, s: float = 0.1) -> list[float]:
    """Runs of a two-mode metric: `major` runs near +s, `minor` near -s (logs)."""
    y = np.r_[s + rng.normal(0, s / 10, major), -s + rng.normal(0, s / 10, minor)]
    return list(1000.0 * np.exp(rng.permutation(y)))


def test_a_minority_mode_is_not_a_set_of_far_runs():
    """Seven runs in one mode and three in the other: the MAD is the larger mode's own
    spread, so all three read as far by their z-score, but three on one side of ten are
    more than the trimming cuts there: a mode, untrimmed.  One straggler, or as many as
    the trimming cuts from one end, stays far."""
    rng = np.random.default_rng(4)
    modes = _mode_runs(rng, 7, 3)
    assert stats.outliers(modes) == 0
    a, b = _mode_runs(rng, 7, 3), _mode_runs(rng, 7, 3)
    assert stats.log_effect(a, b, trim=None).trim == 0
    clean = list(1000.0 * np.exp(rng.normal(0, 0.01, 20)))
    assert stats.outliers(clean[:10] + [8000.0]) == 1
    assert stats.outliers(clean[:18] + [8000.0, 8100.0]) == 2  # 2 of 20: the trim's share
    assert stats.outliers(clean[:8] + [8000.0, 8100.0]) == 0  # 2 of 10, one side: a mode


def test_two_mode_calibrations_keep_their_variance_for_the_interval():
    """On simulated two-mode runs (stats_sim's bimodal shape, 10% noise) the calibration's
    ten runs used to drop their plain variance in 28% of calibrations (the smaller mode
    read as far), so no early look could pool it; spikes still drop it when they are rare."""
    rng = np.random.default_rng(1)

    def kept(shape: str, reps: int = 400) -> float:
        n = 0
        for _ in range(reps):
            noise = Noise(shape, 10.0, rng)
            xs = [1000.0 * math.exp(noise.next()) for _ in range(10)]
            prior = stats.noise_prior(calibration_of({"x": xs}, 10), "x")
            n += prior is not None and prior.var is not None
        return n / reps

    assert kept("bimodal") > 0.85
    spiked = [1000.0 * math.exp(v) for v in rng.normal(0, 0.02, 9)] + [8000.0]
    prior = stats.noise_prior(calibration_of({"x": spiked}, 10), "x")
    assert prior is not None and prior.var is None


def test_no_change_is_confirmed_at_alpha_and_contradicted_at_half_alpha():
    """A claim of no change is CONFIRMED when the interval at the look's level lies inside
    the band (a truth outside it lies on one side: two one-sided tests), and CONTRADICTED
    only when the interval at half that level leaves the band (a truth inside could leave
    it on either side)."""
    rng = np.random.default_rng(9)
    z, w = rng.normal(0, 1, 12), rng.normal(0, 1, 12)
    alpha, band = 0.01, stats.MIN_BAND
    metric = Metric(name="x", no_change=True)

    def row(s: float, shift: float = 0.0) -> verdict.Row:
        base = list(1000.0 * np.exp(s * z))
        cand = list(1000.0 * np.exp(s * (w - w.mean() + z.mean()) + shift))
        return verdict.Row(metric=metric, variant="candidate", baseline="baseline",
                           base=base, cand=cand)

    between = None
    for s in np.linspace(0.001, 0.03, 300):
        eff = stats.log_effect(row(s).base, row(s).cand, level=1 - alpha / 2, trim=None)
        lo, hi = eff.interval(1 - alpha)
        if -band < lo and hi < band and not (-band < eff.lo and eff.hi < band):
            between = float(s)
            break
    assert between is not None  # inside at alpha, not at alpha/2
    v = verdict.judge_row(row(between), band, alpha)
    assert (v.verdict, v.detail) == (verdict.CONFIRMED, "no change, as claimed")
    # a measured change whose alpha interval leaves the band but whose alpha/2 one does not
    for shift in np.linspace(0.0, 0.05, 500):
        eff = stats.log_effect(row(0.01, shift).base, row(0.01, shift).cand,
                               level=1 - alpha / 2, trim=None)
        lo, _ = eff.interval(1 - alpha)
        if lo > band and eff.lo <= band:
            v = verdict.judge_row(row(0.01, float(shift)), band, alpha)
            assert v.verdict == verdict.INCONCLUSIVE
            break
    else:
        raise AssertionError("no shift between the two levels")
