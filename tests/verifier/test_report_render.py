"""Reports rendered from results files: email etiquette, markdown, HTML with plots."""
from __future__ import annotations

import argparse
import base64
import re

from runners.results import Results
from tests.stats_sim import fixed
from verifier import cmd_report
from verifier.report import lkp_num, parse_footer, render, spread
from verifier.verdict import judge


def _results():
    res = fixed(-4.1, -4.0, 1.0, 10, 3)
    res.runner = "netns"
    m = res.spec.metrics[0]
    m.baseline, m.candidate, m.better = 9023.86, 8651.26, "higher"
    res.spec.claimed_environment = {"nic": "mlx4", "hosts": ["lpaa5", "lpaa6"]}
    res.environment = {"runner": "netns", "hosts": {"client": {
        "kernel": "6.1.0-28-amd64", "cpu_model": "Some CPU @ 2.0GHz", "cpus": 2,
        "nic_driver": "veth", "tools": {"netperf": "Netperf version 2.7.0"}},
        "server": {"same_as": "client"}}}
    return res


def test_email_layout():
    res = _results()
    text = render(res, "email")
    lines = text.splitlines()
    assert max(len(x) for x in lines if not x.startswith("verifier-result:")) <= 72
    assert lines[0].startswith("throughput: CONFIRMED")  # the verdict sentence first
    # one look at 0.8% overall (99.2%), on the ABBA pairs when they are correlated
    # (verifier.verdict); wrapped
    assert re.search(r"measured -4\.\d% \[-\d\.\d, -\d\.\d\] \(99\.2%, n=10\+10(, paired)?\)",
                     " ".join(text.split()))
    # the LKP-like table: absolute means +- stddev per side, %change of the means, runs
    head = next(i for i, x in enumerate(lines) if x.split()[:3] == ["baseline", "%change",
                                                                      "candidate"])
    assert lines[head].split()[3:] == ["claimed", "verdict"]
    assert lines[head + 2].strip() == "throughput (tps, higher is better, n=10+10)"
    cells = lines[head + 3].split()
    sp = spread(res, judge(res)[0])
    assert cells[0] == lkp_num(sp.base.mean) and cells[1] == f"+-{lkp_num(sp.base.sd)}"
    assert cells[3] == lkp_num(sp.cand.mean)
    assert cells[2] == f"{sp.change_pct:+.1f}%" and cells[-2:] == ["-4.1%", "CONFIRMED"]
    assert "veth" in text and "nic: the mail says mlx4; here veth" in text
    assert "verifier run spec-sim.yaml --runner netns" in text
    assert "Only the change measured here side by side" in " ".join(text.split())
    assert "-- " in lines and lines.index("-- ") < len(lines) - 1
    assert lines[-1].startswith("verifier-result: sim throughput CONFIRMED -4.")
    [row] = parse_footer(text)
    assert row["verdict"] == "CONFIRMED" and row["n"] == [10, 10]
    assert row["ci_pct"][0] < row["change_pct"] < row["ci_pct"][1] < 0


def test_long_footer_stays_one_line_and_parses_back():
    res = _results()
    res.spec.id = "netperf-0adfab3a-1"
    res.spec.metrics[0].name = "service_demand_remote"
    for r in res.runs:
        r.samples["service_demand_remote"] = r.samples.pop("throughput")
    # on two separate hosts remote CPU is a measurement: the longest footer, with its CI
    res.runner = "ssh"
    res.environment = {"runner": "ssh", "hosts": {"client": {"kernel": "6.1.0-28-amd64"},
                                                  "server": {"kernel": "6.1.0-28-amd64"}}}
    text = render(res, "email")
    assert sum(x.startswith("verifier-result:") for x in text.splitlines()) == 1
    [row] = parse_footer(text)
    assert row["metric"] == "service_demand_remote" and "ci_pct" in row
    # on one machine (netns) it carries no information: INVALID, no CI, still one line
    res.runner, res.environment = "netns", _results().environment
    text = render(res, "email")
    assert sum(x.startswith("verifier-result:") for x in text.splitlines()) == 1
    [row] = parse_footer(text)
    assert row["metric"] == "service_demand_remote" and row["verdict"] == "INVALID"
    assert "ci_pct" not in row and row["n"] == [10, 10]


def test_markdown_and_html():
    md = render(_results(), "markdown")
    assert "| metric | claimed | measured (CI) | runs | verdict |" in md
    assert "**CONFIRMED**" in md
    html = render(_results(), "html")
    pngs = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', html)
    assert len(pngs) == 1
    assert base64.b64decode(pngs[0]).startswith(b"\x89PNG")
    assert "<script" not in html and "http" not in html.split("<body>")[0]


def test_not_runnable_and_arithmetic_problems_show():
    res = Results(spec={"id": "s2", "metrics": [{"name": "throughput", "baseline": 100.0,
                                                 "candidate": 110.0,
                                                 "claimed_change_pct": 25.0, "runs": 1}]},
                  runner="netns", status="not-runnable",
                  reason="a kernel runner is needed (the claim compares two kernels)")
    text = render(res, "email")
    assert "NOT RUNNABLE HERE" in text.splitlines()[0]
    flat = " ".join(text.split())
    assert "kernel runner is needed" in flat and "+25.0%" in flat
    assert "does not match its own numbers" in flat and "one run per side" in flat
    assert max(len(x) for x in text.splitlines() if not x.startswith("verifier-")) <= 72


def test_cli_renders_again_without_running(tmp_path, capsys):
    res = _results()
    path = tmp_path / "r.json"
    res.save(path)
    p = argparse.ArgumentParser()
    cmd_report.add_arguments(p)
    assert cmd_report.run(p.parse_args([str(path), "--format", "markdown",
                                        "-o", str(tmp_path / "r.md")])) == 0
    assert "CONFIRMED" in (tmp_path / "r.md").read_text()
    (tmp_path / "bad.json").write_text("{not json")
    assert cmd_report.run(p.parse_args([str(tmp_path / "bad.json")])) == 2
    assert "not a results file" in capsys.readouterr().err


def test_cli_refuses_malformed_results_in_one_line(tmp_path, capsys):
    import json
    res = _results()
    d = res.to_dict()
    d["runs"][0]["samples"]["throughput"] = "fast"
    (tmp_path / "r.json").write_text(json.dumps(d))
    p = argparse.ArgumentParser()
    cmd_report.add_arguments(p)
    assert cmd_report.run(p.parse_args([str(tmp_path / "r.json")])) == 2
    err = capsys.readouterr().err
    assert "non-numeric samples" in err and err.count("\n") == 1
