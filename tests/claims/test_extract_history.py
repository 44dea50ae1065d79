"""A message's extraction does not depend on the messages read before it.

The per-line caches of the stages (tokens, table rows, line kinds) are kept from one message
to the next, since a reply quotes its parent's lines: about half the tokenizer's misses over
the list archive. That is sound only while every cached function is pure and nothing a
caller gets from a cache is changed in place. So the corpus and the shapes are read three
ways: each message with every cache of the claims package emptied first, then all of them
in one run in order, then in one run backwards; the three must agree to the byte.
"""
from __future__ import annotations

import importlib
import json
import pkgutil
from pathlib import Path

import pytest

import claims
from claims.extract import extract_message
from claims.sources import iter_messages
from tests.paths import SHARED

TEXTS = sorted((SHARED / "corpus").glob("*.txt")) + sorted((SHARED / "shapes").glob("*.txt"))


def _caches() -> list:
    """Every lru_cache / cache wrapped function of the claims package."""
    out = []
    for info in pkgutil.iter_modules(claims.__path__):
        module = importlib.import_module(f"claims.{info.name}")
        out += [f for f in vars(module).values() if callable(getattr(f, "cache_clear", None))]
    return out


def _read(path: Path) -> str:
    return json.dumps([extract_message(m).to_dict() for m in iter_messages(str(path))], sort_keys=True)


@pytest.mark.skipif(not TEXTS, reason="../shared/corpus and shapes are not present")
def test_extraction_is_the_same_whatever_was_read_before() -> None:
    caches = _caches()
    assert len(caches) >= 4  # the tokenizer's, the grid's, the prose and block readers'
    alone = {}
    for path in TEXTS:
        for f in caches:
            f.cache_clear()
        alone[path] = _read(path)
    in_order = {path: _read(path) for path in TEXTS}
    backwards = {path: _read(path) for path in reversed(TEXTS)}
    assert any('"baseline"' in text for text in alone.values())  # the claims were read at all
    for path in TEXTS:
        assert in_order[path] == alone[path], f"{path.name}: differs after the messages before it"
        assert backwards[path] == alone[path], f"{path.name}: differs after the messages after it"
