"""Verdicts: what the measured change says about the claimed one (reference/stats.md §7).

c is the claimed change and [L, H] the interval of the measured one, both as log-ratios in
the claimed direction; delta is the noise band.  Rules, in order:
  H < -delta                         CONTRADICTED
  L > delta, c/2 <= x <= 2c          CONFIRMED      (L > 2c: "larger than claimed")
  L > delta, H < c/2                 PARTLY CONFIRMED
  90% CI inside +-delta              NOT REPRODUCED ("no change")
  H < c/2, |CI| not beyond delta     NOT REPRODUCED
  anything else                      undecided: more runs, or INCONCLUSIVE at the maximum
A claim of no change (c <= delta) is CONFIRMED when the 90% CI is inside +-delta and
CONTRADICTED when the CI leaves the band.  NOT RUNNABLE HERE and INVALID come first.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from claims.spec import sample_name
from verifier import arith
from verifier.results import Results
from verifier.stats import (
    Effect,
    aa_check,
    drift,
    holm_alphas,
    log_effect,
    log_ratio,
    noise_band,
    outliers,
    pct,
)

CONFIRMED = "CONFIRMED"
PARTLY = "PARTLY CONFIRMED"
NOT_REPRODUCED = "NOT REPRODUCED"
CONTRADICTED = "CONTRADICTED"
INCONCLUSIVE = "INCONCLUSIVE"
NOT_RUNNABLE = "NOT RUNNABLE HERE"
INVALID = "INVALID"
UNDECIDED = "UNDECIDED"  # only between looks; never in a final verdict

ALPHA = 0.05
LOOKS = (5, 10, 20, 30)
MAX_FAILED_FRACTION = 0.2


def look_schedule(first: int, maximum: int) -> list[int]:
    """The planned looks: the first batch, then 10, 20, 30 above it, capped at the maximum."""
    first = max(2, min(first, maximum))
    return sorted({first, *(n for n in LOOKS if first < n <= maximum), maximum})


def per_look_alpha(run_plan: dict[str, Any] | None, alpha: float = ALPHA) -> float:
    """Bonferroni over the planned looks: a sequential design pays for peeking.

    A fixed design (repetitions == max_repetitions) has one look and keeps alpha.
    """
    plan = run_plan or {}
    first = int(plan.get("repetitions") or 5)
    maximum = int(plan.get("max_repetitions") or first)
    return alpha / len(look_schedule(first, max(first, maximum)))


@dataclass
class Claimed:
    """The claim of one metric, as a direction and a size on the log scale."""

    direction: int  # +1: the candidate is claimed higher, -1: lower
    size: float | None  # |ln(1 + c/100)|, None when only a direction is claimed
    pct: float | None
    note: str | None = None


def claimed_of(metric: dict[str, Any]) -> Claimed:
    c = metric.get("claimed_change_pct")
    b, k = metric.get("baseline"), metric.get("candidate")
    if c is None and b and k is not None and b > 0 and k > 0:
        c = (k / b - 1.0) * 100.0
    if c is not None and c > -100.0:
        if c == 0:
            return Claimed(1, 0.0, 0.0)
        # "4% better" for a lower-is-better metric: the numbers, when printed, decide the
        # sign; a bare percentage follows the metric's direction when it names one.
        if (b is None or k is None) and metric.get("better") == "lower" and c > 0:
            c = -c
        return Claimed(1 if c > 0 else -1, abs(log_ratio(c)), c)
    better = metric.get("better")
    if better in ("higher", "lower"):
        return Claimed(1 if better == "higher" else -1, None, None,
                       "the mail claims an improvement without a size")
    return Claimed(1, None, None, "the mail states no direction; an increase is assumed")


@dataclass
class Row:
    """One verdict row: a metric of one candidate variant against the baseline."""

    metric: dict[str, Any]
    variant: str
    baseline: str
    base: list[float] = field(default_factory=list)
    cand: list[float] = field(default_factory=list)
    failed: dict[str, int] = field(default_factory=dict)
    total: dict[str, int] = field(default_factory=dict)
    measured: list[str] = field(default_factory=list)  # sample names the runs recorded


def _classify(eff: Effect, cl: Claimed, delta: float, alpha: float,
              final: bool) -> tuple[str, str | None]:
    lo, hi, x = eff.lo, eff.hi, eff.x
    t_lo, t_hi = eff.interval(1.0 - 2.0 * alpha)  # TOST: the 90% CI at alpha = 5%
    inside = -delta < t_lo and t_hi < delta
    if cl.size is not None and cl.size <= delta:  # a claim of no change
        if inside:
            return CONFIRMED, "no change, as claimed"
        if lo > delta or hi < -delta:
            return CONTRADICTED, "the claim was no change"
        return (INCONCLUSIVE if final else UNDECIDED), None
    if hi < -delta:
        return CONTRADICTED, None
    if cl.size is None:  # only a direction claimed
        if lo > delta:
            return CONFIRMED, "direction only: the mail gives no size"
        if inside:
            return NOT_REPRODUCED, "no change"
        return (INCONCLUSIVE if final else UNDECIDED), None
    c = cl.size
    if lo > delta and x >= c / 2:
        if lo > 2 * c:
            return CONFIRMED, "larger than claimed"
        if x <= 2 * c:
            return CONFIRMED, None
        if final and lo >= c / 2:
            return CONFIRMED, "at least the claimed size"
    if lo > delta and hi < c / 2:
        return PARTLY, "right direction, less than half the claimed size"
    if inside:  # no change beyond the runner's noise, and the claim is larger than that
        return NOT_REPRODUCED, "no change"
    if hi < c / 2 and lo <= delta and hi >= -delta:
        if x < -delta and not final:
            return UNDECIDED, None  # leaning the other way: more runs may contradict it
        return NOT_REPRODUCED, ("no change" if inside else None)
    if not final:
        return UNDECIDED, None
    if lo > delta:
        return INCONCLUSIVE, "a change in the claimed direction, size unresolved"
    return INCONCLUSIVE, None


def _sentence(v: dict[str, Any]) -> str:
    name = v.get("metric") or v.get("label") or "the claim"
    verdict, detail = v["verdict"], v.get("detail")
    s = f"{name}: {verdict}"
    if detail:
        s += f" ({detail})"
    if v.get("measured"):
        s += f", measured {v['measured']}"
    if v.get("claimed_pct") is not None:
        s += f" against a claimed {v['claimed_pct']:+.1f}%"
    if v.get("ruled_out_pct") is not None and verdict == INCONCLUSIVE:
        r = v["ruled_out_pct"]
        word = "an increase" if r >= 0 else "a decrease"
        s += f"; {word} of more than {abs(r):.1f}% is ruled out"
    if v.get("reason"):
        s += f": {v['reason']}"
    return s + "."


def _base_dict(row: Row, cl: Claimed, delta: float) -> dict[str, Any]:
    m = row.metric
    return {
        "metric": m.get("name"), "sample": sample_name(m) or None, "label": m.get("label"),
        "unit": m.get("unit"),
        "better": m.get("better"), "variant": row.variant, "baseline_variant": row.baseline,
        "claimed_baseline": m.get("baseline"), "claimed_candidate": m.get("candidate"),
        "claimed_pct": cl.pct, "claim_note": cl.note, "delta_pct": pct(delta),
        "n_base": len(row.base), "n_cand": len(row.cand),
        "failed": dict(row.failed), "verdict": None, "detail": None, "reason": None,
        "decided": True, "measured": None, "effect": None, "ruled_out_pct": None,
        "alpha": None, "problems": [p.to_dict() for p in arith.check_metric(m)],
    }


def _invalid_reason(row: Row, delta: float) -> str | None:
    for name in (row.baseline, row.variant):
        total, failed = row.total.get(name, 0), row.failed.get(name, 0)
        if total and failed / total > MAX_FAILED_FRACTION:
            return f"{failed} of {total} runs of {name} failed"
    what = _what(row.metric)
    for name, xs in ((row.baseline, row.base), (row.variant, row.cand)):
        if len(xs) < 2:
            return f"{name} has {len(xs)} usable samples of {what}" + _measured_instead(row)
        if any(not (x > 0 and math.isfinite(x)) for x in xs):
            return f"{name} has non-positive samples of {what}"
    for name, xs in ((row.baseline, row.base), (row.variant, row.cand)):
        d = drift(xs, delta)
        if d:
            return f"{name}: {d}"
    return aa_check(row.base, delta)


def _what(metric: dict[str, Any]) -> str:
    """The metric as a reason names it: the tool's sample, and the mail's words if other."""
    name, key = metric.get("name"), sample_name(metric)
    return key if not name or name == key else f"{key} ({name})"


def _measured_instead(row: Row) -> str:
    """When the runs measured something but not this: what they did measure, so a reader
    can see the claim's metric names nothing the tool reports."""
    if row.base or row.cand or not row.measured:
        return ""
    shown = ", ".join(row.measured[:6]) + (", ..." if len(row.measured) > 6 else "")
    return (f"; the runs measured {shown}: the claim's metric does not say which of these "
            "it is (set `sample` in the spec)")


