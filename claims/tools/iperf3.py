"""iperf3: text summaries (sender/receiver lines, Retr, UDP jitter/loss) and -J JSON.

Metric names carry the side that measured them, as iperf3's own summary does:
`sender_bitrate`, `receiver_bitrate` (unit as printed: Mbits/sec; JSON: bits/sec),
`sender_transfer`, `receiver_transfer` (MBytes; JSON: bytes), `sender_retransmits`,
`receiver_jitter` (ms), `receiver_lost`, `receiver_lost_pct`; `cpu_host`, `cpu_remote`
(JSON only). With -P N only the [SUM] lines are read. Per-interval lines are not samples:
a claim is about the summary.
A prose claim of a bit rate is the receiver's figure (what arrived: the one people cite),
of the sender only when it says so; with --bidir the name must say which direction.
"""
from __future__ import annotations

import json
import re
from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from claims.tools import register
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
from claims.tools.iperf_common import COLLAPSED_CUT, UDP_TAIL, report_line
from claims.tools.text import NUM, clean_all, mentions, num, remap, runs_of, sample, split_collapsed

_AUX = re.compile(r"^\s*((?:sender|receiver)\s*$|\[\s*ID\s*\]|\[\s*\d+\]\s+local\s|Connecting to host|iperf Done|"
                  r"Server listening|Reverse mode|Accepted connection|(?:- )+-?\s*$|-{20,}\s*$|"
                  r"\[\s*(?:\d+|SUM)\s*\]\s*(?:Sent|Server Report))")
_ROLE = re.compile(r"\b(sender|receiver)\s*$")


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

    # -- output -----------------------------------------------------------------------
    def find_outputs(self, lines: Sequence[str]) -> list[OutputBlock]:
        if not mentions(lines, ("bits/sec", "bits_per_second")):
            return []
        text = clean_all(lines)
        blocks = self._json_blocks(text)
        taken = {i for b in blocks for i in range(b.start, b.end + 1)}
        pieces, index = split_collapsed(text, COLLAPSED_CUT)
        if index is not None:
            taken = {k for k, i in enumerate(index) if i in taken}
        found = []
        for start, last in runs_of(pieces, self._is_ours, taken):
            block = self._text_block(pieces, start, last)
            if block is not None:
                found.append(block)
        blocks += remap(found, index)
        blocks.sort(key=lambda b: b.start)
        return blocks

    @staticmethod
    def _is_ours(t: str) -> bool:
        r = report_line(t)
        if r is not None:
            return r.decimals == 2
        return _AUX.match(t) is not None

    def _text_block(self, text: list[str], start: int, end: int) -> OutputBlock | None:
        summaries = []
        for k in range(start, end + 1):
            r = report_line(text[k])
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
        return OutputBlock(tool=self.name, start=start, end=end, samples=samples, info=info)

    def _json_blocks(self, text: list[str]) -> list[OutputBlock]:
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
            samples = self._json_samples(doc, i) if isinstance(doc, dict) else []
            if samples:
                out.append(OutputBlock(tool=self.name, start=i, end=j, samples=samples,
                                       info={"format": "json"}))
            i = j + 1
        return out

    @staticmethod
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


IPERF3 = register(Iperf3())
