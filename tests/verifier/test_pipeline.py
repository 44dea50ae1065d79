"""verifier.pipeline: the one attribution rule for `verifier check` and the bot, and the one
place a runner is made.  Real inputs: seed 001 (a netperf TCP_RR claim) as a thread."""
from __future__ import annotations

import ast
from datetime import timedelta

import pytest

from claims.sources import iter_messages
from tests.lore import quote, read_case, rfc822
from tests.paths import ROOT
from verifier.pipeline import RunSettings, SettingsError, backend_for, thread_specs

SEED001 = next((ROOT.parent / "shared" / "seeds").glob("001_*.txt"), None)
pytestmark = pytest.mark.skipif(SEED001 is None, reason="shared seeds not present")


def _messages(*mails: bytes) -> list:
    return [m for raw in mails for m in iter_messages("t.eml", data=raw)]


def _root(mid: str | None = "root@corpus.example") -> bytes:
    case = read_case(SEED001)
    raw = rfc822(case.subject, case.author, case.date, mid or "x", case.body)
    return raw if mid else b"\n".join(ln for ln in raw.split(b"\n")
                                      if not ln.startswith(b"Message-ID:"))


def test_a_quoted_claim_is_checked_once_for_the_message_that_made_it():
    case = read_case(SEED001)
    alone = thread_specs(_messages(_root()))
    assert alone and all(s.source.message_id == "root@corpus.example" for s in alone)
    reply = rfc822("Re: " + case.subject, "Other <other@corpus.example>",
                   case.date + timedelta(hours=1), "r1@corpus.example",
                   quote(case.body) + "\nNice numbers.\n", in_reply_to="root@corpus.example",
                   references=["root@corpus.example"])
    # the reply first, as an archive may list it: the claim is still the root's
    both = thread_specs(_messages(reply, _root()))
    assert [(s.id, s.source.message_id) for s in both] == \
        [(s.id, s.source.message_id) for s in alone]


def test_a_message_without_a_message_id_keeps_its_claims():
    with_id = thread_specs(_messages(_root()))
    without = thread_specs(_messages(_root(None)))
    assert [s.benchmark.argv for s in without] == [s.benchmark.argv for s in with_id]


def test_bad_runner_options_are_one_line_errors_before_anything_runs():
    with pytest.raises(ValueError, match="needs --hosts"):
        backend_for(RunSettings(runner="ssh"))
    with pytest.raises(ValueError, match="bad netem"):
        backend_for(RunSettings(runner="netns", netem="loss=100%"))
    with pytest.raises(ValueError, match="needs --scheduler"):
        backend_for(RunSettings(runner="fleet"))


def test_settings_from_the_command_line_read_hosts_and_tags_and_keep_the_rest():
    s = RunSettings.from_text(runner="ssh", hosts="client=lab1, server=lab2",
                              tags="nic=mlx5,cpu=icelake", duration=2.0, kernels=["a=b"])
    assert (s.runner, s.hosts, s.duration, s.kernels) == \
        ("ssh", {"client": "lab1", "server": "lab2"}, 2.0, ["a=b"])
    assert sorted(s.tags) == ["cpu=icelake", "nic=mlx5"]
    assert RunSettings.from_text() == RunSettings()
    with pytest.raises(SettingsError, match="^--hosts: 'client' is not ROLE=HOST$"):
        RunSettings.from_text(hosts="client")
    with pytest.raises(SettingsError, match="^--tags: bad tag 'bad tag'"):
        RunSettings.from_text(tags="nic=mlx5,bad tag")


RUNNERS = {"LocalRunner", "NetnsRunner", "SshRunner", "VmRunner", "FleetRunner"}
MAKERS = {"runners/factory.py": RUNNERS - {"FleetRunner"}, "verifier/pipeline.py": {"FleetRunner"}}


def test_no_runner_is_made_outside_the_factory_and_backend_for():
    """The product builds runners in two places: runners.factory (host runners, also for
    the fleet's workers) and verifier.pipeline (the fleet).  Tests and benches may build
    their own."""
    found = []
    for pkg in ("claims", "runners", "verifier"):
        for path in sorted((ROOT / pkg).rglob("*.py")):
            rel = str(path.relative_to(ROOT))
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Call):
                    f = node.func
                    name = f.id if isinstance(f, ast.Name) else getattr(f, "attr", "")
                    if name in RUNNERS and name not in MAKERS.get(rel, set()):
                        found.append(f"{rel}:{node.lineno} {name}(...)")
    assert found == []
