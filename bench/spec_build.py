"""How fast claims become specs, and what share of them could run here.

    python bench/spec_build.py ../shared/data/virtualization-list.mbox.xz [--limit N]

Reports messages read, extraction time and spec-building time (safety checks included)
separately, peak memory, and the specs by outcome: runnable, needs a kernel, refused.
"""
from __future__ import annotations

import argparse
import resource
import sys
import time
from collections import Counter

from claims import safety
from claims.extract import extract_message
from claims.sources import iter_messages
from claims.specbuild import specs_for


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("path")
    ap.add_argument("--limit", type=int, default=0, help="stop after N messages")
    args = ap.parse_args()
    t_extract = t_build = 0.0
    n_msgs = 0
    outcome: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    t0 = time.perf_counter()
    for msg in iter_messages(args.path):
        n_msgs += 1
        a = time.perf_counter()
        ex = extract_message(msg)
        b = time.perf_counter()
        specs = specs_for(ex) if ex.claims else []
        for s in specs:
            probs = safety.check_spec(s)
            outcome["refused" if probs else "needs-kernel" if s.needs else "runnable"] += 1
            for p in probs[:1]:
                reasons[p.reason.split("(")[0][:50]] += 1
        t_build += time.perf_counter() - b
        t_extract += b - a
        if args.limit and n_msgs >= args.limit:
            break
    wall = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"messages {n_msgs}  wall {wall:.1f}s  extract {t_extract:.1f}s  "
          f"build+check {t_build:.2f}s ({t_build / max(n_msgs, 1) * 1e3:.3f} ms/msg)  "
          f"peak {peak:.0f} MiB")
    print("specs", dict(outcome))
    for r, n in reasons.most_common(8):
        print(f"  {n:5d}  {r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
