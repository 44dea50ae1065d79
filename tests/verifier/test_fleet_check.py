"""`verifier check --runner fleet`: a thread's claim verified on a lab host over dask.

Real processes: a dask scheduler and a `verifier worker` (netns runner) on loopback; the
claim is seed 001's gro_flush_timeout netperf TCP_RR, run with one-second runs.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from runners.fleet_lab import LocalLab
from tests.paths import SHARED

SEED = SHARED / "seeds" / "001_b0de96989ac1a0b9.txt"

pytestmark = [pytest.mark.root,
              pytest.mark.skipif(not SEED.exists() or shutil.which("netperf") is None,
                                 reason="seed or netperf missing")]


def test_check_on_the_fleet_runs_on_the_matching_host_and_judges(tmp_path):
    with LocalLab() as lab:  # entering starts the scheduler
        lab.add_worker("lab1", "nic=veth", probe=True, extra=["--runner", "netns"])
        lab.add_worker("lab2", "nic=mlx5", probe=True, extra=["--runner", "netns"])
        p = subprocess.run(
            [sys.executable, "-m", "verifier", "check", str(SEED), "--runner", "fleet",
             "--scheduler", lab.address, "--tags", "nic=veth", "--duration", "1",
             "--max-runs", "3", "--out", str(tmp_path)],
            capture_output=True, text=True, timeout=600)
    results = sorted(tmp_path.glob("results-*.json"))
    assert len(results) == 1, p.stderr[-2000:]
    doc = json.loads(results[0].read_text())
    from runners.results import Results
    from verifier.exitcodes import for_results  # check exits by the verdict
    typed = Results.from_dict(doc)
    assert p.returncode == for_results(typed.status, typed.verdicts), p.stderr[-2000:]
    assert doc["runner"] == "fleet"
    ran = [r for r in doc["runs"] if r["ok"] and not r["warmup"]]
    assert {r["host"] for r in ran} == {"lab1"}
    assert {r["variant"] for r in ran} == {"baseline", "candidate"}
    assert all("transaction_rate" in r["samples"] for r in ran)
    assert doc["verdicts"] and all(v["verdict"] for v in doc["verdicts"])
    assert "transaction_rate" in p.stdout and "reply:" in p.stdout


def test_check_on_the_fleet_without_a_scheduler_is_one_line(tmp_path):
    p = subprocess.run([sys.executable, "-m", "verifier", "check", str(SEED), "--runner",
                        "fleet", "--out", str(tmp_path)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2
    assert p.stderr.strip().splitlines()[-1].startswith("verifier check: --runner fleet needs")
