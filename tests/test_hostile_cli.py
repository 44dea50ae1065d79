"""Issue 15, item 8: the CLI refuses what cannot be done, in one line, before doing work.
On main: closed stdin and broken extraction JSON were internal errors (exit 3)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


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
