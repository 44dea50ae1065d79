"""Issue 15, item 8: the CLI refuses what cannot be done, in one line, before doing work.
On main: closed stdin and broken extraction JSON were internal errors (exit 3)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT


def _cli(*args: str, cwd: Path, **kw) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "verifier", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=120, env=env, **kw)


def _closed_stdin() -> None:
    os.close(0)


@pytest.mark.parametrize("command", [["extract", "-"], ["spec", "-"], ["run", "-"],
                                     ["lint", "-"]])
def test_closed_stdin_is_one_line(tmp_path: Path, command: list[str]) -> None:
    r = _cli(*command, cwd=tmp_path, preexec_fn=_closed_stdin)  # noqa: PLW1509
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "closed" in r.stderr, r.stderr


@pytest.mark.parametrize("doc", [
    '{"messages": [{"message": {"lines": 5}, "claims": "x"}]}',
    '{"commands":[{"raw": 5, "line": "x"}]}',
    '{"claims":[{"metric": "t", "better": 7, "baseline": {"value": "x"}, "candidate": {"value": []}}]}',
    '{"lines":[{"text": 1, "number": "a"}], "claims":[{"metric": "t", "baseline": {"value": 1},'
    ' "candidate": {"value": 2}, "lines": "ab"}]}',
])
def test_broken_extraction_json_is_one_line(tmp_path: Path, doc: str) -> None:
    path = tmp_path / "x.json"
    path.write_text(doc)
    r = _cli("spec", str(path), cwd=tmp_path)
    assert r.returncode != 3 and "not extraction JSON" in r.stderr, r.stderr
    assert r.stderr.count("\n") == 1


def _spec_file(tmp_path: Path) -> Path:
    import yaml

    from claims.spec import Spec

    spec = Spec.from_dict({"id": "t1", "benchmark": {"tool": "netperf", "argv": [
        "netperf", "-H", "10.0.0.2", "-l", "1"]}, "variants": [{"name": "baseline"},
        {"name": "candidate"}], "metrics": [{"name": "throughput"}]})
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(spec.to_dict()))
    return path


@pytest.mark.parametrize("out", ["/proc/nope/results.json", "/nonexistent-dir/r.json", "."])
def test_unwritable_output_is_refused_before_the_run(tmp_path: Path, out: str) -> None:
    """On main `run -o` to an unwritable path was found after the whole benchmark ran."""
    import time

    t = time.monotonic()
    r = _cli("run", str(_spec_file(tmp_path)), "--runner", "local", "--quiet", "-o", out,
             cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "-o" in r.stderr, r.stderr
    assert time.monotonic() - t < 30


def test_vm_runner_without_a_kernel_is_refused(tmp_path: Path) -> None:
    r = _cli("run", str(_spec_file(tmp_path)), "--runner", "vm", "--quiet", cwd=tmp_path)
    assert r.returncode == 2 and "--kernel" in r.stderr and r.stderr.count("\n") == 1


def test_no_escape_sequence_reaches_a_terminal(tmp_path: Path) -> None:
    """stdout and stderr on a terminal (a pty): an ESC in a file name or a mail never gets
    there.  On main `verifier extract` printed the mail's escape sequences as they were."""
    import pty

    mail = tmp_path / "m.eml"
    mail.write_bytes(b"From: a <a@b>\nSubject: =?utf-8?q?x=1B]0;pwned=07?=\n\n"
                     b"\x1b[2Jbefore: 1 Gbps\nafter: 2 Gbps\n")
    for args in (["extract", str(mail)], ["extract", str(tmp_path / "no\x1b[31mfile")]):
        leader, follower = pty.openpty()
        env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="200")
        proc = subprocess.Popen([sys.executable, "-m", "verifier", *args], stdout=follower,
                                stderr=follower, stdin=subprocess.DEVNULL, env=env, cwd=tmp_path)
        os.close(follower)
        out = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        proc.wait(60)
        os.close(leader)
        assert b"\x1b[2J" not in out and b"\x1b]0;" not in out and b"\x1b[31m" not in out, out


def test_queue_refuses_a_message_id_that_exists_nowhere(local_inbox, tmp_path: Path) -> None:
    """On main `queue` accepted any Message-ID; it stayed "requested" for ever."""
    local_inbox.deliver(b"From: a <a@corpus.example>\nSubject: [PATCH] x\n"
                        b"Message-ID: <there@corpus.example>\n\nbefore: 1\nafter: 2\n")
    cfg = tmp_path / "bot.toml"
    cfg.write_text(f'[bot]\nlists = ["{local_inbox.url}"]\nstate = "s.sqlite"\n')
    r = _cli("queue", "--config", str(cfg), "<nowhere@corpus.example>", cwd=tmp_path)
    assert r.returncode == 2 and "no message <nowhere@corpus.example>" in r.stderr, r.stderr
    assert r.stderr.count("\n") == 1
    r = _cli("queue", "--config", str(cfg), "<there@corpus.example>", cwd=tmp_path)
    assert r.returncode == 0 and "queued <there@corpus.example>" in r.stdout, r.stderr
