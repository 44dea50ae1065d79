"""netperf's output formats, read into samples: classic, omni (-o CSV, -O columns), -k keyval.

Classic output is read by column count rather than column position, so a paste whose
whitespace was collapsed reads the same as a terminal capture:

  RR/CRR:   send_sock recv_sock req resp elapsed rate [cpu_l cpu_r sd_l sd_r]
  STREAM:   recv_sock send_sock msg elapsed throughput [cpu_l cpu_r sd_l sd_r]
  UDP_STREAM: sock msg elapsed ok err throughput [cpu_l sd_l] / sock elapsed ok thr [cpu_r sd_r]

netperf prints -1 for a CPU column it did not measure; those are skipped. Omni selectors
become lowercased sample names (`p99_latency`). The command grammar and what a claim reads
are netperf.Netperf's; this module only knows what the printed text means.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from claims.tools.base import Better, OutputBlock, Sample
from claims.tools.text import clean_all, is_num, mentions, num, numeric_row, sample, slug

_BANNER = re.compile(
    r"\b(?:(TCP|UDP|SCTP)\s+(STREAM|MAERTS|SENDFILE|REQUEST/RESPONSE|Connect/Request/Response"
    r"|Connect)|OMNI\s+(\w+))\s+TEST\b", re.I)
_THR_UNIT = re.compile(r"(\d+\^\d+(?:bits|Bytes)/s(?:ec)?|[KMG]?Bytes/s(?:ec)?)")
_SD_UNIT = re.compile(r"\b(us/KB|us/Tr)\b")
_MARKERS = ("TEST", "Remote", "Recv", "Socket", "THROUGHPUT", "_LATENCY", "TRANSACTION_RATE")
_MARKER_RE = re.compile(r"TEST\s+from|Local\s*/\s*Remote|Recv\s+Send|Socket\s+(?:Size|Message)"
                        r"|THROUGHPUT|_LATENCY|TRANSACTION_RATE")
_TITLE = re.compile(r"^[A-Za-z][\w %/().^#-]*$")  # an omni column title
_KEYVAL = re.compile(r"^\s*([A-Z][A-Z0-9_]+)=(\S.*?)\s*$")


def _norm_unit(u: str) -> str:
    return u[:-2] if u.endswith("/sec") else u


def _sel(name: str) -> tuple[str, str | None, Better, bool]:
    """An omni output selector -> (metric, unit, better, config)."""
    n = name.upper()
    m = n.lower()
    if n in ("THROUGHPUT",):
        return "throughput", None, "higher", False
    if n == "TRANSACTION_RATE":
        return "transaction_rate", "trans/s", "higher", False
    if "LATENCY" in n:
        return m, "us", "lower", False
    if "CPU_UTIL" in n or n.endswith("_SD") or "CPU_PERCENT" in n:
        return m, "%" if "UTIL" in n or "PERCENT" in n else "us/KB", "lower", False
    if "RETRANS" in n or "ERROR" in n:
        return m, "count", "lower", False
    if any(k in n for k in ("SIZE", "ELAPSED", "_PORT", "BURST", "_SEND_CALLS", "_RECV_CALLS",
                            "_BYTES_PER", "IDENT", "_CPU_BIND", "_NODELAY", "_CORK")):
        return m, None, None, True
    return m, None, None, False


# Human omni column names (as printed by -o/-O without selectors) back to selectors.
_HUMAN = {
    "throughput": "THROUGHPUT", "throughput_units": "THROUGHPUT_UNITS",
    "local_cpu_util": "LOCAL_CPU_UTIL", "remote_cpu_util": "REMOTE_CPU_UTIL",
    "local_service_demand": "LOCAL_SD", "remote_service_demand": "REMOTE_SD",
    "minimum_latency_microseconds": "MIN_LATENCY", "maximum_latency_microseconds": "MAX_LATENCY",
    "mean_latency_microseconds": "MEAN_LATENCY", "stddev_latency_microseconds": "STDDEV_LATENCY",
    "50th_percentile_latency_microseconds": "P50_LATENCY",
    "90th_percentile_latency_microseconds": "P90_LATENCY",
    "99th_percentile_latency_microseconds": "P99_LATENCY",
    "transaction_rate_tran_s": "TRANSACTION_RATE", "elapsed_time_sec": "ELAPSED_TIME",
    "round_trip_latency_usec_tran": "RT_LATENCY",
}


def _human_to_selector(title: str) -> str:
    s = slug(title)
    if s.startswith("local_cpu_util"):
        return "LOCAL_CPU_UTIL"
    if s.startswith("remote_cpu_util"):
        return "REMOTE_CPU_UTIL"
    return _HUMAN.get(s, s.upper())


def _collapsed_rows(line: str, i: int, kind: str, proto: str) -> list[tuple[int, list[float]]]:
    """Banner, headers and rows run together on one line (an archive page that lost its
    line breaks): the numbers after the last header word, split into netperf's rows."""
    toks = line.split()
    k = len(toks)
    while k > 0 and is_num(toks[k - 1]):
        k -= 1
    nums = [num(t) for t in toks[k:]]
    if not kind:  # no banner: the header words say which test it was
        kind = "REQUEST/RESPONSE" if "Trans." in line else "STREAM"
        proto = "UDP" if "Okay" in line else proto
    if k == 0 or not nums or not re.search(r"secs\.|per sec|bits/s|Bytes/s|us/(?:Tr|KB)|% [SUC]",
                                           " ".join(toks[max(0, k - 12):k])):
        return []
    if kind == "STREAM" and proto == "UDP":
        splits = {10: 6, 14: 8}
    elif kind in ("STREAM", "MAERTS", "SENDFILE"):
        splits = {5: 5, 9: 9}
    else:  # request/response: a local row and the remote socket sizes
        splits = {8: 6, 12: 10, 6: 6, 10: 10}
    cut = splits.get(len(nums))
    if cut is None:
        return []
    return [(i, nums[:cut])] + ([(i, nums[cut:])] if nums[cut:] else [])


