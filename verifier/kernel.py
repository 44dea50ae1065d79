"""From a patch thread to two kernels: the base and the base with the series applied.

The base is the series' `base-commit:` trailer when it has one, else the tree its subject
prefix names (`[PATCH net-next]` -> the user's net-next branch), unless the user names a
commit.  The series comes from b4 (`b4 am`, from a local mbox or through `b4.midmask`) and
is applied with `git am` in a `git worktree`, so the user's own checkout is never touched.
A series that does not apply is `NotApplicable("does not apply to <base>: <git am's
reason>")`, which the caller reports as "not runnable".  Kernels are built with
`vng --build` plus the config the benchmarks need and cached by (commit, series, config).
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# What netdev benchmarks need in a vng kernel (everything built in: no modules to load).
CONFIG_FRAGMENT = """\
CONFIG_NET_NS=y
CONFIG_VETH=y
CONFIG_DUMMY=y
CONFIG_BONDING=y
CONFIG_NET_SCHED=y
CONFIG_NET_SCH_NETEM=y
CONFIG_NET_SCH_FQ=y
CONFIG_NET_SCH_FQ_CODEL=y
CONFIG_TCP_CONG_CUBIC=y
CONFIG_IPV6=y
CONFIG_PERF_EVENTS=y
"""
TREE_PREFIXES = ("net-next", "net", "bpf-next", "bpf")
_BASE_RE = re.compile(r"(?m)^base-commit:\s*([0-9a-f]{7,40})\s*$")
_SUBJECT_TREE = re.compile(r"\[[^\]]*?\b(" + "|".join(TREE_PREFIXES) + r")\b[^\]]*\]")
_GIT_ENV = {"GIT_COMMITTER_NAME": "verifier", "GIT_COMMITTER_EMAIL": "verifier@localhost",
            "GIT_AUTHOR_NAME": "verifier", "GIT_AUTHOR_EMAIL": "verifier@localhost"}


class KernelError(RuntimeError):
    """The kernels cannot be prepared (no base, b4 or build failure); one-line message."""


class NotApplicable(KernelError):
    """The series does not apply to its base: a 'not runnable' verdict, not a crash."""


@dataclass
class Series:
    """A series as b4 prepared it: the patches (`.mbx`) and what the mails say of its base."""

    mbx: Path
    subject: str
    base_commit: str | None
    tree: str | None
    patches: int
    b4_log: str = ""
    message_id: str = ""  # what b4 was asked for

    def digest(self) -> str:
        return hashlib.sha256(self.mbx.read_bytes()).hexdigest()[:16]


@dataclass
class Trees:
    """Two worktrees of the user's repository: base and base + series."""

    repo: Path
    base_sha: str
    base_why: str  # "base-commit: trailer", "net-next branch", "given by the user"
    base: Path
    patched: Path
    series: Series
    notes: list[str] = field(default_factory=list)

    def remove(self) -> None:
        """Drop both worktrees (the user's checkout and branches are untouched).  Never
        raises: it runs in `finally` blocks, where it must not hide the real error.
        Deleting the directories and pruning is much faster than `git worktree remove`
        on a kernel tree."""
        for wt in (self.patched, self.base):
            shutil.rmtree(wt, ignore_errors=True)
        try:
            _git(self.repo, "worktree", "prune", check=False)
        except KernelError:
            pass


def _git(repo: Path, *args: str, check: bool = True, timeout: float = 300
         ) -> subprocess.CompletedProcess[str]:
    try:
        r = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True,
                           timeout=timeout, env={**os.environ, **_GIT_ENV})
    except subprocess.TimeoutExpired:
        raise KernelError(f"git {args[0]} timed out after {timeout:g} s") from None
    if check and r.returncode != 0:
        raise KernelError(f"git {' '.join(args[:2])}: {_last(r.stderr or r.stdout)}")
    return r


def _last(text: str, n: int = 1) -> str:
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    return "; ".join(lines[-n:]) or "no output"


