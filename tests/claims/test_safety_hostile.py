"""Hostile commands and setup steps (tests/fixtures/hostile/) are refused with reasons, and
nothing of them runs: a canary file they all try to create must never appear, even when the
specs go through `verifier run --approve` on the local runner."""
from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from claims import safety
from claims.message import message_from_text
from claims.model import Claim, Extraction, SetupStep, Value
from claims.model import Command as MailCommand
from claims.spec import Spec
from claims.specbuild import action_from_step, build_specs
from tests.paths import FIXTURES

HOSTILE = FIXTURES / "hostile"


def _lines(name: str) -> list[str]:
    return [ln for ln in (HOSTILE / name).read_text().splitlines()
            if ln.strip() and not ln.startswith("#")]


COMMANDS = _lines("commands.txt")
SETUP = [tuple(ln.split("\t", 1)) for ln in _lines("setup.txt")]


def _mail_command(raw: str) -> MailCommand:
    """The command as the extractor reads it (its own reader when present)."""
    try:
        from claims.commands import make_command
    except ImportError:
        argv = raw.split()
        return MailCommand(raw=raw, line=1, tool=argv[0].rsplit("/", 1)[-1], argv=argv)
    return make_command(raw, 1, None, 0)


def _step(raw: str, line: int = 1) -> SetupStep:
    try:
        from claims.setup_steps import parse_setup
        step = parse_setup(raw, line)
    except ImportError:
        step = None
    return step or SetupStep(raw=raw, kind="other", line=line, args=shlex.split(raw)[1:])


def _claim() -> Claim:
    return Claim(metric="throughput", better="higher", baseline=Value(1.0, "before", line=2),
                 candidate=Value(2.0, "after", line=3), lines=(2, 3))


def _spec_for_command(raw: str) -> Spec:
    msg = message_from_text(f"{raw}\nbefore: 1\nafter: 2\n")
    (spec,) = build_specs([Extraction(msg, [_mail_command(raw)], [], [_claim()])])
    return spec


@pytest.fixture
def canary(tmp_path):
    path = tmp_path / "canary"
    yield str(path)
    assert not path.exists(), "a hostile command or setup step ran"


@pytest.mark.parametrize("raw", COMMANDS)
def test_hostile_command_refused_with_reason(raw, canary):
    spec = _spec_for_command(raw.replace("@CANARY@", canary))
    refused = [p for p in safety.check_spec(spec, approve=True) if p.level == "refused"]
    assert refused, f"accepted: {raw}"
    assert all(p.where and len(p.reason) > 10 for p in refused)
    Spec.from_yaml(spec.to_yaml())  # still a valid spec that says why


@pytest.mark.parametrize("expect,raw", SETUP)
def test_hostile_setup_step(expect, raw, canary):
    action = action_from_step(_step(raw.replace("@CANARY@", canary)))
    p = safety.check_action(action)
    assert p is not None, f"allowed: {raw}"
    assert p.level == ("refused" if expect == "refused" else "needs-approval"), p.reason


def test_setup_steps_in_specs_need_a_person_or_are_refused(canary):
    """Each setup step placed before the baseline run of a benign benchmark."""
    for expect, raw in SETUP:
        text = raw.replace("@CANARY@", canary)
        msg = message_from_text(f"{text}\nnetperf -H peer\nbefore: 1\nafter: 2\n")
        cmd = MailCommand(raw="netperf -H peer", line=2, tool="netperf",
                          argv=["netperf", "-H", "peer"])
        claim = Claim(metric="throughput", baseline=Value(1.0, "before", line=3),
                      candidate=Value(2.0, "after", line=4), lines=(3, 4))
        (spec,) = build_specs([Extraction(msg, [cmd], [_step(text)], [claim])])
        assert spec.variants[0].setup[0].reason, raw
        bot = safety.blocking(safety.check_spec(spec))
        person = safety.blocking(safety.check_spec(spec, approve=True), approve=True)
        assert bot, raw
        assert bool(person) == (expect == "refused"), raw


def test_safe_things_pass():
    """The allow-list is not empty: the knobs benchmarks really use are accepted."""
    ok = ["echo 2000 > /sys/class/net/eth0/gro_flush_timeout",
          "echo 2 > /sys/class/net/eth0/napi_defer_hard_irqs",
          "echo f > /sys/class/net/eth0/queues/rx-0/rps_cpus",
          "sysctl -w net.core.somaxconn=4096", "sysctl -w net.ipv4.tcp_rmem='4096 87380 6291456'",
          "echo 1 > /proc/sys/net/ipv4/tcp_sack",  # per-namespace keys (claims.sysctl_policy)
          "ethtool -K eth0 gro off", "ethtool -C eth0 rx-usecs 50 adaptive-rx off",
          "ethtool -G eth0 rx 4096 tx 4096", "ethtool -L eth0 combined 8",
          "tc qdisc replace dev eth0 root fq", "tc qdisc add dev eth0 root netem delay 1ms"]
    for raw in ok:
        action = action_from_step(_step(raw))
        assert safety.check_action(action) is None, (raw, safety.check_action(action))
    for argv in (["netperf", "-H", "server", "-t", "TCP_RR", "-l", "20", "-Cc", "--",
                  "-r", "40000,40000"], ["iperf3", "-c", "server", "-t", "10", "-P", "4"]):
        from claims.spec import Command
        assert safety.check_command(Command(tool=argv[0], argv=argv)) == []


