"""The ssh runner against a real sshd (Debian openssh-server) started here on 127.0.0.1 with
a generated host key and user key; host key checking is on via the test's known_hosts.
The "remote" host is this machine."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from runners.base import RunnerError
from runners.execute import execute
from runners.ssh import SshRunner
from tests.paths import ROOT
from tests.runner_specs import comm, descendants, iperf3_d007, pid_alive, seed001, stop, wait_for

pytestmark = pytest.mark.root
LO_GRO = "/sys/class/net/lo/tx_queue_len"  # a knob lo has (gro_flush_timeout cannot act)


def keygen(path: Path) -> str:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)], check=True)
    return path.with_suffix(".pub").read_text().strip()


def write_config(d: Path, port: int, known_hosts: Path, out: Path | None = None) -> Path:
    cfg = (out or d) / "ssh_config"
    cfg.write_text(f"""Host lab1 lab2
  HostName 127.0.0.1
  Port {port}
  User root
  IdentityFile {d / 'id_ed25519'}
  IdentitiesOnly yes
  UserKnownHostsFile {known_hosts}
  GlobalKnownHostsFile /dev/null
""")
    return cfg


@pytest.fixture(scope="module")
def sshd(tmp_path_factory):
    d = tmp_path_factory.mktemp("sshd")
    host_pub = keygen(d / "host_ed25519")
    (d / "authorized_keys").write_text(keygen(d / "id_ed25519") + "\n")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    (d / "sshd_config").write_text(f"""ListenAddress 127.0.0.1
Port {port}
HostKey {d / 'host_ed25519'}
AuthorizedKeysFile {d / 'authorized_keys'}
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PidFile {d / 'sshd.pid'}
""")
    os.makedirs("/run/sshd", mode=0o755, exist_ok=True)  # sshd's privilege-separation dir
    log = open(d / "sshd.log", "wb")  # a file, so sshd never blocks on a full pipe
    proc = subprocess.Popen(["/usr/sbin/sshd", "-D", "-e", "-f", str(d / "sshd_config")],
                            stderr=log, start_new_session=True)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.05)
    known = d / "known_hosts"
    known.write_text(f"[127.0.0.1]:{port} {host_pub}\n")
    yield {"dir": d, "port": port, "config": write_config(d, port, known), "pid": proc.pid}
    proc.terminate()
    proc.wait(timeout=10)
    log.close()


def test_runs_commands_with_host_key_checked(sshd):
    with SshRunner({"client": "lab1", "server": "lab2"}, config=str(sshd["config"])) as r:
        res = r.run("client", ["echo", "a b", "$(touch /tmp/CANARY)", ";", "|"], timeout=20)
        assert res.ok and res.stdout == "a b $(touch /tmp/CANARY) ; |\n"
        assert not Path("/tmp/CANARY").exists()
        assert r.address("server") == "127.0.0.1" and r.device("client") == "lo"
        assert r.tool_version("client", "netperf").startswith("Netperf version")
        assert r.tool_version("client", "no-such-tool") is None
        env = r.environment(["iperf3"])
        assert env["runner"] == "ssh" and env["hosts"]["client"]["cpus"] >= 1
        assert env["hosts"]["server"] == {"same_as": "client"} or env["hosts"]["server"]["kernel"]
        ctl = r._ctl
    # lab1 and lab2 are one address: each still had its own master, and both are gone
    time.sleep(0.5)
    left = subprocess.run(["pgrep", "-f", ctl], capture_output=True, text=True).stdout
    assert left == "", f"ssh processes left behind: {left}"


def test_unknown_host_key_is_refused(sshd, tmp_path):
    wrong = tmp_path / "known_hosts"
    wrong.write_text(f"[127.0.0.1]:{sshd['port']} {keygen(tmp_path / 'other')}\n")
    cfg = write_config(sshd["dir"], sshd["port"], wrong, tmp_path)
    r = SshRunner({"client": "lab1"}, config=str(cfg))
    with pytest.raises(RunnerError, match="ssh lab1"):
        with r:
            pass
    empty = tmp_path / "empty_known_hosts"
    empty.write_text("")
    cfg2 = write_config(sshd["dir"], sshd["port"], empty, tmp_path)
    with pytest.raises(RunnerError):
        with SshRunner({"client": "lab1"}, config=str(cfg2)):
            pass


def test_iperf3_claim_over_ssh_and_server_is_killed(sshd):
    with SshRunner({"client": "lab1", "server": "lab2"}, config=str(sshd["config"])) as r:
        res = execute(iperf3_d007(), r)
        server = next(iter(r._servers.values()))
        remote_pid = int(server.pid)
        assert pid_alive(remote_pid)
    assert res.status == "complete", res.reason
    assert all(x.ok and x.samples["sender_bitrate"] > 0 for x in res.runs)
    assert res.environment["hosts"]["client"]["tools"]["iperf3"].startswith("iperf 3")
    assert not pid_alive(remote_pid)


def test_seed001_over_ssh_restores_the_setting(sshd):
    original = Path(LO_GRO).read_text().strip()
    spec = seed001(duration=1, reps=1, values=("1001", "1002"), attr="tx_queue_len")
    with SshRunner({"client": "lab1", "server": "lab1"}, config=str(sshd["config"])) as r:
        res = execute(spec, r)
    assert res.status == "complete", res.reason
    assert all(x.ok for x in res.runs)
    assert {t["target"] for t in res.environment["touched"]} == {LO_GRO}
    assert Path(LO_GRO).read_text().strip() == original


def test_sigterm_mid_run_stops_the_remote_server(sshd, tmp_path):
    """`verifier run --runner ssh` killed mid-run: the server it started on the "remote"
    host (a process under this sshd) is gone and the setting restored."""
    original = Path(LO_GRO).read_text().strip()
    spec = tmp_path / "spec.yaml"
    spec.write_text(seed001(duration=2, reps=20, values=("1001", "1002"), attr="tx_queue_len").to_yaml())
    root = ROOT
    proc = subprocess.Popen(
        [sys.executable, "-m", "verifier", "run", str(spec), "--runner", "ssh", "--hosts",
         "client=lab1,server=lab2", "--ssh-config", str(sshd["config"]), "--quiet",
         "-o", str(tmp_path / "r.json")], cwd=root, stderr=subprocess.PIPE)
    try:
        servers = wait_for(lambda: [p for p in descendants(sshd["pid"])
                                    if comm(p) == "netserver"], timeout=60)
        argv = Path(f"/proc/{servers[0]}/cmdline").read_bytes().split(b"\0")
        port = argv[argv.index(b"-p") + 1].decode()
        wait_for(lambda: Path(LO_GRO).read_text().strip() in ("1001", "1002"))
        time.sleep(1.0)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        stop(proc)
    assert proc.returncode == 130 and b"Traceback" not in err
    assert json.loads((tmp_path / "r.json").read_text())["status"] == "interrupted"
    assert not [p for p in servers if pid_alive(p)]
    assert not [p for p in descendants(sshd["pid"]) if comm(p) in ("netserver", "netperf")]
    # netserver forks a child per test; once the ssh session is gone it is no longer under
    # sshd, so look for anything still serving our port anywhere.
    left = subprocess.run(["pgrep", "-f", f"^netserver -D -p {port}$"], capture_output=True,
                          text=True).stdout.split()
    assert left == []
    assert Path(LO_GRO).read_text().strip() == original
