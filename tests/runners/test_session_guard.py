"""The session guard: a command started in its own session dies with the process that
started it, however that process ends (runners.session_guard; the VM runner boots vng so)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

from runners import session_guard
from tests.paths import ROOT

# A parent that starts `sleep` under the guard, prints the group's pid and waits.
PARENT = textwrap.dedent("""
    import subprocess, sys, time
    from runners import session_guard
    proc, guard = session_guard.spawn(["sleep", "300"], stdin=subprocess.DEVNULL)
    print(proc.pid, flush=True)
    time.sleep(300)
""")


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def _gone_within(pgid: int, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not _group_alive(pgid):
            return True
        time.sleep(0.05)
    return False


def _killed_parent_leaves_nothing(script: str) -> None:
    """Run `script` (it prints the process group it started), SIGKILL it so none of its
    cleanup code runs, and require that group gone within 10 s."""
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                              cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert parent.stdout is not None
    pgid = int(parent.stdout.readline())
    try:
        assert _group_alive(pgid), "the guarded command did not start"
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
        assert _gone_within(pgid, 10), "the guarded session outlived its parent"
    finally:
        parent.kill()
        parent.wait()
        if _group_alive(pgid):
            os.killpg(pgid, signal.SIGKILL)


def test_the_group_dies_when_its_parent_is_killed() -> None:
    _killed_parent_leaves_nothing(PARENT)


def test_closing_the_pipe_kills_it_and_a_normal_exit_keeps_its_code() -> None:
    proc, guard = session_guard.spawn(["sleep", "300"], stdin=subprocess.DEVNULL)
    assert os.getpgid(proc.pid) == proc.pid  # its own group, led by the guard
    os.close(guard)
    proc.wait(timeout=10)
    assert _gone_within(proc.pid, 10)
    proc, guard = session_guard.spawn(["sh", "-c", "exit 3"], stdin=subprocess.DEVNULL)
    try:
        assert proc.wait(timeout=10) == 3
    finally:
        os.close(guard)


# A parent that starts a fleet lab's dask scheduler, prints its process group and waits.
LAB_PARENT = textwrap.dedent("""
    import time
    from runners.fleet_lab import LocalLab
    lab = LocalLab()
    lab.start_scheduler(timeout=60)
    print(lab.procs["scheduler"].pid, flush=True)
    time.sleep(300)
""")


def test_a_fleet_labs_scheduler_dies_with_the_process_that_started_it() -> None:
    """runners.fleet_lab starts dask in sessions of their own; a test killed by a timeout
    must not leave a scheduler listening on loopback for ever."""
    _killed_parent_leaves_nothing(LAB_PARENT)
