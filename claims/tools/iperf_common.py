"""What iperf2 and iperf3 share: the `[ ID] Interval Transfer Bitrate` report line.

Both print `[  5]   0.00-10.00  sec   182 MBytes   153 Mbits/sec ...`; iperf3 always
prints the interval with two decimals and ends summaries with `sender`/`receiver`, iperf2
prints one (2.0.x) or four (2.1+) decimals. `report_line` reads either and says which.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from claims.tools.text import NUM, num

_REPORT = re.compile(
    r"^\s*\[\s*(\d+|SUM|\s*\*?\d+)\s*\]\s*(?:\[\s*([\w-]+)\s*\]\s*)?"
    r"(\d+\.(\d+))\s*-\s*(\d+\.\d+)\s+sec\s+"
    rf"({NUM})\s+([KMGT]?Bytes)\s+({NUM})\s+([KMGT]?bits/sec)(.*)$")


@dataclass
class ReportLine:
    """One parsed interval/summary line."""

    stream: str  # "5", "SUM"
    tag: str  # iperf3 --bidir direction: "TX-C", "RX-C" ("" without --bidir)
    start: float
    end: float
    decimals: int
    transfer: float
    transfer_unit: str
    rate: float
    rate_unit: str
    rest: str  # what follows the bitrate: retransmits, jitter, loss, sender/receiver


def report_line(line: str) -> ReportLine | None:
    m = _REPORT.match(line)
    if not m:
        return None
    return ReportLine(stream=m.group(1).strip(), tag=m.group(2) or "",
                      start=float(m.group(3)), end=float(m.group(5)), decimals=len(m.group(4)),
                      transfer=num(m.group(6)), transfer_unit=m.group(7),
                      rate=num(m.group(8)), rate_unit=m.group(9), rest=m.group(10).strip())


def report_in(text: str) -> ReportLine | None:
    """The report line a pasted line holds after a short label of its own ("1K:   [  5]
    30.00-35.00 sec ..."), or at its start."""
    at = text.find("[")
    if at < 0 or at > 40:
        return None
    return report_line(text[at:])


UDP_TAIL = re.compile(rf"({NUM})\s*ms\s+({NUM})\s*/\s*({NUM})\s*\(\s*({NUM}|-?nan)%\s*\)")

# Before each report line of a page whose line breaks were lost: `... [  5] 0.00-10.00 sec`.
COLLAPSED_CUT = re.compile(r"\s+(?=\[\s*(?:\d+|SUM)\s*\]\s*(?:\[[\w-]+\]\s*)?\d+\.\d+\s*-\s*\d)")
