"""Seed 001 (gro_flush_timeout, netperf TCP_RR) end to end on a real netns runner:
spec from the mail, sequential runs through runners.execute.run_batch, verdicts, reports."""
from __future__ import annotations

from pathlib import Path

import pytest

from claims.extract import extract_message
from claims.sources import iter_messages
from claims.specbuild import build_specs
from runners.execute import execute, run_batch
from runners.netns import NetnsRunner
from verifier import verdict
from verifier.report import parse_footer, render
from verifier.sequential import run_sequential

pytestmark = pytest.mark.root
SEED001 = next((Path(__file__).resolve().parents[2] / "shared" / "seeds").glob("001_*.txt"), None)


@pytest.mark.skipif(SEED001 is None, reason="shared seeds not present")
def test_seed001_sequential_verdict_and_report(tmp_path):
    spec = build_specs([extract_message(m) for m in iter_messages(str(SEED001))])[0]
    spec.run.max_repetitions = 5  # one look: keeps the test short (1 s runs)
    spec.run.warmup = 1
    batches = []
    with NetnsRunner(prefix="pcvr") as runner:
        # execute sets the runner up, records the environment and runs the first 5;
        # the sequential loop asks for more only when a look needs them
        res = execute(spec, runner, runs=3, duration=1.0)
        assert res.status == "complete", res.reason

        def more(want: dict[str, int]) -> None:
            batches.append(dict(want))
            n = max(want.values())
            run_batch(spec, runner, sorted(want), n, res, batch=len(batches), duration=1.0)

        out = run_sequential(res, more)
    assert batches == [{"baseline": 2, "candidate": 2}]
    assert out.looks == [5]
    names = {v["verdict"] for v in res.verdicts}
    assert names <= {verdict.CONFIRMED, verdict.PARTLY, verdict.NOT_REPRODUCED,
                     verdict.CONTRADICTED, verdict.INCONCLUSIVE, verdict.INVALID}
    head = res.verdicts[0]
    assert head["metric"] == "transaction_rate" and head["n_base"] == head["n_cand"] == 5
    text = render(res, "email")
    assert max(map(len, text.splitlines())) <= 72
    assert "NIC/driver: veth" in text and "runner: netns" in text
    assert [r["metric"] for r in parse_footer(text)][0] == "transaction_rate"
    path = tmp_path / "results.json"
    res.save(path)
    assert "<img" in render(res, "html")
