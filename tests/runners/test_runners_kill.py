"""Killing `verifier run` mid-run (SIGINT, SIGTERM) leaves no namespace, no process and no
changed setting behind, and keeps the runs measured so far as "interrupted"."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.paths import ROOT
from tests.runner_specs import children, comm, netns_names, pid_alive, seed001, stop, wait_for

pytestmark = pytest.mark.root
LO_GRO = "/sys/class/net/lo/tx_queue_len"  # a knob lo has (gro_flush_timeout cannot act)


def start_run(tmp_path: Path, runner: str, values: tuple[str, str]) -> subprocess.Popen:
    spec = tmp_path / "spec.yaml"
    spec.write_text(seed001(duration=2, reps=20, values=values, attr="tx_queue_len").to_yaml())
    return subprocess.Popen(
        [sys.executable, "-m", "verifier", "run", str(spec), "--runner", runner, "--quiet",
         "-o", str(tmp_path / "results.json")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def finish(proc: subprocess.Popen, sig: int, tmp_path: Path) -> dict:
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err.decode()
    assert b"Traceback" not in err
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["status"] == "interrupted"
    return results


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_kill_netns_run(tmp_path, sig):
    before = netns_names()
    proc = start_run(tmp_path, "netns", ("1001", "1002"))
    try:
        ours = wait_for(lambda: {n for n in netns_names() - before if n.startswith("pcv-")}
                        if len(netns_names() - before) >= 2 else None)
        server_ns = next(n for n in ours if n.endswith("-s"))
        inside = wait_for(lambda: subprocess.run(
            ["ip", "netns", "pids", server_ns], capture_output=True, text=True).stdout.split())
        time.sleep(1.5)  # a client run is in flight now
        pids = [int(p) for p in inside] + children(proc.pid)
        finish(proc, sig, tmp_path)
    finally:
        stop(proc)
        for name in {n for n in netns_names() - before if n.startswith("pcv-")}:  # never leak
            subprocess.run(["ip", "netns", "del", name], check=False)
    assert not ours & netns_names()
    assert not [p for p in pids if pid_alive(p)]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_kill_local_run_restores_sysfs(tmp_path, sig):
    original = Path(LO_GRO).read_text().strip()
    proc = start_run(tmp_path, "local", ("1001", "1002"))
    try:
        wait_for(lambda: Path(LO_GRO).read_text().strip() in ("1001", "1002"))
        servers = wait_for(lambda: [p for p in children(proc.pid)
                                    if comm(p) == "netserver"])
        argv = Path(f"/proc/{servers[0]}/cmdline").read_bytes().split(b"\0")
        port = argv[argv.index(b"-p") + 1].decode()
        time.sleep(1.0)
        pids = servers + children(proc.pid)
        results = finish(proc, sig, tmp_path)
    finally:
        stop(proc)
    assert Path(LO_GRO).read_text().strip() == original
    assert not [p for p in pids if pid_alive(p)]
    # nothing serves our port any more, not even netserver's per-test children
    assert subprocess.run(["pgrep", "-f", f"^netserver -D -p {port}$"],
                          capture_output=True, text=True).stdout.split() == []
    assert any(t["target"] == LO_GRO for t in results["environment"]["touched"])
