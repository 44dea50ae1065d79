"""The series path of verifier.kernel on a small git repository built by the test.

Real git, real `git format-patch` mails, real b4 (from an mbox file and, when public-inbox
is installed, through a local public-inbox on loopback via b4.midmask).  Only the kernel is
fake: a three-line text file stands in for a kernel tree, since the path under test is
"find the base, apply the series in a worktree, report a conflict", not a build.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from verifier import kernel

pytestmark = pytest.mark.skipif(shutil.which("b4") is None, reason="b4 not installed")


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout.strip()


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    r = tmp_path / "linux"
    r.mkdir()
    git(r, "init", "-q", "-b", "main")
    git(r, "config", "user.email", "dev@example.org")
    git(r, "config", "user.name", "Dev")
    (r / "a.txt").write_text("line1\nline2\nline3\n")
    git(r, "add", "a.txt")
    git(r, "commit", "-qm", "base")
    git(r, "branch", "net-next")
    return r


def make_series(repo: Path, out: Path, edits: list[tuple[str, str]], base_trailer: bool,
                prefix: str = "PATCH net-next", blurb: str | None = None) -> tuple[Path, str]:
    """Commit `edits` on a side branch, mail them as a threaded series into an mbox;
    returns (mbox, cover Message-ID).  The repo's main branch is left as it was.
    `blurb` replaces the cover letter's placeholder (a claim for `verifier check`)."""
    start = git(repo, "rev-parse", "HEAD")
    git(repo, "checkout", "-q", "-b", f"series-{out.name}")
    for content, subject in edits:
        (repo / "a.txt").write_text(content)
        git(repo, "commit", "-qam", subject)
    pdir = out / "patches"
    args = ["format-patch", "-q", "--cover-letter", "--thread",
            f"--subject-prefix={prefix}", "-o", str(pdir), f"{start}..HEAD"]
    if base_trailer:
        args.insert(1, f"--base={start}")
    git(repo, *args)
    git(repo, "checkout", "-q", "main")
    mbox = out / "series.mbox"
    text = "".join(p.read_text() for p in sorted(pdir.glob("*.patch")))
    if blurb is not None:
        text = text.replace("*** BLURB HERE ***", blurb)
    mbox.write_text(text)
    cover = re.search(r"(?m)^Message-I[dD]: <([^>]+)>", mbox.read_text())
    assert cover is not None
    return mbox, cover.group(1)


GOOD = [("line1\nline2 changed\nline3\n", "net: change line2"),
        ("line1\nline2 changed\nline3\nline4\n", "net: add line4")]


def test_base_commit_found_and_series_applied_in_a_worktree(repo: Path, tmp_path: Path) -> None:
    mbox, cover = make_series(repo, tmp_path / "s1", GOOD, base_trailer=True)
    base = git(repo, "rev-parse", "main")
    git(repo, "commit", "-q", "--allow-empty", "-m", "later work on main")  # HEAD moves on
    head_before = git(repo, "rev-parse", "HEAD")
    series = kernel.fetch_series(cover, tmp_path / "b4", mbox=mbox)
    assert series.base_commit == base and series.patches == 2 and series.tree == "net-next"
    trees = kernel.prepare_trees(repo, series, tmp_path / "work")
    try:
        assert trees.base_sha == base and "base-commit" in trees.base_why
        assert (trees.base / "a.txt").read_text() == "line1\nline2\nline3\n"
        assert (trees.patched / "a.txt").read_text().endswith("line4\n")
        assert git(trees.patched, "log", "--format=%s", "-2").splitlines() == [
            "net: add line4", "net: change line2"]
        # the user's checkout is untouched
        assert git(repo, "rev-parse", "HEAD") == head_before
        assert git(repo, "status", "--porcelain") == ""
    finally:
        trees.remove()
    assert not trees.patched.exists()
    assert str(trees.patched) not in git(repo, "worktree", "list")


def test_without_base_commit_the_subject_tree_is_used(repo: Path, tmp_path: Path) -> None:
    mbox, cover = make_series(repo, tmp_path / "s2", GOOD[:1], base_trailer=False)
    series = kernel.fetch_series(cover, tmp_path / "b4", mbox=mbox)
    assert series.base_commit is None and series.tree == "net-next"
    sha, why = kernel.resolve_base(repo, series)
    assert sha == git(repo, "rev-parse", "net-next") and "net-next" in why
    sha2, why2 = kernel.resolve_base(repo, series, override="main")
    assert sha2 == git(repo, "rev-parse", "main") and "given by the user" in why2
    with pytest.raises(kernel.KernelError, match="not a commit"):
        kernel.resolve_base(repo, series, override="no-such-branch")


