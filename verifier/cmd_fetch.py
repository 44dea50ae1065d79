"""Fetch a whole thread (by Message-ID or URL) as an mbox, through the local cache.

    verifier fetch 20141106023936.GA1234@example.com -o thread.mbox
    verifier fetch https://lore.kernel.org/netdev/<msgid>/
    verifier fetch https://lists.openwall.net/netdev/2014/11/05/12 --tree
    verifier fetch <msgid> --claims     # each claim once: who made it, who discussed it
"""
from __future__ import annotations

import argparse

from verifier.fetch import ARCHIVES, VIA
from verifier.options import add_inbox


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("target", help="Message-ID, public-inbox URL or web-archive page URL")
    p.add_argument("-o", "--output", help="write the mbox here (default: standard output)")
    add_inbox(p)
    p.add_argument("--via", choices=VIA, default="http", help="fetch with plain HTTP or with b4")
    p.add_argument("--archive", choices=sorted(ARCHIVES),
                   help="read the URL with this web-archive adapter (for a mirror or local copy)")
    p.add_argument("--refresh", action="store_true", help="ignore the cache and fetch again")
    p.add_argument("--tree", action="store_true", help="print the reply tree instead of the mbox")
    p.add_argument("--claims", action="store_true",
                   help="print the thread's claims as JSON, each once, with origin and discussion")


def run(args: argparse.Namespace) -> int:
    from verifier.fetch_run import FetchJob, fetch

    return fetch(FetchJob(args.target, args.output, args.inbox, args.via, args.archive,
                          args.refresh, "tree" if args.tree else
                          "claims" if args.claims else "mbox"))
