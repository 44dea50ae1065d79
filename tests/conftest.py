"""Shared pytest fixtures. Fetching: a real public-inbox on loopback (tests/lore.py)."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.lore import LocalInbox, corpus_threads, have_public_inbox


@pytest.fixture(scope="session")
def corpus_inbox() -> Iterator[LocalInbox]:
    """A public-inbox `netdev` holding every corpus/seed case as a 3-message thread
    (<STEM.0@corpus.example> root, .1 and .2 replies), served on 127.0.0.1."""
    if not have_public_inbox():
        pytest.skip("public-inbox is not installed (scripts/install.sh)")
    inbox = LocalInbox()
    try:
        inbox.import_mails([m for mails in corpus_threads().values() for m in mails])
        inbox.start()
        yield inbox
    finally:
        inbox.stop()


@pytest.fixture
def local_inbox() -> Iterator[LocalInbox]:
    """An empty public-inbox of its own, served on 127.0.0.1; add mail with deliver()."""
    if not have_public_inbox():
        pytest.skip("public-inbox is not installed (scripts/install.sh)")
    inbox = LocalInbox()
    try:
        inbox.start()
        yield inbox
    finally:
        inbox.stop()


@pytest.fixture
def fetch_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Cache, config and git config of this test only (no user settings leak in)."""
    monkeypatch.setenv("VERIFIER_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("VERIFIER_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    return tmp_path
