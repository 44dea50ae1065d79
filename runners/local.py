"""The local runner: client and server on this machine over loopback, as 0-day runs netperf.

Both roles are the same host, so a setup step is applied once, on `lo`.
"""
from __future__ import annotations

from collections.abc import Sequence

from runners.base import Handle, Runner
from runners.process import DEFAULT_OUTPUT_CAP, ProcessResult, run_argv, start_argv


class LocalRunner(Runner):
    kind = "local"

    def host_key(self, role: str) -> str:
        return "localhost"

    def address(self, role: str) -> str:
        return "127.0.0.1"

    def device(self, role: str) -> str:
        return "lo"

    def run(self, role: str, argv: Sequence[str], timeout: float,
            output_cap: int = DEFAULT_OUTPUT_CAP, input: str | None = None) -> ProcessResult:
        return run_argv(argv, timeout, output_cap, input=input)

    def start(self, role: str, argv: Sequence[str]) -> Handle:
        return start_argv(argv)
