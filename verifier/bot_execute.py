"""Executing the queue: each claim verified through verifier.pipeline, as `verifier check`
verifies a spec, with every run record stored as it completes, so an interrupted claim
resumes from its stored runs (on the host and on the fleet alike)."""
from __future__ import annotations

import logging
from typing import Any

from claims.spec import Spec
from runners.results import Results, RunRecord
from verifier.bot_config import BotContext, BotError
from verifier.pipeline import backend_for, latest_attempts, verify
from verifier.state import ClaimRow

log = logging.getLogger("verifier.bot")


def run_claim(ctx: BotContext, claim: ClaimRow) -> Results:
    """Run (or resume) one claim's spec and judge it."""
    spec = Spec.from_dict(claim.spec)
    stored = latest_attempts(ctx.state.runs.runs(claim.id))
    if stored:
        log.info("resuming claim %d with %d stored runs", claim.id, len(stored))
    ctx.state.claims.set_claim(claim.id, "running")

    def keep(rec: RunRecord) -> None:
        ctx.state.runs.add_run(claim.id, rec)

    # an interrupt stops the bot (after the runner's cleanup); what ran is stored
    with backend_for(ctx.cfg.run_settings(), reraise=True) as backend:
        return verify(spec, backend, on_record=keep, stored=stored)


def judge_claim(ctx: BotContext, claim: ClaimRow) -> None:
    """Run, judge and record one queued (or interrupted) claim."""
    from verifier.verdict import summarize

    try:
        results = run_claim(ctx, claim)
    except BotError:
        raise
    except Exception as e:  # noqa: BLE001 - a recorded failure, never a dead bot
        ctx.state.claims.set_claim(claim.id, "failed", f"{type(e).__name__}: {e}")
        log.warning("ran claim %d: failed: %s", claim.id, e)
        return
    ok = sum(1 for r in results.runs if r.ok and not r.warmup)
    log.info("ran claim %d: %d runs (%d counted ok), %s%s", claim.id, len(results.runs),
             ok, results.status, f": {results.reason}" if results.reason else "")
    if results.status != "complete":
        status = "not-runnable" if results.status == "not-runnable" else "failed"
        ctx.state.claims.set_claim(claim.id, status, results.reason, results_head(results))
        return
    head = summarize(results.verdicts)
    verdicts = results.verdicts
    text = head.verdict or (verdicts[0].verdict if verdicts else "none")
    ctx.state.runs.set_verdicts(claim.id, verdicts, str(text))
    ctx.state.claims.set_claim(claim.id, "judged", None, results_head(results))
    log.info("verdict claim %d: %s", claim.id, text)


def results_of(ctx: BotContext, claim_id: int) -> Results | None:
    """A claim's results as stored: the head and the last attempt of each run."""
    head = ctx.state.claims.results_of(claim_id)
    if head is None:
        return None
    res = Results.from_dict(head)
    res.runs = latest_attempts(ctx.state.runs.runs(claim_id))
    return res


def results_head(results: Results) -> dict[str, Any]:
    """The results file without its runs (those live in the runs table)."""
    d = results.to_dict()
    d["runs"] = []
    return d
