"""Every labelled corpus case and seed: the labelled pairs, relative claims and commands are
found, and no changed pair is reported that the labels do not name.

Labels are read from ../shared/corpus at test time, so a new case is tested as soon as it
is added there.
"""
from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from claims.extract import extract_message
from claims.sources import iter_messages

SHARED = Path(__file__).resolve().parents[2] / "shared"
CORPUS = SHARED / "corpus"
CASES = sorted(p.stem for p in CORPUS.glob("*.json")) if CORPUS.is_dir() else []
_PROMPT = re.compile(r"^\s*(?:[\w.@-]+:[^\s#$]*[#$]|[#$])\s+")


def _norm(raw: str) -> str:
    parts = _PROMPT.sub("", raw.strip()).split()
    if parts:
        parts[0] = parts[0].rsplit("/", 1)[-1]
    return " ".join(parts)


def _close(a: float, b: float) -> bool:
    return math.isclose(float(a), float(b), rel_tol=1e-6, abs_tol=1e-9)


def extract_file(path: Path):
    return [extract_message(m) for m in iter_messages(str(path))]


@pytest.mark.skipif(not CASES, reason="../shared/corpus is not present")
@pytest.mark.parametrize("case", CASES)
def test_corpus_case(case: str) -> None:
    label = json.loads((CORPUS / f"{case}.json").read_text())
    found = extract_file(CORPUS / f"{case}.txt")
    claims = [c for ex in found for c in ex.claims]
    pairs = [(c.baseline.value, c.candidate.value) for c in claims if c.baseline and c.candidate]
    left = list(pairs)
    for p in label.get("pairs", []):
        hit = next((x for x in left if _close(x[0], p["baseline"]) and _close(x[1], p["candidate"])), None)
        assert hit is not None, f"{case}: missed pair {p['baseline']} -> {p['candidate']} ({p.get('metric')})"
        left.remove(hit)
    optional = [(o["baseline"], o["candidate"]) for o in label.get("optional", [])]
    extra = [x for x in left if not _close(*x)
             and not any(_close(x[0], o[0]) and _close(x[1], o[1]) for o in optional)]
    assert not extra, f"{case}: pairs the labels do not name: {extra}"
    rel = [c.claimed_change_pct for c in claims if c.baseline is None and c.claimed_change_pct is not None]
    for r in label.get("relative", []):
        g = r["change_pct"]
        assert any(abs(v - g) <= 0.05 * max(1.0, abs(g)) for v in rel), f"{case}: missed relative {g}"
    cmds = {_norm(c.raw) for ex in found for c in ex.commands}
    gold = {_norm(c) for c in label.get("commands", [])}
    assert cmds == gold, f"{case}: commands {sorted(cmds)} != {sorted(gold)}"


@pytest.mark.skipif(not CASES, reason="../shared/corpus is not present")
@pytest.mark.parametrize("seed", sorted((SHARED / "seeds").glob("*.txt")), ids=lambda p: p.name[:3])
def test_seed_matches_its_corpus_case(seed: Path) -> None:
    """The seed files are the s-cases; reading them directly gives the same claims."""
    case = CORPUS / f"s{seed.name[:3]}.txt"
    a = [(c.baseline and c.baseline.value, c.candidate and c.candidate.value)
         for ex in extract_file(seed) for c in ex.claims]
    b = [(c.baseline and c.baseline.value, c.candidate and c.candidate.value)
         for ex in extract_file(case) for c in ex.claims]
    assert a and a == b


@pytest.mark.skipif(not CASES, reason="../shared/corpus is not present")
def test_claims_point_into_the_original_text_and_credit_the_author() -> None:
    ex = extract_file(CORPUS / "s000.txt")[0]
    text = (CORPUS / "s000.txt").read_text().splitlines()
    c = next(c for c in ex.claims if c.metric.startswith("instructions") or "160975944159" in str(c.baseline))
    first, last = c.lines
    assert "160,975,944,159" in text[first - 1] and "138,669,108,882" in text[last - 1]
    assert c.baseline.spread == pytest.approx(0.09) and c.baseline.runs == 10
    assert c.candidate.label == "After" and c.baseline.label == "Before"
    assert c.depth == 2


@pytest.mark.skipif(not CASES, reason="../shared/corpus is not present")
def test_variant_labelled_by_the_setup_value_that_differs() -> None:
    ex = extract_file(CORPUS / "s001.txt")[0]
    rate = next(c for c in ex.claims if c.baseline.value == 9023.86)
    assert rate.baseline.label == "gro_flush_timeout=0"
    assert rate.candidate.label == "gro_flush_timeout=2000"
    assert {s.kind for s in ex.setup} == {"sysfs"}
    assert ex.commands[0].host == "lpaa5" and ex.commands[0].tool == "netperf"
