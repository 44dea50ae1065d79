"""Reports people read: an email reply, markdown, and a self-contained HTML page.

One context is built from a results file (judging it when it carries no verdicts yet) and
rendered by a jinja2 template per format, so the three formats never disagree.  The email
follows kernel list etiquette (plain text, <= 72 columns, the verdict sentence first,
the layout maintainers know from the kernel test robot).
"""
from __future__ import annotations

import base64
import io
import shlex
import textwrap
from pathlib import Path
from typing import Any

import jinja2
import yaml

from verifier.results import Results
from verifier.verdict import judge, summarize

FORMATS = ("email", "markdown", "html")
WIDTH = 72
FOOTER_PREFIX = "verifier-result:"
TEMPLATES = Path(__file__).parent / "templates"

DISCLAIMER = ("Absolute numbers are not comparable across machines: only the relative "
              "change between baseline and candidate, measured side by side on the "
              "same runner, is checked against the claim. A different CPU, NIC, driver, "
              "kernel or topology can change the result.")

_RUNNER_NOTES = {
    "netns": "network namespaces joined by a veth pair on one host (no physical NIC)",
    "local": "client and server on one host over loopback",
    "ssh": "separate hosts over SSH",
    "fleet": "a pool of hosts",
    "vm": "each variant's kernel booted with virtme-ng, two namespaces joined by veth inside",
}


def verdicts_of(results: Results, calibration: dict[str, Any] | None = None
                ) -> list[dict[str, Any]]:
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
    spec = results.spec or {}
    claimed = spec.get("claimed_environment") or {}
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
            out.append(f"hosts: the mail used {shown}")
            continue
        out.append(f"{key}: the mail says {shown}; here {here or 'not the same'}")
    if kind in ("netns", "local"):
        out.append(f"topology: this runner uses {_RUNNER_NOTES[kind]}; the mail's numbers "
                   "come from its own hosts")
    mail_d = (spec.get("run") or {}).get("duration")
    here_d = (results.environment or {}).get("duration")
    if mail_d and here_d and float(mail_d) != float(here_d):
        out.append(f"duration: {float(here_d):g} s per run here, {float(mail_d):g} s in "
                   "the mail")
    booted = bool((results.environment or {}).get("series"))
    out.extend(f"note: {n}" for n in spec.get("notes") or []
               if not (booted and "needs a kernel runner" in n))
    return out


def _num(x: float) -> str:
    """A claimed number as a person printed it: no exponents for big counters."""
    return f"{x:,.0f}" if abs(x) >= 1e6 else f"{x:g}"


def _claimed_text(v: dict[str, Any]) -> str:
    unit = f" {v['unit']}" if v.get("unit") else ""
    b, c = v.get("claimed_baseline"), v.get("claimed_candidate")
    change = f"{v['claimed_pct']:+.1f}%" if v.get("claimed_pct") is not None else ""
    if b is not None and c is not None:
        return f"{_num(b)} -> {_num(c)}{unit}" + (f", {change}" if change else "")
    return change or "a change without numbers"


def _title(v: dict[str, Any], command: str | None) -> str:
    """The metric, with the row/column label from the mail when it adds something."""
    name = v.get("metric") or "claim"
    label = (v.get("label") or "").strip()
    if label and label != command and label != name and len(label) <= 40:
        name = f"{label}: {name}"
    return name + (f" ({v['better']} is better)" if v.get("better") else "")


def row_context(v: dict[str, Any], command: str | None = None) -> dict[str, Any]:
    verdict = v["verdict"] + (f" ({v['detail']})" if v.get("detail") else "")
    return {
        "title": _title(v, command),
        "metric": v.get("metric"),
        "variant": v.get("variant"),
        "claimed": _claimed_text(v),
        "measured": v.get("measured") or "not measured",
        "runs": (f"{v.get('n_base', 0)} baseline, {v.get('n_cand', 0)} "
                 f"{v.get('variant') or 'candidate'}"),
        "verdict": verdict,
        "reason": v.get("reason"),
        "ruled_out": v.get("ruled_out_pct"),
        "problems": [p["message"] for p in v.get("problems", [])],
        "notes": list(v.get("notes", [])) + ([v["claim_note"]] if v.get("claim_note") else []),
        "raw": v,
    }


def commands(results: Results) -> list[str]:
    """The exact commands to reproduce: the verifier's, then the benchmark as it ran."""
    spec = results.spec or {}
    sid = spec.get("id") or "spec"
    kind = (results.environment or {}).get("runner") or results.runner
    out = []
    mid = (spec.get("source") or {}).get("message_id")
    if mid:
        tree = " --tree ~/linux" if (results.environment or {}).get("series") else ""
        out.append(f"verifier check {mid.strip('<>')} --runner {kind}{tree}")
    out += [f"verifier run spec-{sid}.yaml --runner {kind} -o results.json",
            "verifier report results.json --format email"]
    seen = set()
    for var in spec.get("variants", []):
        for a in var.get("setup", []) or []:
            if a.get("raw"):
                out.append(f"# {var['name']} setup: {a['raw']}")
    for r in results.runs:
        if r.argv and r.variant not in seen:
            seen.add(r.variant)
            out.append(f"# {r.variant}, as run here:")
            out.append(shlex.join(r.argv))
    return out


