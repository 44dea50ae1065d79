"""perf stat: counter blocks (with `-r N` spreads), derived `#` metrics, elapsed time, -x CSV.

Event names stay exactly as printed (`cycles:k`, `task-clock`): they are the kernel's own
names and a maintainer greps for them. Derived `#` comments become their own samples:
`insns_per_cycle` (IPC), `<event>_pct` for "% of all ..." shares, `<event>/sec` for the
rates perf prints per event (unit as printed: GHz, K/sec), else the comment snake_cased.
The wall clock is `time_elapsed` (s); `time_user` and `time_sys` likewise. The share of
the run a multiplexed counter was scheduled (`(71.20%)` at the line's end) is bookkeeping,
kept as a config sample so that it never becomes a claim.

The command perf ran (`Performance counter stats for 'trafgen -i foo ...' (10 runs):`)
is exposed as OutputBlock.command; a perf stat argv is validated by the options below and
the wrapped command by its own tool's description.
"""
from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import replace
from types import MappingProxyType

from claims.tools import register, tool_for_program
from claims.tools.base import (
    Better,
    Option,
    OptionSet,
    OutputBlock,
    ParsedArgs,
    Refused,
    Sample,
    ToolDescription,
    is_csv_of,
    is_int,
    is_word,
)
from claims.tools.text import NUM, clean_all, mentions, num, sample, slug

_HEADER = re.compile(r"Performance counter stats for\s+(?:'(.*?)'|(process id\s+'[^']*'|"
                     r"thread id\s+'[^']*'|system wide|CPU\(s\)[^:]*))"
                     r"(?:\s*\((\d+)\s+runs\))?\s*:?")
_HEADER_OPEN = re.compile(r"Performance counter stats for\s+'([^']*)$")
_EVENT = re.compile(
    rf"^\s*({NUM}|<not supported>|<not counted>)\s+"
    r"(?:(msec|usec|nsec|ns|Joules|joules|MiB|W|%)\s+)?"
    r"([A-Za-z_][\w\-:/.,=@{}\[\]]*)"
    rf"(?:\s+#\s+({NUM})\s*(%?)\s*(.*?))?"
    rf"\s*(?:\(\s*\+-\s*({NUM})%\s*\))?\s*(?:\(\s*({NUM})%\s*\))?\s*$")
_TIME = re.compile(
    rf"^\s*({NUM})\s*(?:\+-\s*({NUM})\s*)?seconds\s+(time elapsed|user|sys)"
    rf"\s*(?:\(\s*\+-\s*({NUM})%\s*\))?\s*$")
_PREFIX = re.compile(r"^\s*(?:(\d+\.\d{6,})|(CPU\d+))\s+(?=\S)")  # -I time, -A CPU
_CSV = re.compile(rf"^({NUM}|<not supported>|<not counted>)([,;])([^,;]*)\2([^,;]+)\2(.*)$")

_MARKERS = re.compile(r"counter stats|seconds\s+(?:time elapsed|user|sys)|\+-\s*\d[\d.]*\s*%"
                      r"|,,|,msec,|#\s+time\s+counts|\"counter-value\"")
_RATE_UNITS = {"GHz", "MHz", "K/sec", "M/sec", "G/sec", "/sec"}


def _derived(event: str, value: float, pct: str, desc: str, line: int) -> Sample | None:
    desc = desc.strip()
    if not desc and not pct:
        return None
    low = desc.lower()
    if pct or desc.startswith("%"):
        better: Better = None if "utilized" in low else "lower"
        return sample(f"{event}_pct", value, "%", better, line, label=desc.lstrip("% ").strip())
    if low.startswith("insn") and "per cycle" in low:
        return sample("insns_per_cycle", value, "IPC", "higher", line)
    if desc in _RATE_UNITS:
        return sample(f"{event}/sec", value, desc, None, line)
    worse: Better = "lower" if "stalled" in low or "per insn" in low else None
    return sample(slug(desc), value, None, worse, line)


_ROW_END = re.compile(r"(runs\)\s*:|counter stats for\s+'[^']*'\s*:|\(\s*\+-\s*[\d.]+%\s*\))\s+")