def _write_hostile_specs(tmp_path: Path, canary: str) -> list[Path]:
    paths = []
    for i, raw in enumerate(COMMANDS):
        spec = _spec_for_command(raw.replace("@CANARY@", canary))
        p = tmp_path / f"cmd{i}.yaml"
        p.write_text(spec.to_yaml())
        paths.append(p)
    for i, (_, raw) in enumerate(SETUP):
        text = raw.replace("@CANARY@", canary)
        msg = message_from_text(f"{text}\nnetperf -H peer -l 1\nbefore: 1\nafter: 2\n")
        cmd = MailCommand(raw="netperf -H peer -l 1", line=2, tool="netperf",
                          argv=["netperf", "-H", "peer", "-l", "1"])
        claim = Claim(metric="throughput", baseline=Value(1.0, "before", line=3),
                      candidate=Value(2.0, "after", line=4), lines=(3, 4))
        (spec,) = build_specs([Extraction(msg, [cmd], [_step(text)], [claim])])
        # Hostile edits to the file itself: pretend it was approved, and a huge plan.
        for v in spec.variants:
            for a in v.setup:
                a.approved = True
                a.reason = None
        p = tmp_path / f"setup{i}.yaml"
        p.write_text(spec.to_yaml())
        paths.append(p)
    return paths


@pytest.mark.root
def test_nothing_runs_through_verifier_run(tmp_path, canary, capsys, monkeypatch):
    """The whole path a spec takes: file -> `verifier run --approve` on the local runner.

    In-process (`verifier.cli.main`) so the CLI's imports are paid once.  Setup steps marked
    "approval" may legitimately run with a person's --approve, so those specs run without
    it; every other one runs with it.
    """
    from verifier.cli import main

    monkeypatch.chdir(tmp_path)
    approval = {f"setup{i}.yaml" for i, (e, _) in enumerate(SETUP) if e == "approval"}
    for path in _write_hostile_specs(tmp_path, canary):
        args = ["run", str(path), "--runner", "local", "--runs", "1", "--duration", "1",
                "--quiet", "-o", str(tmp_path / "results.json")]
        if path.name not in approval:
            args.append("--approve")
        rc = main(args)
        out = capsys.readouterr()
        assert "Traceback" not in out.err, out.err
        if path.name.startswith("cmd"):
            assert rc != 0 and "refused" in out.out + out.err, (path.name, out)
        assert not Path(canary).exists(), f"{path.name} ran something"


MAILS = sorted(HOSTILE.glob("mail-*.txt"))


@pytest.mark.root
@pytest.mark.parametrize("mail", MAILS, ids=[m.stem for m in MAILS])
def test_hostile_mail_through_spec_and_run(mail, tmp_path, canary, capsys, monkeypatch):
    """A hostile mail read by the real extractor, `verifier spec`, then `verifier run
    --approve`: its injections are refused (or never make it into an argv) and the canary
    stays absent."""
    from claims.spec import load_specs
    from verifier.cli import main

    monkeypatch.chdir(tmp_path)
    src = tmp_path / mail.name
    src.write_text(mail.read_text().replace("/tmp/pwned", canary))
    assert main(["spec", str(src), "-o", str(tmp_path / "specs") + "/"]) == 0
    paths = capsys.readouterr().out.split()
    assert paths
    refusals = 0
    for path in paths:
        (spec,) = load_specs(path)
        problems = safety.check_spec(spec, approve=True)
        refusals += sum(p.level == "refused" for p in problems)
        for tok in spec.benchmark.argv:
            assert canary not in tok or problems, "a hostile argument passed the checks"
        rc = main(["run", path, "--runner", "local", "--approve", "--runs", "1",
                   "--duration", "1", "--quiet", "-o", str(tmp_path / "r.json")])
        out = capsys.readouterr()
        assert "Traceback" not in out.err
        if problems:
            assert rc != 0
        assert not Path(canary).exists()
    assert refusals, "nothing in a hostile mail was refused"


def _edit(spec: Spec, path: str, value) -> Spec:
    d = spec.to_dict()
    *head, last = path.split(".")
    node = d
    for k in head:
        node = node[int(k)] if isinstance(node, list) else node[k]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return Spec.from_dict(d)


@pytest.mark.parametrize("path,value,fragment", [
    ("server.argv", ["sh", "-c", "id"], "is not the server of"),
    ("server.argv", ["netserver", "-D", "-d"], "writes files or runs programs"),
    ("benchmark.tool", "perf", "does not match"),
    ("benchmark.argv", ["/bin/sh", "-c", "id -u"], "contains space"),
    ("benchmark.argv", ["nc", "-l", "4444"], "unknown tool"),
    ("benchmark.peer_role", "evil", "not in roles"),
    ("run.timeout", 1e9, "above the limit"),
    ("run.repetitions", 1000, None),
    ("run.duration", 86400, "above the limit"),
    ("run.duration_cap", 86400.0, "above the limit"),
    ("variants.0.setup", [{"kind": "other", "args": ["rm", "-rf", "/"], "approved": True}],
     "never run"),
    ("variants.0.setup", [{"kind": "sysfs", "key": "/sys/class/net/eth0/mtu", "value": "9000",
                           "roles": ["evil"]}], "not in roles"),
])
def test_hand_edited_spec_files_are_checked(path, value, fragment):
    """A spec file is editable, so everything in it is checked again, `approved` included."""
    msg = message_from_text("netperf -H peer -t TCP_RR\nbefore 1\nafter 2\n")
    cmd = MailCommand(raw="netperf -H peer -t TCP_RR", line=1, tool="netperf",
                      argv=["netperf", "-H", "peer", "-t", "TCP_RR"])
    (spec,) = build_specs([Extraction(msg, [cmd], [], [_claim()])])
    assert safety.check_spec(spec) == []
    edited = _edit(spec, path, value)
    reasons = [str(p) for p in safety.check_spec(edited, approve=True)]
    if fragment is None:
        assert reasons == []
    else:
        assert any(fragment in r for r in reasons), reasons
