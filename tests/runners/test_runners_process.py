"""runners.process: timeouts kill the whole process group, output is capped, all reaped."""
from __future__ import annotations

import os
import time

from runners.process import kill_all, run_argv, start_argv
from tests.runner_specs import pid_alive


def test_run_collects_output_and_status():
    res = run_argv(["printf", "a\\nb\\n"], timeout=5)
    assert res.ok and res.stdout == "a\nb\n" and res.returncode == 0
    bad = run_argv(["ls", "/nonexistent-dir"], timeout=5)
    assert not bad.ok and bad.returncode != 0 and "exit status" in bad.reason()


def test_no_shell_is_involved(tmp_path):
    canary = tmp_path / "canary"
    res = run_argv(["echo", f"x; touch {canary}", f"$(touch {canary})"], timeout=5)
    assert res.ok and "touch" in res.stdout
    assert not canary.exists()


def test_missing_program_is_a_reason_not_a_traceback():
    res = run_argv(["/nonexistent/program"], timeout=5)
    assert not res.ok and res.error and res.error.startswith("cannot start")


def test_timeout_kills_the_whole_group(tmp_path):
    pidfile = tmp_path / "pids"
    # The shell here is the test's own fixed script: a child and a grandchild that both
    # outlive their parent unless the process group is killed.
    script = f"sleep 60 & echo $! > {pidfile}; sleep 60"
    t0 = time.monotonic()
    res = run_argv(["sh", "-c", script], timeout=1)
    assert res.timed_out and not res.ok and "timed out" in res.reason()
    assert time.monotonic() - t0 < 10
    child = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while pid_alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not pid_alive(child)


def test_output_cap():
    res = run_argv(["head", "-c", "1000000", "/dev/zero"], timeout=10, output_cap=1000)
    assert res.ok and res.truncated and len(res.stdout) == 1000


def test_background_stop_and_kill_all():
    a = start_argv(["sleep", "60"])
    b = start_argv(["sleep", "60"])
    assert a.alive() and b.alive()
    a.stop()
    a.stop()  # idempotent
    assert not a.alive() and not pid_alive(a.proc.pid)
    kill_all()
    assert not b.alive() and not pid_alive(b.proc.pid)
    assert os.getpgid(os.getpid()) != a.proc.pid
