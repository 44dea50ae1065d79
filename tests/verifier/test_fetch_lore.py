"""Fetching threads from a real public-inbox on loopback (tests/lore.py), by Message-ID and
by URL, with plain HTTP and with b4; the cache; and every failure as one line."""
from __future__ import annotations

import argparse
import contextlib
import gzip
import importlib
import io
import json
import mailbox
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.httpkit import Answer, serving
from tests.lore import BASE_DATE, LocalInbox, free_port, rfc822
from verifier.cache import Cache
from verifier.cli import COMMANDS
from verifier.fetch import FetchError, choose_inbox, fetch_thread, resolve_input
from verifier.fetch.http import Http
from verifier.fetch.lore import PublicInbox, mid_escape, normalize_msgid, parse_inbox_url
from verifier.fetch.mbox import read_messages
from verifier.thread import build_thread

ROOT = "s001.0@corpus.example"


def ids(path: Path) -> list[str]:
    box = mailbox.mbox(path, create=False)
    try:
        return sorted(str(m["Message-ID"]).strip("<>") for m in box)
    finally:
        box.close()


def run_command(*args: str) -> subprocess.CompletedProcess[str]:
    """A sub-command in this process, as cli.main runs it (faster than a new interpreter):
    exit status, standard output and error."""
    mod = importlib.import_module(COMMANDS[args[0]])
    p = argparse.ArgumentParser(prog=f"verifier {args[0]}")
    mod.add_arguments(p)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = mod.run(p.parse_args(list(args[1:])))
        except SystemExit as e:
            rc = e.code if isinstance(e.code, int) else 1
    return subprocess.CompletedProcess(list(args), rc, out.getvalue(), err.getvalue())


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    """The real command line in a new process."""
    return subprocess.run([sys.executable, "-m", "verifier", *args], capture_output=True,
                          text=True, timeout=300)


def cached_files(root: Path) -> list[Path]:
    return [p for p in (root / "cache").rglob("*") if p.is_file()] if (root / "cache").exists() else []


def test_thread_by_msgid_over_http(corpus_inbox: LocalInbox, fetch_env: Path) -> None:
    path = fetch_thread(f"<{ROOT}>", inbox=corpus_inbox.url)
    assert ids(path) == ["s001.0@corpus.example", "s001.1@corpus.example", "s001.2@corpus.example"]
    # the same thread from a reply's Message-ID
    assert ids(fetch_thread("s001.2@corpus.example", inbox=corpus_inbox.url)) == ids(path)


@pytest.mark.parametrize("suffix", ["/", "/T/#u", "/t.mbox.gz", "/raw", ""])
def test_thread_by_url_over_http(corpus_inbox: LocalInbox, fetch_env: Path, suffix: str) -> None:
    url = f"{corpus_inbox.url}/{mid_escape('s002.1@corpus.example')}{suffix}"
    assert ids(fetch_thread(url)) == [f"s002.{i}@corpus.example" for i in range(3)]


def test_thread_via_b4_by_msgid_and_url(corpus_inbox: LocalInbox, fetch_env: Path) -> None:
    by_id = fetch_thread("s003.0@corpus.example", inbox=corpus_inbox.url, via="b4")
    by_url = fetch_thread(f"{corpus_inbox.url}/s003.2@corpus.example/", via="b4")
    want = [f"s003.{i}@corpus.example" for i in range(3)]
    assert ids(by_id) == want and ids(by_url) == want


def test_b4_midmask_and_config_choose_the_inbox(corpus_inbox: LocalInbox, fetch_env: Path) -> None:
    assert choose_inbox(None).startswith("https://lore.kernel.org/all")
    subprocess.run(["git", "config", "--global", "b4.midmask", f"{corpus_inbox.url}/%s"], check=True)
    assert choose_inbox(None) == corpus_inbox.url
    assert ids(fetch_thread("s004.1@corpus.example"))[0] == "s004.0@corpus.example"
    (fetch_env / "config.toml").write_text('inbox = "http://127.0.0.1:9/other"\n')
    assert choose_inbox(None) == "http://127.0.0.1:9/other"
    assert choose_inbox("http://x.example/list/") == "http://x.example/list"


