"""iperf (2.x): client/server reports, -P [SUM] lines, -e enhanced columns, UDP server report.

Metric names follow iperf2's own column titles: `bandwidth` (unit as printed), `transfer`,
`retries` (-e, `Rtry`), and for UDP the server's report: `server_bandwidth`, `jitter`,
`lost`, `lost_pct`. With -P N only the [SUM] line is read; without it, the final report of
each stream (the interval that starts at 0 and ends last). A prose claim of a bit rate is
`bandwidth`, the client's report, which every run prints.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from types import MappingProxyType

from claims.tools import register
from claims.tools.base import (
    Option,
    OptionSet,
    OutputBlock,
    ParsedArgs,
    Sample,
    ToolDescription,
    is_host,
    is_int,
    is_number,
    is_size,
    is_word,
    one_of,
    option_given,
)
from claims.tools.iperf_common import COLLAPSED_CUT, UDP_TAIL, ReportLine, report_line
from claims.tools.text import clean_all, mentions, num, remap, runs_of, sample, split_collapsed

_AUX = re.compile(r"^\s*(-{20,}\s*$|\[\s*ID\s*\]|Client connecting to|Server listening on|"
                  r"TCP window size|UDP buffer size|Write buffer size|Read buffer size|"
                  r"Sending \d+ byte datagrams|TOS set to|Receiving \d+ byte datagrams|"
                  r"\[\s*(?:\d+|SUM)\s*\]\s*(?:local\s|Sent\s|Server Report))")
_SERVER_REPORT = re.compile(r"Server Report", re.I)
_MARKERS = ("bits/sec", ",0.0-", ",0.0000-")  # a text report, or a -y C final line
_ENHANCED = re.compile(r"^(\d+)/(\d+)\s+(\d+)\b")
_CSV = re.compile(r"^\s*\d{14}(?:\.\d+)?,[^,]*,\d+,[^,]*,\d+,(-?\d+),(\d+\.\d+)-(\d+\.\d+),"
                  r"(\d+),(\d+)(?:,.*)?$")


def _rate(v: str) -> bool:
    return re.fullmatch(r"\d+(\.\d+)?[kKmMgG]?(pps)?(,\d+(\.\d+)?[kKmMgG]?)?", v) is not None


class Iperf2(ToolDescription):
    name = "iperf2"
    programs = ("iperf",)
    server_programs = ("iperf",)
    denied_options = frozenset({"-o", "--output", "-F", "--fileinput", "-D", "--daemon", "-I",
                                "--stdin"})
    count_limits = MappingProxyType({"-P": 128, "--parallel": 128})
    version_flag = ("-v",)
    default_argv = ("iperf", "-c", "server")
    default_port = 5001
    peer = network = True
    sample_names = frozenset({"bandwidth", "transfer", "retries", "server_bandwidth", "jitter",
                              "lost", "lost_pct"})

    def claim_sample(self, kind: str, name: str, unit: str | None,
                     parsed: ParsedArgs | None) -> str | None:
        if parsed is None:
            return None
        udp = option_given(parsed, "-u")
        if kind in ("headline", "bitrate"):
            return "bandwidth"
        if kind == "retransmits" and option_given(parsed, "-e") and not udp:
            return "retries"
        if kind == "jitter" and udp:
            return "jitter"
        if kind == "loss" and udp:
            return "lost_pct" if unit == "%" else "lost"
        return None

    options = OptionSet([
        Option(("-c", "--client"), is_host, role="host"),
        Option(("-s", "--server"), None),
        Option(("-u", "--udp"), None),
        Option(("-p", "--port"), is_int, role="port"),
        Option(("-t", "--time"), is_number, role="duration", max_value=600),
        Option(("-i", "--interval"), is_number, max_value=600),
        Option(("-P", "--parallel"), is_int, max_value=128),
        Option(("-l", "--len"), is_size),
        Option(("-w", "--window"), is_size),
        Option(("-b", "--bandwidth"), _rate),
        Option(("-e", "--enhanced"), None),
        Option(("-f", "--format"), one_of(*"abkmgABKMG", case=True)),
        Option(("-B", "--bind"), is_host),
        Option(("-M", "--mss"), is_int),
        Option(("-N", "--nodelay"), None),
        Option(("-V", "--ipv6_domain"), None),
        Option(("-x", "--reportexclude"), one_of("C", "D", "M", "S", "V", "CD", "CM", "DS")),
        Option(("-y", "--reportstyle"), one_of("C", case=False)),
        Option(("-d", "--dualtest"), None),
        Option(("-r", "--tradeoff"), None),
        Option(("-R", "--reverse"), None),
        Option(("--full-duplex",), None),
        Option(("-L", "--listenport"), is_int),
        Option(("-n", "--num"), is_size),
        Option(("-T", "--ttl"), is_int),
        Option(("-S", "--tos"), is_word),
        Option(("-Z", "--tcp-congestion"), is_word),
        Option(("-z", "--realtime"), None),
        Option(("--trip-times",), None),
        Option(("--histograms",), is_word, optional_value=True),
        Option(("--isochronous",), is_word, optional_value=True),
        Option(("-m", "--print_mss"), None),
        Option(("-v", "--version"), None),
        Option(("-1", "--singleclient"), None),
        Option(("-F", "--fileinput"), is_word, refused="reads a file"),
        Option(("-I", "--stdin"), None, refused="reads standard input"),
        Option(("-o", "--output"), is_word, refused="writes a file"),
        Option(("-D", "--daemon"), None, refused="daemonizes, so it could not be reaped"),
    ])

    def server_argv(self, parsed: ParsedArgs) -> list[str] | None:
        out = ["iperf", "-s"]
        if any(o.names[0] == "-u" for o, _, _ in parsed.options):
            out.append("-u")
        port = parsed.get("port")
        if port:
            out += ["-p", port]
        return out

    # -- output -----------------------------------------------------------------------
    def find_outputs(self, lines: Sequence[str]) -> list[OutputBlock]:
        if not mentions(lines, _MARKERS):
            return []
        text = clean_all(lines)
        blocks: list[OutputBlock] = self._csv_blocks(text)
        pieces, index = split_collapsed(text, COLLAPSED_CUT)
        found = []
        for start, last in runs_of(pieces, self._is_ours):
            block = self._block(pieces, start, last)
            if block is not None:
                found.append(block)
        blocks += remap(found, index)
        return sorted(blocks, key=lambda b: b.start)

    @staticmethod
    def _csv_blocks(text: list[str]) -> list[OutputBlock]:
        """`-y C` reports: one line per stream (id -1 is the sum), bytes and bits/s."""
        blocks: list[OutputBlock] = []
        run: list[tuple[int, re.Match[str]]] = []
        for i, t in enumerate([*text, ""]):
            m = _CSV.match(t) if "," in t else None
            if m:
                run.append((i, m))
                continue
            if not run:
                continue
            finals = {}
            for k, mm in run:  # the whole-test line of each stream
                if float(mm.group(2)) == 0:
                    finals[mm.group(1)] = (k, mm)
            chosen = [finals["-1"]] if "-1" in finals else list(finals.values())
            if chosen:
                k = chosen[-1][0]
                bps = sum(float(mm.group(5)) for _, mm in chosen)
                nbytes = sum(float(mm.group(4)) for _, mm in chosen)
                label = "sum" if len(chosen) > 1 or "-1" in finals else None
                blocks.append(OutputBlock(
                    tool="iperf2", start=run[0][0], end=run[-1][0],
                    samples=[sample("bandwidth", bps, "bits/sec", "higher", k, label=label),
                             sample("transfer", nbytes, "Bytes", "higher", k, label=label)],
                    info={"format": "csv", "streams": str(len(finals) - ("-1" in finals))}))
            run = []
        return blocks

    @staticmethod
    def _is_ours(t: str) -> bool:
        r = report_line(t)
        if r is not None:
            return r.decimals != 2
        return _AUX.match(t) is not None

    def _block(self, text: list[str], start: int, end: int) -> OutputBlock | None:
        reports: list[tuple[int, ReportLine, bool]] = []
        server_next = False
        for k in range(start, end + 1):
            if _SERVER_REPORT.search(text[k]):
                server_next = True
                continue
            r = report_line(text[k])
            if r is None or r.decimals == 2:
                continue
            reports.append((k, r, server_next))
            server_next = False
        if not reports:
            return None
        samples: list[Sample] = []
        finals = self._finals([x for x in reports if not x[2]])
        for k, r in finals:
            samples.append(sample("bandwidth", r.rate, r.rate_unit, "higher", k))
            samples.append(sample("transfer", r.transfer, r.transfer_unit, "higher", k))
            samples.append(sample("time", r.end - r.start, "s", None, k, config=True))
            e = _ENHANCED.match(r.rest)
            if e:
                samples.append(sample("retries", num(e.group(3)), "count", "lower", k))
            u = UDP_TAIL.search(r.rest)
            if u:
                samples.extend(self._udp(u, k, ""))
        for k, r in self._finals([x for x in reports if x[2]]):
            samples.append(sample("server_bandwidth", r.rate, r.rate_unit, "higher", k,
                                  label="server"))
            u = UDP_TAIL.search(r.rest)
            if u:
                samples.extend(self._udp(u, k, "server"))
        if not samples:
            return None
        streams = {r.stream for _, r, _ in reports}
        return OutputBlock(tool=self.name, start=start, end=end, samples=samples,
                           info={"streams": str(len(streams - {"SUM"}) or 1)})

    @staticmethod
    def _finals(reports: list[tuple[int, ReportLine, bool]]) -> list[tuple[int, ReportLine]]:
        """The whole-test line of each stream, or only [SUM] when there is one."""
        if not reports:
            return []
        pool = [x for x in reports if x[1].stream == "SUM"] or reports
        best: dict[str, tuple[int, ReportLine]] = {}
        for k, r, _ in pool:
            cur = best.get(r.stream)
            if r.start == 0 and (cur is None or r.end >= cur[1].end):
                best[r.stream] = (k, r)
        return sorted(best.values(), key=lambda x: x[0])

    @staticmethod
    def _udp(u: re.Match[str], k: int, label: str) -> list[Sample]:
        out = [sample("jitter", num(u.group(1)), "ms", "lower", k, label=label or None),
               sample("lost", num(u.group(2)), "count", "lower", k, label=label or None),
               sample("datagrams", num(u.group(3)), "count", None, k, label=label or None,
                      config=True)]
        if u.group(4)[0].isdigit():
            out.append(sample("lost_pct", num(u.group(4)), "%", "lower", k,
                              label=label or None))
        return out


IPERF2 = register(Iperf2())
