"""Claims that only their numbers tell apart take the heading they stand under.

A message that runs one comparison on two machines, or once per lock type, prints the
same metric under the same side labels twice; the readers name each claim from its row
and its sides, and the section that says which machine it is stands further up. A report
or a spec whose claims a maintainer cannot tell apart says less than the mail, so where
claims of one message share metric, context and side labels and differ in their numbers,
each takes its heading at the first rank, counted up from the claims, where their
headings part ("1. Machine configuration" / "2. Machine configuration" above a shared
"Before using the patch"; "Running locktest with spinlock" / "... with rwlock"). Claims
that are told apart already, and every other message, are left as they are.

A heading is a line that starts its paragraph and is not the first line of wrapped prose:
short, not ending a sentence, not continued by a line in lower case.
"""
from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence

from claims.blocks import SENTENCE_INSIDE
from claims.grid import word_count
from claims.model import Claim, Line

HEADING_REACH = 40  # lines above a claim's first line a heading is looked for in
HEADING_WORDS = 10  # words (not symbols) a heading holds at most
_GAP = re.compile(r"\S {3,}\S")  # columns


def tell_apart(claims: Sequence[Claim], lines: Sequence[Line]) -> None:
    """Give each claim of a group only its numbers tell apart its heading at the first
    rank, counted up from the claims, where the group's headings differ (as, or after,
    its context)."""
    groups: dict[tuple, list[Claim]] = defaultdict(list)
    for c in claims:
        if c.baseline is not None and c.candidate is not None:
            groups[(c.metric, c.context, c.baseline.label, c.candidate.label)].append(c)
    index: dict[int, int] = {}
    for group in groups.values():
        if len(group) < 2 or len({(c.baseline.value, c.candidate.value) for c in group  # type: ignore[union-attr]
                                  }) < 2:
            continue
        if not index:
            for i, ln in enumerate(lines):
                index.setdefault(ln.number, i)
        chains = [_headings(lines, index.get(c.lines[0])) for c in group]
        owns = _first_apart(chains)
        for c, own in zip(group, owns, strict=True):
            if own is not None:
                c.context = f"{c.context}: {own}" if c.context else own


def _first_apart(chains: list[list[str]]) -> list[str | None]:
    """Each chain's heading at the first rank where the chains differ: the sections one
    level up from where they part ("Before using the patch" under "1. Machine ..." and
    under "2. Machine ...": the machines; "... with spinlock" and "... with rwlock": those)."""
    for k in range(max(len(chain) for chain in chains)):
        at = [chain[k] if k < len(chain) else None for chain in chains]
        if len(set(at)) > 1:
            return at
    return [None] * len(chains)


def _headings(lines: Sequence[Line], at: int | None) -> list[str]:
    """The headings above line `at` at its quote depth, nearest first."""
    if at is None:
        return []
    depth = lines[at].depth
    out: list[str] = []
    for i in range(at - 1, max(-1, at - 1 - HEADING_REACH), -1):
        if lines[i].depth != depth:
            break
        if _is_heading(lines, i):
            out.append(lines[i].text.strip().rstrip(":").strip())
    return out


def _is_heading(lines: Sequence[Line], i: int) -> bool:
    text = lines[i].text.strip()
    if not text or not any(ch.isalpha() for ch in text) or text.endswith((".", ",", ";")):
        return False
    if i > 0 and lines[i - 1].text.strip() and lines[i - 1].depth == lines[i].depth:
        return False  # inside a paragraph
    if word_count(text) > HEADING_WORDS or SENTENCE_INSIDE.search(text) or text.count("(") > text.count(")"):
        return False  # long, two sentences, or a bracket the next line closes
    if "|" in text or "\t" in text or _GAP.search(text):
        return False  # cells of a row, not one title
    below = lines[i + 1].text.strip() if i + 1 < len(lines) else ""
    # a wrapped sentence goes on in lower case, or ends on the next line ("Sending" over
    # "1024 length UDP-PDU makes it go from 570kpps to 64 kpps.")
    return not below[:1].islower() and not (below.endswith(".") and len(below.split()) >= 4)
