"""`verifier report --format csv|tsv`: the runs of the recorded results files
(tests/fixtures/results, real netns and fleet runs) as a tidy table that reads back, with
pandas, to the very values the runs recorded."""
from __future__ import annotations

import dataclasses
import io
import json
import math
import subprocess
import sys
from pathlib import Path

import pandas
import pytest

from runners.results import FailureKind, Results
from tests.paths import FIXTURES, ROOT
from verifier.cli import main
from verifier.runs_table import COLUMNS, runs_table

RECORDED = sorted((FIXTURES / "results").glob("*.json"))


def _one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    return err


@pytest.mark.parametrize("fmt,sep", [("csv", ","), ("tsv", "\t")])
@pytest.mark.parametrize("path", RECORDED, ids=lambda p: p.stem)
def test_the_table_reads_back_to_every_value_the_runs_recorded(path: Path, fmt: str, sep: str,
                                                               tmp_path: Path, capsys) -> None:
    out = tmp_path / f"runs.{fmt}"
    assert main(["report", str(path), "--format", fmt, "-o", str(out)]) == 0
    assert capsys.readouterr().out.strip() == str(out)
    res = Results.load(path)
    table = pandas.read_csv(out, sep=sep)
    assert list(table.columns) == list(COLUMNS)
    want = [(r.index, r.variant, bool(r.warmup), r.host, name, value)
            for r in sorted(res.runs, key=lambda r: (r.index, r.attempt))
            for name, value in r.samples.items()]
    got = list(table[["position", "variant", "warmup", "host", "metric", "value"]]
               .itertuples(index=False, name=None))
    assert got == want  # exact floats, in the order the runs were executed
    assert set(table["spec"]) == {res.spec.id} and set(table["status"]) == {"ok"}
    for m in res.spec.metrics:  # the claimed metrics carry the mail's name, unit, direction
        rows = table[table["metric"] == (m.sample or m.name)]
        assert len(rows) == sum((m.sample or m.name) in r.samples for r in res.runs) > 0
        assert set(rows["claimed"]) == {m.name} and set(rows["better"]) == {m.better}
        assert set(rows["unit"].fillna("")) == {m.unit or ""}
    others = table[table["claimed"].isna()]
    assert others["unit"].isna().all()


def test_failed_and_lost_runs_stay_in_the_table() -> None:
    res = Results.load(FIXTURES / "results" / "netns-rr-cpu.json")
    first, second = res.runs[2], res.runs[3]
    res.runs[2] = dataclasses.replace(first, ok=False, samples={}, error="netperf: exit 1")
    res.runs[3] = dataclasses.replace(second, ok=False, samples={}, failure=FailureKind.LOST,
                                      error="worker lost")
    retried = dataclasses.replace(second, attempt=1)
    res.runs.append(retried)
    table = pandas.read_csv(io.StringIO(runs_table(res)))
    by_pos = table.groupby(["position", "attempt"])
    failed, lost = by_pos.get_group((first.index, 0)), by_pos.get_group((second.index, 0))
    assert list(failed["status"]) == ["failed"] and math.isnan(failed["value"].iloc[0])
    assert list(lost["status"]) == ["lost"] and lost["metric"].isna().all()
    again = by_pos.get_group((second.index, 1))
    assert set(again["status"]) == {"ok"} and len(again) == len(second.samples)
    # the retry follows the lost attempt: the table is in execution order
    keys = list(table[["position", "attempt"]].drop_duplicates().itertuples(index=False,
                                                                             name=None))
    assert keys == sorted(keys)


def test_text_from_mail_is_neither_a_formula_nor_an_escape() -> None:
    res = Results.load(FIXTURES / "results" / "fleet-stream.json")
    for r in res.runs:
        r.variant, r.host = '=HYPERLINK("http://x.example")', "lab1\x1b[2J"
    table = pandas.read_csv(io.StringIO(runs_table(res)))
    assert set(table["variant"]) == {"'=HYPERLINK(\"http://x.example\")"}
    assert not any("\x1b" in h for h in table["host"])
    assert (table["value"] > 0).all()  # numbers are not quoted


@pytest.mark.parametrize("content,needle", [
    (None, "no such file"),
    ("{not json", "not a results file"),
    (json.dumps({"version": 99}), "newer than this program's"),
    (json.dumps({"spec": {"id": "x"}, "runner": "netns",
                 "runs": [{"variant": "baseline", "index": 0, "samples": {"a": "x"}}]}),
     "non-numeric samples"),
])
def test_bad_input_is_a_one_line_error(content: str | None, needle: str, tmp_path: Path,
                                       capsys) -> None:
    path = tmp_path / "r.json"
    if content is not None:
        path.write_text(content)
    assert main(["report", str(path), "--format", "csv"]) == 2
    assert needle in _one_line_error(capsys)
    assert main(["report", str(FIXTURES / "results" / "fleet-stream.json"), "--format", "tsv",
                 "-o", str(tmp_path / "no" / "such" / "dir" / "t.tsv")]) == 2
    assert "cannot write" in _one_line_error(capsys)


def test_only_the_table_imports_pandas() -> None:
    """The other reports, and every command but `report --format csv|tsv`, start without it."""
    code = ("import sys, verifier.cmd_report, verifier.report_run, verifier.runs_table\n"
            "sys.exit('pandas' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, timeout=120).returncode == 0
