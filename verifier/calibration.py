"""A/A calibration of the noise band, cached per runner and benchmark.

Comparing the baseline with itself shows how big a change this runner's noise alone can
produce; the noise band is max(1%, that), and the per-run noise (`sd`) tells before any
A/B run which claims are too small for this runner.  It runs before the sequential looks
(runners.execute's `calibrate`), so the looks use the band it sets.  Measuring it costs runs, so it is done once per
(runner, host, benchmark command, duration) and kept in a small JSON file.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from verifier.stats import aa_delta, log_sd, outliers, pct

RunBaseline = Callable[[int], dict[str, list[float]]]  # n runs -> samples per metric
DEFAULT_RUNS = 10


def default_path() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "verifier" / "calibration.json"


def calibration_key(spec: dict[str, Any], environment: dict[str, Any],
                    runner: str) -> str:
    """What the noise depends on: the runner and its host, the command and its duration."""
    hosts = environment.get("hosts") or {}
    host = next((h for h in hosts.values() if isinstance(h, dict) and "same_as" not in h), {})
    bench = spec.get("benchmark") or {}
    raw = json.dumps([runner, host.get("kernel"), host.get("cpu_model"), host.get("cpus"),
                      host.get("nic_driver"), bench.get("tool"), bench.get("argv"),
                      environment.get("duration")], sort_keys=True, default=str)
    return hashlib.sha256(raw.encode()).hexdigest()[:20]


class CalibrationCache:
    """key -> {"metrics": {name: {"delta": log-ratio, "n": runs}}, "created": time}."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()

    def _load(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text())
            return data if isinstance(data, dict) else {}
        except (OSError, ValueError):
            return {}  # a missing or broken cache only costs a new calibration

    def get(self, key: str) -> dict[str, Any] | None:
        return self._load().get(key)

    def put(self, key: str, value: dict[str, Any]) -> None:
        data = self._load()
        data[key] = value
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=self.path.name, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            json.dump(data, f, indent=1)
        os.replace(tmp, self.path)


def calibrate(key: str, run_baseline: RunBaseline, cache: CalibrationCache | None = None,
              runs: int = DEFAULT_RUNS, max_age: float = 30 * 86400) -> dict[str, Any]:
    """The cached calibration for `key`, or a new one from `runs` baseline runs.

    The result is what `verdict.judge(results, calibration=...)` takes: a noise band per
    metric.  Metrics with fewer than 4 usable samples are left out (they get the 1% floor).
    """
    cache = cache or CalibrationCache()
    hit = cache.get(key)
    if hit and time.time() - float(hit.get("created", 0)) < max_age:
        return hit
    value = calibration_of(run_baseline(runs), runs)
    cache.put(key, value)
    return value


def calibration_of(samples: dict[str, list[float]], runs: int) -> dict[str, Any]:
    """The calibration of baseline-with-itself samples per metric: the noise band and the
    per-run noise.  Metrics with fewer than 4 usable samples are left out."""
    metrics: dict[str, Any] = {}
    for name, xs in samples.items():
        xs = [x for x in xs if x > 0]
        if len(xs) >= 4:
            d = aa_delta(xs)
            sd = log_sd(xs)
            metrics[name] = {"delta": d, "delta_pct": pct(d), "n": len(xs), "sd": sd,
                             "sd_pct": pct(sd),
                             "log_var": float(np.var(np.log(xs), ddof=1)),
                             "far": outliers(xs)}
    return {"metrics": metrics, "created": time.time(), "runs": runs}


def calibrate_on(spec: Any, runner: Any, results: Any, duration: float | None,
                 cache: CalibrationCache | None = None, runs: int = DEFAULT_RUNS
                 ) -> dict[str, Any]:
    """The calibration for a spec on a set-up runner: `runs` baseline runs (not recorded in
    `results`), cached under the runner, host and command that `results.environment`
    describes.  What `verifier check --calibrate` and the bot run before the looks."""
    from runners.execute import run_batch

    def run_baseline(n: int) -> dict[str, list[float]]:
        recs = run_batch(spec, runner, [spec.variants[0].name], n, None, batch=10_000,
                         duration=duration)
        out: dict[str, list[float]] = {}
        for r in recs:
            if r.ok:
                for k, v in r.samples.items():
                    out.setdefault(k, []).append(v)
        return out

    key = calibration_key(results.spec.to_dict(), results.environment, results.runner)
    return calibrate(key, run_baseline, cache, runs=runs)


def calibrate_through(results: Any, more: Callable[[dict[str, int]], None],
                      runs: int = DEFAULT_RUNS, cache: CalibrationCache | None = None
                      ) -> dict[str, Any]:
    """The calibration run through the sequential loop's own `more`: `runs` baseline runs
    as one batch, taken back out of `results.runs` (they are not A/B runs; their samples
    stay in the calibration).  Cached like calibrate_on when the results describe a host
    (a runner's environment); results without one (simulated) calibrate every time."""
    names = [v.name for v in results.spec.variants]
    if not names:
        return {}
    base = "baseline" if "baseline" in names else names[0]

    def run_baseline(n: int) -> dict[str, list[float]]:
        before = len(results.runs)
        more({base: n})
        new, results.runs[before:] = results.runs[before:], []
        out: dict[str, list[float]] = {}
        for r in new:
            if r.ok and not r.warmup:
                for k, v in r.samples.items():
                    out.setdefault(k, []).append(v)
        return out

    if (results.environment or {}).get("hosts"):
        key = calibration_key(results.spec.to_dict(), results.environment, results.runner)
        return calibrate(key, run_baseline, cache, runs=runs)
    return calibration_of(run_baseline(runs), runs)