def test_conflicting_series_is_not_applicable_with_git_ams_reason(repo: Path,
                                                                  tmp_path: Path) -> None:
    mbox, cover = make_series(repo, tmp_path / "s3", GOOD[:1], base_trailer=True)
    # main moves on and rewrites the same line: the series no longer applies to it
    (repo / "a.txt").write_text("line1\nline2 rewritten upstream\nline3\n")
    git(repo, "commit", "-qam", "upstream rewrite")
    series = kernel.fetch_series(cover, tmp_path / "b4", mbox=mbox)
    with pytest.raises(kernel.NotApplicable) as e:
        kernel.prepare_trees(repo, series, tmp_path / "work", base="main")
    msg = str(e.value)
    assert msg.startswith("does not apply to ") and "net: change line2" in msg
    assert "a.txt" in msg
    assert git(repo, "worktree", "list").count("\n") == 0  # both worktrees removed


def test_unknown_base_commit_and_missing_series_are_one_line_errors(repo: Path,
                                                                    tmp_path: Path) -> None:
    series = kernel.Series(mbx=tmp_path / "x.mbx", subject="[PATCH] x",
                           base_commit="0123456789abcdef0123", tree=None, patches=1)
    with pytest.raises(kernel.KernelError, match="is not in"):
        kernel.resolve_base(repo, series)
    series.base_commit = None
    with pytest.raises(kernel.KernelError, match="no base-commit and no tree"):
        kernel.resolve_base(repo, series)
    (tmp_path / "empty.mbox").write_text("")
    with pytest.raises(kernel.KernelError, match="b4 am found no series"):
        kernel.fetch_series("nothing@example.org", tmp_path / "b4", mbox=tmp_path / "empty.mbox")


def test_kernel_cache_key_and_hit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFIER_KERNEL_CACHE", str(tmp_path / "cache"))
    k1 = kernel.kernel_key("abc", None, kernel.CONFIG_FRAGMENT)
    assert k1 != kernel.kernel_key("abc", "d1", kernel.CONFIG_FRAGMENT)
    assert k1 != kernel.kernel_key("abc", None, kernel.CONFIG_FRAGMENT + "CONFIG_X=y\n")
    img = tmp_path / "cache" / k1 / "bzImage"
    img.parent.mkdir(parents=True)
    img.write_bytes(b"kernel")
    # a cached image is returned without building (the tree need not even exist)
    assert kernel.build_kernel(tmp_path / "nowhere", k1) == img


def test_series_through_a_local_public_inbox(repo: Path, tmp_path: Path) -> None:
    from tests.lore import LocalInbox, have_public_inbox

    if not have_public_inbox():
        pytest.skip("public-inbox not installed")
    mbox, cover = make_series(repo, tmp_path / "s4", GOOD, base_trailer=True)
    mails = [p.read_bytes() for p in sorted((tmp_path / "s4" / "patches").glob("*.patch"))]
    with LocalInbox(index_level="basic") as inbox:
        for m in mails:
            inbox.deliver(re.sub(rb"^From [0-9a-f]{40} .*\n", b"", m))
        series = kernel.fetch_series(cover, tmp_path / "b4", midmask=f"{inbox.url}/%s")
    assert series.patches == 2 and series.base_commit == git(repo, "rev-parse", "main")
    trees = kernel.prepare_trees(repo, series, tmp_path / "work")
    try:
        assert (trees.patched / "a.txt").read_text().endswith("line4\n")
    finally:
        trees.remove()


