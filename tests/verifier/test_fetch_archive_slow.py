"""Slow: the real virtualization list archive (../shared/data) in a local public-inbox,
real threads fetched by Message-ID over HTTP and with b4, and extracted.

    python -m pytest -m slow tests/verifier/test_fetch_archive_slow.py
(VERIFIER_ARCHIVE_LIMIT=N loads the first N messages; default 3000, 0 means all 27,573.)
"""
from __future__ import annotations

import email
import re
from collections.abc import Iterator
from email.policy import default
from pathlib import Path

import pytest

from tests.lore import LocalInbox, archive_inbox
from tests.verifier.test_fetch_lore import cli, ids
from verifier.fetch import fetch_thread

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def archive() -> Iterator[tuple[LocalInbox, list[bytes]]]:
    with archive_inbox(default_limit=3000) as served:
        yield served


def _threads(mails: list[bytes]) -> dict[str, set[str]]:
    """root Message-ID -> Message-IDs of its thread, by References/In-Reply-To alone."""
    parent: dict[str, str] = {}
    for raw in mails:
        m = email.message_from_bytes(raw, policy=default)
        mid = (m.get("Message-ID") or "").strip().strip("<>")
        refs = re.findall(r"<([^>]+)>", f"{m.get('References', '')} {m.get('In-Reply-To', '')}")
        if mid:
            parent.setdefault(mid, refs[0] if refs else mid)
    groups: dict[str, set[str]] = {}
    for mid in parent:
        root, seen = mid, set()
        while parent.get(root, root) != root and root not in seen:
            seen.add(root)
            root = parent[root]
        groups.setdefault(root, set()).add(mid)
    return groups


def test_real_perf_thread_by_msgid(archive: tuple[LocalInbox, list[bytes]], fetch_env: Path) -> None:
    inbox, mails = archive
    perf = {(email.message_from_bytes(r, policy=default).get("Message-ID") or "").strip().strip("<>")
            for r in mails if re.search(rb"\b(netperf|iperf3?|pktgen)\b", r)}
    candidates = sorted(((len(g), root) for root, g in _threads(mails).items()
                         if len(g) >= 3 and g & perf and root in g), reverse=True)
    assert candidates, "no perf thread with replies in the loaded part of the archive"
    size, root = candidates[0]
    got = set(ids(fetch_thread(root, inbox=inbox.url)))
    assert root in got and len(got) >= 3
    by_b4 = set(ids(fetch_thread(root, inbox=inbox.url, via="b4")))
    assert got == by_b4, (root, got ^ by_b4)
    r = cli("extract", "--format", "json", "--inbox", inbox.url, root)
    assert r.returncode == 0, r.stderr[-500:]
