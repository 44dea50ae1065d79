"""`verifier patchwork` posts one perf-claim check per patch of a real series (vhost "ring
format independence" RFC v3, 4 patches, from the shared archive) to a local stand-in for
patchwork (tests/pwserver.py: patchwork itself cannot be installed here): a re-run posts
nothing, a changed verdict posts one update per patch, and every post is validated."""
from __future__ import annotations

import argparse
import lzma
from dataclasses import replace

import pytest

from claims.sources import iter_messages
from claims.spec import Source
from runners.results import VerdictKind
from tests.paths import SHARED
from tests.pwserver import PatchworkServer
from tests.stats_sim import fixed
from verifier import cmd_patchwork
from verifier.patchwork import Check, check_for, newest, state_of

ARCHIVE = SHARED / "data" / "virtualization-list.mbox.xz"
SERIES = b"20191013080742.16211-"  # Message-IDs <20191013080742.16211-N-mst@redhat.com>
pytestmark = pytest.mark.skipif(not ARCHIVE.exists(), reason="shared archive not present")


@pytest.fixture(scope="module")
def series() -> list:
    """The cover letter and its 4 patches, read from the archive as the bot reads mail."""
    found, buf = [], []

    def take() -> None:
        raw = b"".join(buf)
        if SERIES in raw.split(b"\n\n", 1)[0]:  # cheap: only candidates are parsed
            found.extend(m for m in iter_messages("m.eml", data=raw.split(b"\n", 1)[1])
                         if (m.message_id or "").startswith(SERIES.decode()))

    with lzma.open(ARCHIVE) as f:
        for line in f:
            if line.startswith(b"From ") and buf:
                take()
                buf = []
                if len(found) == 5:
                    break
            buf.append(line)
    assert len(found) == 5, [m.subject for m in found]
    return found


@pytest.fixture
def pw(series):
    with PatchworkServer() as srv:
        cover = next(m for m in series if " 0/4]" in " ".join((m.subject or "").split()))
        patches = sorted((m for m in series if m is not cover), key=lambda m: m.message_id)
        srv.store.add_series((cover.message_id, cover.subject),
                             [(m.message_id, " ".join(m.subject.split())) for m in patches],
                             srv.url)
        yield srv, cover


def _results(tmp_path, mid: str, verdict: str | None = None, name: str = "r.json") -> str:
    res = fixed(-4.1, -4.0, 1.0, 10, 3)
    res.spec.source = Source(message_id=mid, author="Michael S. Tsirkin <mst@redhat.com>")
    from verifier.verdict import judge
    res.verdicts = judge(res)
    if verdict:
        res.verdicts[0].verdict = VerdictKind(verdict)
    path = tmp_path / name
    res.save(path)
    return str(path)


def _cli(*argv: str) -> int:
    p = argparse.ArgumentParser()
    cmd_patchwork.add_arguments(p)
    return cmd_patchwork.run(p.parse_args(list(argv)))


