#!/usr/bin/env python3
"""Throughput and peak memory of `extract` over a real list archive, against a bare parse.

    python bench/extract_throughput.py                     # 27,573 messages
    python bench/extract_throughput.py --twice             # 55,146 messages
    python bench/extract_throughput.py --limit 2000        # a quick look

Each side runs in its own subprocess so that its peak RSS is its own:
- ours: claims.sources.iter_messages + claims.extract.extract_message (message reading only
  when the extractor is not there), straight from the .xz;
- bare: the standard library alone, mailbox.mbox with email.policy.default, reading each
  message's plain-text body, over the same archive decompressed to a temporary file first
  (mailbox needs a plain file; the decompression is not timed, which favours the bare side).
Goal: ours no slower than bare, memory flat in mbox size. Speed is reported per wall second
and per CPU second; on a shared machine the CPU-time figure is the comparable one.
"""
from __future__ import annotations

import argparse
import json
import lzma
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ARCHIVE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data",
                       "virtualization-list.mbox.xz")


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _cpu_seconds() -> float:
    """User + system CPU time: unlike wall time it does not depend on what else runs."""
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def run_ours(path: str, rounds: int, limit: int | None) -> dict:
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from claims.sources import iter_messages

    try:
        from claims.extract import extract_message  # written concurrently; optional here
    except ImportError:
        extract_message = None
    count = claims = failures = 0
    start = time.perf_counter()
    for _ in range(rounds):
        n = 0
        for msg in iter_messages(path):
            count += 1
            n += 1
            if extract_message is not None:
                try:
                    claims += len(extract_message(msg).claims)
                except Exception:  # counted, not fatal: the bench measures speed
                    failures += 1
            if limit and n >= limit:
                break
    seconds = time.perf_counter() - start
    return {"side": "ours", "extract": extract_message is not None, "messages": count,
            "seconds": seconds, "claims": claims, "failures": failures}


def run_bare(path: str, rounds: int, limit: int | None) -> dict:
    import email
    import mailbox
    from email import policy

    def factory(f):
        return email.message_from_binary_file(f, policy=policy.default)

    count = failures = 0
    start = time.perf_counter()
    for _ in range(rounds):
        n = 0
        for msg in mailbox.mbox(path, factory=factory, create=False):
            count += 1
            n += 1
            try:
                body = msg.get_body(preferencelist=("plain",))
                if body is not None:
                    body.get_content()
            except Exception:
                failures += 1
            if limit and n >= limit:
                break
    seconds = time.perf_counter() - start
    return {"side": "bare", "messages": count, "seconds": seconds, "failures": failures}


def child(argv: list[str]) -> int:
    side, path, rounds, limit = argv[0], argv[1], int(argv[2]), int(argv[3]) or None
    cpu0 = _cpu_seconds()
    result = (run_ours if side == "ours" else run_bare)(path, rounds, limit)
    result["cpu_seconds"] = _cpu_seconds() - cpu0
    result["cpu_rate"] = round(result["messages"] / result["cpu_seconds"], 1) \
        if result["cpu_seconds"] else 0.0
    result["peak_rss_mb"] = round(_peak_rss_mb(), 1)
    result["rate"] = round(result["messages"] / result["seconds"], 1) if result["seconds"] else 0.0
    print(json.dumps(result))
    return 0


def spawn(side: str, path: str, rounds: int, limit: int) -> dict:
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", side, path,
                          str(rounds), str(limit)], capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"{side} failed: {out.stderr.strip()[-500:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        return child(sys.argv[2:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mbox", default=ARCHIVE)
    ap.add_argument("--twice", action="store_true", help="read the archive twice (55k messages)")
    ap.add_argument("--limit", type=int, default=0, help="messages per round (0: all)")
    ap.add_argument("--only", choices=("ours",), help="run our side alone (memory vs mbox size)")
    args = ap.parse_args()
    if not os.path.exists(args.mbox):
        print(f"error: {args.mbox} not found", file=sys.stderr)
        return 1
    rounds = 2 if args.twice else 1
    plain = args.mbox
    tmp = None
    if args.only == "ours":
        r = spawn("ours", args.mbox, rounds, args.limit)
        print(f"ours: {r['messages']} messages, {r['seconds']:.1f} s, {r['rate']:.0f} msg/s, "
              f"{r['cpu_rate']:.0f} msg/CPU-s, "
              f"peak RSS {r['peak_rss_mb']:.1f} MB, claims {r.get('claims', 0)}, "
              f"extract failures {r.get('failures', 0)}")
        return 0
    if args.mbox.endswith(".xz"):
        tmp = tempfile.NamedTemporaryFile(suffix=".mbox", delete=False)
        with lzma.open(args.mbox) as src, tmp:
            shutil.copyfileobj(src, tmp, 1 << 20)
        plain = tmp.name
    try:
        bare = spawn("bare", plain, rounds, args.limit)
        ours = spawn("ours", args.mbox, rounds, args.limit)
        ours_plain = spawn("ours", plain, rounds, args.limit) if tmp else None
    finally:
        if tmp:
            os.unlink(tmp.name)
    rows = [("ours (" + ("extract" if ours["extract"] else "read only") + ", .xz)", ours)]
    if ours_plain:
        rows.append(("ours (same, plain mbox)", ours_plain))
    rows.append(("bare stdlib (plain mbox)", bare))
    print(f"{'side':34} {'messages':>9} {'wall s':>8} {'msg/s':>8} {'CPU s':>8} "
          f"{'msg/CPU-s':>10} {'peak RSS MB':>12}")
    for name, r in rows:
        print(f"{name:34} {r['messages']:9d} {r['seconds']:8.1f} {r['rate']:8.0f} "
              f"{r['cpu_seconds']:8.1f} {r['cpu_rate']:10.0f} {r['peak_rss_mb']:12.1f}")
    for name, r in rows[:-1]:
        ratio = r["cpu_rate"] / bare["cpu_rate"] if bare["cpu_rate"] else float("nan")
        wall = r["rate"] / bare["rate"] if bare["rate"] else float("nan")
        print(f"ratio {name} / bare: {ratio:.2f} by CPU time, {wall:.2f} by wall time")
    print(f"claims found: {ours.get('claims', 0)}, extract failures: {ours.get('failures', 0)}, "
          f"bare failures: {bare['failures']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
