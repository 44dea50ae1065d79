"""The calibration's runs in the interval: a pooled per-run variance (stats._pooled), when
the runs do not look noisier than it (the F guard), for every claim the calibration lets
through, and the first look at four runs it allows."""
from __future__ import annotations

import math

import numpy as np

from claims.spec import Metric
from tests.stats_sim import Simulator, make_results
from verifier import stats, verdict
from verifier.calibration import calibration_of
from verifier.sequential import first_batch, run_sequential


def _runs(rng, n, sigma, mean=0.0):
    return list(np.exp(rng.normal(mean, sigma, n)) * 1000.0)


def _prior(xs):
    return stats.noise_prior(calibration_of({"x": xs}, len(xs)), "x")


def test_pooled_interval_holds_its_level_and_is_narrower_than_welchs():
    """On lognormal runs (one variance for all) the pooled t interval is exact: at 90% it
    misses the truth about one time in ten, and with the calibration's nine degrees of
    freedom it is narrower than Welch's on the same four runs a side (at a look's level).  The F guard sends
    a sample that happens to look noisier than the calibration to Welch's interval."""
    rng = np.random.default_rng(7)
    miss = pooled_w = welch_w = fallback = 0
    reps, true = 3000, math.log(1.05)
    for _ in range(reps):
        prior = _prior(_runs(rng, 10, 0.05))
        while prior is None or prior.var is None:  # a calibration with a far run: redo
            prior = _prior(_runs(rng, 10, 0.05))
        a, b = _runs(rng, 4, 0.05), _runs(rng, 4, 0.05, true)
        e = stats.log_effect(a, b, level=0.9, trim=None, prior=prior)
        w = stats.log_effect(a, b, level=0.9, trim=None)
        assert abs(e.x - w.x) < 1e-12  # the same estimate
        if e.df != 3 + 3 + 9:
            assert e.df == w.df and e.se == w.se
            fallback += 1
        miss += not (e.lo < true < e.hi)
        lo, hi = e.interval(0.997)  # at a look's level, where the df count most
        pooled_w += hi - lo
        lo, hi = w.interval(0.997)
        welch_w += hi - lo
    assert 0.08 < miss / reps < 0.12
    assert fallback < 0.15 * reps
    assert pooled_w < 0.75 * welch_w  # about 0.71


def test_a_candidate_noisier_than_the_calibration_falls_back_to_welch():
    rng = np.random.default_rng(3)
    prior = _prior(_runs(rng, 10, 0.01))
    a, b = _runs(rng, 8, 0.01), _runs(rng, 8, 0.08, 0.05)  # the candidate adds spread
    e = stats.log_effect(a, b, level=0.99, trim=None, prior=prior)
    w = stats.log_effect(a, b, level=0.99, trim=None)
    assert (e.lo, e.hi, e.df) == (w.lo, w.hi, w.df)


def test_a_calibration_with_a_far_run_adds_no_plain_variance():
    """A spike in the calibration would swamp a plain variance: the plain interval then
    uses the A/B runs alone; the trimmed one still pools its winsorized variance."""
    rng = np.random.default_rng(5)
    xs = _runs(rng, 10, 0.02)
    xs[3] *= 8.0
    cal = calibration_of({"x": xs}, 10)["metrics"]["x"]
    assert cal["far"] == 1 and cal["log_var"] > 0
    prior = stats.noise_prior({"metrics": {"x": cal}}, "x")
    assert prior is not None and prior.var is None and prior.wdf == 7
    a, b = _runs(rng, 6, 0.02), _runs(rng, 6, 0.02, 0.1)
    plain = stats.log_effect(a, b, level=0.99, trim=0.0, prior=prior)
    assert plain.df == stats.log_effect(a, b, level=0.99, trim=0.0).df
    a, b = _runs(rng, 12, 0.02), _runs(rng, 12, 0.02, 0.1)
    cut = stats.log_effect(a, b, level=0.99, trim=stats.TRIM, prior=prior)
    assert cut.df == 9 + 9 + 7  # h - 1 per variant (12 runs, one cut each end) and 7


def test_old_calibrations_without_the_variance_pool_nothing():
    assert stats.noise_prior({"delta_pct": 2.0}) is None
    assert stats.noise_prior({"metrics": {"x": {"delta": 0.01, "sd": 0.02, "n": 10}}},
                             "x") is None
    assert stats.noise_prior(None) is None


