"""Exit codes by outcome for `verifier check` and `verifier run` (documented in --help)."""
from __future__ import annotations

import subprocess
import sys

import pytest

from runners.results import Verdict
from tests.paths import ROOT
from verifier import exitcodes as ec


def rows(*names: str) -> list[Verdict]:
    return [Verdict.from_dict({"verdict": n}) for n in names]


@pytest.mark.parametrize(("verdicts", "code"), [
    (rows("CONFIRMED"), ec.OK),
    (rows("CONFIRMED", "CONFIRMED"), ec.OK),
    (rows("CONTRADICTED"), ec.NOT_HELD),
    (rows("NOT REPRODUCED", "CONFIRMED"), ec.NOT_HELD),
    (rows("PARTLY CONFIRMED"), ec.NOT_HELD),
    (rows("INCONCLUSIVE", "CONFIRMED"), ec.INCONCLUSIVE),
    (rows("INCONCLUSIVE", "NOT REPRODUCED"), ec.NOT_HELD),
    (rows("INVALID", "CONTRADICTED"), ec.FAILED),
    (rows("NOT RUNNABLE HERE"), ec.NOT_RUNNABLE),
    (rows("SOMETHING NEW"), ec.FAILED),
    ([], ec.OK),
])
def test_verdicts_map_to_codes(verdicts, code):
    assert ec.for_results("complete", verdicts) == code


def test_status_beats_verdicts():
    assert ec.for_results("failed", rows("CONFIRMED")) == ec.FAILED
    assert ec.for_results("interrupted", rows("CONFIRMED")) == ec.FAILED
    assert ec.for_results("not-runnable", rows("NOT RUNNABLE HERE")) == ec.NOT_RUNNABLE
    assert ec.worst([ec.OK, ec.INCONCLUSIVE, ec.NOT_RUNNABLE]) == ec.INCONCLUSIVE


@pytest.mark.parametrize("command", ["check", "run"])
def test_codes_are_in_help(command):
    out = subprocess.run([sys.executable, "-m", "verifier", command, "--help"],
                         capture_output=True, text=True, cwd=ROOT, timeout=60,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}).stdout
    assert "exit status:" in out
    for code in ("0 ", "1 ", "4 ", "5 ", "6 "):
        assert f"\n  {code}" in out


def test_readme_documents_the_same_codes():
    readme = (ROOT / "README.md").read_text()
    for line in ec.HELP.splitlines()[1:-1]:
        assert line.strip() in readme, line


def test_check_without_claims_exits_0(tmp_path, capsys):
    import argparse

    from verifier import cmd_check

    mail = tmp_path / "m.eml"
    mail.write_text("From: A <a@example.org>\nSubject: hello\nMessage-ID: <x@y>\n\nNo numbers.\n")
    p = argparse.ArgumentParser()
    cmd_check.add_arguments(p)
    assert cmd_check.run(p.parse_args([str(mail), "--out", str(tmp_path / "o")])) == ec.OK
    assert "no performance claim" in capsys.readouterr().err
