"""What a benchmark tool description is.

Each tool (netperf, iperf3, perf stat, ...) is described once, in its own module:
  * how its command line reads (`options`: which options exist, what values they take),
    so a command from a mail can be validated argument by argument before anything runs;
  * what its output means (`find_outputs`): the same parser reads numbers pasted in an
    email and numbers a runner just measured, so both carry the same metric names;
  * which metrics go up or down (`Sample.better`).

Metric naming scheme (stable across a mail paste and a fresh run of the same command):
  * lowercase snake_case names for what the tool itself computes, after the tool's own
    column or key names: netperf `throughput`, `transaction_rate`, `cpu_local`,
    `service_demand_remote`; omni selectors lowercased (`p99_latency`); iperf3/iperf
    `sender_bitrate`, `receiver_transfer`, `sender_retransmits`; sockperf `avg_latency`,
    `p99_latency`; neper keys as printed (`throughput`, `latency_p99`);
  * perf stat event names exactly as the kernel prints them (`cycles:k`, `task-clock`),
    derived `#` metrics snake_cased (`insns_per_cycle`), `time_elapsed` for the wall clock;
  * `unit` is the unit printed beside the number (`10^6bits/s`, `trans/s`, `Mbits/sec`,
    `%`, `us/Tr`, `msec`, `count`), and `value` is the number in that unit, so a claim's
    numbers are kept as the mail printed them (`unit_factor` converts between rate units);
  * `better` is "higher", "lower" or None when the direction is not a quality (a rate of
    page faults per second);
  * `config=True` marks numbers the tool prints that are settings, not results (socket
    buffer sizes, message sizes, test length): an extractor must not report them as claims.

Tools that print one line per interval or per CPU (xdp-bench, perf stat -I/-A) give one
sample per line under the same metric, told apart by `label`; a runner averages them.
A claim written in prose ("TCP_RR transaction rate", "packet rate" in Mpps) names its
metric in the mail's words; `ToolDescription.sample_for` says which of the tool's sample
names a run of the command measures for it (`claim_kind` reads the unit and the words).
Command lines: `Option.refused` names options that are never accepted and why (files
written, commands run); `ToolDescription.subcommand` keeps a mode word first on rewrite
(`sockperf ping-pong`); `tool_for_program` also accepts a description's name (`iperf2`).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

Better = Literal["higher", "lower"] | None


@dataclass
class Sample:
    """One number read from tool output, under the tool's canonical metric name."""

    metric: str
    value: float
    unit: str | None = None
    better: Better = None
    spread_pct: float | None = None  # relative spread as printed (perf stat `+- x%`)
    runs: int | None = None  # repetitions the number summarises (perf stat -r N)
    line: int | None = None  # 0-based index into the lines that were parsed
    label: str | None = None  # a qualifier such as "sender"/"receiver"
    config: bool = False  # a setting the tool echoes (socket size, test length): not a claim


@dataclass
class OutputBlock:
    """A contiguous piece of one tool's output: where it is and what it says."""

    tool: str
    start: int  # 0-based first line index (inclusive)
    end: int  # 0-based last line index (inclusive)
    samples: list[Sample] = field(default_factory=list)
    command: str | None = None  # a command the output names (perf stat's header)
    info: dict[str, str] = field(default_factory=dict)  # test name, protocol, ...


class Refused(ValueError):
    """A command or argument the description does not accept; the message says why."""


# ---------------------------------------------------------------------------------------
# Command-line grammar

ValueCheck = Callable[[str], bool]

_HOSTLIKE = re.compile(r"^[A-Za-z0-9:\[][A-Za-z0-9.\-:_%\[\]]*$")  # names, IPv4, IPv6
_SAFE_WORD = re.compile(r"^[A-Za-z0-9_.,:/=+\-@%]*$")


def is_int(v: str) -> bool:
    return re.fullmatch(r"[+-]?\d+", v) is not None


