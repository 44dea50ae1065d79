"""`verifier lint` on drafts: claim arithmetic, what a reader would miss, exit codes."""
from __future__ import annotations

import argparse

import yaml

from claims.model import Claim, Command, Extraction, Message, Value
from claims.numbers import stated_tolerance
from verifier import cmd_lint
from verifier.arith import check_claim
from verifier.lint import Context, ambiguous_units, lint_extraction, missing_for

GOOD = """Subject: [PATCH net-next 0/3] tcp: make TCP_RR faster

This series shortens the receive path.

base-commit: 0123456789abcdef0123456789abcdef01234567

Tested on 2x Intel Xeon Gold 6230 (40 cores), mlx5 ConnectX-5 100G,
default sysctls. Mean of 10 runs each, stddev under 1%.

$ netperf -H 10.0.0.2 -t TCP_RR -l 30
Before: 31000 trans/s
After:  34100 trans/s (+10%)
"""

BAD = """Subject: [PATCH net-next] tcp: faster

This patch improves throughput by 20%, from 1000 Mbps to 1100 Mbps.
"""


def _claim(**kw) -> Claim:
    base = dict(metric="throughput", unit="Mbps", better="higher", tool="netperf",
                baseline=Value(1000.0, runs=5, spread=0.5, spread_kind="pct"),
                candidate=Value(1100.0, runs=5, spread=0.5, spread_kind="pct"),
                lines=(10, 12))
    base.update(kw)
    return Claim(**base)


def test_arithmetic_by_hand():
    assert check_claim(_claim(claimed_change_pct=10.0)) == []
    assert [p.kind for p in check_claim(_claim(claimed_change_pct=20.0))] == ["percentage"]
    # "+-12%" cannot support a 10% change
    wide = _claim(baseline=Value(1000.0, spread=12.0, spread_kind="pct", runs=5))
    assert [p.kind for p in check_claim(wide)] == ["spread"]
    # absolute spread: 150 of 1000 is 15%
    wide = _claim(baseline=Value(1000.0, spread=150.0, spread_kind="abs", runs=5))
    assert [p.kind for p in check_claim(wide)] == ["spread"]
    one = _claim(baseline=Value(1000.0, runs=1), candidate=Value(1100.0, runs=1))
    assert [p.kind for p in check_claim(one)] == ["single-run"]


def test_a_whole_percent_is_its_numbers_cut_or_rounded():
    """"+5%" for 101,796 -> 107,606 (+5.7%) and "0%" for 32,364 -> 32,561 (+0.6%), as a
    table of whole percents prints them, are no arithmetic slips; "+4%" for +5.7% is."""
    def kinds(before: float, after: float, stated: float) -> list[str]:
        return [p.kind for p in check_claim(_claim(baseline=Value(before, runs=5), candidate=Value(after, runs=5),
                                                    claimed_change_pct=stated))]
    assert kinds(101796, 107606, 5.0) == [] and kinds(32364, 32561, 0.0) == []
    assert kinds(101796, 107606, 4.0) == ["percentage"] and kinds(101796, 107606, 5.0 - 0.1) == ["percentage"]
    assert kinds(76.3, 168.8, 221.0) == ["percentage"]  # vsock sockmap's "+221%" for +121%
    assert stated_tolerance(float("nan")) == 0.6  # a change no number can be: no whole percent, no error


def test_missing_and_units_by_hand():
    ctx = Context(text="base-commit: abcdef1234567\nXeon 8 cores, ice NIC, sysctl x=1\n"
                  "10 runs, stddev 1%", has_command=True, command_tools={"netperf"},
                  has_setup=False)
    assert missing_for(_claim(), ctx) == []
    bare = Context(text="it got faster", has_command=False, command_tools=set(),
                   has_setup=False)
    missing = " | ".join(missing_for(_claim(baseline=Value(1000.0), candidate=Value(1100.0)),
                                     bare))
    for what in ("command line", "number of runs", "spread", "base commit", "CPU", "NIC",
                 "sysctls"):
        assert what in missing
    assert ambiguous_units(_claim(unit="MB")) == ["MB: megabytes or megabits, and per second?"]
    assert ambiguous_units(_claim(unit="Mbps")) == []


def test_lint_extraction_attaches_everything():
    ex = Extraction(message=Message(lines=[]), commands=[Command(raw="netperf", line=1,
                                                                 tool="netperf")],
                    claims=[_claim(claimed_change_pct=25.0)])
    [item] = lint_extraction(ex)
    assert item.problems and item.problems[0].kind == "percentage"
    assert not item.clean


def _run(path, tmp_path, *extra):
    p = argparse.ArgumentParser()
    cmd_lint.add_arguments(p)
    return cmd_lint.run(p.parse_args([str(path), "--spec-out", str(tmp_path / "s.yaml"),
                                      *extra]))


def test_cli_complete_draft_passes_and_writes_spec(tmp_path, capsys):
    draft = tmp_path / "cover.txt"
    draft.write_text(GOOD)
    assert _run(draft, tmp_path) == 0
    out = capsys.readouterr().out
    assert "ok: a reader has what they need" in out
    spec = yaml.safe_load((tmp_path / "s.yaml").read_text())
    assert spec["benchmark"]["argv"][0] == "netperf"


def test_cli_incomplete_draft_fails(tmp_path, capsys):
    draft = tmp_path / "cover.txt"
    draft.write_text(BAD)
    assert _run(draft, tmp_path) == 1
    out = capsys.readouterr().out
    assert "does not match its own numbers 1000 -> 1100" in out
    assert "missing: the exact benchmark command line" in out
    assert "base commit" in out


def test_cli_bad_input_is_one_line(tmp_path, capsys):
    assert _run(tmp_path / "nope.txt", tmp_path) == 2
    err = capsys.readouterr().err
    assert err.startswith("verifier lint:") and err.count("\n") == 1
