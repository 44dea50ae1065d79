"""ping: the summary iputils prints at the end of a run.

    500 packets transmitted, 500 received, 0% packet loss, time 25110ms
    rtt min/avg/max/mdev = 0.031/0.244/41.870/2.210 ms, pipe 2

Metrics: `rtt_min`, `rtt_avg`, `rtt_max`, `rtt_mdev` (ms, lower is better) and
`packet_loss` (%); the packet counts and the run's `time` (count x interval, set by -c/-i)
are config.  ping is read here, not re-run: it has no argv grammar (`programs` is empty,
so a ping command in a mail stays what the command model makes of it).
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from claims.tools import register
from claims.tools.base import OutputBlock, ParsedArgs, Refused, ToolDescription
from claims.tools.text import NUM, clean_all, mentions, num, sample

_SUMMARY = re.compile(rf"({NUM}) packets transmitted, ({NUM}) (?:packets )?received,.*?"
                      rf"({NUM})% packet loss(?:, time ({NUM})\s?ms)?")
_RTT = re.compile(rf"(?:rtt|round-trip) min/avg/max(?:/mdev|/stddev)? = ({NUM})/({NUM})/({NUM})(?:/({NUM}))? ?ms")


class Ping(ToolDescription):
    name = "ping"
    programs = ()
    sample_names = frozenset({"rtt_min", "rtt_avg", "rtt_max", "rtt_mdev", "packet_loss"})
    claim_samples = {"headline": "rtt_avg", "latency": "rtt_avg"}

    def parse_args(self, argv: Sequence[str]) -> ParsedArgs:
        raise Refused("ping output is read from a mail, not re-run")

    def find_outputs(self, lines: Sequence[str]) -> list[OutputBlock]:
        if not mentions(lines, ("packets transmitted", "min/avg/max")):
            return []
        text = clean_all(lines)
        blocks: list[OutputBlock] = []
        i = 0
        while i < len(text):
            m = _SUMMARY.search(text[i])
            r = _RTT.search(text[i]) if m is None else (
                _RTT.search(text[i + 1]) if i + 1 < len(text) else None)
            if m is None and r is None:
                i += 1
                continue
            b = OutputBlock(tool=self.name, start=i, end=i + 1 if m is not None and r is not None else i)
            if m is not None:
                b.samples += [sample("transmitted", num(m.group(1)), "count", None, i, config=True),
                              sample("received", num(m.group(2)), "count", None, i, config=True),
                              sample("packet_loss", num(m.group(3)), "%", "lower", i)]
                if m.group(4):
                    b.samples.append(sample("time", num(m.group(4)), "ms", None, i, config=True))
            if r is not None:
                for name, g in (("rtt_min", 1), ("rtt_avg", 2), ("rtt_max", 3), ("rtt_mdev", 4)):
                    if r.group(g):
                        b.samples.append(sample(name, num(r.group(g)), "ms", "lower", b.end))
            blocks.append(b)
            i = b.end + 1
        return blocks


PING = register(Ping())
