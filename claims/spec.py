"""The executable spec: what a claim says was measured, in a form a runner can execute.

A spec is a YAML file a person reads and may edit (hosts, runs, durations).  It is built
from extracted claims (`verifier spec`), validated against a schema on load, and carries
everything a runner and the statistics need: the benchmark as a tool plus argv, the server
side, the variants with their typed setup steps (or kernels), the metrics with their claimed
values and direction, the run plan, and where the claim came from.
"""
from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, field, fields
from functools import cache
from pathlib import Path
from typing import Any

import yaml

SPEC_VERSION = 1
SCHEMA_PATH = Path(__file__).parent / "schemas" / "spec.schema.json"


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
    name: str  # as the mail names it: the tool's name when pasted output, else prose
    unit: str | None = None
    better: str | None = None  # "higher" | "lower" | None
    baseline: float | None = None  # claimed values as printed
    candidate: float | None = None
    claimed_change_pct: float | None = None
    spread_pct: float | None = None
    runs: int | None = None
    label: str | None = None  # the row/column it came from in the mail
    variant: str = "candidate"  # the variant whose claimed value `candidate` is
    # the tool's sample name the runner measures; None when it is `name` itself or unknown
    sample: str | None = None
    # the mail claims no change ("no regression", "same", "within noise"): only then is
    # it a claim of no change, never because the claimed number is small
    no_change: bool = False
    # the claimed change's sign is its merit, better (+) or worse (-), not its way: the mail
    # said "regresses by 5%" of a measure whose direction it does not name (Claim.merit)
    merit: bool = False


def sample_name(metric: Metric | Mapping[str, Any]) -> str:
    """The key a run's samples hold a spec metric (typed, or a stored dict) under: what
    the tool measures (`transaction_rate`) rather than the mail's words for it."""
    if isinstance(metric, Metric):
        return metric.sample or metric.name or ""
    return metric.get("sample") or metric.get("name") or ""


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
        d = asdict(self)
        return {k: d[k] for k in _ORDER} | {k: v for k, v in d.items() if k not in _ORDER}

    def to_yaml(self) -> str:
        """The spec as one YAML document, field order kept so a person can read it."""
        return yaml.dump(self.to_dict(), Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                         width=100, default_flow_style=False)

    @classmethod
    def from_dict(cls, d: dict[str, Any], where: str = "spec") -> Spec:
        """Build a spec from a mapping after checking it against the schema."""
        errors = schema_errors(d)
        if errors:
            raise SpecError([f"{where}: {e}" for e in errors])
        return _build(cls, d)

    @classmethod
    def from_stored(cls, d: Mapping[str, Any]) -> Spec:
        """A spec as a results file or the bot's state keeps it, without the schema check
        (it had one when it was built; a later, stricter schema must not make stored
        results unreadable); missing parts take their defaults."""
        base = {"id": "", "benchmark": {"tool": "", "argv": []}, "variants": [], "metrics": []}
        return _build(cls, {**base, **{k: v for k, v in d.items() if v is not None
                                       or k == "server"}})

    @classmethod
    def from_yaml(cls, text: str, where: str = "spec") -> Spec:
        specs = specs_from_yaml(text, where)
        if len(specs) != 1:
            raise SpecError([f"{where}: expected one spec, found {len(specs)}"])
        return specs[0]


# The order a reader wants: where it came from and what runs, before the numbers.
_ORDER = ("version", "id", "source", "needs", "notes", "roles", "benchmark", "server", "variants",
          "metrics", "run", "claimed_environment")


