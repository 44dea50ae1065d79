"""The vm runner: each variant's kernel booted with virtme-ng, the benchmark run inside it.

`vng --run IMAGE` boots a kernel over a read-only snapshot of this host's root file system,
so the host's netperf/iperf3/... are there.  Inside, `runners.guest` builds two network
namespaces joined by veth (the netns runner's topology) and answers JSON requests through a
shared directory (`--rwdir`), so the Runner primitives (run, start, ...) work unchanged and
one boot serves every run of a variant.  Guests boot lazily, one per kernel, and stay up
until `close()`, so ABBA interleaving costs no reboots.

KVM is probed once with a short boot; when it fails the runner uses TCG and marks the
environment `emulated: true` ("emulated, not valid for performance"), which caps the
verdict at INCONCLUSIVE.  A guest that does not boot, panics or stops answering is killed
(its whole process group) and reported with the tail of its console, never waited on.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from claims.spec import Variant
from runners import session_guard
from runners.base import Handle, Runner, RunnerError
from runners.guest import ADDR, DEV
from runners.process import DEFAULT_OUTPUT_CAP, ProcessResult

REPO = Path(__file__).resolve().parent.parent
EMULATED_NOTE = "emulated, not valid for performance"
_PANIC = ("Kernel panic", "end Kernel panic")
_ACCEL: dict[str, str] = {}  # probe result per process


def host_image() -> str | None:
    """The running kernel's image in /boot, if present (Debian's linux-image)."""
    path = Path("/boot") / f"vmlinuz-{os.uname().release}"
    if path.exists():
        return str(path)
    found = sorted(Path("/boot").glob("vmlinuz-*"))
    return str(found[-1]) if found else None


def _tail(path: Path, lines: int = 15) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return ""
    kept = [ln.strip() for ln in text.replace("\r", "\n").splitlines() if ln.strip()]
    return "\n".join(kept[-lines:])


def _killpg(proc: subprocess.Popen[bytes]) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            return
        try:
            proc.wait(timeout=5)
            return
        except subprocess.TimeoutExpired:
            continue


def probe_accel(image: str, timeout: float = 45.0) -> str:
    """"kvm" when a KVM boot of `image` runs `true`, else "tcg".  VERIFIER_VM_ACCEL=kvm|tcg
    skips the probe (tests use it to save a boot)."""
    forced = os.environ.get("VERIFIER_VM_ACCEL")
    if forced in ("kvm", "tcg"):
        return forced
    if image in _ACCEL:
        return _ACCEL[image]
    accel = "tcg"
    if os.access("/dev/kvm", os.R_OK | os.W_OK) and shutil.which("vng"):
        with tempfile.TemporaryFile() as log:
            proc, guard = session_guard.spawn(["vng", "--run", image, "--user", "root", "--", "true"],
                                              stdin=subprocess.DEVNULL, stdout=log, stderr=log)
            try:
                if proc.wait(timeout=timeout) == 0:
                    accel = "kvm"
            except subprocess.TimeoutExpired:
                pass
            finally:
                _killpg(proc)
                os.close(guard)
    _ACCEL[image] = accel
    return accel


def parse_kernels(items: Sequence[str]) -> dict[str, str]:
    """`["baseline=/boot/vmlinuz-X", "candidate=./bzImage"]` -> {variant: absolute image};
    ValueError with a one-line reason on a malformed item or a missing file."""
    out: dict[str, str] = {}
    for item in items:
        name, eq, path = item.partition("=")
        if not eq or not name.strip() or not path.strip():
            raise ValueError(f"--kernel {item!r} is not VARIANT=IMAGE")
        image = Path(path.strip()).expanduser().resolve()
        if not image.is_file():
            raise ValueError(f"--kernel {name.strip()}: no kernel image at {image}")
        out[name.strip()] = str(image)
    return out


class Guest:
    """One booted kernel: the vng process, its console log and the request channel."""

    def __init__(self, image: str, accel: str, cpus: int, memory: str,
                 boot_timeout: float, name: str, append: Sequence[str] = ()) -> None:
        self.image, self.accel, self.name = image, accel, name
        self.append = list(append)  # extra kernel command line words
        self.dir = Path(tempfile.mkdtemp(prefix="verifier-vm-"))
        self.chan = self.dir / "chan"
        self.chan.mkdir()
        self.console = self.dir / "console.log"
        self.cpus, self.memory, self.boot_timeout = cpus, memory, boot_timeout
        self.proc: subprocess.Popen[bytes] | None = None
        self._guard: int | None = None  # the session guard's pipe: closing it kills the guest
        self.ready: dict[str, Any] = {}
        self.boot_seconds: float | None = None
        self.dead: str | None = None  # why the guest is unusable
        self._n = 0
        self._lock = threading.Lock()  # the agent answers one request at a time
        self._panic_checked = 0.0

    def argv(self) -> list[str]:
        cmd = ["vng", "--run", self.image, "--user", "root", "--verbose",
               "--name", self.name, "--cpus", str(self.cpus), "--memory", self.memory,
               "--rwdir", str(self.chan), "--cwd", str(REPO)]
        if self.accel != "kvm":
            cmd.append("--disable-kvm")
        for word in self.append:
            cmd += ["--append", word]
        # -S: no site-packages to import over 9p (the agent needs the stdlib only)
        return [*cmd, "--", sys.executable, "-S", "-m", "runners.guest", str(self.chan)]

    def boot(self) -> None:
        """Start vng and wait for the agent's ready file; RunnerError with the console tail
        when the guest exits, panics or does not come up in `boot_timeout` seconds."""
        if not Path(self.image).is_file():
            raise RunnerError(f"kernel image {self.image} does not exist")
        t0 = time.monotonic()
        with open(self.console, "wb") as log:
            # its own session, under a guard that kills it if this process dies uncleanly
            self.proc, self._guard = session_guard.spawn(self.argv(), stdin=subprocess.DEVNULL,
                                                         stdout=log, stderr=subprocess.STDOUT)
        ready = self.chan / "ready.json"
        while not ready.exists():
            self._check_alive("did not boot", t0, self.boot_timeout)
            time.sleep(0.2)
        self.ready = json.loads(ready.read_text())
        self.boot_seconds = round(time.monotonic() - t0, 1)
        if self.ready.get("errors"):
            self.fail(f"guest topology failed: {'; '.join(self.ready['errors'])}")

    def _check_alive(self, what: str, t0: float, limit: float) -> None:
        assert self.proc is not None
        exited = self.proc.poll() is not None
        now = time.monotonic()
        if exited or now - self._panic_checked > 1.0:  # reading the console: once a second
            self._panic_checked = now
            panic = next((ln for ln in _tail(self.console, 80).splitlines()
                          if any(p in ln for p in _PANIC)), None)
            if panic is not None:  # the panic line itself: the tail is mostly a backtrace
                reason = panic.split("]", 1)[-1].strip()
                self.fail(f"guest {self.image} {what}: kernel panic ({reason})")
        if exited:
            self.fail(f"guest {self.image} {what}: vng exited with {self.proc.returncode}")
        if time.monotonic() - t0 > limit:
            self.fail(f"guest {self.image} {what}: no answer after {limit:g} s (watchdog)")

    def fail(self, why: str) -> None:
        """Kill the guest and raise with the console tail."""
        self.dead = why
        self.kill()
        tail = _tail(self.console)
        raise RunnerError(f"{why}; console tail:\n{tail}" if tail else why)

    def request(self, req: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send one request and wait for its answer at most `timeout` seconds."""
        with self._lock:
            return self._request(req, timeout)

    def _request(self, req: dict[str, Any], timeout: float) -> dict[str, Any]:
        if self.dead:
            raise RunnerError(self.dead)
        self._n += 1
        n = self._n
        tmp = self.chan / f".req-{n}.json.tmp"
        tmp.write_text(json.dumps(req))
        os.replace(tmp, self.chan / f"req-{n}.json")
        resp = self.chan / f"resp-{n}.json"
        t0 = time.monotonic()
        while not resp.exists():
            self._check_alive(f"stopped answering ({req.get('op')})", t0, timeout)
            time.sleep(0.02)
        out = json.loads(resp.read_text())
        for p in (resp, self.chan / f"req-{n}.json"):
            p.unlink(missing_ok=True)
        if not out.get("ok"):
            raise RunnerError(f"guest agent: {out.get('error')}")
        return out

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            _killpg(self.proc)
        if self._guard is not None:
            os.close(self._guard)
            self._guard = None

    def shutdown(self) -> None:
        """Ask the agent to stop (the guest then powers off), kill what is left, clean up."""
        if self.proc is not None and self.proc.poll() is None and not self.dead:
            try:
                self.request({"op": "shutdown"}, 20)
                self.proc.wait(timeout=30)
            except (RunnerError, subprocess.TimeoutExpired):
                pass
        self.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


