"""The netns runner: a client and a server namespace joined by a veth pair, on this host.

Addresses exist only inside the two namespaces, so nothing can leave the machine; names
carry a random suffix so parallel runs never collide; `close()` kills whatever still runs
inside and deletes both namespaces (which also removes the veth pair and its settings).
Optional tc netem shaping on both veth ends models latency and rate when a spec asks.
"""
from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from runners.base import Handle, Runner, RunnerError
from runners.hygiene import own_namespaces
from runners.process import DEFAULT_OUTPUT_CAP, ProcessResult, run_argv, start_argv

_TIMEOUT = 15.0


@dataclass
class Netem:
    """tc netem shaping applied to both veth ends (delay each way, rate cap)."""

    delay: str | None = None  # "1ms"
    rate: str | None = None  # "1gbit"

    def args(self) -> list[str]:
        out = ["netem"]
        if self.delay:
            out += ["delay", self.delay]
        if self.rate:
            out += ["rate", self.rate]
        return out

    @classmethod
    def parse(cls, text: str) -> Netem:
        """`delay=1ms,rate=1gbit` -> Netem; raise ValueError on anything else."""
        kw: dict[str, str] = {}
        for part in filter(None, text.split(",")):
            k, _, v = part.partition("=")
            if k not in ("delay", "rate") or not v.replace(".", "").isalnum():
                raise ValueError(f"bad netem setting {part!r} (want delay=1ms,rate=1gbit)")
            kw[k] = v
        return cls(**kw)


class NetnsRunner(Runner):
    kind = "netns"

    def __init__(self, prefix: str = "pcv", netem: Netem | None = None) -> None:
        super().__init__()
        tag = secrets.token_hex(3)
        self.ns = {"client": f"{prefix}-{tag}-c", "server": f"{prefix}-{tag}-s"}
        self.dev = {"client": f"{prefix}{tag}c", "server": f"{prefix}{tag}s"}
        octet = secrets.randbelow(250) + 1
        self.addr = {"client": f"10.231.{octet}.1", "server": f"10.231.{octet}.2"}
        self.netem = netem

    def _ip(self, *args: str) -> None:
        res = run_argv(["ip", *args], _TIMEOUT)
        if not res.ok:
            raise RunnerError(f"ip {' '.join(args)}: {res.reason()}")

    def setup(self) -> None:
        if self._set_up:
            return
        self._set_up = True
        c, s = self.ns["client"], self.ns["server"]
        own_namespaces(self.ns.values())  # a SIGKILLed owner's are removed by the next start
        self._ip("netns", "add", c)
        self._ip("netns", "add", s)
        self._ip("link", "add", self.dev["client"], "netns", c, "type", "veth",
                 "peer", "name", self.dev["server"], "netns", s)
        for role in ("client", "server"):
            ns, dev = self.ns[role], self.dev[role]
            self._ip("-n", ns, "link", "set", "lo", "up")
            self._ip("-n", ns, "addr", "add", f"{self.addr[role]}/24", "dev", dev)
            self._ip("-n", ns, "link", "set", dev, "up")
            if self.netem is not None and (self.netem.delay or self.netem.rate):
                res = self.run(role, ["tc", "qdisc", "replace", "dev", dev, "root",
                                      *self.netem.args()], _TIMEOUT)
                if not res.ok:
                    raise RunnerError(f"netem on {dev}: {res.reason()}")

    def _teardown(self) -> None:
        for ns in self.ns.values():
            pids = run_argv(["ip", "netns", "pids", ns], _TIMEOUT)
            for pid in pids.stdout.split():
                run_argv(["kill", "-KILL", pid], _TIMEOUT)
            run_argv(["ip", "netns", "del", ns], _TIMEOUT)

    def address(self, role: str) -> str:
        return self.addr[role]

    def device(self, role: str) -> str:
        return self.dev[role]

    def _wrap(self, role: str, argv: Sequence[str]) -> list[str]:
        if role not in self.ns:
            raise RunnerError(f"netns runner has no role {role!r}")
        return ["ip", "netns", "exec", self.ns[role], *argv]

    def run(self, role: str, argv: Sequence[str], timeout: float,
            output_cap: int = DEFAULT_OUTPUT_CAP, input: str | None = None) -> ProcessResult:
        res = run_argv(self._wrap(role, argv), timeout, output_cap, input=input)
        res.argv = list(argv)
        return res

    def start(self, role: str, argv: Sequence[str]) -> Handle:
        return start_argv(self._wrap(role, argv))

    def environment(self, programs: Sequence[str] = ()) -> dict:
        env = super().environment(programs)
        env["netem"] = None if self.netem is None else " ".join(self.netem.args())
        env["namespaces"] = dict(self.ns)
        return env
