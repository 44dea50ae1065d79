"""XDP rates: xdp-bench (xdp-tools) `Summary` lines and the kernel's samples/bpf printouts.

    Summary                      8,127,341 rx/s                  0 err/s
    receive total               8,127,341 pkt/s                 0 drop/s       0 error/s
    proto 17:   10124567 pkt/s                      (samples/bpf xdp1)
    XDP-RX CPU      total   14,543,455   0          (xdp_rxq_info)

Metrics: `rx_pps`, `tx_pps`, `redirect_pps` (pkt/s, higher), `errors_per_sec`,
`drops_per_sec` (lower). These tools print one line per interval; each line is a sample
(same metric, one per interval) and a runner averages them. A packet-rate claim is
`rx_pps`, which every Summary line prints, unless the name says tx or redirect.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from claims.tools import register
from claims.tools.base import (
    Better,
    Option,
    OptionSet,
    OutputBlock,
    ParsedArgs,
    Refused,
    Sample,
    ToolDescription,
    is_int,
    is_number,
    one_of,
)
from claims.tools.text import NUM, clean_all, mentions, num, sample
from claims.tools.trafgen import _device
from claims.tools.xdpsock import _direction

_SUMMARY = re.compile(r"^\s*(Summary|receive total|redirect total|transmit total|xmit total|"
                      r"rx total|tx total)\b(.*)$", re.I)
_PAIR = re.compile(rf"({NUM})\s+([a-z,]+/s)\b")
_SAMPLE = re.compile(rf"^\s*(proto \d+|ifindex \d+):\s*({NUM})\s+pkt/s")
_RXQ = re.compile(rf"^\s*XDP-RX CPU\s+total\s+({NUM})\s+({NUM})")

_UNIT: dict[str, tuple[str, Better]] = {
    "rx/s": ("rx_pps", "higher"), "pkt/s": ("rx_pps", "higher"),
    "tx/s": ("tx_pps", "higher"), "xmit/s": ("tx_pps", "higher"),
    "redir/s": ("redirect_pps", "higher"), "err/s": ("errors_per_sec", "lower"),
    "error/s": ("errors_per_sec", "lower"), "err,drop/s": ("errors_per_sec", "lower"),
    "drop/s": ("drops_per_sec", "lower")}

_MODE = one_of("native", "skb")
_COMMON = [Option(("-i", "--interval"), is_number, max_value=60),
           Option(("-e", "--extended"), None),
           Option(("-v", "--verbose"), None),
           Option(("--version",), None),
           Option(("-h", "--help"), None)]
_LOCAL = OptionSet([  # drop, pass, tx
    *_COMMON,
    Option(("-p", "--program-mode"), one_of("no-touch", "read-data", "swap-macs", "parse-ip")),
    Option(("-r", "--rxq-stats"), None),
    Option(("-m", "--xdp-mode"), _MODE),
], positionals=_device, max_positionals=1)
_REDIRECT = [*_COMMON, Option(("-s", "--stats"), None), Option(("-m", "--mode"), _MODE)]
_EGRESS = Option(("-X", "--load-egress"), None)  # redirect-map and redirect-multi only
_CPU = OptionSet([
    *_COMMON,
    Option(("-c", "--cpu"), is_int, role="cpu"),
    Option(("-p", "--program-mode"), one_of("no-touch", "touch", "round-robin", "l4-proto",
                                            "l4-filter", "l4-hash")),
    Option(("-r", "--remote-action"), one_of("disabled", "drop", "pass", "redirect")),
    Option(("-D", "--redirect-device"), _device, role="device"),
    Option(("-q", "--qsize"), is_int, max_value=65536),
    Option(("-s", "--stats"), None),
    Option(("-m", "--xdp-mode"), _MODE),
    Option(("-x", "--stress-mode"), None, refused="stress-tests the kernel's CPUMAP code"),
], positionals=_device, max_positionals=1)

# Each sub-command has its own options (xdp-bench <cmd> --help, xdp-tools 1.3).
COMMANDS: dict[str, OptionSet] = {
    "drop": _LOCAL, "pass": _LOCAL, "tx": _LOCAL, "redirect-cpu": _CPU,
    "redirect": OptionSet(_REDIRECT, positionals=_device, max_positionals=2),
    "redirect-map": OptionSet([*_REDIRECT, _EGRESS], positionals=_device, max_positionals=2),
    "redirect-multi": OptionSet([*_REDIRECT, _EGRESS], positionals=_device, max_positionals=32),
}


class XdpBench(ToolDescription):
    name = "xdp-bench"
    per_interval = True  # a Summary line every second
    programs = ("xdp-bench",)
    version_flag = ("drop", "--version")  # only its sub-commands know --version
    network = True
    subcommand = True
    options = _LOCAL
    sample_names = frozenset({"rx_pps", "tx_pps", "redirect_pps", "errors_per_sec",
                              "drops_per_sec"})

    def claim_sample(self, kind: str, name: str, unit: str | None,
                     parsed: ParsedArgs | None) -> str | None:
        if kind not in ("headline", "packet_rate"):
            return None
        if re.search(r"redirect", name, re.I):
            return "redirect_pps"
        return f"{_direction(name) or 'rx'}_pps"

    def parse_args(self, argv: Sequence[str]) -> ParsedArgs:
        if len(argv) < 2 or argv[1] not in COMMANDS:
            cmd = argv[1] if len(argv) > 1 else ""
            raise Refused(f"xdp-bench: command {cmd!r} is not one of {', '.join(COMMANDS)}")
        parsed = COMMANDS[argv[1]].parse("xdp-bench " + argv[1], argv[2:])
        parsed.program = argv[0].rsplit("/", 1)[-1]
        parsed.positionals.insert(0, argv[1])
        return parsed

    def find_outputs(self, lines: Sequence[str]) -> list[OutputBlock]:
        if not mentions(lines, ("rx/s", "pkt/s", "tx/s", "XDP-RX", "err/s", "drop/s")):
            return []
        text = clean_all(lines)
        blocks: list[OutputBlock] = []
        cur: OutputBlock | None = None
        for i, t in enumerate(text):
            got = self._line(t, i)
            if got:
                if cur is None or i - cur.end > 2:
                    if cur is not None:
                        blocks.append(cur)
                    cur = OutputBlock(tool=self.name, start=i, end=i)
                cur.samples.extend(got)
                cur.end = i
        if cur is not None:
            blocks.append(cur)
        return blocks

    @staticmethod
    def _line(t: str, i: int) -> list[Sample]:
        m = _SUMMARY.match(t)
        if m:
            out = []
            for val, unit in _PAIR.findall(m.group(2)):
                if unit in _UNIT:
                    metric, better = _UNIT[unit]
                    out.append(sample(metric, num(val), "pkt/s", better, i,
                                      label=m.group(1).lower()))
            return out
        m = _SAMPLE.match(t)
        if m:
            return [sample("rx_pps", num(m.group(2)), "pkt/s", "higher", i, label=m.group(1))]
        m = _RXQ.match(t)
        if m:
            return [sample("rx_pps", num(m.group(1)), "pkt/s", "higher", i),
                    sample("errors_per_sec", num(m.group(2)), "pkt/s", "lower", i)]
        return []


XDP_BENCH = register(XdpBench())
