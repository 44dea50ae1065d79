#!/usr/bin/env python3
"""Throughput and peak memory of `extract` over a real list archive, against a bare parse.

    python bench/extract_throughput.py                  # 3 interleaved rounds, whole archive
    python bench/extract_throughput.py --rounds 5
    python bench/extract_throughput.py --limit 3000     # a quick look (first 3,000 messages)
    python bench/extract_throughput.py --mbox /tmp/arch.mbox --stages   # a plain mbox; stage times

Each run is its own subprocess, so its CPU time and peak RSS are its own:
- bare: the standard library alone, mailbox.mbox with email.policy.default, reading each
  message's plain-text body (the archive decompressed to a temporary file first, untimed);
- ours: what `verifier extract` does, claims.sources.iter_messages(prescan=True) and
  claims.extract.extract_message, over the same plain file; also once from the .xz;
- ours without the pre-scan (once): the same with claims.prescan's gate always open, which
  gives what to compare: every claim, command or setup step it finds that ours does not is
  counted as lost;
- ours over the archive twice in one run (once): peak RSS must not grow with the input;
- the project's bytecode is written first (untimed), as an install writes it: with
  PYTHONDONTWRITEBYTECODE set, each child would otherwise compile every module from source,
  which an installed `verifier` does not do (scripts/install.sh compiles them);
- with `--stages`, once each: the reader alone (`read`: iter_messages without the gate,
  every message fully modelled, as the bot reads), the two-level read with a gate that
  turns every message away (`closed`: what the two-level reading costs) and with the gate
  but no extraction (`gate`), so the CPU-seconds of extraction split into reading, gating
  (gate - closed) and the stages with the output (ours - gate). `read` is not the reading
  `ours` pays: it models every message.
The two sides alternate within each round (order flipped every round) and each round gives
one ratio of messages per CPU-second, ours / bare; the min and median are reported. CPU
seconds, not wall time, are compared: the machine is shared.
"""
from __future__ import annotations

import argparse
import json
import lzma
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ARCHIVE = os.path.join(ROOT, "..", "shared", "data", "virtualization-list.mbox.xz")


def _cpu_seconds() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def run_reader(path: str, passes: int, limit: int, prescan: bool, closed: bool = False) -> dict:
    """Only the reader: iter_messages with or without the gate, nothing extracted; `closed`,
    the two-level read with a gate that turns every message away (what reading costs)."""
    sys.path.insert(0, ROOT)
    import claims.sources as sources

    if closed:
        sources.might_have_claims = lambda text: False  # type: ignore[assignment]

    count = passed = 0
    for _ in range(passes):
        for n, msg in enumerate(sources.iter_messages(path, prescan=prescan)):
            if limit and n >= limit:
                break
            count += 1
            passed += bool(msg.lines)
    return {"messages": count, "with_lines": passed}


def run_ours(path: str, passes: int, limit: int, prescan: bool, keys_out: str | None) -> dict:
    sys.path.insert(0, ROOT)
    import claims.extract as extract
    import claims.prescan as gate
    import claims.sources as sources

    if not prescan:  # the gate always open, in the reader and in the extractor
        gate.might_have_claims = lambda text: True  # type: ignore[assignment]
        sources.might_have_claims = lambda text: True  # type: ignore[assignment]
    count = claims = failures = found = 0
    keys = open(keys_out, "w") if keys_out else None  # noqa: SIM115
    for _ in range(passes):
        for n, msg in enumerate(sources.iter_messages(path, prescan=True)):
            if limit and n >= limit:
                break
            count += 1
            try:
                ex = extract.extract_message(msg)
            except Exception:  # counted, not fatal: the bench measures speed
                failures += 1
                continue
            claims += len(ex.claims)
            found += bool(ex.claims or ex.commands or ex.setup)
            if keys is not None:
                for c in ex.claims:
                    keys.write(json.dumps(["claim", n, msg.message_id, c.metric, list(c.lines),
                                           c.baseline and c.baseline.value, c.candidate and c.candidate.value,
                                           c.claimed_change_pct]) + "\n")
                for cmd in ex.commands:
                    keys.write(json.dumps(["command", n, msg.message_id, cmd.line, cmd.raw]) + "\n")
                for step in ex.setup:
                    keys.write(json.dumps(["setup", n, msg.message_id, step.line, step.raw]) + "\n")
    if keys is not None:
        keys.close()
    return {"messages": count, "claims": claims, "with_findings": found, "failures": failures}


def run_bare(path: str, passes: int, limit: int) -> dict:
    import email
    import mailbox
    from email import policy

    def factory(f):
        return email.message_from_binary_file(f, policy=policy.default)

    count = failures = 0
    for _ in range(passes):
        for n, msg in enumerate(mailbox.mbox(path, factory=factory, create=False)):
            if limit and n >= limit:
                break
            count += 1
            try:
                body = msg.get_body(preferencelist=("plain",))
                if body is not None:
                    body.get_content()
            except Exception:
                failures += 1
    return {"messages": count, "failures": failures}


def child(argv: list[str]) -> int:
    side, path, passes, limit, keys = argv[0], argv[1], int(argv[2]), int(argv[3]), argv[4] or None
    cpu0, wall0 = _cpu_seconds(), time.perf_counter()
    if side == "bare":
        result = run_bare(path, passes, limit)
    elif side in ("read", "gate", "closed"):
        result = run_reader(path, passes, limit, prescan=side != "read", closed=side == "closed")
    else:
        result = run_ours(path, passes, limit, prescan=side == "ours", keys_out=keys)
    result["cpu_seconds"] = _cpu_seconds() - cpu0
    result["seconds"] = time.perf_counter() - wall0
    result["cpu_rate"] = result["messages"] / result["cpu_seconds"] if result["cpu_seconds"] else 0.0
    result["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print(json.dumps(result))
    return 0


def compile_bytecode() -> None:
    """The project's modules compiled to their cached bytecode, as an install leaves them
    (compileall writes it whatever PYTHONDONTWRITEBYTECODE says; a module already compiled
    and unchanged since is left alone)."""
    import compileall

    compileall.compile_dir(os.path.join(ROOT, "claims"), quiet=1)


def spawn(side: str, path: str, passes: int = 1, limit: int = 0, keys: str = "") -> dict:
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", side, path,
                          str(passes), str(limit), keys], capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"{side} failed: {out.stderr.strip()[-800:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


