"""What the gate (claims.prescan.might_have_claims) costs over an archive, against a reference.

    python bench/gate_cost.py                       # 3 interleaved rounds against main's gate
    python bench/gate_cost.py --ref HEAD~1 --rounds 5
    python bench/gate_cost.py --parts               # and what each of its parts costs
    python bench/gate_cost.py --repeats             # and what a memo of quoted paragraphs could save
    python bench/gate_cost.py --sizes               # and the gate's CPU by text size

The texts the two-level reader hands the gate (claims.sources, prescan=True) are recorded
once, over the whole mbox, and pickled under /tmp (`--cache`); every later run loads them,
so the gate alone is timed, not the reading. The reference is another commit's
claims/prescan.py (`git show REF:claims/prescan.py`) loaded as its own module beside the
worktree's; both use the same extractor modules. The two gates alternate within each round
(order flipped every round); CPU seconds are reported, min and median, and the sets of
texts each passes must be identical (the differences are printed otherwise). `--parts`
times each cue and finder of the worktree's gate alone over every text (as if each ran on
all of them), the worded pairs by the source of their positions (from/to, sided numbers,
each worded cue: positions, paragraphs asked of the readers), and samples where the gate's
own path spends its time. `--repeats` bounds a
lever not built: replies quote their parents, so the gate reads most paragraphs a second
time; it times the gate over each text without the paragraphs an earlier text already held
(compared with their quote markers, then without), an upper bound on what a memo of the
gate's verdict per paragraph could save, and counts the texts that pass only by a
paragraph seen before (a memo would have to pass those: their claims are quoted ones).
`--sizes` times the gate on each text and sums by the text's size (a power of ten of
characters): whether a few long texts cost it or the many ordinary ones, where only fewer
scans of each text would help.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import pickle
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from types import ModuleType

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def recorded_texts(mbox: str, cache: str) -> list[str]:
    """The texts the gate is asked about while `mbox` is read, recorded once into `cache`."""
    if os.path.exists(cache) and os.path.getmtime(cache) >= os.path.getmtime(mbox):
        with open(cache, "rb") as f:
            return pickle.load(f)
    import claims.sources as sources

    texts: list[str] = []
    real = sources.might_have_claims

    def record(text: str) -> bool:
        texts.append(text)
        return real(text)

    sources.might_have_claims = record  # type: ignore[assignment]
    try:
        for _ in sources.iter_messages(mbox, prescan=True):
            pass
    finally:
        sources.might_have_claims = real  # type: ignore[assignment]
    with open(cache + ".tmp", "wb") as f:
        pickle.dump(texts, f, protocol=5)
    os.replace(cache + ".tmp", cache)
    return texts


def reference_gate(ref: str) -> ModuleType:
    """claims/prescan.py as it is at commit `ref`, loaded as the module `prescan_ref`."""
    source = subprocess.run(["git", "-C", ROOT, "show", f"{ref}:claims/prescan.py"],
                            capture_output=True, text=True, check=True).stdout
    spec = importlib.util.spec_from_loader("prescan_ref", loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["prescan_ref"] = module
    exec(compile(source, f"{ref}:claims/prescan.py", "exec"), module.__dict__)  # noqa: S102
    return module


def timed(gate: Callable[[str], bool], texts: list[str]) -> tuple[float, list[bool]]:
    started = time.process_time()
    passed = [gate(t) for t in texts]
    return time.process_time() - started, passed


def parts(texts: list[str], top: int) -> None:
    """Each part of the worktree's gate timed alone over every text, then a sampled run."""
    import claims.prescan as p
    from bench.extract_stages import Sampler

    started = time.process_time()
    read = [p._with_unflattened(p.readable(t)) for t in texts]
    print(f"  readable + unflatten: {time.process_time() - started:6.2f} CPU-s")
    # each cue as the gate looks for it: split by first character, or at the number starts
    # (found anew for each such cue here, once a text in the gate)
    found = getattr(p, "_cue_found", lambda k, t: p._CUES[k].search(t) is not None)
    steps: dict[str, Callable[[str], object]] = {
        f"cue {k}": (lambda t, k=k: found(k, t)) for k in range(len(p._CUES))}
    for name in ("_paired_cells", "_repeated_keys", "_states_change", "_worded_pair", "_has_command",
                 "_measures_read"):
        if hasattr(p, name):
            steps[name] = getattr(p, name)
    for name, step in steps.items():
        started = time.process_time()
        hits = sum(1 for t in read if step(t))
        print(f"  {name:22} {time.process_time() - started:6.2f} CPU-s, true for {hits}")
    worded(p, read)
    sampler = Sampler()
    sampler.start()
    for t in texts:
        p.might_have_claims(t)
    sampler.stop()
    print(sampler.report(top))


