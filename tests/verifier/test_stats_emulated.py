"""Verdicts on runs under pure emulation (the vm runner's TCG fallback) are capped."""
from __future__ import annotations

import random

from runners.results import Results, RunRecord
from verifier.verdict import CONFIRMED, INCONCLUSIVE, judge

SPEC = {"metrics": [{"name": "rate", "better": "higher", "baseline": 100.0,
                     "candidate": 110.0, "claimed_change_pct": 10.0}],
        "variants": [{"name": "baseline"}, {"name": "candidate"}], "run": {}}


def _results(environment: dict) -> Results:
    """Synthetic samples with a true +10% change and 2% noise (known truth)."""
    rng = random.Random(7)
    runs = []
    for i in range(10):
        runs.append(RunRecord(variant="baseline", index=2 * i,
                              samples={"rate": 100 * rng.gauss(1, 0.02)}))
        runs.append(RunRecord(variant="candidate", index=2 * i + 1,
                              samples={"rate": 110 * rng.gauss(1, 0.02)}))
    return Results(spec=SPEC, runner="vm", runs=runs, environment=environment)


def test_real_hardware_confirms_a_true_change() -> None:
    assert judge(_results({"accelerator": "kvm"}))[0].verdict == CONFIRMED


def test_emulated_runs_are_at_most_inconclusive() -> None:
    v = judge(_results({"emulated": True, "accelerator": "tcg"}))[0]
    assert v.verdict == INCONCLUSIVE
    assert v.measured_verdict == CONFIRMED
    assert "emulated, not valid for performance" in v.sentence
