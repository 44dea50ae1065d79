"""The cache (atomic entries) and the config file (one-line errors)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from verifier.cache import Cache, atomic_write, cache_dir
from verifier.config import DEFAULT_INBOX, ConfigError, load_config
from verifier.fetch import FetchError, http_from_config


def test_cache_roundtrip_and_age(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFIER_CACHE", str(tmp_path / "c"))
    assert cache_dir() == tmp_path / "c"
    c = Cache("threads")
    assert c.get("k") is None
    p = c.put("k", b"From x\n")
    assert c.get("k") == p and p.read_bytes() == b"From x\n"
    assert p.with_suffix(".key").read_text() == "k\n"
    old = p.stat().st_mtime - 3600
    os.utime(p, (old, old))
    assert c.get("k", max_age=60) is None and c.get("k") == p
    c.drop("k")
    assert c.get("k") is None


def test_interrupted_write_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "d" / "entry.mbox"
    atomic_write(target, b"old")

    def boom(src: str, dst: str) -> None:
        raise KeyboardInterrupt  # killed between writing and renaming

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(KeyboardInterrupt):
        atomic_write(target, b"new contents")
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in target.parent.iterdir()) == ["entry.mbox"]


def test_config_defaults_sections_and_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg_path = tmp_path / "config.toml"
    monkeypatch.setenv("VERIFIER_CONFIG", str(cfg_path))
    cfg = load_config()
    assert cfg.inbox == DEFAULT_INBOX and not cfg.inbox_is_set and cfg.section("smtp") == {}
    cfg_path.write_text('inbox = "http://127.0.0.1:8080/netdev"\n[fetch]\ndelay = 0.25\n[smtp]\nhost = "x"\n')
    cfg = load_config()
    assert cfg.inbox_is_set and cfg.inbox.endswith("/netdev") and cfg.section("smtp")["host"] == "x"
    assert http_from_config(cfg).delay == 0.25
    for bad, why in [("inbox = [", "bad config"), ("inbox = 3", "inbox must be"),
                     ("fetch = 1", "must be a table"), ('[fetch]\ndelay = "soon"', "[fetch]")]:
        cfg_path.write_text(bad)
        with pytest.raises((ConfigError, FetchError), match=r".*") as ei:
            http_from_config(load_config())
        assert why in str(ei.value) and "\n" not in str(ei.value)
