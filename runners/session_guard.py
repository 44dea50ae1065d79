"""Start a command in a session of its own that dies with the process that started it.

A VM (vng -> virtme-run -> qemu) runs in its own session, so that a Ctrl-C at the terminal
does not reach qemu before the runner has saved its results and shut the guest down. But a
parent killed without cleaning up (SIGKILL, a test process stopped by a timeout) then leaves
the whole group re-parented to init, running on: one such qemu ran for an hour at a fifth of
a core. So the command runs under a small guard, the session's leader: the parent keeps the
write end of a pipe, the guard reads the other end, and at end of file (the parent closed
it or is gone, however it died) the guard kills its process group.

    python3 runners/session_guard.py FD -- ARGV...   (as `spawn` starts it)

The guard is run as a script, with no import of the project, so it starts in any
environment the parent's interpreter runs in.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

GUARD = str(Path(__file__).resolve())


def spawn(argv: list[str], **popen: Any) -> tuple[subprocess.Popen[bytes], int]:
    """Start `argv` under the guard in a new session; returns the guard's Popen (its pid is
    the process group's) and the pipe's write end, whose closing kills the group. The fd is
    not inherited by other children."""
    read, write = os.pipe()
    try:
        proc = subprocess.Popen([sys.executable, GUARD, str(read), "--", *argv],
                                start_new_session=True, pass_fds=(read,), **popen)
    except BaseException:
        os.close(write)
        raise
    finally:
        os.close(read)
    return proc, write


def _watch(fd: int) -> None:
    try:
        while os.read(fd, 4096):
            pass
    except OSError:
        pass
    os.killpg(0, signal.SIGKILL)


def main(args: list[str]) -> int:
    fd, cmd = int(args[0]), args[2:] if args[1:2] == ["--"] else args[1:]
    child = subprocess.Popen(cmd)  # stdio inherited, same process group
    threading.Thread(target=_watch, args=(fd,), daemon=True).start()
    rc = child.wait()
    return rc if rc >= 0 else 128 - rc  # killed by a signal: the shell's convention


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
