#!/usr/bin/env python3
"""Hostile mail at scale: 100,000 generated and mutated inputs through the bot's pipeline.

    python bench/fuzz.py                         # 100,000 inputs, seed 1
    python bench/fuzz.py --count 5000 --seed 7   # a quick look
    python bench/fuzz.py --curve                 # time against size, 10 KB .. 10 MB

Each input (tests/mailfuzz.py: encoded words in every charset, nested multipart, wrong
transfer encodings, mbox framing, HTML, claim text, mutated corpus and archive mails) is
read, extracted, turned into specs and safety-checked in this process, as the bot does;
every 10th spec set is also written to YAML and read back.  Times are CPU seconds (the
machine is shared: wall time would measure the neighbours).  Reported: tracebacks (by
place), inputs over --slow seconds, the largest memory growth of one input, peak RSS.  A
failing or slow input is saved to tests/fixtures/hostile/ (the suite replays them).
The address space is limited (--memory, default 1.5 GB), so a bomb ends in MemoryError
and is counted, instead of pushing the shared machine into swap.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import signal
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import tests.mailfuzz as mailfuzz  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures" / "hostile"


class Slow(Exception):
    """An input took longer than the hard limit."""


def _alarm(signum: int, frame: object) -> None:
    raise Slow("over the hard time limit")


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _place(e: BaseException) -> str:
    tb = traceback.extract_tb(e.__traceback__)
    frame = next((f for f in reversed(tb) if "/claims/" in f.filename or "/verifier/" in
                  f.filename or "/runners/" in f.filename), tb[-1] if tb else None)
    where = f"{Path(frame.filename).parent.name}/{Path(frame.filename).name}:{frame.lineno}" \
        if frame else "?"
    return f"{type(e).__name__} at {where}: {' '.join(str(e).split())[:100]}"


def fuzz(count: int, seed: int, slow: float, hard: float, save: bool) -> dict:
    seeds = mailfuzz.corpus_messages() + mailfuzz.archive_messages(2000)
    failures: collections.Counter[str] = collections.Counter()
    first: dict[str, int] = {}
    slow_inputs: list[tuple[float, int, int]] = []
    worst_growth = (0.0, -1, 0)
    biggest = (0.0, -1, 0)
    signal.signal(signal.SIGPROF, _alarm)
    started = time.monotonic()
    messages = 0
    for i, (s, data) in enumerate(mailfuzz.inputs(seed, count, seeds)):
        before = _rss_mb()
        t = time.process_time()  # CPU time: on a shared machine wall time measures the others
        signal.setitimer(signal.ITIMER_PROF, hard)
        try:
            messages += mailfuzz.run_pipeline(data, specs=i % 10 == 0)
        except (Exception, Slow) as e:  # noqa: BLE001 - counting them is the point
            key = _place(e)
            failures[key] += 1
            if key not in first:
                first[key] = s
                if save:
                    _save(f"fail-{s}", data)
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
        took = time.process_time() - t
        if took > slow:
            slow_inputs.append((round(took, 2), s, len(data)))
            if save:
                _save(f"slow-{s}", data)
        if took > biggest[0]:
            biggest = (round(took, 3), s, len(data))
        growth = _rss_mb() - before
        if growth > worst_growth[0]:
            worst_growth = (round(growth, 1), s, len(data))
        if (i + 1) % 10000 == 0:
            print(f"  {i + 1} inputs, {sum(failures.values())} failures, {len(slow_inputs)} slow,"
                  f" {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    return {
        "inputs": count, "seed": seed, "messages_read": messages,
        "seconds": round(time.monotonic() - started, 1),
        "tracebacks": sum(failures.values()),
        "by_place": [{"count": n, "place": k, "seed": first[k]} for k, n in failures.most_common()],
        f"over_{slow:g}_s": len(slow_inputs), "slow": sorted(slow_inputs)[-10:],
        "slowest": {"seconds": biggest[0], "seed": biggest[1], "bytes": biggest[2]},
        "largest_rss_growth_mb": {"mb": worst_growth[0], "seed": worst_growth[1],
                                  "bytes": worst_growth[2]},
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def _save(name: str, data: bytes) -> None:
    FIXTURES.mkdir(parents=True, exist_ok=True)
    if len(data) <= 2 << 20:
        (FIXTURES / f"{name}.eml").write_bytes(data)


# Shapes that once were quadratic, grown to a size: each makes about `size` bytes.
def _shapes(size: int) -> dict[str, bytes]:
    head = b"From: a <a@b.c>\nSubject: s\nMessage-ID: <m@x>\n"
    line = b"netperf -H 10.0.0.2 -l 30   before: 9.1 Gbps   after: 9.5 Gbps\n"
    return {
        "plain": head + b"\n" + line * (size // len(line)),
        "nested-div": head + b"Content-Type: text/html\n\n<html><body>"
                      + b"<div>" * (size // 10) + b"x" + b"</div>" * (size // 10) + b"</body></html>",
        "arrows-one-line": head + b"\n" + b"1.0 -> 2.0 " * (size // 11) + b"\n",
        "arabic-arrows": head + b"Content-Type: text/plain; charset=utf-8\n\n"
                         + "٣٫٥ -> ٤٫٢ ".encode() * (size // 20) + b"\n",
        "table": head + b"\n" + b"| tcp | 9.1 | 9.5 |\n" * (size // 20),
        "quoted": head + b"\n" + b"> " + line * (size // (len(line) + 2)),
        "base64": head + b"Content-Transfer-Encoding: base64\n\n"
                  + __import__("base64").encodebytes(line * (size * 3 // 4 // len(line))),
    }


def curve(sizes: list[int], hard: float) -> list[dict]:
    """CPU seconds to read and to extract each shape at each size (one process, in turn)."""
    from claims.extract import extract_message
    from claims.sources import iter_messages

    signal.signal(signal.SIGPROF, _alarm)
    rows = []
    for size in sizes:
        for name, data in _shapes(size).items():
            row: dict = {"shape": name, "bytes": len(data)}
            signal.setitimer(signal.ITIMER_PROF, hard)
            try:
                t = time.process_time()
                msgs = list(iter_messages(name, data=data))
                row["read_s"] = round(time.process_time() - t, 3)
                t = time.process_time()
                for m in msgs:
                    extract_message(m)
                row["extract_s"] = round(time.process_time() - t, 3)
                row["lines"] = sum(len(m.lines) for m in msgs)
                row["warnings"] = sorted({w for m in msgs for w in m.warnings})[:2]
            except (Exception, Slow) as e:  # noqa: BLE001
                row["error"] = _place(e)
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
            rows.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
    return rows


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--count", type=int, default=100_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--slow", type=float, default=10.0,
                   help="report inputs over this many CPU seconds")
    p.add_argument("--hard", type=float, default=60.0,
                   help="stop an input after this many CPU seconds")
    p.add_argument("--memory", type=float, default=1.5, help="address space limit, GB")
    p.add_argument("--no-save", action="store_true", help="do not write fixtures")
    p.add_argument("--curve", action="store_true", help="time against size instead")
    p.add_argument("--sizes", default="10000,100000,1000000,10000000")
    args = p.parse_args()
    limit = int(args.memory * 2**30)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    if args.curve:
        print(json.dumps(curve([int(x) for x in args.sizes.split(",")], args.hard), indent=1))
        return 0
    report = fuzz(args.count, args.seed, args.slow, args.hard, not args.no_save)
    print(json.dumps(report, indent=1))
    return 1 if report["tracebacks"] else 0


if __name__ == "__main__":
    sys.exit(main())
