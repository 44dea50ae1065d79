"""Reports people read: an email reply, markdown, and a self-contained HTML page.

One context is built from a results file (judging it when it carries no verdicts yet) and
rendered by a jinja2 template per format, so the three formats never disagree.  The email
follows kernel list etiquette (plain text, <= 72 columns, the verdict sentence first,
the layout maintainers know from the kernel test robot).
"""
from __future__ import annotations

import base64
import io
import re
import shlex
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
import yaml

from runners.results import Results, Verdict
from verifier.verdict import judge, summarize

FORMATS = ("email", "markdown", "html")
WIDTH = 72
FOOTER_PREFIX = "verifier-result:"
TEMPLATES = Path(__file__).parent / "templates"

DISCLAIMER = ("Only the change measured here side by side is compared with the claim.")

_RUNNER_NOTES = {
    "netns": "network namespaces joined by a veth pair on one host (no physical NIC)",
    "local": "client and server on one host over loopback",
    "ssh": "separate hosts over SSH",
    "fleet": "a pool of hosts",
    "vm": "each variant's kernel booted with virtme-ng, two namespaces joined by veth inside",
}


_ESCAPES = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])"
                      r"|\x9b[0-?]*[ -/]*[@-~]")
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e"
                       "\u2066-\u2069\ufeff]")


def clean(text: str | None, one_line: bool = False) -> str:
    """Text from a mail made safe for a reply or a terminal: escape sequences and control
    characters (bidi overrides too) removed; tabs and newlines kept unless `one_line`."""
    t = _ESCAPES.sub("", str(text or "")).replace("\r\n", "\n")
    if one_line:
        t = " ".join(t.split())
    return _CONTROLS.sub("", t)


def verdicts_of(results: Results, calibration: dict[str, Any] | None = None
                ) -> list[Verdict]:
    """The results' verdicts, judging now when the file has none (a results file is re-rendered
    without re-running, never re-measured)."""
    return results.verdicts or judge(results, calibration)


def _host(env: dict[str, Any]) -> dict[str, Any]:
    hosts = env.get("hosts") or {}
    if not isinstance(hosts, dict):  # an older or foreign results file
        return {}
    for role in ("client", *hosts):
        h = hosts.get(role)
        if isinstance(h, dict) and "same_as" not in h:
            return h
    return {}


def machine(results: Results) -> list[tuple[str, str]]:
    """The test machine and runner as label/value pairs."""
    env = results.environment or {}
    h = _host(env)
    kind = env.get("runner") or results.runner
    rows = [("runner", f"{kind}: {_RUNNER_NOTES.get(kind, kind)}")]
    for label, key in (("kernel", "kernel"), ("CPU", "cpu_model"), ("CPUs", "cpus"),
                       ("NIC/driver", "nic_driver")):
        if h.get(key):
            rows.append((label, str(h[key])))
    tools = {k: v for k, v in (h.get("tools") or {}).items() if v}
    if tools:
        rows.append(("tools", ", ".join(dict.fromkeys(tools.values()))))
    rows += [("host", x) for x in fleet_hosts(results)]
    if host_load(results):
        rows.append(("host load", host_load(results) or ""))
    if env.get("duration"):
        rows.append(("duration", f"{env['duration']:g} s per run"))
    series = env.get("series") or {}
    if series.get("base"):
        n, sha, why = series.get("patches") or 0, series["base"][:12], series.get("base_why")
        base = f"base: {why}" if why and sha in str(why) else f"base {sha} ({why})"
        rows.append(("kernels", f"{base}; candidate: base + {n} patch{'es' if n != 1 else ''}"
                                f" of <{series.get('message_id')}>"))
    if env.get("emulated"):
        rows.append(("note", str(env.get("note") or "emulated: timings are not valid for "
                                                     "performance")))
    return rows


