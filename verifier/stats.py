"""Effect sizes with confidence intervals on the log-ratio scale (reference/stats.md §6).

Absolute numbers do not travel across machines, so everything here works on the relative
change between two variants measured side by side, as a log-ratio.  One estimator serves
everywhere: the mean of the log-ratios (of ABBA pairs when the runs were paired), 10%-trimmed
when a sample has a few runs far from the rest (a second mode is not far: _far), with its
own (Welch or Yuen) t interval, so the point estimate and the interval are the same
statistic and a few spikes neither move the estimate nor blow up the interval.  When the A/A calibration's runs of the same baseline
system are at hand, they add their degrees of freedom to the interval's per-run variance
(one variance for both variants: Student's pooled t, trimmed Yuen and Dixon's), unless
the runs give reason to doubt it is shared.  Sequential looks use a group-sequential boundary
(Wang and Tsiatis's family, from Pocock's same level at every look to O'Brien and
Fleming's, chosen so that the chance of the interval missing the truth at any look is
alpha).  Samples that carry no
information (no spread, identical on both sides, pinned at a limit) are named, not judged.
"""
from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import special
from scipy import stats as sps
from scipy.optimize import brentq

from runners.results import MeasuredEffect

MIN_BAND = math.log(1.01)  # the noise band is never narrower than 1%
# Fraction cut from each end before averaging the log-ratios: one run in ten per side, so
# a first look at 5 pairs keeps all its degrees of freedom and later looks shed a spike.
TRIM = 0.1
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
    trim: float = TRIM
    outliers: int = 0  # runs far from the rest (kept, down-weighted by the trimming)
    outlier_spread: bool = False  # those runs would have driven a plain mean's interval
    notes: list[str] = field(default_factory=list)

    @property
    def estimator(self) -> str:
        what = "pair log-ratios" if self.paired else "logs"
        if not self.trim:
            return f"mean of the {what}, t interval"
        return f"{self.trim:.0%}-trimmed mean of the {what}, Yuen t interval"

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
        t = t_quantile(0.5 + level / 2.0, self.df)
        return (self.x - t * self.se, self.x + t * self.se)

    def p_value(self) -> float:
        """Two-sided p-value of 'no change' (e = 0)."""
        if self.se == 0.0:
            return 0.0 if self.x != 0.0 else 1.0
        z = -abs(self.x) / self.se
        return float(2.0 * (special.ndtr(z) if math.isinf(self.df) else special.stdtr(self.df, z)))

    def format(self) -> str:
        return format_effect(self)

    def stored(self) -> MeasuredEffect:
        """The effect as a verdict row keeps it in the results file."""
        lo, hi = self.measured_ci_pct
        return MeasuredEffect(
            x=self.x, lo=self.lo, hi=self.hi, level=self.level, n_base=self.n_base,
            n_cand=self.n_cand, direction=self.direction, paired=self.paired,
            df=None if math.isinf(self.df) else self.df, se=self.se, trim=self.trim,
            outliers=self.outliers, outlier_spread=self.outlier_spread, notes=list(self.notes),
            measured_pct=self.measured_pct, ci_pct=[lo, hi], text=self.format(),
            p_value=self.p_value(), estimator=self.estimator)


def _logs(samples: Sequence[float], name: str) -> np.ndarray:
    a = np.asarray(samples, dtype=float)
    if a.size < 2:
        raise ValueError(f"{name}: need at least 2 samples, have {a.size}")
    # one pass each way instead of isfinite/all/any (this runs twice a look); a NaN
    # fails the first comparison
    if not (a.min() > 0 and a.max() < math.inf):
        raise ValueError(f"{name}: samples must be positive numbers")
    return np.log(a)


@functools.lru_cache(maxsize=4096)
def t_quantile(p: float, df: float) -> float:
    """Student's t quantile (cached: the same few levels and df come back at every look)."""
    return float(special.stdtrit(df, p)) if math.isfinite(df) else float(special.ndtri(p))


