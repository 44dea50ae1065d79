"""Seed 001's real spec with runs drawn here: for rendering tests (reply, report, page).

The samples are synthetic on purpose (a rendering test must be fast and deterministic);
the real netns run of the same seed is tests/verifier/test_report_check.py."""
from __future__ import annotations

import random

from claims.extract import extract_message
from claims.sources import iter_messages
from claims.specbuild import build_specs
from runners.results import Results, RunRecord
from tests.paths import SHARED
from verifier.verdict import judge

SEED = next((SHARED / "seeds").glob("001_*.txt"), None)


def seed_results(n: int = 10) -> tuple[Results, list]:
    msgs = list(iter_messages(str(SEED)))
    spec = build_specs([extract_message(m) for m in msgs])[0]
    rng = random.Random(1)
    runs = []
    for i in range(2 * n):
        var = ("baseline", "candidate")[i % 2]
        tps = rng.gauss(22600 if var == "baseline" else 21600, 900)
        runs.append(RunRecord(variant=var, index=i, samples={
            "transaction_rate": tps, "cpu_local": 100.0, "cpu_remote": 100.0,
            "service_demand_local": 9e4 / tps, "service_demand_remote": 9e4 / tps},
            argv=["netperf", "-H", "10.0.0.2", "-t", "TCP_RR", "-l", "2"], host="client"))
    res = Results(spec=spec, runner="netns", runs=runs, environment={
        "runner": "netns", "duration": 2.0, "hosts": {"client": {
            "kernel": "6.1.0-28-amd64 #1 SMP", "cpu_model": "AMD EPYC", "cpus": 2,
            "nic_driver": "veth", "tools": {"netperf": "Netperf version 2.7.0"}}}})
    res.verdicts = judge(res)
    return res, msgs
