"""How much the fleet costs per run, and how runs per second grow with hosts.

    python bench/fleet_dispatch.py [--runs 12] [--seconds 1] [--workers 1,2,4]

1. Dispatch overhead: a short benchmark (netperf TCP_RR -l 1; a transaction-count run,
   `-l -200`, would be shorter but runners.execute derives a negative timeout from it)
   run `--runs` times on the local runner (runners.execute, in this process) and on a lab
   of one worker; overhead per run = fleet wall time per run - local wall time per run.
2. Throughput: `--runs` runs of `netperf -l <seconds>` spread over 1, 2 and 4 workers
   (real subprocesses on loopback; on a 2-core machine the hosts share CPUs, so the
   scaling past 2 says more about the machine than about dask).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from claims.spec import Command, Metric, RunPlan, Spec, Variant  # noqa: E402
from runners.fleet import FleetRunner  # noqa: E402
from runners.fleet_lab import LocalLab  # noqa: E402


def spec(argv: list[str], runs: int) -> Spec:
    return Spec(id="bench", benchmark=Command("netperf", argv), variants=[Variant("baseline")],
                metrics=[Metric("transactions_per_second")],
                run=RunPlan(repetitions=runs, warmup=0, timeout=60))


NOOP = ["netperf", "-H", "lpaa6", "-t", "TCP_RR", "-l", "1"]


def local_per_run(runs: int) -> float:
    from runners.execute import run_batch
    from runners.local import LocalRunner

    s = spec(NOOP, runs)
    with LocalRunner() as r:
        t0 = time.perf_counter()
        recs = run_batch(s, r, ["baseline"], runs)
        wall = time.perf_counter() - t0
    bad = [x.error for x in recs if not x.ok]
    if bad:
        raise SystemExit(f"local runs failed: {bad[0]}")
    return wall / runs


def fleet_wall(workers: int, s: Spec) -> tuple[float, list]:
    with LocalLab() as lab:
        for i in range(workers):
            lab.add_worker(f"b{i}", "pool=bench", probe=True)
        with FleetRunner(lab.address, ["pool=bench"], placement="spread") as fr:
            fr.run(spec(NOOP, 1))  # connection, imports and first-task costs out of the way
            t0 = time.perf_counter()
            res = fr.run(s)
            wall = time.perf_counter() - t0
    bad = [r.error for r in res.runs if not r.ok]
    if bad:
        raise SystemExit(f"fleet runs failed: {bad[0]}")
    return wall, res.runs


def empty_task_ms(n: int = 200) -> float:
    """Dask's own share: an empty task through the same `bench` resource gate."""
    with LocalLab() as lab:
        lab.add_worker("e0", "pool=bench")
        with FleetRunner(lab.address) as fr:
            c = fr.connect()
            c.submit(time.time, pure=False, resources={"bench": 1}).result()
            t0 = time.perf_counter()
            futs = [c.submit(time.time, pure=False, resources={"bench": 1}) for _ in range(n)]
            c.gather(futs)
            return (time.perf_counter() - t0) / n * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=12)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--workers", default="1,2,4")
    a = ap.parse_args()

    local = local_per_run(a.runs)
    wall, runs = fleet_wall(1, spec(NOOP, a.runs))
    fleet = wall / a.runs
    in_run = statistics.mean(r.ended - r.started for r in runs)
    print(f"1 s RR run, local runner:  {local * 1000:7.1f} ms/run")
    print(f"1 s RR run, fleet (1 host): {fleet * 1000:7.1f} ms/run "
          f"(tool {in_run * 1000:.1f} ms inside it)")
    print(f"dispatch overhead:           {(fleet - local) * 1000:7.1f} ms/run "
          f"(of it an empty dask task: {empty_task_ms():.1f} ms; the rest is a fresh runner and "
          f"server per run on the host)")

    secs = f"{a.seconds:g}"
    short = ["netperf", "-H", "lpaa6", "-t", "TCP_STREAM", "-l", secs]
    base = None
    for n in [int(x) for x in a.workers.split(",")]:
        wall, runs = fleet_wall(n, spec(short, a.runs))
        rate = a.runs / wall
        base = base or rate
        hosts = len({r.host for r in runs})
        print(f"{n} worker(s): {a.runs} x {secs} s runs in {wall:5.1f} s = {rate:5.2f} runs/s "
              f"(x{rate / base:.2f}; {hosts} hosts used)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
