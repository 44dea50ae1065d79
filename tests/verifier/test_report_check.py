"""`verifier check` end to end on the seeds: seed 001 runs on a real netns runner and ends
NOT RUNNABLE HERE (its gro_flush_timeout cannot act on veth in TCP_RR: runners.effect) with a
report and a reply; seed 000 ends NOT RUNNABLE HERE with its reason."""
from __future__ import annotations

import argparse
import json

import pytest

from runners.results import Results
from tests.paths import SHARED
from verifier import cmd_check, exitcodes
from verifier.report import parse_footer

pytestmark = pytest.mark.root
SEEDS = (SHARED / "seeds")


def _check(*argv: str) -> int:
    p = argparse.ArgumentParser()
    cmd_check.add_arguments(p)
    return cmd_check.run(p.parse_args(list(argv)))


@pytest.mark.skipif(not SEEDS.is_dir(), reason="shared seeds not present")
def test_seed001_check_on_netns(tmp_path, capsys):
    seed = next(SEEDS.glob("001_*.txt"))
    rc = _check(str(seed), "--runner", "netns", "--duration", "1", "--max-runs", "5",
                "--out", str(tmp_path))
    out = capsys.readouterr().out
    rows = parse_footer(out)
    assert rows[0]["metric"] == "transaction_rate" and rows[0]["n"] == [0, 0]
    assert {r["verdict"] for r in rows} == {"NOT RUNNABLE HERE"}, rows
    res = json.loads(next(tmp_path.glob("results-*.json")).read_text())
    assert res["status"] == "not-runnable" and "never armed" in res["reason"]
    assert res["verdicts"] and res["environment"]["effects"]
    typed = Results.from_dict(res)
    assert rc == exitcodes.for_results(typed.status, typed.verdicts) == exitcodes.NOT_RUNNABLE
    # the archive hides the author's domain: the draft is written, sending would refuse
    reply = next(tmp_path.glob("outbox/reply-*.eml"))
    assert f"reply: {reply}" in out and "undeliverable" in out
    # the main job's reply: short, 0-day style, the spec attached and valid YAML
    import email
    from email import policy

    import yaml
    msg = email.message_from_bytes(reply.read_bytes(), policy=policy.default)
    lines = msg.get_body(("plain",)).get_content().splitlines()
    assert len(lines) <= 60
    assert "\n".join(lines).count("never armed") == 1  # the reason is said once
    assert any(x.split()[:5] == ["baseline", "%change", "candidate", "claimed", "verdict"]
               for x in lines)
    specs = [yaml.safe_load(p.get_content()) for p in msg.iter_attachments()
             if p.get_filename().endswith(".yaml")]
    assert specs and specs[0]["id"] == res["spec"]["id"]


@pytest.mark.skipif(not SEEDS.is_dir(), reason="shared seeds not present")
def test_seed000_is_not_runnable_here(tmp_path, capsys):
    seed = next(SEEDS.glob("000_*.txt"))
    assert _check(str(seed), "--runner", "netns", "--out", str(tmp_path)) == 4  # NOT RUNNABLE
    out = capsys.readouterr().out
    assert out.startswith("NOT RUNNABLE HERE: needs a kernel runner")


def test_bad_target_is_one_line(tmp_path, capsys):
    assert _check(str(tmp_path / "missing.txt"), "--out", str(tmp_path)) == 2
    err = capsys.readouterr().err
    assert err.startswith("verifier check:") and err.count("\n") == 1