def worded(p: ModuleType, read: list[str]) -> None:
    """_worded_pair by where its positions come from (from/to, sided numbers, each worded
    cue), each source alone over every text with a digit: the positions it yields, the
    paragraphs it has the extractor's readers asked about (their answers kept as the gate
    keeps them) and the CPU of finding and asking. The readers' cost follows the asks."""
    if not all(hasattr(p, n) for n in ("_from_to", "_sided_numbers", "_in_a_paragraph", "_pairs_in")):
        return
    digits = [t for t in read if p._DIGIT.search(t)]
    sources: dict[str, Callable[[str], Iterable[int]]] = {"from/to": p._from_to, "sided numbers": p._sided_numbers}
    for k in range(p._WORDED, len(p._CUES)):
        sources[f"cue {k}"] = partial(starts, p._CUES[k])
    for name, source in sources.items():
        p._pairs_ranked.cache_clear()
        asked: list[str] = []

        def ask(raw: str, asked: list[str] = asked) -> bool:
            asked.append(raw)
            return bool(p._pairs_in(raw))

        started = time.process_time()
        positions = sum(1 for t in digits for _ in source(t))
        found = time.process_time() - started
        started = time.process_time()
        hits = sum(1 for t in digits if p._in_a_paragraph(t, source(t), ask))
        cpu = time.process_time() - started
        kept = p._pairs_ranked.cache_info()
        print(f"    worded pair by {name:14} {positions:6d} positions ({found:5.2f} CPU-s to find), "
              f"{len(asked):5d} paragraphs asked ({kept.misses} read, {kept.hits} kept), "
              f"{cpu:5.2f} CPU-s with the asks, true for {hits}")


def starts(pattern: re.Pattern[str], text: str) -> Iterator[int]:
    return (m.start() for m in pattern.finditer(text))


def unseen_paragraphs(texts: list[str], strip_quotes: bool) -> list[str]:
    """Each text without the paragraphs some earlier text held (by exact text, or with the
    quote markers and the indentation before them stripped). Paragraphs end where the gate's
    own readers end them (claims.prescan._PARAGRAPH_END)."""
    from claims.prescan import _PARAGRAPH_END

    seen: set[str] = set()
    out = []
    for text in texts:
        keep = []
        pos = 0
        # each paragraph with the separator after it ("\n>\n" in a quote), kept as it was
        for end in [*_PARAGRAPH_END.finditer(text), None]:
            para, sep = (text[pos:end.start()], end.group()) if end else (text[pos:], "")
            pos = end.end() if end else pos
            key = "\n".join(ln.lstrip("> \t") for ln in para.split("\n")).strip() if strip_quotes else para
            if key.strip() and key in seen:
                continue
            seen.add(key)
            keep.append(para + sep)
        out.append("".join(keep))
    return out


def repeats(texts: list[str], passed: list[bool]) -> None:
    """The gate over the texts and over their unseen paragraphs alone, side by side."""
    import claims.prescan as p

    whole, _ = timed(p.might_have_claims, texts)
    for strip_quotes in (False, True):
        fresh = unseen_paragraphs(texts, strip_quotes)
        share = 1 - sum(map(len, fresh)) / max(1, sum(map(len, texts)))
        cpu, fresh_passed = timed(p.might_have_claims, fresh)
        whole_again, _ = timed(p.might_have_claims, texts)
        by_seen = sum(1 for a, b in zip(passed, fresh_passed, strict=True) if a and not b)
        how = "quote markers stripped" if strip_quotes else "exact text"
        print(f"  paragraphs seen before ({how}): {share:.0%} of the characters; the gate over the "
              f"rest {cpu:.2f} CPU-s against {(whole + whole_again) / 2:.2f} over the whole texts "
              f"({cpu / ((whole + whole_again) / 2):.2f}); {by_seen} of {sum(passed)} passing texts "
              "pass only by a paragraph seen before")
        whole = whole_again


