"""netperf: its argv (global options, test options after `--`) and what a claim reads.

Its output (classic STREAM/MAERTS/RR/CRR/UDP, omni -o/-O, -k keyval) is read by
claims.tools.netperf_output. Metric names: `throughput`, `transaction_rate`, `cpu_local`,
`cpu_remote`, `service_demand_local`, `service_demand_remote`; socket/message sizes and the
elapsed time are `config`.
A prose claim under a command reads by the test: *_RR/*_CRR/*_CC -> `transaction_rate`,
else `throughput`; with omni selectors (`-- -O THROUGHPUT,P99_LATENCY`) the selectors'
names, where an RR test's `throughput` is in Trans/s.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from types import MappingProxyType

from claims.tools import netperf_output, register
from claims.tools.base import (
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
from claims.tools.text import numeric_row

TESTS = ("TCP_STREAM", "TCP_MAERTS", "TCP_SENDFILE", "TCP_RR", "TCP_CRR", "TCP_CC",
         "UDP_STREAM", "UDP_RR", "SCTP_STREAM", "SCTP_RR", "SCTP_STREAM_MANY", "SCTP_RR_MANY",
         "OMNI", "DLCO_STREAM", "DLCO_RR", "DLCL_STREAM", "DLCL_RR", "TCP_RR_ALT")


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
        return netperf_output.classic_samples(proto, kind or test, "", rows[:2])

    def duration(self, parsed: ParsedArgs) -> float | None:
        """Seconds; a negative -l counts bytes or transactions, so it is no duration."""
        d = super().duration(parsed)
        return d if d is None or d > 0 else None

    def test_name(self, parsed: ParsedArgs) -> str:
        for opt, _, val in parsed.options:
            if opt.names == ("-t",) and val:
                return val.upper()
        return "TCP_STREAM"

    def find_outputs(self, lines: Sequence[str]) -> list[OutputBlock]:
        """Classic, omni and keyval output: read by claims.tools.netperf_output."""
        return netperf_output.find_outputs(lines, self.name)


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
