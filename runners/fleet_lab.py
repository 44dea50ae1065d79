"""A lab on one machine: a dask scheduler and fleet workers as real subprocesses on loopback.

The tests and bench/fleet_dispatch.py need the real thing (separate processes that can be
killed with SIGKILL), not an in-process cluster.  Every process lives in its own process
group and `close()` kills the groups; each group also runs under runners.session_guard, so
it dies with the process that started the lab even when that process is killed without
cleaning up (a test stopped by a timeout), and nothing outlives the lab.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from runners import hygiene, session_guard
from runners.fleet_host import FleetError


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class TLSFiles:
    """A CA and certificates for the scheduler, the workers and the client."""

    ca: str
    cert: str  # one certificate for every party: the lab's own CA signs it
    key: str


def make_tls(directory: str | os.PathLike[str]) -> TLSFiles:
    """Generate a throw-away CA and a certificate for 127.0.0.1 with the openssl CLI."""
    d = Path(directory)

    def ssl(*args: str) -> None:
        subprocess.run(["openssl", *args], check=True, capture_output=True, timeout=60)

    ssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=lab-ca",
        "-keyout", str(d / "ca.key"), "-out", str(d / "ca.pem"))
    ssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=lab", "-keyout", str(d / "lab.key"),
        "-out", str(d / "lab.csr"))
    (d / "ext.cnf").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    ssl("x509", "-req", "-in", str(d / "lab.csr"), "-CA", str(d / "ca.pem"), "-CAkey",
        str(d / "ca.key"), "-CAcreateserial", "-days", "2", "-extfile", str(d / "ext.cnf"),
        "-out", str(d / "lab.pem"))
    return TLSFiles(str(d / "ca.pem"), str(d / "lab.pem"), str(d / "lab.key"))


@dataclass
class LocalLab:
    """`with LocalLab() as lab: lab.add_worker("lab1", "nic=mlx5")` then FleetRunner(lab.address)."""

    tls: TLSFiles | None = None
    procs: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    guards: dict[str, int] = field(default_factory=dict)  # name -> the guard pipe's write end
    address: str = ""
    logdir: str = field(default_factory=lambda: tempfile.mkdtemp(prefix="fleet-lab-"))

    def _spawn(self, name: str, argv: list[str]) -> subprocess.Popen[bytes]:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        if self.tls is not None:
            env["DASK_DISTRIBUTED__COMM__REQUIRE_ENCRYPTION"] = "True"
        log = open(os.path.join(self.logdir, f"{name}.log"), "ab")
        try:
            proc, guard = session_guard.spawn(argv, stdout=log, stderr=subprocess.STDOUT, env=env,
                                              stdin=subprocess.DEVNULL)
        finally:
            log.close()
        self.procs[name] = proc
        self.guards[name] = guard
        return proc

    def log(self, name: str) -> str:
        try:
            return Path(self.logdir, f"{name}.log").read_text(errors="replace")
        except OSError:
            return ""

    def start_scheduler(self, timeout: float = 30.0) -> str:
        if "scheduler" in self.procs:  # a second one would replace, and so orphan, the first
            self.kill("scheduler")
        port = free_port()
        argv = [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                "--port", str(port), "--no-dashboard", "--dashboard-address", "127.0.0.1:0"]
        scheme = "tcp"
        if self.tls is not None:
            scheme = "tls"
            argv += ["--protocol", "tls", "--tls-ca-file", self.tls.ca, "--tls-cert",
                     self.tls.cert, "--tls-key", self.tls.key]
        proc = self._spawn("scheduler", argv)
        self.address = f"{scheme}://127.0.0.1:{port}"
        self._wait(lambda: _listening(port), proc, "scheduler", timeout)
        return self.address

    def add_worker(self, name: str, tags: str = "", probe: bool = False,
                   wait: bool = True, timeout: float = 30.0,
                   extra: list[str] | None = None) -> subprocess.Popen[bytes]:
        argv = [sys.executable, "-m", "verifier", "worker", "--scheduler", self.address,
                "--host-name", name, "--tags", tags, "--listen", "127.0.0.1", *(extra or [])]
        if not probe:
            argv.append("--no-probe")
        if self.tls is not None:
            argv += ["--tls-ca", self.tls.ca, "--tls-cert", self.tls.cert, "--tls-key",
                     self.tls.key]
        proc = self._spawn(name, argv)
        if wait:
            self._wait(lambda: "joined" in self.log(name), proc, name, timeout)
        return proc

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        """Kill one process's group (a crash, when sig is SIGKILL) and, with SIGKILL, the
        benchmark processes it started in sessions of their own, which would outlive it:
        those found as its descendants, then those its records name (runners.hygiene), as
        the next command would: one started after the descendants were listed is found
        only so."""
        proc = self.procs.pop(name, None)
        guard = self.guards.pop(name, None)
        if proc is None:
            return
        orphans = descendants(proc.pid) if sig == signal.SIGKILL else []
        for pid in [proc.pid, *orphans]:
            try:
                os.killpg(pid, sig) if pid == proc.pid else os.kill(pid, sig)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        finally:
            if guard is not None:
                os.close(guard)
        if sig == signal.SIGKILL:
            hygiene.sweep()

    def close(self) -> None:
        for name in [n for n in self.procs if n != "scheduler"] + ["scheduler"]:
            self.kill(name)

    def __enter__(self) -> LocalLab:
        try:
            self.start_scheduler()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _wait(self, ready, proc: subprocess.Popen[bytes], name: str, timeout: float) -> None:  # type: ignore[no-untyped-def]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if ready():
                return
            if proc.poll() is not None:
                raise FleetError(f"{name} exited ({proc.returncode}): "
                                 f"{self.log(name).strip()[-300:]}")
            time.sleep(0.1)
        raise FleetError(f"{name} not ready after {timeout:g} s")


def descendants(pid: int) -> list[int]:
    """Every live process below `pid`, found through /proc parent links."""
    parent: dict[int, int] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
                parent[int(d.name)] = int(stat.rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        kids = [c for c, pp in parent.items() if pp == p]
        out += kids
        todo += kids
    return out


def _listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0
