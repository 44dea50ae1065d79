"""sockperf: ping-pong / under-load latency summaries and throughput summaries.

Metric names: `avg_latency` (usec; `avg_rtt` with --full-rtt), `latency_std_dev`,
`min_latency`, `max_latency`, percentiles as `p50_latency`, `p99_latency`, `p99_9_latency`
(99.9) ..., `dropped_messages`, `duplicated_messages`, `out_of_order_messages`; throughput
mode: `message_rate` (msg/sec) and `bandwidth` (MBps). The valid-duration counters are
config. Colour codes sockperf writes to a terminal are stripped before reading.
A prose claim reads by the mode: ping-pong/under-load report latencies, throughput mode a
message rate and a bandwidth.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from claims.tools import register
from claims.tools.base import (
    Option,
    OptionSet,
    OutputBlock,
    ParsedArgs,
    Refused,
    Sample,
    ToolDescription,
    is_csv_of,
    is_host,
    is_int,
    is_number,
    is_word,
    latency_stat,
    one_of,
    option_given,
)
from claims.tools.text import NUM, clean_all, mentions, num, remap, sample, split_collapsed

_PREFIX = re.compile(r"^\s*sockperf\s*(?:\[[A-Z]+\])?\s*:?", re.I)
_AVG = re.compile(rf"avg-(lat(?:ency)?|rtt)\s*=\s*({NUM})\s*\(\s*std-dev\s*=\s*({NUM})")
_SUMMARY_LAT = re.compile(rf"Summary:\s*(Latency|Round trip) is\s+({NUM})\s*usec", re.I)
_PCT = re.compile(rf"--->\s*percentile\s+({NUM})\s*=\s*({NUM})")
_MINMAX = re.compile(rf"--->\s*<(MAX|MIN)>\s*observation\s*=\s*({NUM})")
_COUNTS = re.compile(r"#\s*(dropped|duplicated|out-of-order) messages\s*=\s*(\d+)")
_RATE = re.compile(rf"Summary:\s*Message Rate is\s+({NUM})\s*\[msg/sec\]", re.I)
_BW = re.compile(rf"Summary:\s*BandWidth is\s+({NUM})\s*(\w+)", re.I)
_VALID = re.compile(rf"\[Valid Duration\]\s*RunTime=({NUM})\s*sec;\s*SentMessages=(\d+);"
                    r"\s*ReceivedMessages=(\d+)")

_COLLAPSED_CUT = re.compile(r"\s+(?=sockperf\s*:)")  # each report line starts with it
_NEW_RUN = re.compile(r"== version #|Starting test|\[Total Run\]")

MODES = ("ping-pong", "pp", "under-load", "ul", "throughput", "tp", "server", "sr")


def _pct_name(p: float) -> str:
    return "p" + f"{p:g}".replace(".", "_") + "_latency"


class Sockperf(ToolDescription):
    name = "sockperf"
    programs = ("sockperf",)
    subcommand = True
    server_programs = ("sockperf",)
    denied_options = frozenset({"--full-log", "--tcp-avoid-nodelay-file", "-f", "--feedfile",
                                "--daemonize", "--load-vma"})
    default_argv = ("sockperf", "ping-pong", "-i", "server")
    default_port = 11111
    peer = network = True
    sample_names = frozenset({
        "avg_latency", "avg_rtt", "latency_std_dev", "min_latency", "max_latency",
        "dropped_messages", "duplicated_messages", "out_of_order_messages", "message_rate",
        "bandwidth"})
    sample_pattern = r"p\d+(?:_\d+)?_latency"

    def claim_sample(self, kind: str, name: str, unit: str | None,
                     parsed: ParsedArgs | None) -> str | None:
        if parsed is None or not parsed.positionals:
            return None
        if parsed.positionals[0] in ("throughput", "tp"):
            return {"headline": "message_rate", "transaction_rate": "message_rate",
                    "bitrate": "bandwidth"}.get(kind)
        if kind not in ("headline", "latency"):
            return None
        stat = latency_stat(name)
        if stat is None:
            return "avg_rtt" if option_given(parsed, "--full-rtt") else "avg_latency"
        if stat == "stddev":
            return "latency_std_dev"
        return f"{stat}_latency" if not stat[0].isdigit() else _pct_name(float(stat))

    options = OptionSet([
        Option(("-i", "--ip"), is_host, role="host"),
        Option(("-p", "--port"), is_int, role="port"),
        Option(("-t", "--time"), is_number, role="duration", max_value=600),
        Option(("-m", "--msg-size"), is_int, max_value=65507),
        Option(("--mps", "--pps"), lambda v: v == "max" or is_int(v)),
        Option(("--tcp",), None),
        Option(("--nonblocked",), None),
        Option(("-F", "--iomux-type"), one_of("s", "p", "e", "r", "x", "select", "poll",
                                              "epoll", "recvfrom", "socketxtreme")),
        Option(("--reply-every",), is_int),
        Option(("--burst",), is_int, max_value=100000),
        Option(("--tos",), is_word),
        Option(("--mc-ttl",), is_int),
        Option(("--buffer-size",), is_int),
        Option(("--sender-affinity",), is_csv_of(is_int), role="cpu"),
        Option(("--receiver-affinity",), is_csv_of(is_int)),
        Option(("--no-rdtsc",), None),
        Option(("--increase_output_precision",), None),
        Option(("--full-rtt",), None),
        Option(("--data-integrity",), None),
        Option(("--dontwarmup",), None),
        Option(("--pre-warmup-wait",), is_int, max_value=60),
        Option(("--dummy-send",), is_word, optional_value=True),
        Option(("--rate-limit",), is_int),
        Option(("--threads-num",), is_int, max_value=64),
        Option(("--cpu-affinity",), is_csv_of(is_int), role="cpu"),
        Option(("-d", "--debug"), None),
        Option(("-f", "--file"), is_word, refused="reads an address file"),
        Option(("--full-log",), is_word, refused="writes a file"),
        Option(("--daemonize",), None, refused="daemonizes, so it could not be reaped"),
        Option(("--load-vma",), is_word, refused="loads a shared library"),
        Option(("--data-file",), is_word, refused="reads a file"),
    ])

    def parse_args(self, argv: Sequence[str]) -> ParsedArgs:
        if len(argv) < 2 or argv[1] not in MODES:
            mode = argv[1] if len(argv) > 1 else ""
            raise Refused(f"sockperf: mode {mode!r} is not one of {', '.join(MODES[::2])}")
        parsed = super().parse_args([argv[0], *argv[2:]])
        parsed.positionals.insert(0, argv[1])
        return parsed

    def server_argv(self, parsed: ParsedArgs) -> list[str] | None:
        out = ["sockperf", "server"]
        port = parsed.get("port")
        if port:
            out += ["-p", port]
        if any(o.names[0] == "--tcp" for o, _, _ in parsed.options):
            out.append("--tcp")
        return out

    # -- output -----------------------------------------------------------------------
    def find_outputs(self, lines: Sequence[str]) -> list[OutputBlock]:
        if not mentions(lines, ("sockperf",)):
            return []
        text, index = split_collapsed(clean_all(lines), _COLLAPSED_CUT, min_cuts=3)
        blocks: list[OutputBlock] = []
        cur: OutputBlock | None = None
        gap = 0
        for i, t in enumerate(text):
            got = self._line(t, i)
            ours = got is not None or _PREFIX.match(t) is not None
            if ours and cur is not None and cur.samples and _NEW_RUN.search(t):
                blocks.append(cur)  # a second run pasted right after the first
                cur = None
            if ours:
                if cur is None:
                    cur = OutputBlock(tool=self.name, start=i, end=i)
                if got:
                    names = {s.metric for s in cur.samples}
                    cur.samples.extend(s for s in got if s.metric not in names)
                cur.end = i
                gap = 0
            elif cur is not None:
                gap += 1
                if t.strip() or gap > 1:
                    if cur.samples:
                        blocks.append(cur)
                    cur = None
        if cur is not None and cur.samples:
            blocks.append(cur)
        return remap(blocks, index)

    @staticmethod
    def _line(t: str, i: int) -> list[Sample] | None:
        m = _AVG.search(t)
        if m:
            name = "avg_rtt" if m.group(1) == "rtt" else "avg_latency"
            return [sample(name, num(m.group(2)), "usec", "lower", i),
                    sample("latency_std_dev", num(m.group(3)), "usec", "lower", i)]
        m = _SUMMARY_LAT.search(t)
        if m:
            return [sample("avg_latency", num(m.group(2)), "usec", "lower", i)]
        m = _PCT.search(t)
        if m:
            return [sample(_pct_name(num(m.group(1))), num(m.group(2)), "usec", "lower", i)]
        m = _MINMAX.search(t)
        if m:
            return [sample(f"{m.group(1).lower()}_latency", num(m.group(2)), "usec", "lower",
                           i)]
        counts = _COUNTS.findall(t)
        if counts:
            return [sample(f"{k.replace('-', '_')}_messages", float(v), "count", "lower", i)
                    for k, v in counts]
        m = _RATE.search(t)
        if m:
            return [sample("message_rate", num(m.group(1)), "msg/sec", "higher", i)]
        m = _BW.search(t)
        if m:
            return [sample("bandwidth", num(m.group(1)), m.group(2), "higher", i)]
        m = _VALID.search(t)
        if m:
            return [sample("valid_runtime", num(m.group(1)), "s", None, i, config=True),
                    sample("sent_messages", num(m.group(2)), "count", None, i, config=True),
                    sample("received_messages", num(m.group(3)), "count", None, i,
                           config=True)]
        return None


SOCKPERF = register(Sockperf())
