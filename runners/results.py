"""The results file that `verifier run` writes and every later step reads (JSON).

It keeps the spec it ran, the runner and its environment, and every run with its raw
output and parsed samples, failed runs included (with their reason): statistics,
reports, the bot's state and the fleet all read and write this one shape.
"""
from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

RESULTS_VERSION = 1


@dataclass
class RunRecord:
    variant: str
    index: int  # 0-based position in the executed order
    warmup: bool = False
    ok: bool = True
    error: str | None = None
    samples: dict[str, float] = field(default_factory=dict)  # metric name -> value
    stdout: str = ""
    stderr: str = ""
    returncode: int | None = None
    argv: list[str] = field(default_factory=list)
    host: str | None = None
    started: float = 0.0  # unix time
    ended: float = 0.0
    tool_seconds: float | None = None  # duration the tool itself reports
    batch: int = 0
    attempt: int = 0  # re-runs of the same (variant, index) after a lost host
    counters: dict[str, float] = field(default_factory=dict)  # runners.effect: role:name -> moved


@dataclass
class Results:
    spec: dict[str, Any]
    runner: str
    environment: dict[str, Any] = field(default_factory=dict)
    runs: list[RunRecord] = field(default_factory=list)
    verdicts: list[dict[str, Any]] = field(default_factory=list)  # filled by the statistics
    calibration: dict[str, Any] = field(default_factory=dict)
    status: str = "complete"  # complete | not-runnable | failed | interrupted
    reason: str | None = None
    created: str = ""
    version: int = RESULTS_VERSION

    def samples(self, variant: str, metric: str) -> list[float]:
        return [r.samples[metric] for r in self.runs
                if r.variant == variant and r.ok and not r.warmup and metric in r.samples]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Results:
        d = dict(d)
        d["runs"] = [RunRecord(**r) for r in d.get("runs", [])]
        return cls(**d)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write atomically: a crash never leaves a half-written results file."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            json.dump(self.to_dict(), f, indent=1)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Results:
        with open(path) as f:
            return cls.from_dict(json.load(f))
