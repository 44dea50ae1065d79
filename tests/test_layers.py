"""Layers import one way: verifier -> runners -> claims.  Parsed from the source, so an
import added anywhere (at module level or inside a function) that points upwards fails."""
from __future__ import annotations

import ast
from pathlib import Path

from tests.paths import ROOT

RANK = {"claims": 0, "runners": 1, "verifier": 2}


def imports_of(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_no_package_imports_a_layer_above_it() -> None:
    upward = []
    for pkg, rank in RANK.items():
        for path in sorted((ROOT / pkg).rglob("*.py")):
            for name in imports_of(path) & RANK.keys():
                if RANK[name] > rank:
                    upward.append(f"{path.relative_to(ROOT)} imports {name}")
    assert upward == []


def test_the_check_sees_an_upward_import(tmp_path: Path) -> None:
    bad = tmp_path / "m.py"
    bad.write_text("def f():\n    from verifier.sequential import run_sequential\n")
    assert "verifier" in imports_of(bad)
