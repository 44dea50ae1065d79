"""pktgen: the `Result:` of /proc/net/pktgen/<dev> (and of the sample scripts that cat it).

    Result: OK: 14133017(c14099986+d33030) usec, 10000000 (60byte,0frags)
      707563pps 339Mb/sec (339630240bps) errors: 0

Metrics: `pps` (pkt/s), `throughput` (Mb/sec), `errors`; the test length, packet count and
size are config. pktgen is driven by writes to /proc, not a command line, so it has no
argv grammar here: a pktgen claim is checked by a runner that knows pktgen, not re-run
from the mail.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from claims.tools import register
from claims.tools.base import OutputBlock, ParsedArgs, Refused, ToolDescription
from claims.tools.text import NUM, clean_all, mentions, num, sample

_RESULT = re.compile(rf"Result:\s*OK:\s*({NUM})\s*\(c({NUM})\+d({NUM})\)\s*usec,\s*({NUM})\s*"
                     rf"\(\s*({NUM})byte,\s*({NUM})frags\)")
_RATE = re.compile(rf"({NUM})pps\s+({NUM})Mb/sec\s+\(({NUM})bps\)\s+errors:\s*({NUM})")


class Pktgen(ToolDescription):
    name = "pktgen"
    programs = ()
    network = True
    sample_names = frozenset({"pps", "throughput", "errors"})
    claim_samples = {"headline": "pps", "packet_rate": "pps", "bitrate": "throughput"}

    def parse_args(self, argv: Sequence[str]) -> ParsedArgs:
        raise Refused("pktgen is configured through /proc/net/pktgen, not run from a mail")

    def find_outputs(self, lines: Sequence[str]) -> list[OutputBlock]:
        if not mentions(lines, ("Result:",)):
            return []
        text = clean_all(lines)
        blocks: list[OutputBlock] = []
        for i, t in enumerate(text):
            m = _RESULT.search(t)
            if not m:
                continue
            end = i
            r = _RATE.search(t)
            for j in range(i + 1, min(i + 3, len(text))):
                if r is None and (r := _RATE.search(text[j])):
                    end = j
            b = OutputBlock(tool=self.name, start=i, end=end, info={"result": "OK"})
            b.samples += [sample("duration", num(m.group(1)), "usec", None, i, config=True),
                          sample("packets", num(m.group(4)), "count", None, i, config=True),
                          sample("pkt_size", num(m.group(5)), "bytes", None, i, config=True)]
            if r:
                b.samples += [sample("pps", num(r.group(1)), "pkt/s", "higher", end),
                              sample("throughput", num(r.group(2)), "Mb/sec", "higher", end),
                              sample("errors", num(r.group(4)), "count", "lower", end)]
            blocks.append(b)
        return blocks


PKTGEN = register(Pktgen())
