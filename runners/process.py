"""Spawning argv lists safely: no shell, a timeout, an output cap, the whole process group
killed and every child reaped.

Commands come from strangers' mails (after validation), so a run must never outlive its
timeout, never fill memory with output, and never leave a process behind.  Every process
started here lives in its own session (process group); `kill_all()` ends every one still
alive, which the signal handlers of `verifier run` call on Ctrl-C/SIGTERM.
"""
from __future__ import annotations

import os
import selectors
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from runners.hygiene import own_process, release_process

DEFAULT_OUTPUT_CAP = 1 << 20
_LIVE: dict[int, subprocess.Popen[bytes]] = {}
_LIVE_LOCK = threading.Lock()


@dataclass
class ProcessResult:
    """What one finished (or killed) process left: exit status, capped output, timing."""

    argv: list[str]
    returncode: int | None
    stdout: str = ""
    stderr: str = ""
    started: float = 0.0  # unix time
    ended: float = 0.0
    timed_out: bool = False
    truncated: bool = False  # output beyond the cap was discarded
    error: str | None = None  # could not start, timed out, ...

    @property
    def ok(self) -> bool:
        return self.error is None and self.returncode == 0

    @property
    def wall(self) -> float:
        return self.ended - self.started

    def reason(self) -> str:
        """A one-line reason for a failure, for the results file."""
        if self.error:
            return self.error
        if self.returncode != 0:
            tail = (self.stderr.strip() or self.stdout.strip()).splitlines()[-1:] or [""]
            return f"exit status {self.returncode}: {tail[0][:200]}".rstrip(": ")
        return ""


def _spawn(argv: Sequence[str], stdin: bool) -> subprocess.Popen[bytes]:
    if not argv or not all(isinstance(a, str) for a in argv):
        raise ValueError("argv must be a non-empty list of strings")
    proc = subprocess.Popen(
        list(argv), stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True, close_fds=True,
    )
    with _LIVE_LOCK:
        _LIVE[proc.pid] = proc
    own_process(proc.pid)  # if this process is SIGKILLed, the next command ends it
    return proc


def _forget(proc: subprocess.Popen[bytes]) -> None:
    with _LIVE_LOCK:
        _LIVE.pop(proc.pid, None)
    release_process(proc.pid)


def kill_group(proc: subprocess.Popen[bytes], grace: float = 2.0) -> None:
    """SIGTERM the process group, SIGKILL it after `grace` seconds, and reap the leader."""
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            proc.wait(timeout=wait)
            break
        except subprocess.TimeoutExpired:
            continue
    # Whatever else is left in the group (children of the leader) gets SIGKILL too.
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    _forget(proc)


def kill_all() -> None:
    """End every process started by this module that is still alive."""
    with _LIVE_LOCK:
        procs = list(_LIVE.values())
    for p in procs:
        kill_group(p, grace=1.0)


def run_argv(argv: Sequence[str], timeout: float, output_cap: int = DEFAULT_OUTPUT_CAP,
             input: str | None = None) -> ProcessResult:
    """Run `argv` to completion (or until `timeout`), keeping at most `output_cap` bytes of
    each stream; the process group is killed on timeout or on any exception (Ctrl-C)."""
    started = time.time()
    try:
        proc = _spawn(argv, stdin=input is not None)
    except (OSError, ValueError) as e:
        return ProcessResult(list(argv), None, started=started, ended=time.time(),
                             error=f"cannot start {argv[0] if argv else '?'}: {e}")
    bufs = {"stdout": bytearray(), "stderr": bytearray()}
    truncated = False
    timed_out = False
    try:
        if input is not None:
            assert proc.stdin is not None
            try:
                proc.stdin.write(input.encode())
                proc.stdin.close()
            except BrokenPipeError:
                pass
        sel = selectors.DefaultSelector()
        assert proc.stdout is not None and proc.stderr is not None
        sel.register(proc.stdout, selectors.EVENT_READ, "stdout")
        sel.register(proc.stderr, selectors.EVENT_READ, "stderr")
        deadline = started + timeout
        open_streams = 2
        while open_streams:
            left = deadline - time.time()
            if left <= 0:
                timed_out = True
                break
            for key, _ in sel.select(timeout=min(left, 0.5)):
                chunk = os.read(key.fileobj.fileno(), 65536)  # type: ignore[union-attr]
                if not chunk:
                    sel.unregister(key.fileobj)
                    open_streams -= 1
                    continue
                buf = bufs[key.data]
                room = output_cap - len(buf)
                if room < len(chunk):
                    truncated = True
                buf.extend(chunk[:max(room, 0)])
        sel.close()
        if timed_out:
            kill_group(proc)
        else:
            try:
                proc.wait(timeout=max(deadline - time.time(), 0.1))
            except subprocess.TimeoutExpired:
                timed_out = True
                kill_group(proc)
    finally:
        if proc.returncode is None:
            kill_group(proc)
        for s in (proc.stdout, proc.stderr, proc.stdin):
            if s is not None:
                s.close()
        _forget(proc)
    return ProcessResult(
        list(argv), proc.returncode, bufs["stdout"].decode(errors="replace"),
        bufs["stderr"].decode(errors="replace"), started, time.time(), timed_out, truncated,
        error=f"timed out after {timeout:g} s" if timed_out else None,
    )


@dataclass
class Background:
    """A long-running process (a benchmark server) with its output drained to a capped
    buffer so it never blocks on a full pipe."""

    argv: list[str]
    proc: subprocess.Popen[bytes]
    output_cap: int = DEFAULT_OUTPUT_CAP
    output: bytearray = field(default_factory=bytearray)
    first_line: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        for stream in (self.proc.stdout, self.proc.stderr):
            threading.Thread(target=self._drain, args=(stream,), daemon=True).start()

    def _drain(self, stream) -> None:  # type: ignore[no-untyped-def]
        try:
            for chunk in iter(lambda: stream.read1(65536), b""):
                if len(self.output) < self.output_cap:
                    self.output.extend(chunk[: self.output_cap - len(self.output)])
                if b"\n" in self.output:
                    self.first_line.set()
        except (OSError, ValueError):  # closed by stop()
            pass
        self.first_line.set()

    def alive(self) -> bool:
        return self.proc.poll() is None

    def text(self) -> str:
        return self.output.decode(errors="replace")

    def stop(self) -> None:
        """Kill the process group and reap; safe to call twice."""
        kill_group(self.proc)
        for s in (self.proc.stdout, self.proc.stderr):
            if s is not None:
                try:
                    s.close()
                except OSError:
                    pass


def start_argv(argv: Sequence[str], output_cap: int = DEFAULT_OUTPUT_CAP) -> Background:
    """Start `argv` in its own process group and return its handle; it runs until stopped."""
    return Background(list(argv), _spawn(argv, stdin=False), output_cap)