def differences(results: Results) -> list[str]:
    """How this runner differs from what the mail describes."""
    spec = results.spec
    claimed = spec.claimed_environment or {}
    h = _host(results.environment or {})
    kind = (results.environment or {}).get("runner") or results.runner
    out = []
    for key, value in claimed.items():
        if value in (None, "", [], {}):
            continue
        here = {"nic": h.get("nic_driver"), "driver": h.get("nic_driver"),
                "cpu": h.get("cpu_model"), "cpus": h.get("cpus"),
                "kernel": h.get("kernel")}.get(str(key).lower())
        if isinstance(value, dict):
            shown = ", ".join(f"{k} ({v})" for k, v in value.items())
        elif isinstance(value, list):
            shown = ", ".join(map(str, value))
        else:
            shown = str(value)
        if str(key).lower() == "hosts":
            out.append(f"hosts {shown} there, {kind} here")
            continue
        out.append(f"{key}: the mail says {shown}; here {here or 'not the same'}")
    if kind in ("netns", "local") and "hosts" not in claimed:
        out.append(f"the mail's own hosts there, {kind} here")
    mail_d = spec.run.duration
    here_d = (results.environment or {}).get("duration")
    if mail_d and here_d and float(mail_d) != float(here_d):
        out.append(f"{float(mail_d):g} s runs there, {float(here_d):g} s here")
    booted = bool((results.environment or {}).get("series"))
    out.extend(f"note: {n}" for n in spec.notes
               if not (booted and "needs a kernel runner" in n))
    return out


def _num(x: float) -> str:
    """A claimed number as a person printed it: no exponents for big counters."""
    return f"{x:,.0f}" if abs(x) >= 1e6 else f"{x:g}"


def lkp_num(x: float) -> str:
    """A mean as the kernel test robot prints it (lkp-tests lib/compare.rb): two decimals
    under 1000, %.4g over 1e8, an integer otherwise."""
    a = abs(x)
    if a < 1000:
        return f"{x:.2f}"
    if a > 1e8:
        return f"{x:.4g}"
    return f"{x:.0f}"


def _mean_sd(xs: list[float]) -> tuple[float, float] | None:
    if not xs:
        return None
    m = sum(xs) / len(xs)
    sd = (sum((x - m) ** 2 for x in xs) / (len(xs) - 1)) ** 0.5 if len(xs) > 1 else 0.0
    return m, sd


@dataclass
class Side:
    """One variant's samples of a row as the table prints them."""

    variant: str
    n: int
    mean: float | None
    sd: float | None

    @property
    def text(self) -> str:
        if self.mean is None or self.sd is None:
            return "-"
        return f"{lkp_num(self.mean)} +-{lkp_num(self.sd)}"


@dataclass
class Spread:
    base: Side
    cand: Side

    @property
    def change_pct(self) -> float | None:
        """The change of the means (the kernel test robot's %change)."""
        b, c = self.base.mean, self.cand.mean
        return (c / b - 1.0) * 100.0 if b and c is not None else None


def _side(results: Results, variant: str, key: str) -> Side:
    xs = results.samples(variant, key)
    ms = _mean_sd(xs)
    return Side(variant, len(xs), ms[0] if ms else None, ms[1] if ms else None)


def spread(results: Results, v: Verdict) -> Spread:
    """Absolute mean, standard deviation and run count of each side of a verdict row, and
    the change of the means."""
    return Spread(_side(results, v.baseline_variant or "baseline", v.name),
                  _side(results, v.variant or "candidate", v.name))


def table(results: Results, verdicts: list[Verdict]) -> list[str]:
    """The LKP-like table, preformatted: per row a name line (tool.metric, unit, direction,
    runs per side) and `baseline mean +-sd | %change | candidate mean +-sd | claimed |
    verdict`.  Never re-wrapped: it is aligned text."""
    tool = results.spec.benchmark.tool
    cells = []
    for v in verdicts:
        sp = spread(results, v)
        ch = sp.change_pct
        claimed = ("no change" if v.no_change_claim  # the mail's words, not +0.0%
                   else f"{v.claimed_pct:+.1f}%" if v.claimed_pct is not None
                   else {"higher": "up", "lower": "down"}.get(str(v.better), "-"))
        name = ".".join(x for x in (tool, v.metric) if x) or "claim"
        extra = ", ".join(x for x in (v.unit, f"{v.better} is better"
                                      if v.better else None) if x)
        if v.variant and v.variant != "candidate":
            extra = ", ".join(filter(None, [extra, f"{v.variant} vs "
                                                   f"{v.baseline_variant}"]))
        runs = f"n={sp.base.n}+{sp.cand.n}"
        cells.append((f"{name} ({', '.join(filter(None, [extra, runs]))})",
                      sp.base.text, "-" if ch is None else f"{ch:+.1f}%",
                      sp.cand.text, claimed, str(v.verdict)))
    head = ("", "baseline", "%change", "candidate", "claimed", "verdict")
    w = [max(len(c[i]) for c in [head, *cells]) for i in range(1, 6)]
    w[0], w[2] = max(w[0], 13), max(w[2], 13)

    def line(c: tuple[str, ...]) -> str:
        return (f"  {c[1]:>{w[0]}}  {c[2]:>{w[1]}}  {c[3]:>{w[2]}}  {c[4]:>{w[3]}}  "
                f"{c[5]}").rstrip()

    out = [line(head), line(("", *("-" * n for n in w[:4]), "-" * max(7, w[4])))]
    for c in cells:
        out += [f"  {c[0]}", line(c)]
    return out