def midmask_for(inbox: str | None) -> str | None:
    """b4's `b4.midmask` for a public-inbox URL given as --inbox (`URL/%s`), or None."""
    if not inbox:
        return None
    return inbox if "%s" in inbox else inbox.rstrip("/") + "/%s"


def tree_from_subject(subject: str) -> str | None:
    """`[PATCH net-next v2 0/3] ...` -> "net-next"; None when the prefix names no tree."""
    m = _SUBJECT_TREE.search(subject or "")
    return m.group(1) if m else None


def fetch_series(target: str, out: Path, mbox: Path | None = None,
                 midmask: str | None = None, subject: str | None = None,
                 timeout: float = 300) -> Series:
    """`b4 am` the series of `target` (a Message-ID) into `out`, from `mbox` when given,
    else from b4's configured archive (`midmask`, e.g. a local public-inbox).

    b4 drops the tree from the subjects it writes, so the tree comes from `subject` (the
    thread's, as the caller read it) or from the original mails in `mbox`."""
    if shutil.which("b4") is None:
        raise KernelError("b4 is not installed")
    argv = ["b4", "-n", "--no-stdin"]
    if mbox is not None:
        argv.append("--offline-mode")  # a local mbox: no trailer look-ups on lore
    if midmask:
        argv += ["-c", f"b4.midmask={midmask}"]
    argv += ["am", "-o", str(out)]
    if mbox is not None:
        argv += ["-m", str(mbox)]
    if target:
        argv.append(target.strip("<>"))
    out.mkdir(parents=True, exist_ok=True)
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=timeout,
                           cwd=out, env={**os.environ, "XDG_CACHE_HOME": str(out / ".cache")})
    except subprocess.TimeoutExpired:
        raise KernelError(f"b4 am timed out after {timeout:g} s") from None
    log = (r.stdout + r.stderr).strip()
    mbxs = sorted(out.glob("*.mbx"))
    if r.returncode != 0 or not mbxs:
        raise KernelError(f"b4 am found no series for {target or mbox}: {_last(log, 2)}")
    text = "".join(p.read_text(errors="replace") for p in [*out.glob("*.cover"), *mbxs])
    if mbox is not None:
        text += mbox.read_text(errors="replace")
    base = _BASE_RE.search(text)
    subjects = re.findall(r"(?m)^Subject: (.*)$", mbxs[0].read_text(errors="replace"))
    originals = [subject or ""] + re.findall(r"(?m)^Subject: (.*)$", text)
    tree = next(filter(None, map(tree_from_subject, originals)), None)
    return Series(mbx=mbxs[0], subject=subject or (subjects[0] if subjects else ""),
                  base_commit=base.group(1) if base else None, tree=tree,
                  patches=len(subjects), b4_log=log, message_id=target.strip("<>"))


def _resolve(repo: Path, ref: str) -> str | None:
    r = _git(repo, "rev-parse", "--verify", "-q", f"{ref}^{{commit}}", check=False)
    return r.stdout.strip() if r.returncode == 0 else None


def resolve_base(repo: Path, series: Series, override: str | None = None) -> tuple[str, str]:
    """(commit, why) of the base: the user's override, the base-commit trailer, or the
    tree the subject names (its branch or remote-tracking branch in `repo`)."""
    if override:
        sha = _resolve(repo, override)
        if sha is None:
            raise KernelError(f"base {override!r} is not a commit in {repo}")
        return sha, f"{override} (given by the user)"
    if series.base_commit:
        sha = _resolve(repo, series.base_commit)
        if sha is None:
            raise KernelError(f"base-commit {series.base_commit} is not in {repo}: fetch it, "
                              "or name a base with --base")
        return sha, f"base-commit {series.base_commit[:12]} (from the series)"
    if series.tree:
        for ref in (series.tree, f"{series.tree}/main", f"{series.tree}/master",
                    f"origin/{series.tree}"):
            sha = _resolve(repo, ref)
            if sha is not None:
                return sha, f"{ref} (the subject names {series.tree})"
        raise KernelError(f"the series is for {series.tree} but {repo} has no {series.tree} "
                          "branch: add the remote, or name a base with --base")
    raise KernelError("the series names no base-commit and no tree: name a base with --base")


