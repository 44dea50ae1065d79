"""The registry of benchmark tool descriptions (one module per tool)."""
from __future__ import annotations

from typing import TypeVar

from claims.tools.base import OutputBlock, Refused, Sample, ToolDescription

TOOLS: dict[str, ToolDescription] = {}
T = TypeVar("T", bound=ToolDescription)


def register(tool: T) -> T:
    TOOLS[tool.name] = tool
    return tool


def tool_for_program(program: str) -> ToolDescription | None:
    """The description whose programs include `program` (a path or a basename)."""
    base = program.rsplit("/", 1)[-1]
    _load_all()
    for tool in TOOLS.values():
        if base in tool.programs:
            return tool
    return TOOLS.get(base)  # a claim's `tool` field holds the description's name (iperf2)


def all_tools() -> list[ToolDescription]:
    _load_all()
    return list(TOOLS.values())


def tool_programs() -> list[tuple[str, ToolDescription, bool]]:
    """(program, its description, True when it only serves that tool) for every program the
    descriptions name: netserver is netperf's server, iperf3 both sides of iperf3.
    The per-program tables elsewhere (denied options, version flags, fleet tags) come
    from here, so a new description is known everywhere at once."""
    out = []
    for tool in all_tools():
        out += [(p, tool, False) for p in tool.programs]
        out += [(p, tool, True) for p in tool.server_programs if p not in tool.programs]
    return out


_LOADED = False


def _load_all() -> None:
    """Import every tool module once; each registers itself."""
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    import importlib
    import pkgutil

    import claims.tools as pkg

    for info in pkgutil.iter_modules(pkg.__path__):
        if info.name != "base":
            importlib.import_module(f"claims.tools.{info.name}")


__all__ = ["TOOLS", "OutputBlock", "Refused", "Sample", "ToolDescription", "register",
           "tool_for_program", "all_tools", "tool_programs"]
