"""The results file that `verifier run` writes and every later step reads (JSON).

It keeps the spec it ran, the runner and its environment, and every run with its raw
output and parsed samples, failed runs included (with their reason), and the verdicts the
statistics reached: reports, the bot's state and the fleet all read and write this one
shape.  Inside the program it is typed (`Spec`, `RunRecord`, `Verdict`); dicts exist only
at the file boundary (`to_dict`/`from_dict`).

The format is versioned; `from_dict` reads every older version and upgrades it:
  1  the first shape: spec, runner, environment, runs, verdicts, calibration, status,
     reason, created.  A run's failure kind was the prefix of its error ("worker lost",
     "FutureCancelledError", "interrupted").
  2  a run carries its failure kind as a field (`failure`: lost | cut), written only when
     the run has one; its error text is unchanged.
"""
from __future__ import annotations

import copy
import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from enum import StrEnum
from pathlib import Path
from typing import Any

from claims.spec import Spec

RESULTS_VERSION = 2


class RunStatus(StrEnum):
    """How a results file ended."""

    COMPLETE = "complete"
    NOT_RUNNABLE = "not-runnable"
    FAILED = "failed"
    INTERRUPTED = "interrupted"


class FailureKind(StrEnum):
    """Why a run has no result although the benchmark itself did not fail."""

    LOST = "lost"  # the host went away during the run (the fleet tries it again)
    CUT = "cut"  # stopped from outside: cancelled, or no result in time


# version 1 told the failure kinds apart by the start of the error text
_V1_PREFIXES = ((FailureKind.LOST, ("worker lost",)),
                (FailureKind.CUT, ("FutureCancelledError", "interrupted")))


def _split(cls: type, d: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A stored object's keys: (the fields of `cls`, the ones this program does not know)."""
    names = {f.name for f in fields(cls)} - {"extra"}
    return ({k: v for k, v in d.items() if k in names},
            {k: v for k, v in d.items() if k not in names})


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
    failure: FailureKind | None = None  # lost or cut: the run never gave its result

    @property
    def unfinished(self) -> bool:
        """Lost or cut: the position has no result yet and may be run again."""
        return self.failure is not None

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        if d["failure"] is None:  # most runs: the file stays as version 1 wrote it
            del d["failure"]
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], version: int = RESULTS_VERSION) -> RunRecord:
        """A run as stored (results file, state, a fleet host's reply); keys this version
        does not know are left out, and a version 1 record gets its failure kind."""
        rec = cls(**_split(cls, d)[0])
        if rec.failure is not None:
            rec.failure = FailureKind(rec.failure)
        elif version < 2 and not rec.ok:
            rec.failure = failure_of(rec.error)
        return rec


def failure_of(error: str | None) -> FailureKind | None:
    """The failure kind a version 1 error text names by its prefix."""
    for kind, prefixes in _V1_PREFIXES:
        if (error or "").startswith(prefixes):
            return kind
    return None


class VerdictKind(StrEnum):
    """What the measured change says about the claimed one (verifier.verdict's rules)."""

    CONFIRMED = "CONFIRMED"
    PARTLY = "PARTLY CONFIRMED"
    NOT_REPRODUCED = "NOT REPRODUCED"
    CONTRADICTED = "CONTRADICTED"
    INCONCLUSIVE = "INCONCLUSIVE"
    NOT_RUNNABLE = "NOT RUNNABLE HERE"
    INVALID = "INVALID"
    UNDECIDED = "UNDECIDED"  # only between looks; never in a final verdict
    MIXED = "MIXED"  # a claim's rows disagree (summaries only)


@dataclass
class MeasuredEffect:
    """A verdict row's measured change as the file keeps it (verifier.stats.Effect, with
    what a report prints of it: the % change, its interval, the text and the estimator).

    `x`, `lo`, `hi` are log-ratios in the claimed direction; `df` is None for a normal
    interval (infinite degrees of freedom).  Keys this program does not know stay in `extra`.
    """

    x: float = 0.0
    lo: float = 0.0
    hi: float = 0.0
    level: float = 0.0
    n_base: int = 0
    n_cand: int = 0
    direction: int = 1
    paired: bool = False
    df: float | None = None
    se: float = 0.0
    trim: float = 0.0
    outliers: int = 0
    outlier_spread: bool = False
    notes: list[str] = field(default_factory=list)
    measured_pct: float = 0.0  # the change as the samples show it, percent
    ci_pct: list[float] = field(default_factory=list)  # its interval, percent: [lo, hi]
    text: str = ""  # '-0.2% [-16.3, +19.0] (99.77%, n=6+6, paired)'
    p_value: float | None = None
    estimator: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "extra"}
        return d | {"notes": list(self.notes), "ci_pct": list(self.ci_pct)} | self.extra

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> MeasuredEffect:
        known, unknown = _split(cls, d)
        return cls(**known, extra=unknown)


@dataclass
class ArithProblem:
    """Something wrong in a claim's own arithmetic, seen from the mail alone (verifier.arith)."""

    kind: str  # percentage | spread | single-run
    message: str
    line: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "message": self.message, "line": self.line}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ArithProblem:
        return cls(**_split(cls, d)[0])


