"""The one interface every runner offers (local, netns, ssh; later vm and fleet).

A runner knows hosts, not emails: it gives each host *role* ("client", "server") an
address and a device, runs validated argv lists there, starts servers, applies typed setup
actions and undoes them, and describes its environment.  It is a context manager:

    with NetnsRunner() as r:                  # setup(): topology
        srv = r.start("server", ["netserver", "-D", "-p", "20000"])
        res = r.run("client", argv, timeout=30)
    # close(): settings undone, servers stopped, topology removed, on every path

To add a runner, subclass `Runner`, set `kind` (and `offers`, e.g. {"kernel"}), and
implement `address`, `device`, `run` and `start` (plus `setup`/`_teardown` when it builds
something, and `select_variant` when a variant is more than its setup steps).  Actions, environment
probing, port choice and cleanup come from this base class and work through `run`.
"""
from __future__ import annotations

import random
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from claims.spec import Action
from claims.tools import tool_programs
from runners.process import DEFAULT_OUTPUT_CAP, ProcessResult


class RunnerError(RuntimeError):
    """The runner cannot do what was asked (topology, missing tool, refused action)."""


class Handle(Protocol):
    """A started server: `stop()` ends it (idempotent); `alive()`; `text()` its output."""

    def stop(self) -> None: ...
    def alive(self) -> bool: ...
    def text(self) -> str: ...


def version_flag(program: str) -> tuple[str, ...]:
    """The flag that makes `program` print its version, from its tool description
    (`netserver -V` is netperf's); `--version` for a program no description names."""
    for prog, tool, _ in tool_programs():
        if prog == program:
            return tool.version_flag
    return ("--version",)


