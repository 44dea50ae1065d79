"""Each package's face (its `__init__`): what the layers above use is exported there, each
exported name is the object its module defines, and importing a package loads nothing
heavy (the names are imported on first use, claims.lazy)."""
from __future__ import annotations

import ast
import importlib
import importlib.util
import subprocess
import sys

import pytest

from claims.lazy import face_imports
from tests.paths import ROOT

ABOVE = {"claims": ("runners", "verifier"), "runners": ("verifier",), "verifier": ()}
HEAVY = ("bs4", "lxml", "yaml", "jsonschema", "pandas", "scipy", "numpy", "dask",
         "distributed", "jinja2", "requests")


def used_from_above(pkg: str) -> dict[str, list[str]]:
    """Name -> the files above `pkg` that import it from one of pkg's modules."""
    used: dict[str, list[str]] = {}
    for upper in ABOVE[pkg]:
        for path in sorted((ROOT / upper).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if not (isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
                        and node.module.split(".")[0] == pkg and node.module != "claims.lazy"):
                    continue  # claims.lazy: the machinery of the faces themselves
                for a in node.names:
                    if importlib.util.find_spec(f"{pkg}.{a.name}"):
                        # `from claims import spec`, runners.execute.execute: the package
                        # attribute is the module, so the face cannot offer the name
                        continue
                    used.setdefault(a.name, []).append(str(path.relative_to(ROOT)))
    return used


@pytest.mark.parametrize("pkg", ["claims", "runners"])
def test_what_the_layers_above_use_is_on_the_face(pkg):
    face = set(importlib.import_module(pkg).__all__)
    missing = {name: files for name, files in used_from_above(pkg).items() if name not in face}
    assert missing == {}, f"add these to {pkg}/__init__.py (TYPE_CHECKING imports, __all__)"


@pytest.mark.parametrize("pkg", ["claims", "runners", "verifier"])
def test_each_name_of_the_face_is_its_modules_object(pkg):
    mod = importlib.import_module(pkg)
    where = face_imports(mod.__file__)
    assert sorted(mod.__all__) == sorted(where) and len(set(mod.__all__)) == len(mod.__all__)
    # a name that is also a submodule would be the module once that is imported
    assert [n for n in where if importlib.util.find_spec(f"{pkg}.{n}")] == []
    for name, module in where.items():
        assert getattr(mod, name) is getattr(importlib.import_module(module), name)
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        mod.no_such_name  # noqa: B018 - the lookup is the test


def test_importing_the_packages_loads_nothing_heavy():
    code = ("import sys, claims, runners, verifier; "
            "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in "
            f"{set(HEAVY) | set(ABOVE)!r})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout.split()
    assert out == ["claims", "claims.lazy", "runners", "verifier"]