def find_outputs(lines: Sequence[str], tool: str = "netperf") -> list[OutputBlock]:
    """Every classic, omni and keyval block in `lines`, in order, as `tool`'s output."""
    if not mentions(lines, _MARKERS, _MARKER_RE):
        return []
    text = clean_all(lines)
    blocks: list[OutputBlock] = []
    used: set[int] = set()
    i = 0
    while i < len(text):
        if i in used:
            i += 1
            continue
        block = _classic_at(text, i, tool) or _omni_at(text, i, tool)
        if block is not None:
            blocks.append(block)
            used.update(range(block.start, block.end + 1))
            i = block.end + 1
        else:
            i += 1
    kv = _keyval(text, used, tool)
    blocks.extend(kv)
    blocks.sort(key=lambda b: b.start)
    return blocks


def _classic_at(text: list[str], i: int, tool: str) -> OutputBlock | None:
    line = text[i]
    m = _BANNER.search(line)
    header_start = i
    if m and not m.group(3):
        proto, kind = m.group(1).upper(), m.group(2).upper()
        header_start = i + 1
    elif m:
        return None  # omni banner: handled by _omni_at
    elif re.match(r"^\s*(Local\s*/Remote|Socket\s+Size\s+Request|Recv\s+Send\s+Send|"
                  r"Socket\s+Message\s+Elapsed)", line):
        proto, kind = "", ""
    else:
        return None
    header: list[str] = []
    j = header_start
    rows: list[tuple[int, list[float]]] = []
    while j < len(text) and j < header_start + 14:
        t = text[j]
        row = numeric_row(t)
        if row is not None:
            rows.append((j, row))
            if len(rows) == 2:
                break
        elif rows:
            if t.strip():
                break
        elif t.strip():
            if _BANNER.search(t) and j > i:
                break
            header.append(t)
        j += 1
    if not rows:
        rows = _collapsed_rows(line, i, kind, proto)
        header = [line]
    if not rows:
        return None
    htext = " ".join(header)
    if not kind:
        if "Trans." in htext or "Request" in htext:
            kind = "REQUEST/RESPONSE"
        elif "Okay" in htext and "Errors" in htext:
            kind, proto = "STREAM", "UDP"
        elif "Throughput" in htext:
            kind = "STREAM"
        else:
            return None
    name = f"{proto}_{kind}" if proto else kind
    test = {"REQUEST/RESPONSE": "RR", "CONNECT/REQUEST/RESPONSE": "CRR",
            "CONNECT": "CC"}.get(kind, kind)
    info = {"test": f"{proto}_{test}" if proto else test, "banner": name}
    samples = classic_samples(proto, test, htext, rows)
    if not samples:
        return None
    end = rows[-1][0]
    if test in ("STREAM", "MAERTS", "SENDFILE") and proto != "UDP":
        end = _repeated_runs(text, rows, proto, test, htext, samples)
    return OutputBlock(tool=tool, start=i, end=end, samples=samples, info=info)


