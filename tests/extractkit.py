"""What the extractor's shape tests share: extract a text, and read its pairs or its
stated changes."""
from __future__ import annotations

from claims.extract import extract_message
from claims.message import message_from_text
from claims.model import Extraction


def ex(text: str) -> Extraction:
    return extract_message(message_from_text(text))


def pairs(text: str) -> list[tuple[float, float]]:
    return [(c.baseline.value, c.candidate.value) for c in ex(text).claims if c.baseline and c.candidate]


def relative(text: str) -> list[float]:
    return [c.claimed_change_pct for c in ex(text).claims if c.baseline is None]