_SHORT_RUNNER = {
    "netns": "two network namespaces joined by veth on one host",
    "local": "client and server on one host over loopback",
    "ssh": "separate hosts over SSH",
    "fleet": "lab hosts",
    "vm": "each variant's kernel booted with virtme-ng",
}


def machine_short(results: Results) -> str:
    """The machine in a line or two: runner, CPU, kernel release, NIC driver, tool."""
    env = results.environment or {}
    h = _host(env)
    kind = env.get("runner") or results.runner
    parts = [f"runner: {kind} ({_SHORT_RUNNER.get(kind, kind)})"]
    for host in fleet_hosts(results)[:2]:
        parts.append(f"host {host}")
    if h.get("cpu_model"):
        parts.append(f"CPU: {h['cpu_model']}" + (f" x{h['cpus']}" if h.get("cpus") else ""))
    if h.get("kernel"):
        parts.append("kernel: " + str(h["kernel"]).split()[0])
    # a driver the runner's own words already name (netns: veth) is not said twice
    if h.get("nic_driver") and str(h["nic_driver"]) not in parts[0].split():
        parts.append(f"NIC/driver: {h['nic_driver']}")
    tools = {k: v for k, v in (h.get("tools") or {}).items() if v}
    if tools:
        parts.append("tools: " + ", ".join(dict.fromkeys(str(v) for v in tools.values())))
    rows = dict(machine(results))
    if rows.get("kernels"):  # the commits on each side
        parts.append(f"kernels: {rows['kernels']}")
    if env.get("emulated"):
        parts.append(f"note: {rows.get('note') or 'emulated: not valid for performance'}")
    return "; ".join(parts)


def _tag_facts(tags: Any) -> dict[str, str]:
    """kernel, CPU and NIC drivers from a fleet host's tags (runners.fleet_host.probe_tags:
    'kernel=6.1.0-28-amd64', 'cpu-model=amd-epyc', 'driver=mlx5_core', 'nic=mlx5')."""
    facts: dict[str, str] = {}
    for t in tags if isinstance(tags, list) else []:
        key, eq, value = str(t).partition("=")
        if not eq:
            continue
        name = {"kernel": "kernel", "cpu-model": "CPU", "cpu": "CPU", "driver": "NIC",
                "nic": "NIC"}.get(key)
        if name:
            facts[name] = f"{facts[name]}, {value}" if name in facts else value
    return facts


def fleet_hosts(results: Results) -> list[str]:
    """The lab hosts that ran the runs, with what the fleet recorded of each: 'lab1
    (kernel 6.1.0-28-amd64, CPU amd-epyc, NIC mlx5_core): 20 runs'."""
    env = results.environment or {}
    host_tags = env.get("host_tags")
    tags: dict[str, Any] = host_tags if isinstance(host_tags, dict) else {}
    by: dict[str, int] = {}
    for r in results.runs:
        if r.host and not r.warmup and (tags or env.get("runner") == "fleet"
                                        or results.runner == "fleet"):
            by[r.host] = by.get(r.host, 0) + 1
    out = []
    for name, n in by.items():
        f = _tag_facts(tags.get(name))
        desc = ", ".join(f"{k} {v}" for k, v in f.items())
        out.append(f"{name}" + (f" ({desc})" if desc else "") + f": {n} runs")
    return out


def parameters(results: Results) -> str:
    """How it ran, in one line: duration, runs per side, order, warm-up, what differs."""
    spec = results.spec
    run = spec.run
    env = results.environment or {}
    counted = [r for r in results.runs if not r.warmup and r.ok]
    per: dict[str, int] = {}
    for r in counted:
        per[r.variant] = per.get(r.variant, 0) + 1
    parts = []
    d = env.get("duration") or run.duration
    how = f"{float(d):g} s runs" if d else "runs"
    if per:
        how = "+".join(str(n) for n in per.values()) + f" {how}, interleaved"
    if run.warmup:
        how += f", after {run.warmup} warm-up each"
    parts.append(how)
    labels = [f"{var.name} {var.label}" for var in spec.variants if var.label]
    if labels:
        parts.append(", ".join(labels))
    return "; ".join(parts)