KINDS = {"claim": "claims", "command": "commands", "setup": "setup steps"}


def _found_keys(path: str) -> dict[str, set[tuple]]:
    """What one run found, by kind (claims, commands, setup steps), each as a set of keys."""
    found: dict[str, set[tuple]] = {kind: set() for kind in KINDS}
    with open(path) as f:
        for line in f:
            kind, *key = json.loads(line)
            found[kind].add(tuple(json.dumps(x) for x in key))
    return found


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        return child(sys.argv[2:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mbox", default=ARCHIVE)
    ap.add_argument("--rounds", type=int, default=3, help="interleaved A/B rounds (default 3)")
    ap.add_argument("--limit", type=int, default=0, help="messages per pass (0: all)")
    ap.add_argument("--skip-checks", action="store_true",
                    help="only the A/B rounds: no claim comparison, no 2x-archive run")
    ap.add_argument("--stages", action="store_true",
                    help="also the CPU-seconds of the reader alone and of the read with the gate")
    args = ap.parse_args()
    if not os.path.exists(args.mbox):
        print(f"error: {args.mbox} not found", file=sys.stderr)
        return 1
    compile_bytecode()
    tmpdir = tempfile.mkdtemp(prefix="extract-bench-")
    try:
        plain = args.mbox
        if args.mbox.endswith(".xz"):
            plain = os.path.join(tmpdir, "archive.mbox")
            with lzma.open(args.mbox) as src, open(plain, "wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
        ratios: list[float] = []
        ours_runs: list[dict] = []
        bare_runs: list[dict] = []
        for r in range(args.rounds):
            order = ("bare", "ours") if r % 2 == 0 else ("ours", "bare")
            got = {side: spawn(side, plain, 1, args.limit) for side in order}
            bare_runs.append(got["bare"])
            ours_runs.append(got["ours"])
            ratio = got["ours"]["cpu_rate"] / got["bare"]["cpu_rate"]
            ratios.append(ratio)
            print(f"round {r + 1}: ours {got['ours']['cpu_rate']:.0f} msg/CPU-s "
                  f"({got['ours']['cpu_seconds']:.1f} CPU-s), bare {got['bare']['cpu_rate']:.0f} msg/CPU-s "
                  f"({got['bare']['cpu_seconds']:.1f} CPU-s): {ratio:.2f}x", flush=True)
        print(f"ratio ours/bare per CPU-second over {args.rounds} rounds: "
              f"min {min(ratios):.2f}x, median {statistics.median(ratios):.2f}x")
        o, b = ours_runs[-1], bare_runs[-1]
        print(f"messages {o['messages']}, claims {o['claims']} in {o['with_findings']} messages with "
              f"findings, extract failures {o['failures']}, bare failures {b['failures']}")
        print(f"peak RSS 1x: ours {max(x['peak_rss_mb'] for x in ours_runs):.1f} MiB, "
              f"bare {max(x['peak_rss_mb'] for x in bare_runs):.1f} MiB")
        if args.stages:
            full = spawn("read", plain, 1, args.limit)
            closed = spawn("closed", plain, 1, args.limit)
            gated = spawn("gate", plain, 1, args.limit)
            print(f"stages (CPU-s): read every message {full['cpu_seconds']:.1f}, two-level read "
                  f"with the gate closed {closed['cpu_seconds']:.1f}, with the gate "
                  f"{gated['cpu_seconds']:.1f} ({gated['with_lines']} messages given lines), extract "
                  f"{o['cpu_seconds']:.1f}, bare {b['cpu_seconds']:.1f}; so the gate ~"
                  f"{gated['cpu_seconds'] - closed['cpu_seconds']:.1f}, the stages and output ~"
                  f"{o['cpu_seconds'] - gated['cpu_seconds']:.1f}")
        if args.mbox != plain:
            xz = spawn("ours", args.mbox, 1, args.limit)
            print(f"ours from the .xz: {xz['cpu_rate']:.0f} msg/CPU-s "
                  f"({xz['cpu_rate'] / statistics.median(x['cpu_rate'] for x in bare_runs):.2f}x the "
                  f"median bare run), peak RSS {xz['peak_rss_mb']:.1f} MiB")
        if args.skip_checks:
            return 0
        with_keys, without_keys = os.path.join(tmpdir, "with.jsonl"), os.path.join(tmpdir, "without.jsonl")
        spawn("ours", plain, 1, args.limit, with_keys)
        off = spawn("open", plain, 1, args.limit, without_keys)
        got, want = _found_keys(with_keys), _found_keys(without_keys)
        for kind in KINDS:
            print(f"{KINDS[kind]} without the pre-scan {len(want[kind])}, with it {len(got[kind])}: "
                  f"lost {len(want[kind] - got[kind])}, extra {len(got[kind] - want[kind])}")
        print(f"ours without the gate: {off['cpu_rate']:.0f} msg/CPU-s")
        twice = spawn("ours", plain, 2, args.limit)
        print(f"peak RSS 2x archive ({twice['messages']} messages in one run): {twice['peak_rss_mb']:.1f} MiB")
        return 0
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
