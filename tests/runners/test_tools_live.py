"""Run the real tools on loopback and read their fresh output with the same parsers that
read mail pastes. A binary that is not installed skips its test; nothing leaves loopback
(trafgen sends only on the loopback device of a namespace the test creates and removes)."""
from __future__ import annotations

import contextlib
import re
import secrets
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator, Sequence

import pytest

from claims.tools import tool_for_program


def need(*binaries: str) -> None:
    for b in binaries:
        if shutil.which(b) is None:
            pytest.skip(f"{b} is not installed")


def free_port(kind: int = socket.SOCK_STREAM) -> int:
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float = 5.0) -> None:
    """Wait until something listens on `port`, read from /proc: connecting to probe would
    count as a test for iperf3's server."""
    hexport = f":{port:04X} "
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            with contextlib.suppress(OSError), open(table) as f:
                for row in f.readlines()[1:]:
                    cols = row.split()
                    if (cols[1] + " ").endswith(hexport) and cols[3] == "0A":
                        return
        time.sleep(0.05)
    raise AssertionError(f"server on port {port} did not come up")


@contextlib.contextmanager
def server(argv: Sequence[str], port: int | None = None, udp: bool = False) -> Iterator[None]:
    proc = subprocess.Popen(list(argv), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        if port is not None and not udp:
            wait_port(port)
        else:
            time.sleep(0.5)
        yield
    finally:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def run(argv: Sequence[str], timeout: float = 30) -> str:
    out = subprocess.run(list(argv), capture_output=True, text=True, timeout=timeout)
    assert out.returncode == 0, out.stderr[-500:]
    return out.stdout + out.stderr


def metrics(tool_argv: Sequence[str], text: str) -> dict[str, float]:
    tool = tool_for_program(tool_argv[0])
    assert tool is not None
    samples = tool.parse_run(tool_argv, text)
    assert samples, text
    return {s.metric: s.value for s in samples if not s.config}


def prepared(cmd: str, port: int, duration: float = 1) -> tuple[list[str], list[str]]:
    """The runner's path: validate the mail's command, rewrite host/duration/port, and
    ask the description for its server."""
    argv = cmd.split()
    tool = tool_for_program(argv[0])
    assert tool is not None
    tool.parse_args(argv)  # the mail's command is accepted as written
    client = tool.rewrite(argv, host="127.0.0.1", duration=duration, port=port)
    srv = tool.server_argv(tool.parse_args(client)) or []
    return client, srv


@pytest.mark.parametrize("cmd,expect", [
    ("netperf -H lpaa6 -t TCP_STREAM -l 20", {"throughput"}),
    ("netperf -H lpaa6 -t TCP_RR -l 20 -Cc -- -r 64,64",
     {"transaction_rate", "cpu_local", "cpu_remote", "service_demand_local"}),
    ("netperf -H lpaa6 -t TCP_CRR -l 20", {"transaction_rate"}),
    ("netperf -H lpaa6 -t UDP_STREAM -l 20 -- -m 1024", {"throughput", "send_throughput"}),
    ("netperf -H lpaa6 -t TCP_RR -l 20 -- -k THROUGHPUT,P99_LATENCY,TRANSACTION_RATE",
     {"throughput", "p99_latency", "transaction_rate"}),
    ("netperf -H lpaa6 -t omni -l 20 -- -d send -o THROUGHPUT,THROUGHPUT_UNITS,MEAN_LATENCY",
     {"throughput", "mean_latency"}),
])
def test_netperf_live(cmd, expect):
    need("netperf", "netserver")
    port = free_port()
    client, srv = prepared(cmd, port)
    assert srv[:2] == ["netserver", "-D"]
    with server(srv, port):
        got = metrics(client, run(client))
    assert expect <= set(got), got
    assert all(got[m] > 0 for m in expect if m in ("throughput", "transaction_rate"))


@pytest.mark.parametrize("cmd,expect", [
    ("iperf3 -c peer -t 10", {"sender_bitrate", "receiver_bitrate", "sender_retransmits"}),
    ("iperf3 -c peer -t 10 -J", {"sender_bitrate", "receiver_bitrate", "cpu_host"}),
    ("iperf3 -c peer -t 10 -P 2", {"sender_bitrate", "receiver_transfer"}),
    ("iperf3 -c peer -t 10 -u -b 20M", {"receiver_bitrate", "receiver_jitter",
                                        "receiver_lost_pct"}),
])
def test_iperf3_live(cmd, expect):
    need("iperf3")
    port = free_port()
    client, srv = prepared(cmd, port)
    assert srv == ["iperf3", "-s", "-p", str(port)]
    with server(srv, port):
        got = metrics(client, run(client))
    assert expect <= set(got), got
    assert got["receiver_bitrate"] > 0


@pytest.mark.parametrize("cmd,expect", [
    ("iperf -c peer -t 10", {"bandwidth", "transfer"}),
    ("iperf -c peer -t 10 -P 4", {"bandwidth", "transfer"}),
    ("iperf -c peer -t 10 -e", {"bandwidth", "retries"}),
])
def test_iperf2_live(cmd, expect):
    need("iperf")
    port = free_port()
    client, srv = prepared(cmd, port)
    assert srv == ["iperf", "-s", "-p", str(port)]
    with server(srv, port):
        text = run(client)
    got = metrics(client, text)
    assert expect <= set(got), got
    bw = [s for s in tool_for_program("iperf").parse(text) if s.metric == "bandwidth"]
    assert len(bw) == 1 and bw[0].value > 0  # -P 4: only the [SUM] line


@pytest.mark.parametrize("mode,expect", [
    ("ping-pong", {"avg_latency", "p99_latency", "max_latency"}),
    ("throughput", {"message_rate", "bandwidth"}),
])
def test_sockperf_live(mode, expect):
    need("sockperf")
    port = free_port(socket.SOCK_DGRAM)
    client, srv = prepared(f"sockperf {mode} -i lab2 -t 10", port)
    assert srv[:2] == ["sockperf", "server"]
    with server([*srv, "-i", "127.0.0.1"], port, udp=True):
        got = metrics(client, run(client))
    assert expect <= set(got), got


def test_perf_stat_live_repeats():
    need("perf")
    text = run(["perf", "stat", "-r", "3", "true"])
    (blk,) = tool_for_program("perf").find_outputs(text.splitlines())
    assert blk.command == "true" and blk.info["runs"] == "3"
    el = next(s for s in blk.samples if s.metric == "time_elapsed")
    assert el.runs == 3 and el.spread_pct is not None and el.value > 0
    assert any(s.metric == "task-clock" for s in blk.samples)
    csv = run(["perf", "stat", "-x,", "-r", "3", "true"])
    names = {s.metric for s in tool_for_program("perf").parse(csv)}
    assert "task-clock" in names


def test_perf_stat_around_netperf_gives_both_and_averages_the_repeats():
    """`perf stat -r 2 -- netperf -t TCP_RR`: the counters and netperf's own transaction
    rate, the mean of its two printed runs; a prose claim maps to that rate."""
    need("perf", "netperf", "netserver")
    port = free_port()
    client, srv = prepared("perf stat -r 2 -e task-clock -- netperf -H h -t TCP_RR -l 1", port)
    assert srv[:2] == ["netserver", "-D"]
    with server(srv, port):
        text = run(client)
    perf = tool_for_program("perf")
    got = metrics(client, text)
    assert got["task-clock"] > 0 and "time_elapsed" in got
    netperf = tool_for_program("netperf").parse_run(client[client.index("--") + 1:], text)
    rates = [s.value for s in netperf if s.metric == "transaction_rate"]
    assert len(rates) == 2 and got["transaction_rate"] == pytest.approx(sum(rates) / 2)
    assert perf.sample_for("TCP_RR transaction rate", "transactions/s", client) == \
        "transaction_rate"
    assert perf.sample_for("context-switches", None, client) == "context-switches"


@pytest.mark.root
def test_trafgen_and_perf_stat_around_it_in_a_namespace(tmp_path):
    """trafgen sends 64-byte frames to the loopback device of a throwaway namespace."""
    need("trafgen", "perf", "ip")
    ns = "tooltg" + secrets.token_hex(3)
    conf = tmp_path / "foo"
    conf.write_text("{ fill(0xff, 64) }\n")
    if subprocess.run(["ip", "netns", "add", ns], capture_output=True).returncode != 0:
        pytest.skip("cannot create a network namespace here")
    try:
        subprocess.run(["ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up"], check=True)
        inner = ["trafgen", "-i", "foo", "-o", "lo", "-n", "20000", "--no-sock-mem"]
        cmd = ["perf", "stat", "-r", "2", *inner]
        perf = tool_for_program("perf")
        perf.parse_args(cmd)  # the description accepts it
        out = subprocess.run(["ip", "netns", "exec", ns, *cmd], capture_output=True,
                             text=True, timeout=60, cwd=tmp_path)
        assert out.returncode == 0, out.stderr[-500:]
    finally:
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)
    tg = tool_for_program("trafgen").parse(out.stdout + out.stderr)
    assert any(s.metric == "packets_outgoing" and s.value == 20000 for s in tg)
    (blk,) = perf.find_outputs((out.stdout + out.stderr).splitlines())
    assert blk.command == "trafgen -i foo -o lo -n 20000 --no-sock-mem" and blk.info["runs"] == "2"


