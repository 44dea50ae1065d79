"""Bounded reading (issue 15): no input makes a reader hold more than it must.

Each check runs `verifier extract` (or the reader) in a subprocess under an address-space
limit of 1 GiB, so a reader that buffers the input dies there instead of taking the
machine; the input must end in a one-line error or a recorded "too large, skipped".
"""
from __future__ import annotations

import gzip
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from claims import mbox
from claims.mbox import Oversize, split_mbox
from claims.sources import iter_messages
from tests.httpkit import Answer, serving
from tests.paths import ROOT

LIMIT = 1 << 30
HEADER = b"From a@example.org Mon Jan  2 10:00:00 2023\nSubject: bomb\nMessage-ID: <bomb@x>\n\n"


def _limited() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def run_limited(args: list[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "verifier", *args], capture_output=True, text=True,
                          timeout=timeout, preexec_fn=_limited, env=env, cwd=ROOT, check=False)


def gzip_bomb(path: Path, member: bytes, times: int) -> None:
    """A multi-member gzip: `member` compressed once, written `times` times."""
    packed = gzip.compress(member, compresslevel=9)
    with open(path, "wb") as f:
        for _ in range(times):
            f.write(packed)


def one_line_error(out: subprocess.CompletedProcess[str]) -> str:
    assert out.returncode == 1, (out.returncode, out.stderr[-2000:])
    assert "Traceback" not in out.stderr, out.stderr[-2000:]
    lines = [ln for ln in out.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, out.stderr[-2000:]
    return lines[0]


def test_dev_zero_is_a_one_line_error_under_1_gib() -> None:
    err = one_line_error(run_limited(["extract", "/dev/zero"]))
    assert "binary" in err


def test_gzip_of_4_gib_of_nuls_is_a_one_line_error(tmp_path: Path) -> None:
    bomb = tmp_path / "t.mbox.gz"
    gzip_bomb(bomb, bytes(64 << 20), 64)  # 4 GiB of NULs in about 4 MB
    assert bomb.stat().st_size < 8 << 20
    err = one_line_error(run_limited(["extract", str(bomb)]))
    assert "binary" in err


def test_gzip_bomb_shaped_as_mbox_stops_on_the_ratio(tmp_path: Path) -> None:
    """An mbox header then 4 GiB of one repeated line: stopped as a decompression bomb."""
    bomb = tmp_path / "t.mbox.gz"
    with open(bomb, "wb") as f:
        f.write(gzip.compress(HEADER))
        member = gzip.compress(b"0123456789 abcdef\n" * (4 << 20), compresslevel=9)
        for _ in range(56):
            f.write(member)
    err = one_line_error(run_limited(["extract", "--format", "json", str(bomb)]))
    assert "decompression bomb" in err


def test_a_huge_message_is_skipped_with_a_warning_and_the_next_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mbox, "BLOCK", 1 << 12)
    big = HEADER + b"x" * 200 + b"\n" + (b"y" * 99 + b"\n") * 3000 + b"\n"
    small = (b"From b@example.org Mon Jan  2 10:00:00 2023\nMessage-ID: <small@x>\n\n"
             b"before: 10 Gbps\nafter: 12 Gbps\n")
    data = big + small
    got = list(split_mbox(io.BytesIO(data), max_message=50_000))
    assert isinstance(got[0][1], Oversize) and got[0][1].size > 300_000
    assert got[1][0] == data.count(b"\n", 0, data.index(b"From b@")) + 2  # line numbers stay true
    monkeypatch.setattr(mbox, "MAX_MESSAGE", 50_000)
    monkeypatch.setattr(mbox.split_mbox, "__defaults__", (b"", 50_000))
    msgs = list(iter_messages("t.mbox", data=data))
    assert msgs[0].message_id == "bomb@x" and not msgs[0].lines
    assert any("too large" in w and "skipped" in w for w in msgs[0].warnings)
    assert msgs[1].message_id == "small@x" and msgs[1].lines


def test_an_endless_line_is_cut_with_a_warning() -> None:
    data = HEADER + b"before: 10 Gbps " + b"z" * (3 << 20) + b"\nafter: 12 Gbps\n"
    (msg,) = iter_messages("t.mbox", data=data)
    assert any("cut" in w for w in msg.warnings)
    assert max(len(ln.text) for ln in msg.lines) <= 1 << 20


def test_an_inbox_serving_a_gzip_bomb_is_a_one_line_error(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A public-inbox look-alike on loopback serves t.mbox.gz: 4 GiB of NULs in 4 MB."""
    member = gzip.compress(bytes(64 << 20), compresslevel=9)
    body = member * 64

    def bomb(_path: str, _headers: object) -> Answer:
        return Answer(200, body, "application/gzip")

    with serving(bomb) as base:
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
        monkeypatch.setenv("HOME", str(tmp_path))
        err = one_line_error(run_limited(["extract", f"{base}/all/bomb@x/"]))
        assert "MB" in err or "too large" in err


def test_gunzip_is_bounded() -> None:
    from verifier.fetch.errors import FetchError
    from verifier.fetch.lore import _gunzip

    assert _gunzip(gzip.compress(b"From a\n") * 2, "t") == b"From a\nFrom a\n"
    with pytest.raises(FetchError, match="more than"):
        _gunzip(gzip.compress(bytes(8 << 20)), "t", limit=1 << 20)
    with pytest.raises(FetchError, match="corrupt"):
        _gunzip(gzip.compress(os.urandom(5000))[:-300], "t")
