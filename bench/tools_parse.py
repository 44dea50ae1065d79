"""How fast the tool descriptions read mail text: every tool's find_outputs over the real
list archive, against the bare cost of splitting the same bodies into lines.

    python bench/tools_parse.py [--messages N] [--mbox PATH]

Prints messages, lines, seconds for both passes, lines/s and the blocks each tool found.
The extractor asks every tool about every message with numbers, so this is the price of
the `claims.tools` layer in `verifier extract`.
"""
from __future__ import annotations

import argparse
import collections
import itertools
import lzma
import sys
import time
from collections.abc import Iterator
from email import message_from_bytes
from pathlib import Path

from claims.tools import all_tools

DEFAULT_MBOX = Path(__file__).resolve().parents[2] / "shared" / "data" / \
    "virtualization-list.mbox.xz"


def bodies(path: Path, limit: int) -> Iterator[str]:
    """Plain-text bodies of the first `limit` messages (multipart: the text/plain parts)."""
    opener = lzma.open if path.suffix == ".xz" else open
    n = 0
    msg: list[bytes] = []
    with opener(path, "rb") as f:
        for line in itertools.chain(f, [b"From end"]):  # streamed: never the whole mbox
            if line.startswith(b"From ") and msg:
                m = message_from_bytes(b"".join(msg))
                parts = [p for p in m.walk() if p.get_content_type() == "text/plain"]
                text = ""
                for p in parts:
                    payload = p.get_payload(decode=True)
                    if isinstance(payload, bytes):
                        try:
                            text += payload.decode(p.get_content_charset() or "utf-8",
                                                   "replace")
                        except LookupError:  # a charset name Python does not know
                            text += payload.decode("utf-8", "replace")
                yield text
                n += 1
                if n >= limit:
                    return
                msg = []
            msg.append(line)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--messages", type=int, default=3000)
    ap.add_argument("--mbox", type=Path, default=DEFAULT_MBOX)
    args = ap.parse_args()
    if not args.mbox.exists():
        print(f"error: no mbox at {args.mbox}", file=sys.stderr)
        return 2
    texts = list(bodies(args.mbox, args.messages))
    t0 = time.perf_counter()
    split = [t.splitlines() for t in texts]
    bare = time.perf_counter() - t0
    nlines = sum(len(x) for x in split)
    tools = all_tools()
    found: collections.Counter[str] = collections.Counter()
    t0 = time.perf_counter()
    for lines in split:
        for tool in tools:
            found[tool.name] += len(tool.find_outputs(lines))
    took = time.perf_counter() - t0
    print(f"messages {len(texts)}  lines {nlines}")
    print(f"split only   {bare:8.3f} s")
    print(f"all tools    {took:8.3f} s  {nlines / took:,.0f} lines/s  "
          f"{len(texts) / took:,.0f} messages/s  ({len(tools)} tools)")
    print("blocks found:", dict(found) or "none")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