def is_number(v: str) -> bool:
    return re.fullmatch(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?", v) is not None


def is_size(v: str) -> bool:
    """A size or rate with an optional suffix: 64, 128K, 1M, 10G, 100m, 1.5g."""
    return re.fullmatch(r"\d+(\.\d+)?[kKmMgGtT]?[bB]?", v) is not None


def is_host(v: str) -> bool:
    return _HOSTLIKE.fullmatch(v) is not None  # fullmatch: `$` would let "h\n" through


def is_word(v: str) -> bool:
    """A harmless token: letters, digits and `_.,:/=+-@%`; no shell syntax, no spaces."""
    return _SAFE_WORD.fullmatch(v) is not None and ".." not in v


def is_csv_of(check: ValueCheck) -> ValueCheck:
    return lambda v: all(check(p) for p in v.split(",") if p != "")


def one_of(*choices: str, case: bool = False) -> ValueCheck:
    allowed = set(choices) if case else {c.lower() for c in choices}
    return lambda v: (v if case else v.lower()) in allowed


@dataclass(frozen=True)
class Option:
    """One option of a tool's command line.

    `names` are the spellings (`-l`, `--time`); `value` checks its argument, or is None for
    a flag.  `role` marks options whose value the runner rewrites: "host" (a peer address),
    "duration" (seconds), "port", "device" (an interface), "cpu" (CPU pinning); "repeat"
    (`perf stat -r`) is read, not rewritten.
    `max_value` bounds numeric arguments (durations, counts) so a mail cannot ask for days.
    """

    names: tuple[str, ...]
    value: ValueCheck | None = None
    role: str | None = None
    max_value: float | None = None
    optional_value: bool = False  # e.g. netperf -c [rate]
    help: str = ""
    refused: str | None = None  # a known option that is never accepted; the reason why


@dataclass
class ParsedArgs:
    """A validated command: options in order, and the positional arguments."""

    program: str
    options: list[tuple[Option, str, str | None]]  # (option, spelling used, value)
    positionals: list[str]
    extra: ParsedArgs | None = None  # arguments after `--` (netperf test-specific)

    def get(self, role: str) -> str | None:
        for opt, _, val in self.options:
            if opt.role == role:
                return val
        return self.extra.get(role) if self.extra else None


class OptionSet:
    """A set of options and how they may be spelled: `-l 20`, `-l20`, `--time=20`, `-Cc`."""

    def __init__(self, options: Sequence[Option], positionals: ValueCheck | None = None,
                 max_positionals: int = 0):
        self.options = list(options)
        self.positionals = positionals
        self.max_positionals = max_positionals
        self._by_name: dict[str, Option] = {}
        for opt in self.options:
            for n in opt.names:
                self._by_name[n] = opt

    def lookup(self, name: str) -> Option | None:
        return self._by_name.get(name)

    def parse(self, program: str, args: Sequence[str]) -> ParsedArgs:
        """Parse `args`; raise Refused naming the first argument that is not accepted."""
        out = ParsedArgs(program=program, options=[], positionals=[])
        i = 0
        args = list(args)
        while i < len(args):
            a = args[i]
            i += 1
            if a.startswith("--") and len(a) > 2:
                name, eq, val = a.partition("=")
                opt = self.lookup(name)
                if opt is None:
                    raise Refused(f"{program}: unknown option {name!r}")
                _refuse_if_refused(program, opt, name)
                if opt.value is None:
                    if eq:
                        raise Refused(f"{program}: option {name} takes no value")
                    out.options.append((opt, name, None))
                    continue
                if not eq:
                    if i >= len(args) or (opt.optional_value and args[i].startswith("-")):
                        if opt.optional_value:
                            out.options.append((opt, name, None))
                            continue
                        raise Refused(f"{program}: option {name} needs a value")
                    val = args[i]
                    i += 1
                self._check(program, opt, name, val)
                out.options.append((opt, name, val))
            elif a.startswith("-") and len(a) > 1 and not is_number(a):
                self._parse_short(program, a, args, i, out)
                i = out._next_index  # type: ignore[attr-defined]
            else:
                if self.positionals is None or len(out.positionals) >= self.max_positionals:
                    raise Refused(f"{program}: unexpected argument {a!r}")
                if not self.positionals(a):
                    raise Refused(f"{program}: argument {a!r} is not accepted")
                out.positionals.append(a)
        return out

    def _parse_short(self, program: str, a: str, args: list[str], i: int, out: ParsedArgs) -> None:
        # Whole token first (`-Cc` may itself be nothing, `-n100000` a value glued on).
        opt = self.lookup(a)
        if opt is not None:
            _refuse_if_refused(program, opt, a)
            if opt.value is None:
                out.options.append((opt, a, None))
                out._next_index = i  # type: ignore[attr-defined]
                return
            if i < len(args) and not (opt.optional_value and args[i].startswith("-")):
                val = args[i]
                self._check(program, opt, a, val)
                out.options.append((opt, a, val))
                out._next_index = i + 1  # type: ignore[attr-defined]
                return
            if opt.optional_value:
                out.options.append((opt, a, None))
                out._next_index = i  # type: ignore[attr-defined]
                return
            raise Refused(f"{program}: option {a} needs a value")
        # `-l20` / `-n100000000`: option letter with the value glued on.
        head = a[:2]
        opt = self.lookup(head)
        glued_ok = opt is not None and opt.value is not None and not (
            opt.optional_value and not opt.value(a[2:].lstrip("=")))  # `-Cc` is two flags
        if opt is not None and opt.value is not None and glued_ok:
            _refuse_if_refused(program, opt, head)
            val = a[2:]
            if val.startswith("="):
                val = val[1:]
            self._check(program, opt, head, val)
            out.options.append((opt, head, val))
            out._next_index = i  # type: ignore[attr-defined]
            return
        # `-Cc`: a cluster of flags.
        letters = a[1:]
        flags = [self.lookup("-" + ch) for ch in letters]
        if all(o is not None and (o.value is None or o.optional_value) for o in flags):
            for ch, o in zip(letters, flags, strict=True):
                assert o is not None
                _refuse_if_refused(program, o, "-" + ch)
                out.options.append((o, "-" + ch, None))
            out._next_index = i  # type: ignore[attr-defined]
            return
        raise Refused(f"{program}: unknown option {a!r}")

    @staticmethod
    def _check(program: str, opt: Option, name: str, val: str) -> None:
        assert opt.value is not None
        if not opt.value(val):
            raise Refused(f"{program}: value {val!r} of {name} is not accepted")
        if opt.max_value is not None and is_number(val) and float(val) > opt.max_value:
            raise Refused(f"{program}: {name} {val} is above the limit {opt.max_value:g}")


def _refuse_if_refused(program: str, opt: Option, name: str) -> None:
    if opt.refused:
        raise Refused(f"{program}: option {name} is refused: {opt.refused}")


# ---------------------------------------------------------------------------------------
# The description itself


class ToolDescription:
    """Base class for one benchmark tool. Subclasses set the class attributes and override
    `find_outputs`; the command-line methods work from `options` for most tools."""

    name: str = ""
    programs: tuple[str, ...] = ()  # argv[0] basenames that mean this tool
    options: OptionSet = OptionSet([])
    server_programs: tuple[str, ...] = ()  # what must run on the server role (netserver)
    subcommand: bool = False  # the first positional is a mode written before the options
    # The sub-command words that run a measurement, for a program that has other ones too
    # (`perf stat`, `perf bench`; `perf top` and `perf report` inspect a system): empty when
    # every invocation of the program is a run.
    modes: frozenset[str] = frozenset()
    per_interval: bool = False  # one line per interval of the same metric: a run is their mean

    # What the rest of the system needs to know about the tool, written here once: the
    # checks, spec building, runners, fleet hosts and lint read these (via `all_tools()`).
    # Options refused on its programs / its server programs whatever `options` says (files
    # written, programs run): a second guard, in case the grammar above misses one.
    denied_options: frozenset[str] = frozenset()
    server_denied_options: frozenset[str] = frozenset()
    # Counts that turn one run into hours whatever the duration cap says: option -> maximum.
    count_limits: Mapping[str, float] = MappingProxyType({})
    version_flag: tuple[str, ...] = ("--version",)  # prints the version as its first line
    # A run assumed when the mail shows the tool's output but no command (iperf3 -c server).
    default_argv: tuple[str, ...] = ()
    default_port: int | None = None  # for a port the mail writes as shell arithmetic
    peer: bool = False  # always measures against a server on the peer role
    network: bool = False  # measures the network path (a reader needs the NIC and driver)
    wraps: bool = False  # counts what another command does (perf stat CMD)

    # What a claim of each kind (see `claim_kind`) is among this tool's samples, when the
    # command line does not decide it; tools whose argv decides override `claim_sample`.
    claim_samples: dict[str, str] = {}
    # The result names the parser emits (config numbers left out), and a pattern for the
    # names it makes up while parsing (perf events, omni selectors, percentiles).
    sample_names: frozenset[str] = frozenset()
    sample_pattern: str | None = None

    # -- output -----------------------------------------------------------------------
    def find_outputs(self, lines: Sequence[str]) -> list[OutputBlock]:
        """Find this tool's output in `lines` (a mail body or a run's stdout)."""
        return []

    def line_samples(self, text: str) -> list[Sample]:
        """The numbers one line of this tool's output prints, named (`line` 0): for a line
        pasted alone under a mail's label ("1K:  [  5] 30.00-35.00 sec ..."), without the
        headers or the summary `find_outputs` reads a run by.  [] when the line is not the
        tool's or the tool's lines do not name their numbers by themselves."""
        return []

    def is_sample_name(self, name: str) -> bool:
        """Is `name` one of the names this tool's parser gives its results?"""
        return name in self.sample_names or (
            self.sample_pattern is not None and re.fullmatch(self.sample_pattern, name) is not None)

    def sample_for(self, metric_name: str, unit: str | None,
                   argv: Sequence[str]) -> str | None:
        """The sample name a run of `argv` measures for a claim about `metric_name` in
        `unit` (the mail's words), or None when the description cannot tell.

        A name the parser itself gives is kept; otherwise the unit and the words say what
        kind of number it is, and the tool (with its command line) says which sample that is.
        """
        if self.is_sample_name(metric_name):
            return metric_name
        kind = claim_kind(metric_name, unit)
        if kind is None and _names_the_run(metric_name, argv, self.name):
            kind = "headline"  # "TCP_RR Average": the run's own figure
        if kind is None:
            return None
        return self.claim_sample(kind, metric_name, unit, self.try_parse(argv))

    def claim_sample(self, kind: str, name: str, unit: str | None,
                     parsed: ParsedArgs | None) -> str | None:
        """The sample for a claim of `kind`; `parsed` is the command (None if refused)."""
        return self.claim_samples.get(kind)

    def try_parse(self, argv: Sequence[str]) -> ParsedArgs | None:
        try:
            return self.parse_args(argv)
        except Refused:
            return None

    def parse(self, text: str) -> list[Sample]:
        """All samples in a run's output (the runner's entry point)."""
        out: list[Sample] = []
        for block in self.find_outputs(text.splitlines()):
            out.extend(block.samples)
        return out

    def parse_run(self, argv: Sequence[str], text: str) -> list[Sample]:
        """Samples of a run of `argv`: the runner's entry point. Pass stdout and stderr
        joined (perf stat writes its counters to stderr). The argv matters for output that
        does not say what it measured (super_netperf's bare total, netperf -P 0)."""
        return self.parse(text)

    # -- command line -----------------------------------------------------------------
    def parse_args(self, argv: Sequence[str]) -> ParsedArgs:
        """Validate a full argv (argv[0] is the program); raise Refused with the reason."""
        if not argv:
            raise Refused("empty command")
        prog = argv[0].rsplit("/", 1)[-1]
        if prog not in self.programs:
            raise Refused(f"{prog!r} is not {self.name}")
        return self.options.parse(prog, argv[1:])

    def server_argv(self, parsed: ParsedArgs) -> list[str] | None:
        """The server side this command needs (netserver, iperf3 -s), or None."""
        return None

    def duration(self, parsed: ParsedArgs) -> float | None:
        v = parsed.get("duration")
        return float(v) if v is not None and is_number(v) else None

    def invocations(self, parsed: ParsedArgs) -> int:
        """How many times one command runs its measurement (`perf stat -r 5` runs the
        wrapped benchmark five times), so a run's timeout covers all of them."""
        v = parsed.get("repeat")
        return max(1, int(v)) if v is not None and is_int(v) else 1

    def rewrite(self, argv: Sequence[str], *, host: str | None = None,
                duration: float | None = None, port: int | None = None) -> list[str]:
        """Return argv with the peer host, duration and port replaced by the runner's own.

        Options with those roles are replaced in place; a missing duration or host option is
        added with the first spelling the description lists.
        """
        parsed = self.parse_args(argv)
        wanted = {"host": host, "duration": None if duration is None else _fmt_num(duration),
                  "port": None if port is None else str(port)}
        out = [argv[0]]
        if self.subcommand and parsed.positionals:
            out.append(parsed.positionals.pop(0))  # `sockperf ping-pong -i ...`
        seen: set[str] = set()

        def emit(p: ParsedArgs) -> None:
            for opt, spelling, val in p.options:
                if opt.role in wanted and wanted[opt.role] is not None:
                    seen.add(opt.role)
                    out.extend([spelling, wanted[opt.role]])  # type: ignore[list-item]
                else:
                    out.append(spelling)
                    if val is not None:
                        out.append(val)
            out.extend(p.positionals)

        emit(parsed)
        for role, val in wanted.items():
            if val is None or role in seen:
                continue
            opt = next((o for o in self.options.options if o.role == role), None)
            if opt is not None:
                out.extend([opt.names[0], val])
        if parsed.extra is not None:
            out.append("--")
            emit(parsed.extra)
        return out


def _fmt_num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


_NUM = r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][+-]?\d+)?"
NUMBER_RE = re.compile(_NUM)


