"""The one error type of fetching: its message is the one line the user sees."""
from __future__ import annotations


class FetchError(Exception):
    """A thread could not be fetched; str(e) is a complete one-line explanation."""

    def __init__(self, message: str, not_found: bool = False) -> None:
        super().__init__(message)
        self.not_found = not_found
