"""DPDK testpmd: the port statistics `show port stats` and the forward statistics print.

      ######################## NIC statistics for port 0  ########################
      RX-packets: 3615824336 RX-missed: 0          RX-bytes:  202486162816
      RX-errors: 0
      RX-nombuf:  0
      TX-packets: 3615795592 TX-errors: 20738      TX-bytes:  202484553152

      Throughput (since last show)
      Rx-pps:      3790446          Rx-bps:   1698120056
      Tx-pps:      3790446          Tx-bps:   1698120056

Metrics: the rates `rx_pps`, `tx_pps` (pkt/s) and `rx_bps`, `tx_bps` (bits/s), higher is
better.  The `RX-`/`TX-` fields (packets, bytes, errors, missed, dropped, totals) count
since the port started or the last clear: they grow with the length of the run, so two
sides' counters are bookkeeping, not a result (config).  testpmd is an interactive DPDK
application set up with EAL options and hugepages: it is read here, not re-run (`programs`
is empty, so a testpmd command in a mail stays what the command model makes of it).
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from claims.tools import register
from claims.tools.base import OutputBlock, ParsedArgs, Refused, ToolDescription
from claims.tools.text import NUM, clean_all, mentions, num, sample

# "RX-packets: 68152727", "Rx-pps:   3790446", "RX-total: 1234", "Bad-ipcsum: 0"
_FIELD = re.compile(rf"(?<![\w-])([RT][Xx]-[A-Za-z]+|Bad-[A-Za-z\d]+):\s*({NUM})(?![\w.])")
_RATE = re.compile(r"^[RT]x-[pb]ps$")


class Testpmd(ToolDescription):
    name = "testpmd"
    programs = ()
    network = True
    sample_names = frozenset({"rx_pps", "tx_pps", "rx_bps", "tx_bps"})
    claim_samples = {"headline": "rx_pps", "packet_rate": "rx_pps", "bitrate": "rx_bps"}

    def parse_args(self, argv: Sequence[str]) -> ParsedArgs:
        raise Refused("testpmd is an interactive DPDK application: its output is read, not re-run")

    def find_outputs(self, lines: Sequence[str]) -> list[OutputBlock]:
        if not mentions(lines, ("X-packets:", "x-pps:")):
            return []
        text = clean_all(lines)
        blocks: list[OutputBlock] = []
        cur: OutputBlock | None = None
        for i, t in enumerate(text):
            found = _FIELD.findall(t)
            if not found:
                if cur is not None and i - cur.end > 3:  # a title, a blank line, a rule may stand between
                    cur = None
                continue
            if cur is None:
                cur = OutputBlock(tool=self.name, start=i, end=i)
                blocks.append(cur)
            cur.end = i
            for name, value in found:
                if _RATE.match(name):
                    metric = name.lower().replace("-", "_")
                    unit = "pkt/s" if metric.endswith("pps") else "bits/s"
                    cur.samples.append(sample(metric, num(value), unit, "higher", i))
                else:
                    cur.samples.append(sample(name.lower().replace("-", "_"), num(value), "count", None, i,
                                              config=True))
        return blocks


TESTPMD = register(Testpmd())
