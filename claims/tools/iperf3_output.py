"""iperf3's output, read into samples: the text summaries and the -J JSON report.

Metric names carry the side that measured them (`sender_bitrate`, `receiver_jitter`); with
-P N only the [SUM] lines are read, and per-interval lines are not samples (a claim is
about the summary). The command grammar and what a claim reads are iperf3.Iperf3's.
"""
from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from claims.tools.base import OutputBlock, Sample
from claims.tools.iperf_common import COLLAPSED_CUT, UDP_TAIL, report_in
from claims.tools.text import NUM, clean_all, mentions, num, remap, runs_of, sample, split_collapsed

_AUX = re.compile(r"^\s*((?:sender|receiver)\s*$|\[\s*ID\s*\]|\[\s*\d+\]\s+local\s|Connecting to host|iperf Done|"
                  r"Server listening|Reverse mode|Accepted connection|(?:- )+-?\s*$|-{20,}\s*$|"
                  r"\[\s*(?:\d+|SUM)\s*\]\s*(?:Sent|Server Report))")
_ROLE = re.compile(r"\b(sender|receiver)\s*$")


def find_outputs(lines: Sequence[str], tool: str = "iperf3") -> list[OutputBlock]:
    """The -J JSON reports first, then the text summaries around them."""
    if not mentions(lines, ("bits/sec", "bits_per_second")):
        return []
    text = clean_all(lines)
    blocks = _json_blocks(text, tool)
    taken = {i for b in blocks for i in range(b.start, b.end + 1)}
    pieces, index = split_collapsed(text, COLLAPSED_CUT)
    if index is not None:
        taken = {k for k, i in enumerate(index) if i in taken}
    found = []
    for start, last in runs_of(pieces, _is_ours, taken):
        block = _text_block(pieces, start, last, tool)
        if block is not None:
            found.append(block)
    blocks += remap(found, index)
    blocks.sort(key=lambda b: b.start)
    return blocks


def _is_ours(t: str) -> bool:
    r = report_in(t)  # at the line's start, or after a short label ("with patch:  [SUM] ...")
    if r is not None:
        return r.decimals == 2
    return _AUX.match(t) is not None


def _text_block(text: list[str], start: int, end: int, tool: str) -> OutputBlock | None:
    summaries = []
    for k in range(start, end + 1):
        r = report_in(text[k])
        if r is None or r.decimals != 2:
            continue
        said = _ROLE.search(r.rest)
        if said is None and k < end and text[k + 1].strip() in ("sender", "receiver"):
            said = _ROLE.search(text[k + 1])  # the role wrapped onto the next line
        if said is None and UDP_TAIL.search(r.rest) and "(omitted)" not in r.rest:
            # iperf3 < 3.1 printed the UDP summary without a role
            role_name = "receiver"
        elif said is None:
            continue
        else:
            role_name = said.group(1)
        summaries.append((k, r, role_name))
    if not summaries:
        return None
    if any(r.stream == "SUM" for _, r, _ in summaries):
        summaries = [s for s in summaries if s[1].stream == "SUM"]
    samples: list[Sample] = []
    udp = False
    for k, r, role in summaries:
        if r.tag:  # --bidir: `[TX-C]`/`[RX-C]` name the direction of each summary
            role = f"{r.tag.split('-')[0].lower()}_{role}"
        samples.append(sample(f"{role}_bitrate", r.rate, r.rate_unit, "higher", k,
                              label=role))
        samples.append(sample(f"{role}_transfer", r.transfer, r.transfer_unit, "higher", k,
                              label=role))
        u = UDP_TAIL.search(r.rest)
        if u:
            udp = True
        if u and role.endswith("receiver"):  # the sender's jitter and loss are not measured
            samples.append(sample(f"{role}_jitter", num(u.group(1)), "ms", "lower", k,
                                  label=role))
            samples.append(sample(f"{role}_lost", num(u.group(2)), "count", "lower", k,
                                  label=role))
            samples.append(sample(f"{role}_datagrams", num(u.group(3)), "count", None, k,
                                  label=role, config=True))
            if u.group(4)[0].isdigit():
                samples.append(sample(f"{role}_lost_pct", num(u.group(4)), "%", "lower",
                                      k, label=role))
        elif role.endswith("sender") and not u:
            m = re.match(rf"({NUM})\b", r.rest)
            if m:
                samples.append(sample(f"{role}_retransmits", num(m.group(1)), "count",
                                      "lower", k, label=role))
        samples.append(sample(f"{role}_time", r.end - r.start, "s", None, k, label=role,
                              config=True))
    info = {"protocol": "UDP" if udp else "TCP", "format": "text"}
    if len({r.stream for _, r, _ in summaries}) == 1:
        info["streams"] = summaries[0][1].stream
    return OutputBlock(tool=tool, start=start, end=end, samples=samples, info=info)


