"""A real kernel build: Debian's linux-source, a real netdev series, vng --build, a boot.

Slow (tens of minutes on 2 cores): `python -m pytest -m slow tests/verifier/test_kernel_build_slow.py`.
Setup installs linux-source with apt-get when it is missing (it is not in install.sh: 150 MB)
and turns the tarball into a one-commit git repository under /var/tmp/verifier-linux
(reused by later runs; VERIFIER_LINUX_SRC overrides the place).  The series is
"[PATCH net-next v2] virtio_net: Reuse buffer free function" from the shared
virtualization-list archive, which applies to 6.1.  Both kernels are built with the vng
config plus the netdev fragment, then the candidate is booted in the vm runner (TCG) to show
that it is a working kernel with veth.
"""
from __future__ import annotations

import lzma
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.lore import SHARED
from verifier import kernel

MSGID = "20230116202708.276604-1-parav@nvidia.com"
ARCHIVE = SHARED / "data" / "virtualization-list.mbox.xz"
SRC = Path(os.environ.get("VERIFIER_LINUX_SRC", "/var/tmp/verifier-linux"))

pytestmark = [pytest.mark.slow,
              pytest.mark.timeout(6 * 3600),  # the suite's 600 s would cut the build
              pytest.mark.skipif(shutil.which("vng") is None or shutil.which("b4") is None,
                                 reason="needs vng and b4")]


def linux_source_repo() -> Path:
    """The linux-source tree as a git repository (built once, then reused)."""
    tree = next(SRC.glob("linux-source-*"), None)
    if tree is not None and (tree / ".git").exists():
        r = subprocess.run(["git", "-C", str(tree), "rev-parse", "-q", "--verify", "main"],
                           capture_output=True)
        if r.returncode == 0:
            return tree
    tarballs = sorted(Path("/usr/src").glob("linux-source-*.tar.xz"))
    if not tarballs:
        subprocess.run(["apt-get", "install", "-y", "-q", "linux-source"], check=True,
                       env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"}, timeout=1800)
        tarballs = sorted(Path("/usr/src").glob("linux-source-*.tar.xz"))
    SRC.mkdir(parents=True, exist_ok=True)
    subprocess.run(["tar", "-xJf", str(tarballs[-1]), "-C", str(SRC)], check=True, timeout=1800)
    tree = next(SRC.glob("linux-source-*"))
    git = ["git", "-C", str(tree), "-c", "user.name=verifier", "-c", "user.email=v@localhost"]
    subprocess.run([*git, "init", "-q", "-b", "main"], check=True)
    # Debian's top-level .gitignore ignores everything ("/*"): add with -f.
    subprocess.run([*git, "add", "-f", "-A", "."], check=True, timeout=1800)
    subprocess.run([*git, "commit", "-qm", f"{tree.name} (Debian)"], check=True, timeout=600)
    return tree


def series_mbox(out: Path) -> Path:
    """The one mail of the series, cut out of the shared archive by its Message-ID."""
    data = lzma.open(ARCHIVE).read()
    at = data.index(f"Message-ID: <{MSGID}>".encode())
    start = data.rindex(b"\nFrom ", 0, at) + 1
    end = data.find(b"\nFrom ", at)
    out.write_bytes(data[start:end + 1 if end >= 0 else len(data)])
    return out


def test_build_base_and_patched_kernel_from_linux_source_and_boot_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Not under tmp_path: pytest deletes old basetemps when other pytest runs start, which
    # would pull the tree from under an hour-long build.
    work = SRC / f"work-{os.getpid()}"
    monkeypatch.setenv("VERIFIER_KERNEL_CACHE", str(work / "cache"))
    monkeypatch.setenv("VERIFIER_VM_ACCEL", "tcg")
    tree = linux_source_repo()
    mbox = series_mbox(tmp_path / "series.mbox")
    try:
        k = kernel.kernels_for(MSGID, tree, work, mbox=mbox, base="main")
        _check_and_boot(tree, k)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _check_and_boot(tree: Path, k: kernel.Kernels) -> None:
    from runners.vm import VmRunner

    assert k.series.tree == "net-next" and k.series.patches == 1
    base, cand = k.images["baseline"], k.images["candidate"]
    assert base.is_file() and cand.is_file() and base.read_bytes() != cand.read_bytes()
    assert subprocess.run(["git", "-C", str(tree), "worktree", "list"], capture_output=True,
                          text=True).stdout.count("\n") == 1  # worktrees removed
    with VmRunner({"candidate": str(cand)}, boot_timeout=900) as r:
        res = r.run("client", ["ethtool", "-i", r.device("client")], 60)
        env = r.environment([])
    assert res.ok and "driver: veth" in res.stdout
    assert env["emulated"] is True and env["hosts"]["client"]["kernel"]
