"""UnixBench (byte-unixbench `Run`): its test rows, in the report it prints and in the tables
a mail builds from them.

    System Benchmarks Index Values               BASELINE       RESULT    INDEX
    Dhrystone 2 using register variables         116700.0  948326591.2  81261.9
    Pipe Throughput                               12440.0   46482107.6  37365.0
                                                                        ========
    System Benchmarks Index Score                                        7923.3

    Dhrystone 2 using register variables       34562839.7 lps   (10.0 s, 7 samples)

Every test UnixBench runs gives a rate or a score (lps, lpm, KBps, MWIPS, an index), so
every result is higher-is-better.  Numbers that are not results are config: the BASELINE
column (the fixed reference each test is divided by, the same in every report; paired
before/after it reads as a claim that never changed), and a raw line's run length and
sample count.  A row a mail lays out in its own table (`File Copy ... |  419.9 | 1992.0`)
keeps its columns unnamed: each number is that test's score, higher better.

Metrics: the test's name snake_cased for RESULT (`pipe_throughput`), `<test>_index` for
INDEX, `index_score` for the final line.  UnixBench is read here, not re-run: its `Run`
script builds and runs a suite for tens of minutes, which no mail's command line sets up.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from claims.tools import register
from claims.tools.base import OutputBlock, ParsedArgs, Refused, ToolDescription
from claims.tools.text import NUM, clean_all, mentions, num, runs_of, sample, slug

# UnixBench's own test names, as its report prints them
_TEST = re.compile(
    r"^[\s|*+]*(?P<test>Dhrystone 2 using register variables|Double-Precision Whetstone|"
    r"Execl Throughput|File Copy \d+ bufsize \d+ maxblocks|Pipe Throughput|"
    r"Pipe-based Context Switching|Process Creation|Shell Scripts \(\d+ concurrents?\)|"
    r"System Call Overhead|System Benchmarks (?:Partial )?Index Score)(?P<rest>.*)$")
_NUMBER = re.compile(rf"(?<![\w.]){NUM}(?![\w.])")
_RAW = re.compile(rf"^\s*(?P<v>{NUM})\s+(?P<unit>[A-Za-z]+)\s+\((?P<len>{NUM}) s, (?P<n>\d+) samples?\)")
_INDEX_HEADER = re.compile(r"\bBASELINE\s+RESULT\s+INDEX\b")
_MARKERS = ("Dhrystone", "Whetstone", "Execl", "Pipe", "Process Creation", "Shell Scripts",
            "System Call", "File Copy")


class UnixBench(ToolDescription):
    name = "unixbench"
    programs = ()
    sample_pattern = r"[a-z0-9_]+"
    claim_samples = {"headline": "index_score"}

    def parse_args(self, argv: Sequence[str]) -> ParsedArgs:
        raise Refused("UnixBench is read from a mail, not re-run")

    def find_outputs(self, lines: Sequence[str]) -> list[OutputBlock]:
        if not mentions(lines, _MARKERS):
            return []
        text = clean_all(lines)
        blocks: list[OutputBlock] = []
        for first, last in runs_of(text, lambda t: _TEST.match(t) is not None or "====" in t):
            b = OutputBlock(tool=self.name, start=first, end=last)
            header = next((text[k] for k in range(first - 1, max(-1, first - 3), -1)
                           if _INDEX_HEADER.search(text[k])), None)
            for i in range(first, last + 1):
                b.samples += _row_samples(text[i], i, indexed=header is not None)
            if b.samples:
                blocks.append(b)
        return blocks


def _row_samples(line: str, i: int, *, indexed: bool) -> list:
    """The samples of one test row: the index table's three columns, a raw result with its
    run length and sample count, or the unnamed numbers of a mail's own table."""
    m = _TEST.match(line)
    if m is None:
        return []
    test, rest = m.group("test"), m.group("rest")
    if test.startswith("System Benchmarks"):
        return [sample("index_score", num(v), None, "higher", i) for v in _NUMBER.findall(rest)]
    name = slug(test)
    raw = _RAW.match(rest)
    if raw is not None:
        return [sample(name, num(raw.group("v")), raw.group("unit"), "higher", i),
                sample("run_length", num(raw.group("len")), "s", None, i, config=True),
                sample("samples", num(raw.group("n")), "count", None, i, config=True)]
    values = _NUMBER.findall(rest)
    if indexed and len(values) == 3:
        return [sample(f"{name}_baseline", num(values[0]), None, None, i, config=True),
                sample(name, num(values[1]), None, "higher", i),
                sample(f"{name}_index", num(values[2]), None, "higher", i)]
    return [sample(name, num(v), None, "higher", i) for v in values]


UNIXBENCH = register(UnixBench())
