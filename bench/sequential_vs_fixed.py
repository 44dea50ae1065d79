"""Sequential looks (verifier.verdict.LOOKS, 5 to 30 runs per variant) against a fixed 30 runs.

    python bench/sequential_vs_fixed.py [--claims 400] [--seed 1]

Simulated claims: a claimed change of 1-50%, a true change that is the claimed one, none,
or the reverse, and 1-10% per-run noise (lognormal).  For both designs it prints the runs
used per variant, the wrong-verdict rate (a verdict that says something false about the
truth) and the INCONCLUSIVE rate.  Nothing is timed; the cost measured is runs.
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.stats_sim import Simulator, fixed, make_results  # noqa: E402
from verifier import verdict as V  # noqa: E402
from verifier.sequential import run_sequential  # noqa: E402


def wrong(claimed: float, true: float, name: str) -> bool:
    """INCONCLUSIVE is never wrong; NOT REPRODUCED is right when the claim is absent or
    reversed; a true claim must be CONFIRMED."""
    if name == V.INCONCLUSIVE:
        return False
    if true == claimed:
        return name != V.CONFIRMED
    if true == 0:
        return name != V.NOT_REPRODUCED
    return name not in (V.CONTRADICTED, V.NOT_REPRODUCED)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--claims", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    stats = {k: Counter() for k in ("sequential", "fixed-30")}
    for i in range(args.claims):
        claimed = float(rng.uniform(1, 50))
        kind = rng.choice(["true", "absent", "reversed"])
        true = {"true": claimed, "absent": 0.0, "reversed": -claimed}[kind]
        noise = float(rng.uniform(1, 10))
        seed = args.seed * 100000 + i
        res = make_results(claimed)
        out = run_sequential(res, Simulator(res, true, noise, seed))
        fx = V.judge(fixed(claimed, true, noise, 30, seed))
        for name, verdicts, runs in (("sequential", out.verdicts, out.looks[-1]),
                                     ("fixed-30", fx, 30)):
            v = verdicts[0].verdict
            s = stats[name]
            s["claims"] += 1
            s["runs"] += runs
            s["wrong"] += wrong(claimed, true, v)
            s["inconclusive"] += v == V.INCONCLUSIVE
            s[f"wrong-{kind}"] += wrong(claimed, true, v)
            s[f"n-{kind}"] += 1
    print(f"{args.claims} simulated claims (claimed 1-50%, noise 1-10%, truth = claimed, "
          f"0 or reversed)")
    print(f"{'design':<12}{'runs/variant':>14}{'wrong':>9}{'inconclusive':>14}"
          f"{'wrong|true':>12}{'wrong|0':>9}{'wrong|rev':>11}")
    for name, s in stats.items():
        n = s["claims"]
        print(f"{name:<12}{s['runs'] / n:>14.1f}{s['wrong'] / n:>9.1%}"
              f"{s['inconclusive'] / n:>14.1%}"
              f"{s['wrong-true'] / max(1, s['n-true']):>12.1%}"
              f"{s['wrong-absent'] / max(1, s['n-absent']):>9.1%}"
              f"{s['wrong-reversed'] / max(1, s['n-reversed']):>11.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
