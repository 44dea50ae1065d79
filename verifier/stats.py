"""Effect sizes with confidence intervals on the log-ratio scale (reference/stats.md §6).

Absolute numbers do not travel across machines, so everything here works on the relative
change between two variants measured side by side: e = ln(mean_cand / mean_base).  The
interval is a Welch t interval on the logs (paired when runs were paired), cross-checked
with a percentile bootstrap once there are enough runs for a bootstrap to mean something.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from scipy import stats as sps

MIN_BAND = math.log(1.01)  # the noise band is never narrower than 1%
BOOTSTRAP_MIN_N = 10
BOOTSTRAP_RESAMPLES = 2000


def pct(x: float) -> float:
    """A log-ratio as a percentage change."""
    return (math.exp(x) - 1.0) * 100.0


def log_ratio(change_pct: float) -> float:
    """A percentage change as a log-ratio; -100% and below have no log-ratio."""
    if change_pct <= -100.0:
        raise ValueError(f"change of {change_pct}% has no ratio")
    return math.log1p(change_pct / 100.0)


@dataclass
class Effect:
    """A measured change, sign-normalised so that the claimed direction is positive.

    `x`, `lo`, `hi` are log-ratios in the claimed direction (x = direction * e); the
    measured change as printed (`measured_pct`) keeps the sign the samples show.
    """

    x: float
    lo: float
    hi: float
    level: float
    n_base: int
    n_cand: int
    direction: int = 1
    paired: bool = False
    df: float = math.inf
    se: float = 0.0
    boot_lo: float | None = None
    boot_hi: float | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def measured_pct(self) -> float:
        return pct(self.direction * self.x)

    @property
    def measured_ci_pct(self) -> tuple[float, float]:
        a, b = pct(self.direction * self.lo), pct(self.direction * self.hi)
        return (min(a, b), max(a, b))

    def interval(self, level: float) -> tuple[float, float]:
        """The same estimate at another confidence level (for TOST and Holm)."""
        if self.se == 0.0:
            return (self.x, self.x)
        t = sps.t.ppf(0.5 + level / 2.0, self.df)
        return (self.x - t * self.se, self.x + t * self.se)

    def p_value(self) -> float:
        """Two-sided p-value of 'no change' (e = 0)."""
        if self.se == 0.0:
            return 0.0 if self.x != 0.0 else 1.0
        return float(2.0 * sps.t.sf(abs(self.x) / self.se, self.df))

    def format(self) -> str:
        return format_effect(self)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        lo, hi = self.measured_ci_pct
        d.update(measured_pct=self.measured_pct, ci_pct=[lo, hi], text=self.format(),
                 p_value=self.p_value())
        if math.isinf(self.df):
            d["df"] = None
        return d


def _logs(samples: Sequence[float], name: str) -> np.ndarray:
    a = np.asarray(samples, dtype=float)
    if a.size < 2:
        raise ValueError(f"{name}: need at least 2 samples, have {a.size}")
    if not np.all(np.isfinite(a)) or np.any(a <= 0):
        raise ValueError(f"{name}: samples must be positive numbers")
    return np.log(a)


def log_effect(base: Sequence[float], cand: Sequence[float], direction: int = 1,
               level: float = 0.95, paired: bool = False, seed: int = 1) -> Effect:
    """Welch (or paired) t interval for ln(mean_cand/mean_base) in the claimed direction.

    The point estimate is the ratio of arithmetic means (what a person computes from the
    printed means); the interval's width comes from the spread of the logs, which is the
    delta-method variance of that ratio for small coefficients of variation.
    """
    la, lb = _logs(base, "baseline"), _logs(cand, "candidate")
    na, nb = la.size, lb.size
    est = math.log(float(np.mean(np.exp(lb))) / float(np.mean(np.exp(la))))
    if paired and na == nb:
        d = lb - la
        se = float(np.std(d, ddof=1)) / math.sqrt(na)
        df = float(na - 1)
    else:
        paired = False
        va, vb = float(np.var(la, ddof=1)) / na, float(np.var(lb, ddof=1)) / nb
        se = math.sqrt(va + vb)
        df = ((va + vb) ** 2 / ((va * va) / (na - 1) + (vb * vb) / (nb - 1))
              if va + vb > 0 else math.inf)
    t = float(sps.t.ppf(0.5 + level / 2.0, df)) if se > 0 else 0.0
    sgn = 1 if direction >= 0 else -1
    x = sgn * est
    eff = Effect(x=x, lo=x - t * se, hi=x + t * se, level=level, n_base=na, n_cand=nb,
                 direction=sgn, paired=paired, df=df, se=se)
    if min(na, nb) >= BOOTSTRAP_MIN_N:
        blo, bhi = bootstrap_interval(np.exp(la), np.exp(lb), level, seed=seed, paired=paired)
        eff.boot_lo, eff.boot_hi = sorted((sgn * blo, sgn * bhi))
        width = max(eff.hi - eff.lo, 1e-12)
        if abs(eff.boot_lo - eff.lo) > width / 2 or abs(eff.boot_hi - eff.hi) > width / 2:
            eff.notes.append("bootstrap interval disagrees with the t interval "
                             f"({pct(sgn * eff.boot_lo):+.1f}%..{pct(sgn * eff.boot_hi):+.1f}%): "
                             "samples far from normal")
    return eff


def bootstrap_interval(base: np.ndarray, cand: np.ndarray, level: float, seed: int = 1,
                       paired: bool = False,
                       resamples: int = BOOTSTRAP_RESAMPLES) -> tuple[float, float]:
    """Percentile bootstrap of ln(mean_cand/mean_base): the cross-check that needs no normality."""
    rng = np.random.default_rng(seed)
    na, nb = base.size, cand.size
    if paired:
        idx = rng.integers(0, na, size=(resamples, na))
        ma, mb = base[idx].mean(axis=1), cand[idx].mean(axis=1)
    else:
        ma = base[rng.integers(0, na, size=(resamples, na))].mean(axis=1)
        mb = cand[rng.integers(0, nb, size=(resamples, nb))].mean(axis=1)
    r = np.log(mb / ma)
    a = (1.0 - level) / 2.0
    return float(np.quantile(r, a)), float(np.quantile(r, 1.0 - a))


def format_effect(eff: Effect) -> str:
    """'-4.1% [-5.3, -2.9] (95%, n=10+10)': the measured change with its interval."""
    lo, hi = eff.measured_ci_pct
    level = f"{eff.level * 100:.4g}%"
    pair = ", paired" if eff.paired else ""
    return (f"{eff.measured_pct:+.1f}% [{lo:+.1f}, {hi:+.1f}] "
            f"({level}, n={eff.n_base}+{eff.n_cand}{pair})")


def aa_delta(samples: Sequence[float], level: float = 0.95) -> float:
    """The change an A/A comparison cannot tell from zero on this runner.

    The baseline's runs are split alternately into two halves (so slow drift lands in both)
    and compared with each other; the larger end of the interval is the noise the runner
    adds to any comparison, used as the noise band when it exceeds 1%.
    """
    a = list(samples)
    if len(a) < 4:
        raise ValueError("A/A calibration needs at least 4 samples")
    eff = log_effect(a[0::2], a[1::2], level=level)
    return max(abs(eff.lo), abs(eff.hi))


def noise_band(calibration: dict[str, Any] | None = None, metric: str | None = None) -> float:
    """delta = max(1%, A/A calibration), as a log-ratio.

    `calibration` is what the runner cached: {"delta": log-ratio} or {"delta_pct": %} or
    {"samples": [...]} (baseline-with-itself runs, split alternately), or such an entry
    per metric under "metrics" (verifier.calibration writes that form).
    """
    if calibration and "metrics" in calibration:
        calibration = (calibration.get("metrics") or {}).get(metric or "")
    if not calibration:
        return MIN_BAND
    if calibration.get("delta") is not None:
        d = float(calibration["delta"])
    elif calibration.get("delta_pct") is not None:
        d = log_ratio(abs(float(calibration["delta_pct"])))
    elif calibration.get("samples"):
        d = aa_delta(calibration["samples"])
    else:
        d = 0.0
    return max(MIN_BAND, d)


def aa_check(base: Sequence[float], delta: float, level: float = 0.999) -> str | None:
    """A/A sanity check on the baseline's own runs: None when fine, else why it failed.

    Two halves of the same variant must not differ beyond the noise band; if they do, the
    runner is not stable enough for any A/B verdict.
    """
    if len(base) < 6:
        return None
    eff = log_effect(list(base)[0::2], list(base)[1::2], level=level)
    if eff.lo > delta or eff.hi < -delta:
        return (f"A/A check failed: the baseline differs from itself by "
                f"{format_effect(eff)}, beyond the {pct(delta):.1f}% noise band")
    return None


def drift(samples: Sequence[float], delta: float, alpha: float = 1e-4) -> str | None:
    """A trend within one variant's runs (in run order): None when none, else a description.

    Flags a significant monotone trend whose size over the whole sequence exceeds the noise
    band, e.g. thermal throttling or a leak making later runs slower.
    """
    y = np.log(np.asarray(samples, dtype=float))
    n = y.size
    if n < 8 or np.ptp(y) == 0:
        return None
    fit = sps.linregress(np.arange(n), y)
    total = fit.slope * (n - 1)
    if fit.pvalue < alpha and abs(total) > delta:
        return f"drift of {pct(total):+.1f}% over {n} runs (p={fit.pvalue:.1g})"
    return None


def outliers(samples: Sequence[float], z: float = 3.5) -> int:
    """Runs far from the rest (modified z-score of the logs above `z`, Iglewicz-Hoaglin).

    They stay in the analysis (dropping runs is how a claim gets made to fit); the report
    names them, because a few stragglers are what usually widens an interval.
    """
    y = np.log(np.asarray(samples, dtype=float))
    if y.size < 5:
        return 0
    med = np.median(y)
    mad = np.median(np.abs(y - med))
    if mad == 0:
        return 0
    return int(np.sum(0.6745 * np.abs(y - med) / mad > z))


def holm_alphas(pvalues: Sequence[float], alpha: float) -> list[float]:
    """Holm step-down: the significance level each row is judged at (same order as given).

    Rows are ranked by p-value; rank i (0-based) of m gets alpha/(m-i).  Once a row fails,
    every later row gets the same level as the failing one (the step-down stops there) so
    that no row with a larger p-value is judged more leniently.
    """
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    out = [alpha] * m
    stopped: float | None = None
    for rank, i in enumerate(order):
        a = alpha / (m - rank)
        if stopped is not None:
            a = stopped
        elif pvalues[i] > a:
            stopped = a
        out[i] = a
    return out


def holm_adjust(pvalues: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values (monotone), for the report's table."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adj = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adj[i] = running
    return adj


def runs_needed(change_pct: float, cv_pct: float, alpha: float = 0.05,
                power: float = 0.8) -> int:
    """Runs per variant to tell a change of `change_pct` from zero at per-run CV `cv_pct`.

    n = 2 (z_{1-a/2} + z_{power})^2 (cv/change)^2 on the log scale (stats.md §6.4).
    """
    d = abs(log_ratio(change_pct))
    if d == 0:
        return 10 ** 6
    cv = cv_pct / 100.0
    z = sps.norm.ppf(1 - alpha / 2) + sps.norm.ppf(power)
    return max(2, math.ceil(2 * z * z * (cv / d) ** 2))