def device_state(results: Results) -> list[str]:
    """What each variant set on the devices (the runner's record of its setup steps)."""
    out = []
    for t in (results.environment or {}).get("touched") or []:
        if isinstance(t, dict) and t.get("target") and t.get("old") != t.get("new"):
            out.append(f"{t.get('role')}: {t['target']} {t.get('old')} -> {t.get('new')}")
    return list(dict.fromkeys(out))


def host_load(results: Results) -> str | None:
    """The load average the runner recorded around the runs, when it did."""
    load = (results.environment or {}).get("load")
    if not isinstance(load, dict) or not load:
        return None
    parts = []
    for when in ("before", "after"):
        v = load.get(when)
        if isinstance(v, list | tuple) and v and isinstance(v[0], int | float):
            parts.append(f"{float(v[0]):.2f} {when}")
    cpus = _host(results.environment or {}).get("cpus")
    if not parts:
        return None
    return "1-min load average " + ", ".join(parts) + (f" ({cpus} CPUs)" if cpus else "")


def _claimed_text(v: Verdict) -> str:
    unit = f" {v.unit}" if v.unit else ""
    b, c = v.claimed_baseline, v.claimed_candidate
    change = f"{v.claimed_pct:+.1f}%" if v.claimed_pct is not None else ""
    if v.no_change_claim:  # the mail says "no regression", "same", "within noise"
        change = "no change"
    if b is not None and c is not None:
        return f"{_num(b)} -> {_num(c)}{unit}" + (f", {change}" if change else "")
    return change or "a change without numbers"


def _title(v: Verdict, command: str | None) -> str:
    """The metric, with the row/column label from the mail when it adds something."""
    name = v.metric or "claim"
    label = (v.label or "").strip()
    if label and label != command and label != name and len(label) <= 40:
        name = f"{label}: {name}"
    return name + (f" ({v.better} is better)" if v.better else "")


@dataclass
class ReportRow:
    """One row of the markdown and HTML tables, as the templates print it."""

    title: str
    metric: str | None
    variant: str
    claimed: str
    measured: str
    runs: str
    verdict: str  # with its detail
    reason: str | None
    compared: str | None  # what the interval compared; a row without one compared nothing
    ruled_out: float | None
    problems: list[str]
    notes: list[str]
    raw: Verdict


def row_context(v: Verdict, command: str | None = None) -> ReportRow:
    """One row for the markdown and HTML tables.  Its reason does not repeat the row's own
    name, and a row that is the same measurement as an earlier one (`same_as`) points at
    that row's reason instead of printing it again."""
    reason = _unnamed(str(v.reason), v) if v.reason else None
    if reason and v.same_as:
        reason = f"the same measurement as {v.same_as}: see its reason"
    return ReportRow(
        title=_title(v, command), metric=v.metric, variant=v.variant,
        claimed=_claimed_text(v), measured=v.measured or "not measured",
        runs=f"{v.n_base} baseline, {v.n_cand} {v.variant or 'candidate'}",
        verdict=str(v.verdict) + (f" ({v.detail})" if v.detail else ""), reason=reason,
        compared=v.compared if v.effect else None, ruled_out=v.ruled_out_pct,
        problems=[p.message for p in v.problems],
        notes=list(v.notes) + ([v.claim_note] if v.claim_note else []), raw=v)


def commands(results: Results) -> list[str]:
    """The exact commands to reproduce: the verifier's, then the benchmark as it ran."""
    spec = results.spec
    sid = spec.id or "spec"
    kind = (results.environment or {}).get("runner") or results.runner
    out = []
    mid = spec.source.message_id
    if mid:
        tree = " --tree ~/linux" if (results.environment or {}).get("series") else ""
        out.append(f"verifier check {mid.strip('<>')} --runner {kind}{tree}")
    out += [f"verifier run spec-{sid}.yaml --runner {kind} -o results.json",
            "verifier report results.json --format email"]
    seen = set()
    for var in spec.variants:
        for a in var.setup:
            if a.raw:
                out.append(f"# {var.name} setup: {a.raw}")
    for r in results.runs:
        if r.argv and r.variant not in seen:
            seen.add(r.variant)
            out.append(f"# {r.variant}, as run here:")
            out.append(shlex.join(r.argv))
    return out