def prepare_trees(repo: Path, series: Series, workdir: Path,
                  base: str | None = None) -> Trees:
    """Worktrees of the base and of base + series under `workdir`; NotApplicable when
    `git am` refuses a patch (both worktrees are removed again)."""
    repo = Path(repo).expanduser().resolve()
    if _resolve(repo, "HEAD") is None and not (repo / ".git").exists():
        raise KernelError(f"{repo} is not a git repository")
    sha, why = resolve_base(repo, series, base)
    workdir.mkdir(parents=True, exist_ok=True)
    base_dir = Path(tempfile.mkdtemp(prefix="base-", dir=workdir))
    patched = Path(tempfile.mkdtemp(prefix="patched-", dir=workdir))
    trees = Trees(repo, sha, why, base_dir, patched, series)
    try:
        _git(repo, "worktree", "add", "--detach", "-f", str(base_dir), sha)
        _git(repo, "worktree", "add", "--detach", "-f", str(patched), sha)
        r = _git(patched, "am", str(series.mbx), check=False, timeout=600)
        if r.returncode != 0:
            failed = re.search(r"(?m)^Patch failed at (.*)$", r.stdout + r.stderr)
            errors = re.findall(r"(?m)^error: (.*)$", r.stderr + r.stdout)
            _git(patched, "am", "--abort", check=False)
            why_not = "; ".join(filter(None, [failed.group(1) if failed else None,
                                              *errors[:2]])) or _last(r.stderr + r.stdout)
            raise NotApplicable(f"does not apply to {sha[:12]} ({why}): {why_not}")
    except BaseException:
        trees.remove()
        raise
    return trees


def kernel_key(commit: str, series_digest: str | None, config: str) -> str:
    """Cache key of a built kernel: base commit, series content, config fragment."""
    h = hashlib.sha256(f"{commit}\n{series_digest or ''}\n{config}".encode())
    return h.hexdigest()[:20]


def cache_dir() -> Path:
    root = os.environ.get("VERIFIER_KERNEL_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "verifier", "kernels")
    return Path(root)


def build_kernel(tree: Path, key: str, config: str = CONFIG_FRAGMENT,
                 timeout: float = 7200, jobs: int | None = None) -> Path:
    """`vng --build` in `tree` with `config`, the bzImage cached under `key`; a cached
    image is returned without building.  KernelError with the log's tail on failure."""
    cached = cache_dir() / key / "bzImage"
    if cached.is_file():
        return cached
    if shutil.which("vng") is None:
        raise KernelError("virtme-ng (vng) is not installed")
    frag = tree / ".verifier-config"
    frag.write_text(config)
    argv = ["vng", "--build", "--config", str(frag)]
    if jobs:
        argv += ["--jobs", str(jobs)]
    log = tree / ".verifier-build.log"
    with open(log, "wb") as f:
        proc = subprocess.Popen(argv, cwd=tree, stdin=subprocess.DEVNULL, stdout=f,
                                stderr=subprocess.STDOUT, start_new_session=True)
        try:
            rc = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            raise KernelError(f"kernel build timed out after {timeout:g} s") from None
        except BaseException:  # interrupted: no make may go on writing into a removed tree
            _kill_group(proc)
            raise
    image = tree / "arch" / "x86" / "boot" / "bzImage"
    if rc != 0 or not image.is_file():
        tail = _last(log.read_text(errors="replace"), 3)
        raise KernelError(f"kernel build failed in {tree} (exit {rc}): {tail}")
    cached.parent.mkdir(parents=True, exist_ok=True)
    tmp = cached.with_suffix(".tmp")
    shutil.copyfile(image, tmp)
    os.replace(tmp, cached)
    return cached


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, 9)
    except ProcessLookupError:
        pass
    proc.wait()


