"""ping: the summary iputils prints at the end of a run.

    500 packets transmitted, 500 received, 0% packet loss, time 25110ms
    rtt min/avg/max/mdev = 0.031/0.244/41.870/2.210 ms, pipe 2

Metrics: `rtt_min`, `rtt_avg`, `rtt_max`, `rtt_mdev` (ms, lower is better) and
`packet_loss` (%); the packet counts and the run's `time` (count x interval, set by -c/-i)
are config.  ping is read here, not re-run (`programs` is empty and `parse_args` refuses),
but its option table is written out: the command model reads a mail's `ping ...` by it, so
that a sentence starting with ping's name and a flag ("ping -f requires root": `-f` takes no
value, so two plain words follow it) is not taken for a command line.
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
    ToolDescription,
    is_host,
    is_int,
    is_number,
    is_word,
)
from claims.tools.text import NUM, clean_all, mentions, num, sample

_SUMMARY = re.compile(rf"({NUM}) packets transmitted, ({NUM}) (?:packets )?received,.*?"
                      rf"({NUM})% packet loss(?:, time ({NUM})\s?ms)?")
_RTT = re.compile(rf"(?:rtt|round-trip) min/avg/max(?:/mdev|/stddev)? = ({NUM})/({NUM})/({NUM})(?:/({NUM}))? ?ms")


class Ping(ToolDescription):
    name = "ping"
    programs = ()
    sample_names = frozenset({"rtt_min", "rtt_avg", "rtt_max", "rtt_mdev", "packet_loss"})
    claim_samples = {"headline": "rtt_avg", "latency": "rtt_avg"}
    # iputils ping(8): flags, and the options that take a value
    options = OptionSet(
        [Option((f"-{c}",), None) for c in "46aAbBdDfLnOqrRUv"]
        + [Option(("-c",), is_int), Option(("-i",), is_number), Option(("-s",), is_int),
           Option(("-w",), is_number), Option(("-W",), is_number), Option(("-t",), is_int),
           Option(("-l",), is_int), Option(("-S",), is_int), Option(("-Q",), is_word),
           Option(("-p",), is_word), Option(("-M",), is_word), Option(("-T",), is_word),
           Option(("-I",), is_word), Option(("-m",), is_word), Option(("-F",), is_word),
           Option(("-N",), is_word), Option(("-e",), is_int)],
        positionals=is_host, max_positionals=1)

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