def _last_alpha() -> float:
    """The level of the last look of a plan from 4 to 30 runs: what too_small asks of it."""
    return verdict.per_look_alpha(make_results(10.0, max_runs=30, first=4).spec.run)


def _limit(claim: float, band: float, alpha: float) -> float:
    """The per-run noise above which too_small stops checking this claim (bisection)."""
    cl = verdict.claimed_of(Metric(name="x", claimed_change_pct=claim))
    lo, hi = 1e-4, 1.0
    for _ in range(50):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if verdict.too_small(cl, band, mid, 30, alpha) else (mid, hi)
    return lo


def test_a_claim_near_what_the_calibration_lets_through_pools_its_variance():
    """The calibration decided whether the claim is checked at all; a claim it let through
    only because it looked quiet (unchecked at 1.64 times its noise, the old chi-square
    guard's bound) is judged with the calibration's nine degrees of freedom all the same."""
    rng = np.random.default_rng(11)
    alpha, band = _last_alpha(), stats.MIN_BAND
    xs = _runs(rng, 10, 0.03)
    cal = calibration_of({"throughput": xs}, 10)
    sd = stats.noise_sd(cal, "throughput")
    assert sd is not None and cal["metrics"]["throughput"]["far"] == 0
    claim = next(c / 10 for c in range(400, 10, -1)
                 if _limit(c / 10, band, alpha) < 1.64 * sd)  # checked, but not at 1.64 sd
    assert _limit(claim, band, alpha) > sd
    res = make_results(claim, max_runs=30, first=4)
    Simulator(res, claim, 3.0, 5)({"baseline": 4, "candidate": 4})
    v = verdict.judge(res, cal, final=False)[0]
    assert v.effect is not None and not v.effect.paired
    assert v.effect.df == 3 + 3 + 9  # Student's pooled t with the calibration's runs


def test_pooling_what_the_calibration_let_through_costs_its_interval_little():
    """Near the limit too_small lets a claim through mostly when the calibration looked
    quiet, so the variance pooled is picked low.  The F guard (a sample noisier than the
    calibration goes to Welch's interval) keeps what that costs small: at four runs a side,
    where the calibration weighs most, with the runner's noise 1.1 times what a +10% claim
    allows (about a quarter of the calibrations stop it), the verdicts' unpaired 90% A/A
    intervals miss 11.3% of the time (9.7% with the guard that refused the pool).  The
    verdicts' own levels are far in the tail; bench/verdict_sim.py measures those."""
    alpha, band = _last_alpha(), stats.MIN_BAND
    noise = math.expm1(1.1 * _limit(10.0, band, alpha)) * 100.0
    reps, checked, miss, pooled = 3000, 0, 0, 0
    for seed in range(reps):
        res = make_results(10.0, max_runs=30, first=4)
        sim = Simulator(res, 0.0, noise, seed)
        cal = calibration_of({"throughput": sim.calibrate(10)}, 10)
        sim({"baseline": 4, "candidate": 4})
        e = verdict.judge(res, cal, final=False)[0].effect
        if e is None or e.paired:  # not checked (too small here), or on the ABBA pairs
            continue
        checked += 1
        pooled += e.df == 3 + 3 + 9
        miss += abs(e.x) > stats.t_quantile(0.95, e.df or math.inf) * e.se
    assert 0.6 < checked / reps < 0.8
    assert pooled > 0.7 * checked
    assert miss / checked < 0.12


def test_first_look_at_four_runs_with_a_calibration_five_without():
    rng = np.random.default_rng(2)
    m = {"name": "x", "claimed_change_pct": 10.0}
    cal = calibration_of({"throughput": _runs(rng, 10, 0.02)}, 10)
    assert first_batch([m], calibration=cal) == 4
    assert first_batch([m]) == 5
    assert first_batch([m], calibration={"metrics": {"throughput": {"delta": 0.0}}}) == 5
    assert verdict.look_schedule(4, 30) == [4, 5, 6, 8, 10, 12, 15, 20, 25, 30]
    assert verdict.look_schedule(5, 30) == [5, 6, 8, 10, 12, 15, 20, 25, 30]
    # a large true change at 1% noise is settled at the first look, four runs a side
    stops = []
    for seed in range(10):
        res = make_results(20.0)
        sim = Simulator(res, 20.0, 1.0, seed)
        out = run_sequential(res, sim)  # calibrates first through the loop's own runs
        assert out.verdicts[0].verdict == verdict.CONFIRMED
        assert res.spec.run.repetitions == 4
        stops.append(out.looks[0] if out.looks else 0)
    assert stops.count(4) >= 8