class VmHandle:
    """A server started inside a guest; stopping it is one request."""

    def __init__(self, guest: Guest, hid: int) -> None:
        self.guest, self.id = guest, hid

    def stop(self) -> None:
        if not self.guest.dead and self.guest.proc is not None and self.guest.proc.poll() is None:
            self.guest.request({"op": "stop", "id": self.id}, 30)

    def alive(self) -> bool:
        try:
            return bool(self.guest.request({"op": "alive", "id": self.id}, 30)["alive"])
        except RunnerError:
            return False

    def text(self) -> str:
        try:
            return str(self.guest.request({"op": "text", "id": self.id}, 30)["text"])
        except RunnerError as e:
            return str(e)


class VmRunner(Runner):
    """Client and server namespaces inside a VM booted from each variant's kernel.

    `kernels` maps variant names to kernel images (`--kernel baseline=/boot/vmlinuz-X`); a
    variant not named uses its spec's `kernel.image`, else `default_image` (the host's
    kernel), so a spec whose variants differ by setup only runs in one guest."""

    kind = "vm"
    offers = frozenset({"kernel"})

    def __init__(self, kernels: Mapping[str, str] | None = None,
                 default_image: str | None = None, accel: str | None = None,
                 cpus: int = 2, memory: str = "1G", boot_timeout: float | None = None,
                 append: Sequence[str] = ()) -> None:
        super().__init__()
        self.kernels = dict(kernels or {})
        image = default_image or next(iter(self.kernels.values()), None) or host_image()
        if image is None:
            raise RunnerError("no kernel image: give --kernel VARIANT=IMAGE")
        self.default_image = image
        self.accel = accel
        self.cpus, self.memory = cpus, memory
        self.boot_timeout = boot_timeout
        self.append = list(append)
        self.guests: dict[str, Guest] = {}
        self.current = image
        # Live dicts handed to the results environment: filled in as variants switch and
        # guests boot, so the saved results name every kernel that ran.
        self.variant_images: dict[str, str] = dict(self.kernels)
        self.guest_info: dict[str, dict[str, Any]] = {}
        self.switch_errors: list[str] = []

    # -- guests ------------------------------------------------------------------------
    def setup(self) -> None:
        if self._set_up:
            return
        self._set_up = True
        if self.accel is None:
            self.accel = probe_accel(self.default_image)
        self._guest()

    def _guest(self) -> Guest:
        g = self.guests.get(self.current)
        if g is None:
            if self.accel is None:
                self.accel = probe_accel(self.current)
            limit = self.boot_timeout or (180.0 if self.accel == "kvm" else 600.0)
            g = Guest(self.current, self.accel, self.cpus, self.memory, limit,
                      f"verifier-{len(self.guests)}", self.append)
            self.guests[self.current] = g
            g.boot()
            self.guest_info[self.current] = {
                "kernel": g.ready.get("kernel"), "cpus": g.ready.get("cpus"),
                "boot_seconds": g.boot_seconds, "memory": g.memory}
        return g

    def image_for(self, variant: Variant) -> str:
        if variant.name in self.kernels:
            return self.kernels[variant.name]
        k = variant.kernel
        if k is not None and k.image:
            return k.image
        if k is not None and k.series:
            raise RunnerError(f"variant {variant.name} needs the series {k.series} built: "
                              f"run `verifier kernels {k.series} --tree ~/linux` and pass "
                              f"its --kernel {variant.name}=IMAGE")
        return self.default_image

    def select_variant(self, variant: Variant) -> None:
        """Make `variant`'s kernel the one later runs use (called before its setup steps).

        Leaving a guest undoes its settings and stops its servers there; the guest stays
        up for the next time the order comes back to it."""
        image = self.image_for(variant)
        self.variant_images[variant.name] = image
        if image == self.current:
            return
        self.switch_errors += self.undo()
        for key, h in list(self._servers.items()):
            if isinstance(h, VmHandle) and h.guest.image == self.current:
                try:
                    h.stop()
                except RunnerError as e:
                    self.switch_errors.append(f"stopping a server: {e}")
                del self._servers[key]
        self.current = image

    # -- the four primitives -----------------------------------------------------------
    def address(self, role: str) -> str:
        return ADDR[role]

    def device(self, role: str) -> str:
        return DEV[role]

    def run(self, role: str, argv: Sequence[str], timeout: float,
            output_cap: int = DEFAULT_OUTPUT_CAP, input: str | None = None) -> ProcessResult:
        if role not in self.roles:
            raise RunnerError(f"vm runner has no role {role!r}")
        out = self._guest().request({"op": "run", "role": role, "argv": list(argv),
                                     "timeout": timeout, "output_cap": output_cap,
                                     "input": input}, timeout + 60)
        return ProcessResult(list(argv), out["returncode"], out["stdout"], out["stderr"],
                             out["started"], out["ended"], out["timed_out"], out["truncated"],
                             out["error"])

    def start(self, role: str, argv: Sequence[str]) -> Handle:
        if role not in self.roles:
            raise RunnerError(f"vm runner has no role {role!r}")
        g = self._guest()
        return VmHandle(g, int(g.request({"op": "start", "role": role, "argv": list(argv)},
                                         60)["id"]))

    # -- environment and lifetime ------------------------------------------------------
    def environment(self, programs: Sequence[str] = ()) -> dict[str, Any]:
        env = super().environment(programs)
        emulated = self.accel != "kvm"
        env["accelerator"] = self.accel
        env["emulated"] = emulated
        if emulated:
            env["note"] = f"TCG (no KVM): every timing is {EMULATED_NOTE}"
        env["guests"] = self.guest_info  # image -> what booted (live)
        env["kernels"] = self.variant_images  # variant -> image (live)
        env["default_kernel"] = self.default_image
        return env

    def _teardown(self) -> None:
        for g in self.guests.values():
            g.shutdown()
