"""Post the verdict as a patchwork check on every patch of the series (context perf-claim).

    verifier patchwork RESULTS.json [RESULTS.json ...] [--url URL] [--msgid MID] [--dry-run]

The series is found from the claim's Message-ID (a patch or the cover letter; --msgid
overrides).  State: success when confirmed, fail only when contradicted, warning
otherwise; target_url is the results page when [smtp] public_url is set.  A patch whose
newest perf-claim check already has the state gets nothing new.  URL and token come from
[patchwork] url/token in the config or VERIFIER_PATCHWORK_URL/_TOKEN, never the command line.
"""
from __future__ import annotations

import argparse

from verifier.options import add_config


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("results", nargs="+", help="results JSON files of one series' claims")
    p.add_argument("--url", default=None, help="patchwork base URL (default: [patchwork] url)")
    p.add_argument("--msgid", default=None,
                   help="a Message-ID of the series (default: the claim's own)")
    p.add_argument("--dry-run", action="store_true", help="say what would be posted")
    add_config(p)


def run(args: argparse.Namespace) -> int:
    from verifier.patchwork_run import post_checks

    return post_checks(args.results, args.url, args.msgid, args.dry_run, args.config)