HELP = {
    "netperf": [["netperf", "-h"]],
    "iperf3": [["iperf3", "--help"]],
    "iperf": [["iperf", "--help"]],
    "sockperf": [["sockperf", m, "--help"] for m in ("ping-pong", "throughput", "under-load",
                                                     "server")],
    "trafgen": [["trafgen", "--help"]],
    "perf": [["perf", "stat", "-h"]],
}
# spellings the installed tools accept although their help text does not list them
UNLISTED = {"netperf": {"-4", "-6"}, "iperf3": {"--bandwidth"},
            "perf": {"--no-big-num", "--json"}}


@pytest.mark.parametrize("program", sorted(HELP))
def test_every_accepted_option_is_in_the_real_help(program):
    """The grammar describes the installed tool: each accepted spelling is in its help."""
    need(program)
    text = "\n".join(subprocess.run(c, capture_output=True, text=True).stdout
                     + subprocess.run(c, capture_output=True, text=True).stderr
                     for c in HELP[program])
    tool = tool_for_program(program)
    sets = [tool.options] + ([tool.test_options] if hasattr(tool, "test_options") else [])
    if program == "netperf":
        text += "\n".join(subprocess.run(["netperf", "-t", "TCP_RR", "--", "-h"],
                                         capture_output=True, text=True).stdout.splitlines())
    missing = [n for opts in sets for o in opts.options if not o.refused for n in o.names
               if n not in UNLISTED.get(program, set())
               and not re.search(r"(?<![\w-])" + re.escape(n) + r"(?![\w-])", text)]
    assert missing == []


@pytest.mark.parametrize("command", ["drop", "pass", "tx", "redirect", "redirect-cpu",
                                     "redirect-map", "redirect-multi"])
def test_xdp_bench_grammar_matches_its_help(command):
    """xdp-bench cannot attach here (no kernel BTF in this VM), but its help is real."""
    need("xdp-bench")
    from claims.tools.xdp_bench import COMMANDS
    out = subprocess.run(["xdp-bench", command, "--help"], capture_output=True, text=True)
    text = out.stdout + out.stderr
    missing = [n for o in COMMANDS[command].options if not o.refused for n in o.names
               if not re.search(r"(?<![\w-])" + re.escape(n) + r"(?![\w-])", text)]
    assert missing == []