def reproduce(results: Results) -> str:
    """One command a reader pastes next to the attached spec: the run as it ran here,
    then the report."""
    sid = results.spec.id or "spec"
    env = results.environment or {}
    kind = env.get("runner") or results.runner
    d = f" --duration {float(env['duration']):g}" if env.get("duration") else ""
    if kind == "fleet":
        return (f"verifier fleet spec-{sid}.yaml --scheduler {env.get('scheduler') or 'URL'}"
                " -o r.json && verifier report r.json")
    return (f"verifier run spec-{sid}.yaml --runner {kind}{d} --sequential -o r.json "
            "&& verifier report r.json")


def _unnamed(text: str, v: Verdict) -> str:
    """A row's reason without the row's own metric name at its head ('no information here:
    cpu_local: on this runner ...'): the note names the rows it covers once, in front."""
    lead = "no information here: "
    head, rest = (lead, text[len(lead):]) if text.startswith(lead) else ("", text)
    sample, metric = v.sample, v.metric
    for name in (f"{sample} ({metric})", sample, metric):
        if name and rest.startswith(f"{name}: "):
            return head + rest[len(name) + 2:]
    return text


def row_notes(verdicts: list[Verdict], said: str = "") -> list[str]:
    """One line per distinct detail, reason or note, naming the rows it covers: 'cpu_local,
    cpu_remote: no information here: ...'.  A row that is the same measurement as an
    earlier one (`same_as`) is folded into that row's reason; a reason the headline `said`
    already is not repeated."""
    by_text: dict[str, list[str]] = {}
    reason_of: dict[str, str] = {}  # a row's name -> the key its reason is listed under
    for v in verdicts:
        name = str(v.metric or "claim")
        why = [str(x) for x in (v.detail, v.reason) if x]
        why += [str(x) for x in v.notes[:1]]
        if v.claim_note:
            why.append(str(v.claim_note))
        why += [f"claim arithmetic: {p.message}" for p in v.problems]
        for w in why:
            if w in said:
                continue
            key = _unnamed(w, v)
            if w == v.reason:
                first = reason_of.get(str(v.same_as))
                key = first if v.same_as and first else key
                reason_of.setdefault(name, key)
                if v.sample:
                    reason_of.setdefault(str(v.sample), key)
            names = by_text.setdefault(key, [])
            if name not in names:
                names.append(name)
    return [f"{', '.join(names)}: {w}" for w, names in by_text.items()]


def compared_notes(verdicts: list[Verdict]) -> list[str]:
    """What each judged row compared, one line per way of comparing ('transaction_rate,
    cpu_local: candidate against baseline, 10 ABBA pairs; noise band +-1.0% (A/A
    calibration)'); the method line names the estimator and level once, and rows compared
    alike share a line, so a reply with many rows stays short."""
    by_text: dict[str, list[str]] = {}
    for v in verdicts:
        e, text = v.effect, v.compared
        if e is None or not text:
            continue
        runs = f"{e.n_base} ABBA pairs" if e.paired else f"{e.n_base}+{e.n_cand} runs"
        band = str(text).rsplit("; ", 1)[-1]
        key = f"{v.variant or 'candidate'} against {v.baseline_variant or 'baseline'}, {runs}; {band}"
        names = by_text.setdefault(key, [])
        name = str(v.metric or v.sample or "claim")
        if name not in names:
            names.append(name)
    out = []
    for text, names in by_text.items():
        shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
        out.append(f"{shown}: compared {text}")
    return out


def footer(results: Results, verdicts: list[Verdict]) -> list[str]:
    """Machine-readable lines, one per row:
    'verifier-result: <spec> <metric> <VERDICT> <change>% [<lo>,<hi>] n=<base>+<cand>'."""
    sid = results.spec.id or "-"
    lines = []
    for v in verdicts:
        e = v.effect
        measured = (f" {e.measured_pct:+.1f}% [{e.ci_pct[0]:+.1f},{e.ci_pct[1]:+.1f}]"
                    if e is not None and e.ci_pct else "")
        lines.append(f"{FOOTER_PREFIX} {sid} {v.metric or '-'} "
                     f"{str(v.verdict).replace(' ', '_')}{measured} "
                     f"n={v.n_base}+{v.n_cand}")
    return lines