class SpecError(ValueError):
    """A spec that does not validate; `problems` holds one line per error (path: reason)."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


@cache
def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text())


@cache
def _spec_validator() -> Any:
    import jsonschema

    return jsonschema.Draft202012Validator(schema())


def schema_errors(d: Any) -> list[str]:
    """Schema violations as 'path: reason' lines (empty when the document is valid)."""
    validator = _spec_validator()
    out = [f"{p}: {v!r} is not a finite number" for p, v in _non_finite(d)]
    for err in sorted(validator.iter_errors(d), key=lambda e: list(map(str, e.absolute_path))):
        path = "/".join(str(p) for p in err.absolute_path) or "(top)"
        out.append(f"{path}: {_short(err.message)}")
    return out


# A spec is a page of YAML a person reads; anything much larger is not one (and /dev/zero
# must end in an error, not fill memory).
MAX_SPEC_BYTES = 4 << 20
MAX_SPECS = 256


def _no_aliases(mark: Any) -> yaml.composer.ComposerError:
    """The refusal of an alias, at the mark (of either loader's Mark type) where it stands."""
    return yaml.composer.ComposerError(None, None, "aliases (*name) are not accepted in a spec",
                                       mark)


class _Loader(yaml.SafeLoader):
    """safe_load without aliases: `*a` repeated in nested lists is a billion-laughs bomb
    for everything that walks the document (schema check, asdict, hashing)."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise _no_aliases(event.start_mark)
        return super().compose_node(parent, index)


EXTRACTION_SCHEMA_PATH = Path(__file__).parent / "schemas" / "extraction.schema.json"


@cache
def _extraction_validator() -> Any:
    import jsonschema

    return jsonschema.Draft202012Validator(json.loads(EXTRACTION_SCHEMA_PATH.read_text()))


def extraction_errors(d: Any) -> list[str]:
    """One message's extraction JSON (what `verifier spec` reads back) checked by
    claims/schemas/extraction.schema.json: 'path: reason' lines, empty when valid."""
    out = [f"{p}: {v!r} is not a finite number" for p, v in _non_finite(d)]
    for err in sorted(_extraction_validator().iter_errors(d),
                      key=lambda e: list(map(str, e.absolute_path))):
        path = "/".join(str(p) for p in err.absolute_path) or "(top)"
        out.append(f"{path}: {_short(err.message, 100)}")
    return out


def _non_finite(d: Any, path: str = "") -> list[tuple[str, float]]:
    """NaN and infinities anywhere in a document (JSON Schema's "number" accepts them, and
    `duration: .nan` compares false with every limit)."""
    out: list[tuple[str, float]] = []
    stack: list[tuple[str, Any]] = [(path, d)]
    while stack:
        at, v = stack.pop()
        if isinstance(v, float) and not math.isfinite(v):
            out.append((at or "(top)", v))
        elif isinstance(v, dict):
            stack.extend((f"{at}/{k}".lstrip("/"), x) for k, x in v.items())
        elif isinstance(v, list):
            stack.extend((f"{at}/{i}".lstrip("/"), x) for i, x in enumerate(v))
    return sorted(out)


def _load_all(text: str) -> Iterator[Any]:
    """safe_load_all without aliases, through libyaml when it is there (five times faster:
    the bot reads a spec back for every claim)."""
    fast = getattr(yaml, "CSafeLoader", None)
    if fast is None:
        yield from yaml.load_all(text, Loader=_Loader)  # noqa: S506 - a SafeLoader
        return
    for event in yaml.parse(text, Loader=fast):
        if isinstance(event, yaml.AliasEvent):
            raise _no_aliases(event.start_mark)
    yield from yaml.load_all(text, Loader=fast)  # noqa: S506 - libyaml's SafeLoader


def specs_from_yaml(text: str, where: str = "spec") -> list[Spec]:
    """Every spec in a (multi-document) YAML text; SpecError lists all problems at once."""
    if len(text) > MAX_SPEC_BYTES:
        raise SpecError([f"{where}: too large for a spec ({len(text) >> 10} KB, limit "
                         f"{MAX_SPEC_BYTES >> 20} MB)"])
    try:
        docs = []
        for d in _load_all(text):
            if d is not None:
                docs.append(d)
            if len(docs) > MAX_SPECS:
                raise SpecError([f"{where}: more than {MAX_SPECS} specs in one file"])
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        at = f" line {mark.line + 1}" if mark is not None else ""
        problem = " ".join(str(getattr(e, "problem", None) or e).split())
        raise SpecError([f"{where}:{at} not YAML: {problem}"]) from None
    except RecursionError:
        raise SpecError([f"{where}: nested too deeply for a spec"]) from None
    if not docs:
        raise SpecError([f"{where}: no spec in the file"])
    specs: list[Spec] = []
    problems: list[str] = []
    for i, doc in enumerate(docs):
        label = f"{where}" if len(docs) == 1 else f"{where} document {i + 1}"
        try:
            specs.append(Spec.from_dict(doc, label))
        except SpecError as e:
            problems.extend(e.problems)
    if problems:
        raise SpecError(problems)
    return specs


def load_specs(path: str | Path) -> list[Spec]:
    """Read the specs in a YAML file (`-` for stdin); raise SpecError with readable lines."""
    import sys

    name = "<stdin>" if str(path) == "-" else str(path)
    if str(path) == "-" and (sys.stdin is None or sys.stdin.closed):
        raise SpecError([f"{name}: standard input is closed"])
    try:
        if str(path) == "-":
            data = sys.stdin.buffer.read(MAX_SPEC_BYTES + 1)
        else:
            with open(path, "rb") as f:
                data = f.read(MAX_SPEC_BYTES + 1)
        text = data.decode("utf-8")
    except (OSError, ValueError) as e:  # ValueError: a closed stream; UnicodeDecodeError
        why = getattr(e, "strerror", None) or (
            "not UTF-8 text" if isinstance(e, UnicodeDecodeError) else e)
        raise SpecError([f"{name}: cannot read: {why}"]) from None
    return specs_from_yaml(text, name)


def dump_specs(specs: list[Spec]) -> str:
    """Several specs as one multi-document YAML text."""
    return "---\n".join(s.to_yaml() for s in specs)


def _short(msg: str, limit: int = 160) -> str:
    msg = " ".join(msg.split())
    return msg if len(msg) <= limit else msg[: limit - 3] + "..."


_NESTED: dict[tuple[str, str], type] = {}


def _build(cls: type, d: dict[str, Any]) -> Any:
    """Dataclass from a schema-valid mapping, nested dataclasses included."""
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in d:
            continue
        v = d[f.name]
        sub = _NESTED.get((cls.__name__, f.name))
        if sub is not None and v is not None:
            v = [_build(sub, x) for x in v] if isinstance(v, list) else _build(sub, v)
        kwargs[f.name] = v
    return cls(**kwargs)


_NESTED.update({
    ("Spec", "benchmark"): Command, ("Spec", "server"): Command,
    ("Spec", "variants"): Variant, ("Spec", "metrics"): Metric,
    ("Spec", "source"): Source, ("Spec", "run"): RunPlan,
    ("Variant", "setup"): Action, ("Variant", "kernel"): Kernel,
})


class _Dumper(yaml.SafeDumper):
    """Multi-line strings (quoted mail lines) as literal blocks, so the YAML reads like the mail."""


def _str_rep(dumper: yaml.SafeDumper, s: str) -> yaml.Node:
    if "\n" in s and not any(c in s for c in "\t\r") and not s.endswith(" "):
        return dumper.represent_scalar("tag:yaml.org,2002:str", s, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", s)


def _list_rep(dumper: yaml.SafeDumper, items: list[Any]) -> yaml.Node:
    short = all(isinstance(x, str | int | float) and not isinstance(x, bool) for x in items)
    flow = short and sum(len(str(x)) + 2 for x in items) < 80 and not any(
        isinstance(x, str) and "\n" in x for x in items)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", items, flow_style=flow)


_Dumper.add_representer(str, _str_rep)
_Dumper.add_representer(list, _list_rep)
