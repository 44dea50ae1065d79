"""A/A calibration: the noise band per metric, cached per runner and benchmark."""
from __future__ import annotations

import math

import numpy as np
from stats_sim import fixed

from verifier import verdict
from verifier.calibration import CalibrationCache, calibrate, calibration_key
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
    assert first["metrics"]["tps"]["delta_pct"] > 1.0  # 5% noise moves 6-vs-6 by > 1%
    other = calibration_key({"benchmark": {"tool": "iperf3", "argv": ["iperf3"]}},
                            {"hosts": {"client": {"kernel": "6.1"}}}, "netns")
    assert other != key


def test_a_wide_band_turns_a_small_change_into_no_change():
    band = {"metrics": {"throughput": {"delta_pct": 2.5}}}
    for seed in range(5):
        res = fixed(3.0, 1.5, 0.5, 20, seed)
        assert verdict.judge(res)[0]["verdict"] != verdict.NOT_REPRODUCED  # 1%: a change
        v = verdict.judge(res, calibration=band)[0]
        assert (v["verdict"], v["detail"]) == (verdict.NOT_REPRODUCED, "no change")