def footer(results: Results, verdicts: list[dict[str, Any]]) -> list[str]:
    """Machine-readable lines, one per row:
    'verifier-result: <spec> <metric> <VERDICT> <change>% [<lo>,<hi>] n=<base>+<cand>'."""
    sid = (results.spec or {}).get("id") or "-"
    lines = []
    for v in verdicts:
        e = v.get("effect") or {}
        ci = e.get("ci_pct")
        measured = (f" {e['measured_pct']:+.1f}% [{ci[0]:+.1f},{ci[1]:+.1f}]"
                    if e and ci else "")
        lines.append(f"{FOOTER_PREFIX} {sid} {v.get('metric') or '-'} "
                     f"{v['verdict'].replace(' ', '_')}{measured} "
                     f"n={v.get('n_base', 0)}+{v.get('n_cand', 0)}")
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
    spec = dict(results.spec or {})
    if inline and isinstance(spec.get("source"), dict):
        spec["source"] = {k: v for k, v in spec["source"].items() if k != "quote"}
    return yaml.safe_dump(spec, sort_keys=False, width=width, allow_unicode=True,
                          default_flow_style=False)


def method(verdicts: list[dict[str, Any]]) -> str:
    """One sentence on how the rows were judged: a reader checks the band and the level."""
    v = next((x for x in verdicts if x.get("alpha")), None)
    if v is None:
        return ""
    holm = " with Holm correction across rows" if any(x.get("holm") for x in verdicts) else ""
    return (f"Judged on ln(candidate/baseline): Welch t intervals at "
            f"{(1 - v['alpha']) * 100:.4g}% per look{holm}; noise band "
            f"+-{v.get('delta_pct', 1.0):.1f}%.")


def context(results: Results, calibration: dict[str, Any] | None = None) -> dict[str, Any]:
    verdicts = verdicts_of(results, calibration)
    spec = results.spec or {}
    src = spec.get("source") or {}
    return {
        "results": results,
        "spec": spec,
        "source": src,
        "summary": summarize(verdicts),
        "rows": [row_context(v, (spec.get("benchmark") or {}).get("original"))
                 for v in verdicts],
        "verdicts": verdicts,
        "machine": machine(results),
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
                             autoescape=jinja2.select_autoescape(["html.j2"]))
    env.filters["wrap"] = _wrap
    env.filters["shell"] = shell_wrap
    env.filters["pct"] = lambda x: "" if x is None else f"{x:+.1f}%"
    return env


def plots(results: Results, verdicts: list[dict[str, Any]]) -> list[dict[str, str]]:
    """Per row, base64 PNGs: each variant's samples in run order, and the claimed change
    against the measured interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = []
    for v in verdicts:
        if not v.get("effect"):
            continue
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 3.2))
        for i, var in enumerate((v["baseline_variant"], v["variant"])):
            ys = results.samples(var, v.get("sample") or v["metric"])
            ax1.plot(range(1, len(ys) + 1), ys, "o", label=f"{var} (n={len(ys)})",
                     color=f"C{i}")
        ax1.set_xlabel("run")
        ax1.set_ylabel(f"{v['metric']}" + (f" [{v['unit']}]" if v.get("unit") else ""))
        ax1.legend(fontsize=8)
        ax1.set_title("samples per variant", fontsize=9)
        e = v["effect"]
        lo, hi = e["ci_pct"]
        ax2.errorbar([e["measured_pct"]], [0], xerr=[[e["measured_pct"] - lo],
                     [hi - e["measured_pct"]]], fmt="o", capsize=6, label="measured (CI)")
        if v.get("claimed_pct") is not None:
            ax2.axvline(v["claimed_pct"], color="C3", ls="--", label="claimed")
        d = v.get("delta_pct") or 1.0
        ax2.axvspan(-d, d, color="0.85", label="noise band")
        ax2.axvline(0, color="0.4", lw=0.8)
        ax2.set_yticks([])
        ax2.set_xlabel("change, %")
        ax2.legend(fontsize=8)
        ax2.set_title(f"{v['verdict']}", fontsize=9)
        fig.tight_layout()
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=80)
        plt.close(fig)
        out.append({"title": v.get("label") or v["metric"],
                    "png": base64.b64encode(buf.getvalue()).decode("ascii")})
    return out


def render(results: Results, fmt: str = "email",
           calibration: dict[str, Any] | None = None) -> str:
    """The report in one format; the email is folded to 72 columns."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    ctx = context(results, calibration)
    if fmt == "html":
        ctx["plots"] = plots(results, ctx["verdicts"])
    text = _env().get_template(f"{fmt}.j2").render(**ctx)
    return fold(text) if fmt == "email" else text
