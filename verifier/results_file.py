"""A results file given on the command line (`verifier report`, `reply`, `patchwork`):
loaded and checked, or refused with a one-line reason."""
from __future__ import annotations

import json

from runners.results import Results


def shape_problem(res: Results) -> str | None:
    """What makes a loaded results file unusable for judging, or None (the spec's and the
    lists' shapes are checked by `Results.from_dict`)."""
    for r in res.runs:
        if not isinstance(r.samples, dict) or not all(
                isinstance(v, int | float) and not isinstance(v, bool)
                for v in r.samples.values()):
            return f"run {r.index} of {r.variant} has non-numeric samples"
    return None


def load_results(path: str) -> Results:
    """A results file, or ValueError with a one-line reason."""
    try:
        res = Results.load(path)
        problem = shape_problem(res)
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except (OSError, json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ValueError(f"{path}: not a results file ({e})") from None
    except (TypeError, KeyError, AttributeError) as e:
        raise ValueError(f"{path}: not a results file ({e})") from None
    except ValueError as e:  # a wrong shape or a newer format
        problem = (str(e).splitlines() or ["not the shape of one"])[0]
    if problem:
        raise ValueError(f"{path}: not a usable results file ({problem})")
    return res
