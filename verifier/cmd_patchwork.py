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
import os
import sys


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("results", nargs="+", help="results JSON files of one series' claims")
    p.add_argument("--url", default=None, help="patchwork base URL (default: [patchwork] url)")
    p.add_argument("--msgid", default=None,
                   help="a Message-ID of the series (default: the claim's own)")
    p.add_argument("--dry-run", action="store_true", help="say what would be posted")
    p.add_argument("--config", default=None, help="config file (default: $VERIFIER_CONFIG)")


def settings(config: str | None, url: str | None) -> tuple[str, str | None, str | None]:
    """(patchwork URL, token, public_url) from the command line, environment and config."""
    from verifier.config import load_config
    from verifier.reply import smtp_settings

    conf = load_config(config)
    sec = conf.section("patchwork")
    base = url or os.environ.get("VERIFIER_PATCHWORK_URL") or sec.get("url")
    token = os.environ.get("VERIFIER_PATCHWORK_TOKEN") or sec.get("token")
    if not base:
        raise ValueError("no patchwork URL: give --url or set [patchwork] url")
    return str(base), (str(token) if token else None), smtp_settings(
        conf.section("smtp")).public_url


def run(args: argparse.Namespace) -> int:
    from verifier.cmd_report import load_results
    from verifier.config import ConfigError
    from verifier.patchwork import Patchwork, PatchworkError, check_for, post_series, target_url
    from verifier.reply import ReplyError

    try:
        url, token, public = settings(args.config, args.url)
        results = [load_results(p) for p in args.results]
        mid = args.msgid or results[0].spec.source.message_id
        if not mid:
            raise ValueError("the results name no Message-ID: give --msgid")
        check = check_for(results, target_url(results[0], public))
        posted = post_series(Patchwork(url, token), mid, check, dry_run=args.dry_run)
    except (ValueError, ConfigError, ReplyError, PatchworkError) as e:
        print(f"verifier patchwork: {e}", file=sys.stderr)
        return 2
    if not posted:
        print(f"verifier patchwork: the series of <{mid}> has no patches", file=sys.stderr)
        return 2
    for p in posted:
        what = ("would post" if args.dry_run else "posted") if p.posted else "unchanged"
        print(f"patch {p.patch_id} {what}: {p.state} {check.context}: {check.description}"
              f"  ({p.name})")
    return 0
