"""trafgen (netsniff-ng): its end-of-run summary and its argv.

Summary lines: `100000 packets outgoing`, `6400000 bytes outgoing`, and per CPU
`0 sec, 155257 usec on CPU0 (50000 packets)`. Metrics: `packets_outgoing`,
`bytes_outgoing` (higher), `cpu_time` (usec summed over CPUs, lower) and `cpuN_time`.
Most trafgen claims are made through `perf stat` around it (see perf_stat.py); the
description's argv grammar is what lets such a command run.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from types import MappingProxyType

from claims.tools import register
from claims.tools.base import (
    Option,
    OptionSet,
    OutputBlock,
    ToolDescription,
    is_int,
    is_word,
)
from claims.tools.text import NUM, clean_all, mentions, num, sample

_OUT = re.compile(rf"^\s*({NUM})\s+(packets|bytes)\s+outgoing\s*$")
_CPU = re.compile(rf"^\s*({NUM})\s+sec,\s*({NUM})\s+usec\s+on\s+CPU(\d+)\s*\(\s*({NUM})\s+packets\)")
_DEV = re.compile(r"^[A-Za-z0-9_.:@-]{1,15}$")


def _device(v: str) -> bool:
    """An interface name; not a pcap file (trafgen -o would write it)."""
    return _DEV.fullmatch(v) is not None and not v.endswith((".pcap", ".cap", ".pcapng"))


def _conf(v: str) -> bool:
    """A config file name given by the spec (no paths outside the run directory)."""
    return is_word(v) and not v.startswith("/") and ".." not in v


class Trafgen(ToolDescription):
    name = "trafgen"
    programs = ("trafgen",)
    denied_options = frozenset({"-p", "--cpp", "-D", "--define", "-e", "--example", "-s",
                                "--smoke-test", "-R", "--rfraw"})
    count_limits = MappingProxyType({"-n": 1e9, "--num": 1e9})
    network = True
    sample_names = frozenset({"packets_outgoing", "bytes_outgoing", "cpu_time"})
    sample_pattern = r"cpu\d+_time"  # no rates: a rate claim is read from perf stat around it

    options = OptionSet([
        Option(("-i", "-c", "--in", "--conf"), _conf, role="config"),
        Option(("-o", "-d", "--out", "--dev"), _device, role="device"),
        Option(("-n", "--num"), is_int, max_value=10_000_000_000),
        Option(("-t", "--gap"), lambda v: re.fullmatch(r"\d+(ns|us|ms|s)?", v) is not None),
        Option(("-b", "--rate"), lambda v: re.fullmatch(r"\d+(\.\d+)?([kKmMgG]?(i?B|bit|pps)"
                                                       r"(/s)?)?", v) is not None),
        Option(("-P", "--cpus"), is_int, max_value=1024),
        Option(("-p", "--cpp"), None),
        Option(("-D", "--define"), is_word),
        Option(("-J", "--jumbo-support"), None),
        Option(("-r", "--rand"), None),
        Option(("-S", "--ring-size"), lambda v: re.fullmatch(r"\d+(KiB|MiB|GiB)?", v) is not None),
        Option(("-E", "--seed"), is_int),
        Option(("-u", "--user"), is_int),
        Option(("-g", "--group"), is_int),
        Option(("-H", "--prio-high"), None),
        Option(("-A", "--no-sock-mem"), None),  # 0.6.8 documents -A but only takes the long form
        Option(("-Q", "--notouch-irq"), None),
        Option(("-q", "--qdisc-path"), None),
        Option(("-V", "--verbose"), None),
        Option(("-C", "--no-cpu-stats"), None),
        Option(("-v", "--version"), None),
        Option(("-e", "--example"), None),
        Option(("-h", "--help"), None),
        Option(("-s", "--smoke-test"), is_word, refused="probes a remote host"),
        Option(("-R", "--rfraw"), None, refused="puts a wireless device in monitor mode"),
    ])

    def find_outputs(self, lines: Sequence[str]) -> list[OutputBlock]:
        if not mentions(lines, ("outgoing",)):
            return []
        text = clean_all(lines)
        blocks: list[OutputBlock] = []
        cur: OutputBlock | None = None
        for i, t in enumerate(text):
            m = _OUT.match(t)
            c = _CPU.match(t) if m is None else None
            if m is None and c is None:
                if cur is not None and (t.strip() or i - cur.end > 1):
                    blocks.append(self._total(cur))
                    cur = None
                continue
            if cur is None or (m and m.group(2) == "packets"):
                if cur is not None:
                    blocks.append(self._total(cur))
                cur = OutputBlock(tool=self.name, start=i, end=i)
            cur.end = i
            if m:
                cur.samples.append(sample(f"{m.group(2)}_outgoing", num(m.group(1)), m.group(2),
                                          "higher", i))
            elif c:
                usec = num(c.group(1)) * 1e6 + num(c.group(2))
                cur.samples.append(sample(f"cpu{c.group(3)}_time", usec, "usec", "lower", i))
        if cur is not None:
            blocks.append(self._total(cur))
        return blocks

    @staticmethod
    def _total(block: OutputBlock) -> OutputBlock:
        cpus = [s for s in block.samples if re.fullmatch(r"cpu\d+_time", s.metric)]
        if cpus:
            block.samples.append(sample("cpu_time", sum(s.value for s in cpus), "usec", "lower",
                                        cpus[-1].line or 0))
        return block


TRAFGEN = register(Trafgen())
