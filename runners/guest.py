"""The agent the vm runner starts inside a guest: `python3 -m runners.guest CHANNEL_DIR`.

Why a file channel: vng shares a host directory read-write (`--rwdir`) with the guest, and
files work with every kernel vng can boot (no guest network, vsock or ssh needed).  The
host writes `req-N.json` (atomically: a temp file renamed), the agent answers `resp-N.json`.
Every request carries an argv list (validated on the host by its tool description); the
agent runs it inside one of two network namespaces joined by a veth pair, never through a
shell.  Requests: run, start, stop, alive, text, shutdown.  On start the agent builds the
topology and writes `ready.json` (the guest's kernel, CPUs, errors).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from runners.process import ProcessResult, run_argv, start_argv

NS = {"client": "vmc", "server": "vms"}
DEV = {"client": "vethc", "server": "veths"}
ADDR = {"client": "10.231.0.1", "server": "10.231.0.2"}
_POLL = 0.02


def write_json(path: Path, data: Any) -> None:
    """Atomic write: the reader never sees half a file."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(data))
    os.replace(tmp, path)


def names(prefix: str = "") -> dict[str, str]:
    """Namespace names; a prefix keeps an agent run on a host (tests) apart from others."""
    return {r: f"{prefix}{n}" for r, n in NS.items()}


def topology(ns_names: dict[str, str]) -> list[str]:
    """Two namespaces joined by veth; returns the errors (empty when it worked)."""
    steps = [["ip", "netns", "add", ns_names["client"]], ["ip", "netns", "add", ns_names["server"]],
             ["ip", "link", "add", DEV["client"], "netns", ns_names["client"], "type", "veth",
              "peer", "name", DEV["server"], "netns", ns_names["server"]]]
    for role, ns in ns_names.items():
        steps += [["ip", "-n", ns, "link", "set", "lo", "up"],
                  ["ip", "-n", ns, "addr", "add", f"{ADDR[role]}/24", "dev", DEV[role]],
                  ["ip", "-n", ns, "link", "set", DEV[role], "up"]]
    errors = []
    for argv in steps:
        res = run_argv(argv, 15)
        if not res.ok:
            errors.append(f"{' '.join(argv)}: {res.reason()}")
            break
    return errors




def _result(res: ProcessResult) -> dict[str, Any]:
    return {"returncode": res.returncode, "stdout": res.stdout, "stderr": res.stderr,
            "started": res.started, "ended": res.ended, "timed_out": res.timed_out,
            "truncated": res.truncated, "error": res.error}


class Agent:
    """Serves the requests of one host-side VmRunner until `shutdown`."""

    def __init__(self, chan: Path, ns_names: dict[str, str]) -> None:
        self.chan = chan
        self.ns = ns_names
        self.handles: dict[int, Any] = {}
        self.next_id = 1

    def _wrap(self, role: str, argv: list[str]) -> list[str]:
        if role not in self.ns:
            raise ValueError(f"no role {role!r}")
        if not isinstance(argv, list) or not argv or not all(isinstance(a, str) for a in argv):
            raise ValueError("argv must be a non-empty list of strings")
        return ["ip", "netns", "exec", self.ns[role], *argv]

    def handle(self, req: dict[str, Any]) -> dict[str, Any]:
        op = req.get("op")
        if op == "run":
            res = run_argv(self._wrap(req["role"], req["argv"]), float(req["timeout"]),
                           int(req.get("output_cap", 1 << 20)), input=req.get("input"))
            return _result(res)
        if op == "start":
            h = start_argv(self._wrap(req["role"], req["argv"]))
            hid, self.next_id = self.next_id, self.next_id + 1
            self.handles[hid] = h
            return {"id": hid}
        held = self.handles.get(int(req.get("id", 0)))
        if op == "stop":
            if held is not None:
                held.stop()
            return {}
        if op == "alive":
            return {"alive": bool(held is not None and held.alive())}
        if op == "text":
            return {"text": held.text() if held is not None else ""}
        raise ValueError(f"unknown request {op!r}")

    def serve(self) -> None:
        n = 1
        while True:
            req_path = self.chan / f"req-{n}.json"
            if not req_path.exists():
                time.sleep(_POLL)
                continue
            try:
                req = json.loads(req_path.read_text())
                if req.get("op") == "shutdown":
                    self.stop_all()
                    write_json(self.chan / f"resp-{n}.json", {"ok": True})
                    return
                out = {"ok": True, **self.handle(req)}
            except Exception as e:  # noqa: BLE001 - every failure is an answer, not a crash
                out = {"ok": False, "error": f"{type(e).__name__}: {e}"}
            write_json(self.chan / f"resp-{n}.json", out)
            n += 1

    def stop_all(self) -> None:
        """Stop the servers and remove the namespaces (which matters when run on a host)."""
        for h in self.handles.values():
            try:
                h.stop()
            except Exception:  # noqa: BLE001, S110 - shutting down anyway
                pass
        remove(self.ns)


def remove(ns_names: dict[str, str]) -> None:
    for ns in ns_names.values():
        for pid in run_argv(["ip", "netns", "pids", ns], 15).stdout.split():
            run_argv(["kill", "-KILL", pid], 15)
        run_argv(["ip", "netns", "del", ns], 15)


def _uname() -> str:
    return subprocess.run(["uname", "-r"], capture_output=True, text=True).stdout.strip()


def main(argv: list[str]) -> int:
    if len(argv) not in (1, 2):
        print("usage: python3 -m runners.guest CHANNEL_DIR [NAMESPACE_PREFIX]", file=sys.stderr)
        return 2
    chan = Path(argv[0])
    ns_names = names(argv[1] if len(argv) == 2 else "")
    errors = topology(ns_names)
    write_json(chan / "ready.json", {"kernel": _uname(), "cpus": os.cpu_count(),
                                     "errors": errors, "addresses": ADDR, "devices": DEV,
                                     "namespaces": ns_names})
    if errors:
        remove(ns_names)
        return 1
    agent = Agent(chan, ns_names)
    try:
        agent.serve()
    finally:
        agent.stop_all()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