def parse_footer(text: str) -> list[dict[str, Any]]:
    """Read the machine-readable footer back from a report (folded lines unfolded)."""
    logical: list[str] = []
    for line in text.splitlines():
        if line.startswith(FOOTER_PREFIX):
            logical.append(line)
        elif logical and line.startswith(" ") and line.strip():
            logical[-1] += " " + line.strip()
        elif logical and not line.startswith(FOOTER_PREFIX):
            logical.append("")  # anything else ends a folded line
    out = []
    for line in filter(None, logical):
        f = line[len(FOOTER_PREFIX):].split()
        row: dict[str, Any] = {"spec": f[0], "metric": f[1], "verdict": f[2].replace("_", " ")}
        for tok in f[3:]:
            if tok.endswith("%"):
                row["change_pct"] = float(tok[:-1])
            elif tok.startswith("["):
                lo, hi = tok.strip("[]").split(",")
                row["ci_pct"] = [float(lo), float(hi)]
            elif tok.startswith("n="):
                a, b = tok[2:].split("+")
                row["n"] = [int(a), int(b)]
        out.append(row)
    return out


def spec_yaml(results: Results, width: int = 64, inline: bool = True) -> str:
    """The spec as YAML; inline in a mail it leaves out the quote (the reply quotes it)."""
    spec = results.spec.to_dict()
    if inline:
        spec["source"] = {k: v for k, v in spec["source"].items() if k != "quote"}
    return yaml.safe_dump(spec, sort_keys=False, width=width, allow_unicode=True,
                          default_flow_style=False)


def method(verdicts: list[Verdict]) -> str:
    """One sentence on how the rows were judged: a reader checks the estimator, the band
    and the level (the estimator as the rows' effects name it, once for all rows)."""
    v = next((x for x in verdicts if x.alpha), None)
    if v is None or v.alpha is None:
        return ""
    holm = " (Holm)" if any(x.holm for x in verdicts) else ""
    how = list(dict.fromkeys(e.estimator for x in verdicts
                             if (e := x.effect) is not None and e.estimator))
    est = f"{'; '.join(how)}, " if how else ""  # no row was compared: no interval to name
    return (f"%change is of the means; verdicts: {est}{(1 - v.alpha) * 100:.4g}% per "
            f"look{holm}, noise band +-{v.delta_pct:.1f}%.")


def context(results: Results, calibration: dict[str, Any] | None = None) -> dict[str, Any]:
    verdicts = verdicts_of(results, calibration)
    spec = results.spec
    summary = summarize(verdicts)
    return {
        "results": results,
        "spec": spec,
        "source": spec.source,
        "summary": summary,
        "rows": [row_context(v, spec.benchmark.original) for v in verdicts],
        "verdicts": verdicts,
        "machine": machine(results),
        "machine_line": machine_short(results),
        "table": table(results, verdicts),
        "parameters": parameters(results),
        "device_state": device_state(results),
        "host_load": host_load(results),
        "reproduce": reproduce(results),
        "row_notes": row_notes(verdicts, summary.sentence or ""),
        "compared": compared_notes(verdicts),
        "differences": differences(results),
        "commands": commands(results),
        "spec_yaml": spec_yaml(results),
        "disclaimer": DISCLAIMER,
        "method": method(verdicts),
        "footer": footer(results, verdicts),
        "status": results.status,
        "reason": results.reason,
        "failed_runs": sum(1 for r in results.runs if not r.ok and not r.warmup),
    }


def _wrap(text: str, width: int = WIDTH, indent: str = "", first: str | None = None) -> str:
    return textwrap.fill(" ".join(str(text).split()), width=width,
                         initial_indent=indent if first is None else first,
                         subsequent_indent=indent, break_long_words=False,
                         break_on_hyphens=False)


def fold(text: str, width: int = WIDTH) -> str:
    """Fold every line longer than `width` at spaces, keeping its indent (+2); a folded
    footer line continues on lines starting with spaces, as a mail header does (see
    `parse_footer`).  Long unbreakable words are split as a last resort."""
    out = []
    for line in text.splitlines():
        if len(line) <= width:
            out.append(line)
            continue
        ind = line[: len(line) - len(line.lstrip())]
        parts = textwrap.wrap(line.strip(), width=width, initial_indent=ind,
                              subsequent_indent=ind + "  ", break_long_words=True,
                              break_on_hyphens=False)
        out.extend(parts or [line[:width]])
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


