"""Rows whose samples carry no information are named with the reason, never judged.

Simulated samples (known truth) for zero spread, identical sides, a metric pinned at 100%
and a quantised one; a real recorded netns run (tests/fixtures/runs/netns-aa-tcp-rr.json:
netperf TCP_RR -c -C, both variants the same system, stdout dropped to keep it small) for
local and remote CPU of one machine, and for a saturated CPU when the same numbers are
read as if they came from two hosts.
"""
from __future__ import annotations

import json
from collections import Counter

import numpy as np

from runners.results import Results, RunRecord
from tests.paths import FIXTURES
from tests.stats_sim import make_results
from verifier import verdict

RECORDED = FIXTURES / "runs" / "netns-aa-tcp-rr.json"


def _results(base, cand, unit="tps", claimed=10.0):
    res = make_results(claimed, max_runs=len(base), first=len(base))
    res.spec.metrics[0].unit = unit
    for i, (x, y) in enumerate(zip(base, cand, strict=True)):
        pair = [("baseline", x), ("candidate", y)]
        for name, val in pair if i % 2 == 0 else pair[::-1]:
            res.runs.append(RunRecord(variant=name, index=len(res.runs), batch=1,
                                      samples={"throughput": val}))
    return res


def _no_info(res):
    v = verdict.judge(res)[0]
    assert v.verdict == verdict.INVALID, v
    assert v.no_information and v.reason.startswith("no information here")
    assert v.effect is None  # no interval is printed for it
    return v


def test_zero_variance_is_no_information_not_certainty():
    # the issue: constant samples gave "+0.0% [+0.0, +0.0]" and NOT REPRODUCED (no change)
    v = _no_info(_results([100.0] * 8, [100.0] * 8))
    assert "identical samples" in v.reason
    v = _no_info(_results([100.0] * 8, [90.0] * 8))
    assert "every run of baseline gave the same value (100)" in v.reason


def test_identical_samples_on_both_sides():
    rng = np.random.default_rng(1)
    xs = list(1000 * rng.lognormal(0, 0.02, 8))
    v = _no_info(_results(xs, list(reversed(xs))))
    assert "both variants gave identical samples" in v.reason


def test_pinned_at_100_percent():
    rng = np.random.default_rng(2)
    base = list(np.minimum(100.0, 99.9 + rng.uniform(0, 0.2, 8)))
    cand = list(np.minimum(100.0, 99.8 + rng.uniform(0, 0.2, 8)))
    v = _no_info(_results(base, cand, unit="%", claimed=-10.0))
    assert "pinned at its limit" in v.reason


def test_mostly_one_value_is_quantised():
    base = [50.0] * 9 + [51.0]
    cand = [50.0] * 8 + [49.0, 51.0]
    v = _no_info(_results(base, cand))
    assert "quantised" in v.reason


def _recorded(runner: str | None = None) -> Results:
    res = Results.from_dict(json.loads(RECORDED.read_text()))
    if runner:
        res.runner = runner
    return res


def test_real_netns_run_local_and_remote_cpu_are_one_finding():
    res = _recorded()
    vs = {v.sample or v.metric: v for v in verdict.judge(res, res.calibration)}
    for key in ("cpu_local", "cpu_remote", "service_demand_local", "service_demand_remote"):
        assert vs[key].verdict == verdict.INVALID
        assert "one machine" in vs[key].no_information
    # the report prints the reason once: the later rows point at the first
    assert vs["cpu_local"].same_as is None
    assert vs["cpu_remote"].same_as == "cpu_local"
    assert vs["service_demand_remote"].same_as == "cpu_local"
    assert vs["transaction_rate"].verdict != verdict.INVALID
    # an A/A: nothing is CONFIRMED or CONTRADICTED
    assert not {v.verdict for v in vs.values()} & {verdict.CONFIRMED, verdict.CONTRADICTED}


def test_real_run_read_as_two_hosts_shows_the_saturated_cpu():
    """The same numbers as if client and server were two machines: netperf's CPU sits at
    100% in every run, pinned at its limit, so cpu_local says nothing."""
    res = _recorded(runner="ssh")
    vs = {v.sample or v.metric: v for v in verdict.judge(res, res.calibration)}
    assert vs["cpu_local"].verdict == verdict.INVALID
    assert "identical samples" in vs["cpu_local"].reason  # 100% in every run
    assert vs["service_demand_remote"].verdict != verdict.CONFIRMED  # the row


def test_one_machine_rows_are_known_before_running():
    res = _recorded()
    res.runs = []
    reasons = verdict.precheck(res, None)
    names = [m.name for m in res.spec.metrics]
    assert [bool(r) for r in reasons] == [n != "transaction_rate" for n in names]


def test_a_constant_ratio_has_no_interval():
    base = [100.0, 110.0, 95.0, 105.0, 120.0, 90.0]
    v = _no_info(_results(base, [x * 1.1 for x in base]))
    assert "no spread" in v.reason


def test_every_row_says_what_was_compared():
    res = _recorded()
    for v in verdict.judge(res, res.calibration):
        assert v.compared.startswith("candidate against baseline on ")
        assert "noise band" in v.compared


def test_real_netns_aa_runs_are_never_confirmed_or_contradicted():
    """Recorded A/A runs (bench/netns_aa.py: both variants the same system) re-judged:
    iperf3 both ways, TCP_STREAM with CPU, UDP with jitter that is sometimes 0."""
    seen = Counter()
    for path in sorted(RECORDED.parent.glob("netns-aa-*.json")):
        res = Results.from_dict(json.loads(path.read_text()))
        for v in verdict.judge(res, res.calibration):
            seen[v.verdict] += 1
            assert v.verdict not in (verdict.CONFIRMED, verdict.CONTRADICTED), (path, v)
            assert v.reason or v.effect  # every row says why, or what it measured
    assert seen[verdict.NOT_REPRODUCED] >= 3 and seen[verdict.INVALID] >= 4