class Runner(ABC):
    """Where a spec runs.  Subclasses implement the four abstract methods below."""

    kind: str = "abstract"
    roles: tuple[str, ...] = ("client", "server")
    offers: frozenset[str] = frozenset()  # capabilities a spec may need ("kernel")

    def __init__(self) -> None:
        self._servers: dict[tuple[str, tuple[str, ...]], Handle] = {}
        self._applied: list[Any] = []  # runners.actions.Applied, newest last
        self.touched: list[dict[str, Any]] = []  # every knob changed, for the environment
        self._lock = threading.Lock()
        self.cache: dict[Any, Any] = {}  # per-runner state of callers (prepared commands)
        self._closed = False
        self._set_up = False

    # -- topology ----------------------------------------------------------------------
    def setup(self) -> None:
        """Build what the runner needs (namespaces, connections); idempotent."""
        self._set_up = True

    def _teardown(self) -> None:  # noqa: B027 - optional hook
        """Remove what `setup` built; must tolerate a half-built topology."""
        return None

    def host_key(self, role: str) -> str:
        """Which machine a role is on: roles sharing a key share settings (applied once)."""
        return role

    # -- the four primitives -----------------------------------------------------------
    @abstractmethod
    def address(self, role: str) -> str:
        """The address other roles use to reach `role` (replaces `-H lpaa6` in argv)."""

    @abstractmethod
    def device(self, role: str) -> str:
        """The interface carrying benchmark traffic on `role` (replaces `eth0` in steps)."""

    @abstractmethod
    def run(self, role: str, argv: Sequence[str], timeout: float,
            output_cap: int = DEFAULT_OUTPUT_CAP, input: str | None = None) -> ProcessResult:
        """Run a validated argv on `role` to completion; never through a shell."""

    @abstractmethod
    def start(self, role: str, argv: Sequence[str]) -> Handle:
        """Start a long-running argv (a server) on `role`; stopped by `close()` at the latest."""

    def select_variant(self, variant: Any) -> None:
        """Hook called before a variant's setup steps (a claims.spec.Variant): runners whose
        variants differ by more than settings (the vm runner's kernels) switch here."""
        return None

    # -- servers -----------------------------------------------------------------------
    def server(self, role: str, argv: Sequence[str], port: int | None = None,
               wait: float = 10.0) -> Handle:
        """Start a server once per (role, argv) and wait until it listens on `port`."""
        key = (role, tuple(argv))
        h = self._servers.get(key)
        if h is not None and h.alive():
            return h
        h = self.start(role, argv)
        self._servers[key] = h
        if port is not None:
            self.wait_listening(role, port, h, wait)
        return h

    def wait_listening(self, role: str, port: int, handle: Handle | None = None,
                       wait: float = 10.0) -> None:
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            res = self.run(role, ["ss", "-Hltun", f"sport = :{port}"], timeout=5)
            if res.ok and res.stdout.strip():
                return
            if handle is not None and not handle.alive():
                raise RunnerError(f"server on {role} exited: {handle.text().strip()[-200:]}")
            time.sleep(0.05)
        raise RunnerError(f"server on {role} is not listening on port {port} after {wait:g} s")

    def free_port(self, role: str) -> int:
        """A TCP/UDP port nobody listens on at `role` (never the system netserver's 12865)."""
        for _ in range(50):
            port = random.randint(20000, 60000)
            res = self.run(role, ["ss", "-Hatun", f"sport = :{port}"], timeout=5)
            if res.ok and not res.stdout.strip():
                return port
        raise RunnerError(f"no free port on {role}")

    # -- settings ----------------------------------------------------------------------
    def apply(self, action: Action, current: dict[Any, Any] | None = None) -> None:
        """Apply a typed setup action on its roles, remembering the old values for `undo`.

        Distinct hosts are set in parallel (one thread each), so a variant switch costs
        one round trip, not one per host."""
        from runners.actions import apply_action

        hosts: dict[str, str] = {}
        for role in action.roles or list(self.roles):
            if role in self.roles:
                hosts.setdefault(self.host_key(role), role)
        roles = list(hosts.values())
        if len(roles) <= 1:
            for role in roles:
                apply_action(self, role, action, self._remember, current)
            return
        # The pool's exit waits for every thread, also on Ctrl-C: no write outlives this.
        with ThreadPoolExecutor(len(roles)) as pool:
            futures = [pool.submit(apply_action, self, r, action, self._remember, current)
                       for r in roles]
        for f in futures:
            f.result()  # the first failure, after every host finished

    def _remember(self, rec: Any) -> None:
        with self._lock:
            self._applied.append(rec)
            if rec.describe() not in self.touched:
                self.touched.append(rec.describe())

    def switch(self, actions: Sequence[Action]) -> list[str]:
        """Make `actions` the only applied settings (a variant change) with the fewest
        writes: a file setting the new actions set again is not restored first.  Returns
        the restore errors; raises ActionError when an action fails (close() still undoes
        everything)."""
        from runners.actions import undo_applied

        old, self._applied = self._applied, []
        current = {(r.role, r.target): r for r in old if r.kind == "file"}
        pending = [r for r in old if r.kind != "file"]  # restored first, newest first
        errors: list[str] = []
        done = False
        try:
            while pending:
                err = undo_applied(self, pending[-1])
                pending.pop()
                if err:
                    errors.append(err)
            for action in actions:
                self.apply(action, current)
            done = True
        finally:
            # What is neither restored nor reused goes back on the undo list, so close()
            # restores it even when an action failed or a signal came in between.
            keep = {id(r) for r in pending} | {id(r) for r in current.values()}
            left = [r for r in old if id(r) in keep]
            self._applied[:0] = left
            if done:
                for rec in reversed(left):
                    err = undo_applied(self, rec)
                    self._applied = [r for r in self._applied if r is not rec]
                    if err:
                        errors.append(err)
        return errors

    def undo(self) -> list[str]:
        """Restore every applied setting, newest first; returns the errors (never raises)."""
        from runners.actions import undo_applied

        errors = []
        while self._applied:
            err = undo_applied(self, self._applied.pop())
            if err:
                errors.append(err)
        return errors

    # -- environment -------------------------------------------------------------------
    def tool_version(self, role: str, program: str) -> str | None:
        """The first line a tool prints for its version flag, or None when it is absent."""
        res = self.run(role, [program, *version_flag(program)], timeout=10)
        absent = res.returncode in (126, 127) or (  # `ip netns exec` says so with 255
            res.returncode != 0 and not res.stdout.strip() and "No such file" in res.stderr)
        if res.error or absent:
            return None
        text = (res.stdout.strip() or res.stderr.strip())
        return text.splitlines()[0].strip() if text else ""

    def host_environment(self, role: str, programs: Sequence[str] = ()) -> dict[str, Any]:
        """Kernel, CPU model and count, NIC driver and tool versions on one role."""
        env: dict[str, Any] = {}
        r = self.run(role, ["uname", "-r", "-v", "-m"], timeout=10)
        env["kernel"] = r.stdout.strip() if r.ok else None
        r = self.run(role, ["cat", "/proc/cpuinfo"], timeout=10, output_cap=1 << 22)
        models = [ln.split(":", 1)[1].strip() for ln in r.stdout.splitlines()
                  if ln.startswith("model name")]
        env["cpu_model"] = models[0] if models else None
        r = self.run(role, ["nproc"], timeout=10)
        env["cpus"] = int(r.stdout.strip()) if r.ok and r.stdout.strip().isdigit() else None
        dev = self.device(role)
        r = self.run(role, ["ethtool", "-i", dev], timeout=10)
        info = dict(ln.split(":", 1) for ln in r.stdout.splitlines() if ":" in ln)
        env["device"] = dev
        env["nic_driver"] = info.get("driver", "").strip() or None
        env["tools"] = {p: self.tool_version(role, p) for p in programs}
        return env

    def environment(self, programs: Sequence[str] = ()) -> dict[str, Any]:
        """The runner's environment for the results file: one entry per distinct host."""
        hosts: dict[str, Any] = {}
        seen: dict[str, str] = {}
        for role in self.roles:
            key = self.host_key(role)
            if key in seen:
                hosts[role] = {"same_as": seen[key]}
                continue
            seen[key] = role
            hosts[role] = self.host_environment(role, programs)
        return {"runner": self.kind, "hosts": hosts, "touched": list(self.touched),
                "addresses": {r: self.address(r) for r in self.roles}}

    # -- lifetime ----------------------------------------------------------------------
    def close(self) -> list[str]:
        """Undo settings, stop servers, remove the topology.  Idempotent; never raises."""
        if self._closed:
            return []
        self._closed = True
        errors = self.undo()
        for h in list(self._servers.values()):
            try:
                h.stop()
            except Exception as e:  # noqa: BLE001 - cleanup must go on
                errors.append(f"stopping a server: {e}")
        self._servers.clear()
        try:
            self._teardown()
        except Exception as e:  # noqa: BLE001
            errors.append(f"teardown: {e}")
        return errors

    def __enter__(self) -> Runner:
        try:
            self.setup()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
