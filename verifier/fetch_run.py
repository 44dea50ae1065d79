"""`verifier fetch`: a whole thread through the local cache, written as an mbox, shown as
its reply tree, or as its claims (each once, with who made and who discussed it)."""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

from verifier.cache import atomic_write
from verifier.fetch import FetchError, fetch_thread
from verifier.fetch.mbox import read_messages
from verifier.thread import ThreadClaim, attribute_claims, build_thread


@dataclass
class FetchJob:
    """What `verifier fetch` was asked to do."""

    target: str  # a Message-ID, public-inbox URL or web-archive page URL
    output: str | None = None  # the mbox file; None: standard output
    inbox: str | None = None
    via: str = "http"
    archive: str | None = None
    refresh: bool = False
    show: str = "mbox"  # mbox | tree | claims


def fetch(job: FetchJob) -> int:
    """Fetch and write (or show) the thread; 0, or 1 with a one-line error."""
    try:
        path = fetch_thread(job.target, inbox=job.inbox, via=job.via, refresh=job.refresh,
                            archive=job.archive)
        data = path.read_bytes()
        if job.show == "tree":
            print(render_tree(path))
        elif job.show == "claims":
            print(json.dumps([tc.to_dict() for tc in thread_claims(path)], indent=1))
        elif job.output:
            atomic_write(Path(job.output), data)
        else:
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
    except FetchError as e:
        print(f"verifier fetch: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"verifier fetch: {e.filename or job.output}: {e.strerror or e}", file=sys.stderr)
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
