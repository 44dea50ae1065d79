"""Seed 001 (gro_flush_timeout, netperf TCP_RR) end to end on a real netns runner.

On veth the knob can be given what it needs (GRO on, NAPI carrying TCP with TSO off), but
in TCP_RR every NAPI poll ends with nothing held in GRO, so the flush timer is never armed:
the claim is NOT RUNNABLE HERE, never judged on an A/A.  The same knob under TCP_STREAM
does arm the timer: that run is verified by the counters and judged sequentially."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from claims.extract import extract_message
from claims.sources import iter_messages
from claims.specbuild import build_specs
from runners.execute import execute, run_batch
from runners.netns import NetnsRunner
from tests.paths import SHARED
from tests.runner_specs import netns_names, seed001_paced
from verifier import verdict
from verifier.report import parse_footer, render
from verifier.sequential import run_sequential

pytestmark = pytest.mark.root
SEED001 = next((SHARED / "seeds").glob("001_*.txt"), None)
needs_seed = pytest.mark.skipif(SEED001 is None, reason="shared seeds not present")


def _seed_spec():
    return build_specs([extract_message(m) for m in iter_messages(str(SEED001))])[0]


@needs_seed
def test_seed001_inert_knob_is_not_runnable_here(tmp_path):
    """The mail's TCP_RR: the precondition is made true and shown (GRO on, NAPI packets
    counted), the timer count shows the knob never acted, every row NOT RUNNABLE HERE."""
    spec = _seed_spec()
    with NetnsRunner(prefix="pcvr") as runner:
        res = execute(spec, runner, runs=3, duration=1.0)
        made = set(runner.ns.values())
    assert res.status == "not-runnable", res.reason
    assert "gro_flush_timeout=2000" in res.reason and "never armed" in res.reason
    assert [r for r in res.runs if not r.warmup] == []  # stopped after the warm-up
    eff = res.environment["effects"]
    assert eff["baseline"]["client:napi_packets"]["total"] > 0  # NAPI did carry TCP
    assert eff["candidate"]["client:napi_flush_timer"]["total"] == 0
    state = res.environment["device_state"]["candidate"]["hosts"]["server"]
    assert state["driver"] == "veth" and state["gro_flush_timeout"] == "2000"
    assert state["offloads"]["generic-receive-offload"] == "on"
    res.verdicts = verdict.judge(res)
    assert {v.verdict for v in res.verdicts} == {verdict.NOT_RUNNABLE}
    text = render(res, "email")
    assert max(map(len, text.splitlines())) <= 72
    assert "NOT RUNNABLE HERE" in text and "NOT REPRODUCED" not in text
    assert not made & netns_names()
    res.save(tmp_path / "results.json")


@needs_seed
def test_readme_main_job_never_reports_an_inert_knob(tmp_path):
    """`verifier check` on seed 001 (the README's job, shorter): NOT RUNNABLE HERE."""
    before = netns_names()
    out = subprocess.run([sys.executable, "-m", "verifier", "check", str(SEED001),
                          "--runner", "netns", "--duration", "1", "--max-runs", "4",
                          "--out", str(tmp_path)], capture_output=True, text=True, timeout=300)
    text = out.stdout + out.stderr
    assert "NOT_REPRODUCED" not in text and "NOT REPRODUCED" not in text, text[-2000:]
    assert "NOT_RUNNABLE_HERE" in text, text[-2000:]
    results = json.loads(next(tmp_path.glob("results-*.json")).read_text())
    assert results["status"] == "not-runnable" and "never armed" in results["reason"]
    assert netns_names() <= before


def test_acting_knob_is_verified_and_judged(tmp_path):
    """The mail's TCP_RR on a paced link (tbf 1gbit, GSO off, in both variants): segments
    arrive one per NAPI poll, GRO holds them, the flush timer is armed in the candidate's
    runs only (thousands of times a second), so the knob acted and the runs are judged."""
    spec = seed001_paced(duration=1, reps=2)
    spec.run.max_repetitions = 4
    batches: list[dict[str, int]] = []
    with NetnsRunner(prefix="pcvr") as runner:
        res = execute(spec, runner, runs=2, duration=1.0)
        assert res.status == "complete", res.reason

        def more(want: dict[str, int]) -> None:
            batches.append(dict(want))
            run_batch(spec, runner, sorted(want), max(want.values()), res,
                      batch=len(batches), duration=1.0)

        run_sequential(res, more, calibrate=False)  # the knob is under test, not the band
    eff = res.environment["effects"]
    assert eff["candidate"]["client:napi_flush_timer"]["total"] > \
        eff["baseline"]["client:napi_flush_timer"]["total"]
    assert all(eff[v]["server:napi_packets"]["total"] > 0 for v in ("baseline", "candidate"))
    assert all("client:napi_flush_timer" in r.counters for r in res.runs if r.ok)
    names = {v.verdict for v in res.verdicts}
    assert names and verdict.NOT_RUNNABLE not in names
    head = res.verdicts[0]
    assert head.metric == "transaction_rate" and head.n_base >= 2
    text = render(res, "email")
    assert max(map(len, text.splitlines())) <= 72 and "runner: netns" in text
    assert [r["metric"] for r in parse_footer(text)][0] == "transaction_rate"
    assert "<img" in render(res, "html")
