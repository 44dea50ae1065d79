"""The `verifier` command line: one sub-command per module, loaded on demand."""
from __future__ import annotations

import argparse
import importlib
import sys

# name -> module that defines `add_arguments(parser)` and `run(args) -> int`.
COMMANDS: dict[str, str] = {
    "run": "verifier.cmd_run",
    "report": "verifier.cmd_report",
    "reply": "verifier.cmd_reply",
    "lint": "verifier.cmd_lint",
    "extract": "verifier.cmd_extract",
    "fetch": "verifier.cmd_fetch",
    "spec": "verifier.cmd_spec",
    "worker": "verifier.cmd_worker",
    "fleet": "verifier.cmd_fleet",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="verifier", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, modname in COMMANDS.items():
        mod = importlib.import_module(modname)
        p = sub.add_parser(name, help=(mod.__doc__ or "").strip().splitlines()[0])
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    args = parser.parse_args(argv)
    try:
        return int(args._run(args) or 0)
    except KeyboardInterrupt:
        print("verifier: interrupted", file=sys.stderr)
        return 130
