"""Every registered tool description, end to end: a mail showing its command is read with
that tool, the spec built from it passes the safety checks, and a fleet host that has the
program installed advertises it, so the spec finds a host.

The facts each stage needs (denied options, count limits, default argv and port, version
flag) live on the description; these tests fail when a new tool is registered and one
stage does not know it, which is how neper, super_netperf, xdp-bench and xdpsock once
found no fleet host.
"""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess

import pytest

from claims import safety
from claims.extract import extract_message
from claims.message import message_from_text
from claims.model import Claim, Extraction, Value
from claims.spec import Command
from claims.specbuild import build_specs
from claims.tools import all_tools, tool_for_program, tool_programs
from runners.base import version_flag
from runners.fleet import FleetRunner
from runners.fleet_host import known_programs, probe_tags

# The command line a mail shows for each tool (a new tool needs one here).
EXAMPLES = {
    "netperf": "netperf -H 10.0.0.2 -t TCP_RR -l 30",
    "iperf3": "iperf3 -c 10.0.0.2 -t 30 -P 4",
    "iperf2": "iperf -c 10.0.0.2 -t 30",
    "sockperf": "sockperf ping-pong -i 10.0.0.2 -t 30",
    "neper": "tcp_rr -c -H 10.0.0.2 -T 4 -F 100 -l 30",
    "super_netperf": "super_netperf 8 -H 10.0.0.2 -t TCP_STREAM -l 30",
    "perf": "perf stat -e cycles -r 5 netperf -H 10.0.0.2 -t TCP_RR -l 10",
    "trafgen": "trafgen --dev eth0 --conf udp.cfg -n 1000000",
    "xdp-bench": "xdp-bench drop eth0",
    "xdpsock": "xdpsock -i eth0 -q 0 -r -N",
}
RUNNABLE = sorted(t.name for t in all_tools() if t.programs)


def mail(command: str) -> str:
    return f"""From: A Developer <a@example.org>
Subject: [PATCH net-next] net: make the fast path faster

I ran this on both kernels:

  # {command}

Before the patch: 1000000 pps
After the patch:  1200000 pps
"""


def spec_from_mail(command: str):
    ex = extract_message(message_from_text(mail(command)))
    (spec,) = build_specs([ex])
    return ex, spec


def blocking(spec) -> list[str]:
    return [str(p) for p in safety.check_spec(spec)]


def test_every_runnable_tool_has_an_example_and_the_output_only_ones_refuse_to_run():
    assert set(EXAMPLES) == set(RUNNABLE)
    read_only = {t.name: t for t in all_tools() if not t.programs}
    assert sorted(read_only) == ["ping", "pktgen", "testpmd", "unixbench"]  # read from mail, never re-run
    with pytest.raises(Exception, match="/proc/net/pktgen"):
        read_only["pktgen"].parse_args(["pktgen"])
    with pytest.raises(Exception, match="not re-run"):
        read_only["ping"].parse_args(["ping", "-c", "5", "127.0.0.1"])
    with pytest.raises(Exception, match="not re-run"):
        read_only["testpmd"].parse_args(["dpdk-testpmd", "-l", "1-2", "--", "-i"])
    with pytest.raises(Exception, match="not re-run"):
        read_only["unixbench"].parse_args(["./Run", "-c", "16"])


@pytest.mark.parametrize("name", RUNNABLE)
def test_a_mail_command_becomes_a_safe_spec_a_fleet_host_can_take(name, tmp_path, monkeypatch):
    ex, spec = spec_from_mail(EXAMPLES[name])
    argv = shlex.split(EXAMPLES[name])
    (cmd,) = ex.commands
    if tool_for_program(name).wraps:  # type: ignore[union-attr]
        # `perf stat ... netperf ...`: the mail's command is netperf's, perf stat around it
        assert cmd.wrappers == ["perf stat"] and cmd.argv == argv[argv.index("netperf"):]
    else:
        assert (cmd.tool, cmd.argv) == (name, argv)
    assert spec.benchmark.tool == name and len(spec.benchmark.argv) == len(argv)
    assert "10.0.0.2" not in spec.benchmark.argv  # the mail's host became the server role
    assert blocking(spec) == []

    need = FleetRunner("tcp://127.0.0.1:1").requirements(spec)
    programs = [t.removeprefix("tool:") for t in need]
    assert programs and set(programs) <= set(known_programs())
    monkeypatch.setenv("PATH", str(tmp_path))
    assert not [t for t in probe_tags() if t.startswith("tool:")]  # nothing installed
    for prog in programs:  # "installed": an executable of that name on PATH
        exe = tmp_path / prog
        exe.write_text("#!/bin/sh\nexit 0\n")
        exe.chmod(0o755)
    assert set(need) <= set(probe_tags())