def to_float(text: str) -> float:
    """A number as printed, thousands separators removed: '160,975,944,159' -> 160975944159."""
    return float(text.replace(",", ""))


_RATE_PREFIX = {"": 1.0, "k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12}


def unit_factor(unit: str | None) -> float | None:
    """How many bits/s (or bytes, or packets/s) one `unit` is: 'Mbits/sec' -> 1e6,
    '10^6bits/s' -> 1e6, 'GBytes' -> 8e9 bits; None for a unit it does not know.
    Lets a comparison relate a mail's `Gbits/sec` to a run's `bits/sec`."""
    if not unit:
        return None
    u = unit.strip()
    m = re.fullmatch(r"(\d+)\^(\d+)(bits|Bytes)/s(?:ec)?", u)
    if m:
        return float(m.group(1)) ** int(m.group(2)) * (8.0 if m.group(3) == "Bytes" else 1.0)
    m = re.fullmatch(r"([kKmMgGtT]?)(bits|Bytes|bps|b|B)(/s(?:ec)?)?", u)
    if m:
        scale = _RATE_PREFIX[m.group(1).lower()]
        return scale * (8.0 if m.group(2) in ("Bytes", "B") else 1.0)
    m = re.fullmatch(r"([kKmMgG]?)(pps|pkt/s)", u)
    if m:
        return _RATE_PREFIX[m.group(1).lower()]
    return None


# ---------------------------------------------------------------------------------------
# What kind of number a claim is, from its unit and the words of its name

_PACKET_UNIT = re.compile(r"[kKmMgG]?(?:pps|pkts?/s(?:ec)?|packets?/s(?:ec)?)")
_TRANS_UNIT = re.compile(r"[kKmM]?(?:(?:trans(?:actions?)?|tr|req(?:uests?)?|ops|msgs?|messages?)"
                         r"\s*/\s*s(?:ec)?|tps|rps|iops)", re.I)
_RATE_UNIT = re.compile(r"[kKmMgGtT]?(?:bits?|bytes?|b|B)(?:ps|/s(?:ec)?)|\d+\^\d+\w+/s(?:ec)?",
                        re.I)
_TIME_UNIT = re.compile(r"ns|nsec|us|usec|\u00b5s|\u03bcs|ms|msec", re.I)
_CPU_WORDS = re.compile(r"\bcpu|\butil|\bsoftirq|\bsys\b|\busr\b|\bidle\b", re.I)
# Words of a name, first match wins; "other" is a measure no tool here reports as a result.
_NAME_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (k, re.compile(p, re.I)) for k, p in (
        ("jitter", r"\bjitter"),
        ("latency", r"latenc|\brtt\b|round.?trip|percentile|\bp\d{2}(?:\.\d+)?\b"),
        ("retransmits", r"\bretrans|\bretr\b|\bretr(?:y|ies)\b"),
        ("loss", r"\blos[st]\b|\bloss\b"),
        ("cpu", r"\bcpu|\butili[sz]ation\b"),
        ("other", r"\birqs?|interrupt|context.?switch|cache|miss|cycles|instructions|fault|"
                  r"\bsecs?\b|seconds|\btime\b|elapsed|duration|\bsize\b|\bbytes\b|"
                  r"memory|\bmem\b|\bpower\b|energy"),
        ("packet_rate", r"\bpps\b|packet.?rate|packets?\s+per\s+sec|\bpkts?\b|\bpackets?\b"),
        ("transaction_rate", r"transaction|\btrans\b|\btps\b|request|\brps\b|\bops\b|"
                             r"\bmsgs?\b|messages?"),
        ("bitrate", r"\bbitrate|bandwidth|goodput|\b[kmgt]?bps\b|\b[kmgt]?bits?\b"),
        ("headline", r"throughput|\brate\b|performance|\bperf\b|\bscore\b|\bresults?\b|"
                     r"average|\bavg\b|\bmean\b|\bspeed\b"),
    ))


