"""`verifier extract` of a local file loads only the reader and the extractor: none of the
heavy packages other commands use (the table is written as plain text)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.paths import ROOT

HEAVY = ("bs4", "requests", "rich", "pandas", "jinja2", "scipy", "numpy", "yaml")

MBOX = (b"From a@example.org Mon Jan  2 10:00:00 2023\nFrom: A <a@example.org>\nSubject: t\n"
        b"Message-ID: <m1@x>\n\nThanks, applied.\n\n"
        b"From b@example.org Mon Jan  2 11:00:00 2023\nFrom: B <b@example.org>\nSubject: numbers\n"
        b"Message-ID: <m2@x>\n\nThroughput before: 9.1 Gbps\nThroughput after: 9.8 Gbps\n")


def test_local_extract_loads_no_heavy_package(tmp_path: Path) -> None:
    mbox = tmp_path / "t.mbox"
    mbox.write_bytes(MBOX)
    code = ("import sys, json\nfrom verifier.cli import main\nrc = main(['extract', sys.argv[1]])\n"
            f"print(json.dumps([rc, sorted(m for m in {HEAVY!r} if m in sys.modules)]))")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-c", code, str(mbox)], capture_output=True, text=True,
                       env=env, timeout=60, check=False)
    out = r.stdout.strip().splitlines()
    assert json.loads(out[-1]) == [0, []], r.stderr
    assert "9.1 Gbps" in r.stdout and "Thanks" not in r.stdout  # only the message with a claim
    assert out[-2] == "2 message(s), 1 with findings: 1 claim(s), 0 command(s), 0 setup step(s)"
