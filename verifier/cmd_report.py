"""Render a results file again as an email, markdown or a self-contained HTML page.

    verifier report results.json [--format email|markdown|html] [-o FILE]

Nothing is re-run: the verdicts stored in the file are used (or computed from its
samples when it has none).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from runners.results import Results
from verifier.report import FORMATS, render


def shape_problem(res: Results) -> str | None:
    """What makes a loaded results file unusable for judging, or None (the spec's and the
    lists' shapes are checked by `Results.from_dict`)."""
    for r in res.runs:
        if not isinstance(r.samples, dict) or not all(
                isinstance(v, int | float) and not isinstance(v, bool)
                for v in r.samples.values()):
            return f"run {r.index} of {r.variant} has non-numeric samples"
    return None


def load_results(path: str) -> Results:
    """A results file, or ValueError with a one-line reason."""
    try:
        res = Results.load(path)
        problem = shape_problem(res)
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except (OSError, json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ValueError(f"{path}: not a results file ({e})") from None
    except (TypeError, KeyError, AttributeError) as e:
        raise ValueError(f"{path}: not a results file ({e})") from None
    except ValueError as e:  # a wrong shape or a newer format
        problem = (str(e).splitlines() or ["not the shape of one"])[0]
    if problem:
        raise ValueError(f"{path}: not a usable results file ({problem})")
    return res


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("results", help="results JSON file written by `verifier run`/`check`")
    p.add_argument("--format", choices=FORMATS, default="email")
    p.add_argument("-o", "--output", default=None, help="write here instead of stdout")


def run(args: argparse.Namespace) -> int:
    try:
        text = render(load_results(args.results), args.format)
    except ValueError as e:
        print(f"verifier report: {e}", file=sys.stderr)
        return 2
    if args.output:
        try:
            Path(args.output).write_text(text)
        except OSError as e:
            print(f"verifier report: cannot write {args.output}: {e.strerror}", file=sys.stderr)
            return 2
        print(args.output)
    else:
        sys.stdout.write(text)
    return 0
