"""bench/verdict_sim.py stays runnable: two of its cells at a few replications (the full
table, 2000 replications a cell, is `python bench/verdict_sim.py`)."""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

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


def test_cells_that_run_more_than_the_present_rule_are_counted_and_listed():
    """Runs to a decision are compared to 0.1 run (the present rule's cells are kept to
    0.1); the listing names what each rule decided where the new one ran more."""
    def row(kind, runs, old_runs, counts, old_counts=None):
        r = {"shape": "lognormal", "noise": 3.0, "true": 5.0, "kind": kind, "reps": 10,
             "wrong": 0.0, "runs": runs, "counts": counts, "old_runs": old_runs,
             "old_wrong": 0.0, "old_reps": 10}
        if old_counts:
            r["old_counts"] = old_counts
        return r

    rows = [row("equal", 6.04, 6.0, {verdict.CONFIRMED: 10}),  # equal to 0.1
            row("half", 8.0, 6.0, {verdict.CONFIRMED: 8, verdict.INCONCLUSIVE: 2},
                {verdict.INCONCLUSIVE: 10}),
            row("zero", 5.0, 7.0, {verdict.CONTRADICTED: 10})]
    text = verdict_sim.summary(rows)
    assert "runs more than the present one (runs to a decision, both to 0.1): 1 of 3" in text
    listing = verdict_sim.more_runs(rows).splitlines()
    assert len(listing) == 2 and "half" in listing[1]
    assert "conf 80% inc 20% | inc 100%" in listing[1]


def test_the_present_rule_runs_its_own_tree_and_nothing_of_todays():
    """The rule at the branch point runs in a child process on its exported tree: every
    module of the project's packages it loads is a file of that tree (verifier/results.py
    and its own arith exist only there; today's arith takes typed metrics and cannot read
    that rule's dict specs), and its runs per variant are its own looks (5, 10, 20, 30)."""
    rev = "727855b"
    row = verdict_sim.old_cell(("lognormal", 3.0, 10.0, "equal", 6, rev))
    assert row["old_reps"] == 6 and sum(row["old_counts"].values()) == 6
    assert row["old_counts"].get(verdict.CONFIRMED, 0) >= 5 and row["old_wrong"] == 0
    runs, modules = verdict_sim.old_rule(rev, [("lognormal", 3.0, 10.0, "equal", 6)])
    tree = verdict_sim.old_tree(rev).resolve()
    assert {"verifier.results", "verifier.arith", "verifier.verdict", "claims.spec"} <= set(modules)
    assert all(Path(f).resolve().is_relative_to(tree) for f in modules.values())
    assert len(runs[0]) == 6 and {n for _, _, n in runs[0]} <= {5, 10, 20, 30}


def test_the_old_rules_child_refuses_a_module_its_tree_lacks(tmp_path):
    """A module missing from the exported tree is missing: not found in today's checkout
    or through the installed (editable) package."""
    (tmp_path / "verifier").mkdir()
    (tmp_path / "verifier" / "__init__.py").write_text("")
    cell = {"spec": {}, "true": 0.0, "noise": 1.0, "shape": "lognormal", "seed": 1, "reps": 1}
    child = subprocess.run(
        [sys.executable, "-I", str(ROOT / "bench" / "old_rule.py"), str(tmp_path),
         str(ROOT / "tests" / "sim_noise.py")],
        input=json.dumps({"cells": [cell]}), capture_output=True, text=True)
    assert child.returncode != 0
    assert "runners is not in" in child.stderr or "runners.execute is not in" in child.stderr