def test_cli_fetch_writes_mbox_and_tree(corpus_inbox: LocalInbox, fetch_env: Path) -> None:
    out = fetch_env / "t.mbox"
    r = cli("fetch", "s000.0@corpus.example", "--inbox", corpus_inbox.url, "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert ids(out) == [f"s000.{i}@corpus.example" for i in range(3)]
    r = run_command("fetch", "s000.0@corpus.example", "--inbox", corpus_inbox.url, "--tree")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 3 and lines[1].startswith("  Re:") and lines[2].startswith("    Re:")


def test_thread_claims_are_attributed_once(corpus_inbox: LocalInbox, fetch_env: Path) -> None:
    """With the real extractor: the seed's claims, quoted again in both replies, count once."""
    pytest.importorskip("claims.extract")
    r = run_command("fetch", "s001.2@corpus.example", "--inbox", corpus_inbox.url, "--claims")
    assert r.returncode == 0, r.stderr
    tcs = json.loads(r.stdout)
    assert tcs and {tc["origin"] for tc in tcs} == {"s001.0@corpus.example"}
    assert all(tc["discussion"] == ["s001.1@corpus.example", "s001.2@corpus.example"] for tc in tcs)
    assert 9023.86 in {tc["claim"]["baseline"]["value"] for tc in tcs if tc["claim"]["baseline"]}


def test_cache_fetches_once_and_refresh_sees_new_mail(local_inbox: LocalInbox, fetch_env: Path) -> None:
    root = "root@live.example"
    local_inbox.deliver(rfc822("[PATCH] live", "A <a@live.example>", BASE_DATE, root, "hello\n"))

    class CountingHttp(Http):
        calls = 0

        def request(self, method: str, url: str, **kw: object):  # type: ignore[no-untyped-def]
            CountingHttp.calls += 1
            return super().request(method, url, **kw)

    h = CountingHttp()
    first = fetch_thread(root, inbox=local_inbox.url, http=h)
    again = fetch_thread(root, inbox=local_inbox.url, http=h)
    assert first == again and CountingHttp.calls == 1 and ids(first) == [root]
    # deliver while the server runs: the reply shows up on a refresh and in new.atom
    local_inbox.deliver(rfc822("Re: [PATCH] live", "B <b@live.example>", BASE_DATE, "reply@live.example",
                               "> hello\nworks\n", in_reply_to=root))
    assert ids(fetch_thread(root, inbox=local_inbox.url, http=h)) == [root]  # cached
    assert ids(fetch_thread(root, inbox=local_inbox.url, http=h, refresh=True)) == [
        "reply@live.example", root]
    assert b"reply@live.example" in PublicInbox(local_inbox.url).new_atom()


def test_search_returns_mbox(corpus_inbox: LocalInbox) -> None:
    pi = PublicInbox(corpus_inbox.url)
    data = pi.search_mbox('s:"dummy: make use of multi-queues"')
    assert data.startswith(b"From ") and b"s000.0@corpus.example" in data
    assert pi.search_mbox("s:nosuchsubjectwordxyz") == b""
    assert b"Message-ID: <s000.1@corpus.example>" in pi.raw("s000.1@corpus.example")


def test_thread_model_on_fetched_thread(corpus_inbox: LocalInbox, fetch_env: Path) -> None:
    thread = build_thread(read_messages(fetch_thread("s000.0@corpus.example", inbox=corpus_inbox.url)))
    (root,) = thread.roots
    assert root.key == "s000.0@corpus.example"
    (r1,) = root.children
    (r2,) = r1.children
    assert (r1.linked_by, r2.linked_by) == ("in-reply-to", "references")
    assert any(ln.depth == 2 for ln in r2.message.lines)


# --- failures: one line, non-zero exit, nothing cached -----------------------------

def assert_one_line_failure(r: subprocess.CompletedProcess[str], needle: str) -> None:
    assert r.returncode != 0
    assert "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert needle in r.stderr


def test_missing_msgid_is_one_line_and_not_cached(corpus_inbox: LocalInbox, fetch_env: Path) -> None:
    r = run_command("fetch", "nosuch@corpus.example", "--inbox", corpus_inbox.url)
    assert_one_line_failure(r, "no message <nosuch@corpus.example>")
    r = run_command("fetch", "nosuch@corpus.example", "--inbox", corpus_inbox.url, "--via", "b4")
    assert_one_line_failure(r, "b4 could not fetch")
    assert cached_files(fetch_env) == []


def test_unreachable_server_and_bad_input(fetch_env: Path) -> None:
    dead = f"http://127.0.0.1:{free_port()}/netdev"
    (fetch_env / "config.toml").write_text("[fetch]\nretries = 1\n")
    assert_one_line_failure(run_command("fetch", "a@b.example", "--inbox", dead), "cannot connect")
    assert_one_line_failure(run_command("fetch", "not-a-message-id"), "not a Message-ID")
    assert_one_line_failure(run_command("fetch", "https://example.org/some/page.html"), "unknown archive")
    (fetch_env / "config.toml").write_text("inbox = [\n")
    assert_one_line_failure(run_command("fetch", "a@b.example"), "bad config")
    assert cached_files(fetch_env) == []


def _html_everywhere(path: str, _headers: object) -> Answer:
    """Every path answers an HTML page: the 'page of another shape'."""
    body = b"<html><body>Welcome! Please log in.</body></html>"
    return Answer(200, gzip.compress(body) if path.endswith(".gz") else body)


@pytest.fixture
def html_server() -> Iterator[str]:
    with serving(_html_everywhere) as base:
        yield base + "/netdev"


def test_page_of_another_shape(html_server: str, fetch_env: Path) -> None:
    r = run_command("fetch", "a@b.example", "--inbox", html_server)
    assert_one_line_failure(r, "did not return an mbox")
    assert cached_files(fetch_env) == []


def test_resolve_input_and_msgid_forms(corpus_inbox: LocalInbox, fetch_env: Path, tmp_path: Path) -> None:
    local = tmp_path / "draft.txt"
    local.write_text("hello\n")
    assert resolve_input(str(local), None) is None
    assert resolve_input("-", None) is None
    got = resolve_input("s002.0@corpus.example", corpus_inbox.url)
    assert got is not None and ids(Path(got))[0] == "s002.0@corpus.example"
    assert normalize_msgid(" <a/b@c> ") == "a/b@c" and normalize_msgid("mid:x@y") == "x@y"
    assert mid_escape("a/b@c") == "a%2Fb@c"
    assert parse_inbox_url("https://lore.kernel.org/r/a%2Fb@c") == ("https://lore.kernel.org/all", "a/b@c")
    assert parse_inbox_url("https://lore.kernel.org/netdev/x@y/T/#u") == ("https://lore.kernel.org/netdev", "x@y")
    with pytest.raises(FetchError):
        normalize_msgid("no at sign")
    assert Cache("threads").get("nothing") is None


def test_extract_takes_a_msgid_and_inbox(corpus_inbox: LocalInbox, fetch_env: Path) -> None:
    """`verifier extract --inbox URL <msgid>` fetches the thread and extracts its claims."""
    r = cli("extract", "--format", "json", "--inbox", corpus_inbox.url, "s001.0@corpus.example")
    assert r.returncode == 0, r.stderr
    messages = json.loads(r.stdout)["messages"]
    assert [m["message_id"] for m in messages][:1] == ["s001.0@corpus.example"]
    assert len(messages) == 3
    values = {(c["baseline"] or {}).get("value") for m in messages for c in m["claims"]}
    assert 9023.86 in values  # the gro_flush_timeout TCP_RR pair of the seed
    bad = run_command("extract", "--inbox", corpus_inbox.url, "nosuch@corpus.example")
    assert_one_line_failure(bad, "no message <nosuch@corpus.example>")


def test_b4_keeps_body_from_lines_inside_their_message(local_inbox: LocalInbox, fetch_env: Path) -> None:
    """b4 0.16 `mbox -o -` leaves body 'From ' lines unquoted; the wrapper must not."""
    body = "Numbers below.\n\nFrom the header file:\n  #define X 1\n"
    local_inbox.deliver(rfc822("[PATCH] from", "A <a@live.example>", BASE_DATE, "from@live.example", body))
    for via in ("b4", "http"):
        path = fetch_thread("from@live.example", inbox=local_inbox.url, via=via)
        assert ids(path) == ["from@live.example"]  # the stdlib mbox reader sees one message
        assert "From the header file:" in read_messages(path)[0].body


def test_public_inbox_html_view_walks_the_thread(corpus_inbox: LocalInbox, fetch_env: Path) -> None:
    """lore's HTML view, read from the real public-inbox-httpd pages (not reconstructed)."""
    url = f"{corpus_inbox.url}/s003.1@corpus.example/"
    msgs = read_messages(fetch_thread(url, archive="public-inbox-html"))
    assert [m.message_id for m in msgs] == [f"s003.{i}@corpus.example" for i in range(3)]
    assert msgs[1].in_reply_to == "s003.0@corpus.example"
    by_mbox = read_messages(fetch_thread(url))
    assert [m.body.strip() for m in msgs] == [m.body.strip() for m in by_mbox]
    thread = build_thread(msgs)
    assert [n.depth for n in thread.walk()] == [0, 1, 2]
