"""argparse types for the numbers a person gives on the command line: finite, positive and
within the spec safety limits, so `--duration inf`, `--runs -1` or `--max-runs -5` is a
one-line usage error before any work starts."""
from __future__ import annotations

import argparse
import math

from claims.safety import MAX_DURATION, MAX_REPETITIONS


def seconds(text: str, limit: float = MAX_DURATION) -> float:
    """A duration in seconds: a finite number above 0, at most the spec's hard limit."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value <= 0 or value > limit:
        raise argparse.ArgumentTypeError(
            f"{text!r} must be above 0 and at most {limit:g} seconds")
    return value


def wait_seconds(text: str) -> float:
    """How long a whole command may wait (a fleet's timeout): finite, above 0, a week at most."""
    return seconds(text, 7 * 24 * 3600.0)


def runs(text: str) -> int:
    """A count of runs: a whole number from 1 to the spec's repetition limit."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= value <= MAX_REPETITIONS:
        raise argparse.ArgumentTypeError(f"{text!r} must be from 1 to {MAX_REPETITIONS}")
    return value


def output_problem(path: str | None) -> str | None:
    """Why the results file `path` cannot be written, found before the benchmark runs (on
    main an unwritable `-o` was found only after the whole run); None when it can."""
    import os

    if not path or path == "-":
        return None
    if os.path.isdir(path):
        return f"-o {path}: is a directory"
    existed = os.path.lexists(path)
    try:
        with open(path, "a"):
            pass
    except OSError as e:
        return f"-o {path}: cannot write: {e.strerror or e}"
    if not existed:
        try:
            os.unlink(path)
        except OSError:
            pass
    return None


def role_hosts(text: str | None, option: str = "--hosts") -> dict[str, str]:
    """"client=lab1,server=lab2" -> {role: host}; ValueError naming the bad part."""
    hosts: dict[str, str] = {}
    for part in filter(None, (text or "").split(",")):
        role, eq, host = part.partition("=")
        if not eq or not role or not host:
            raise ValueError(f"{option}: {part!r} is not ROLE=HOST")
        hosts[role.strip()] = host.strip()
    return hosts
