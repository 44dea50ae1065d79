"""The present rule (an older revision's verifier.sequential) on simulated cells, alone.

    python3 -I bench/old_rule.py TREE SIM_NOISE < cells.json > runs.json

bench/verdict_sim.py starts this in a child process for the rule it compares against:
TREE is that revision exported whole (`git archive`), SIM_NOISE today's tests/sim_noise.py
(the benchmark's runs, which import no module of the project).  `-I` keeps today's tree
off sys.path, and a finder placed first refuses any module of the project's packages
(claims, runners, verifier, tests, bench) that is not a file of TREE, so the old rule
runs with its own verdict, stats, arith, spec and results modules and nothing of today's
(the installed editable finder, which points at the main checkout, is never asked).

stdin: {"cells": [{"spec": {...}, "true": %, "noise": %, "shape": ..., "seed": int,
"reps": int}]}, the spec as that revision read specs (a dict).  Replication i draws from
seed + i.  stdout: {"cells": [[[verdict, delta_pct, runs per variant], ...], ...],
"modules": {name: file}} with every module of the project's packages that was loaded.
"""
from __future__ import annotations

import copy
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

PROJECT = ("claims", "runners", "verifier", "tests", "bench")


class TreeOnly(importlib.abc.MetaPathFinder):
    """The project's packages from `tree` only: a module the old tree lacks is missing,
    never taken from another checkout."""

    def __init__(self, tree: Path) -> None:
        self.tree = tree.resolve()

    def find_spec(self, fullname: str, path: Any = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname.partition(".")[0] not in PROJECT:
            return None
        where = path if "." in fullname else [str(self.tree)]
        spec = importlib.machinery.PathFinder.find_spec(fullname, where)
        origin = Path(spec.origin).resolve() if spec and spec.origin else None
        if spec is None or origin is None or not origin.is_relative_to(self.tree):
            raise ModuleNotFoundError(f"{fullname} is not in {self.tree}", name=fullname)
        return spec


def load_file(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def run_cell(cell: dict[str, Any], noise: ModuleType) -> list[list[Any]]:
    # the old tree's modules (TreeOnly makes sure), named at run time
    abba_order = importlib.import_module("runners.execute").abba_order
    results = importlib.import_module("verifier.results")
    Results, RunRecord = results.Results, results.RunRecord
    run_sequential = importlib.import_module("verifier.sequential").run_sequential

    class OldSimulator(noise.Session):  # the same runs as today's tests/stats_sim.py
        def __init__(self, results: Any, seed: int) -> None:
            super().__init__(cell["true"], cell["noise"], seed, abba_order,
                             shape=cell["shape"])
            self.results = results

        def __call__(self, want: dict[str, int]) -> None:
            self.append_batch(self.results.runs, RunRecord, want)

    out = []
    for i in range(cell["reps"]):
        res = Results(spec=copy.deepcopy(cell["spec"]), runner="simulated")
        got = run_sequential(res, OldSimulator(res, cell["seed"] + i))
        v = got.verdicts[0]
        out.append([v["verdict"], v.get("delta_pct"), got.looks[-1] if got.looks else 0])
    return out


def main() -> int:
    tree, sim_noise = Path(sys.argv[1]), Path(sys.argv[2])
    sys.meta_path.insert(0, TreeOnly(tree))
    sys.path.insert(0, str(tree))
    noise = load_file("sim_noise", sim_noise)
    cells = json.load(sys.stdin)["cells"]
    runs = [run_cell(c, noise) for c in cells]
    modules = {name: str(getattr(m, "__file__", None)) for name, m in list(sys.modules.items())
               if name.partition(".")[0] in PROJECT}
    json.dump({"cells": runs, "modules": modules}, sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
