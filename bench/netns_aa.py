"""A real A/A on the netns runner: both variants are the same system, so no claim may be
CONFIRMED or CONTRADICTED.

    python bench/netns_aa.py [--duration 1] [--max-runs 10] [--out DIR]   (as root)

21 claims over netperf (TCP_RR, TCP_STREAM, TCP_CRR, UDP_RR: rates, throughput, local and
remote CPU and service demand) and iperf3 (TCP both ways, UDP), with sizes from 3% to
50% in both directions and one explicit "no change", each checked as `verifier check`
checks it (runners.execute with verifier.sequential's stopping rule: the A/A calibration
first, then the sequential looks).  Prints one line per claimed row and the totals; exits non-zero when
anything was CONFIRMED or CONTRADICTED.  `--out` keeps the results files.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from claims.spec import Command, Metric, RunPlan, Spec, Variant  # noqa: E402


def _spec(sid: str, argv: list[str], metrics: list[Metric], max_runs: int,
          duration: float) -> Spec:
    tool = "netperf" if argv[0] == "netperf" else "iperf3"
    return Spec(id=sid, benchmark=Command(tool=tool, argv=argv),
                variants=[Variant("baseline"), Variant("candidate")], metrics=metrics,
                run=RunPlan(repetitions=5, max_repetitions=max_runs, duration=duration,
                            warmup=1, seed=11))


def specs(max_runs: int, duration: float) -> list[Spec]:
    def m(name: str, pct: float | None, better: str, unit: str | None = None,
          no_change: bool = False) -> Metric:
        return Metric(name, unit=unit, better=better, claimed_change_pct=pct,
                      no_change=no_change)

    cpu = [m("cpu_local", -10.0, "lower", "%"), m("cpu_remote", -10.0, "lower", "%"),
           m("service_demand_local", -15.0, "lower"),
           m("service_demand_remote", -37.4, "lower")]
    out = [
        ("aa-tcp-rr", ["netperf", "-H", "server", "-t", "TCP_RR", "-c", "-C"],
         [m("transaction_rate", 5.0, "higher"), *cpu]),
        ("aa-tcp-rr-down", ["netperf", "-H", "server", "-t", "TCP_RR"],
         [m("transaction_rate", -40.0, "higher")]),
        ("aa-tcp-rr-same", ["netperf", "-H", "server", "-t", "TCP_RR"],
         [m("transaction_rate", None, "higher", no_change=True)]),
        ("aa-tcp-stream", ["netperf", "-H", "server", "-t", "TCP_STREAM", "-c", "-C"],
         [m("throughput", 25.0, "higher"), *cpu]),
        ("aa-tcp-stream-small", ["netperf", "-H", "server", "-t", "TCP_STREAM"],
         [m("throughput", -3.0, "higher")]),
        ("aa-tcp-crr", ["netperf", "-H", "server", "-t", "TCP_CRR"],
         [m("transaction_rate", 15.0, "higher")]),
        ("aa-udp-rr", ["netperf", "-H", "server", "-t", "UDP_RR"],
         [m("transaction_rate", 30.0, "higher")]),
        ("aa-iperf3", ["iperf3", "-c", "server"],
         [m("sender_bitrate", 50.0, "higher"), m("receiver_bitrate", 10.0, "higher")]),
        ("aa-iperf3-reverse", ["iperf3", "-c", "server", "-R"],
         [m("sender_bitrate", -20.0, "higher"), m("receiver_bitrate", -20.0, "higher")]),
        ("aa-iperf3-udp", ["iperf3", "-c", "server", "-u", "-b", "200M"],
         [m("receiver_jitter", -30.0, "lower"), m("receiver_bitrate", 5.0, "higher")]),
    ]
    return [_spec(sid, argv, ms, max_runs, duration) for sid, argv, ms in out]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duration", type=float, default=1.0, help="seconds per run")
    ap.add_argument("--max-runs", type=int, default=10, help="most runs per variant")
    ap.add_argument("--out", default=None, help="keep results-<spec>.json here")
    ap.add_argument("--only", default="", help="only specs whose id contains this")
    args = ap.parse_args()
    # a fresh calibration cache: this run's A/A must not reuse another's band
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="netns-aa-cache-")
    from verifier import verdict as V
    from verifier.pipeline import RunSettings, backend_for, verify

    out = Path(args.out) if args.out else None
    if out:
        out.mkdir(parents=True, exist_ok=True)
    counts: Counter[str] = Counter()
    rows = calibration_runs = ab_runs = 0
    t0 = time.monotonic()
    settings = RunSettings(runner="netns", netns_prefix="pcvaa", duration=args.duration,
                           calibrate=True)
    for spec in specs(args.max_runs, args.duration):
        if args.only not in spec.id:
            continue
        with backend_for(settings) as backend:  # A/A calibration, then the looks
            res = verify(spec, backend)
        if out:
            res.save(out / f"results-{spec.id}.json")
        n = max((sum(1 for r in res.runs if r.variant == v and not r.warmup)
                 for v in ("baseline", "candidate")), default=0)
        calibration_runs += int((res.calibration or {}).get("runs") or 0)
        ab_runs += sum(1 for r in res.runs if not r.warmup)
        for v in res.verdicts:
            rows += 1
            counts[v.verdict] += 1
            print(f"{spec.id:<20} {str(v.sample or v.metric):<22} "
                  f"claimed {v.claimed_pct if v.claimed_pct is not None else 'none':>6} "
                  f"{v.verdict:<16} n={n:<3} {v.measured or ''} "
                  f"{(v.reason or v.detail or '')[:90]}", flush=True)
    bad = counts[V.CONFIRMED] + counts[V.CONTRADICTED]
    print(f"\n{rows} claimed rows on an A/A (netns, {args.duration:g} s runs, at most "
          f"{args.max_runs} per variant, {time.monotonic() - t0:.0f} s): "
          + ", ".join(f"{k} {n}" for k, n in counts.most_common())
          + f"\nA/B runs {ab_runs}, calibration runs {calibration_runs} (baseline only, "
          "before the looks)"
          + f"\nCONFIRMED {counts[V.CONFIRMED]}, CONTRADICTED {counts[V.CONTRADICTED]}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
