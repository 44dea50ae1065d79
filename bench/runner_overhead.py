"""The runner's own overhead per run: wall time of a run minus the duration the tool itself
reports, on the local and netns runners (aim: < 2% of a 10 s run).

    python bench/runner_overhead.py [--runners local,netns] [--durations 1,10] [--runs 3]

A run's wall time here is everything `run_batch` does for one run: switching the variant's
setup (undo + apply gro_flush_timeout on both hosts), checking the server, spawning netperf
and reaping it, parsing its output.  Two variants alternate, so every run pays a switch in
the worst case (ABBA: every other run).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from claims.spec import Action, Command, Metric, RunPlan, Spec, Variant  # noqa: E402
from runners.execute import new_results, run_batch  # noqa: E402
from runners.local import LocalRunner  # noqa: E402
from runners.netns import NetnsRunner  # noqa: E402


def spec(duration: float) -> Spec:
    def gro(v: str) -> list[Action]:
        return [Action(kind="sysfs", key="/sys/class/net/eth0/gro_flush_timeout", value=v,
                       device="eth0")]
    return Spec(id="overhead", benchmark=Command(
        tool="netperf", argv=["netperf", "-H", "peer", "-t", "TCP_RR", "-l", "10"]),
        variants=[Variant("a", setup=gro("0")), Variant("b", setup=gro("1000"))],
        metrics=[Metric("transaction_rate", better="higher")],
        run=RunPlan(duration=duration, seed=1, warmup=0))


def measure(kind: str, duration: float, runs: int) -> dict[str, float]:
    runner = LocalRunner() if kind == "local" else NetnsRunner(prefix="pcvb")
    s = spec(duration)
    with runner:
        res = new_results(s, runner)
        run_batch(s, runner, ["a", "b"], 1, res, warmup=True)  # server up, caches warm
        times: list[float] = []
        last = [time.monotonic()]

        def tick(ev: dict) -> None:
            now = time.monotonic()
            times.append(now - last[0])
            last[0] = now

        last[0] = time.monotonic()
        recs = run_batch(s, runner, ["a", "b"], runs, res, batch=1, progress=tick)
    bad = [r.error for r in recs if not r.ok]
    if bad:
        raise SystemExit(f"runner_overhead: {kind}: run failed: {bad[0]}")
    tool = [r.tool_seconds or duration for r in recs]
    proc = [r.ended - r.started for r in recs]
    over = [w - t for w, t in zip(times, tool, strict=True)]
    return {"runs": len(recs), "wall": statistics.mean(times), "tool": statistics.mean(tool),
            "process": statistics.mean(proc), "overhead": statistics.mean(over),
            "overhead_max": max(over), "pct": 100 * statistics.mean(over) / duration}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runners", default="local,netns")
    p.add_argument("--durations", default="1,10")
    p.add_argument("--runs", type=int, default=3, help="runs per variant (two variants)")
    a = p.parse_args()
    print(f"{'runner':<7}{'dur s':>6}{'runs':>5}{'wall s':>9}{'tool s':>8}{'spawn s':>9}"
          f"{'overhead s':>12}{'max s':>8}{'% of run':>10}")
    for kind in a.runners.split(","):
        for d in (float(x) for x in a.durations.split(",")):
            m = measure(kind, d, a.runs)
            print(f"{kind:<7}{d:>6g}{m['runs']:>5}{m['wall']:>9.3f}{m['tool']:>8.3f}"
                  f"{m['process']:>9.3f}{m['overhead']:>12.3f}{m['overhead_max']:>8.3f}"
                  f"{m['pct']:>9.2f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
