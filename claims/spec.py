"""The executable spec: what a claim says was measured, in a form a runner can execute.

A spec is a YAML file a person reads and may edit (hosts, runs, durations).  It is built
from extracted claims (`verifier spec`), validated against a schema on load, and carries
everything a runner and the statistics need: the benchmark as a tool plus argv, the server
side, the variants with their typed setup steps (or kernels), the metrics with their claimed
values and direction, the run plan, and where the claim came from.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

SPEC_VERSION = 1


@dataclass
class Source:
    message_id: str | None = None
    author: str | None = None
    subject: str | None = None
    date: str | None = None
    lines: list[int] = field(default_factory=lambda: [0, 0])
    quote: str = ""  # the claim's lines as they appear in the mail
    url: str | None = None


@dataclass
class Action:
    """A typed setup step, applied on the named host roles and undone after the run.

    kind: sysctl (key, value) | sysfs (path under /sys/class/net/<dev>/, value) |
          procfs (/proc/sys/net/... path, value) | ethtool (sub: features|coalesce|ring|channels,
          device, settings) | tc (device, qdisc argv) | cpu-pin (cpus for the benchmark process)
    `device` is the interface named in the mail; the runner maps it onto its own device.
    """

    kind: str
    key: str | None = None
    value: str | None = None
    device: str | None = None
    settings: dict[str, str] = field(default_factory=dict)
    args: list[str] = field(default_factory=list)
    roles: list[str] = field(default_factory=lambda: ["client", "server"])
    raw: str = ""
    approved: bool = False  # set only by a person (`verifier run --approve`)
    reason: str | None = None  # why it needs approval, when it is not on the allow-list


@dataclass
class Kernel:
    """A kernel a variant needs: a base commit/tree and the patch series on top, or an image."""

    base: str | None = None  # commit or branch (net-next)
    series: str | None = None  # Message-ID of the series to apply
    image: str | None = None  # a kernel image given by the user


@dataclass
class Variant:
    name: str  # "baseline", "candidate", "candidate-2", ...
    label: str | None = None  # as the mail names it ("gro_flush_timeout=2000", "after #3")
    setup: list[Action] = field(default_factory=list)
    kernel: Kernel | None = None


@dataclass
class Command:
    """The benchmark (or its server side) as a validated argv with the original text."""

    tool: str
    argv: list[str]
    original: str = ""
    role: str = "client"
    peer_role: str | None = "server"  # whose address replaces the host in argv
    bindings: dict[str, str] = field(default_factory=dict)  # "$peer" -> "server"


@dataclass
class Metric:
    name: str  # the tool description's metric name
    unit: str | None = None
    better: str | None = None  # "higher" | "lower" | None
    baseline: float | None = None  # claimed values as printed
    candidate: float | None = None
    claimed_change_pct: float | None = None
    spread_pct: float | None = None
    runs: int | None = None
    label: str | None = None  # the row/column it came from in the mail


@dataclass
class RunPlan:
    repetitions: int = 5  # first batch per variant
    max_repetitions: int = 30
    duration: float | None = None  # seconds per run, replaces the mail's -l/-t
    duration_cap: float = 60.0
    timeout: float = 300.0  # per run, hard
    output_cap: int = 1 << 20  # bytes kept per stream
    warmup: int = 1
    seed: int = 1
    time_budget: float | None = None  # seconds for the whole spec


@dataclass
class Spec:
    id: str
    benchmark: Command
    variants: list[Variant]
    metrics: list[Metric]
    source: Source = field(default_factory=Source)
    roles: list[str] = field(default_factory=lambda: ["client", "server"])
    server: Command | None = None
    run: RunPlan = field(default_factory=RunPlan)
    claimed_environment: dict[str, Any] = field(default_factory=dict)  # NIC, CPUs as the mail says
    needs: list[str] = field(default_factory=list)  # what this runner must offer ("kernel")
    notes: list[str] = field(default_factory=list)
    version: int = SPEC_VERSION

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
