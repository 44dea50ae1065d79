"""The data model shared by every stage: message lines in, commands, setup steps and claims out.

Everything here is a plain dataclass so that it serialises to the JSON contract of
`verifier extract --format json` with `to_dict()` and is easy to build in tests.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from claims.numbers import common_scale

Better = Literal["higher", "lower"] | None


@dataclass(slots=True)
class Line:
    """One body line of a message as the extractor sees it.

    `text` has the quote markers removed; `number` is the 1-based line number in the
    original input (file or stdin), so reports can point a reader at the exact spot.
    """

    text: str
    number: int
    depth: int = 0
    author: str | None = None  # who wrote it (attribution lines credit quoted text)
    message_id: str | None = None  # the message it was first written in, when known


@dataclass
class Message:
    """A decoded message: headers and the body lines that carry content."""

    message_id: str | None = None
    subject: str | None = None
    from_: str | None = None
    date: str | None = None
    to: str | None = None
    cc: str | None = None
    in_reply_to: str | None = None
    references: list[str] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    lines: list[Line] = field(default_factory=list)
    source: str | None = None
    warnings: list[str] = field(default_factory=list)

    @property
    def body(self) -> str:
        return "\n".join(ln.text for ln in self.lines)


@dataclass
class Command:
    """A benchmark invocation found in a message."""

    raw: str  # as written, prompt and an output file's redirection stripped, continuation lines joined
    line: int
    tool: str | None = None
    argv: list[str] = field(default_factory=list)
    host: str | None = None  # host named by the shell prompt (`lpaa5:~# `)
    variables: list[str] = field(default_factory=list)  # shell variables left in it ($peer)
    wrappers: list[str] = field(default_factory=list)  # taskset/numactl/perf stat around it
    in_prose: bool = False
    depth: int = 0
    author: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class SetupStep:
    """A typed configuration step (sysctl, sysfs/procfs write, ethtool, tc, ...)."""

    raw: str
    kind: str  # sysctl | sysfs | procfs | ethtool | tc | ip | taskset | numactl | other
    line: int
    key: str | None = None  # sysctl name, sysfs path, ethtool sub-command...
    value: str | None = None
    device: str | None = None
    host: str | None = None
    args: list[str] = field(default_factory=list)
    depth: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Value:
    """One side of a claim: a number as printed, in the unit printed beside it."""

    value: float
    label: str | None = None
    unit: str | None = None
    spread: float | None = None  # +- as printed
    spread_kind: Literal["pct", "abs"] | None = None
    runs: int | None = None
    line: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Claim:
    """A performance claim: a baseline/candidate pair, or a change stated on its own."""

    metric: str
    unit: str | None = None
    better: Better = None
    tool: str | None = None
    baseline: Value | None = None
    candidate: Value | None = None
    claimed_change_pct: float | None = None  # the change the text states, if any
    p_value: float | None = None
    lines: tuple[int, int] = (0, 0)
    context: str | None = None  # the benchmark/test the claim belongs to (row label, heading)
    author: str | None = None
    message_id: str | None = None
    depth: int = 0
    # the mail says the change leaves the metric as it was ("no regression", "within noise"):
    # a claim of no change, which only the mail's words make one, never a small number
    no_change: bool = False
    # a change stated alone in words of merit ("regresses by 5%", "12% faster") of a measure
    # whose direction the mail does not name: its sign says better (+) or worse (-), not up
    # or down, and only the measured metric's direction turns it into a way
    merit: bool = False

    def candidate_in_baseline_unit(self) -> float | None:
        """The candidate's value in the baseline's unit: each side keeps the number as
        printed, and a tool that changed its scale between them ("1,441,759 op/s" /
        "1,992 kop/s") printed them in different units of one quantity."""
        if self.candidate is None:
            return None
        scales = common_scale(self.baseline.unit, self.candidate.unit) if self.baseline else None
        return self.candidate.value if scales is None else self.candidate.value * scales[1] / scales[0]

    @property
    def change_pct(self) -> float | None:
        """Change computed from the two values, in percent of the baseline."""
        cand = self.candidate_in_baseline_unit()
        if self.baseline is None or cand is None or self.baseline.value == 0:
            return None
        return round((cand / self.baseline.value - 1.0) * 100.0, 4)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["lines"] = list(self.lines)
        d["change_pct"] = self.change_pct
        return d


@dataclass
class Extraction:
    """Everything extracted from one message."""

    message: Message
    commands: list[Command] = field(default_factory=list)
    setup: list[SetupStep] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        m = self.message
        return {
            "message_id": m.message_id,
            "subject": m.subject,
            "from": m.from_,
            "date": m.date,
            "in_reply_to": m.in_reply_to,
            "source": m.source,
            "warnings": list(m.warnings),
            "commands": [c.to_dict() for c in self.commands],
            "setup": [s.to_dict() for s in self.setup],
            "claims": [c.to_dict() for c in self.claims],
        }
