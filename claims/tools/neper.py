"""neper (tcp_rr, tcp_stream, tcp_crr, udp_rr, udp_stream): its key=value summary.

Keys are kept as printed (`throughput`, `num_transactions`, `latency_p99`, `latency_p99.9`,
`local_throughput`); latencies are in seconds as neper prints them. Options follow neper's
README; the binary is not packaged for Debian, so the grammar was not checked against a
live `--help` here. A prose claim: the rr/crr programs' `throughput` is transactions/s,
tcp_stream's a bit rate; latencies are `latency_mean`, `latency_p99`, ...
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
    is_csv_of,
    is_host,
    is_int,
    is_number,
    is_size,
    latency_stat,
)
from claims.tools.text import clean_all, is_num, mentions, num, sample

_KV = re.compile(r"^\s*([a-z][a-z0-9_.]*)=(\S+)\s*$")
_RESULT_KEYS = re.compile(r"^(throughput|num_transactions|latency_\w+|local_throughput|"
                          r"remote_throughput)")
_CONFIG_KEYS = re.compile(r"^(total_run_time|num_threads|num_flows|num_samples|test_length|"
                          r"request_size|response_size|buffer_size|port|control_port|pid|"
                          r"time_start|start_index|maxrss|minflt|majflt|nvcsw|nivcsw|.*_opt)$")


class Neper(ToolDescription):
    name = "neper"
    programs = ("tcp_rr", "tcp_stream", "tcp_crr", "udp_rr", "udp_stream")
    server_programs = programs
    default_port = 12866  # the control port (-C)
    network = True
    sample_names = frozenset({"utime", "stime"})
    sample_pattern = (r"throughput|num_transactions|local_throughput|remote_throughput|"
                      r"latency_[a-z0-9_.]+")

    def claim_sample(self, kind: str, name: str, unit: str | None,
                     parsed: ParsedArgs | None) -> str | None:
        if parsed is None:
            return None
        rr = parsed.program.endswith("rr")
        if kind == "headline" or kind == ("transaction_rate" if rr else "bitrate"):
            return "throughput"
        if kind == "latency" and rr:
            stat = latency_stat(name) or "mean"
            return f"latency_p{stat}" if stat[0].isdigit() else f"latency_{stat}"
        return None

    options = OptionSet([
        Option(("-c", "--client"), None),
        Option(("-H", "--host"), is_host, role="host"),
        Option(("-l", "--test-length"), is_number, role="duration", max_value=600),
        Option(("-T", "--num-threads"), is_int, max_value=256),
        Option(("-F", "--num-flows"), is_int, max_value=10000),
        Option(("-C", "--control-port"), is_int, role="port"),
        Option(("-P", "--port"), is_int),
        Option(("-B", "--buffer-size"), is_size),
        Option(("-Q", "--request-size"), is_size),
        Option(("-R", "--response-size"), is_size),
        Option(("-p", "--percentiles"), is_csv_of(is_number)),
        Option(("-I", "--interval"), is_number),
        Option(("-N", "--nodelay"), None),
        Option(("-Z", "--zerocopy"), None),
        Option(("-r", "--reuseaddr"), None),
        Option(("-4", "--ipv4"), None), Option(("-6", "--ipv6"), None),
        Option(("-D", "--num-ports"), is_int),
        Option(("-V", "--version"), None),
        Option(("-v", "--verbose"), None),
        Option(("--logtostderr",), None),
        Option(("--pin-cpu",), None),
        Option(("-A", "--all-samples"), None, optional_value=True,
               refused="writes every sample to a file"),
    ])

    def server_argv(self, parsed: ParsedArgs) -> list[str] | None:
        out = [parsed.program]
        port = parsed.get("port")
        if port:
            out += ["-C", port]
        return out

    def find_outputs(self, lines: Sequence[str]) -> list[OutputBlock]:
        if not mentions(lines, ("latency_", "throughput", "num_transactions")):
            return []
        text = clean_all(lines)
        blocks: list[OutputBlock] = []
        i = 0
        while i < len(text):
            if not _KV.match(text[i]):
                i += 1
                continue
            j = i
            pairs: list[tuple[int, str, str]] = []
            while j < len(text) and (m := _KV.match(text[j])):
                pairs.append((j, m.group(1), m.group(2)))
                j += 1
            if any(_RESULT_KEYS.match(k) for _, k, _ in pairs):
                b = OutputBlock(tool=self.name, start=i, end=j - 1)
                for ln, key, val in pairs:
                    if not is_num(val):
                        b.info[key] = val
                        continue
                    if _CONFIG_KEYS.match(key):
                        b.samples.append(sample(key, num(val), None, None, ln, config=True))
                    elif key.startswith("latency"):
                        b.samples.append(sample(key, num(val), "s", "lower", ln))
                    elif key in ("utime", "stime"):
                        b.samples.append(sample(key, num(val), "s", "lower", ln))
                    elif _RESULT_KEYS.match(key):
                        b.samples.append(sample(key, num(val), None, "higher", ln))
                    else:
                        b.samples.append(sample(key, num(val), None, None, ln))
                blocks.append(b)
            i = j
        return blocks


NEPER = register(Neper())