def _expand(text: list[str]) -> list[tuple[int, str]]:
    """(line index, text) pairs; a line holding a whole `-r` block (an archive page that
    lost its line breaks) is cut after the header and after each `( +- x% )`."""
    out: list[tuple[int, str]] = []
    for i, t in enumerate(text):
        if len(t) > 160 and t.count("+-") >= 2 and "counter stats" in t:
            out.extend((i, part) for part in _ROW_END.sub(r"\1\n", t).split("\n"))
        else:
            out.append((i, t))
    return out


class PerfStat(ToolDescription):
    name = "perf"  # the program; only its `stat` sub-command is described
    programs = ("perf",)
    denied_options = frozenset({"--pre", "--post", "-o", "--output", "--append", "--log-fd",
                                "--control"})
    # perf stat -r N runs the benchmark N times per run: N = 100 was 1.8 h of host time per
    # claim at the bot's defaults
    count_limits = MappingProxyType({"-r": 10, "--repeat": 10})
    wraps = True
    sample_pattern = r"\S+"  # event names as the kernel prints them: a claim keeps its own

    options = OptionSet([
        Option(("-e", "--event"), lambda v: re.fullmatch(r"[\w\-:/.,=@{}\[\]]+", v) is not None,
               help="events"),
        Option(("-r", "--repeat"), is_int, role="repeat", max_value=100, help="repetitions"),
        Option(("-a", "--all-cpus"), None),
        Option(("-C", "--cpu"), is_csv_of(lambda v: re.fullmatch(r"\d+(-\d+)?", v) is not None),
               role="cpu"),
        Option(("-A", "--no-aggr"), None),
        Option(("-d", "--detailed"), None),
        Option(("-x", "--field-separator"), lambda v: v in (",", ";", "|", " ")),
        Option(("-v", "--verbose"), None),
        Option(("-B", "--big-num"), None), Option(("--no-big-num",), None),
        Option(("-n", "--null"), None),
        Option(("-S", "--sync"), None),
        Option(("-G", "--cgroup"), is_word),
        Option(("-I", "--interval-print"), is_int),
        Option(("--interval-count",), is_int, max_value=10000),
        Option(("-T", "--transaction"), None),
        Option(("--topdown",), None), Option(("--td-level",), is_int),
        Option(("--per-core",), None), Option(("--per-socket",), None),
        Option(("--per-thread",), None), Option(("--per-node",), None),
        Option(("--per-die",), None),
        Option(("-M", "--metrics"), is_csv_of(is_word)),
        Option(("--metric-only",), None),
        Option(("-i", "--no-inherit"), None),
        Option(("-D", "--delay"), is_int, max_value=60000),
        Option(("--timeout",), is_int, max_value=600000),
        Option(("-j", "--json"), None),
        Option(("--smi-cost",), None),
        Option(("-o", "--output"), is_word, refused="writes a file"),
        Option(("--append",), None, refused="appends to a file"),
        Option(("--log-fd",), is_int, refused="writes to an inherited descriptor"),
        Option(("--pre",), is_word, refused="runs an arbitrary command"),
        Option(("--post",), is_word, refused="runs an arbitrary command"),
        Option(("-p", "--pid"), is_word, refused="attaches to processes it did not start"),
        Option(("-t", "--tid"), is_word, refused="attaches to threads it did not start"),
        Option(("--control",), is_word, refused="opens control files/fifos"),
        Option(("-b", "--bpf-prog"), is_word, refused="attaches to BPF programs"),
    ])

    # -- command line -----------------------------------------------------------------
    def _split(self, argv: Sequence[str]) -> tuple[list[str], list[str]]:
        """perf stat's own options, and the command it runs."""
        if len(argv) < 2 or argv[1] != "stat":
            sub = argv[1] if len(argv) > 1 else ""
            raise Refused(f"perf: only `perf stat` is accepted, not {sub!r}")
        args = list(argv[2:])
        i = 0
        while i < len(args):
            a = args[i]
            if a == "--":
                return args[:i], args[i + 1:]
            if not a.startswith("-") or a == "-":
                return args[:i], args[i:]
            name = a.split("=", 1)[0] if a.startswith("--") else a
            opt = self.options.lookup(name) or (self.options.lookup(a[:2])
                                                 if not a.startswith("--") else None)
            glued = "=" in a or (opt is not None and name != a) or (
                opt is not None and not a.startswith("--") and len(a) > 2)
            if opt is not None and opt.value is not None and not glued:
                i += 1
            i += 1
        return args, []

    def parse_args(self, argv: Sequence[str]) -> ParsedArgs:
        if not argv:
            raise Refused("empty command")
        prog = argv[0].rsplit("/", 1)[-1]
        if prog not in self.programs:
            raise Refused(f"{prog!r} is not perf")
        own, inner = self._split(argv)
        parsed = self.options.parse("perf stat", own)
        if not inner:
            raise Refused("perf stat: no command to measure")
        tool = tool_for_program(inner[0])
        if tool is None or tool is self:
            raise Refused(f"perf stat: {inner[0]!r} is not a described benchmark tool")
        parsed.extra = tool.parse_args(inner)
        parsed.positionals = list(inner)
        return parsed

    def inner_tool(self, parsed: ParsedArgs) -> ToolDescription | None:
        return tool_for_program(parsed.positionals[0]) if parsed.positionals else None

    def _inner(self, argv: Sequence[str]) -> tuple[ToolDescription, list[str]] | None:
        parsed = self.try_parse(argv)
        tool = self.inner_tool(parsed) if parsed is not None else None
        return (tool, list(parsed.positionals)) if tool is not None and parsed else None

    def parse_run(self, argv: Sequence[str], text: str) -> list[Sample]:
        """The counters, and what the wrapped benchmark printed (`perf stat -- netperf`
        claims compare both); a counter keeps its name when the two collide."""
        own = self.parse(text)
        inner = self._inner(argv)
        if inner is None:
            return own
        names = {x.metric for x in own}
        # `-r N` runs the benchmark N times: its figures are averaged, as perf's counters are
        by_name: dict[str, list[Sample]] = {}
        for x in inner[0].parse_run(inner[1], text):
            if x.metric not in names:
                by_name.setdefault(x.metric, []).append(x)
        return own + [replace(xs[0], value=sum(x.value for x in xs) / len(xs))
                      for xs in by_name.values()]

    def sample_for(self, metric_name: str, unit: str | None,
                   argv: Sequence[str]) -> str | None:
        """What the wrapped benchmark measures when it knows the claim's metric (a
        transaction rate), else the counter's own name."""
        inner = self._inner(argv)
        found = inner[0].sample_for(metric_name, unit, inner[1]) if inner else None
        return found or super().sample_for(metric_name, unit, argv)

    def server_argv(self, parsed: ParsedArgs) -> list[str] | None:
        tool = self.inner_tool(parsed)
        return tool.server_argv(parsed.extra) if tool and parsed.extra else None

    def rewrite(self, argv: Sequence[str], *, host: str | None = None,
                duration: float | None = None, port: int | None = None) -> list[str]:
        own, inner = self._split(argv)
        self.parse_args(argv)
        tool = tool_for_program(inner[0])
        assert tool is not None
        return [argv[0], "stat", *own, "--",
                *tool.rewrite(inner, host=host, duration=duration, port=port)]

    # -- output -----------------------------------------------------------------------
    def find_outputs(self, lines: Sequence[str]) -> list[OutputBlock]:
        if not mentions(lines, ("counter stats", "seconds", "+-", ",,", ",msec,", "counts",
                                '"counter-value"'),
                        _MARKERS):
            return []
        entries = _expand(clean_all(lines))
        blocks: list[OutputBlock] = []
        cur: OutputBlock | None = None
        blanks = 0
        p = 0
        while p < len(entries):
            i, t = entries[p]
            hdr = _HEADER.search(t)
            skip = 0
            if hdr is None and _HEADER_OPEN.search(t) and p + 1 < len(entries):
                joined = t + " " + entries[p + 1][1].strip()  # header wrapped by the mail
                hdr = _HEADER.search(joined)
                skip = 1 if hdr else 0
            if hdr:
                if cur is not None and cur.samples:
                    blocks.append(cur)
                runs = int(hdr.group(3)) if hdr.group(3) else None
                cur = OutputBlock(tool=self.name, start=i, end=entries[p + skip][0],
                                  command=hdr.group(1) or None,
                                  info={"target": hdr.group(1) or hdr.group(2) or ""})
                if runs:
                    cur.info["runs"] = str(runs)
                blanks = 0
                p += 1 + skip
                continue
            got = self._line_samples(t, i)
            if got is not None:
                if cur is None:
                    cur = OutputBlock(tool=self.name, start=i, end=i)
                runs = int(cur.info["runs"]) if "runs" in cur.info else None
                for s in got:
                    s.runs = runs
                cur.samples.extend(got)
                cur.end = i
                blanks = 0
            elif not t.strip():
                blanks += 1
                if cur is not None and blanks > 3:
                    cur = self._close(cur, blocks)
            elif cur is not None:
                cur = self._close(cur, blocks)
            p += 1
        if cur is not None:
            self._close(cur, blocks)
        return blocks

    @staticmethod
    def _close(cur: OutputBlock, blocks: list[OutputBlock]) -> None:
        """Keep a block that reads like perf stat; the caller starts afresh.

        Without the `Performance counter stats` header, a line such as `42 cycles` in prose
        is not enough: ask for the elapsed time, a `+-` spread, or three counter lines."""
        if not cur.samples:
            return None
        headed = "target" in cur.info
        lines = {s.line for s in cur.samples}
        if headed or len(lines) >= 3 or any(
                s.metric == "time_elapsed" or s.spread_pct is not None for s in cur.samples):
            blocks.append(cur)
        return None

    @classmethod
    def _line_samples(cls, t: str, i: int) -> list[Sample] | None:
        """Samples of one perf stat line; [] for a counter perf could not read; None if the
        line is not perf stat output. `-I` lines carry their time and `-A` lines their CPU
        as the sample's label (one sample per interval or CPU, same metric)."""
        got = cls._plain_samples(t, i)
        if got is None and (p := _PREFIX.match(t)):
            got = cls._plain_samples(t[p.end():], i)
            for s in got or []:
                s.label = f"t={p.group(1)}" if p.group(1) else p.group(2)
        return got

    @staticmethod
    def _json_samples(t: str, i: int) -> list[Sample] | None:
        """`perf stat -j`: one JSON object per counter."""
        try:
            d = json.loads(t)
        except ValueError:
            return None
        if not isinstance(d, dict) or "event" not in d or "counter-value" not in d:
            return None
        try:
            value = float(d["counter-value"])
        except (TypeError, ValueError):
            return []  # <not supported>
        event = str(d["event"])
        spread = d.get("variance")
        out = [sample(event, value, d.get("unit") or "count", "lower", i,
                      spread_pct=float(spread) if isinstance(spread, (int, float)) else None)]
        mv, mu = d.get("metric-value"), d.get("metric-unit")
        if isinstance(mv, (int, float)) and mu:
            derived = _derived(event, float(mv), "", str(mu), i)
            if derived is not None:
                out.append(derived)
        return out

    @classmethod
    def _plain_samples(cls, t: str, i: int) -> list[Sample] | None:
        if t.startswith('{"counter-value"'):
            return cls._json_samples(t, i)
        m = _TIME.match(t)
        if m:
            metric = "time_" + m.group(3).split()[-1] if m.group(3) != "time elapsed" \
                else "time_elapsed"
            s = sample(metric, num(m.group(1)), "s", "lower", i,
                       spread_pct=num(m.group(4)) if m.group(4) else None)
            return [s]
        m = _EVENT.match(t)
        if m and not re.fullmatch(r"seconds|runs?|sec", m.group(3)):
            if m.group(1).startswith("<"):
                return []
            event = m.group(3)
            spread = num(m.group(7)) if m.group(7) else None
            out = [sample(event, num(m.group(1)), m.group(2) or "count", "lower", i,
                          spread_pct=spread)]
            if m.group(4):
                d = _derived(event, num(m.group(4)), m.group(5), m.group(6) or "", i)
                if d is not None:
                    out.append(d)
            if m.group(8):  # "(71.20%)": the share of the run the counter was scheduled
                out.append(sample(f"{event}_scheduled_pct", num(m.group(8)), "%", None, i, config=True))
            return out
        m = _CSV.match(t)
        if m:
            if m.group(1).startswith("<"):
                return []
            event = m.group(4)
            rest = m.group(5).split(m.group(2))
            spread = None
            if rest and rest[0].endswith("%"):
                spread = num(rest[0][:-1]) if rest[0][:-1] else None
                rest = rest[1:]
            out = [sample(event, num(m.group(1)), m.group(3) or "count", "lower", i,
                          spread_pct=spread)]
            if len(rest) >= 4 and rest[2] and rest[3]:
                d = _derived(event, num(rest[2]), "", rest[3], i)
                if d is not None:
                    out.append(d)
            return out
        return None


PERF_STAT = register(PerfStat())