@dataclass
class Verdict:
    """One verdict row: a metric of one candidate variant against the baseline.

    The fields are in the order the file writes them; the optional ones at the end are
    written only when set, as the rows have always been.  Keys a file has that this
    program does not know are kept in `extra` and written back unchanged.
    """

    metric: str | None = None  # the mail's name for it
    sample: str | None = None  # the tool's sample name the runs hold it under
    label: str | None = None
    unit: str | None = None
    better: str | None = None
    variant: str = "candidate"
    baseline_variant: str = "baseline"
    claimed_baseline: float | None = None
    claimed_candidate: float | None = None
    claimed_pct: float | None = None
    claim_note: str | None = None
    delta_pct: float = 1.0  # the noise band, percent
    n_base: int = 0
    n_cand: int = 0
    failed: dict[str, int] = field(default_factory=dict)
    verdict: VerdictKind | None = None
    detail: str | None = None
    reason: str | None = None
    decided: bool = True
    measured: str | None = None  # the measured change as a report prints it
    effect: MeasuredEffect | None = None  # None: nothing was compared
    ruled_out_pct: float | None = None
    alpha: float | None = None
    problems: list[ArithProblem] = field(default_factory=list)  # the claim's arithmetic
    no_change_claim: bool = False
    compared: str | None = None
    no_information: str | None = None
    # written only when set
    p_value: float | None = None
    outlier_spread: bool | None = None
    notes: list[str] = field(default_factory=list)
    whole: bool | None = None  # one verdict for every metric: nothing was measured
    sentence: str | None = None
    holm: bool | None = None  # judged at a Holm-corrected level with the other rows
    same_as: str | None = None  # the same measurement as this earlier row
    measured_verdict: VerdictKind | None = None  # before an emulated runner capped it
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The key the runs' samples hold this row under."""
        return self.sample or self.metric or ""

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {}
        for f in fields(self):
            if f.name == "extra":
                continue
            v = getattr(self, f.name)
            if f.name in _OPTIONAL and v in (None, []):
                continue
            d[f.name] = v.copy() if isinstance(v, dict | list) else v
        d["effect"] = self.effect.to_dict() if self.effect is not None else None
        d["problems"] = [p.to_dict() for p in self.problems]
        return d | self.extra

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Verdict:
        known, unknown = _split(cls, d)
        v = cls(**known, extra=unknown)
        for attr in ("verdict", "measured_verdict"):
            word = getattr(v, attr)
            if word is not None and word in _KINDS:
                setattr(v, attr, VerdictKind(word))
        if isinstance(v.effect, Mapping):
            v.effect = MeasuredEffect.from_dict(v.effect)
        v.problems = [ArithProblem.from_dict(p) if isinstance(p, Mapping) else p
                      for p in v.problems]
        return v


_OPTIONAL = frozenset(("p_value", "outlier_spread", "notes", "whole", "sentence", "holm",
                       "same_as", "measured_verdict"))
_KINDS = frozenset(k.value for k in VerdictKind)


def spec_of(spec: object) -> Spec:
    """The spec a results file ran: a copy, as the file has it (what the loop writes into
    its run plan stays in the results); a mapping (a stored file, a test's partial spec)
    is built without the schema check, its missing parts taking their defaults."""
    if isinstance(spec, Spec):
        return copy.deepcopy(spec)
    if not isinstance(spec, Mapping):
        raise ValueError("spec is not a mapping")
    for key in ("metrics", "variants"):
        items = spec.get(key, [])
        if not isinstance(items, list) or not all(
                isinstance(m, Mapping) and isinstance(m.get("name"), str) for m in items):
            raise ValueError(f"spec.{key} must be a list of {key} with names")
    return Spec.from_stored(spec)


@dataclass
class Results:
    spec: Spec
    runner: str
    environment: dict[str, Any] = field(default_factory=dict)
    runs: list[RunRecord] = field(default_factory=list)
    verdicts: list[Verdict] = field(default_factory=list)  # filled by the statistics
    calibration: dict[str, Any] = field(default_factory=dict)
    status: RunStatus = RunStatus.COMPLETE
    reason: str | None = None
    created: str = ""
    version: int = RESULTS_VERSION

    def __post_init__(self) -> None:
        self.spec = spec_of(self.spec)
        self.status = RunStatus(self.status)

    def samples(self, variant: str, metric: str) -> list[float]:
        return [r.samples[metric] for r in self.runs
                if r.variant == variant and r.ok and not r.warmup and metric in r.samples]

    def to_dict(self) -> dict[str, Any]:
        return {"spec": self.spec.to_dict(), "runner": self.runner,
                "environment": self.environment, "runs": [r.to_dict() for r in self.runs],
                "verdicts": [v.to_dict() if isinstance(v, Verdict) else v
                             for v in self.verdicts],
                "calibration": self.calibration, "status": self.status, "reason": self.reason,
                "created": self.created, "version": RESULTS_VERSION}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Results:
        """A results file of this or any older version (ValueError for a newer one or a
        wrong shape)."""
        version = d.get("version", 1)
        if not isinstance(version, int) or version > RESULTS_VERSION:
            raise ValueError(f"results format {version!r} is newer than this program's "
                             f"({RESULTS_VERSION})")
        runs, verdicts = d.get("runs", []), d.get("verdicts", [])
        if not isinstance(runs, list) or not all(isinstance(r, Mapping) for r in runs):
            raise ValueError("runs must be a list of run records")
        if not isinstance(verdicts, list) or not all(isinstance(v, Mapping) for v in verdicts):
            raise ValueError("verdicts is not a list of verdict rows")
        names = {f.name for f in fields(cls)} - {"spec", "runs", "verdicts", "version"}
        return cls(spec=spec_of(d.get("spec")), runs=[RunRecord.from_dict(r, version)
                                                      for r in runs],
                   verdicts=[Verdict.from_dict(v) for v in verdicts],
                   **{k: v for k, v in d.items() if k in names})

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
