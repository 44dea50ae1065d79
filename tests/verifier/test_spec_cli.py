"""`verifier spec` end to end on the seeds and corpus with the real extractor: every seed
gives specs that validate, and each spec either runs here or says why it cannot."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from claims import safety
from claims.spec import load_specs
from tests.paths import SHARED
from verifier.cli import main

SEEDS = sorted((SHARED / "seeds").glob("*.txt"))
CORPUS = (SHARED / "corpus")


def _spec(capsys, tmp_path: Path, src: Path):
    out = tmp_path / "out"
    assert main(["spec", str(src), "-o", f"{out}/"]) == 0
    paths = capsys.readouterr().out.split()
    assert paths and all(Path(p).parent == out for p in paths)
    return [s for p in paths for s in load_specs(p)]


@pytest.mark.parametrize("seed", SEEDS, ids=[p.name[:3] for p in SEEDS])
def test_every_seed_gives_valid_specs_that_say_why(seed, tmp_path, capsys):
    specs = _spec(capsys, tmp_path, seed)
    for s in specs:
        problems = safety.check_spec(s)
        if s.needs or problems:  # not runnable here: the spec itself says why
            assert s.notes, s.id
        for p in problems:
            assert str(p) in " ".join(s.notes)


def test_seed001_is_a_runnable_gro_flush_timeout_spec(tmp_path, capsys):
    (spec,) = _spec(capsys, tmp_path, SEEDS[1])
    assert spec.benchmark.tool == "netperf" and "TCP_RR" in spec.benchmark.argv
    assert spec.needs == [] and safety.check_spec(spec) == []
    values = []
    for v in spec.variants:
        (a,) = v.setup
        assert a.kind == "sysfs" and a.key.endswith("/gro_flush_timeout")
        assert sorted(a.roles) == ["client", "server"]
        values.append(a.value)
    assert values == ["0", "2000"]
    assert {m.name for m in spec.metrics} >= {"transaction_rate"}


def test_seed000_perf_stat_trafgen_needs_a_kernel(tmp_path, capsys):
    (spec,) = _spec(capsys, tmp_path, SEEDS[0])
    assert spec.benchmark.argv[:2] == ["perf", "stat"] and "trafgen" in spec.benchmark.argv
    assert spec.needs == ["kernel"]
    assert any("kernel runner" in n for n in spec.notes)


@pytest.mark.parametrize("case,tool,program", [("d007", "iperf3", "iperf3"),
                                               ("s002", "iperf2", "iperf")])
def test_corpus_iperf_claims(case, tool, program, tmp_path, capsys):
    specs = _spec(capsys, tmp_path, CORPUS / f"{case}.txt")
    assert specs and all(s.benchmark.tool == tool for s in specs)
    for s in specs:
        assert s.benchmark.argv[0] == program and s.server is not None
        assert [p for p in safety.check_spec(s) if p.where.startswith("benchmark")] == []


def test_outputs_file_stdout_and_json_input(tmp_path, capsys):
    f = tmp_path / "all.yaml"
    assert main(["spec", str(SEEDS[3]), "-o", str(f)]) == 0
    assert capsys.readouterr().out.strip() == str(f)
    assert len(load_specs(f)) == 3
    assert main(["spec", str(SEEDS[3])]) == 0
    assert capsys.readouterr().out.count("\nid: ") == 3
    assert main(["extract", str(SEEDS[1]), "--format", "json"]) == 0
    j = tmp_path / "x.json"
    j.write_text(capsys.readouterr().out)
    json.loads(j.read_text())
    assert main(["spec", str(j), "-o", str(tmp_path / "j.yaml")]) == 0
    (spec,) = load_specs(tmp_path / "j.yaml")
    assert [a.value for v in spec.variants for a in v.setup] == ["0", "2000"]


@pytest.mark.parametrize("content,fragment", [
    (None, "cannot read"),
    (b"", "empty"),
    (b'{"messages": 3}', "not extraction JSON"),
    (b"Just some prose without any numbers.\n", "no performance claim"),
])
def test_bad_input_one_line_no_traceback(content, fragment, tmp_path):
    src = tmp_path / "in.txt"
    if content is not None:
        src.write_bytes(content)
    res = subprocess.run([sys.executable, "-m", "verifier", "spec", str(src)],
                         capture_output=True, text=True, timeout=300)
    assert res.returncode != 0
    assert "Traceback" not in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1 and fragment in res.stderr, res.stderr


def test_whole_corpus_gives_valid_specs_or_says_no_claim(tmp_path, capsys):
    """Every case either gives specs that load, or says in one line that it found no claim;
    a case the extractor finds claims in always gives specs (how many claims it finds is
    the corpus score floor's business, not this test's)."""
    from claims.extract import extract_message
    from claims.sources import iter_messages

    for src in sorted(CORPUS.glob("*.txt")):
        rc = main(["spec", str(src), "-o", f"{tmp_path / src.stem}/"])
        out = capsys.readouterr()
        found = [c for m in iter_messages(str(src)) for c in extract_message(m).claims]
        if rc == 1:
            assert "no performance claim found" in out.err and len(out.err.splitlines()) == 1
            assert not any(c.baseline and c.candidate for c in found), src.name
            continue
        assert rc == 0, (src.name, out.err)
        for p in out.out.split():
            load_specs(p)
