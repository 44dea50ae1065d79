"""The `verifier` command line: one sub-command per module, loaded on demand."""
from __future__ import annotations

import argparse
import ast
import importlib
import importlib.util
import os
import sys

# name -> module that defines `add_arguments(parser)` and `run(args) -> int`.
COMMANDS: dict[str, str] = {
    "extract": "verifier.cmd_extract",
    "spec": "verifier.cmd_spec",
    "fetch": "verifier.cmd_fetch",
    "worker": "verifier.cmd_worker",
    "fleet": "verifier.cmd_fleet",
    "run": "verifier.cmd_run",
    "kernels": "verifier.cmd_kernels",
    "report": "verifier.cmd_report",
    "reply": "verifier.cmd_reply",
    "lint": "verifier.cmd_lint",
    "check": "verifier.cmd_check",
    "bot": "verifier.cmd_bot",
    "status": "verifier.cmd_status",
    "queue": "verifier.cmd_queue",
    "serve": "verifier.cmd_serve",
    "patchwork": "verifier.cmd_patchwork",
}


# Commands that start benchmarks, servers or namespaces: each first removes what a killed
# one left (runners.hygiene).
_RUNS_BENCHMARKS = {"run", "check", "bot", "worker", "kernels"}


def _sweep() -> None:
    from runners.hygiene import sweep

    removed = sweep()
    if removed:
        print(f"verifier: removed what a killed command left: {', '.join(removed)[:300]}",
              file=sys.stderr)


def _summary(modname: str) -> str:
    """First docstring line of a command module, read without importing it (imports are slow)."""
    spec = importlib.util.find_spec(modname)
    if spec is None or not spec.origin:
        return ""
    try:
        doc = ast.get_docstring(ast.parse(open(spec.origin, encoding="utf-8").read())) or ""
    except (OSError, SyntaxError):
        return ""
    return doc.strip().splitlines()[0] if doc.strip() else ""


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = argparse.ArgumentParser(prog="verifier", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    chosen = next((a for a in argv if not a.startswith("-")), None)
    for name, modname in COMMANDS.items():
        if name != chosen:
            # Only the chosen command's module is imported: start-up stays fast and one
            # command's missing dependency cannot break the others.
            sub.add_parser(name, help=_summary(modname))
            continue
        mod = importlib.import_module(modname)
        p = sub.add_parser(name, help=_summary(modname), description=mod.__doc__,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    args = parser.parse_args(argv)
    if not hasattr(args, "_run"):
        parser.error(f"unknown command {args.command!r}")
    if "-" in argv and (sys.stdin is None or sys.stdin.closed):
        print(f"verifier {args.command}: '-' reads standard input, which is closed",
              file=sys.stderr)
        return 2
    from verifier.terminal import guard

    guard()  # no escape sequence reaches a terminal, whatever the text came from
    if args.command in _RUNS_BENCHMARKS:
        _sweep()
    try:
        return int(args._run(args) or 0)
    except KeyboardInterrupt:
        print("verifier: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # a bug must still end in one line; VERIFIER_DEBUG=1 shows it all
        if os.environ.get("VERIFIER_DEBUG"):
            raise
        first = (str(e).strip().splitlines() or [""])[0]
        print(f"verifier {args.command}: internal error: {type(e).__name__}: {first}",
              file=sys.stderr)
        return 3
