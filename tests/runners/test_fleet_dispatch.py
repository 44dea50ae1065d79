"""The fleet runner against a real lab on loopback: a dask scheduler and three `verifier
worker` processes with different tags, running real netperf -l 1 against the netserver
each worker starts for the run.  Nothing is faked: the "hosts" are separate worker
processes on this one machine (what a lab of machines cannot be here), each its own host
name, so "one benchmark per host" is checked per worker process.
"""
from __future__ import annotations

import platform
import shutil
import subprocess
import sys
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor

import pytest

from claims.spec import Command, Metric, RunPlan, Spec, Variant
from runners.fleet import LOST, FleetRunner, fleet_task
from runners.fleet_host import FleetError
from runners.fleet_lab import LocalLab, descendants
from runners.results import Results

pytestmark = pytest.mark.skipif(not (shutil.which("netperf") and shutil.which("netserver")),
                                reason="netperf is installed by scripts/install.sh")


def netperf_spec(sid: str, seconds: int = 1, reps: int = 2, variants: int = 2) -> Spec:
    return Spec(id=sid,
                benchmark=Command("netperf", ["netperf", "-H", "lpaa6", "-l", str(seconds),
                                              "-t", "TCP_STREAM"]),
                variants=[Variant(n) for n in ("baseline", "candidate")[:variants]],
                metrics=[Metric("throughput", better="higher")],
                run=RunPlan(repetitions=reps, warmup=0, timeout=60))


@pytest.fixture(scope="module")
def lab():
    with LocalLab() as lab:
        lab.add_worker("lab1", "nic=mlx5,cpu=icelake", probe=True)
        lab.add_worker("lab2", "nic=ixgbe", probe=True)
        lab.add_worker("lab3", "nic=ixgbe", probe=True)
        yield lab


def overlaps(a, b) -> bool:
    return a.started < b.ended and b.started < a.ended


def by_host(runs):
    out: dict[str, list] = {}
    for r in runs:
        out.setdefault(r.host, []).append(r)
    return out


def assert_serial_per_host(runs) -> None:
    for host, rs in by_host(runs).items():
        rs = sorted(rs, key=lambda r: r.started)
        for a, b in zip(rs, rs[1:], strict=False):
            assert a.ended <= b.started, f"two runs at once on {host}: {a} / {b}"


def test_workers_advertise_probed_and_operator_tags(lab):
    with FleetRunner(lab.address) as fr:
        hosts = fr.hosts()
    assert set(hosts) == {"lab1", "lab2", "lab3"}
    tags = hosts["lab1"]["tags"]
    assert {"nic=mlx5", "cpu=icelake", "tool:netperf", "tool:netserver",
            f"kernel={platform.release()}"} <= set(tags)
    assert "nic=mlx5" not in hosts["lab2"]["tags"]


def test_runs_go_to_matching_hosts_in_parallel_and_one_at_a_time_per_host(lab):
    """Two specs pinned to the two nic=ixgbe hosts: the hosts overlap, each host is serial,
    and the mlx5 host gets nothing."""
    with FleetRunner(lab.address, ["nic=ixgbe"], placement="host") as fr:
        res = fr.run_many([netperf_spec("a"), netperf_spec("b")])
    runs = [r for x in res for r in x.runs]
    assert all(x.status == "complete" for x in res), [x.reason for x in res]
    assert all(r.ok for r in runs), [r.error for r in runs]
    assert len(runs) == 8
    hosts = [{r.host for r in x.runs} for x in res]
    assert all(len(h) == 1 for h in hosts), hosts  # a spec stays on one host
    assert hosts[0] | hosts[1] == {"lab2", "lab3"}
    assert_serial_per_host(runs)
    a, b = res[0].runs, res[1].runs
    assert any(overlaps(x, y) for x in a for y in b), "the two hosts never ran at once"
    # the local runner's ABBA order is kept on the host: indices run in order
    for x in res:
        starts = [r.started for r in sorted(x.runs, key=lambda r: r.index)]
        assert starts == sorted(starts)
        assert sorted(r.variant for r in x.runs) == ["baseline"] * 2 + ["candidate"] * 2
        assert len(x.samples("baseline", "throughput")) == 2
    # fleet results feed the statistics like local ones
    from verifier.verdict import judge

    verdicts = judge(res[0])
    assert verdicts and all(v.verdict is not None for v in verdicts)


