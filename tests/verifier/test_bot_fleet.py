"""The bot dispatching to a lab: `runner = "fleet"` in its config.

Real parts: a public-inbox on loopback, a dask scheduler and two `verifier worker`s (netns
runner) as subprocesses, the bot as a subprocess killed with SIGKILL in the middle of the
claim's runs and restarted.  Only the host with the asked tag may run the claim; every plan
position ends with exactly one finished record; `verifier status` says which host ran it.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys

import pytest

from runners.fleet_lab import LocalLab
from tests.botkit import MAINTAINER, SEED001, bot, bot_config, count, reply, rows, thread, wait
from tests.paths import ROOT

pytestmark = [pytest.mark.root,
              pytest.mark.skipif(SEED001 is None or shutil.which("netperf") is None,
                                 reason="shared seeds or netperf missing")]


def test_bot_runs_asked_claims_on_the_matching_lab_host_and_resumes(local_inbox, tmp_path):
    inbox = local_inbox
    asked, _, mail = thread("fleetasked", 0)
    inbox.deliver(mail)
    inbox.deliver(reply(asked, 1, MAINTAINER, "verifier: check",
                        "[PATCH net-next] fleetasked: gro flush timer"))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    db = tmp_path / "state.sqlite"
    with LocalLab() as lab:
        lab.add_worker("lab1", "nic=veth", probe=True, extra=["--runner", "netns"])
        lab.add_worker("lab2", "nic=mlx5", probe=True, extra=["--runner", "netns"])
        cfg = bot_config(tmp_path / "bot.toml", inbox.url, f"""
runner = "fleet"
scheduler = "{lab.address}"
tags = ["nic=veth"]
max_runs = 3
dry_run = true
""")
        log = open(tmp_path / "bot.log", "wb")  # noqa: SIM115
        proc = subprocess.Popen(bot(cfg), stdout=log, stderr=log, env=env)
        try:
            wait(lambda: count(db, "runs") >= 2,
                 300, proc, "two stored runs")
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=10)
            for _ in range(3):
                r = subprocess.run(bot(cfg, "--once"), capture_output=True, env=env,
                                   timeout=600)
                log.write(r.stderr)
                assert r.returncode == 0, r.stderr.decode()[-2000:]
                if rows(db, "SELECT status FROM claims") == [("judged",)]:
                    break
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)
            log.close()
        st = subprocess.run([sys.executable, "-m", "verifier", "status", "--config", str(cfg),
                             asked], capture_output=True, text=True, env=env, timeout=60)
    assert rows(db, "SELECT status FROM claims") == [("judged",)], \
        (tmp_path / "bot.log").read_text()[-3000:]
    recs = [json.loads(x) for (x,) in rows(db, "SELECT record FROM runs")]
    assert {r["host"] for r in recs} == {"lab1"}
    finished = [r for r in recs if r["ok"]]
    # the plan: one warm-up and three runs per variant, each position finished exactly once
    assert sorted(r["index"] for r in finished) == list(range(8))
    assert {r["variant"] for r in finished} == {"baseline", "candidate"}
    assert all("transaction_rate" in r["samples"] for r in finished if not r["warmup"])
    assert st.returncode == 0, st.stderr
    assert "ran on fleet: lab1 (" in st.stdout and "lab2" not in st.stdout
    assert "judged" in st.stdout
