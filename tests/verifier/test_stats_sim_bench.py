"""bench/verdict_sim.py stays runnable: two of its cells at a few replications (the full
table, 2000 replications a cell, is `python bench/verdict_sim.py`)."""
from __future__ import annotations

import importlib.util

from runners.results import Verdict
from tests.paths import ROOT
from verifier import verdict

# bench/ is scripts, not a package: load the one under test from its file
_spec = importlib.util.spec_from_file_location("verdict_sim", ROOT / "bench" / "verdict_sim.py")
assert _spec and _spec.loader
verdict_sim = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(verdict_sim)


def test_cells_run_and_count_wrong_verdicts():
    aa = verdict_sim.cell(("spikes", 3.0, 0.0, "equal", 10, 0, None))
    assert aa["reps"] == 10 and sum(aa["counts"].values()) == 10
    assert aa["counts"].get(verdict.CONFIRMED, 0) == 0 and aa["wrong"] == 0
    true = verdict_sim.cell(("lognormal", 1.0, 20.0, "equal", 10, 0, None))
    assert true["counts"].get(verdict.CONFIRMED, 0) >= 8 and true["runs"] <= 10
    assert "worst cell" in verdict_sim.summary([aa, true])


def test_what_counts_as_wrong():
    w = verdict_sim.is_wrong
    assert w("opposite", 10.0, Verdict(verdict=verdict.CONFIRMED))
    assert not w("opposite", 10.0, Verdict(verdict=verdict.CONTRADICTED))
    assert w("half", 10.0, Verdict(verdict=verdict.CONTRADICTED))
    assert w("equal", 0.0, Verdict(verdict=verdict.CONTRADICTED))  # an A/A
    assert not w("equal", 5.0, Verdict(verdict=verdict.INCONCLUSIVE))
    assert w("zero", 5.0, Verdict(verdict=verdict.CONFIRMED, delta_pct=1.0))
    assert not w("zero", 0.5, Verdict(verdict=verdict.CONFIRMED, delta_pct=1.0))
