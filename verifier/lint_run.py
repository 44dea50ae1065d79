"""`verifier lint`: a draft's performance claims checked before posting (verifier.lint),
printed as text or JSON, with the spec(s) it would run written next to it.

Exit 1 when something is missing, 0 when every claim is complete (or there is none), 2 on
unreadable input or an unwritable spec: it can sit in a pre-send hook.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from verifier.lint import format_lint, lint_extraction


def lint(draft: str, spec_out: str | None = None, format: str = "text") -> int:
    """Lint `draft` ("-" for stdin); `spec_out` is where the spec goes ("-": nowhere,
    None: <draft>.spec.yaml in the current folder)."""
    from claims.extract import extract_message
    from claims.sources import InputError, iter_messages
    from claims.spec import dump_specs
    from claims.specbuild import build_specs

    try:
        extractions = [extract_message(m) for m in iter_messages(draft)]
    except (InputError, OSError) as e:
        print(f"verifier lint: {e}", file=sys.stderr)
        return 2
    items = [it for ex in extractions for it in lint_extraction(ex)]
    specs = build_specs(extractions) if items else []
    if format == "json":
        print(json.dumps({"claims": [it.to_dict() for it in items]}, indent=1))
    else:
        sys.stdout.write(format_lint(items, draft))
    path = spec_path(draft, spec_out)
    if specs and path is not None:
        try:
            path.write_text(dump_specs(specs))
        except OSError as e:
            print(f"verifier lint: cannot write {path}: {e.strerror}", file=sys.stderr)
            return 2
        if format == "text":
            print(f"spec it would run: {path} (try: verifier run {path} --runner netns)")
    return 1 if any(not it.clean for it in items) else 0


def spec_path(draft: str, spec_out: str | None) -> Path | None:
    """Where the spec of `draft` is written; None for "-"."""
    if spec_out == "-":
        return None
    if spec_out:
        return Path(spec_out)
    if draft == "-":
        return Path("draft.spec.yaml")
    return Path(Path(draft).name + ".spec.yaml")
