"""Check a claim's own arithmetic without running anything.

Three problems a reader can spot from the mail alone: a stated percentage that does not
follow from the numbers printed next to it, a "+-" spread larger than the change it is
meant to support, and a claim that rests on a single run.  The same checks serve the
report (over a spec's metrics) and `verifier lint` (over extracted claims).
"""
from __future__ import annotations

from dataclasses import dataclass

from claims.model import Claim, Value
from claims.numbers import stated_tolerance
from claims.spec import Metric
from runners.results import ArithProblem


@dataclass
class Numbers:
    """The numbers of a claim as printed; spreads are in percent of their value."""

    baseline: float | None = None
    candidate: float | None = None
    stated_pct: float | None = None
    spreads_pct: tuple[float | None, float | None] = (None, None)
    runs: tuple[int | None, int | None] = (None, None)
    line: int | None = None


def check_numbers(n: Numbers) -> list[ArithProblem]:
    """All arithmetic problems of one claim."""
    out: list[ArithProblem] = []
    computed: float | None = None
    if n.baseline is not None and n.candidate is not None and n.baseline != 0:
        computed = (n.candidate / n.baseline - 1.0) * 100.0
    if computed is not None and n.stated_pct is not None:
        # Authors often print the magnitude only ("4% better" for a latency drop), so
        # only the sizes are compared.
        if abs(abs(computed) - abs(n.stated_pct)) > stated_tolerance(n.stated_pct):
            out.append(ArithProblem("percentage", (
                f"stated change {n.stated_pct:+.1f}% does not match its own numbers "
                f"{n.baseline:g} -> {n.candidate:g}, which give {computed:+.1f}%"), n.line))
    change = computed if computed is not None else n.stated_pct
    spreads = [s for s in n.spreads_pct if s is not None]
    if change is not None and spreads and max(spreads) >= abs(change) > 0:
        out.append(ArithProblem("spread", (
            f"the printed spread +-{max(spreads):.2g}% is as large as the claimed "
            f"change of {abs(change):.2g}%: the numbers cannot show a change"), n.line))
    if any(r == 1 for r in n.runs):
        out.append(ArithProblem("single-run", (
            "one run per side: run-to-run noise is unknown, so is the change"), n.line))
    return out


def _spread_pct(v: Value | None) -> float | None:
    if v is None or v.spread is None:
        return None
    if v.spread_kind == "pct":
        return abs(v.spread)
    return abs(v.spread) / abs(v.value) * 100.0 if v.value else None


def numbers_of_claim(c: Claim) -> Numbers:
    return Numbers(
        baseline=c.baseline.value if c.baseline else None,
        candidate=c.candidate_in_baseline_unit(),
        stated_pct=c.claimed_change_pct,
        spreads_pct=(_spread_pct(c.baseline), _spread_pct(c.candidate)),
        runs=(c.baseline.runs if c.baseline else None, c.candidate.runs if c.candidate else None),
        line=c.lines[0] if c.lines and c.lines[0] else None,
    )


def numbers_of_metric(m: Metric) -> Numbers:
    """A spec metric: the spread and the run count are shared by both sides."""
    return Numbers(baseline=m.baseline, candidate=m.candidate, stated_pct=m.claimed_change_pct,
                   spreads_pct=(m.spread_pct, None), runs=(m.runs, None))


def check_claim(c: Claim) -> list[ArithProblem]:
    return check_numbers(numbers_of_claim(c))


def check_metric(m: Metric) -> list[ArithProblem]:
    return check_numbers(numbers_of_metric(m))
