"""iperf3: text summaries (sender/receiver lines, Retr, UDP jitter/loss) and -J JSON.

Metric names carry the side that measured them, as iperf3's own summary does:
`sender_bitrate`, `receiver_bitrate` (unit as printed: Mbits/sec; JSON: bits/sec),
`sender_transfer`, `receiver_transfer` (MBytes; JSON: bytes), `sender_retransmits`,
`receiver_jitter` (ms), `receiver_lost`, `receiver_lost_pct`; `cpu_host`, `cpu_remote`
(JSON only). With -P N only the [SUM] lines are read. Per-interval lines are not samples
of a run (a claim is about the summary); a mail's pasted interval line is named by
`line_samples` (`transfer`, `bitrate`, `retransmits`; its Cwnd is config).
A prose claim of a bit rate is the receiver's figure (what arrived: the one people cite),
of the sender only when it says so; with --bidir the name must say which direction.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from types import MappingProxyType

from claims.tools import iperf3_output, register
from claims.tools.base import (
    Option,
    OptionSet,
    OutputBlock,
    ParsedArgs,
    Sample,
    ToolDescription,
    is_csv_of,
    is_host,
    is_int,
    is_number,
    is_size,
    is_word,
    one_of,
    option_given,
    side_of,
)


def _rate_size(v: str) -> bool:
    return re.fullmatch(r"\d+(\.\d+)?[kKmMgGtT]?(/\d+)?", v) is not None


class Iperf3(ToolDescription):
    name = "iperf3"
    programs = ("iperf3",)
    server_programs = ("iperf3",)
    denied_options = frozenset({"--logfile", "--pidfile", "-I", "-D", "--daemon", "-F", "--file",
                                "--rsa-private-key-path", "--authorized-users-path",
                                "--username"})
    count_limits = MappingProxyType({"-P": 128, "--parallel": 128, "-n": 1e11, "--bytes": 1e11,
                                     "-k": 1e9, "--blockcount": 1e9})
    default_argv = ("iperf3", "-c", "server")
    default_port = 5201
    peer = network = True
    sample_names = frozenset({"cpu_host", "cpu_remote"})
    sample_pattern = (r"(?:(?:tx|rx)_)?(?:sender_(?:bitrate|transfer|retransmits)|"
                      r"receiver_(?:bitrate|transfer|jitter|lost|lost_pct))")

    def claim_sample(self, kind: str, name: str, unit: str | None,
                     parsed: ParsedArgs | None) -> str | None:
        if parsed is None:
            return None
        udp = option_given(parsed, "-u")
        prefix = ""
        if option_given(parsed, "--bidir"):  # [TX-C]/[RX-C]: the name must say which
            tx = re.search(r"\btx\b|transmit|upload", name, re.I)
            rx = re.search(r"\brx\b|\breceive\b|download", name, re.I)
            if bool(tx) == bool(rx):
                return None
            prefix = "tx_" if tx else "rx_"
        role = "sender" if re.search(r"\bsend(?:er|ing)?\b", name, re.I) else "receiver"
        if kind in ("headline", "bitrate"):
            return f"{prefix}{role}_bitrate"
        if kind == "retransmits" and not udp:
            return f"{prefix}sender_retransmits"
        if kind in ("jitter", "loss") and udp:
            what = "jitter" if kind == "jitter" else ("lost_pct" if unit == "%" else "lost")
            return f"{prefix}receiver_{what}"
        if kind == "cpu" and option_given(parsed, "-J"):  # only the JSON report has it
            side = side_of(name)
            return {"local": "cpu_host", "remote": "cpu_remote"}.get(side or "")
        return None

    options = OptionSet([
        Option(("-c", "--client"), is_host, role="host"),
        Option(("-s", "--server"), None),
        Option(("-p", "--port"), is_int, role="port"),
        Option(("-t", "--time"), is_number, role="duration", max_value=600),
        Option(("-f", "--format"), one_of(*"kmgtKMGT", case=True)),
        Option(("-i", "--interval"), is_number, max_value=600),
        Option(("-A", "--affinity"), is_csv_of(is_int), role="cpu"),
        Option(("-B", "--bind"), is_host),
        Option(("-V", "--verbose"), None),
        Option(("-J", "--json"), None),
        Option(("--forceflush",), None),
        Option(("--timestamps",), is_word, optional_value=True),
        Option(("-v", "--version"), None),
        Option(("-1", "--one-off"), None),
        Option(("-u", "--udp"), None),
        Option(("--sctp",), None),
        Option(("-b", "--bitrate", "--bandwidth"), _rate_size),
        Option(("--pacing-timer",), is_int),
        Option(("--fq-rate",), _rate_size),
        Option(("-n", "--bytes"), is_size),
        Option(("-k", "--blockcount"), is_size),
        Option(("-l", "--length"), is_size),
        Option(("--cport",), is_int),
        Option(("-P", "--parallel"), is_int, max_value=128),
        Option(("-R", "--reverse"), None),
        Option(("--bidir",), None),
        Option(("-w", "--window"), is_size),
        Option(("-M", "--set-mss"), is_int),
        Option(("-N", "--no-delay"), None),
        Option(("-4", "--version4"), None), Option(("-6", "--version6"), None),
        Option(("-S", "--tos"), is_word),
        Option(("--dscp",), is_word),
        Option(("-L", "--flowlabel"), is_int),
        Option(("-Z", "--zerocopy"), None),
        Option(("-O", "--omit"), is_number, max_value=60),
        Option(("-T", "--title"), is_word),
        Option(("--extra-data",), is_word),
        Option(("--get-server-output",), None),
        Option(("--udp-counters-64bit",), None),
        Option(("--repeating-payload",), None),
        Option(("--dont-fragment",), None),
        Option(("-C", "--congestion"), is_word),
        Option(("--connect-timeout",), is_int, max_value=60000),
        Option(("--rcv-timeout",), is_int, max_value=600000),
        Option(("--idle-timeout",), is_int, max_value=600),
        Option(("-d", "--debug"), None),
        Option(("-F", "--file"), is_word, refused="reads or writes a file on the test host"),
        Option(("--logfile",), is_word, refused="writes a file"),
        Option(("-D", "--daemon"), None, refused="daemonizes, so it could not be reaped"),
        Option(("-I", "--pidfile"), is_word, refused="writes a file"),
        Option(("--username",), is_word, refused="credentials are not taken from mail"),
        Option(("--rsa-public-key-path",), is_word, refused="reads a key file"),
        Option(("--rsa-private-key-path",), is_word, refused="reads a key file"),
        Option(("--authorized-users-path",), is_word, refused="reads a file"),
        Option(("--bind-dev",), is_word, role="device"),
    ])

    def server_argv(self, parsed: ParsedArgs) -> list[str] | None:
        out = ["iperf3", "-s"]  # foreground (never -D) so the runner can reap it
        port = parsed.get("port")
        if port:
            out += ["-p", port]
        return out

    def find_outputs(self, lines: Sequence[str]) -> list[OutputBlock]:
        """Text summaries and -J JSON: read by claims.tools.iperf3_output."""
        return iperf3_output.find_outputs(lines, self.name)

    def line_samples(self, text: str) -> list[Sample]:
        """One report line read alone: claims.tools.iperf3_output."""
        return iperf3_output.line_samples(text)


IPERF3 = register(Iperf3())
