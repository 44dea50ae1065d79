"""Issue 15, spec files: a hand-edited (or hostile) spec is checked by the same safety rules
as a mail.  Each test here failed on main: the planted `/tmp/.../netperf` ran without
approval, `peer_role: null` kept `-H 8.8.8.8`, `--approve` let `nohup`, `timeout`,
`install`, `unlink`, `python3.11` and `ip netns exec` through, `perf stat -r 100` passed,
and `--duration inf` / `--runs -1` / `--max-runs -5` were accepted."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from claims import safety
from claims.spec import Action, Spec
from tests.paths import ROOT


def _spec(argv: list[str], peer_role: str | None = "server", setup: list[dict] | None = None,
          tool: str = "netperf") -> Spec:
    return Spec.from_dict({
        "id": "t1", "benchmark": {"tool": tool, "argv": argv, "peer_role": peer_role},
        "variants": [{"name": "baseline", "setup": setup or []}, {"name": "candidate"}],
        "metrics": [{"name": "throughput"}], "roles": ["client", "server"]})


def _refused(spec: Spec, approve: bool = True) -> list[str]:
    return [str(p) for p in safety.blocking(safety.check_spec(spec, approve=approve), approve)]


def test_planted_program_path_is_refused(tmp_path: Path) -> None:
    planted = tmp_path / "netperf"
    planted.write_text("#!/bin/sh\ntouch " + str(tmp_path / "ran") + "\n")
    planted.chmod(0o755)
    problems = _refused(_spec([str(planted), "-H", "10.0.0.2", "-t", "TCP_STREAM"]))
    assert any("argv[0]" in p and "not the system's netperf" in p for p in problems), problems


def test_system_path_of_the_program_is_accepted() -> None:
    import shutil

    found = shutil.which("netperf", path=safety.SYSTEM_PATH)
    if found is None:
        pytest.skip("netperf is not installed")
    assert _refused(_spec([found, "-H", "10.0.0.2", "-t", "TCP_STREAM"])) == []


def test_null_peer_role_with_an_outside_host_is_refused() -> None:
    problems = _refused(_spec(["netperf", "-H", "8.8.8.8", "-t", "TCP_STREAM"], peer_role=None))
    assert any("8.8.8.8" in p and "peer_role" in p for p in problems), problems
    assert _refused(_spec(["netperf", "-H", "8.8.8.8", "-t", "TCP_STREAM"])) == []


@pytest.mark.parametrize("raw", [
    "nohup touch /tmp/x", "timeout 5 touch /tmp/x", "install -m 755 /tmp/a /usr/bin/a",
    "unlink /tmp/x", "python3.11 -c pass", "ip netns exec ns1 touch /tmp/x",
    "ip netns exec ns1 whatever", "taskset -c 0 bash", "/tmp/x/tool --go", "perl5.36 -e 1",
])
def test_approve_does_not_pass_the_never_run_list(raw: str) -> None:
    words = raw.split()
    kind = "ip" if words[0] == "ip" else "other"
    action = Action(kind=kind, args=words, raw=raw)
    p = safety.check_action(action)
    assert p is not None and p.level == "refused", (raw, p)
    problems = _refused(_spec(["netperf", "-H", "10.0.0.2"],
                              setup=[{"kind": kind, "args": words, "raw": raw}]))
    assert any("setup[0]" in x for x in problems)


def test_perf_stat_repeat_is_capped() -> None:
    big = _spec(["perf", "stat", "-r", "100", "--", "netperf", "-H", "10.0.0.2"], tool="perf")
    assert any("-r 100" in p and "limit" in p for p in _refused(big))
    ok = _spec(["perf", "stat", "-r", "10", "--", "netperf", "-H", "10.0.0.2"], tool="perf")
    assert not any("-r" in p for p in _refused(ok))


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "verifier", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=120, env=env)


def _spec_file(tmp_path: Path, argv: list[str]) -> Path:
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(_spec(argv).to_dict()))
    return path


def test_run_refuses_a_planted_program_before_running_it(tmp_path: Path) -> None:
    canary = tmp_path / "ran"
    planted = tmp_path / "netperf"
    planted.write_text(f"#!/bin/sh\ntouch {canary}\n")
    planted.chmod(0o755)
    spec = _spec_file(tmp_path, [str(planted), "-H", "10.0.0.2", "-t", "TCP_STREAM"])
    r = _cli("run", str(spec), "--runner", "local", "--quiet", cwd=tmp_path)
    assert r.returncode == 3 and "not the system's netperf" in r.stderr, r.stderr
    assert not canary.exists()


@pytest.mark.parametrize("args", [["--duration", "inf"], ["--duration", "nan"],
                                  ["--duration", "-1"], ["--runs", "-1"], ["--runs", "0"],
                                  ["--runs", "100000000"]])
def test_run_refuses_impossible_numbers_in_one_line(tmp_path: Path, args: list[str]) -> None:
    spec = _spec_file(tmp_path, ["netperf", "-H", "10.0.0.2"])
    r = _cli("run", str(spec), "--runner", "local", "--quiet", *args, cwd=tmp_path)
    assert r.returncode == 2 and "must be" in r.stderr and "Traceback" not in r.stderr


def test_check_refuses_negative_max_runs(tmp_path: Path) -> None:
    r = _cli("check", "x.mbox", "--max-runs", "-5", cwd=tmp_path)
    assert r.returncode == 2 and "--max-runs" in r.stderr and "Traceback" not in r.stderr


def test_non_finite_numbers_and_alias_bombs_are_refused() -> None:
    from claims.spec import SpecError, specs_from_yaml

    base = _spec(["netperf", "-H", "10.0.0.2"]).to_dict()
    base["run"]["duration"] = float("nan")
    with pytest.raises(SpecError, match="finite"):
        specs_from_yaml(yaml.safe_dump(base))
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
        for p, c in zip("abcdefgh", "bcdefghi", strict=True))
    with pytest.raises(SpecError, match="aliases"):
        specs_from_yaml(bomb)


def test_run_of_dev_zero_and_closed_stdin_end_in_one_line(tmp_path: Path) -> None:
    r = _cli("run", "/dev/zero", "--runner", "local", "--quiet", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-m", "verifier", "run", "-", "--runner", "local"],
                       capture_output=True, text=True, cwd=tmp_path, timeout=60, env=env,
                       stdin=subprocess.DEVNULL)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr


def test_setup_step_program_from_a_spec_path_is_refused() -> None:
    p = safety.check_action(Action(kind="tc", args=["/tmp/x/tc", "qdisc", "add", "dev", "eth0",
                                                    "root", "fq"]))
    assert p is not None and p.level == "refused" and "not the system's tc" in p.reason
    assert safety.check_action(Action(kind="tc", args=["tc", "qdisc", "add", "dev", "eth0",
                                                       "root", "fq"])) is None


def test_a_peer_role_the_runner_lacks_does_not_keep_the_mails_host() -> None:
    """`peer_role: lab` is one of the spec's roles but not the runner's: nothing replaces
    `-H 8.8.8.8`, so the command as it would run is refused before anything starts."""
    from runners.execute import NotRunnable, prepare
    from runners.local import LocalRunner

    spec = Spec.from_dict({
        "id": "t2", "benchmark": {"tool": "netperf", "argv": ["netperf", "-H", "8.8.8.8", "-t",
                                                             "TCP_STREAM"], "peer_role": "lab"},
        "variants": [{"name": "baseline"}, {"name": "candidate"}],
        "metrics": [{"name": "throughput"}], "roles": ["client", "lab"]})
    with pytest.raises(NotRunnable, match="8.8.8.8"):
        prepare(spec, LocalRunner())
