"""The ssh runner: real test hosts reached with the OpenSSH client, host keys checked.

Roles map to ssh destinations (`client=lab1,server=lab2`, resolved through the user's
ssh_config or `-F FILE`).  `StrictHostKeyChecking=yes` and `BatchMode=yes` are forced on
the command line, so an unknown or changed host key stops the run instead of prompting.
One master connection per host (ControlMaster) keeps a run's overhead to one round trip.

ssh hands the remote side a command *string* for the login shell; every argv element is
quoted with `shlex.quote`, so the remote shell only ever sees literal words.  A server is
started as `sh -c 'echo $$; exec "$@"' sh ARGV...` — a fixed script with the validated argv
as its positional parameters — so we learn its pid and can kill it by pid on close.
"""
from __future__ import annotations

import shlex
import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence

from runners.base import Handle, Runner, RunnerError
from runners.process import (
    DEFAULT_OUTPUT_CAP,
    Background,
    ProcessResult,
    run_argv,
    start_argv,
)

_TIMEOUT = 20.0


class RemoteServer:
    """A server started over ssh: the local ssh process plus the remote pid."""

    def __init__(self, runner: SshRunner, role: str, bg: Background) -> None:
        self.runner, self.role, self.bg = runner, role, bg
        self.pid: str | None = None
        if bg.first_line.wait(_TIMEOUT):
            first = bg.text().split("\n", 1)[0].strip()
            self.pid = first if first.isdigit() else None

    def alive(self) -> bool:
        return self.bg.alive()

    def text(self) -> str:
        return self.bg.text().split("\n", 1)[-1]

    def stop(self) -> None:
        if self.pid is not None:
            # sshd made the server a process-group leader: the group also holds the children
            # it forked per test (netserver does), which must not outlive it.
            group = f"-{self.pid}"
            for sig in ("TERM", "KILL"):
                self.runner.run(self.role, ["kill", "-s", sig, "--", group], timeout=10)
                time.sleep(0.1)
                gone = self.runner.run(self.role, ["kill", "-0", "--", group], timeout=10)
                if gone.returncode not in (0, None):
                    break
            self.pid = None
        self.bg.stop()


class SshRunner(Runner):
    kind = "ssh"

    def __init__(self, hosts: dict[str, str], config: str | None = None,
                 options: Sequence[str] = (), addresses: dict[str, str] | None = None) -> None:
        super().__init__()
        if not hosts:
            raise RunnerError("ssh runner needs hosts (client=HOST,server=HOST)")
        if len(hosts) == 1:  # one host plays every role, as in 0-day
            only = next(iter(hosts.values()))
            hosts = {"client": only, "server": only}
        self.hosts = dict(hosts)
        self.roles = tuple(self.hosts)
        self.config = config
        self.options = list(options)
        self._addresses = dict(addresses or {})
        self._devices: dict[str, str] = {}
        self._ctl = tempfile.mkdtemp(prefix="pcv-ssh-")
        self._slots: dict[str, int] = {}

    # -- ssh argv ----------------------------------------------------------------------
    def _ssh(self, dest: str, *extra: str) -> list[str]:
        argv = ["ssh"]
        if self.config:
            argv += ["-F", self.config]
        # One control socket per host *as named*: with ssh's %C, two names for one address
        # (lab1, lab2 -> 127.0.0.1) shared a socket, the second "master" fell back to a
        # plain background connection that `-O exit` could never reach, and it leaked.
        slot = self._slots.setdefault(dest, len(self._slots))
        argv += ["-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=yes",
                 "-o", f"ControlPath={self._ctl}/{slot}", *self.options, *extra]
        return argv

    def _remote(self, role: str, argv: Sequence[str]) -> list[str]:
        if role not in self.hosts:
            raise RunnerError(f"ssh runner has no role {role!r}")
        return [*self._ssh(self.hosts[role], "-o", "ControlMaster=no"), self.hosts[role], "--",
                shlex.join(argv)]

    @staticmethod
    def _bounded(argv: Sequence[str], timeout: float) -> list[str]:
        """Killing the local ssh does not stop the remote command (no tty, no SIGHUP):
        coreutils `timeout` on the host ends it, and everything it started, in time."""
        return ["timeout", "-k", "5", f"{timeout:g}", *argv]

    # -- topology ----------------------------------------------------------------------
    def setup(self) -> None:
        if self._set_up:
            return
        self._set_up = True
        for dest in sorted(set(self.hosts.values())):
            try:  # -f: the master goes to the background once authenticated
                res = subprocess.run(
                    [*self._ssh(dest, "-o", "ControlMaster=yes", "-o", "ControlPersist=120",
                                "-o", f"ConnectTimeout={int(_TIMEOUT)}", "-N", "-f"), dest],
                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE, timeout=_TIMEOUT * 2, check=False)
            except subprocess.TimeoutExpired:
                raise RunnerError(f"ssh {dest}: no connection after {_TIMEOUT * 2:g} s") from None
            if res.returncode != 0:
                err = res.stderr.decode(errors="replace").strip().splitlines()
                raise RunnerError(f"ssh {dest}: {err[-1] if err else 'connection failed'}")

    def _teardown(self) -> None:
        for dest in set(self.hosts.values()):
            run_argv([*self._ssh(dest, "-O", "exit"), dest], _TIMEOUT)
        shutil.rmtree(self._ctl, ignore_errors=True)

    # -- roles -------------------------------------------------------------------------
    def host_key(self, role: str) -> str:
        return self.hosts[role]

    def address(self, role: str) -> str:
        """The host's address from `ssh -G` (HostName), unless given explicitly."""
        if role not in self._addresses:
            res = run_argv([*self._ssh(self.hosts[role], "-G"), self.hosts[role]], _TIMEOUT)
            names = [ln.split()[1] for ln in res.stdout.splitlines()
                     if ln.startswith("hostname ")]
            if not res.ok or not names:
                raise RunnerError(f"cannot resolve {self.hosts[role]}: {res.reason()}")
            self._addresses[role] = names[0]
        return self._addresses[role]

    def device(self, role: str) -> str:
        """The interface `role` uses to reach its peer (`ip route get`)."""
        if role not in self._devices:
            peer = next((r for r in self.roles if r != role), role)
            res = self.run(role, ["ip", "-o", "route", "get", self.address(peer)], _TIMEOUT)
            words = res.stdout.split()
            if not res.ok or "dev" not in words:
                raise RunnerError(f"no route from {role} to {peer}: {res.reason()}")
            self._devices[role] = words[words.index("dev") + 1]
        return self._devices[role]

    def run(self, role: str, argv: Sequence[str], timeout: float,
            output_cap: int = DEFAULT_OUTPUT_CAP, input: str | None = None) -> ProcessResult:
        self.setup()
        res = run_argv(self._remote(role, self._bounded(argv, timeout)), timeout + 10,
                       output_cap, input=input)
        res.argv = list(argv)
        if res.returncode == 124 and res.error is None:
            res.timed_out, res.error = True, f"timed out after {timeout:g} s"
        if res.returncode == 255 and res.error is None:
            res.error = f"ssh {self.hosts[role]}: {res.stderr.strip()[-200:]}"
        return res

    def start(self, role: str, argv: Sequence[str]) -> Handle:
        self.setup()
        wrapped = ["sh", "-c", 'echo $$; exec "$@"', "sh", *argv]
        return RemoteServer(self, role, start_argv(self._remote(role, wrapped)))
