"""The flows that moved out of `verifier worker` and `verifier serve` (verifier.fleet_worker,
verifier.serve.serve_state), run through the real command line: what they print and their
exit status, for the paths no other test takes."""
from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "verifier", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=120)


def _one_line_error(r: subprocess.CompletedProcess[str], needle: str) -> None:
    assert r.returncode == 2, r
    assert r.stderr.count("\n") == 1 and needle in r.stderr and "Traceback" not in r.stderr


def test_worker_prints_what_it_would_advertise(tmp_path: Path) -> None:
    """--print-tags: the host's own resource, the one-benchmark slot and the operator's
    tags, without joining any scheduler (port 1 answers nothing)."""
    r = _cli("worker", "--scheduler", "tcp://127.0.0.1:1", "--no-probe", "--host-name", "lab9",
             "--tags", "nic=veth,cpu=test", "--print-tags", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["bench", "cpu=test", "host-lab9", "nic=veth"]
    r = _cli("worker", "--scheduler", "tcp://127.0.0.1:1", "--no-probe", "--runner", "ssh",
             "--print-tags", cwd=tmp_path)
    _one_line_error(r, "verifier worker: --runner ssh needs --pair client=HOST,server=HOST")
    r = _cli("worker", "--scheduler", "tcp://127.0.0.1:1", "--runner", "ssh", "--pair",
             "client", "--print-tags", cwd=tmp_path)
    _one_line_error(r, "--pair: 'client' is not ROLE=HOST")


def test_serve_says_why_it_cannot_start(tmp_path: Path) -> None:
    state = tmp_path / "state.sqlite"
    r = _cli("serve", "--state", str(state), "--port", "70000", cwd=tmp_path)
    _one_line_error(r, "verifier serve: bad --port 70000")
    r = _cli("serve", "--config", str(tmp_path / "missing.toml"), cwd=tmp_path)
    _one_line_error(r, "verifier serve: ")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        r = _cli("serve", "--state", str(state), "--port", str(port), cwd=tmp_path)
    _one_line_error(r, f"verifier serve: cannot listen on 127.0.0.1:{port}: ")
