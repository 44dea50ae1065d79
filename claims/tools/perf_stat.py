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
the wrapped command by its own tool's description. The output (text, -x CSV, -j JSON) is
read by claims.tools.perf_stat_output.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from types import MappingProxyType

from claims.tools import perf_stat_output, register, tool_for_program
from claims.tools.base import (
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


class PerfStat(ToolDescription):
    name = "perf"  # the program; only its `stat` sub-command is described
    programs = ("perf",)
    # what a mail's `perf ...` runs to measure; `perf record` profiles a run it wraps
    modes = frozenset({"stat", "bench", "record"})
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
        """Counter blocks: read by claims.tools.perf_stat_output."""
        return perf_stat_output.find_outputs(lines, self.name)


PERF_STAT = register(PerfStat())
