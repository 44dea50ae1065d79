"""A results file as a tidy table of its runs, for a maintainer's own analysis (pandas, R, a
spreadsheet): one row per run and sample, in the order the runs were executed.

    verifier report results.json --format csv|tsv

The reports judge; this keeps every number a run gave, the warm-ups and the failed runs
too (a failed run without samples is one row with no metric or value), so the analysis can
be redone elsewhere.  Built with pandas, imported here only: no other command pays for it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from runners.results import Results, RunRecord
from verifier.report import clean

if TYPE_CHECKING:
    import pandas

SEPARATORS = {"csv": ",", "tsv": "\t"}
COLUMNS = ("spec", "position", "attempt", "batch", "variant", "warmup", "status", "host",
           "metric", "claimed", "label", "value", "unit", "better", "started", "ended")
TEXT = ("spec", "variant", "status", "host", "metric", "claimed", "label", "unit", "better")
# A cell a spreadsheet would take for a formula ("=HYPERLINK(...)" in a variant's name from
# mail) is written with a leading quote; numbers are their own columns and stay numbers.
_FORMULA = ("=", "+", "-", "@")


def status(rec: RunRecord) -> str:
    """ok, failed (the benchmark failed), or why the run gave no result (lost, cut)."""
    if rec.ok:
        return "ok"
    return rec.failure.value if rec.failure is not None else "failed"


@dataclass
class _Claimed:
    """What the spec says of one sample: the mail's names for it, their rows, unit, better."""

    names: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    unit: str | None = None
    better: str | None = None


def _claimed(results: Results) -> dict[str, _Claimed]:
    out: dict[str, _Claimed] = {}
    for m in results.spec.metrics:
        c = out.setdefault(m.sample or m.name, _Claimed())
        c.names.append(m.name)
        c.labels.extend([m.label] if m.label else [])
        c.unit, c.better = c.unit or m.unit, c.better or m.better
    return out


def rows(results: Results) -> list[dict[str, Any]]:
    """The table's rows as plain values, in execution order."""
    claimed = _claimed(results)
    out = []
    for rec in sorted(results.runs, key=lambda r: (r.index, r.attempt)):
        run = {"spec": results.spec.id, "position": rec.index, "attempt": rec.attempt,
               "batch": rec.batch, "variant": rec.variant, "warmup": rec.warmup,
               "status": status(rec), "host": rec.host, "started": rec.started,
               "ended": rec.ended}
        samples: list[tuple[str | None, float]] = list(rec.samples.items()) or [(None, math.nan)]
        for sample, value in samples:
            c = claimed.get(sample or "", _Claimed())
            out.append(run | {"metric": sample, "claimed": ", ".join(c.names) or None,
                              "label": ", ".join(c.labels) or None, "value": value,
                              "unit": c.unit, "better": c.better})
    return out


def _cell(text: Any) -> Any:
    if not isinstance(text, str):
        return text
    text = clean(text, one_line=True)
    return "'" + text if text.startswith(_FORMULA) else text


def runs_frame(results: Results) -> pandas.DataFrame:
    """The runs as a DataFrame with COLUMNS (text cells cleaned of control characters)."""
    import pandas

    frame = pandas.DataFrame(rows(results), columns=list(COLUMNS))
    for col in TEXT:
        frame[col] = frame[col].map(_cell)
    return frame


def runs_table(results: Results, fmt: str = "csv") -> str:
    """The runs as CSV or TSV text with a header line; floats as Python writes them, so
    reading the file back gives the very values the runs recorded."""
    if fmt not in SEPARATORS:
        raise ValueError(f"unknown table format {fmt!r}; choose one of {', '.join(SEPARATORS)}")
    return str(runs_frame(results).to_csv(sep=SEPARATORS[fmt], index=False,
                                          lineterminator="\n"))