def test_spread_placement_uses_only_tagged_host(lab):
    with FleetRunner(lab.address, ["nic=mlx5"], placement="spread") as fr:
        res = fr.run(netperf_spec("c", reps=2, variants=1))
    assert res.status == "complete", res.reason
    assert {r.host for r in res.runs} == {"lab1"}
    assert len(res.samples("baseline", "throughput")) == 2


def test_streamed_records_reach_the_callback_as_they_finish(lab):
    seen: list[tuple[float, str]] = []
    with FleetRunner(lab.address, ["nic=ixgbe"], placement="spread") as fr:
        res = fr.run(netperf_spec("d", reps=2, variants=1),
                     on_record=lambda r: seen.append((time.time(), r.host)))
    assert len(seen) == 2 and {h for _, h in seen} <= {"lab2", "lab3"}
    assert seen[0][0] < max(r.ended for r in res.runs) + 0.5


def test_no_matching_host_is_a_clear_error(lab):
    with FleetRunner(lab.address, ["nic=bnxt"]) as fr, \
            pytest.raises(FleetError, match="no host in the fleet has .*nic=bnxt"):
        fr.run(netperf_spec("e"))


def test_refused_spec_never_leaves_the_controller(lab):
    spec = netperf_spec("f")
    spec.benchmark.argv = ["netperf", "-H", "x", "--evil"]
    with FleetRunner(lab.address) as fr:
        res = fr.run(spec)
    assert res.status == "not-runnable" and res.runs == []


def test_worker_revalidates_what_it_is_sent(lab):
    """A controller that skipped validation (or a forged task) is refused on the host."""
    spec = netperf_spec("g", variants=1).to_dict()
    spec["benchmark"]["argv"] = ["netperf", "-H", "x", "-l", "1", "--", "-m", "$(reboot)"]
    with FleetRunner(lab.address) as fr:
        fut = fr.connect().submit(fleet_task, spec, ("baseline", 0, False), 0, "forged",
                                  resources={"bench": 1, "host-lab2": 1}, pure=False)
        out = fut.result(timeout=60)
    rec = out["record"]
    assert rec["ok"] is False and rec["host"] == "lab2"
    assert rec["error"].startswith("refused on lab2:"), rec["error"]
    assert rec["samples"] == {} and rec["stdout"] == ""


def test_sigkill_mid_run_reruns_elsewhere_and_records_the_loss():
    """SIGKILL the host running a 4 s run: it is run again on the other host; the lost
    attempt is a failed record; exactly one sample is counted."""
    with LocalLab() as lab:
        lab.add_worker("k1", "pool=k", probe=True)
        lab.add_worker("k2", "pool=k", probe=True)
        fr = FleetRunner(lab.address, ["pool=k"], placement="spread", timeout=120)
        with fr:
            running = _in_background(fr, netperf_spec("k", seconds=4, reps=1, variants=1))
            victim = _wait_for_start(fr, 30)
            time.sleep(1.0)  # well inside the 4 s run
            pids = {n: p.pid for n, p in lab.procs.items()}
            kids = descendants(pids[victim])
            lab.kill(victim)
            res = running.result(timeout=120)
        survivor = ({"k1", "k2"} - {victim}).pop()
        lost = [r for r in res.runs if not r.ok]
        good = [r for r in res.runs if r.ok]
        assert len(lost) == 1 and lost[0].error.startswith(LOST) and lost[0].host == victim
        assert len(good) == 1 and good[0].host == survivor
        assert good[0].index == lost[0].index == 0
        assert good[0].started >= lost[0].started
        assert res.samples("baseline", "throughput") == [good[0].samples["throughput"]]
        assert res.status == "complete"
        time.sleep(0.2)
        assert not [p for p in kids if _alive(p)], "the killed host's netserver survived"