def _repeated_runs(text: list[str], rows: list[tuple[int, list[float]]], proto: str, test: str,
                   htext: str, samples: list[Sample]) -> int:
    """A TCP stream test prints one row per run: the rows of the same width under one
    header are runs repeated (`for i in 1 2 3; do netperf ...`).  Each is read as the first
    was, so its socket sizes and test length stay configuration (paired run by run they
    read as claims that never changed); returns the block's last line."""
    width = len(rows[0][1])
    last = rows[-1][0]
    if any(len(row) != width for _, row in rows[1:]):
        return last  # a data row the mail client wrapped: one run
    for ln, row in rows[1:]:
        samples += classic_samples(proto, test, htext, [(ln, row)])
    k = last + 1
    while k < len(text):
        more = numeric_row(text[k])
        if more is None or len(more) != width:
            break
        samples += classic_samples(proto, test, htext, [(k, more)])
        last, k = k, k + 1
    return last


def classic_samples(proto: str, test: str, htext: str,
                     rows: list[tuple[int, list[float]]]) -> list[Sample]:
    """The samples of a classic result row (and its remote row), read by column count;
    also what a `-P 0` run prints, with no banner or headers."""
    out: list[Sample] = []
    first_line, r = rows[0]
    full = 8 if proto == "UDP" and test == "STREAM" else (10 if test in ("RR", "CRR", "CC")
                                                          else 9)
    if len(rows) > 1 and len(r) < full and len(r) + len(rows[1][1]) == full:
        r = r + rows[1][1]  # a data row the mail client wrapped
        rows = rows[:1]
    sd_unit_m = _SD_UNIT.search(htext)
    thr_unit_m = _THR_UNIT.search(htext)
    thr_unit = _norm_unit(thr_unit_m.group(1)) if thr_unit_m else "10^6bits/s"

    def cfg(metric: str, v: float, unit: str | None, line: int) -> None:
        out.append(sample(metric, v, unit, None, line, config=True))

    def cpu(vals: list[float], line: int, sd_default: str, sides: tuple[str, ...]) -> None:
        n = len(sides)
        unit = sd_unit_m.group(1) if sd_unit_m else sd_default
        for k, side in enumerate(sides):
            if k < len(vals) and vals[k] >= 0:
                out.append(sample(f"cpu_{side}", vals[k], "%", "lower", line))
            if n + k < len(vals) and vals[n + k] >= 0:
                out.append(sample(f"service_demand_{side}", vals[n + k], unit, "lower",
                                  line))

    if test in ("RR", "CRR", "CC"):
        if len(r) < 6:
            return []
        cfg("socket_send_size", r[0], "bytes", first_line)
        cfg("socket_recv_size", r[1], "bytes", first_line)
        cfg("request_size", r[2], "bytes", first_line)
        cfg("response_size", r[3], "bytes", first_line)
        cfg("elapsed_time", r[4], "s", first_line)
        out.append(sample("transaction_rate", r[5], "trans/s", "higher", first_line))
        cpu(r[6:10], first_line, "us/Tr", ("local", "remote"))
        if len(rows) > 1 and len(rows[1][1]) == 2:
            cfg("remote_socket_send_size", rows[1][1][0], "bytes", rows[1][0])
            cfg("remote_socket_recv_size", rows[1][1][1], "bytes", rows[1][0])
    elif proto == "UDP" and test == "STREAM":
        if len(r) < 6:
            return []
        cfg("socket_size", r[0], "bytes", first_line)
        cfg("message_size", r[1], "bytes", first_line)
        cfg("elapsed_time", r[2], "s", first_line)
        out.append(sample("send_messages", r[3], "count", "higher", first_line))
        out.append(sample("send_errors", r[4], "count", "lower", first_line))
        out.append(sample("send_throughput", r[5], thr_unit, "higher", first_line))
        cpu(r[6:8], first_line, "us/KB", ("local",))
        if len(rows) > 1 and len(rows[1][1]) >= 4:
            ln, r2 = rows[1]
            cfg("remote_socket_size", r2[0], "bytes", ln)
            cfg("remote_elapsed_time", r2[1], "s", ln)
            out.append(sample("recv_messages", r2[2], "count", "higher", ln))
            out.append(sample("throughput", r2[3], thr_unit, "higher", ln))
            cpu(r2[4:6], ln, "us/KB", ("remote",))
    else:  # TCP/SCTP STREAM, MAERTS, SENDFILE
        if len(r) < 5:
            return []
        cfg("socket_recv_size", r[0], "bytes", first_line)
        cfg("socket_send_size", r[1], "bytes", first_line)
        cfg("message_size", r[2], "bytes", first_line)
        cfg("elapsed_time", r[3], "s", first_line)
        out.append(sample("throughput", r[4], thr_unit, "higher", first_line))
        cpu(r[5:9], first_line, "us/KB", ("local", "remote"))
    return out


