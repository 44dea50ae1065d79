"""Read a public-inbox v2 epoch through git: the way lore mirrors are meant to be followed.

Each epoch (`<inbox>/0`, `<inbox>/1`, ...) is a git repository where every commit adds one
message as the blob `m`.  A bare mirror is cloned once and fetched on later polls; commits
after the last one read are walked oldest first, so a reader that keeps that commit neither
misses nor repeats a message, however many arrived in between.
"""
from __future__ import annotations

import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

TIMEOUT = 600


class GitError(Exception):
    """The epoch cannot be cloned, fetched or read; one line."""


def _git(args: list[str], timeout: float = TIMEOUT) -> str:
    try:
        r = subprocess.run(["git", *args], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise GitError(f"git {args[0]} timed out") from None
    if r.returncode != 0:
        last = (r.stderr.strip().splitlines() or ["failed"])[-1]
        raise GitError(f"git {args[0] if args[0] != '--git-dir' else args[2]}: {last}")
    return r.stdout


def mirror(url: str, path: Path) -> None:
    """Clone the epoch once (bare), fetch it afterwards."""
    if (path / "HEAD").exists():
        _git(["--git-dir", str(path), "fetch", "-q", "origin", "+refs/*:refs/*"])
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    _git(["clone", "-q", "--mirror", url, str(path)])


def new_commits(path: Path, after: str | None) -> list[str]:
    ref = "refs/heads/master"
    span = f"{after}..{ref}" if after else ref
    return _git(["--git-dir", str(path), "rev-list", "--reverse", span]).split()


def epoch_messages(url: str, path: Path, after: str | None) -> Iterator[tuple[str, bytes]]:
    """(commit, raw message) for each commit after `after` that adds a message."""
    mirror(url, path)
    commits = new_commits(path, after)
    if not commits:
        return
    proc = subprocess.Popen(["git", "--git-dir", str(path), "cat-file", "--batch"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    stdin = proc.stdin

    def ask() -> None:  # requests written ahead of the reads: no round trip per message
        try:
            for oid in commits:
                stdin.write(f"{oid}:m\n".encode())
            stdin.close()
        except (BrokenPipeError, ValueError):  # the reader stopped early
            pass

    writer = threading.Thread(target=ask, daemon=True)
    writer.start()
    try:
        for oid in commits:
            head = proc.stdout.readline().split()
            if len(head) < 3 or head[1] != b"blob":  # a deletion commit: no `m`
                continue
            size = int(head[2])
            raw = proc.stdout.read(size)
            proc.stdout.read(1)
            yield oid, raw
    finally:
        proc.kill()
        proc.wait()
        writer.join(timeout=10)