def test_pinned_run_waits_for_its_host_to_return():
    """With placement=host a lost host's run is re-run when the host comes back."""
    with LocalLab() as lab:
        lab.add_worker("p1", "pool=p", probe=True)
        fr = FleetRunner(lab.address, ["pool=p"], placement="host", timeout=120)
        with fr:
            running = _in_background(fr, netperf_spec("p", seconds=3, reps=1, variants=1))
            assert _wait_for_start(fr, 30) == "p1"
            time.sleep(0.5)
            lab.kill("p1")
            time.sleep(1.0)
            lab.add_worker("p1", "pool=p", probe=True)
            res = running.result(timeout=120)
        assert [r.ok for r in res.runs] == [False, True]
        assert {r.host for r in res.runs} == {"p1"}
        assert len(res.samples("baseline", "throughput")) == 1


def test_tls_lab_requires_encryption(tmp_path):
    from distributed.security import Security

    from runners.fleet_lab import make_tls

    tls = make_tls(tmp_path)
    with LocalLab(tls=tls) as lab:
        assert lab.address.startswith("tls://")
        lab.add_worker("t1", "pool=t", probe=True)
        sec = Security(require_encryption=True, tls_ca_file=tls.ca,
                       tls_client_cert=tls.cert, tls_client_key=tls.key)
        with FleetRunner(lab.address, ["pool=t"], security=sec) as fr:
            res = fr.run(netperf_spec("t", reps=1, variants=1))
        assert res.status == "complete" and res.runs[0].host == "t1"
        plain = lab.address.replace("tls://", "tcp://")
        with pytest.raises(FleetError, match="cannot reach"):
            FleetRunner(plain, connect_timeout=3).connect()
        # a worker without the lab's certificate is not let in
        rogue = subprocess.run(
            [sys.executable, "-m", "verifier", "worker", "--scheduler", plain,
             "--host-name", "rogue", "--no-probe", "--connect-timeout", "3"],
            capture_output=True, text=True, timeout=60)
        assert rogue.returncode == 2
        assert rogue.stderr.strip().splitlines()[-1].startswith("verifier worker: cannot join")