def sizes(texts: list[str]) -> None:
    """The gate's CPU over the texts, by their size in characters (powers of ten)."""
    import claims.prescan as p

    rows: dict[int, list[float]] = {}  # size class: texts, characters, CPU-s, passed
    for text in texts:
        started = time.process_time()
        passed = p.might_have_claims(text)
        cpu = time.process_time() - started
        row = rows.setdefault(len(str(len(text))) - 1, [0, 0, 0.0, 0])
        row[0] += 1
        row[1] += len(text)
        row[2] += cpu
        row[3] += passed
    total = sum(r[2] for r in rows.values()) or 1.0
    for k, (n, chars, cpu, ok) in sorted(rows.items()):
        print(f"  {10 ** k:>9,}+ chars: {int(n):6d} texts, {chars / 1e6:6.1f} M chars, {cpu:6.2f} CPU-s "
              f"({cpu / total:4.0%}), {cpu / n * 1e6:6.0f} us a text, {int(ok)} pass")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mbox", default="/tmp/arch.mbox")
    ap.add_argument("--cache", help="where the recorded texts are pickled (default: /tmp/<mbox>.gate-texts.pkl)")
    ap.add_argument("--ref", default="main", help="the commit whose gate is the reference (default main)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--parts", action="store_true", help="time each cue and finder, and sample")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--repeats", action="store_true", help="bound a memo of paragraphs seen before")
    ap.add_argument("--sizes", action="store_true", help="the gate's CPU by text size")
    args = ap.parse_args()
    if args.rounds < 1:
        ap.error("--rounds must be at least 1: the gates are compared over whole rounds")
    sys.path.insert(0, ROOT)
    import claims.prescan as ours

    cache = args.cache or os.path.join("/tmp", os.path.basename(args.mbox) + ".gate-texts.pkl")
    texts = recorded_texts(args.mbox, cache)
    ref = reference_gate(args.ref)
    print(f"{len(texts)} texts recorded from {args.mbox}")
    spent: dict[str, list[float]] = {"ref": [], "ours": []}
    passes: dict[str, list[bool]] = {}
    gates = {"ref": ref.might_have_claims, "ours": ours.might_have_claims}
    for r in range(args.rounds):
        for side in (("ref", "ours") if r % 2 == 0 else ("ours", "ref")):
            cpu, passes[side] = timed(gates[side], texts)
            spent[side].append(cpu)
        print(f"round {r + 1}: ref {spent['ref'][-1]:.2f} CPU-s, ours {spent['ours'][-1]:.2f} CPU-s", flush=True)
    med = {side: statistics.median(v) for side, v in spent.items()}
    print(f"median ref {med['ref']:.2f} CPU-s (min {min(spent['ref']):.2f}), ours {med['ours']:.2f} "
          f"(min {min(spent['ours']):.2f}): {med['ref'] / med['ours']:.2f}x less CPU")
    only_ref = [k for k, (a, b) in enumerate(zip(passes["ref"], passes["ours"], strict=True)) if a and not b]
    only_ours = [k for k, (a, b) in enumerate(zip(passes["ref"], passes["ours"], strict=True)) if b and not a]
    print(f"passed: ref {sum(passes['ref'])}, ours {sum(passes['ours'])}; only ref {len(only_ref)} "
          f"{only_ref[:20]}, only ours {len(only_ours)} {only_ours[:20]}")
    if args.parts:
        parts(texts, args.top)
    if args.repeats:
        repeats(texts, passes["ours"])
    if args.sizes:
        sizes(texts)
    return 0 if not only_ours and not only_ref else 1


if __name__ == "__main__":
    sys.exit(main())
