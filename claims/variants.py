"""Which side of a comparison a label names: the baseline or a candidate.

Authors name the two sides in many ways ("Before:", "old bonding", "net-next", "Original",
"pre", "copy mode", "unpatched" / "After:", "patch 3", "with the series").  `role` reads a
label; `pick_baseline` chooses the baseline among several labels (the one named so, else
the first), so every other variant is paired with it.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

_BASELINE = re.compile(
    r"(?i)(?:\bbefore\b|\bold\b|\boriginal\b|\borig\b|\bwithout\b|\bw/o\b|\bbase\b|\bbaseline\b|"
    r"\b(?:net|bpf|mm|linux|tip|wireless|rdma|drm)-next\b|\bunpatched\b|\bun-patched\b|\bvanilla\b|\bstock\b|\bmainline\b|"
    r"\bupstream\b|\bpre\b|\bprev(?:ious)?\b|\breference\b|^copy$|\bcopy mode\b|\bmaster\b|\bparent\b|"
    r"-next-\d|\bno patch\b|\bbase-?line\b|\bunmodified\b)"
)
_CANDIDATE = re.compile(
    r"(?i)(?:\bafter\b|\bnew\b|\bpatched\b|\bwith\b|\bw/\B|\bpost\b|\bpatch(?:es|set)?\b|"
    r"\bseries\b|\bfix(?:ed)?\b|\bproposed\b|\boptimi[sz]ed\b|\bbatch\b|\bzero-?copy\b|"
    r"\bthis\b|#\d|\bmodified\b)"
)
_NEGATED_CANDIDATE = re.compile(r"(?i)\b(?:without|w/o|no|un)[ -]?(?:the )?(?:patch|change|fix|series)")


@lru_cache(maxsize=4096)
def role(label: str | None) -> str | None:
    """'baseline', 'candidate' or None for a label such as 'Before:' or 'after #3'."""
    if not label:
        return None
    text = label[:200]
    if _NEGATED_CANDIDATE.search(text) or _BASELINE.search(text):
        # "after" wins over "before the change"? No: a label naming both is read by its
        # first variant word ("after reverting" is rare; "before the change" common).
        b = _BASELINE.search(text)
        c = _CANDIDATE.search(text)
        if c is not None and b is not None and c.start() < b.start() and not _NEGATED_CANDIDATE.search(text):
            return "candidate"
        return "baseline"
    if _CANDIDATE.search(text):
        return "candidate"
    return None


def is_variant_label(label: str | None) -> bool:
    return role(label) is not None


def pick_baseline(labels: Sequence[str | None]) -> int:
    """Index of the baseline among `labels`: the first named as one, else the first."""
    for i, lab in enumerate(labels):
        if role(lab) == "baseline":
            return i
    return 0


_SPACES = re.compile(r"\s+")
_LEAD = re.compile(r"^[-*•>=\s]+")


def clean_label(text: str) -> str:
    """A label as a reader would say it: bullets, colons and extra spaces removed."""
    t = _SPACES.sub(" ", text[:200]).strip()
    t = _LEAD.sub("", t)
    return t.rstrip(":").strip()


def names_both_sides(text: str) -> bool:
    """True for a column header such as "Before   After" (not a row label)."""
    t = text[:200]
    return _BASELINE.search(t) is not None and _CANDIDATE.search(t) is not None


_ROLE_WORDS = re.compile(r"(?i)\b(?:before|after|old|new|without|with|the|patch(?:es|ed|set)?|"
                         r"series|change|fix(?:ed)?)\b")


def shared_subject(labels: Sequence[str | None]) -> str | None:
    """What the labels name once their variant words are dropped: "RxIRQs before" and
    "RxIRQs after" (or just "after") -> "RxIRQs", the metric the values are of; None when
    they name different things or nothing is left."""
    rest = {" ".join(_ROLE_WORDS.sub(" ", lab or "").split()).strip(" ,;-()") for lab in labels}
    rest.discard("")  # "Rx IRQs before: 1, after: 2": the later labels are the bare word
    if len(rest) != 1:
        return None
    (only,) = rest
    return only if only and len(only) <= 40 and any(ch.isalpha() for ch in only) else None