def judge_row(row: Row, delta: float, alpha: float, final: bool = True,
              paired: bool = False) -> dict[str, Any]:
    """The verdict of one row at significance level `alpha` (already corrected)."""
    cl = claimed_of(row.metric)
    v = _base_dict(row, cl, delta)
    v["alpha"] = alpha
    reason = _invalid_reason(row, delta)
    if reason:
        v.update(verdict=INVALID, reason=reason)
        v["sentence"] = _sentence(v)
        return v
    eff = log_effect(row.base, row.cand, direction=cl.direction, level=1.0 - alpha,
                     paired=paired)
    verdict, detail = _classify(eff, cl, delta, alpha, final)
    v.update(verdict=verdict, detail=detail, decided=verdict != UNDECIDED,
             effect=eff.to_dict(), measured=eff.format(), p_value=eff.p_value())
    if verdict == INCONCLUSIVE:
        v["ruled_out_pct"] = pct(cl.direction * eff.hi)
    notes = list(eff.notes)
    for name, xs in ((row.baseline, row.base), (row.variant, row.cand)):
        k = outliers(xs)
        if k:
            notes.append(f"{k} of {len(xs)} {name} runs are far from the rest "
                         "(kept in the analysis)")
    if notes:
        v["notes"] = notes
    v["sentence"] = _sentence(v)
    return v


