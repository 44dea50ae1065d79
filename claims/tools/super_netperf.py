"""super_netperf: N concurrent netperf instances whose results it adds into one bare number.

The total is printed alone on a line after the command; its metric is netperf's
(`transaction_rate` for *_RR/*_CRR tests, else `throughput`) so a claim made with
super_netperf compares with netperf's own names. The argv is `super_netperf N <netperf
args>`, the netperf part validated by netperf's description.
"""
from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

from claims.tools import register
from claims.tools.base import OutputBlock, ParsedArgs, Refused, Sample, ToolDescription
from claims.tools.netperf import NETPERF, is_request_response, rate_sample
from claims.tools.text import NUM, clean_all, mentions, num, sample

_CMD = re.compile(r"super_netperf\s+(\d+)\s+(.*)$")
_TOTAL = re.compile(rf"^\s*({NUM})\s*$")
MAX_INSTANCES = 512


def _test_of(args: str) -> str:
    m = re.search(r"-t\s*(\w+)", args)
    return m.group(1).upper() if m else "TCP_STREAM"


class SuperNetperf(ToolDescription):
    name = "super_netperf"
    programs = ("super_netperf",)
    server_programs = ("netserver",)
    # it hands its arguments to netperf instances: netperf's options, guards and port are
    # its own (spec building reads the host and port roles from `options`)
    options = NETPERF.options
    denied_options = NETPERF.denied_options
    server_denied_options = NETPERF.server_denied_options
    count_limits = NETPERF.count_limits
    default_port = NETPERF.default_port
    network = True
    sample_names = frozenset({"throughput", "transaction_rate"})

    def claim_sample(self, kind: str, name: str, unit: str | None,
                     parsed: ParsedArgs | None) -> str | None:
        """The bare total is the test's rate, whatever the claim called it."""
        if parsed is None:
            return None
        test = NETPERF.test_name(parsed)
        rr = is_request_response(test)
        if kind == "headline" or kind == ("transaction_rate" if rr else "bitrate"):
            return rate_sample(test)
        return None

    def sample_for(self, metric_name: str, unit: str | None,
                   argv: Sequence[str]) -> str | None:
        got = super().sample_for(metric_name, unit, argv)
        parsed = self.try_parse(argv)
        if got in self.sample_names and parsed is not None:
            return rate_sample(NETPERF.test_name(parsed))
        return got

    def parse_args(self, argv: Sequence[str]) -> ParsedArgs:
        if not argv:
            raise Refused("empty command")
        if len(argv) < 2 or not (argv[1].isascii() and argv[1].isdigit()):
            raise Refused("super_netperf: the first argument must be the number of instances")
        if int(argv[1]) > MAX_INSTANCES:
            raise Refused(f"super_netperf: {argv[1]} instances is above the limit "
                          f"{MAX_INSTANCES}")
        parsed = NETPERF.parse_args(["netperf", *argv[2:]])
        parsed.program = "super_netperf"
        parsed.positionals.insert(0, argv[1])
        return parsed

    def rewrite(self, argv: Sequence[str], *, host: str | None = None,
                duration: float | None = None, port: int | None = None) -> list[str]:
        self.parse_args(argv)
        inner = NETPERF.rewrite(["netperf", *argv[2:]], host=host, duration=duration,
                                port=port)
        return [argv[0], argv[1], *inner[1:]]

    def server_argv(self, parsed: ParsedArgs) -> list[str] | None:
        return NETPERF.server_argv(parsed)

    def instances(self, parsed: ParsedArgs) -> int:
        return int(parsed.positionals[0])

    def find_outputs(self, lines: Sequence[str]) -> list[OutputBlock]:
        if not mentions(lines, ("super_netperf",)):
            return []
        text = clean_all(lines)
        blocks: list[OutputBlock] = []
        for i, t in enumerate(text):
            m = _CMD.search(t)
            if not m:
                continue
            for j in range(i + 1, min(i + 4, len(text))):
                tot = _TOTAL.match(text[j])
                if tot:
                    test = _test_of(m.group(2))
                    metric = rate_sample(test)
                    unit = "trans/s" if is_request_response(test) else "10^6bits/s"
                    blocks.append(OutputBlock(
                        tool=self.name, start=i, end=j, command=m.group(0).strip(),
                        samples=[sample(metric, num(tot.group(1)), unit, "higher", j,
                                        label="total")],
                        info={"test": test, "instances": m.group(1)}))
                    break
                if text[j].strip() and _CMD.search(text[j]):
                    break
        return blocks

    def parse_run(self, argv: Sequence[str], text: str) -> list[Sample]:
        """A run's stdout is the bare total alone: name it from the command's test."""
        found = self.parse(text)
        if found:
            return found
        return [s for b in self.find_outputs([shlex.join(argv), *text.splitlines()])
                for s in b.samples]


SUPER_NETPERF = register(SuperNetperf())
