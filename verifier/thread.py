"""A thread as a reply tree, and claims attributed across it.

The tree comes from In-Reply-To, then References (the nearest known ancestor), then, for
archives that show neither, the subject: a "Re:" message hangs under the earliest earlier
message with the same subject. Claims: replies quote the numbers they discuss, so the
same claim shows up in several messages. `attribute_claims` keeps each claim once, credited
to the message that first made it, and lists later messages that answer it (they quote
the claim itself or the lines it was read from) as its discussion.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC
from email.utils import parsedate_to_datetime
from typing import Any

from claims.model import Claim, Extraction, Message

_REPLY_PREFIX = re.compile(r"^\s*((re|fwd?|aw|sv|antw)\s*(\[\d+\])?\s*:\s*)+", re.I)


def normalize_subject(subject: str | None) -> str:
    """'Re: RE:  [PATCH] x' -> '[patch] x' (reply prefixes off, case and spaces folded)."""
    s = _REPLY_PREFIX.sub("", subject or "")
    return " ".join(s.split()).lower()


def is_reply_subject(subject: str | None) -> bool:
    return bool(_REPLY_PREFIX.match(subject or ""))


def date_seconds(date: str | None) -> float:
    """Seconds since the epoch of a Date header; +inf when it cannot be read (sorts last)."""
    try:
        dt = parsedate_to_datetime(date or "")
    except (TypeError, ValueError, IndexError):
        return float("inf")
    if dt is None:
        return float("inf")
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return dt.timestamp()


def message_time(msg: Message) -> float:
    return date_seconds(msg.date)


@dataclass(eq=False)
class Node:
    """One message in the tree. `linked_by` says how its parent was found."""

    message: Message
    key: str
    parent: Node | None = None
    children: list[Node] = field(default_factory=list)
    linked_by: str = "root"  # root | in-reply-to | references | subject

    @property
    def depth(self) -> int:
        d, p = 0, self.parent
        while p is not None:
            d, p = d + 1, p.parent
        return d

    def ancestors(self) -> Iterator[Node]:
        p = self.parent
        while p is not None:
            yield p
            p = p.parent


@dataclass
class Thread:
    roots: list[Node]
    nodes: dict[str, Node]  # by Message-ID (or a stand-in key for messages without one)

    def walk(self) -> Iterator[Node]:
        """Depth first, parents before children, siblings by date."""
        stack = list(reversed(self.roots))
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def messages(self) -> list[Message]:
        return [n.message for n in self.walk()]

    def __len__(self) -> int:
        return len(self.nodes)


def _would_cycle(child: Node, parent: Node) -> bool:
    return parent is child or any(a is child for a in parent.ancestors())


def build_thread(messages: Iterable[Message]) -> Thread:
    """The reply tree of `messages` (duplicates by Message-ID are kept once)."""
    nodes: dict[str, Node] = {}
    for i, msg in enumerate(messages):
        key = msg.message_id or f"<no-id-{i}>"
        nodes.setdefault(key, Node(msg, key))
    ordered = sorted(nodes.values(), key=lambda n: message_time(n.message))
    first_by_subject: dict[str, Node] = {}
    for node in ordered:
        first_by_subject.setdefault(normalize_subject(node.message.subject), node)

    for node in ordered:
        msg = node.message
        parent, how = None, "root"
        if msg.in_reply_to and msg.in_reply_to in nodes:
            parent, how = nodes[msg.in_reply_to], "in-reply-to"
        else:
            for ref in reversed(msg.references):
                if ref in nodes:
                    parent, how = nodes[ref], "references"
                    break
        if parent is None and not msg.in_reply_to and not msg.references \
                and is_reply_subject(msg.subject):
            cand = first_by_subject.get(normalize_subject(msg.subject))
            if cand is not None and cand is not node \
                    and message_time(cand.message) <= message_time(msg):
                parent, how = cand, "subject"
        if parent is not None and not _would_cycle(node, parent):
            node.parent, node.linked_by = parent, how
            parent.children.append(node)
    roots = [n for n in ordered if n.parent is None]
    for n in nodes.values():
        n.children.sort(key=lambda c: message_time(c.message))
    return Thread(roots=roots, nodes=nodes)


# --- claims across the thread -------------------------------------------------------

def claim_key(c: Claim) -> tuple[Any, ...]:
    """What makes two claims "the same claim" when one message quotes another."""
    def num(v: float | None) -> float | None:
        return None if v is None else round(v, 6)

    return (
        (c.metric or "").strip().lower(),
        (c.unit or "").strip().lower(),
        num(c.baseline.value if c.baseline else None),
        num(c.candidate.value if c.candidate else None),
        num(c.claimed_change_pct),
    )


def _norm(text: str) -> str:
    return " ".join(text.split())


@dataclass
class ThreadClaim:
    """A claim as the thread sees it: who made it first, who answered it."""

    claim: Claim
    origin: str  # Message-ID of the message that first made the claim
    author: str | None
    discussion: list[str] = field(default_factory=list)  # later messages that answer it
    _lines: set[str] = field(default_factory=set, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {"origin": self.origin, "author": self.author, "discussion": list(self.discussion),
                "claim": self.claim.to_dict()}


def _claim_lines(msg: Message, claim: Claim) -> set[str]:
    lo, hi = claim.lines
    return {t for ln in msg.lines if lo <= ln.number <= hi and len(t := _norm(ln.text)) >= 8}


def attribute_claims(thread: Thread,
                     extractions: Mapping[str, Extraction] | Iterable[Extraction]) -> list[ThreadClaim]:
    """Each claim once, credited to its first message, with the messages that discuss it."""
    if not isinstance(extractions, Mapping):
        extractions = {e.message.message_id or "": e for e in extractions}
    # one message may hold two claims with equal numbers (two rows of a table): the n-th
    # such claim of a message is the n-th claim of that key in the thread.
    seen: dict[tuple[Any, ...], list[ThreadClaim]] = {}
    result: list[ThreadClaim] = []
    for node in thread.walk():
        ex = extractions.get(node.key)
        msg = node.message
        answered: set[int] = set()
        used: dict[tuple[Any, ...], int] = {}
        for claim in ex.claims if ex else []:
            key = claim_key(claim)
            n = used[key] = used.get(key, -1) + 1
            same = seen.setdefault(key, [])
            if n < len(same):
                if same[n].origin != node.key:
                    answered.add(id(same[n]))
                continue
            tc = ThreadClaim(claim, origin=node.key, author=claim.author or msg.from_,
                             _lines=_claim_lines(msg, claim))
            same.append(tc)
            result.append(tc)
        quoted = {t for ln in msg.lines if ln.depth > 0 and len(t := _norm(ln.text)) >= 8}
        ancestors = {a.key for a in node.ancestors()}
        for tc in result:
            if tc.origin in ancestors and quoted & tc._lines:
                answered.add(id(tc))
        for tc in result:
            if id(tc) in answered and node.key not in tc.discussion:
                tc.discussion.append(node.key)
    return result
