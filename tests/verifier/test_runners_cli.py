"""`verifier run` end to end: seed 001 through `verifier spec` and a real netns run; bad
input gives one line and a non-zero exit, never a traceback."""
from __future__ import annotations

import json

import pytest

from claims.spec import Kernel
from tests.paths import SHARED
from tests.runner_specs import seed001
from verifier.cli import main

pytestmark = pytest.mark.root
SEED001 = next((SHARED / "seeds").glob("001_*.txt"), None)


@pytest.mark.skipif(SEED001 is None, reason="shared seeds not present")
def test_seed001_spec_then_run_on_netns(tmp_path, capsys):
    """The mail's gro_flush_timeout never acts in TCP_RR on veth (runners.effect): `run`
    measures the warm-up, then says NOT RUNNABLE HERE (exit 4) with the reason."""
    spec = tmp_path / "gro.yaml"
    assert main(["spec", str(SEED001), "-o", str(spec)]) == 0
    out = tmp_path / "results.json"
    rc = main(["run", str(spec), "--runner", "netns", "--duration", "1", "--runs", "1",
               "--quiet", "-o", str(out)])
    assert rc == 4, capsys.readouterr().err
    res = json.loads(out.read_text())
    assert res["status"] == "not-runnable" and res["runner"] == "netns"
    assert "never armed" in res["reason"]
    warm = [r for r in res["runs"] if r["warmup"]]
    assert sorted(r["variant"] for r in warm) == ["baseline", "candidate"]
    assert all(r["ok"] and r["samples"]["transaction_rate"] > 0 for r in warm)
    assert {t["new"] for t in res["environment"]["touched"] if t["kind"] == "file"} == {"0",
                                                                                        "2000"}


def one_line_error(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    return err


@pytest.mark.parametrize("args,needle", [
    (["/nonexistent.yaml"], "cannot read"),
    (["{garbage"], "not YAML"),
    (["{spec}", "--runner", "ssh"], "needs --hosts"),
    (["{spec}", "--runner", "ssh", "--hosts", "client"], "not ROLE=HOST"),
    (["{spec}", "--runner", "netns", "--netem", "loss=100%"], "bad netem"),
])
def test_bad_input_is_one_line(tmp_path, capsys, args, needle):
    spec = tmp_path / "s.yaml"
    spec.write_text(seed001().to_yaml())
    garbage = tmp_path / "g.yaml"
    garbage.write_text("a: [b\n")
    args = [a.replace("{spec}", str(spec)).replace("{garbage", str(garbage)) for a in args]
    assert main(["run", *args]) == 2
    assert needle in one_line_error(capsys)


@pytest.mark.parametrize("args,needle", [
    (["--runner", "ssh", "--hosts", "client"], "verifier check: --hosts: 'client' is not ROLE=HOST"),
    (["--runner", "fleet", "--scheduler", "tcp://127.0.0.1:1", "--tags", "nic=mlx5,bad tag"],
     "verifier check: --tags: bad tag 'bad tag'"),
])
def test_check_says_a_bad_host_or_tag_in_one_line_before_reading_the_target(tmp_path, capsys,
                                                                           args, needle):
    assert main(["check", str(tmp_path / "no-such-thread.mbox"), *args]) == 2
    assert one_line_error(capsys).startswith(needle)


def test_hostile_spec_is_refused_and_nothing_runs(tmp_path, capsys):
    canary = tmp_path / "CANARY"
    spec = seed001()
    spec.benchmark.argv = ["netperf", "-H", f"x;touch {canary}"]
    spec.variants[1].setup[0].key = f"/sys/class/net/eth0/../../../..{canary}"
    path = tmp_path / "s.yaml"
    path.write_text(spec.to_yaml())
    assert main(["run", str(path), "--runner", "local", "--approve"]) == 3
    assert "refused" in one_line_error(capsys)
    assert not canary.exists()


def test_kernel_spec_is_not_runnable(tmp_path, capsys):
    spec = seed001()
    spec.needs = ["kernel"]
    spec.variants[1].kernel = Kernel(base="net-next")
    path = tmp_path / "s.yaml"
    path.write_text(spec.to_yaml())
    out = tmp_path / "r.json"
    assert main(["run", str(path), "--runner", "netns", "--quiet", "-o", str(out)]) == 4
    res = json.loads(out.read_text())
    assert (res["status"], res["reason"], res["runs"]) == ("not-runnable",
                                                           "needs a kernel runner", [])


def test_needs_approval_runs_only_with_approve(tmp_path, capsys):
    from claims.spec import Action

    spec = seed001(duration=1, reps=1, values=("1001", "1002"), attr="tx_queue_len")
    spec.run.warmup = 0
    spec.variants[1].setup.append(Action(
        kind="sysfs", key="/sys/class/net/eth0/ifalias", value="pcv-approved", device="eth0",
        raw="echo pcv-approved > /sys/class/net/eth0/ifalias"))
    path = tmp_path / "s.yaml"
    path.write_text(spec.to_yaml())
    out = tmp_path / "r.json"
    args = ["run", str(path), "--runner", "netns", "--quiet", "-o", str(out)]
    assert main(args) == 3
    assert "needs approval" in one_line_error(capsys) and not out.exists()
    assert main([*args, "--approve"]) == 0
    res = json.loads(out.read_text())
    assert res["status"] == "complete" and all(r["ok"] for r in res["runs"])
    assert any(t["target"].endswith("/ifalias") and t["new"] == "pcv-approved"
               for t in res["environment"]["touched"])
