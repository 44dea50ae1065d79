"""Running specs for real on the netns runner with real netperf/netserver, iperf3 and iperf."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from claims.spec import Action, Kernel, Variant
from claims.tools import tool_for_program
from runners.execute import abba_order, execute, new_results, run_batch
from runners.netns import NetnsRunner
from runners.results import Results
from tests.paths import FIXTURES
from tests.runner_specs import iperf2, iperf3_d007, netns_names, pid_alive, seed001

pytestmark = pytest.mark.root


def test_abba_order_is_balanced_and_seeded():
    a = abba_order(["A", "B"], 6, random.Random(1))
    assert Counter(a) == {"A": 6, "B": 6}
    for i in range(0, 12, 4):  # each block of four is XYYX
        assert a[i] == a[i + 3] and a[i + 1] == a[i + 2] and a[i] != a[i + 1]
    assert a == abba_order(["A", "B"], 6, random.Random(1))
    three = abba_order(["A", "B", "C"], 5, random.Random(2))
    assert Counter(three) == {"A": 5, "B": 5, "C": 5}


def test_seed001_netperf_gro_flush_timeout_on_netns(tmp_path):
    """On veth, TCP_RR never lets gro_flush_timeout act (runners.effect): the warm-up runs
    run and are recorded, then the result is NOT RUNNABLE HERE instead of an A/A."""
    spec = seed001(duration=1, reps=2)
    with NetnsRunner(prefix="pcvt") as r:
        res = execute(spec, r)
        devs = [f"/sys/class/net/{r.device(role)}/gro_flush_timeout" for role in r.roles]
        ethtool = {f"ethtool -K {r.device(role)}" for role in r.roles}
        server = next(iter(r._servers.values()))
    assert res.status == "not-runnable" and "never armed" in (res.reason or ""), res.reason
    warm = [x for x in res.runs if x.warmup]
    assert len(warm) == 2 and len(res.runs) == 2
    for run in res.runs:
        assert run.ok, run.error
        assert run.samples["transaction_rate"] > 0 and "Trans." in run.stdout
        assert run.argv[:3] == ["netperf", "-H", r.address("server")]
        assert "-l" in run.argv and run.argv[run.argv.index("-l") + 1] == "1"
        assert run.tool_seconds == pytest.approx(1.0, abs=0.2)
    env = res.environment
    assert env["runner"] == "netns" and env["hosts"]["client"]["nic_driver"] == "veth"
    assert env["hosts"]["server"]["tools"]["netserver"].startswith("Netperf version")
    assert {t["target"] for t in env["touched"]} == set(devs) | ethtool
    assert {t["new"] for t in env["touched"] if t["kind"] == "file"} == {"0", "2000"}
    assert not pid_alive(server.proc.pid) and not set(r.ns.values()) & netns_names()
    res.save(tmp_path / "r.json")
    assert Results.load(tmp_path / "r.json").runs[0].samples == res.runs[0].samples


def test_iperf3_claim_on_netns():
    with NetnsRunner(prefix="pcvt") as r:
        res = execute(iperf3_d007(), r)
    assert res.status == "complete", res.reason
    assert all(x.ok and x.samples["sender_bitrate"] > 0 for x in res.runs)
    assert res.runs[0].argv[:3] == ["iperf3", "-c", r.address("server")]


def test_iperf2_claim_on_netns():
    if tool_for_program("iperf") is None:
        pytest.skip("no iperf (2) tool description yet")
    spec = iperf2()
    with NetnsRunner(prefix="pcvt") as r:
        res = execute(spec, r)
    assert res.status == "complete", res.reason
    assert all(x.ok and x.samples["bandwidth"] > 0 for x in res.runs)
    assert res.runs[0].argv[:3] == ["iperf", "-c", r.address("server")]


def test_run_batch_adds_runs_and_failed_runs_are_kept():
    spec = seed001(duration=1, reps=1)
    spec.variants.append(Variant("broken", setup=[Action(
        kind="ethtool", key="coalesce", device="eth0", settings={"rx-usecs": "8"})]))
    with NetnsRunner(prefix="pcvt") as r:
        results = new_results(spec, r)
        r.setup()
        got = run_batch(spec, r, ["baseline", "broken"], 2, results, batch=1)
    assert len(got) == 4 and results.runs == got
    assert [x.index for x in got] == [0, 1, 2, 3]
    broken = [x for x in got if x.variant == "broken"]
    assert all(not x.ok and "ethtool" in x.error for x in broken)
    assert all(x.ok for x in got if x.variant == "baseline")


@pytest.mark.parametrize("argv", [
    ["netperf", "-H", "lpaa6;touch /tmp/CANARY"],
    ["netperf", "-H", "lpaa6", "-l", "99999"],
    ["sh", "-c", "touch /tmp/CANARY"],
    ["netperf", "-H", "$(touch /tmp/CANARY)"],
    ["netperf", "--no-such-option"],
])
def test_refused_commands_never_run(argv):
    spec = seed001()
    spec.benchmark.argv = argv
    with NetnsRunner(prefix="pcvt") as r:
        res = execute(spec, r)
    assert res.status == "not-runnable" and res.reason.startswith("refused")
    assert res.runs == [] and r._servers == {}


def test_kernel_variants_need_a_kernel_runner():
    spec = seed001()
    spec.variants[1].kernel = Kernel(base="net-next", series="<x@y>")
    with NetnsRunner(prefix="pcvt") as r:
        res = execute(spec, r)
    assert (res.status, res.reason) == ("not-runnable", "needs a kernel runner")
    spec = seed001()
    spec.needs = ["kernel"]
    with NetnsRunner(prefix="pcvt") as r:
        assert execute(spec, r).reason == "needs a kernel runner"


def test_batch_adder_for_the_sequential_loop():
    from runners.execute import batch_adder

    spec = iperf3_d007(duration=1)
    with NetnsRunner(prefix="pcvt") as r:
        results = new_results(spec, r)
        more = batch_adder(spec, r, results)
        more({"baseline": 1, "candidate": 2})
        more({"candidate": 1})
    assert Counter(x.variant for x in results.runs) == {"baseline": 1, "candidate": 3}
    assert [x.batch for x in results.runs] == [1, 1, 1, 2]
    assert all(x.ok for x in results.runs)


def test_missing_tool_is_probed_before_running():
    """neper (tcp_rr) has a description but is not packaged in Debian 12: not installed."""
    spec = seed001()
    spec.benchmark.tool, spec.benchmark.argv = "neper", ["tcp_rr", "-H", "server", "-l", "1"]
    spec.variants = spec.variants[:1]
    spec.variants[0].setup = []
    with NetnsRunner(prefix="pcvt") as r:
        res = execute(spec, r)
    assert res.status == "not-runnable", res.reason
    assert res.reason == "tcp_rr is not installed on the client host"
    assert res.runs == []


def test_cpu_pin_wraps_the_client_in_taskset():
    spec = iperf3_d007(duration=1)
    spec.run.warmup = 0
    spec.variants[0].setup = [Action(kind="cpu-pin", value="0", roles=["client"])]
    spec.variants[1].setup = [Action(kind="cpu-pin", value="999", roles=["client"])]
    with NetnsRunner(prefix="pcvt") as r:
        res = execute(spec, r)
    pinned = next(x for x in res.runs if x.variant == "baseline")
    assert pinned.ok and pinned.argv[:3] == ["taskset", "-c", "0"]
    assert pinned.samples["sender_bitrate"] > 0
    bad = next(x for x in res.runs if x.variant == "candidate")
    assert not bad.ok and "taskset" in (bad.error or "") + bad.stderr


def test_run_timeout_covers_perf_stat_repeats():
    """`perf stat -r 4 -- iperf3 ...` runs iperf3 four times: the timeout allows for all
    four (twice their length, plus slack) and stays under the spec's cap."""
    from runners.execute import prepare
    from runners.local import LocalRunner

    spec = iperf3_d007(duration=5)
    timeouts = []
    for argv in (["iperf3", "-c", "h"], ["perf", "stat", "-r", "4", "--", "iperf3", "-c", "h"]):
        spec.benchmark.argv, spec.benchmark.tool = argv, tool_for_program(argv[0]).name
        with LocalRunner() as r:
            timeouts.append(prepare(spec, r).timeout)
    assert timeouts == [5 * 2 + 30, 5 * 4 * 2 + 30]
    spec.run.timeout = 60
    with LocalRunner() as r:
        assert prepare(spec, r).timeout == 60


def test_a_tool_that_prints_every_interval_is_averaged():
    """xdp-bench prints a Summary line a second: a run's rx_pps is their mean, while for
    one-result tools the first sample stays the run's value."""

    from runners.execute import samples_dict

    text = (FIXTURES / "tools" / "xdp_bench_paste.txt").read_text()
    tool = tool_for_program("xdp-bench")
    rates = [s.value for s in tool.parse(text) if s.metric == "rx_pps"]
    assert len(rates) >= 2 and tool.per_interval
    got = samples_dict(tool.parse(text), average=tool.per_interval)
    assert got["rx_pps"] == sum(rates) / len(rates)
    assert samples_dict(tool.parse(text))["rx_pps"] == rates[0]
    assert not tool_for_program("netperf").per_interval
