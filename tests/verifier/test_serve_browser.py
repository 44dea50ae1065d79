"""`verifier serve` in a real browser: Debian's chromium, headless, loads the results page
from a real state file (verifier/state.py), finds a claim by Message-ID and shows its
report, its plots (decoded by the browser), its runs and raw samples."""
from __future__ import annotations

import shutil
import subprocess
import tempfile
import threading
from urllib.parse import quote

import pytest

from tests.replykit import SEED, seed_results
from verifier.bot_plan import spec_hash
from verifier.state import REQUESTED, State

CHROMIUM = shutil.which("chromium")
pytestmark = [pytest.mark.skipif(SEED is None, reason="shared seeds not present"),
              pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed "
                                 "(scripts/apt-packages.txt)")]
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--virtual-time-budget=5000"]


def state_with_a_claim(path) -> tuple[str, str, int]:
    res, _ = seed_results()
    mid = res.spec.source.message_id
    with State(path) as st:
        st.threads.add_message(mid, "http://127.0.0.1:1/netdev", mid, "eric@example.org",
                               res.spec.source.subject, "", REQUESTED, "asked by maint",
                               "maint@example.org")
        st.threads.add_message("other@x", "http://127.0.0.1:1/netdev", "other@x", "a@example.org",
                               "[PATCH] unrelated", "")
        cid, _ = st.claims.add_claim(mid, mid, res.spec, spec_hash(res.spec.to_dict()))
        head = res.to_dict()
        head["runs"] = []
        st.claims.set_claim(cid, "running")
        st.claims.set_claim(cid, "judged", results=head)
        for r in res.runs:
            st.runs.add_run(cid, r)
        st.runs.set_verdicts(cid, res.verdicts, res.verdicts[0].sentence)
    return mid, res.spec.id, cid


@pytest.fixture
def server(tmp_path):
    from werkzeug.serving import make_server

    from verifier.serve import create_app

    mid, sid, cid = state_with_a_claim(tmp_path / "state.sqlite")
    srv = make_server("127.0.0.1", 0, create_app(tmp_path / "state.sqlite"), threaded=True)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{srv.server_port}", mid, sid, cid
    finally:
        srv.shutdown()
        srv.server_close()


def dom(url: str) -> str:
    """The page as chromium built it, after its scripts ran (--dump-dom)."""
    with tempfile.TemporaryDirectory(prefix="pcv-chromium-") as profile:
        out = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--dump-dom",
                              url], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def test_page_loads_and_a_claim_shows_its_report_and_plots(server):
    base, mid, sid, cid = server
    front = dom(base + "/")
    assert "Threads" in front and f"/m/{mid}" in front and "unrelated" in front
    assert "maint@example.org" in front  # who asked
    page = dom(f"{base}/search?q={quote('<' + mid + '>')}")  # searchable by Message-ID
    assert f'id="{sid}"' in page
    assert "transaction_rate: " in page and "netperf.transaction_rate" in page
    assert 'class="plot"' in page
    # the browser decoded every plot: the page's own script counts the loaded images
    n = page.count('class="plot"')
    assert n >= 1 and f'data-plots-loaded="{n}"' in page
    assert "transaction_rate=" in page and "(warm-up)" not in page  # raw samples per run
    assert page.count("<tr><td>") >= 20


def test_unknown_message_is_a_404_page(server):
    import requests

    base, *_ = server
    r = requests.get(base + "/m/nobody@nowhere", timeout=10)
    assert r.status_code == 404 and "has not seen" in r.text
    r = requests.get(base + "/claim/999/results.json", timeout=10)
    assert r.status_code == 404


def test_results_json_and_claim_redirect(server):
    import requests

    base, mid, sid, cid = server
    r = requests.get(f"{base}/claim/{cid}/results.json", timeout=10)
    assert r.status_code == 200 and len(r.json()["runs"]) == 20
    r = requests.get(f"{base}/claim/{cid}", timeout=10, allow_redirects=False)
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/m/{mid}#{sid}")
