"""What a killed command left behind, removed by the next command that starts.

A SIGKILLed `verifier run` or `check` cannot clean up: its namespaces and the netservers
in them, or the servers it started on this host, stay for good.  So everything this
project starts is recorded with its owner: each process `runners.process` spawns, and each
namespace a netns runner creates, gets a small file under the run directory naming the
owner's pid and that pid's start time (a reused pid is not the owner).  `sweep()` — called
at the start of every command that runs benchmarks — removes what a dead owner left:
process groups still alive are killed, namespaces deleted, records dropped.  Nothing
another live command owns is touched, and nothing this project did not record.
"""
from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
from collections.abc import Iterable
from pathlib import Path

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def run_dir() -> Path:
    """/run/verifier for root (a tmpfs: a reboot clears it with the namespaces), else the
    user's runtime directory."""
    env = os.environ.get("VERIFIER_RUN_DIR")
    if env:
        return Path(env)
    if os.geteuid() == 0:
        return Path("/run/verifier")
    return Path(os.environ.get("XDG_RUNTIME_DIR") or f"/tmp/verifier-{os.getuid()}") / "verifier"


def _start_time(pid: int) -> str | None:
    """The process's start time in clock ticks since boot (field 22 of /proc/PID/stat)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[-1].split()[19]


_ME: tuple[int, str | None] | None = None


def _me() -> str:
    global _ME
    if _ME is None or _ME[0] != os.getpid():  # a fork is another owner
        _ME = (os.getpid(), _start_time(os.getpid()))
    return f"{_ME[0]} {_ME[1]}"


def _alive(owner: str) -> bool:
    parts = owner.split()
    if len(parts) != 2 or not parts[0].isdigit():
        return False
    return _start_time(int(parts[0])) == parts[1]


def _write(kind: str, name: str, extra: str = "") -> None:
    try:
        d = run_dir() / kind
        d.mkdir(parents=True, exist_ok=True, mode=0o700)
        (d / name).write_text(f"{_me()}{extra}\n")
    except OSError:
        pass  # hygiene is best effort: a run must not fail for want of a record


def _drop(kind: str, name: str) -> None:
    with contextlib.suppress(OSError):
        (run_dir() / kind / name).unlink()


def own_process(pid: int) -> None:
    """Record a process group this process started (runners.process calls it)."""
    start = _start_time(pid)
    if start is not None:
        _write("procs", str(pid), f" {start}")


def release_process(pid: int) -> None:
    _drop("procs", str(pid))


def own_namespaces(names: Iterable[str]) -> None:
    """Record namespaces this process is about to create (the netns runner calls it)."""
    for name in names:
        if _NAME.match(name):
            _write("netns", name)


def sweep() -> list[str]:
    """Remove what dead owners left: their live process groups and their namespaces.
    Returns what was removed, one word each ('pid 123', 'netns pcv-ab12cd-c')."""
    removed: list[str] = []
    base = run_dir()
    for rec in _records(base / "procs"):
        text = _read(rec)
        parts = text.split()
        if len(parts) == 3 and _alive(" ".join(parts[:2])):
            continue
        if len(parts) == 3 and rec.name.isdigit() and _start_time(int(rec.name)) == parts[2]:
            with contextlib.suppress(OSError):
                os.killpg(int(rec.name), signal.SIGKILL)
                removed.append(f"pid {rec.name}")
        with contextlib.suppress(OSError):
            rec.unlink()
    for rec in _records(base / "netns"):
        if _alive(_read(rec)) or not _NAME.match(rec.name):
            continue
        if Path("/run/netns", rec.name).exists() and _delete_namespace(rec.name):
            removed.append(f"netns {rec.name}")
        with contextlib.suppress(OSError):
            rec.unlink()
    return removed


def _records(d: Path) -> list[Path]:
    try:
        return sorted(p for p in d.iterdir() if p.is_file())
    except OSError:
        return []


def _read(p: Path) -> str:
    try:
        return p.read_text()[:200]
    except OSError:
        return ""


def _delete_namespace(name: str) -> bool:
    try:
        pids = subprocess.run(["ip", "netns", "pids", name], capture_output=True, text=True,
                              timeout=30).stdout.split()
        for pid in pids:
            if pid.isdigit():
                with contextlib.suppress(OSError):
                    os.kill(int(pid), signal.SIGKILL)
        return subprocess.run(["ip", "netns", "del", name], capture_output=True,
                              timeout=30).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False
