"""`verifier extract` of a local file loads only the reader and the extractor: none of the
heavy packages other commands use (the table is written as plain text), nor the fetcher
of remote threads with its config and cache (2.4 MiB of peak memory for nothing)."""
from __future__ import annotations

import json
import lzma
import os
import subprocess
import sys
from pathlib import Path

from tests.paths import ROOT

HEAVY = ("bs4", "lxml", "soupsieve", "charset_normalizer", "requests", "rich", "pandas", "jinja2",
         "scipy", "numpy", "yaml", "verifier.fetch", "verifier.config", "tomllib", "sqlite3")

MBOX = (b"From a@example.org Mon Jan  2 10:00:00 2023\nFrom: A <a@example.org>\nSubject: t\n"
        b"Message-ID: <m1@x>\n\nThanks, applied.\n\n"
        b"From b@example.org Mon Jan  2 11:00:00 2023\nFrom: B <b@example.org>\nSubject: numbers\n"
        b"Message-ID: <m2@x>\n\nThroughput before: 9.1 Gbps\nThroughput after: 9.8 Gbps\n")


def _extract(*argv: str) -> tuple[list[str], str]:
    """The output lines of `verifier extract ARGV` in a fresh interpreter, whose last line
    is [exit code, the heavy modules it loaded]; and its stderr."""
    code = ("import sys, json\nfrom verifier.cli import main\nrc = main(['extract', *sys.argv[1:]])\n"
            f"print(json.dumps([rc, sorted(m for m in {HEAVY!r} if m in sys.modules)]))")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True,
                       env=env, timeout=60, check=False)
    return r.stdout.strip().splitlines(), r.stderr


def test_local_extract_loads_no_heavy_package(tmp_path: Path) -> None:
    mbox = tmp_path / "t.mbox"
    mbox.write_bytes(MBOX)
    out, err = _extract(str(mbox))
    assert json.loads(out[-1]) == [0, []], err
    assert "9.1 Gbps" in "\n".join(out) and "Thanks" not in "\n".join(out)  # only the message with a claim
    assert out[-2] == "2 message(s), 1 with findings: 1 claim(s), 0 command(s), 0 setup step(s)"


def test_local_extract_of_a_compressed_mbox_and_an_eml_loads_no_heavy_package(tmp_path: Path) -> None:
    xz = tmp_path / "t.mbox.xz"
    xz.write_bytes(lzma.compress(MBOX))
    eml = tmp_path / "t.eml"
    eml.write_bytes(MBOX.split(b"\n\nFrom b@", 1)[1].split(b"\n", 1)[1])
    for path, messages in ((xz, 2), (eml, 1)):
        out, err = _extract("--format", "json", str(path))
        assert json.loads(out[-1]) == [0, []], err
        got = json.loads("\n".join(out[:-1]))["messages"]
        assert len(got) == messages and got[-1]["claims"], got


def test_an_html_only_mail_loads_no_html_library(tmp_path: Path) -> None:
    """The archive's HTML mails (no text/plain to read) are rendered by the standard
    library's parser: bs4 with soupsieve and charset_normalizer cost ~7 MiB."""
    html_mail = ROOT / "tests" / "fixtures" / "messages" / "html-mail" / "archive-667073.eml"
    mbox = tmp_path / "html.mbox"
    mbox.write_bytes(b"From a@example.org Mon Jan  2 10:00:00 2023\n" + html_mail.read_bytes()
                     + b"\n" + MBOX)
    for path in (html_mail, mbox):
        out, err = _extract("--format", "json", str(path))
        assert json.loads(out[-1]) == [0, []], err
        got = json.loads("\n".join(out[:-1]))["messages"]
        assert got[0]["subject"].startswith("WorldCIST'20") and len(got) in (1, 3), got


def test_a_message_id_still_goes_to_the_fetcher(tmp_path: Path) -> None:
    """Not a file here: the fetcher is asked (and, with no network, fails in one line)."""
    out, err = _extract("--inbox", "http://127.0.0.1:9/all", "no-such-message@example.org")
    assert json.loads(out[-1])[0] == 1 and "verifier.fetch" in json.loads(out[-1])[1]
    assert err.startswith("verifier extract: ") and len(err.strip().splitlines()) == 1, err