def test_posts_once_per_patch_then_nothing_then_one_update(pw, tmp_path, monkeypatch, capsys):
    srv, cover = pw
    monkeypatch.setenv("VERIFIER_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.setenv("VERIFIER_PATCHWORK_TOKEN", srv.store.token)
    monkeypatch.setenv("VERIFIER_PUBLIC_URL", "https://pcv.example.org")
    first = _results(tmp_path, cover.message_id)
    assert _cli(first, "--url", srv.url) == 0
    out = capsys.readouterr().out
    assert out.count("posted: success perf-claim") == 4, out
    assert srv.store.rejected == []
    assert sorted(pid for pid, _ in srv.store.posted) == [1, 2, 3, 4]
    body = srv.store.posted[0][1]
    assert body["context"] == "perf-claim" and body["state"] == "success"
    assert body["target_url"].startswith("https://pcv.example.org/m/20191013080742.16211-1-")
    assert "\n" not in body["description"] and body["description"].startswith("throughput: ")
    # a re-run posts nothing new
    assert _cli(first, "--url", srv.url) == 0
    assert capsys.readouterr().out.count("unchanged") == 4 and len(srv.store.posted) == 4
    # a changed verdict posts one update per patch, and it is the newest there
    changed = _results(tmp_path, cover.message_id, "CONTRADICTED", "r2.json")
    assert _cli(changed, "--url", srv.url) == 0
    assert len(srv.store.posted) == 8 and srv.store.rejected == []
    assert all(newest(srv.store.checks[pid])["state"] == "fail" for pid in range(1, 5))
    assert _cli(changed, "--url", srv.url) == 0 and len(srv.store.posted) == 8


def test_a_patch_msgid_finds_its_series_and_dry_run_posts_nothing(pw, tmp_path, monkeypatch,
                                                                  capsys):
    srv, _ = pw
    monkeypatch.setenv("VERIFIER_CONFIG", str(tmp_path / "none.toml"))
    patch = srv.store.patches[3]["msgid"].strip("<>")
    path = _results(tmp_path, patch, "NOT REPRODUCED")
    assert _cli(path, "--url", srv.url, "--dry-run") == 0
    assert capsys.readouterr().out.count("would post: warning") == 4
    assert srv.store.posted == []


def test_refusals_are_one_line(pw, tmp_path, monkeypatch, capsys):
    srv, cover = pw
    monkeypatch.setenv("VERIFIER_CONFIG", str(tmp_path / "none.toml"))
    path = _results(tmp_path, cover.message_id)
    monkeypatch.setenv("VERIFIER_PATCHWORK_TOKEN", "wrong")
    assert _cli(path, "--url", srv.url) == 2
    err = capsys.readouterr().err
    assert "HTTP 403" in err and err.count("\n") == 1
    assert _cli(path, "--url", srv.url, "--msgid", "nobody@nowhere") == 2
    assert "no patch or cover letter" in capsys.readouterr().err
    assert srv.store.posted == []


def test_states_follow_the_verdicts():
    assert [state_of(v) for v in ("CONFIRMED", "CONTRADICTED", "NOT REPRODUCED",
                                  "PARTLY CONFIRMED", "INCONCLUSIVE", "INVALID",
                                  "NOT RUNNABLE HERE")] == [
        "success", "fail", "warning", "warning", "warning", "warning", "warning"]
    res = fixed(-4.1, -4.0, 1.0, 10, 3)
    from verifier.verdict import judge
    res.verdicts = judge(res) * 2
    res.verdicts[1] = replace(res.verdicts[1], verdict=VerdictKind.INCONCLUSIVE)
    c = check_for([res], "https://x.example/m/a")
    assert isinstance(c, Check) and c.state == "warning" and "1 more row" in c.description


def test_bot_option_posts_per_thread_once(pw, tmp_path, monkeypatch):
    """The bot's step over a real state file: a judged claim of the cover letter posts 4
    checks; the next round posts nothing (nor asks); a new process posts nothing either."""
    from runners.results import Results
    from verifier.bot_config import BotConfig
    from verifier.bot_plan import spec_hash
    from verifier.patchwork import bot_post
    from verifier.state import State

    srv, cover = pw
    cfg = BotConfig.from_section({"lists": ["http://127.0.0.1:1/x"], "patchwork": srv.url},
                                 tmp_path)
    assert cfg.patchwork == srv.url
    res = Results.load(_results(tmp_path, cover.message_id))
    with State(tmp_path / "state.sqlite") as st:
        cid, _ = st.claims.add_claim(cover.message_id, cover.message_id, res.spec,
                                     spec_hash(res.spec.to_dict()))
        st.claims.set_claim(cid, "running")
        st.claims.set_claim(cid, "judged", results=res.to_dict())
        st.runs.set_verdicts(cid, res.verdicts, res.verdicts[0].sentence)

        def results_of(i: int) -> Results:
            return Results.from_dict(st.claims.results_of(i))

        done: set = set()
        got = bot_post(st, results_of, srv.url, None, done, token=srv.store.token)
        assert [p.posted for p in got] == [True] * 4 and len(srv.store.posted) == 4
        assert bot_post(st, results_of, srv.url, None, done, token=srv.store.token) == []
        again = bot_post(st, results_of, srv.url, None, set(), token=srv.store.token)
        assert [p.posted for p in again] == [False] * 4 and len(srv.store.posted) == 4
