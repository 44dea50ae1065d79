"""Where the extraction stages spend their time, without the reader and the gate.

    python bench/extract_stages.py --mbox /tmp/arch.mbox              # time the stages
    python bench/extract_stages.py --mbox /tmp/arch.mbox --sample     # and sample where
    python bench/extract_stages.py --mbox /tmp/arch.mbox --dump out.jsonl  # output, to cmp

The messages the gate passes (those the two-level reader gives lines) are read once and
cached, pickled, beside the mbox's name under /tmp (`--cache` to choose); every later run
loads them and times `extract_message` alone over them.  `--sample` runs a sampling
profiler (SIGPROF every 2 ms of CPU): cProfile's per-call cost inflates the stages' small
functions tenfold and misranks them.  `--dump` writes each extraction as one JSON line, so
a performance change can be compared byte for byte with the output before it.
"""
from __future__ import annotations

import argparse
import collections
import copy
import json
import os
import pickle
import signal
import sys
import time
from types import FrameType

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def gated_messages(mbox: str, cache: str) -> list:
    """The messages of `mbox` the gate passes, read once and then from `cache`."""
    if os.path.exists(cache) and os.path.getmtime(cache) >= os.path.getmtime(mbox):
        with open(cache, "rb") as f:
            return pickle.load(f)
    import claims.sources as sources

    msgs = [m for m in sources.iter_messages(mbox, prescan=True) if m.lines]
    with open(cache + ".tmp", "wb") as f:
        pickle.dump(msgs, f, protocol=5)
    os.replace(cache + ".tmp", cache)
    return msgs


class Sampler:
    """Counts, at each SIGPROF, the running function (self) and every function on the stack
    (inclusive), by file, name and first line."""

    def __init__(self, by_line: bool = False) -> None:
        self.by_line = by_line
        self.own: collections.Counter[str] = collections.Counter()
        self.inclusive: collections.Counter[str] = collections.Counter()
        self.total = 0

    @staticmethod
    def _key(frame: FrameType) -> str:
        code = frame.f_code
        return f"{code.co_filename.rsplit('/', 2)[-1]}:{code.co_name}:{code.co_firstlineno}"

    def _tick(self, _sig: int, frame: FrameType | None) -> None:
        self.total += 1
        if frame is not None:
            key = self._key(frame)
            self.own[f"{key}@{frame.f_lineno}" if self.by_line else key] += 1
        seen: set[str] = set()
        while frame is not None:
            key = self._key(frame)
            if key not in seen:
                seen.add(key)
                self.inclusive[key] += 1
            frame = frame.f_back

    def start(self) -> None:
        signal.signal(signal.SIGPROF, self._tick)
        signal.setitimer(signal.ITIMER_PROF, 0.002, 0.002)

    def stop(self) -> None:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)

    def report(self, top: int) -> str:
        out = [f"{self.total} samples", "== self"]
        out += [f"{100 * n / self.total:5.1f}% {k}" for k, n in self.own.most_common(top)]
        out.append("== inclusive")
        out += [f"{100 * n / self.total:5.1f}% {k}" for k, n in self.inclusive.most_common(top)]
        return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mbox", default="/tmp/arch.mbox")
    ap.add_argument("--cache", help="where the gated messages are pickled (default: /tmp/<mbox name>.gated.pkl)")
    ap.add_argument("--sample", action="store_true", help="sample where the time goes")
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--lines", action="store_true", help="with --sample: rank self time by source line")
    ap.add_argument("--dump", help="write each extraction as a JSON line here")
    args = ap.parse_args()
    sys.path.insert(0, ROOT)
    import claims.extract as extract

    cache = args.cache or os.path.join("/tmp", os.path.basename(args.mbox) + ".gated.pkl")
    msgs = gated_messages(args.mbox, cache)
    sampler = Sampler(args.lines) if args.sample else None
    if sampler is not None:
        sampler.start()
    started = time.process_time()
    out = []
    for msg in msgs:
        m = copy.copy(msg)  # extraction may add warnings: the cached message stays as read
        m.warnings = list(msg.warnings)
        out.append(extract.extract_message(m))
    spent = time.process_time() - started
    if sampler is not None:
        sampler.stop()
    print(f"{len(msgs)} gated messages, {sum(len(e.claims) for e in out)} claims, stages {spent:.2f} CPU-s")
    if sampler is not None:
        print(sampler.report(args.top))
    if args.dump:
        with open(args.dump, "w") as f:
            for e in out:
                f.write(json.dumps(e.to_dict(), sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
