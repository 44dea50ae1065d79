"""netperf: classic STREAM/MAERTS/RR/CRR/UDP output, omni -o/-O/-k output, its argv.

Classic output is read by column count rather than column position, so a paste whose
whitespace was collapsed reads the same as a terminal capture:

  RR/CRR:   send_sock recv_sock req resp elapsed rate [cpu_l cpu_r sd_l sd_r]
  STREAM:   recv_sock send_sock msg elapsed throughput [cpu_l cpu_r sd_l sd_r]
  UDP_STREAM: sock msg elapsed ok err throughput [cpu_l sd_l] / sock elapsed ok thr [cpu_r sd_r]

Metric names: `throughput`, `transaction_rate`, `cpu_local`, `cpu_remote`,
`service_demand_local`, `service_demand_remote`; socket/message sizes and the elapsed
time are `config`. netperf prints -1 for a CPU column it did not measure; those are skipped.
A prose claim under a command reads by the test: *_RR/*_CRR/*_CC -> `transaction_rate`,
else `throughput`; with omni selectors (`-- -O THROUGHPUT,P99_LATENCY`) the selectors'
names, where an RR test's `throughput` is in Trans/s.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from types import MappingProxyType

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
    is_csv_of,
    is_host,
    is_int,
    is_number,
    is_size,
    is_word,
    latency_stat,
    one_of,
    option_given,
    side_of,
)
from claims.tools.text import clean_all, is_num, mentions, num, numeric_row, sample, slug

TESTS = ("TCP_STREAM", "TCP_MAERTS", "TCP_SENDFILE", "TCP_RR", "TCP_CRR", "TCP_CC",
         "UDP_STREAM", "UDP_RR", "SCTP_STREAM", "SCTP_RR", "SCTP_STREAM_MANY", "SCTP_RR_MANY",
         "OMNI", "DLCO_STREAM", "DLCO_RR", "DLCL_STREAM", "DLCL_RR", "TCP_RR_ALT")

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


def _host_family(v: str) -> bool:
    """netperf's `name[,family]`: a host and an optional 4/6/inet/inet6."""
    host, _, fam = v.partition(",")
    return is_host(host) and fam in ("", "4", "6", "inet", "inet6", "AF_INET", "AF_INET6")


def _is_selectors(v: str) -> bool:
    """Omni output selectors (THROUGHPUT,P99_LATENCY); never a file name, which netperf
    would otherwise read selectors from."""
    return all(re.fullmatch(r"[A-Z][A-Z0-9_]*", p) is not None for p in v.split(","))


def is_request_response(test: str) -> bool:
    """TCP_RR, UDP_RR, TCP_CRR, TCP_CC: tests whose result is a transaction rate."""
    return test.upper().endswith(("RR", "CC"))


def rate_sample(test: str) -> str:
    """The sample a test's classic output gives its result under."""
    return "transaction_rate" if is_request_response(test) else "throughput"


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