def rows_of(results: Results) -> list[Row]:
    """Every (metric, candidate variant) pair of the spec, with its samples and failures."""
    spec = results.spec or {}
    names = [v["name"] for v in spec.get("variants", []) if isinstance(v, dict) and "name" in v]
    if not names:
        names = list(dict.fromkeys(r.variant for r in results.runs))
    if not names:
        return []
    base = "baseline" if "baseline" in names else names[0]
    failed: dict[str, int] = {}
    total: dict[str, int] = {}
    for r in results.runs:
        if r.warmup:
            continue
        total[r.variant] = total.get(r.variant, 0) + 1
        if not r.ok:
            failed[r.variant] = failed.get(r.variant, 0) + 1
    measured = list(dict.fromkeys(k for r in results.runs if r.ok and not r.warmup
                                  for k in r.samples))
    rows = []
    for m in spec.get("metrics", []):
        # a metric names the variant its claimed candidate value belongs to
        own = m.get("variant")
        key = sample_name(m)
        for var in names:
            if var == base or (own in names and var != own):
                continue
            rows.append(Row(metric=m, variant=var, baseline=base,
                            base=results.samples(base, key),
                            cand=results.samples(var, key),
                            failed={k: failed.get(k, 0) for k in (base, var)},
                            total={k: total.get(k, 0) for k in (base, var)},
                            measured=measured))
    return rows


