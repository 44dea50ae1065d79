"""Every `verifier/cmd_*.py` is argument parsing plus one call: the flow of a command lives
in a module named for its job, so the CLI and the bot cannot grow two versions of it.

Parsed with ast: a command module may hold imports, `add_arguments` (and other `add_*`
parser functions) and `run`, whose body (after imports) is one `return <call>`, or one
`try` around it whose handlers only print and return an exit status; the call reads the
options it needs from `args`, never hands the namespace itself on.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.paths import ROOT

COMMANDS = sorted((ROOT / "verifier").glob("cmd_*.py"))


def _imports_dropped(body: list[ast.stmt]) -> list[ast.stmt]:
    return [s for s in body if not isinstance(s, ast.Import | ast.ImportFrom)]


def _is_return_call(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Call)


def _is_exit_mapping(handler: ast.ExceptHandler) -> bool:
    """`print(...)` lines then `return <constant>`: an error turned into its exit status."""
    *prints, last = handler.body
    return (isinstance(last, ast.Return) and isinstance(last.value, ast.Constant)
            and all(isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)
                    and isinstance(s.value.func, ast.Name) and s.value.func.id == "print"
                    for s in prints))


def passes_the_namespace(fn: ast.FunctionDef) -> bool:
    """`args` itself handed on (a bag of options), not only its attributes read."""
    if not fn.args.args:
        return False
    name = fn.args.args[0].arg
    uses = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == name]
    reads = [n for n in ast.walk(fn) if isinstance(n, ast.Attribute)
             and isinstance(n.value, ast.Name) and n.value.id == name]
    return len(uses) > len(reads)


def run_is_one_call(fn: ast.FunctionDef) -> bool:
    body = _imports_dropped(fn.body[1:] if ast.get_docstring(fn) else fn.body)
    if len(body) != 1 or passes_the_namespace(fn):
        return False
    stmt = body[0]
    if isinstance(stmt, ast.Try):
        return (len(_imports_dropped(stmt.body)) == 1 and _is_return_call(stmt.body[-1])
                and not stmt.orelse and not stmt.finalbody
                and all(_is_exit_mapping(h) for h in stmt.handlers))
    return _is_return_call(stmt)


def problems(source: str) -> list[str]:
    """What in a command module is more than parsing plus one call."""
    tree = ast.parse(source)
    out = []
    for i, node in enumerate(tree.body):
        if i == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the module docstring: the command's help
        if isinstance(node, ast.Import | ast.ImportFrom):
            continue
        if isinstance(node, ast.FunctionDef) and node.name.startswith("add_"):
            continue
        if isinstance(node, ast.FunctionDef) and node.name in ("run", "main"):
            if not run_is_one_call(node):
                out.append(f"line {node.lineno}: {node.name}() is more than one call")
            continue
        what = getattr(node, "name", type(node).__name__)
        out.append(f"line {node.lineno}: {what} belongs in the command's flow module")
    return out


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: p.stem)
def test_command_module_is_parsing_plus_one_call(path: Path) -> None:
    assert problems(path.read_text()) == []


def test_every_command_has_its_parser_and_run() -> None:
    assert len(COMMANDS) >= 16
    for path in COMMANDS:
        names = {n.name for n in ast.parse(path.read_text()).body if isinstance(n, ast.FunctionDef)}
        assert {"add_arguments", "run"} <= names, path.name


def test_the_rule_sees_a_flow_left_in_a_command() -> None:
    flow = '''"""doc"""
import sys

LIMIT = 3


def add_arguments(p):
    p.add_argument("x")


def helper(x):
    return x


def run(args):
    value = helper(args.x)
    print(value)
    return 0
'''
    assert problems(flow) == ["line 4: Assign belongs in the command's flow module",
                              "line 11: helper belongs in the command's flow module",
                              "line 15: run() is more than one call"]
    mapped = '''def run(args):
    from m import go, Error
    try:
        return go(args.x)
    except Error as e:
        print(e)
        return 2
'''
    assert problems(mapped) == []
    busy = mapped.replace("        print(e)\n", "        print(e)\n        args.x = 1\n")
    assert problems(busy) == ["line 1: run() is more than one call"]
    bag = mapped.replace("go(args.x)", "go(args)")
    assert problems(bag) == ["line 1: run() is more than one call"]
    assert problems(mapped.replace("go(args.x)", "go(vars(args))")) == problems(bag)