def build_both(trees: Trees, config: str = CONFIG_FRAGMENT, jobs: int | None = None
               ) -> dict[str, Path]:
    """{"baseline": bzImage, "candidate": bzImage} for the vm runner's --kernel map.

    The candidate is built in the base's worktree after the base, with the series applied
    there: make then recompiles only what the series touches (minutes, not a second full
    build).  The patched worktree proved that the series applies."""
    base_key = kernel_key(trees.base_sha, None, config)
    cand_key = kernel_key(trees.base_sha, trees.series.digest(), config)
    images = {"baseline": build_kernel(trees.base, base_key, config, jobs=jobs)}
    if not (cache_dir() / cand_key / "bzImage").is_file():
        r = _git(trees.base, "am", str(trees.series.mbx), check=False, timeout=600)
        if r.returncode != 0:  # cannot happen after prepare_trees; build the other tree
            _git(trees.base, "am", "--abort", check=False)
            return {**images, "candidate": build_kernel(trees.patched, cand_key, config,
                                                        jobs=jobs)}
    images["candidate"] = build_kernel(trees.base, cand_key, config, jobs=jobs)
    return images


@dataclass
class Kernels:
    """What `kernels_for` made: the images by variant, and how it got them."""

    images: dict[str, Path]
    base_sha: str
    base_why: str
    series: Series

    def kernel_args(self) -> list[str]:
        """The `verifier run --runner vm` arguments that boot these kernels."""
        return [a for v, p in self.images.items() for a in ("--kernel", f"{v}={p}")]

    def summary(self) -> dict[str, Any]:
        """What a results file says of the pair (`environment["series"]`, the report's
        "kernels" row)."""
        return {"message_id": self.series.message_id, "subject": self.series.subject,
                "patches": self.series.patches, "base": self.base_sha,
                "base_why": self.base_why, "images": {k: str(v) for k, v in self.images.items()}}


def kernels_for(target: str, tree: Path, workdir: Path, *, mbox: Path | None = None,
                midmask: str | None = None, subject: str | None = None,
                base: str | None = None, config: str = CONFIG_FRAGMENT,
                jobs: int | None = None, keep_trees: bool = False) -> Kernels:
    """Thread -> base and patched kernels, built (or taken from the cache).

    Raises NotApplicable ("does not apply to <base>: ...") when the series does not apply,
    KernelError for everything else that stops it (no base, b4, build failure)."""
    series = fetch_series(target, workdir / "b4", mbox=mbox, midmask=midmask, subject=subject)
    trees = prepare_trees(tree, series, workdir / "trees", base=base)
    try:
        images = build_both(trees, config, jobs)
    finally:
        if not keep_trees:
            trees.remove()
    return Kernels(images, trees.base_sha, trees.base_why, series)


def series_target(specs: list[Any], fallback: str | None) -> str | None:
    """The Message-ID of the series the specs' candidates need (the first named), else
    `fallback` (the thread's root: a cover letter names its whole series to b4)."""
    for spec in specs:
        for v in spec.variants:
            if v.kernel is not None and v.kernel.series:
                return str(v.kernel.series)
    return fallback


def variant_images(spec: Any, k: Kernels) -> dict[str, str]:
    """Which built kernel each of the spec's variants boots.

    Variants that need the series boot the patched kernel and the others the base; when
    no variant names the series (the variants differ by a knob, which the series often
    adds), every variant boots the patched kernel, so the knob exists in all of them."""
    needs = {v.name for v in spec.variants if v.kernel is not None and v.kernel.series}
    base, cand = str(k.images["baseline"]), str(k.images["candidate"])
    return {v.name: cand if (v.name in needs or not needs) else base for v in spec.variants}


def as_mbox(path: Path, out: Path) -> Path:
    """`path` itself when it is an mbox, else a one-message mbox of it in `out` (b4 reads
    only mboxes and maildirs; a saved .eml or a draft with headers is one message)."""
    with open(path, "rb") as f:
        if f.read(5) == b"From ":
            return path
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(b"From mboxrd@z Thu Jan  1 00:00:00 1970\n" + path.read_bytes())
    return out