@pytest.mark.parametrize("name", [t.name for t in all_tools()
                                  if any(o.role == "port" for o in t.options.options)])
def test_a_port_written_as_shell_arithmetic_becomes_the_tools_default_port(name):
    tool = tool_for_program(name)
    assert tool is not None and tool.default_port is not None
    flag = next(o for o in tool.options.options if o.role == "port").names[0]
    _, spec = spec_from_mail(f"{EXAMPLES[name]} {flag} $((port+1))")
    argv = spec.benchmark.argv
    assert argv[argv.index(flag) + 1] == str(tool.default_port)
    assert spec.benchmark.bindings.get("$((port+1))") == "port"
    assert blocking(spec) == []


@pytest.mark.parametrize("name", [t.name for t in all_tools() if t.default_argv])
def test_output_without_a_command_gets_the_tools_default_run(name):
    msg = message_from_text(mail("uname -r"))
    line = next(ln.number for ln in msg.lines if "Before" in ln.text)
    claim = Claim(metric="throughput", better="higher", tool=name,
                  baseline=Value(1e6, label="before", line=line),
                  candidate=Value(1.2e6, label="after", line=line + 1), lines=(line, line + 1))
    (spec,) = build_specs([Extraction(msg, [], [], [claim])])
    tool = tool_for_program(name)
    assert tool is not None
    assert spec.benchmark.argv == list(tool.default_argv)
    assert spec.benchmark.peer_role == "server" and spec.server is not None
    assert blocking(spec) == []


def _guarded() -> list[tuple[str, str, str]]:
    """(tool, program, option) for every option a description denies on a program."""
    out = []
    for prog, tool, server in tool_programs():
        for opt in sorted(tool.server_denied_options if server else tool.denied_options):
            out.append((tool.name, prog, opt))
    return out


@pytest.mark.parametrize(("name", "program", "option"), _guarded())
def test_a_denied_option_is_refused_on_its_program(name, program, option):
    """Refused by the deny list itself, whatever the grammar says of the option."""
    cmd = Command(tool=name, argv=[program, option, "x"], peer_role="server")
    if program in tool_for_program(name).programs:  # type: ignore[union-attr]
        probs = safety.check_command(cmd)
        where = "benchmark"
    else:  # netserver: checked as the server of the tool's own example command
        bench = Command(tool=name, argv=shlex.split(EXAMPLES[name]), peer_role="server")
        probs = safety.check_command(cmd, "server", server_of=bench)
        where = "server"
    assert any(p.where == f"{where}.argv[1]" and "writes files or runs programs" in p.reason
               for p in probs), probs


@pytest.mark.parametrize(("name", "option", "limit"), [
    (t.name, o, lim) for t in all_tools() for o, lim in t.count_limits.items()])
def test_a_count_above_the_tools_limit_is_refused(name, option, limit):
    tool = tool_for_program(name)
    assert tool is not None
    base = shlex.split(EXAMPLES[name])
    if name == "perf":
        base = base[:2]  # `perf stat` alone: the count is perf's own
    cmd = Command(tool=name, argv=[*base, option, str(int(limit * 10))], peer_role="server")
    assert any(f"{option} {int(limit * 10)} is above the limit" in p.reason
               for p in safety.check_command(cmd)), safety.check_command(cmd)
    ok = Command(tool=name, argv=[*base, option, str(int(limit))], peer_role="server")
    assert not any("above the limit" in p.reason for p in safety.check_command(ok))


@pytest.mark.parametrize("program", known_programs())
def test_the_version_flag_prints_a_version(program):
    """What a runner records as the tool's version is a version, for every program a
    description names that is installed here."""
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not installed here")
    out = subprocess.run([program, *version_flag(program)], capture_output=True, text=True,
                         timeout=10, env={**os.environ, "LC_ALL": "C"})
    first = (out.stdout.strip() or out.stderr.strip()).splitlines()[0]
    assert any(ch.isdigit() for ch in first) and "unknown" not in first.lower(), first
