"""xdpsock (AF_XDP sample): its per-interval `pps pkts` table.

     sock0@eth0:0 txonly xdp-skb
                       pps            pkts           1.00
    rx                 0              0
    tx                 1,916,747      5,000,192

Metrics: `rx_pps`, `tx_pps` (pkt/s, higher); the running packet totals are config. Each
printed interval is a block (labelled with the socket line), so a paste of one interval
reads as one measurement. A packet-rate claim is `tx_pps` under -t (txonly), else
`rx_pps` (rxdrop, the default, and l2fwd), unless the name says rx or tx.
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
    ToolDescription,
    is_int,
    is_word,
    option_given,
)
from claims.tools.text import NUM, clean_all, mentions, num, sample
from claims.tools.trafgen import _device

_HEAD = re.compile(rf"^\s*pps\s+pkts\s+({NUM})\s*$")
_ROW = re.compile(rf"^\s*(rx|tx)\s+({NUM})\s+({NUM})\s*$")
_SOCK = re.compile(r"^\s*(sock\d+@\S+)\s+(rxdrop|txonly|l2fwd)\b(.*)$")


class Xdpsock(ToolDescription):
    name = "xdpsock"
    per_interval = True  # a pps table every interval
    programs = ("xdpsock",)
    network = True
    sample_names = frozenset({"rx_pps", "tx_pps"})

    def claim_sample(self, kind: str, name: str, unit: str | None,
                     parsed: ParsedArgs | None) -> str | None:
        if parsed is None or kind not in ("headline", "packet_rate"):
            return None
        return f"{_direction(name) or ('tx' if option_given(parsed, '-t') else 'rx')}_pps"

    options = OptionSet([
        Option(("-r", "--rxdrop"), None),
        Option(("-t", "--txonly"), None),
        Option(("-l", "--l2fwd"), None),
        Option(("-i", "--interface"), _device, role="device"),
        Option(("-q", "--queue"), is_int),
        Option(("-p", "--poll"), None),
        Option(("-S", "--xdp-skb"), None),
        Option(("-N", "--xdp-native"), None),
        Option(("-n", "--interval"), is_int, max_value=60),
        Option(("-O", "--retries"), is_int),
        Option(("-z", "--zero-copy"), None),
        Option(("-c", "--copy"), None),
        Option(("-m", "--no-need-wakeup"), None),
        Option(("-f", "--frame-size"), is_int),
        Option(("-u", "--unaligned"), None),
        Option(("-M", "--shared-umem"), None),
        Option(("-F", "--force"), None),
        Option(("-d", "--duration"), is_int, role="duration", max_value=600),
        Option(("-w", "--clock"), is_word),
        Option(("-b", "--batch-size"), is_int),
        Option(("-C", "--tx-pkt-count"), is_int),
        Option(("-s", "--tx-pkt-size"), is_int, max_value=9000),
        Option(("-P", "--tx-pkt-pattern"), is_word),
        Option(("-V", "--tx-vlan"), None),
        Option(("-J", "--tx-vlan-id"), is_int),
        Option(("-K", "--tx-vlan-pri"), is_int),
        Option(("-G", "--tx-dmac"), is_word),
        Option(("-H", "--tx-smac"), is_word),
        Option(("-T", "--tx-cycle"), is_int),
        Option(("-y", "--tstamp"), None),
        Option(("-W", "--policy"), is_word),
        Option(("-U", "--schpri"), is_int),
        Option(("-x", "--extra-stats"), None),
        Option(("-Q", "--quiet"), None),
        Option(("-a", "--app-stats"), None),
        Option(("-I", "--irq-string"), is_word),
        Option(("-B", "--busy-poll"), None),
        Option(("-R", "--reduce-cap"), None),
    ])

    def find_outputs(self, lines: Sequence[str]) -> list[OutputBlock]:
        if not mentions(lines, ("pps",)):
            return []
        text = clean_all(lines)
        blocks: list[OutputBlock] = []
        for i, t in enumerate(text):
            if not _HEAD.match(t):
                continue
            start = i - 1 if i > 0 and _SOCK.match(text[i - 1]) else i
            b = OutputBlock(tool=self.name, start=start, end=i)
            if start < i:
                m = _SOCK.match(text[start])
                assert m is not None
                b.info.update(socket=m.group(1), mode=m.group(2), flags=m.group(3).strip())
            for j in range(i + 1, min(i + 8, len(text))):
                r = _ROW.match(text[j])
                if not r:
                    continue
                b.samples.append(sample(f"{r.group(1)}_pps", num(r.group(2)), "pkt/s", "higher",
                                        j))
                b.samples.append(sample(f"{r.group(1)}_pkts", num(r.group(3)), "count", None, j,
                                        config=True))
                b.end = j
            if b.samples:
                blocks.append(b)
        return blocks


def _direction(name: str) -> str | None:
    """"tx" or "rx" when the claim's name says which way the packets went."""
    if re.search(r"\btx\b|transmit|\bsen[dt]\b|xmit", name, re.I):
        return "tx"
    if re.search(r"\brx\b|receive|\bdrop", name, re.I):
        return "rx"
    return None


XDPSOCK = register(Xdpsock())