class Netperf(ToolDescription):
    name = "netperf"
    programs = ("netperf",)
    server_programs = ("netserver",)
    denied_options = frozenset({"-F", "-d", "--debug"})
    server_denied_options = frozenset({"-d", "-f", "-Z"})
    count_limits = MappingProxyType({"-i": 30})
    version_flag = ("-V",)
    default_argv = ("netperf", "-H", "server")
    default_port = 12865
    peer = network = True

    options = OptionSet([
        Option(("-H",), _host_family, role="host", help="remote host[,family]"),
        Option(("-L",), _host_family, help="local address[,family]"),
        Option(("-t",), one_of(*TESTS), help="test name"),
        Option(("-l",), is_int, role="duration", max_value=600,
               help="test length in seconds (negative: transactions)"),
        Option(("-p",), is_csv_of(is_int), role="port", help="control port[,local port]"),
        Option(("-c",), is_number, optional_value=True, help="local CPU utilisation"),
        Option(("-C",), is_number, optional_value=True, help="remote CPU utilisation"),
        Option(("-T",), is_csv_of(is_int), role="cpu", help="lcpu,rcpu binding"),
        Option(("-f",), one_of(*"GMKgmk", case=True), help="output units"),
        Option(("-P",), one_of("0", "1"), help="banner on/off"),
        Option(("-i",), is_csv_of(is_int), max_value=30, help="confidence iterations max,min"),
        Option(("-I",), is_csv_of(is_number), help="confidence level,interval"),
        Option(("-D",), is_csv_of(is_word), optional_value=True, help="demo mode interval"),
        Option(("-B",), is_word, help="result brand string"),
        Option(("-a",), is_csv_of(is_int), help="send,recv alignment"),
        Option(("-A",), is_csv_of(is_int), help="remote send,recv alignment"),
        Option(("-o",), is_csv_of(is_int), help="send,recv offset"),
        Option(("-O",), is_csv_of(is_int), help="remote send,recv offset"),
        Option(("-n",), is_int, help="number of CPUs"),
        Option(("-N",), None, help="no control connection"),
        Option(("-s",), is_int, max_value=60, help="seconds to wait before the test"),
        Option(("-S",), None, help="SO_KEEPALIVE on data connection"),
        Option(("-v",), is_int, help="verbosity"),
        Option(("-V",), None, help="copy avoidance"),
        Option(("-W",), is_csv_of(is_int), help="send,recv width"),
        Option(("-y",), is_csv_of(is_int), help="local,remote socket priority"),
        Option(("-Y",), is_csv_of(is_word), help="local,remote IP_TOS"),
        Option(("-j",), None, help="keep latency statistics"),
        Option(("-r",), None, help="confidence on the result only"),
        Option(("-4",), None), Option(("-6",), None),
        Option(("-h",), None, help="help"),
        Option(("-F",), is_word, refused="reads a fill file from the test host"),
        Option(("-Z",), is_word, refused="passphrases are not taken from mail"),
        Option(("-d",), None, refused="debug mode writes a log file"),
    ])

    test_options = OptionSet([
        Option(("-r",), is_csv_of(is_size), help="request,response size"),
        Option(("-m",), is_csv_of(is_size), help="send size local[,remote]"),
        Option(("-M",), is_csv_of(is_size), help="recv size local[,remote]"),
        Option(("-s",), is_csv_of(is_size), help="local socket send,recv buffer"),
        Option(("-S",), is_csv_of(is_size), help="remote socket send,recv buffer"),
        Option(("-D",), is_word, optional_value=True, help="TCP_NODELAY"),
        Option(("-C",), None, help="TCP_CORK"),
        Option(("-b",), is_int, max_value=100000, help="burst size"),
        Option(("-H",), _host_family, role="host", help="remote data address[,family]"),
        Option(("-L",), _host_family, help="local data address[,family]"),
        Option(("-P",), is_csv_of(is_int), help="data ports lport,rport"),
        Option(("-p",), is_csv_of(is_int), help="port range (omni)"),
        Option(("-R",), one_of("0", "1"), help="allow routing"),
        Option(("-T",), one_of("tcp", "udp", "sctp", "dccp", "udplite"), help="protocol"),
        Option(("-d",), is_word, help="omni direction"),
        Option(("-c",), None, help="omni connect test"),
        Option(("-N",), None, help="no server test data"),
        Option(("-u",), is_word, help="test uuid"),
        Option(("-K",), is_csv_of(is_word), help="congestion control local[,remote]"),
        Option(("-t",), one_of("stream", "dgram", "seqpacket", "raw"), help="socket type"),
        Option(("-n",), None, help="UDP no-connect"),
        Option(("-k",), _is_selectors,
               optional_value=True, help="keyval output selectors"),
        Option(("-o",), _is_selectors,
               optional_value=True, help="CSV output selectors"),
        Option(("-O",), _is_selectors,
               optional_value=True, help="human output selectors"),
        Option(("-4",), None), Option(("-6",), None),
        Option(("-h",), None),
    ])

    sample_names = frozenset({
        "throughput", "transaction_rate", "cpu_local", "cpu_remote", "service_demand_local",
        "service_demand_remote", "send_throughput", "send_messages", "send_errors",
        "recv_messages"})
    # omni selectors, lowercased: p99_latency, local_cpu_util, remote_sd, ...
    sample_pattern = r"(?:min|max|mean|stddev|rt|p\d+)_latency|(?:local|remote)_[a-z0-9_]+"

    # -- what a claim is -----------------------------------------------------------------
    def sample_for(self, metric_name: str, unit: str | None,
                   argv: Sequence[str]) -> str | None:
        """As the base, and a rate named after another test's output (`throughput` said of
        a TCP_RR run) is the rate this test's classic output prints."""
        got = super().sample_for(metric_name, unit, argv)
        parsed = self.try_parse(argv)
        if got in ("throughput", "transaction_rate") and parsed is not None \
                and not _selectors(parsed):
            return rate_sample(self.test_name(parsed))
        return got

    def claim_sample(self, kind: str, name: str, unit: str | None,
                     parsed: ParsedArgs | None) -> str | None:
        if parsed is None:
            return None
        test = self.test_name(parsed)
        rr = is_request_response(test)
        sel = _selectors(parsed)
        if sel:
            return _selector_sample(kind, name, sel)
        if kind == "headline" or kind == ("transaction_rate" if rr else "bitrate"):
            if test == "UDP_STREAM" and re.search(r"\bsend(?:er)?\b|\btx\b", name, re.I):
                return "send_throughput"
            return rate_sample(test)  # UDP_STREAM: the receiver's, what arrived
        if kind == "cpu":
            given = [s for s, flag in (("local", "-c"), ("remote", "-C"))
                     if option_given(parsed, flag)]  # -c/-C before `--`: CPU columns
            side = side_of(name)
            if side in given or (side is None and len(given) == 1):
                return f"cpu_{side or given[0]}"
        return None

    # -- command line -----------------------------------------------------------------
    def parse_args(self, argv: Sequence[str]) -> ParsedArgs:
        args = list(argv)
        if "--" in args:
            i = args.index("--")
            head, tail = args[:i], args[i + 1:]
        else:
            head, tail = args, None
        parsed = super().parse_args(head)
        if tail is not None:
            parsed.extra = self.test_options.parse(parsed.program + " --", tail)
        return parsed

    def server_argv(self, parsed: ParsedArgs) -> list[str] | None:
        out = ["netserver", "-D"]  # -D: stay in the foreground so the runner can reap it
        port = next((v for o, _, v in parsed.options if o.role == "port"), None)
        if port:
            out += ["-p", port.split(",")[0]]
        return out

    def parse_run(self, argv: Sequence[str], text: str) -> list[Sample]:
        """`-P 0` suppresses the banner and headers: read the bare row by the test name."""
        found = self.parse(text)
        if found:
            return found
        try:
            parsed = self.parse_args(argv)
        except Refused:
            return []
        test = self.test_name(parsed)
        proto, _, kind = test.partition("_")
        rows = [(i, r) for i, ln in enumerate(text.splitlines())
                if (r := numeric_row(ln)) is not None]
        if not rows or test == "OMNI":
            return []
        return self._classic_samples(proto, kind or test, "", rows[:2])

    def duration(self, parsed: ParsedArgs) -> float | None:
        """Seconds; a negative -l counts bytes or transactions, so it is no duration."""
        d = super().duration(parsed)
        return d if d is None or d > 0 else None

    def test_name(self, parsed: ParsedArgs) -> str:
        for opt, _, val in parsed.options:
            if opt.names == ("-t",) and val:
                return val.upper()
        return "TCP_STREAM"

    # -- output -----------------------------------------------------------------------
    def find_outputs(self, lines: Sequence[str]) -> list[OutputBlock]:
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
            block = self._classic_at(text, i) or self._omni_at(text, i)
            if block is not None:
                blocks.append(block)
                used.update(range(block.start, block.end + 1))
                i = block.end + 1
            else:
                i += 1
        kv = self._keyval(text, used)
        blocks.extend(kv)
        blocks.sort(key=lambda b: b.start)
        return blocks

    def _classic_at(self, text: list[str], i: int) -> OutputBlock | None:
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
        samples = self._classic_samples(proto, test, htext, rows)
        if not samples:
            return None
        end = rows[-1][0]
        return OutputBlock(tool=self.name, start=i, end=end, samples=samples, info=info)

    def _classic_samples(self, proto: str, test: str, htext: str,
                         rows: list[tuple[int, list[float]]]) -> list[Sample]:
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

    def _omni_at(self, text: list[str], i: int) -> OutputBlock | None:
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
                return self._omni_block(i, j + 1, titles, values, selectors=False)
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
        return self._omni_block(i, k, titles, values, selectors=False)

    def _omni_block(self, start: int, end: int, titles: list[str], values: list[str],
                    selectors: bool) -> OutputBlock | None:
        pairs = {(t if selectors else _human_to_selector(t)): v
                 for t, v in zip(titles, values, strict=True) if t}
        samples = self._selector_samples(pairs, end)
        if not samples:
            return None
        return OutputBlock(tool=self.name, start=start, end=end, samples=samples,
                           info={"test": "OMNI", "format": "omni"})

    @staticmethod
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

    def _keyval(self, text: list[str], used: set[int]) -> list[OutputBlock]:
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
                samples = self._selector_samples(pairs, i, lines)
                if samples:
                    start = i - 1 if i > 0 and _BANNER.search(text[i - 1]) else i
                    blocks.append(OutputBlock(tool=self.name, start=start, end=j - 1,
                                              samples=samples, info={"format": "keyval"}))
            i = j
        return blocks


