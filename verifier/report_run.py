"""`verifier report`: a results file rendered again (email, markdown or HTML) from the
verdicts it stores, or its runs as a CSV/TSV table (verifier.runs_table); nothing is
re-run."""
from __future__ import annotations

import sys
from pathlib import Path

from verifier.report import render
from verifier.results_file import load_results
from verifier.runs_table import SEPARATORS, runs_table


def report(results: str, format: str = "email", output: str | None = None) -> int:
    """Render the results file `results` to stdout or `output`; 0, or 2 with a one-line
    error."""
    try:
        loaded = load_results(results)
        text = runs_table(loaded, format) if format in SEPARATORS else render(loaded, format)
    except ValueError as e:
        print(f"verifier report: {e}", file=sys.stderr)
        return 2
    if output:
        try:
            Path(output).write_text(text)
        except OSError as e:
            print(f"verifier report: cannot write {output}: {e.strerror}", file=sys.stderr)
            return 2
        print(output)
    else:
        sys.stdout.write(text)
    return 0
