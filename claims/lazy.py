"""Lazy package faces: a package's `__init__` lists what it offers as ordinary imports
under `if TYPE_CHECKING:` with `__all__`, and `face()` imports each name from its module
on first use.  So `import claims` costs nothing, a reader of HTML (bs4) or YAML loads
only when something asks for it, and the type checker sees every name with its type."""
from __future__ import annotations

import importlib
import sys

TYPE_CHECKING = False  # not typing's: `import claims` stays free of the typing module
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


def face_imports(init_file: str) -> dict[str, str]:
    """Name -> module of the imports in the `if TYPE_CHECKING:` blocks of `init_file`."""
    import ast

    with open(init_file, encoding="utf-8") as f:
        tree = ast.parse(f.read(), init_file)
    where: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for imp in node.body:
                if isinstance(imp, ast.ImportFrom) and imp.module:
                    where.update({a.asname or a.name: imp.module for a in imp.names})
    return where


def face(package: str, init_file: str) -> Callable[[str], Any]:
    """A module-level `__getattr__` for `package`: a name its `__init__` imports under
    TYPE_CHECKING is imported from its module once and kept on the package; any other
    name is an AttributeError, so `from package import submodule` still finds the module."""
    where: dict[str, str] = {}

    def __getattr__(name: str) -> Any:  # noqa: N807 - the module hook's own name
        if not where:
            where.update(face_imports(init_file))
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
