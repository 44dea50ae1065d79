"""A file cache so that a thread is fetched once.

Entries live under $VERIFIER_CACHE, else ~/.cache/verifier (XDG_CACHE_HOME honoured), as
`<namespace>/<sha256 of key>` plus a small `.key` file naming what it holds. Writes go to
a temporary file in the same directory and are renamed into place, so a reader sees either
the whole entry or none, even if the writer is killed half-way.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path


def cache_dir() -> Path:
    env = os.environ.get("VERIFIER_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "verifier"


def atomic_write(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that the file is never seen half-written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


@dataclass
class Cache:
    """Byte blobs by string key, in one namespace (e.g. "threads")."""

    namespace: str = "threads"
    root: Path | None = None
    suffix: str = ".mbox"

    def _base(self) -> Path:
        return (self.root or cache_dir()) / self.namespace

    def path_for(self, key: str) -> Path:
        return self._base() / (hashlib.sha256(key.encode()).hexdigest() + self.suffix)

    def get(self, key: str, max_age: float | None = None) -> Path | None:
        """Path of the cached entry, or None if missing or older than `max_age` seconds."""
        p = self.path_for(key)
        try:
            st = p.stat()
        except FileNotFoundError:
            return None
        if max_age is not None and time.time() - st.st_mtime > max_age:
            return None
        return p

    def put(self, key: str, data: bytes) -> Path:
        p = self.path_for(key)
        atomic_write(p, data)
        atomic_write(p.with_suffix(".key"), key.encode() + b"\n")
        return p

    def drop(self, key: str) -> None:
        p = self.path_for(key)
        for q in (p, p.with_suffix(".key")):
            try:
                q.unlink()
            except FileNotFoundError:
                pass