def test_cli_reports_a_conflict_as_not_runnable(repo: Path, tmp_path: Path) -> None:
    mbox, cover = make_series(repo, tmp_path / "s5", GOOD[:1], base_trailer=False)
    (repo / "a.txt").write_text("line1\nline2 rewritten upstream\nline3\n")
    git(repo, "commit", "-qam", "upstream rewrite")
    r = subprocess.run([sys.executable, "-m", "verifier", "kernels", cover, "--tree", str(repo),
                        "--mbox", str(mbox), "--base", "main"], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 4, r.stderr
    assert r.stderr.startswith("verifier kernels: not runnable: does not apply to ")
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    r = subprocess.run([sys.executable, "-m", "verifier", "kernels", cover, "--tree",
                        str(tmp_path / "nowhere"), "--mbox", str(mbox)], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr


CLAIM = """This series makes request/response faster.

netperf -H 10.0.0.2 -t TCP_RR -l 10

Before: 30000 transactions/s
After:  33000 transactions/s
"""


def _check(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "verifier", "check", *args, "--runner", "vm"],
                          capture_output=True, text=True, timeout=900)


def test_check_with_a_tree_reports_a_series_that_does_not_apply(repo: Path,
                                                                 tmp_path: Path) -> None:
    """`verifier check THREAD --runner vm --tree T`: the series conflicts with the base, so
    every claim of the thread is NOT RUNNABLE with git am's reason (nothing is built)."""
    mbox, cover = make_series(repo, tmp_path / "s6", GOOD[:1], base_trailer=False, blurb=CLAIM)
    (repo / "a.txt").write_text("line1\nline2 rewritten upstream\nline3\n")
    git(repo, "commit", "-qam", "upstream rewrite")
    r = _check(str(mbox), "--tree", str(repo), "--base", "main", "--out", str(tmp_path / "o"))
    assert r.returncode == 4, r.stderr  # exit 4: NOT RUNNABLE HERE (verifier/exitcodes.py)
    (res,) = (tmp_path / "o").glob("results-*.json")
    doc = json.loads(res.read_text())
    assert doc["status"] == "not-runnable" and doc["reason"].startswith("does not apply to ")
    assert "net: change line2" in doc["reason"] and not doc["runs"]
    assert "NOT RUNNABLE" in r.stdout and "does not apply" in r.stdout
    assert git(repo, "worktree", "list").count("\n") == 0
    # --tree is for the vm runner; a wrong tree is one line, exit 2
    bad = subprocess.run([sys.executable, "-m", "verifier", "check", str(mbox), "--tree",
                          str(repo)], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "--tree builds kernels for --runner vm" in bad.stderr
    r = _check(str(mbox), "--tree", str(tmp_path / "nowhere"), "--out", str(tmp_path / "o2"))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 2, r.stderr


@pytest.mark.root
@pytest.mark.skipif(not list(Path("/boot").glob("vmlinuz-*")) or shutil.which("vng") is None,
                    reason="needs Debian's kernel image and virtme-ng")
def test_check_with_a_tree_boots_base_and_patched_kernels(repo: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """The whole `check --tree` path with the build step taken from the kernel cache.

    Building two kernels takes an hour on 2 cores (tests/verifier/test_kernel_build_slow.py does
    it), so Debian's own kernel image stands in for both cache entries: the keys are the
    real ones (base commit, b4's series, config), so a hit proves the thread was turned
    into the right pair; the guest then runs the claim's netperf under TCG."""
    mbox, cover = make_series(repo, tmp_path / "s7", GOOD, base_trailer=True, blurb=CLAIM)
    cache = tmp_path / "cache"
    monkeypatch.setenv("VERIFIER_KERNEL_CACHE", str(cache))
    monkeypatch.setenv("VERIFIER_VM_ACCEL", "tcg")
    base = git(repo, "rev-parse", "main")
    series = kernel.fetch_series(cover, tmp_path / "b4", mbox=mbox)
    image = sorted(Path("/boot").glob("vmlinuz-*"))[-1]
    keys = {"baseline": kernel.kernel_key(base, None, kernel.CONFIG_FRAGMENT),
            "candidate": kernel.kernel_key(base, series.digest(), kernel.CONFIG_FRAGMENT)}
    for key in keys.values():
        (cache / key).mkdir(parents=True)
        (cache / key / "bzImage").symlink_to(image)
    r = _check(str(mbox), "--tree", str(repo), "--duration", "1", "--max-runs", "2",
               "--no-calibrate", "--out", str(tmp_path / "o"))  # two runs: no band to set
    (res,) = (tmp_path / "o").glob("results-*.json")
    doc = json.loads(res.read_text())
    from runners.results import Results
    from verifier.exitcodes import for_results  # check exits by the verdict
    typed = Results.from_dict(doc)
    assert r.returncode == for_results(typed.status, typed.verdicts), r.stderr[-3000:]
    env = doc["environment"]
    assert env["series"]["base"] == base and env["series"]["message_id"] == cover
    assert env["series"]["images"] == {v: str(cache / k / "bzImage") for v, k in keys.items()}
    assert env["emulated"] is True and doc["status"] == "complete", doc.get("reason")
    ran = [x for x in doc["runs"] if not x["warmup"]]
    assert {x["variant"] for x in ran} == {"baseline", "candidate"}
    assert all(x["ok"] and x["samples"].get("transaction_rate", 0) > 0 for x in ran)
    assert all(v["verdict"] in ("INCONCLUSIVE", "NOT RUNNABLE HERE") for v in doc["verdicts"])
    report = " ".join(r.stdout.split())
    assert f"candidate: base + 2 patches of <{cover}>" in report
    assert "not valid for performance" in report
    assert "note: the variants differ by the patch itself" not in report  # it ran on kernels
    assert git(repo, "worktree", "list").count("\n") == 0
