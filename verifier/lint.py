"""`verifier lint`: what a reader of a performance claim would need and does not find.

A contributor runs it on a cover letter or patch before posting.  Per claim it lists the
claim's own arithmetic problems (verifier.arith), what is missing to reproduce it (the
exact command, runs and spread, what the baseline is, hardware/NIC/driver, settings) and
units a reader could take two ways.  Message-wide facts (a base commit, the NIC) count for
every claim in the message.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from claims.model import Claim, Extraction
from claims.tools import all_tools
from runners.results import ArithProblem
from verifier.arith import check_claim

_BASELINE = re.compile(
    r"base-commit:\s*[0-9a-f]{7,}|\b(?:net-next|net|bpf-next|linux-next|mainline|master|"
    r"linus|tip|mm-unstable)\b[^\n]{0,20}\b(?:at|@|commit|on)\s+[0-9a-f]{7,40}\b"
    r"|\b(?:on top of|based on|baseline:?|base:)\s+(?:commit\s+)?[0-9a-f]{7,40}\b"
    r"|\bv?\d\.\d+(?:\.\d+)?(?:-rc\d+)?\b[^\n]{0,20}\b(?:kernel|baseline|base)\b"
    r"|\b(?:kernel|baseline|base)\b[^\n]{0,20}\bv?\d\.\d+(?:-rc\d+)?\b", re.I)
_CPU = re.compile(r"\b(?:Xeon|EPYC|Ryzen|Opteron|Core\s?i\d|Neoverse|Ampere|Graviton|"
                  r"ThunderX|POWER\d|Cascade\s?Lake|Skylake|Ice\s?Lake|Sapphire\s?Rapids|"
                  r"Haswell|Broadwell|Milan|Rome|Genoa|\d+\s*(?:cores?|CPUs?|threads|"
                  r"vCPUs?|sockets?))\b", re.I)
_NIC = re.compile(r"\b(?:mlx[45]\w*|ConnectX-?\d*|ixgbe|i40e|ice|igb|igc|e1000e?|bnxt\w*|"
                  r"tg3|virtio[_-]net|veth|ena|gve|nfp|sfc|qede|cxgb\d|hns3|idpf|"
                  r"NIC|\d+\s?(?:G|Gb|Gbit)(?:E|bE|/s|bps)?\b)", re.I)
_SETTINGS = re.compile(r"\bsysctl\b|/proc/sys/|/sys/class/net/|\bethtool\b|\btc\s+qdisc\b|"
                       r"\bdefault (?:settings|config|sysctls?)\b|\bdefaults\b|"
                       r"\bno (?:tuning|special settings)\b", re.I)
_RUNS = re.compile(r"\b\d+\s+(?:runs|iterations|repetitions|trials|samples)\b|"
                   r"\baverage of \d+|\bmean of \d+|\bmedian of \d+|\s-r\s*\d+\b|"
                   r"\b(?:-i|--repeat)\s*\d+", re.I)
_SPREAD = re.compile(r"\+-|\+/-|±|\bstd\s?dev\b|\bstddev\b|\bstdev\b|\bvariance\b|"
                     r"\bconfidence\b|\bCI\b", re.I)

# Units a reader can take two ways: bytes or bits, per what.
_AMBIGUOUS_UNITS = {
    "mb": "MB: megabytes or megabits, and per second?",
    "gb": "GB: gigabytes or gigabits, and per second?",
    "kb": "KB: kilobytes or kilobits?",
    "m": "M: million what (packets, transactions, bits)?",
    "k": "K: thousand what?",
    "g": "G: giga what?",
    "mbps": None, "gbps": None,  # conventional: bits per second
}


@dataclass
class ClaimLint:
    claim: Claim
    problems: list[ArithProblem] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    ambiguous: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not (self.problems or self.missing or self.ambiguous)

    def to_dict(self) -> dict[str, Any]:
        return {"claim": self.claim.to_dict(), "problems": [p.to_dict() for p in self.problems],
                "missing": self.missing, "ambiguous": self.ambiguous}


@dataclass
class Context:
    """What the whole message says, shared by its claims."""

    text: str
    has_command: bool
    command_tools: set[str]
    has_setup: bool


def _context(ex: Extraction) -> Context:
    return Context(text=ex.message.body, has_command=bool(ex.commands),
                   command_tools={c.tool for c in ex.commands if c.tool},
                   has_setup=bool(ex.setup))


# Network benchmarks no tool description covers; the described ones say so themselves.
_UNDESCRIBED_NETWORK = frozenset({"uperf", "mausezahn", "ping"})


@cache
def _network_tools() -> frozenset[str]:
    """Tool names and programs of network benchmarks (a reader needs the NIC and driver)."""
    return _UNDESCRIBED_NETWORK | {n for t in all_tools() if t.network
                                   for n in (t.name, *t.programs)}


@cache
def _wrapper_tools() -> frozenset[str]:
    """Tools that count what another command does (perf stat CMD)."""
    return frozenset(t.name for t in all_tools() if t.wraps)


def missing_for(claim: Claim, ctx: Context) -> list[str]:
    """What a reader needs to reproduce the claim and does not find in the message."""
    out = []
    other_tool = (claim.tool and claim.tool not in _wrapper_tools() and ctx.command_tools
                  and claim.tool not in ctx.command_tools)
    if not ctx.has_command or other_tool:
        what = f" ({claim.tool})" if claim.tool else ""
        out.append(f"the exact benchmark command line{what}, with all its options")
    values = [v for v in (claim.baseline, claim.candidate) if v is not None]
    has_runs = any(v.runs for v in values) or bool(_RUNS.search(ctx.text))
    has_spread = any(v.spread is not None for v in values) or bool(_SPREAD.search(ctx.text))
    if not has_runs:
        out.append("the number of runs behind each number")
    if not has_spread:
        out.append("the spread of the runs (stddev or +- of the mean)")
    if not _BASELINE.search(ctx.text):
        out.append("what the baseline is: a base commit ('base-commit:' from "
                   "git format-patch --base) or 'net-next at <sha>'")
    if not _CPU.search(ctx.text):
        out.append("the CPU (model and count)")
    network = bool(({claim.tool} | ctx.command_tools) & _network_tools())
    if network and not _NIC.search(ctx.text):
        out.append("the NIC and its driver (or that it ran on loopback/veth)")
    if not ctx.has_setup and not _SETTINGS.search(ctx.text):
        out.append("settings: sysctls, ethtool/IRQ changes, or that defaults were used")
    return out


def ambiguous_units(claim: Claim) -> list[str]:
    units = {u for u in (claim.unit, claim.baseline and claim.baseline.unit,
                         claim.candidate and claim.candidate.unit) if u}
    out = []
    for u in sorted(units):
        msg = _AMBIGUOUS_UNITS.get(u.strip().lower())
        if msg:
            out.append(msg)
    if (claim.baseline is not None or claim.candidate is not None) and not units \
            and claim.tool is None:
        out.append(f"no unit for {claim.metric}")
    return out


def lint_extraction(ex: Extraction) -> list[ClaimLint]:
    ctx = _context(ex)
    return [ClaimLint(claim=c, problems=check_claim(c), missing=missing_for(c, ctx),
                      ambiguous=ambiguous_units(c)) for c in ex.claims]


def _title(c: Claim) -> str:
    where = f"lines {c.lines[0]}-{c.lines[1]}" if c.lines and c.lines[0] else "?"
    change = c.change_pct if c.change_pct is not None else c.claimed_change_pct
    ctx = (c.context or "").strip()
    ctx = (ctx[:37] + "...") if len(ctx) > 40 else ctx
    parts = [ctx, c.metric, f"{change:+.1f}%" if change is not None else ""]
    return " ".join(p for p in parts if p) + f" ({where})"


def format_lint(items: list[ClaimLint], source: str = "") -> str:
    """The report a contributor reads: what every claim lacks once, then per claim."""
    if not items:
        return f"{source}: no performance claim found\n"
    common = [m for m in items[0].missing if all(m in it.missing for it in items)]
    out = [f"{source}: {len(items)} claim(s)"]
    if common and len(items) > 1:
        out.append("missing for every claim:")
        out.extend(f"  - {m}" for m in common)
    else:
        common = []
    for i, it in enumerate(items, 1):
        out.append(f"claim {i}: {_title(it.claim)}")
        if it.clean:
            out.append("  ok: a reader has what they need")
        out.extend(f"  problem: {p.message}" for p in it.problems)
        out.extend(f"  missing: {m}" for m in it.missing if m not in common)
        out.extend(f"  unit: {a}" for a in it.ambiguous)
    return "\n".join(out) + "\n"