def trim_count(n: int, trim: float) -> int:
    """Runs cut from each end; at least 3 kept, so a tiny sample is never all trimmed."""
    return max(0, min(int(math.floor(trim * n + 1e-9)), (n - 3) // 2))


def trimmed(y: np.ndarray, trim: float = TRIM) -> tuple[float, float, int]:
    """(trimmed mean, squared standard error, runs kept) of one sample (Tukey-McLaughlin).

    The g smallest and g largest values leave the mean; the spread is the winsorized
    variance (the cut values replaced by the nearest kept one), so a spike neither moves
    the estimate nor the interval built around it much, and both stay one statistic.
    """
    n = y.size
    g = trim_count(n, trim)
    s = np.sort(y)
    h = n - 2 * g
    tm = float(s[g:n - g].sum()) / h
    if g:
        s[:g], s[n - g:] = s[g], s[n - g - 1]
    d = s - float(s.sum()) / n  # the winsorized variance, without np.var's overhead
    var_w = float(d @ d) / (n - 1) if n > 1 else 0.0
    return tm, (n - 1) * var_w / (h * (h - 1)), h


def log_effect(base: Sequence[float], cand: Sequence[float], direction: int = 1,
               level: float = 0.95, paired: bool = False, trim: float | None = TRIM,
               seed: int = 1, describe: bool = True,
               prior: Prior | None = None) -> Effect:
    """A t interval for the change in the claimed direction, around the same estimate.

    The estimate is the trimmed mean of the log-ratios (paired: of the per-pair log
    differences, runs of one ABBA block; unpaired: the difference of the two trimmed means
    of the logs) and the interval is that statistic's own (Yuen) t interval, so the
    point estimate always lies in the middle of the interval it is printed with.  With
    `trim` = 0 it is the plain mean of logs and its Welch (or paired) t interval.
    `trim` None trims (TRIM) only when a variant (or the pairs' differences) has runs far
    from the rest (`outliers`), else it is the plain mean of logs: trimming costs a third
    of the runs' information on a two-mode metric and a little on any clean one, and only
    a straggler pays it back.  The choice looks at each sample's own shape, not at the
    difference between them.
    `seed` is kept for callers of the old bootstrap cross-check; it is unused.  With
    `describe` False the outliers are not looked for (internal checks at every look).
    """
    la, lb = _logs(base, "baseline"), _logs(cand, "candidate")
    na, nb = la.size, lb.size
    paired = paired and na == nb
    far = None
    if trim is None:  # trim only samples with runs far from the rest
        far = _far_runs(la, lb, paired)
        trim = TRIM if far else 0.0
    if paired:
        est, se2, h = trimmed(lb - la, trim)
        df = float(h - 1)
    elif prior is not None and (pooled := _pooled(la, lb, trim, prior)) is not None:
        est, se2, df = pooled
    else:
        ma, va, ha = trimmed(la, trim)
        mb, vb, hb = trimmed(lb, trim)
        est, se2 = mb - ma, va + vb
        df = ((va + vb) ** 2 / ((va * va) / (ha - 1) + (vb * vb) / (hb - 1))
              if va + vb > 0 else math.inf)
    se = math.sqrt(se2)
    t = t_quantile(0.5 + level / 2.0, df) if se > 0 else 0.0
    sgn = 1 if direction >= 0 else -1
    x = sgn * est
    eff = Effect(x=x, lo=x - t * se, hi=x + t * se, level=level, n_base=na, n_cand=nb,
                 direction=sgn, paired=paired, df=df, se=se, trim=trim)
    if not describe:
        return eff
    if paired:
        raw = math.sqrt(_var(lb - la) / na)
    else:
        raw = math.sqrt(_var(la) / na + _var(lb) / nb)
    k = _far_runs(la, lb, paired) if far is None else far
    eff.outliers = k
    if k and raw > 1.5 * se:
        eff.outlier_spread = True
        eff.notes.append(
            f"{k} run{'s' if k > 1 else ''} far from the rest drove the spread: a plain mean "
            f"would give an interval {raw / max(se, 1e-12):.1f}x as wide; the "
            f"{trim:.0%}-trimmed mean keeps them but limits their weight")
    return eff


def _var(y: np.ndarray) -> float:
    """The sample variance (ddof 1), without np.var's overhead on a handful of runs."""
    d = y - float(y.sum()) / y.size
    return float(d @ d) / (y.size - 1)


@dataclass(frozen=True)
class Prior:
    """Other runs of the baseline system (the A/A calibration, same runner and command):
    what they say about one run's variance of the logs, for the estimator's two forms.

    `var` is the plain sample variance (None when a calibration run lay far from the
    rest: a spike would swamp it), `df` its degrees of freedom; `wq` is Yuen's scaled
    winsorized variance (n-1) s_w^2 / (h-1) at the same trimming, `wdf` = h-1."""

    var: float | None
    df: float
    wq: float
    wdf: float


def _pooled(la: np.ndarray, lb: np.ndarray, trim: float,
            prior: Prior) -> tuple[float, float, float] | None:
    """(estimate, squared standard error, df) of the difference of (trimmed) mean logs
    with one per-run variance for both variants, estimated from their runs and the
    calibration's together (Student's pooled t; trimmed, Yuen and Dixon's), or None when
    the runs give reason to doubt that the variance is shared: either variant's own
    variance exceeds the calibration's (one-sided F test at 5% each, so a noisier day or
    a candidate that adds spread falls back to Welch's interval)."""
    na, nb = la.size, lb.size
    g = trim_count(min(na, nb), trim) if trim else 0
    if g == 0:
        if prior.var is None or prior.var <= 0:
            return None
        pq, pdf = prior.var, prior.df
    else:
        pq, pdf = prior.wq, prior.wdf
        if pq <= 0:
            return None
    parts = []
    for y in (la, lb):
        m, se2, h = trimmed(y, trim if g else 0.0)
        q = se2 * h  # (n-1) s_w^2 / (h-1), the plain variance when nothing is cut
        if q > pq and float(special.fdtrc(h - 1, pdf, q / pq)) < 0.05:
            return None
        parts.append((m, q, h))
    (ma, qa, ha), (mb, qb, hb) = parts
    df = (ha - 1) + (hb - 1) + pdf
    q = ((ha - 1) * qa + (hb - 1) * qb + pdf * pq) / df
    return mb - ma, q * (1.0 / ha + 1.0 / hb), df


def bootstrap_interval(base: np.ndarray, cand: np.ndarray, level: float, seed: int = 1,
                       paired: bool = False, trim: float = TRIM,
                       resamples: int = BOOTSTRAP_RESAMPLES) -> tuple[float, float]:
    """Percentile bootstrap of the same statistic log_effect reports (trimmed mean of the
    log-ratios), a cross-check that needs no normality."""
    rng = np.random.default_rng(seed)
    la, lb = np.log(base), np.log(cand)
    na, nb = la.size, lb.size

    def tmean(m: np.ndarray) -> np.ndarray:
        g = trim_count(m.shape[1], trim)
        s = np.sort(m, axis=1)
        return s[:, g:m.shape[1] - g].mean(axis=1)

    if paired:
        d = lb - la
        r = tmean(d[rng.integers(0, na, size=(resamples, na))])
    else:
        r = (tmean(lb[rng.integers(0, nb, size=(resamples, nb))])
             - tmean(la[rng.integers(0, na, size=(resamples, na))]))
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
    """The difference an A/A comparison shows on this runner beyond its own noise.

    The baseline's runs are split alternately into two halves (neighbours paired, so slow
    drift lands in both) and compared with each other.  The per-run noise is already in
    every A/B interval; what the band must add is a difference between two identical
    variants that the noise does not explain: how far the A/A interval lies from zero
    (0 when it contains zero).  The upper end of that interval would count the same noise
    twice and make every modest claim uncheckable (at 2% noise, 10 runs put it near 3%).
    """
    a = list(samples)
    if len(a) < 4:
        raise ValueError("A/A calibration needs at least 4 samples")
    k = len(a) // 2
    eff = log_effect(a[0:2 * k:2], a[1:2 * k:2], level=level, paired=True, describe=False)
    if eff.lo > 0:
        return eff.lo
    return -eff.hi if eff.hi < 0 else 0.0


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


def noise_sd(calibration: dict[str, Any] | None = None,
             metric: str | None = None) -> float | None:
    """The calibration's per-run noise (winsorized sd of the logs), when it measured one."""
    if calibration and "metrics" in calibration:
        calibration = (calibration.get("metrics") or {}).get(metric or "")
    if not calibration:
        return None
    if calibration.get("sd") is not None:
        return float(calibration["sd"])
    xs = calibration.get("samples")
    return log_sd(xs) if xs and len(xs) >= 4 else None


def noise_prior(calibration: dict[str, Any] | None = None,
                metric: str | None = None) -> Prior | None:
    """What the calibration's runs say about one run's variance of the logs (Prior), when
    it kept them (`log_var`, `sd`, `n`; older caches have only `sd`: None)."""
    if calibration and "metrics" in calibration:
        calibration = (calibration.get("metrics") or {}).get(metric or "")
    if not calibration or calibration.get("sd") is None or calibration.get("log_var") is None:
        return None
    n = int(calibration.get("n") or 0)
    if n < 4:
        return None
    g = trim_count(n, TRIM)
    h = n - 2 * g
    sd = float(calibration["sd"])
    var = None if calibration.get("far", 1) else float(calibration["log_var"])
    return Prior(var=var, df=float(n - 1), wq=(n - 1) * sd * sd / (h - 1), wdf=float(h - 1))


def aa_check(base: Sequence[float], delta: float, level: float = 0.999) -> str | None:
    """A/A sanity check on the baseline's own runs: None when fine, else why it failed.

    Two halves of the same variant must not differ beyond the noise band; if they do, the
    runner is not stable enough for any A/B verdict.
    """
    if len(base) < 6:
        return None
    eff = log_effect(list(base)[0::2], list(base)[1::2], level=level, describe=False)
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
    if n < 8 or y.min() == y.max():
        return None
    # least squares on the run index and the t test of its slope (scipy's linregress,
    # without its per-call overhead: this runs at every look)
    x = np.arange(n) - (n - 1) / 2.0
    yc = y - float(y.sum()) / n
    sxx, sxy, syy = float(x @ x), float(x @ yc), float(yc @ yc)
    slope = sxy / sxx
    r2 = min(1.0, sxy * sxy / (sxx * syy))
    t = math.sqrt(r2 * (n - 2) / max(1.0 - r2, 1e-300))
    pvalue = float(2.0 * special.stdtr(n - 2, -t))
    total = slope * (n - 1)
    if pvalue < alpha and abs(total) > delta:
        return f"drift of {pct(total):+.1f}% over {n} runs (p={pvalue:.1g})"
    return None


def median(y: np.ndarray) -> float:
    """np.median of a small array, without its overhead (it runs several times a look)."""
    s = np.sort(y)
    n = s.size
    return float(s[n // 2]) if n % 2 else float(s[n // 2 - 1] + s[n // 2]) / 2.0


def _far(y: np.ndarray, z: float = 3.5) -> int:
    """Values of `y` (logs) far from the rest: modified z-score above `z`, and rare.

    A run is far only when few runs lie out there with it: at most one on a side, or as
    many as the trimming cuts from that end (TRIM).  More of them on one side are a mode
    of the metric (a flow landing on one of two queues), not stragglers: the MAD of the
    larger mode is its own narrow spread, so the whole other mode would read as far, be
    trimmed (a third of a two-mode sample's information) and keep the calibration's
    variance out of the interval."""
    if y.size < 5:
        return 0
    m = median(y)
    d = np.abs(y - m)
    mad = median(d)
    if mad == 0:
        return 0
    far = 0.6745 * d / mad > z
    rare = max(1, trim_count(y.size, TRIM))
    up = int(np.count_nonzero(far & (y > m)))
    down = int(np.count_nonzero(far)) - up
    return (up if up <= rare else 0) + (down if down <= rare else 0)


def _far_runs(la: np.ndarray, lb: np.ndarray, paired: bool) -> int:
    """Runs far from the rest in the sample the interval is on: the pairs' log-ratios, or
    each variant's logs."""
    return _far(lb - la) if paired else _far(la) + _far(lb)


def outliers(samples: Sequence[float], z: float = 3.5) -> int:
    """Runs far from the rest (modified z-score of the logs above `z`, Iglewicz-Hoaglin).

    They stay in the analysis (dropping runs is how a claim gets made to fit); the report
    names them, because a few stragglers are what usually widens an interval.
    """
    return _far(np.log(np.asarray(samples, dtype=float)), z)


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
    z = float(special.ndtri(1 - alpha / 2) + special.ndtri(power))
    return max(2, math.ceil(2 * z * z * (cv / d) ** 2))


def log_sd(samples: Sequence[float] | np.ndarray, trim: float = TRIM) -> float:
    """A run's noise as the winsorized standard deviation of the logs (robust to spikes)."""
    y = np.log(np.asarray(samples, dtype=float))
    _, se2, h = trimmed(y, trim)
    return math.sqrt(se2 * h * (h - 1) / max(y.size - 1, 1))


def robust_sd(base: Sequence[float], cand: Sequence[float], paired: bool) -> float:
    """Per-run noise of the logs from the median absolute deviation (1.4826 MAD): a few
    spikes in the first handful of runs cannot make it look huge.  Paired: of the pair
    differences, divided by sqrt 2 so that it is one run's noise either way."""
    la, lb = np.log(np.asarray(base, dtype=float)), np.log(np.asarray(cand, dtype=float))

    def mad(y: np.ndarray) -> float:
        return 1.4826 * median(np.abs(y - median(y)))

    if paired and la.size == lb.size:
        return mad(lb - la) / math.sqrt(2.0)
    return math.sqrt((mad(la) ** 2 + mad(lb) ** 2) / 2.0)


def degenerate(name: str, xs: Sequence[float], unit: str | None = None,
               trim: float = TRIM) -> str | None:
    """Why one variant's samples carry no information, or None.

    Every run giving the same value (a saturated or quantised metric) or most of them
    (the trimmed spread is zero) makes any interval a false certainty; a percentage that
    sits at 100% is pinned at its limit and cannot show a change in either direction.
    """
    a = np.asarray(xs, dtype=float)
    if a.size < 2:
        return None
    if a.min() == a.max():
        return f"every run of {name} gave the same value ({a[0]:g}): no spread, no information"
    if unit and unit.strip() in ("%", "percent") and float(np.median(a)) >= 99.5:
        return f"{name} is pinned at its limit ({float(np.median(a)):g}% of 100%)"
    if log_sd(a, trim) < 1e-9:
        return (f"most runs of {name} gave the same value ({float(np.median(a)):g}): "
                "a quantised metric, no usable spread")
    return None


def crossing_probability(z: float | Sequence[float], fractions: Sequence[float],
                         grid: int = 100) -> float:
    """P(|Z_k| >= z_k at some look k) under no effect, the looks at these information
    fractions (increasing) and `z` one boundary for all looks or one per look.  The looks'
    statistics are Brownian motion observed at those times (Armitage, McPherson and
    Rowe's recursion): the density of the running sum that has not yet crossed is carried
    from look to look on a grid, so many looks cost no more than a few."""
    t = np.asarray(fractions, dtype=float)
    zs = np.broadcast_to(np.asarray(z, dtype=float), t.shape)
    crossed = float(2.0 * sps.norm.sf(zs[0]))
    b = zs[0] * math.sqrt(t[0])
    s = np.linspace(-b, b, 2 * grid + 1)  # the sum at look 1, inside the boundary
    w = np.full(s.size, s[1] - s[0])
    w[0] = w[-1] = w[0] / 2  # trapezoid weights
    dens = sps.norm.pdf(s, scale=math.sqrt(t[0])) * w
    for k in range(1, t.size):
        sd = math.sqrt(t[k] - t[k - 1])
        b = zs[k] * math.sqrt(t[k])
        crossed += float(dens @ (sps.norm.sf((b - s) / sd) + sps.norm.cdf((-b - s) / sd)))
        if k == t.size - 1:
            break
        nxt = np.linspace(-b, b, 2 * grid + 1)
        w = np.full(nxt.size, nxt[1] - nxt[0])
        w[0] = w[-1] = w[0] / 2
        u = (nxt[:, None] - s[None, :]) / sd
        dens = (np.exp(-0.5 * u * u) / (sd * math.sqrt(2 * math.pi))) @ dens * w
        s = nxt
    return crossed


@functools.lru_cache(maxsize=256)
def boundary_z(fractions: tuple[float, ...], alpha: float,
               shape: float = 0.5) -> tuple[float, ...]:
    """Wang and Tsiatis's boundary z_k = C t_k^(shape - 1/2) at the looks' information
    fractions t_k (n_k / n_max, increasing), C chosen so that |Z| crosses it at some look
    with probability alpha under no effect.  shape 1/2 is Pocock's (the same level at
    every look), 0 O'Brien and Fleming's (strict early, nearly alpha at the last look)."""
    t = np.asarray(fractions, dtype=float)
    if t.size <= 1:
        return (float(sps.norm.ppf(1 - alpha / 2)),)
    power = t ** (shape - 0.5)
    c = brentq(lambda c: crossing_probability(c * power, fractions) - alpha, 0.5, 20.0,
               xtol=1e-6)
    return tuple(float(c * p) for p in power)


def pocock_z(fractions: tuple[float, ...], alpha: float) -> float:
    """The Pocock constant: |Z| beyond it at any of the looks has probability alpha under
    no effect, for looks at these information fractions (n_k / n_max, increasing).
    One look is the plain two-sided quantile."""
    return boundary_z(tuple(fractions), alpha, 0.5)[0]


def pocock_alpha(looks: Sequence[int], alpha: float) -> float:
    """Nominal two-sided level at each of the planned looks (runs per variant)."""
    return look_alphas(looks, alpha, 0.5)[0]


def look_alphas(looks: Sequence[int], alpha: float, shape: float = 0.5) -> tuple[float, ...]:
    """Nominal two-sided level at each planned look (runs per variant, any order) of the
    Wang-Tsiatis boundary of this shape, in increasing order of the looks."""
    return _look_alphas(tuple(sorted(set(looks))), alpha, shape)


@functools.lru_cache(maxsize=256)
def _look_alphas(looks: tuple[int, ...], alpha: float, shape: float) -> tuple[float, ...]:
    top = looks[-1]
    zs = boundary_z(tuple(n / top for n in looks), alpha, shape)
    return tuple(float(2 * sps.norm.sf(z)) for z in zs)
