"""Issue 15, item 6: no listener beyond loopback unless configured.  A scheduler and a
`verifier worker` started as docs/fleet.md says: every port their processes listen on is
on 127.0.0.1 or ::1.  On main the worker listened on 0.0.0.0 (its comm port and dask's
HTTP server, which runs even with dashboard=False) and the scheduler's HTTP server was on
0.0.0.0:8787 despite --no-dashboard."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from runners.fleet_lab import LocalLab, descendants
from tests.paths import ROOT


def _listening(pids: set[int]) -> list[str]:
    """'addr:port' of every TCP listener whose socket belongs to one of `pids`."""
    inodes: dict[str, int] = {}
    for pid in pids:
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                try:
                    target = os.readlink(f"/proc/{pid}/fd/{fd}")
                except OSError:
                    continue
                if target.startswith("socket:["):
                    inodes[target[8:-1]] = pid
        except OSError:
            continue
    out = []
    for table, v6 in (("/proc/net/tcp", False), ("/proc/net/tcp6", True)):
        for line in Path(table).read_text().splitlines()[1:]:
            f = line.split()
            if f[3] != "0A" or f[9] not in inodes:  # 0A: LISTEN
                continue
            addr, port = f[1].split(":")
            out.append(f"{_addr(addr, v6)}:{int(port, 16)}")
    return out


def _addr(hexaddr: str, v6: bool) -> str:
    import ipaddress
    import struct

    raw = bytes.fromhex(hexaddr)
    if not v6:
        return str(ipaddress.IPv4Address(struct.pack("<I", struct.unpack(">I", raw)[0])))
    words = struct.unpack("<4I", raw)
    return str(ipaddress.IPv6Address(struct.pack(">4I", *words)))


def test_lab_processes_listen_on_loopback_only() -> None:
    env_path = os.environ.get("PYTHONPATH", "")
    os.environ["PYTHONPATH"] = f"{ROOT}{os.pathsep}{env_path}" if env_path else str(ROOT)
    with LocalLab() as lab:
        lab.start_scheduler()
        worker = lab.add_worker("ports1")
        pids = {p.pid for p in lab.procs.values()}
        for p in list(pids):
            pids.update(descendants(p))
        ports = _listening(pids)
        assert len(ports) >= 3, ports  # scheduler comm + http, worker comm + http
        outside = [p for p in ports if not p.startswith(("127.", "::1:", "::ffff:127."))]
        assert not outside, f"listening beyond loopback: {outside}"
        assert worker.poll() is None


def test_worker_refuses_a_bad_scheduler_address_in_one_line(tmp_path: Path) -> None:
    # a run directory of its own: what an earlier test left and this command's sweep
    # removes would be a line of its own (runners.hygiene), and not this test's business
    env = dict(os.environ, PYTHONPATH=str(ROOT), VERIFIER_RUN_DIR=str(tmp_path / "run"))
    for cmd in (["worker", "--scheduler", "bogus://"], ["fleet", "--scheduler", "bogus://", "--hosts"],
                ["fleet", "x.yaml", "--scheduler", "tcp://nohost"],
                ["check", "x.mbox", "--runner", "fleet", "--scheduler", "bogus://"]):
        r = subprocess.run([sys.executable, "-m", "verifier", *cmd], capture_output=True,
                           text=True, timeout=120, env=env, cwd=tmp_path)
        assert r.returncode == 2 and r.stderr.count("\n") == 1, (cmd, r.stderr)
        assert "scheduler" in r.stderr and "Traceback" not in r.stderr