def _omni_at(text: list[str], i: int, tool: str) -> OutputBlock | None:
    """OMNI banner (or an RR banner with -O) followed by -o CSV or -O columns."""
    m = _BANNER.search(text[i])
    if not m:
        return None
    j = i + 1
    while j < len(text) and not text[j].strip():
        j += 1
    if j >= len(text):
        return None
    # -o: a CSV title line and a CSV value line.
    if "," in text[j] and j + 1 < len(text) and "," in text[j + 1]:
        titles = [t.strip() for t in text[j].split(",")]
        values = [v.strip() for v in text[j + 1].split(",")]
        if len(titles) == len(values) and all(_TITLE.match(t) for t in titles):
            return _omni_block(tool, i, j + 1, titles, values, selectors=False)
    # -O: stacked titles, then one value row; slice the titles at the value columns.
    hdr: list[str] = []
    k = j
    while k < len(text) and k < j + 8:
        toks = text[k].split()
        if toks and (is_num(toks[0]) or toks[0].upper() in ("TCP", "UDP")):
            break
        hdr.append(text[k])
        k += 1
    if not hdr or k >= len(text):
        return None
    vline = text[k]
    starts = [mm.start() for mm in re.finditer(r"\S+", vline)]
    if not starts:
        return None
    titles = []
    for n, s in enumerate(starts):
        e = starts[n + 1] if n + 1 < len(starts) else None
        titles.append(" ".join(h[s:e].strip() for h in hdr if h[s:e].strip()))
    values = vline.split()
    if len(values) != len(titles):
        return None
    return _omni_block(tool, i, k, titles, values, selectors=False)


def _omni_block(tool: str, start: int, end: int, titles: list[str], values: list[str],
                selectors: bool) -> OutputBlock | None:
    pairs = {(t if selectors else _human_to_selector(t)): v
             for t, v in zip(titles, values, strict=True) if t}
    samples = _selector_samples(pairs, end)
    if not samples:
        return None
    return OutputBlock(tool=tool, start=start, end=end, samples=samples,
                       info={"test": "OMNI", "format": "omni"})


def _selector_samples(pairs: dict[str, str], line: int,
                      lines: dict[str, int] | None = None) -> list[Sample]:
    thr_unit = pairs.get("THROUGHPUT_UNITS")
    out: list[Sample] = []
    for key, val in pairs.items():
        if not is_num(val) or key == "THROUGHPUT_UNITS":
            continue
        metric, unit, better, config = _sel(key)
        if metric == "throughput" and thr_unit:
            unit = "trans/s" if thr_unit.lower().startswith("trans") else _norm_unit(thr_unit)
        v = num(val)
        if v < 0 and ("cpu" in metric or metric.endswith("_sd")):
            continue
        out.append(sample(metric, v, unit, better, (lines or {}).get(key, line),
                          config=config))
    return out


def _keyval(text: list[str], used: set[int], tool: str) -> list[OutputBlock]:
    """`-- -k` output: runs of KEY=VALUE lines naming known selectors."""
    blocks: list[OutputBlock] = []
    i = 0
    while i < len(text):
        m = _KEYVAL.match(text[i]) if i not in used else None
        if not m:
            i += 1
            continue
        pairs: dict[str, str] = {}
        lines: dict[str, int] = {}
        j = i
        while j < len(text) and (mm := _KEYVAL.match(text[j])):
            pairs[mm.group(1)] = mm.group(2)
            lines[mm.group(1)] = j
            j += 1
        known = {"THROUGHPUT", "TRANSACTION_RATE", "MEAN_LATENCY", "P99_LATENCY",
                 "P50_LATENCY", "MIN_LATENCY", "MAX_LATENCY", "LOCAL_CPU_UTIL",
                 "RT_LATENCY", "THROUGHPUT_UNITS"}
        if known & set(pairs) and len(pairs) >= 2:  # one KEY=1 in prose is not output
            samples = _selector_samples(pairs, i, lines)
            if samples:
                start = i - 1 if i > 0 and _BANNER.search(text[i - 1]) else i
                blocks.append(OutputBlock(tool=tool, start=start, end=j - 1,
                                          samples=samples, info={"format": "keyval"}))
        i = j
    return blocks
