"""Recorded results files (real netns runs and a fleet run, tests/fixtures/results) render
to the same email and markdown, byte for byte, as when they were recorded, and load and
write back unchanged but for the format's version.

The files carry their verdicts, so this is the report and the file format, not the
statistics.  To rewrite the golden reports deliberately (a report's wording changed on
purpose), run

    VERIFIER_REGEN_GOLDEN=1 PYTHONPATH=. python3 -m pytest -q tests/verifier/test_report_golden.py

and read the diff before committing it.  tests/fixtures/results/record.py records new
results files.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from runners.results import (
    RESULTS_VERSION,
    ArithProblem,
    FailureKind,
    MeasuredEffect,
    Results,
    Verdict,
    VerdictKind,
)
from tests.paths import FIXTURES
from verifier.report import render

FIX = FIXTURES / "results"
RECORDED = sorted(FIX.glob("*.json"))
REGEN = bool(os.environ.get("VERIFIER_REGEN_GOLDEN"))
FORMATS = (("email", "txt"), ("markdown", "md"))


def test_there_are_recordings_of_each_kind():
    runners = {json.loads(p.read_text())["runner"] for p in RECORDED}
    assert len(RECORDED) >= 4 and {"netns", "fleet"} <= runners


@pytest.mark.parametrize("path", RECORDED, ids=lambda p: p.stem)
@pytest.mark.parametrize(("fmt", "ext"), FORMATS, ids=[f for f, _ in FORMATS])
def test_report_matches_the_golden_file(path: Path, fmt: str, ext: str):
    res = Results.load(path)
    assert res.verdicts, "a recording keeps its verdicts: re-rendering never re-judges"
    text = render(res, fmt)
    golden = path.with_name(f"{path.stem}.{fmt}.{ext}")
    if REGEN:
        golden.write_text(text)
    assert text == golden.read_text()


@pytest.mark.parametrize("path", RECORDED, ids=lambda p: p.stem)
def test_file_round_trips_through_the_types(path: Path):
    stored = json.loads(path.read_text())
    res = Results.from_dict(stored)
    assert all(isinstance(v, Verdict) and isinstance(v.verdict, VerdictKind)
               for v in res.verdicts)
    assert res.spec.id == stored["spec"]["id"]
    again = res.to_dict()
    assert again["version"] == RESULTS_VERSION
    assert {**again, "version": stored["version"]} == stored
    assert json.dumps(Results.from_dict(again).to_dict(), indent=1) == json.dumps(again, indent=1)


def test_effect_and_problems_are_typed_and_stored_as_before():
    """A row's measured effect and its claim's arithmetic problems are dataclasses inside
    the program and the same JSON objects in the file."""
    stored = json.loads((FIX / "netns-rr-cpu.json").read_text())
    res = Results.from_dict(stored)
    effects = [v.effect for v in res.verdicts if v.effect is not None]
    assert effects and all(isinstance(e, MeasuredEffect) for e in effects)
    e = effects[0]
    assert e.ci_pct[0] <= e.measured_pct <= e.ci_pct[1] and e.text.startswith(f"{e.measured_pct:+.1f}%")
    row = dict(stored["verdicts"][0], problems=[
        {"kind": "percentage", "message": "the stated +20% does not follow from 100 -> 110",
         "line": 7}])
    row["effect"] = dict(row["effect"], from_a_later_program=1)
    v = Verdict.from_dict(row)
    assert v.problems == [ArithProblem("percentage", row["problems"][0]["message"], 7)]
    assert v.effect is not None and v.effect.extra == {"from_a_later_program": 1}
    assert json.dumps(v.to_dict()) == json.dumps(row)


def _v1(tmp_path: Path) -> dict:
    """A version 1 file with a lost and a cut fleet run (the kinds told by error prefixes)."""
    d = json.loads((FIX / "fleet-stream.json").read_text())
    assert d["version"] == 1
    lost, cut = (dict(d["runs"][0]), dict(d["runs"][1]))
    lost.update(ok=False, error="worker lost: lab2 went away during the run", samples={})
    cut.update(ok=False, error="interrupted: no result within 60 s", samples={})
    d["runs"] += [lost, cut]
    return d


def test_a_version_1_file_is_upgraded_on_load(tmp_path):
    res = Results.from_dict(_v1(tmp_path))
    lost, cut = res.runs[-2:]
    assert (lost.failure, cut.failure) == (FailureKind.LOST, FailureKind.CUT)
    assert lost.unfinished and cut.unfinished and not any(r.failure for r in res.runs[:-2])
    res.save(tmp_path / "r.json")
    written = json.loads((tmp_path / "r.json").read_text())
    assert written["version"] == RESULTS_VERSION
    assert [r.get("failure") for r in written["runs"][-2:]] == ["lost", "cut"]
    assert "failure" not in written["runs"][0]  # only a run that has one writes it
    assert Results.load(tmp_path / "r.json").runs[-2].failure == FailureKind.LOST


def test_unknown_verdict_keys_are_kept_and_a_newer_format_refused(tmp_path):
    d = json.loads(RECORDED[0].read_text())
    d["verdicts"][0]["from_a_later_program"] = {"x": 1}
    res = Results.from_dict(d)
    assert res.verdicts[0].extra == {"from_a_later_program": {"x": 1}}
    assert res.to_dict()["verdicts"][0]["from_a_later_program"] == {"x": 1}
    with pytest.raises(ValueError, match="newer than this program"):
        Results.from_dict({**d, "version": RESULTS_VERSION + 1})
    with pytest.raises(ValueError, match="spec.metrics must be a list"):
        Results.from_dict({**d, "spec": {**d["spec"], "metrics": "fast"}})


def test_report_cli_refuses_a_newer_format_in_one_line(tmp_path):
    import subprocess
    import sys

    d = json.loads(RECORDED[0].read_text())
    (tmp_path / "new.json").write_text(json.dumps({**d, "version": RESULTS_VERSION + 1}))
    (tmp_path / "old.json").write_text(json.dumps(d))
    cmd = [sys.executable, "-m", "verifier", "report"]
    p = subprocess.run([*cmd, str(tmp_path / "new.json")], capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "newer" in p.stderr, p.stderr
    p = subprocess.run([*cmd, str(tmp_path / "old.json"), "--format", "markdown"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0
    assert p.stdout == RECORDED[0].with_name(f"{RECORDED[0].stem}.markdown.md").read_text()
