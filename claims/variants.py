"""Which side of a comparison a label names: the baseline or a candidate.

Authors name the two sides in many ways ("Before:", "old bonding", "net-next", "Original",
"pre", "unpatched", "off" / "After:", "patch 3", "with the series", "enabled").  The cues
live in one scored lexicon (`claims.lexicon`); this module keeps the yes/no questions the
stages ask of it: `role` reads a label, `pick_baseline` chooses the baseline among several
labels (the lowest score, else the first), so every other variant is paired with it.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from claims.lexicon import (
    BASELINE_AT,
    CANDIDATE_AT,
    Cue,
    baseline_index,
    contrasted,
    cue,
    decided,
    rank,
)

__all__ = ["BASELINE_AT", "CANDIDATE_AT", "Cue", "baseline_index", "clean_label", "contrasted", "cue", "decided",
           "is_variant_label", "names_both_sides", "pick_baseline", "rank", "role", "shared_subject"]


@lru_cache(maxsize=4096)
def role(label: str | None) -> str | None:
    """'baseline', 'candidate' or None for a label such as 'Before:' or 'after #3' (the
    lexicon's score, `claims.lexicon.cue`, read against its two thresholds)."""
    return cue(label).role


def is_variant_label(label: str | None) -> bool:
    return role(label) is not None


def pick_baseline(labels: Sequence[str | None], subject: str | None = None) -> int:
    """Index of the baseline among `labels`: the one the lexicon scores lowest (its own
    words, then what the labels say of each other and of the patch `subject`); ties go
    to the first printed."""
    return baseline_index(labels, subject)


_SPACES = re.compile(r"\s+")
_LEAD = re.compile(r"^(?:[-*•>=\s]|#+(?=\s))+")  # bullets, quote marks, markdown's "### "


def clean_label(text: str) -> str:
    """A label as a reader would say it: bullets, colons and extra spaces removed."""
    t = _SPACES.sub(" ", text[:200]).strip()
    t = _LEAD.sub("", t)
    return t.rstrip(":").strip()


_CELLS = re.compile(r"\s{2,}|\t|\|")


def names_both_sides(text: str) -> bool:
    """True for a column header such as "Before   After" (not a row label)."""
    t = text[:200]
    parts = [p for p in _CELLS.split(t) if p.strip()]
    if len(parts) < 2:
        if role(t) is not None:  # "before the patch" is one label, not two cells
            return False
        parts = t.split()
    roles = {role(p) for p in parts}
    return "baseline" in roles and "candidate" in roles


_ROLE_WORDS = re.compile(r"(?i)\b(?:before|after|old|new|without|with|the|(?:un-?)?patch(?:es|ed|set)?|"
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