def test_worker_bad_input_is_one_line():
    p = subprocess.run([sys.executable, "-m", "verifier", "worker", "--scheduler",
                        "tcp://127.0.0.1:1", "--tags", "nic=mlx5,bad tag"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2
    assert p.stderr.strip() == "verifier worker: bad tag 'bad tag': use key=value or a word " \
                               "of letters, digits, _.:+-"
    p = subprocess.run([sys.executable, "-m", "verifier", "worker", "--scheduler",
                        "tls://127.0.0.1:1", "--tls-ca", "/nonexistent"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "TLS needs all of" in p.stderr and "Traceback" not in p.stderr


def _in_background(fr: FleetRunner, spec: Spec) -> Future[Results]:
    """fr.run(spec) on its own thread, so that the test can act on the lab meanwhile."""
    pool = ThreadPoolExecutor(1)
    try:
        return pool.submit(fr.run, spec)
    finally:
        pool.shutdown(wait=False)


def _wait_for_start(fr: FleetRunner, timeout: float) -> str:
    deadline = time.time() + timeout
    while time.time() < deadline:
        host = fr.starts.first_host()
        if host:
            return host
        time.sleep(0.05)
    raise AssertionError("no run started")


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_fleet_command_lists_hosts_and_writes_results(lab, tmp_path):
    spec_file = tmp_path / "spec.yaml"
    spec_file.write_text(netperf_spec("cli", reps=1).to_yaml())
    base = [sys.executable, "-m", "verifier", "fleet", "--scheduler", lab.address]
    p = subprocess.run(base + ["--hosts"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert [ln.split("\t")[0] for ln in p.stdout.splitlines()] == ["lab1", "lab2", "lab3"]
    out = tmp_path / "results.json"
    p = subprocess.run(base + [str(spec_file), "--tags", "nic=mlx5", "-o", str(out)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    res = Results.load(out)
    assert res.runner == "fleet" and {r.host for r in res.runs} == {"lab1"}
    assert "nic=mlx5" in res.environment["host_tags"]["lab1"]
    assert len(res.samples("candidate", "throughput")) == 1
    p = subprocess.run(base + [str(tmp_path / "missing.yaml")], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, p.stderr


def test_plan_keeps_the_local_runners_abba_order():
    from random import Random

    from runners.execute import abba_order
    from runners.fleet import plan_items

    spec = netperf_spec("o", reps=3)
    spec.run.warmup = 1
    items = plan_items(spec)
    assert [i.index for i in items] == list(range(8))
    assert [i.warmup for i in items] == [True, True] + [False] * 6
    want = abba_order(["baseline", "candidate"], 3, Random(f"{spec.run.seed}:0:0"))
    assert [i.variant for i in items[2:]] == want
    more = plan_items(spec, ["candidate"], 2, batch=1, start=8)
    assert [(i.variant, i.index, i.warmup) for i in more] == [("candidate", 8, False),
                                                               ("candidate", 9, False)]


@pytest.mark.root
def test_netns_worker_runs_between_its_own_namespaces():
    """A worker started with --runner netns runs each repetition across a veth pair it
    builds and removes; the netperf argv names the namespace's address, not loopback."""
    with LocalLab() as lab:
        lab.add_worker("n1", "pool=n", probe=True, extra=["--runner", "netns"])
        with FleetRunner(lab.address, ["pool=n"]) as fr:
            res = fr.run(netperf_spec("n", reps=1, variants=1))
        assert res.status == "complete", res.reason
        rec = res.runs[0]
        assert rec.ok and rec.host == "n1", rec.error
        host = rec.argv[rec.argv.index("-H") + 1]
        assert host != "127.0.0.1" and not host.startswith("127."), rec.argv
    left = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    assert "flt-" not in left


def test_scheduler_lost_mid_run_is_interrupted_not_a_hang():
    """The controller keeps what it has and says "interrupted" (dask gives up reconnecting
    after its 10 s); no record pretends a host was lost."""
    with LocalLab() as lab:
        lab.add_worker("s1", "pool=s", probe=True)
        with FleetRunner(lab.address, ["pool=s"], timeout=120) as fr:
            killer = threading.Timer(1.5, lambda: lab.kill("scheduler"))
            killer.start()
            res = fr.run(netperf_spec("s", seconds=1, reps=6, variants=1))
            killer.join()
    assert res.status == "interrupted" and "scheduler-connection-lost" in res.reason
    assert all(not (r.error or "").startswith(LOST) for r in res.runs)
    assert len({r.index for r in res.runs}) == len(res.runs) == 6


@pytest.mark.root
def test_ssh_pair_worker_holds_both_machines(tmp_path_factory):
    """A two-machine pair is one worker reaching client and server over ssh (a real sshd on
    127.0.0.1 plays both "machines", as in tests/runners/test_runners_ssh.py); it advertises
    pair=<server> so a spec can ask for the pair."""
    from tests.runners.test_runners_ssh import sshd as sshd_fixture

    gen = sshd_fixture.__wrapped__(tmp_path_factory)
    sshd = next(gen)
    try:
        with LocalLab() as lab:
            lab.add_worker("pairA", "", probe=True,
                           extra=["--runner", "ssh", "--pair", "client=lab1,server=lab2",
                                  "--ssh-config", str(sshd["config"])])
            with FleetRunner(lab.address, ["pair=lab2"]) as fr:
                assert "pair=lab2" in fr.hosts()["pairA"]["tags"]
                res = fr.run(netperf_spec("ssh", reps=1, variants=1))
        assert res.status == "complete", res.reason
        assert res.runs[0].ok and res.runs[0].host == "pairA", res.runs[0].error
    finally:
        next(gen, None)


def test_timeout_keeps_what_finished_and_marks_the_rest(lab):
    """A 1 s spec with a 3 s budget on one host: some runs finish, the rest are recorded
    as interrupted, nothing is dropped."""
    with FleetRunner(lab.address, ["nic=mlx5"], timeout=3.5) as fr:
        res = fr.run(netperf_spec("to", reps=4, variants=1))
    assert res.status == "interrupted"
    assert sorted(r.index for r in res.runs) == [0, 1, 2, 3]
    assert any(r.ok for r in res.runs)
    assert any((r.error or "").startswith("interrupted: no result within") for r in res.runs)


def test_a_second_worker_with_a_taken_host_name_is_refused(lab):
    p = subprocess.run([sys.executable, "-m", "verifier", "worker", "--scheduler", lab.address,
                        "--host-name", "lab1", "--no-probe", "--listen", "127.0.0.1",
                        "--connect-timeout", "10"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2
    assert p.stderr.strip().splitlines()[-1] == (
        f"verifier worker: cannot join the scheduler {lab.address}: the host name 'lab1' is "
        "taken by a connected worker")