def judge(results: Results, calibration: dict[str, Any] | None = None,
          final: bool = True) -> list[dict[str, Any]]:
    """Per-row verdict dicts for a results file; rows share a Holm-corrected alpha.

    `final` is False between sequential looks: rows that could still change say UNDECIDED
    (and `decided: False`) instead of INCONCLUSIVE.
    """
    spec = results.spec or {}
    if results.status == "not-runnable":
        return _whole(results, NOT_RUNNABLE, results.reason or "this runner cannot run it")
    if results.status == "failed":
        return _whole(results, INVALID, results.reason or "the run failed")
    calib = calibration if calibration is not None else (results.calibration or None)
    rows = rows_of(results)
    if not rows:
        return _whole(results, INVALID, "no metrics or no variants to compare")
    run_plan = spec.get("run") or {}
    alpha = per_look_alpha(run_plan)
    paired = bool(run_plan.get("paired"))
    deltas = [noise_band(calib, sample_name(row.metric)) for row in rows]  # keyed as runs are
    if len(rows) == 1:
        return _cap_emulated(results, [judge_row(rows[0], deltas[0], alpha, final, paired)])
    pvals = []
    for row in rows:
        try:
            cl = claimed_of(row.metric)
            pvals.append(log_effect(row.base, row.cand, cl.direction, paired=paired).p_value())
        except ValueError:
            pvals.append(1.0)
    out = []
    for row, a, delta in zip(rows, holm_alphas(pvals, alpha), deltas, strict=True):
        v = judge_row(row, delta, a, final, paired)
        v["holm"] = True
        out.append(v)
    return _cap_emulated(results, out)


def _cap_emulated(results: Results, verdicts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Timings under pure emulation (a TCG guest) say nothing about performance: any
    decided verdict becomes INCONCLUSIVE, keeping what was measured for the reader."""
    env = results.environment or {}
    if not env.get("emulated"):
        return verdicts
    for v in verdicts:
        if v.get("verdict") in (CONFIRMED, PARTLY, NOT_REPRODUCED, CONTRADICTED):
            v["measured_verdict"] = v["verdict"]
            v["verdict"] = INCONCLUSIVE
            v["reason"] = ("emulated, not valid for performance: the runner had no "
                           f"hardware virtualisation ({env.get('accelerator', 'tcg')})")
            v["sentence"] = _sentence(v)
    return verdicts


def _whole(results: Results, verdict: str, reason: str) -> list[dict[str, Any]]:
    """The same verdict for every metric, when nothing (comparable) was measured."""
    spec = results.spec or {}
    out = []
    for m in spec.get("metrics") or [{}]:
        cl = claimed_of(m)
        row = Row(metric=m, variant=m.get("variant") or "candidate", baseline="baseline")
        v = _base_dict(row, cl, noise_band(None))
        v.update(verdict=verdict, reason=reason, whole=True)
        v["sentence"] = _sentence(v)
        out.append(v)
    return out


def summarize(verdicts: list[dict[str, Any]]) -> dict[str, Any]:
    """One verdict for the whole claim and the sentence a report opens with."""
    if not verdicts:
        return {"verdict": INVALID, "sentence": "Nothing was judged.", "counts": {}}
    counts: dict[str, int] = {}
    for v in verdicts:
        counts[v["verdict"]] = counts.get(v["verdict"], 0) + 1
    if len(verdicts) == 1:
        return {"verdict": verdicts[0]["verdict"], "sentence": verdicts[0]["sentence"],
                "counts": counts}
    overall = verdicts[0]["verdict"] if len(counts) == 1 else "MIXED"
    if all(v.get("whole") for v in verdicts):  # nothing measured: one reason for all
        names = ", ".join(str(v.get("metric")) for v in verdicts[:4])
        more = f" and {len(verdicts) - 4} more" if len(verdicts) > 4 else ""
        sentence = (f"{overall}: {verdicts[0].get('reason')} ({len(verdicts)} claimed "
                    f"metrics: {names}{more}).")
        return {"verdict": overall, "sentence": sentence, "counts": counts}
    holm = (f" (Holm-corrected over {len(verdicts)} comparisons)"
            if any(v.get("holm") for v in verdicts) else "")
    rest: dict[str, int] = {}
    for v in verdicts[1:]:
        rest[v["verdict"]] = rest.get(v["verdict"], 0) + 1
    parts = ", ".join(f"{n} {k}" for k, n in sorted(rest.items(), key=lambda kv: -kv[1]))
    # the first row is the claim's headline metric: say it first, then the others
    sentence = (f"{verdicts[0]['sentence']} The other {len(verdicts) - 1} row(s): "
                f"{parts}{holm}.")
    return {"verdict": overall, "sentence": sentence, "counts": counts}


def all_decided(verdicts: list[dict[str, Any]]) -> bool:
    return all(v.get("decided", True) for v in verdicts)
