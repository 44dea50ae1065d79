"""One pasted line of tool output, named by whichever tool description knows the line.

Mail pastes single report lines under its own labels ("1K:  [  5] 30.00-35.00 sec ...")
without the headers or summaries a run's output has; each description says what the
numbers of such a line are (`ToolDescription.line_samples`).
"""
from __future__ import annotations

from claims.tools.base import Sample


def line_samples(text: str) -> list[Sample]:
    """The named numbers of `text` by the first tool that reads it; [] when none does
    (or a tool module is broken: a bad description must not stop extraction)."""
    try:
        from claims.tools import all_tools

        tools = all_tools()
    except Exception:
        return []
    for tool in tools:
        try:
            found = tool.line_samples(text)
        except Exception:
            continue
        if found:
            return found
    return []
