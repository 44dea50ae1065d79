"""Check a draft's performance claims before posting: arithmetic, what is missing, units.

    verifier lint cover-letter.txt [--spec-out FILE] [--format text|json]

Writes the spec(s) it would run (default: <draft>.spec.yaml), so the claim can be run
with `verifier run` first.  Exit 1 when something is missing, 0 when every claim is
complete (or there is none), 2 on unreadable input: it can sit in a pre-send hook.
"""
from __future__ import annotations

import argparse


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("draft", help="cover letter, patch, .eml or mbox ('-' for stdin)")
    p.add_argument("--spec-out", default=None,
                   help="where to write the spec it would run (default: <draft>.spec.yaml; "
                        "'-' for none)")
    p.add_argument("--format", choices=("text", "json"), default="text")


def run(args: argparse.Namespace) -> int:
    from verifier.lint_run import lint

    return lint(args.draft, args.spec_out, args.format)
