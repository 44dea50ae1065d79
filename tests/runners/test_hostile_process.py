"""Issue 15, process hygiene: a SIGKILLed command's servers and namespaces are removed by
the next start; SIGTERM stops the bot cleanly; one bot per state file.

Root only (namespaces).  Each test uses its own run directory (VERIFIER_RUN_DIR) so it
never sees another test's records."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.botkit import bot_config
from tests.paths import ROOT

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="needs root for namespaces")


def _env(run_dir: Path) -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT), VERIFIER_RUN_DIR=str(run_dir))


def _netns() -> set[str]:
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    return {ln.split()[0] for ln in out.splitlines() if ln.split()}


def test_next_start_removes_what_a_killed_run_left(tmp_path: Path, monkeypatch) -> None:
    """On main a SIGKILLed `verifier run` left its namespaces and servers for good."""
    child = textwrap.dedent("""
        import sys, time
        from runners.netns import NetnsRunner
        from runners.process import start_argv
        r = NetnsRunner(prefix="pcvh")
        r.setup()
        r.start("server", ["sleep", "300"])
        host = start_argv(["sleep", "301"])
        print(" ".join(r.ns.values()), host.proc.pid, flush=True)
        time.sleep(300)
    """)
    proc = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, text=True,
                            env=_env(tmp_path), cwd=tmp_path)
    try:
        line = proc.stdout.readline().split()  # type: ignore[union-attr]
        c, s, pid = line[0], line[1], int(line[2])
        assert {c, s} <= _netns()
        proc.kill()
        proc.wait(10)
        assert os.path.exists(f"/proc/{pid}")  # the killed owner left them
        monkeypatch.setenv("VERIFIER_RUN_DIR", str(tmp_path))
        from runners.hygiene import sweep

        removed = sweep()
        assert f"netns {c}" in removed and f"netns {s}" in removed
        assert not {c, s} & _netns()
        time.sleep(0.2)
        assert not os.path.exists(f"/proc/{pid}") or "Z" in Path(f"/proc/{pid}/stat").read_text()
        assert sweep() == []  # nothing twice; records gone
    finally:
        proc.kill()
        for ns in [n for n in _netns() if n.startswith("pcvh-")]:
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)


def test_sweep_leaves_a_live_owner_alone(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("VERIFIER_RUN_DIR", str(tmp_path))
    from runners import hygiene
    from runners.process import start_argv

    bg = start_argv(["sleep", "30"])
    try:
        assert hygiene.sweep() == []
        assert bg.alive()
    finally:
        bg.stop()
    assert not list((tmp_path / "procs").iterdir())


def _bot_cfg(tmp_path: Path) -> Path:
    return bot_config(tmp_path / "bot.toml", "http://127.0.0.1:9/netdev", "")


def test_second_bot_on_one_state_file_refuses_in_one_line(tmp_path: Path) -> None:
    cfg = _bot_cfg(tmp_path)
    cmd = [sys.executable, "-m", "verifier", "bot", "--config", str(cfg)]
    first = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                             env=_env(tmp_path), cwd=tmp_path)
    try:
        deadline = time.monotonic() + 30
        while not (tmp_path / "state.sqlite.bot.lock").exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(0.5)
        second = subprocess.run(cmd + ["--once"], capture_output=True, text=True, timeout=60,
                                env=_env(tmp_path), cwd=tmp_path)
        assert second.returncode == 2 and second.stderr.count("\n") == 1, second.stderr
        assert "another bot" in second.stderr
        first.send_signal(signal.SIGTERM)
        assert first.wait(30) == 143  # 128 + SIGTERM
        err = first.stderr.read()  # type: ignore[union-attr]
        assert "Traceback" not in err and "stopped by signal" in err, err
    finally:
        first.kill()
