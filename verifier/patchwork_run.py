"""`verifier patchwork`: a claim's verdict posted as a patchwork check (context
perf-claim) on every patch of its series (verifier.patchwork).

URL and token come from the command line's --url, the environment
(VERIFIER_PATCHWORK_URL/_TOKEN) or the [patchwork] table of the config; the token never
from the command line.
"""
from __future__ import annotations

import os
import sys

from verifier.results_file import load_results


def post_checks(results: list[str], url: str | None = None, msgid: str | None = None,
                dry_run: bool = False, config: str | None = None) -> int:
    """Post (or with `dry_run` show) the check of the results files on each patch of their
    series; 0, or 2 with a one-line error."""
    from verifier.config import ConfigError
    from verifier.patchwork import Patchwork, PatchworkError, check_for, post_series, target_url
    from verifier.reply import ReplyError

    try:
        base, token, public = settings(config, url)
        loaded = [load_results(p) for p in results]
        mid = msgid or loaded[0].spec.source.message_id
        if not mid:
            raise ValueError("the results name no Message-ID: give --msgid")
        check = check_for(loaded, target_url(loaded[0], public))
        posted = post_series(Patchwork(base, token), mid, check, dry_run=dry_run)
    except (ValueError, ConfigError, ReplyError, PatchworkError) as e:
        print(f"verifier patchwork: {e}", file=sys.stderr)
        return 2
    if not posted:
        print(f"verifier patchwork: the series of <{mid}> has no patches", file=sys.stderr)
        return 2
    for p in posted:
        what = ("would post" if dry_run else "posted") if p.posted else "unchanged"
        print(f"patch {p.patch_id} {what}: {p.state} {check.context}: {check.description}"
              f"  ({p.name})")
    return 0


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