def claim_kind(name: str, unit: str | None) -> str | None:
    """What a claim measures, from its unit, then the words of its name:
    bitrate, packet_rate, transaction_rate, latency, cpu, jitter, retransmits, loss,
    headline (a rate the name does not qualify: "throughput") or None (cannot tell, or a
    measure such as IRQ counts or elapsed seconds that the run's results do not hold)."""
    u = (unit or "").strip()
    if u:
        if _PACKET_UNIT.fullmatch(u):
            return "packet_rate"
        if _TRANS_UNIT.fullmatch(u):
            return "transaction_rate"
        if _RATE_UNIT.fullmatch(u) or (unit_factor(u) is not None and u.lower().endswith(
                ("/s", "/sec", "ps"))):
            return "bitrate"
        if _TIME_UNIT.fullmatch(u):
            return "jitter" if re.search(r"\bjitter", name, re.I) else "latency"
        if u == "%" and _CPU_WORDS.search(name):
            return "cpu"
    for kind, pat in _NAME_KINDS:
        if pat.search(name):
            return None if kind == "other" else kind
    return None


def latency_stat(name: str) -> str | None:
    """Which latency figure a name means: "99", "99.9" (percentiles), "50" (median),
    "min", "max", "stddev", or None for the mean/average (or unqualified)."""
    m = re.search(r"\bp(\d{2}(?:\.\d+)?)\b|\b(\d{2}(?:\.\d+)?)(?:th|st|nd|rd)?[\s-]*"
                  r"(?:percentile|pct|%ile)", name, re.I)
    if m:
        return m.group(1) or m.group(2)
    if re.search(r"\bmedian\b", name, re.I):
        return "50"
    for stat, pat in (("min", r"\bmin(?:imum)?\b"), ("max", r"\bmax(?:imum)?\b"),
                      ("stddev", r"std.?dev|\bstd\b|deviation")):
        if re.search(pat, name, re.I):
            return stat
    return None


def side_of(name: str) -> str | None:
    """"local" or "remote" when the name says which end it measured (CPU of a host)."""
    if re.search(r"\b(?:remote|server|receiver|peer|rx)\b", name, re.I):
        return "remote"
    if re.search(r"\b(?:local|client|sender|host|tx)\b", name, re.I):
        return "local"
    return None


def option_given(parsed: ParsedArgs | None, name: str) -> bool:
    """Was the option spelled `name` (any of its spellings) given before any `--`?"""
    return parsed is not None and any(name in o.names for o, _, _ in parsed.options)


def _names_the_run(name: str, argv: Sequence[str], tool: str) -> bool:
    """Does the name mention the tool or a word of its command (TCP_RR in `-t TCP_RR`)?"""
    words = {tool, *(a for a in argv[1:] if re.fullmatch(r"[A-Za-z][\w.-]{2,}", a)
                     and a != "server")}
    if argv:
        words.add(argv[0].rsplit("/", 1)[-1])
    return any(re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", name, re.I) for w in words if w)
