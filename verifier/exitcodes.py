"""Exit codes of `verifier check` and `verifier run`, by outcome, for maintainers' scripts.

One table, printed in both commands' --help and the README, so a script can branch on
`$?` without reading the report: 0 the claim held (or there was nothing to check), one
code for a claim that did not hold, one for an undecided one, others for errors.
"""
from __future__ import annotations

from collections.abc import Iterable

from runners.results import Verdict

OK = 0  # every judged row CONFIRMED, or no claim to check
FAILED = 1  # a run failed or was interrupted, or its results are INVALID
USAGE = 2  # bad input or arguments
REFUSED = 3  # refused as unsafe (run), or an internal error (any command)
NOT_RUNNABLE = 4  # this runner cannot run the claim (needs a kernel runner, ...)
NOT_HELD = 5  # CONTRADICTED, NOT REPRODUCED or PARTLY CONFIRMED
INCONCLUSIVE = 6  # INCONCLUSIVE (or still undecided at the maximum number of runs)
SIGNAL = 130  # stopped by Ctrl-C or SIGTERM

HELP = """\
exit status:
  0    every claim checked was CONFIRMED, or there was no claim to check
  1    error: a run failed or was interrupted, or the results are INVALID
  2    error: bad input or arguments (one line on stderr)
  3    error: refused as unsafe, or an internal error
  4    NOT RUNNABLE HERE: this runner cannot run the claim (the report says why)
  5    the claim did not hold: CONTRADICTED, NOT REPRODUCED or PARTLY CONFIRMED
  6    INCONCLUSIVE: more runs or a quieter machine are needed
  130  interrupted by Ctrl-C or SIGTERM
With several claims or rows the first that applies in the order 1, 5, 6, 4 wins."""

_BY_VERDICT = {
    "CONFIRMED": OK,
    "PARTLY CONFIRMED": NOT_HELD,
    "NOT REPRODUCED": NOT_HELD,
    "CONTRADICTED": NOT_HELD,
    "INCONCLUSIVE": INCONCLUSIVE,
    "UNDECIDED": INCONCLUSIVE,
    "NOT RUNNABLE HERE": NOT_RUNNABLE,
    "INVALID": FAILED,
}
_ORDER = (FAILED, NOT_HELD, INCONCLUSIVE, NOT_RUNNABLE, OK)


def worst(codes: Iterable[int]) -> int:
    """The code that wins among several claims' or rows' codes (see HELP)."""
    got = set(codes)
    return next((c for c in _ORDER if c in got), OK)


def for_verdicts(verdicts: Iterable[Verdict]) -> int:
    """The exit code of one results file's verdict rows."""
    return worst(_BY_VERDICT.get(str(v.verdict), FAILED) for v in verdicts)


def for_results(status: str, verdicts: Iterable[Verdict]) -> int:
    """The exit code of one results file: its status first, then its verdicts."""
    if status in ("failed", "interrupted"):
        return FAILED
    if status == "not-runnable":
        return NOT_RUNNABLE
    return for_verdicts(verdicts)
