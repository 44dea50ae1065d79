"""Score the extractor, in process, against a folder of labelled cases (NAME.txt + NAME.json,
the conventions of ../shared/corpus/README.md): pooled pairs precision/recall/F1, the
per-case mean F1, stated-change recall and commands F1.

Why a score and not per-case expectations: the corpus is judged as a whole (a floor that
only rises), so a general model that trades one odd case for ten right ones passes, and
a rule that names one case's words buys nothing.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from claims.extract import extract_message
from claims.sources import iter_messages

_PROMPT = re.compile(r"^\s*(?:[\w.@-]+:[^\s#$]*[#$]|[#$])\s+")
_SPLIT = re.compile(r"\s*(?:;|&&|\|\||\|)\s*")


def norm_command(raw: str) -> str:
    """Prompt stripped, whitespace folded, the program path reduced to its name."""
    parts = _PROMPT.sub("", raw.strip()).split()
    if parts:
        parts[0] = parts[0].rsplit("/", 1)[-1]
    return " ".join(parts)


def _forms(raw: str) -> set[str]:
    """A labelled command, and each part of a compound line (`a; b | c`)."""
    parts = [p for p in _SPLIT.split(raw) if p.strip()]
    return ({norm_command(raw)} | {norm_command(p) for p in parts}) - {""}


def _close(a: float, b: float) -> bool:
    return math.isclose(float(a), float(b), rel_tol=1e-6, abs_tol=1e-9)


def _f1(p: float, r: float) -> float:
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


@dataclass
class Score:
    cases: int = 0
    tp: int = 0
    fp: int = 0
    gold: int = 0
    rel_hit: int = 0
    rel_gold: int = 0
    ctp: int = 0
    cfp: int = 0
    cgold: int = 0
    case_f1: list[float] = field(default_factory=list)
    misses: dict[str, str] = field(default_factory=dict)

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / self.gold if self.gold else 1.0

    @property
    def pairs_f1(self) -> float:
        return _f1(self.precision, self.recall)

    @property
    def case_mean(self) -> float:
        return sum(self.case_f1) / len(self.case_f1) if self.case_f1 else 0.0

    @property
    def commands_f1(self) -> float:
        p = self.ctp / (self.ctp + self.cfp) if self.ctp + self.cfp else 0.0
        r = self.ctp / self.cgold if self.cgold else 1.0
        return _f1(p, r)

    @property
    def relative_recall(self) -> float:
        return self.rel_hit / self.rel_gold if self.rel_gold else 1.0

    def summary(self) -> str:
        return (f"pairs F1 {self.pairs_f1:.3f} (P {self.precision:.3f} R {self.recall:.3f}, "
                f"{self.tp}/{self.gold}; per-case mean {self.case_mean:.3f}) relative R "
                f"{self.relative_recall:.3f} commands F1 {self.commands_f1:.3f} cases {self.cases}")


def _match_pairs(pred: list[tuple[float, float]], gold: list[tuple[float, float]],
                 optional: list[tuple[float, float]]) -> tuple[int, int]:
    """Greedy one-to-one; an optional label or an unchanged value is neutral."""
    left, opt = list(gold), list(optional)
    tp = fp = 0
    for p in pred:
        for pool in (left, opt):
            hit = next((g for g in pool if _close(p[0], g[0]) and _close(p[1], g[1])), None)
            if hit is not None:
                pool.remove(hit)
                tp += pool is left
                break
        else:
            fp += not _close(*p)
    return tp, fp


def score_case(score: Score, text: Path, label: dict) -> None:
    found = [extract_message(m) for m in iter_messages(str(text))]
    claims = [c for ex in found for c in ex.claims]
    pred = [(c.baseline.value, c.candidate.value) for c in claims
            if c.baseline and c.candidate and c.baseline.value is not None
            and c.candidate.value is not None]
    gold = [(p["baseline"], p["candidate"]) for p in label.get("pairs", [])]
    optional = [(p["baseline"], p["candidate"]) for p in label.get("optional", [])]
    tp, fp = _match_pairs(pred, gold, optional)
    score.cases += 1
    score.tp += tp
    score.fp += fp
    score.gold += len(gold)
    if gold:
        p = tp / (tp + fp) if tp + fp else 0.0
        score.case_f1.append(_f1(p, tp / len(gold)))
    rel = [c.claimed_change_pct for c in claims
           if c.baseline is None and c.claimed_change_pct is not None]
    for r in label.get("relative", []):
        g = r.get("change_pct")
        if g is None:
            continue
        score.rel_gold += 1
        hit = next((v for v in rel if abs(v - g) <= 0.05 * max(1.0, abs(g))), None)
        if hit is not None:
            rel.remove(hit)
            score.rel_hit += 1
    cmds = sorted({norm_command(c.raw) for ex in found for c in ex.commands} - {""})
    left = list(dict.fromkeys(norm_command(c) for c in label.get("commands", [])))
    score.cgold += len(left)
    for c in cmds:
        hit = next((g for g in left if c in _forms(g)), None)
        if hit is None:
            score.cfp += 1
        else:
            left.remove(hit)
            score.ctp += 1
    if tp != len(gold) or fp:
        score.misses[text.stem] = f"{tp}/{len(gold)} pairs, {fp} wrong"


def score_folder(folder: Path, only: set[str] | None = None) -> Score:
    score = Score()
    for label_path in sorted(folder.glob("*.json")):
        text = label_path.with_suffix(".txt")
        if text.exists() and (only is None or label_path.stem in only):
            score_case(score, text, json.loads(label_path.read_text()))
    return score
