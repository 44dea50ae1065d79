"""The one place that talks to b4. b4 has no stable library API (fetching moved from
in-tree requests code to liblore in 0.16), so we use its command line:
`b4 -q -n [-c b4.midmask=<inbox>/%s] mbox -C -o <tmpdir> -n thread.mbx <msgid|url>`.
Not `-o -`: b4 0.16 writes that mbox without quoting body lines that start with "From ",
so a reader splits one message in two (seen on a real virtualization-list thread).

With no inbox given, b4 uses its own configuration, so a user's `b4.midmask` holds.
"""
from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from verifier.fetch.errors import FetchError
from verifier.fetch.lore import check_mbox

TIMEOUT = 300


def git_midmask() -> str | None:
    """b4's `b4.midmask` from git config, or None."""
    if not shutil.which("git"):
        return None
    try:
        r = subprocess.run(["git", "config", "--get", "b4.midmask"], capture_output=True,
                           text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return r.stdout.strip() or None


def inbox_from_midmask(mask: str) -> str:
    """'https://host/list/%s' -> 'https://host/list' (b4 derives liblore's base the same way)."""
    base = mask.replace("%s", "").rstrip("/")
    return base


def b4_thread(target: str, inbox: str | None = None, msgid: str | None = None) -> bytes:
    """The thread of `target` (a Message-ID or a public-inbox URL) fetched by b4."""
    exe = shutil.which("b4")
    if exe is None:
        raise FetchError("b4 is not installed (pip install b4)")
    argv = [exe, "-q", "-n", "--no-stdin"]
    if inbox:
        argv += ["-c", f"b4.midmask={inbox.rstrip('/')}/%s"]
    with tempfile.TemporaryDirectory(prefix="verifier-b4-") as tmp:
        argv += ["mbox", "-C", "-o", tmp, "-n", "thread.mbx", target]
        try:
            r = subprocess.run(argv, capture_output=True, timeout=TIMEOUT,
                               stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise FetchError(f"b4 took longer than {TIMEOUT}s for {target}") from None
        out = Path(tmp) / "thread.mbx"
        data = out.read_bytes() if out.exists() else b""
    err = r.stderr.decode(errors="replace").strip().splitlines()
    if r.returncode != 0 or not data:
        why = err[-1] if err else f"exit status {r.returncode}"
        raise FetchError(f"b4 could not fetch {target}: {why}", not_found="404" in why)
    return check_mbox(data, f"b4 for {target}", msgid)
