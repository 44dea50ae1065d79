"""Fetch a whole thread (by Message-ID or URL) as an mbox, through the local cache.

    verifier fetch 20141106023936.GA1234@example.com -o thread.mbox
    verifier fetch https://lore.kernel.org/netdev/<msgid>/
    verifier fetch https://lists.openwall.net/netdev/2014/11/05/12 --tree
    verifier fetch <msgid> --claims     # each claim once: who made it, who discussed it
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from verifier.cache import atomic_write
from verifier.fetch import ARCHIVES, VIA, FetchError, fetch_thread
from verifier.fetch.mbox import read_messages
from verifier.thread import ThreadClaim, attribute_claims, build_thread


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("target", help="Message-ID, public-inbox URL or web-archive page URL")
    p.add_argument("-o", "--output", help="write the mbox here (default: standard output)")
    p.add_argument("--inbox", help="public-inbox base URL (default: config `inbox`, b4.midmask, "
                   "https://lore.kernel.org/all)")
    p.add_argument("--via", choices=VIA, default="http", help="fetch with plain HTTP or with b4")
    p.add_argument("--archive", choices=sorted(ARCHIVES),
                   help="read the URL with this web-archive adapter (for a mirror or local copy)")
    p.add_argument("--refresh", action="store_true", help="ignore the cache and fetch again")
    p.add_argument("--tree", action="store_true", help="print the reply tree instead of the mbox")
    p.add_argument("--claims", action="store_true",
                   help="print the thread's claims as JSON, each once, with origin and discussion")


def run(args: argparse.Namespace) -> int:
    try:
        path = fetch_thread(args.target, inbox=args.inbox, via=args.via, refresh=args.refresh,
                            archive=args.archive)
        data = path.read_bytes()
        if args.tree:
            print(render_tree(path))
        elif args.claims:
            print(json.dumps([tc.to_dict() for tc in thread_claims(path)], indent=1))
        elif args.output:
            atomic_write(Path(args.output), data)
        else:
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
    except FetchError as e:
        print(f"verifier fetch: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"verifier fetch: {e.filename or args.output}: {e.strerror or e}", file=sys.stderr)
        return 1
    return 0


def thread_claims(path: Path) -> list[ThreadClaim]:
    """Extract every message of the thread and keep each claim once (verifier.thread)."""
    from claims.extract import extract_message

    msgs = read_messages(path)
    return attribute_claims(build_thread(msgs), [extract_message(m) for m in msgs])


def render_tree(path: Path) -> str:
    """One line per message, indented by reply depth."""
    thread = build_thread(read_messages(path))
    out = []
    for node in thread.walk():
        m = node.message
        out.append(f"{'  ' * node.depth}{m.subject or '(no subject)'}  <{node.key}>  "
                   f"{m.from_ or '?'}  [{node.linked_by}]")
    return "\n".join(out)
