"""No class over 250 lines in claims/, runners/, verifier/ (issue 13's "done when").

A class that long holds several concerns (command grammar and output parsing, schema and
every table): parsed from the source, so a class that grows past the limit fails here."""
from __future__ import annotations

import ast
from pathlib import Path

from tests.paths import ROOT

LIMIT = 250
PACKAGES = ("claims", "runners", "verifier")


def long_classes(path: Path, limit: int = LIMIT) -> list[tuple[str, int]]:
    """(class name, lines) of every class in `path`, nested ones too, longer than `limit`."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ClassDef):
            n = (node.end_lineno or node.lineno) - node.lineno + 1
            if n > limit:
                out.append((node.name, n))
    return out


def test_no_class_is_over_the_limit() -> None:
    found = [f"{path.relative_to(ROOT)}: {name} is {n} lines"
             for pkg in PACKAGES for path in sorted((ROOT / pkg).rglob("*.py"))
             for name, n in long_classes(path)]
    assert found == []


def test_the_check_sees_a_long_class(tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    body = "".join(f"    def f{i}(self) -> int:\n        return {i}\n" for i in range(130))
    src.write_text("class Big:\n" + body + "\n\nclass Small:\n    x = 1\n")
    assert long_classes(src) == [("Big", 261)]