def _selectors(parsed: ParsedArgs) -> list[str]:
    """Omni output selectors named after `--` (-o/-O/-k with a value), uppercased."""
    if parsed.extra is None:
        return []
    return [p.upper() for opt, _, val in parsed.extra.options
            if opt.names[0] in ("-o", "-O", "-k") and val for p in val.split(",") if p]


def _selector_sample(kind: str, name: str, sel: list[str]) -> str | None:
    """The selector a claim of `kind` reads, lowercased as the omni parser names it."""
    want: list[str] = []
    if kind in ("headline", "transaction_rate"):
        want = ["TRANSACTION_RATE", "THROUGHPUT"]
    elif kind == "bitrate":
        want = ["THROUGHPUT"]
    elif kind == "latency":
        stat = latency_stat(name)
        lat = [s for s in sel if s.endswith("_LATENCY")]
        if stat is None:
            want = ["MEAN_LATENCY", "RT_LATENCY"] + (lat if len(lat) == 1 else [])
        else:
            want = [f"P{stat.replace('.', '_')}_LATENCY" if stat[0].isdigit()
                    else f"{stat.upper()}_LATENCY"]
    elif kind == "cpu":
        side = side_of(name)
        cpus = [s for s in sel if s.endswith("_CPU_UTIL")]
        want = [f"{side.upper()}_CPU_UTIL"] if side else (cpus if len(cpus) == 1 else [])
    return next((w.lower() for w in want if w in sel), None)


def refuse_unless_netperf(argv: Sequence[str]) -> ParsedArgs:
    """Parse a netperf argv with the registered description (used by super_netperf)."""
    if not argv:
        raise Refused("empty netperf command")
    return NETPERF.parse_args(argv)


NETPERF = register(Netperf())