def shell_wrap(cmd: str, width: int = WIDTH, indent: str = "   ") -> str:
    """A command folded with ' \\' continuations, so it still pastes into a shell."""
    if len(indent) + len(cmd) <= width:
        return indent + cmd
    if cmd.startswith("#"):  # a comment folds as comment lines
        return "\n".join(textwrap.wrap(cmd[1:].strip(), width=width, initial_indent=indent + "# ",
                                       subsequent_indent=indent + "#   ",
                                       break_long_words=False, break_on_hyphens=False))
    lines: list[str] = []
    cur = indent
    for word in cmd.split(" "):
        if cur.strip() and len(cur) + 1 + len(word) + 2 > width:
            lines.append(cur + " \\")
            cur = indent + "  " + word
        else:
            cur = cur + (" " if cur.strip() else "") + word
    lines.append(cur)
    return "\n".join(lines)


def _env() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                             keep_trailing_newline=True,
                             trim_blocks=True, lstrip_blocks=True,
                             autoescape=lambda name: name is not None and name.startswith("html"))
    env.filters["wrap"] = _wrap
    env.filters["shell"] = shell_wrap
    env.filters["pct"] = lambda x: "" if x is None else f"{x:+.1f}%"
    env.filters["fold"] = lambda x: fold(x).rstrip("\n")
    return env


def figure(results: Results, v: Verdict) -> Any:
    """One row's figure: each variant's samples in run order (integer run axis), and the
    claimed change against the measured interval; titled by metric and variant."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 3.2))
    for i, var in enumerate((v.baseline_variant, v.variant)):
        ys = results.samples(var, v.name)
        ax1.plot(range(1, len(ys) + 1), ys, "o", label=f"{var} (n={len(ys)})", color=f"C{i}")
    ax1.set_xlabel("run")
    ax1.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax1.set_ylabel(f"{v.metric}" + (f" [{v.unit}]" if v.unit else ""))
    ax1.legend(fontsize=8)
    title = f"{v.metric}: {v.variant} vs {v.baseline_variant}"
    ax1.set_title(f"{title}, samples in run order", fontsize=9)
    e = v.effect
    assert e is not None  # plots are drawn for the rows that were compared
    lo, hi = e.ci_pct
    ax2.errorbar([e.measured_pct], [0], xerr=[[e.measured_pct - lo], [hi - e.measured_pct]],
                 fmt="o", capsize=6, label="measured (CI)")
    if v.claimed_pct is not None:
        ax2.axvline(v.claimed_pct, color="C3", ls="--", label="claimed")
    d = v.delta_pct or 1.0
    ax2.axvspan(-d, d, color="0.85", label="noise band")
    ax2.axvline(0, color="0.4", lw=0.8)
    ax2.set_yticks([])
    ax2.set_xlabel("change, %")
    ax2.legend(fontsize=8)
    ax2.set_title(f"{title}: {v.verdict}", fontsize=9)
    fig.tight_layout()
    return fig


def plots(results: Results, verdicts: list[Verdict]) -> list[dict[str, str]]:
    """Per judged row, a base64 PNG of its figure and a title naming metric and variant."""
    import matplotlib.pyplot as plt

    out = []
    for v in verdicts:
        if not v.effect:
            continue
        fig = figure(results, v)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=80)
        plt.close(fig)
        out.append({"title": f"{v.metric} ({v.variant} vs {v.baseline_variant})",
                    "png": base64.b64encode(buf.getvalue()).decode("ascii")})
    return out


def render(results: Results, fmt: str = "email",
           calibration: dict[str, Any] | None = None,
           extra: dict[str, Any] | None = None) -> str:
    """The report in one format.  In the email, prose is wrapped to 72 columns and
    preformatted text (the table, commands) is never re-wrapped; `extra` adds what only a
    reply knows (who asked, the results page, the attachments)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    ctx = context(results, calibration)
    if fmt == "html":
        ctx["plots"] = plots(results, ctx["verdicts"])
    ctx.update(extra or {})
    cap = ctx.get("max_rows")
    if cap and len(ctx["verdicts"]) > cap:  # a short mail: the rest is attached
        ctx["table"] = table(results, ctx["verdicts"][:cap])
        ctx["more_rows"] = len(ctx["verdicts"]) - cap
    return clean(_env().get_template(f"{fmt}.j2").render(**ctx))