def _json_blocks(text: list[str], tool: str) -> list[OutputBlock]:
    out: list[OutputBlock] = []
    i = 0
    while i < len(text):
        # iperf3 -J opens with `{` then `"start":`; a C block in a patch does not
        if text[i].strip() != "{" or i + 1 >= len(text) or \
                not text[i + 1].lstrip().startswith('"start"'):
            i += 1
            continue
        found = None
        for j in range(i + 1, min(len(text), i + 200000)):
            if text[j].rstrip() == "}":  # the top-level close: iperf3 prints it bare
                try:
                    doc = json.loads("\n".join(text[i:j + 1]))
                except ValueError:
                    break
                found = (j, doc)
                break
        if found is None:
            i += 1
            continue
        j, doc = found
        samples = _json_samples(doc, i) if isinstance(doc, dict) else []
        if samples:
            out.append(OutputBlock(tool=tool, start=i, end=j, samples=samples,
                                   info={"format": "json"}))
        i = j + 1
    return out


def _json_samples(doc: dict[str, Any], line: int) -> list[Sample]:
    end = doc.get("end")
    if not isinstance(end, dict):
        return []
    out: list[Sample] = []
    sides = [("sender", end.get("sum_sent")), ("receiver", end.get("sum_received"))]
    if end.get("sum_sent") is None and isinstance(end.get("sum"), dict):
        sides = [("receiver", end["sum"])]  # UDP: one sum, measured by the receiver
        if isinstance(end["sum"].get("sender"), bool) and end["sum"]["sender"] is False:
            sides = [("receiver", end["sum"])]
    for role, s in sides:
        if not isinstance(s, dict):
            continue
        if "bits_per_second" in s:
            out.append(sample(f"{role}_bitrate", float(s["bits_per_second"]), "bits/sec",
                              "higher", line, label=role))
        if "bytes" in s:
            out.append(sample(f"{role}_transfer", float(s["bytes"]), "Bytes", "higher",
                              line, label=role))
        if role == "sender" and "retransmits" in s:
            out.append(sample("sender_retransmits", float(s["retransmits"]), "count",
                              "lower", line, label=role))
        if role == "sender":
            continue
        if "jitter_ms" in s:
            out.append(sample(f"{role}_jitter", float(s["jitter_ms"]), "ms", "lower", line,
                              label=role))
        if "lost_packets" in s:
            out.append(sample(f"{role}_lost", float(s["lost_packets"]), "count", "lower",
                              line, label=role))
        if "lost_percent" in s:
            out.append(sample(f"{role}_lost_pct", float(s["lost_percent"]), "%", "lower",
                              line, label=role))
    cpu = end.get("cpu_utilization_percent")
    if isinstance(cpu, dict):
        for key, metric in (("host_total", "cpu_host"), ("remote_total", "cpu_remote")):
            if isinstance(cpu.get(key), (int, float)):
                out.append(sample(metric, float(cpu[key]), "%", "lower", line))
    return out


_CWND = re.compile(rf"^({NUM})\s+([KMGT]?Bytes)\b")


def line_samples(text: str) -> list[Sample]:
    """The numbers of one report line, named as its columns are: `[ ID] Interval  Transfer
    Bitrate  Retr  Cwnd`.  An interval line (no sender/receiver) names its figures
    without a side; the congestion window is the sender's state, not a result (config).
    A mail pastes interval lines under labels to compare runs, so each line must name its
    own numbers: read alone, "1.34 GBytes" is the transfer, not a time ("sec GBytes")."""
    r = report_in(text)
    if r is None or r.decimals != 2:
        return []
    said = _ROLE.search(r.rest)
    role = f"{said.group(1)}_" if said else ""
    if r.tag and said:
        role = f"{r.tag.split('-')[0].lower()}_{role}"
    out = [sample(f"{role}transfer", r.transfer, r.transfer_unit, "higher", 0),
           sample(f"{role}bitrate", r.rate, r.rate_unit, "higher", 0)]
    rest = _ROLE.sub("", r.rest).strip()
    u = UDP_TAIL.search(rest)
    if u:
        out += [sample(f"{role}jitter", num(u.group(1)), "ms", "lower", 0),
                sample(f"{role}lost", num(u.group(2)), "count", "lower", 0),
                sample(f"{role}datagrams", num(u.group(3)), "count", None, 0, config=True)]
        if u.group(4)[0].isdigit():
            out.append(sample(f"{role}lost_pct", num(u.group(4)), "%", "lower", 0))
        return out
    m = re.match(rf"({NUM})(?:\s+|$)", rest)
    if m and not _CWND.match(rest):
        # TCP: retransmits (the sender's); UDP's sender prints its datagram count there
        out.append(sample(f"{role}retransmits", num(m.group(1)), "count", "lower", 0))
        rest = rest[m.end():]
    c = _CWND.match(rest.strip())
    if c:
        out.append(sample(f"{role}cwnd", num(c.group(1)), c.group(2), None, 0, config=True))
    return out
