"""No input makes the extractor crash or hang: random text and bytes (hypothesis), long
lines, a large message, real messages of the list archive; and `verifier extract` gives a
one-line error for what it cannot read."""
from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claims.extract import extract_message, might_have_claims
from claims.message import message_from_text
from tests.paths import ROOT, SHARED

ARCHIVE = SHARED / "data" / "virtualization-list.mbox.xz"

# Text built from the pieces claims are made of, so the generator reaches the deep paths.
_PIECES = st.sampled_from([
    "Before:", "After:", "old:", "new:", "net-next:", "after #1:", " 1,234.5 ", "Mpps", " +- 0.3% ",
    "(+12.5%, p=0.01)", "|", "+----+", " -> ", " from 3 to 4 Gbps ", "5-10% boost", "2x faster",
    "\n", "\n\n", "> ", "$ netperf -H $h -t TCP_RR \\\n", "# echo 1 > /sys/x\n", "==> before",
    "Performance counter stats for 'x -y' (5 runs):", "\t", "N/A", "pre", "post", "Original|",
    "diff --git a/x b/x\n", "@@ -1,2 +1,3 @@\n", "+", "-", ":", "%", "1", "0", "9e9", "((((", "))",
])


def run(text: str):
    return extract_message(message_from_text(text))


@settings(max_examples=300, deadline=2000, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_PIECES, max_size=60).map("".join))
def test_claim_shaped_noise_never_crashes(text: str) -> None:
    ex = run(text)
    json.dumps(ex.to_dict())


@settings(max_examples=200, deadline=2000)
@given(st.text(max_size=3000))
def test_random_text_never_crashes(text: str) -> None:
    run(text)


@settings(max_examples=100, deadline=3000)
@given(st.binary(max_size=4000))
def test_random_bytes_through_the_cli_reader(data: bytes) -> None:
    run(data.decode("utf-8", errors="replace"))


@pytest.mark.timeout(300)
def test_long_lines_and_a_big_message_finish() -> None:
    """A hang fails through the timeout; speed itself is measured by benchmarks, not here."""
    line = "before: " + "1 " * 200_000 + "\n"
    run(line + "after: " + "2 " * 200_000 + "\n")
    run("(" * 100_000 + "\n" + "-> 1 " * 50_000 + "\n" + "from 1 " * 50_000)
    body = ("Before:\n  5 Mpps\nAfter:\n  6 Mpps\n| 1 | 2 | 3 |\n" * 20_000)  # ~0.7 MB
    ex = run(body)
    assert ex.claims


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_fifty_megabyte_message() -> None:
    chunk = "net-next: 8.017 Gbps\nafter #1: 7.785 Gbps (-2.9%)\nsome prose 50% of the time\n" * 10
    text = chunk * (50_000_000 // len(chunk))
    ex = run(text)
    assert ex.claims and any("first" in w for w in ex.message.warnings)


@pytest.mark.skipif(not ARCHIVE.exists(), reason="list archive not present")
def test_real_archive_slice_goes_through() -> None:
    """The first 400 messages of the real archive: no crash, and claims are rare."""
    from claims.sources import iter_messages

    n = with_claims = 0
    for msg in itertools.islice(iter_messages(str(ARCHIVE)), 400):
        n += 1
        with_claims += bool(extract_message(msg).claims)
    assert n == 400
    assert with_claims < n * 0.1


def test_prescan_agrees_with_the_extractor_on_the_corpus() -> None:
    for p in sorted((SHARED / "corpus").glob("*.txt")):
        if run(p.read_text()).claims:
            assert might_have_claims(p.read_text()), p.name


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "verifier", "extract", *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_cli_json_and_table() -> None:
    text = "old bonding: 16.1 gbps\nnew bonding: 17.5 gbps\n"
    out = _cli("--format", "json", "-", stdin=text)
    assert out.returncode == 0, out.stderr
    (msg,) = json.loads(out.stdout)["messages"]
    (c,) = msg["claims"]
    assert (c["baseline"]["value"], c["candidate"]["value"], c["lines"]) == (16.1, 17.5, [1, 2])
    assert c["change_pct"] == pytest.approx(8.6957, abs=1e-3)
    table = _cli("-", stdin=text)
    assert table.returncode == 0 and "16.1" in table.stdout and "17.5" in table.stdout


def test_cli_unreadable_input_is_one_line_and_exit_1(tmp_path: Path) -> None:
    for args in (["/nonexistent/x.eml"], [str(tmp_path)]):
        out = _cli(*args)
        assert out.returncode == 1
        assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
