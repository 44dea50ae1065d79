"""A/A calibration: the noise band per metric, cached per runner and benchmark."""
from __future__ import annotations

import math

import numpy as np
import pytest

from tests.stats_sim import Simulator, fixed, make_results
from verifier import verdict
from verifier.calibration import (
    DEFAULT_RUNS,
    CalibrationCache,
    calibrate,
    calibration_key,
    calibration_of,
)
from verifier.sequential import run_sequential
from verifier.stats import MIN_BAND, noise_band


def test_band_never_below_one_percent_and_per_metric():
    assert noise_band(None) == MIN_BAND
    assert noise_band({"delta_pct": 0.2}) == MIN_BAND
    assert math.isclose(noise_band({"delta_pct": 5.0}), math.log(1.05))
    cal = {"metrics": {"a": {"delta_pct": 4.0}}}
    assert math.isclose(noise_band(cal, "a"), math.log(1.04))
    assert noise_band(cal, "b") == MIN_BAND


def test_calibrate_runs_once_then_uses_the_cache(tmp_path):
    rng = np.random.default_rng(3)
    calls = []

    def run_baseline(n):
        calls.append(n)
        return {"tps": list(rng.lognormal(np.log(1000), 0.05, n)), "cpu": [1.0, 2.0]}

    cache = CalibrationCache(tmp_path / "cal.json")
    key = calibration_key({"benchmark": {"tool": "netperf", "argv": ["netperf"]}},
                          {"hosts": {"client": {"kernel": "6.1"}}}, "netns")
    first = calibrate(key, run_baseline, cache, runs=12)
    second = calibrate(key, run_baseline, cache, runs=12)
    assert calls == [12] and first == second
    assert "cpu" not in first["metrics"]  # too few samples: the 1% floor applies
    tps = first["metrics"]["tps"]
    # iid noise: the two halves differ by nothing their noise does not explain, so the
    # band is the floor; the per-run noise is what the calibration measured
    assert tps["delta_pct"] < 1.0 and 2.5 < tps["sd_pct"] < 10.0
    assert noise_band(first, "tps") == MIN_BAND
    other = calibration_key({"benchmark": {"tool": "iperf3", "argv": ["iperf3"]}},
                            {"hosts": {"client": {"kernel": "6.1"}}}, "netns")
    assert other != key


def test_a_wide_band_never_turns_a_small_true_change_into_no_change():
    """The old rule called a 3% claim inside a 2.5% band a claim of 'no change' and posted
    NOT REPRODUCED for a true +1.5%.  A claim keeps its direction: a true change of half
    the claim is never NOT REPRODUCED or CONTRADICTED, and a claim inside the band is
    INCONCLUSIVE with the reason."""
    band = {"metrics": {"throughput": {"delta_pct": 2.5}}}
    for seed in range(5):
        res = fixed(3.0, 1.5, 0.5, 20, seed)
        v = verdict.judge(res, calibration=band)[0]
        assert v.verdict not in (verdict.NOT_REPRODUCED, verdict.CONTRADICTED)
        res = fixed(2.0, 1.5, 0.5, 20, seed)
        v = verdict.judge(res, calibration=band)[0]
        assert v.verdict == verdict.INCONCLUSIVE
        assert "noise band is 2.5%; a 2.0% claim cannot be checked here" in v.reason
        assert v.no_information == v.reason


def test_a_claim_the_calibration_shows_too_small_runs_nothing():
    """Said before running: the calibration's per-run noise shows that 30 runs cannot
    resolve a 2% claim at 4% noise, so no A/B run is made."""
    res = make_results(2.0)
    asked = []
    cal = calibration_of({"throughput": list(1000 * np.random.default_rng(4).lognormal(
        0, 0.04, 10))}, 10)
    out = run_sequential(res, asked.append, calibrate=lambda: cal)
    assert asked == [] and out.stopped == "not checkable here" and out.looks == []
    v = out.verdicts[0]
    assert v.verdict == verdict.INCONCLUSIVE and "cannot be checked here" in v.reason
    assert "per run" in v.reason and res.calibration == cal


def test_calibration_runs_before_the_looks_and_sets_their_band():
    res = make_results(10.0)
    order = []
    sim = Simulator(res, 10.0, 2.0, 3)

    def calibrate():
        order.append("calibrate")
        return {"metrics": {"throughput": {"delta_pct": 4.0, "sd": 0.02}}}

    def more(want):
        order.append("look")
        sim(want)

    out = run_sequential(res, more, calibrate=calibrate)
    assert order[0] == "calibrate" and order.count("calibrate") == 1
    assert out.verdicts[0].delta_pct == pytest.approx(4.0)
    assert "A/A calibration" in out.verdicts[0].compared


def test_calibration_runs_first_by_default_through_the_loops_own_runs():
    """No calibrate argument: the A/A batch of baseline runs comes first through `more`,
    is not counted as A/B runs, and sets the band; calibrate=False turns it off."""
    res = make_results(10.0)
    sim = Simulator(res, 10.0, 2.0, 3)
    out = run_sequential(res, sim)
    assert sim.asked[0] == {"baseline": DEFAULT_RUNS} and "candidate" in sim.asked[1]
    assert res.calibration["metrics"]["throughput"]["n"] == DEFAULT_RUNS
    assert sum(r.variant == "baseline" for r in res.runs) == out.looks[-1]
    assert "A/A calibration" in out.verdicts[0].compared
    off = make_results(10.0)
    sim = Simulator(off, 10.0, 2.0, 3)
    out = run_sequential(off, sim, calibrate=False)
    assert all("candidate" in a for a in sim.asked) and not off.calibration
    assert "floor" in out.verdicts[0].compared


def test_a_claim_below_the_calibrated_noise_says_so_before_any_ab_run():
    """A 1% claim on a runner whose calibration shows 4% per-run noise: INCONCLUSIVE with
    the runner's noise in the reason, and only the calibration's runs are made."""
    res = make_results(1.0)
    sim = Simulator(res, 1.0, 4.0, 11)
    out = run_sequential(res, sim)
    assert sim.asked == [{"baseline": DEFAULT_RUNS}] and out.looks == [] and res.runs == []
    v = out.verdicts[0]
    assert v.verdict == verdict.INCONCLUSIVE
    assert "a 1.0% claim cannot be checked here" in v.reason
    assert "this runner's noise" in v.reason
