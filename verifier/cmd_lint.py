"""Check a draft's performance claims before posting: arithmetic, what is missing, units.

    verifier lint cover-letter.txt [--spec-out FILE] [--format text|json]

Writes the spec(s) it would run (default: <draft>.spec.yaml), so the claim can be run
with `verifier run` first.  Exit 1 when something is missing, 0 when every claim is
complete (or there is none), 2 on unreadable input: it can sit in a pre-send hook.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from verifier.lint import format_lint, lint_extraction


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("draft", help="cover letter, patch, .eml or mbox ('-' for stdin)")
    p.add_argument("--spec-out", default=None,
                   help="where to write the spec it would run (default: <draft>.spec.yaml; "
                        "'-' for none)")
    p.add_argument("--format", choices=("text", "json"), default="text")


def _spec_path(args: argparse.Namespace) -> Path | None:
    if args.spec_out == "-":
        return None
    if args.spec_out:
        return Path(args.spec_out)
    if args.draft == "-":
        return Path("draft.spec.yaml")
    return Path(Path(args.draft).name + ".spec.yaml")


def run(args: argparse.Namespace) -> int:
    from claims.extract import extract_message
    from claims.sources import InputError, iter_messages
    from claims.spec import dump_specs
    from claims.specbuild import build_specs

    try:
        extractions = [extract_message(m) for m in iter_messages(args.draft)]
    except (InputError, OSError) as e:
        print(f"verifier lint: {e}", file=sys.stderr)
        return 2
    items = [it for ex in extractions for it in lint_extraction(ex)]
    specs = build_specs(extractions) if items else []
    if args.format == "json":
        print(json.dumps({"claims": [it.to_dict() for it in items]}, indent=1))
    else:
        sys.stdout.write(format_lint(items, args.draft))
    path = _spec_path(args)
    if specs and path is not None:
        try:
            path.write_text(dump_specs(specs))
        except OSError as e:
            print(f"verifier lint: cannot write {path}: {e.strerror}", file=sys.stderr)
            return 2
        if args.format == "text":
            print(f"spec it would run: {path} (try: verifier run {path} --runner netns)")
    return 1 if any(not it.clean for it in items) else 0
