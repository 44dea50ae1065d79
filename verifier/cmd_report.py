"""Render a results file again as an email, markdown or a self-contained HTML page, or
write its runs as a table.

    verifier report results.json [--format email|markdown|html|csv|tsv] [-o FILE]

Nothing is re-run: the verdicts stored in the file are used (or computed from its
samples when it has none).  csv and tsv are every run's samples, one row per run and
sample in the order they ran (warm-ups and failed runs included), for your own analysis.
"""
from __future__ import annotations

import argparse

from verifier.report import FORMATS
from verifier.runs_table import SEPARATORS


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("results", help="results JSON file written by `verifier run`/`check`")
    p.add_argument("--format", choices=(*FORMATS, *SEPARATORS), default="email")
    p.add_argument("-o", "--output", default=None, help="write here instead of stdout")


def run(args: argparse.Namespace) -> int:
    from verifier.report_run import report

    return report(args.results, args.format, args.output)
