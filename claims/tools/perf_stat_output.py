"""perf stat's output, read into samples: the human text, `-x` CSV and `-j` JSON lines.

One line of output is one counter (or the elapsed/user/sys time); a block is the lines
under one `Performance counter stats for ...` header, or, without the header, a run of
counter lines that reads like perf stat (see `_close`). Event names stay as printed;
derived `#` comments become their own samples (`_derived`). The command grammar is
perf_stat.PerfStat's.
"""
from __future__ import annotations

import json
import re
from collections.abc import Sequence

from claims.tools.base import Better, OutputBlock, Sample
from claims.tools.text import NUM, clean_all, mentions, num, sample, slug

_HEADER = re.compile(r"Performance counter stats for\s+(?:'(.*?)'|(process id\s+'[^']*'|"
                     r"thread id\s+'[^']*'|system wide|CPU\(s\)[^:]*))"
                     r"(?:\s*\((\d+)\s+runs\))?\s*:?")
_HEADER_OPEN = re.compile(r"Performance counter stats for\s+'([^']*)$")
_EVENT = re.compile(
    rf"^\s*({NUM}|<not supported>|<not counted>)\s+"
    r"(?:(msec|usec|nsec|ns|Joules|joules|MiB|W|%)\s+)?"
    r"([A-Za-z_][\w\-:/.,=@{}\[\]]*)"
    rf"(?:\s+#\s+({NUM})\s*(%?)\s*(.*?))?"
    rf"\s*(?:\(\s*\+-\s*({NUM})%\s*\))?\s*(?:\(\s*({NUM})%\s*\))?\s*$")
_TIME = re.compile(
    rf"^\s*({NUM})\s*(?:\+-\s*({NUM})\s*)?seconds\s+(time elapsed|user|sys)"
    rf"\s*(?:\(\s*\+-\s*({NUM})%\s*\))?\s*$")
_PREFIX = re.compile(r"^\s*(?:(\d+\.\d{6,})|(CPU\d+))\s+(?=\S)")  # -I time, -A CPU
_CSV = re.compile(rf"^({NUM}|<not supported>|<not counted>)([,;])([^,;]*)\2([^,;]+)\2(.*)$")


_MARKERS = re.compile(r"counter stats|seconds\s+(?:time elapsed|user|sys)|\+-\s*\d[\d.]*\s*%"
                      r"|,,|,msec,|#\s+time\s+counts|\"counter-value\"")
_RATE_UNITS = {"GHz", "MHz", "K/sec", "M/sec", "G/sec", "/sec"}


def _derived(event: str, value: float, pct: str, desc: str, line: int) -> Sample | None:
    """The `#` comment of a counter line. One that divides by the run's time (a counter
    per second, the clock rate, "CPUs utilized": task-clock over elapsed time) restates
    two numbers the block already reports, so it is bookkeeping, not a result; a ratio of
    two counters (insn per cycle, "% of all branches") is one a maintainer reads."""
    desc = desc.strip()
    if not desc and not pct:
        return None
    low = desc.lower()
    if pct or desc.startswith("%"):
        better: Better = None if "utilized" in low else "lower"
        return sample(f"{event}_pct", value, "%", better, line, label=desc.lstrip("% ").strip(),
                      config="utilized" in low)
    if low.startswith("insn") and "per cycle" in low:
        return sample("insns_per_cycle", value, "IPC", "higher", line)
    if desc in _RATE_UNITS:
        return sample(f"{event}/sec", value, desc, None, line, config=True)
    worse: Better = "lower" if "stalled" in low or "per insn" in low else None
    return sample(slug(desc), value, None, worse, line, config="utilized" in low)


_ROW_END = re.compile(r"(runs\)\s*:|counter stats for\s+'[^']*'\s*:|\(\s*\+-\s*[\d.]+%\s*\))\s+")


def _expand(text: list[str]) -> list[tuple[int, str]]:
    """(line index, text) pairs; a line holding a whole `-r` block (an archive page that
    lost its line breaks) is cut after the header and after each `( +- x% )`."""
    out: list[tuple[int, str]] = []
    for i, t in enumerate(text):
        if len(t) > 160 and t.count("+-") >= 2 and "counter stats" in t:
            out.extend((i, part) for part in _ROW_END.sub(r"\1\n", t).split("\n"))
        else:
            out.append((i, t))
    return out


def find_outputs(lines: Sequence[str], tool: str = "perf") -> list[OutputBlock]:
    """Every perf stat block in `lines` (text, -x CSV or -j JSON), headed or not."""
    if not mentions(lines, ("counter stats", "seconds", "+-", ",,", ",msec,", "counts",
                            '"counter-value"'),
                    _MARKERS):
        return []
    entries = _expand(clean_all(lines))
    blocks: list[OutputBlock] = []
    cur: OutputBlock | None = None
    blanks = 0
    p = 0
    while p < len(entries):
        i, t = entries[p]
        hdr = _HEADER.search(t)
        skip = 0
        if hdr is None and _HEADER_OPEN.search(t) and p + 1 < len(entries):
            joined = t + " " + entries[p + 1][1].strip()  # header wrapped by the mail
            hdr = _HEADER.search(joined)
            skip = 1 if hdr else 0
        if hdr:
            if cur is not None and cur.samples:
                blocks.append(cur)
            runs = int(hdr.group(3)) if hdr.group(3) else None
            cur = OutputBlock(tool=tool, start=i, end=entries[p + skip][0],
                              command=hdr.group(1) or None,
                              info={"target": hdr.group(1) or hdr.group(2) or ""})
            if runs:
                cur.info["runs"] = str(runs)
            blanks = 0
            p += 1 + skip
            continue
        got = _line_samples(t, i)
        if got is not None and _wrapped(entries, p):
            got = _line_samples(t.rstrip() + " " + entries[p + 1][1].strip(), i)
            p += 1
        if got is not None:
            if cur is None:
                cur = OutputBlock(tool=tool, start=i, end=i)
            runs = int(cur.info["runs"]) if "runs" in cur.info else None
            for s in got:
                s.runs = runs
            cur.samples.extend(got)
            cur.end = entries[p][0]
            blanks = 0
        elif not t.strip():
            blanks += 1
            if cur is not None and blanks > 3:
                _close(cur, blocks)
                cur = None
        elif cur is not None:
            _close(cur, blocks)
            cur = None
        p += 1
    if cur is not None:
        _close(cur, blocks)
    return blocks


def _wrapped(entries: list[tuple[int, str]], p: int) -> bool:
    """A counter line the mail client cut inside its `#` comment ("#  1.004 CPUs" then
    "utilized  ( +- 0.05% )"): the next line is no perf line alone, and the two joined are
    one; the comment then says what its number is (a rate, "CPUs utilized")."""
    if p + 1 >= len(entries) or "#" not in entries[p][1]:
        return False
    nxt = entries[p + 1][1].strip()
    if not nxt or nxt[0].isdigit() or _line_samples(nxt, 0) is not None:
        return False
    return _line_samples(entries[p][1].rstrip() + " " + nxt, 0) is not None


def _close(cur: OutputBlock, blocks: list[OutputBlock]) -> None:
    """Keep a block that reads like perf stat; the caller starts afresh.

    Without the `Performance counter stats` header, a line such as `42 cycles` in prose
    is not enough: ask for the elapsed time, a `+-` spread, or three counter lines."""
    if not cur.samples:
        return
    headed = "target" in cur.info
    lines = {s.line for s in cur.samples}
    if headed or len(lines) >= 3 or any(
            s.metric == "time_elapsed" or s.spread_pct is not None for s in cur.samples):
        blocks.append(cur)


def _line_samples(t: str, i: int) -> list[Sample] | None:
    """Samples of one perf stat line; [] for a counter perf could not read; None if the
    line is not perf stat output. `-I` lines carry their time and `-A` lines their CPU
    as the sample's label (one sample per interval or CPU, same metric)."""
    got = _plain_samples(t, i)
    if got is None and (p := _PREFIX.match(t)):
        got = _plain_samples(t[p.end():], i)
        for s in got or []:
            s.label = f"t={p.group(1)}" if p.group(1) else p.group(2)
    return got


def _plain_samples(t: str, i: int) -> list[Sample] | None:
    """One line in whichever format it is: JSON, a time line, a text counter, CSV."""
    if t.startswith('{"counter-value"'):
        return _json_samples(t, i)
    for read in (_time_samples, _text_samples, _csv_samples):
        got = read(t, i)
        if got is not None:
            return got
    return None


def _time_samples(t: str, i: int) -> list[Sample] | None:
    """`1.0023 +- 0.0012 seconds time elapsed ( +- 0.12% )`, and the user/sys lines."""
    m = _TIME.match(t)
    if not m:
        return None
    metric = "time_" + m.group(3).split()[-1] if m.group(3) != "time elapsed" \
        else "time_elapsed"
    return [sample(metric, num(m.group(1)), "s", "lower", i,
                   spread_pct=num(m.group(4)) if m.group(4) else None)]


def _text_samples(t: str, i: int) -> list[Sample] | None:
    """A human-readable counter line: value, unit, event, `# derived`, spread, share."""
    m = _EVENT.match(t)
    if not m or re.fullmatch(r"seconds|runs?|sec", m.group(3)):
        return None
    if m.group(1).startswith("<"):
        return []
    event = m.group(3)
    spread = num(m.group(7)) if m.group(7) else None
    out = [sample(event, num(m.group(1)), m.group(2) or "count", "lower", i,
                  spread_pct=spread)]
    if m.group(4):
        d = _derived(event, num(m.group(4)), m.group(5), m.group(6) or "", i)
        if d is not None:
            out.append(d)
    if m.group(8):  # "(71.20%)": the share of the run the counter was scheduled
        out.append(sample(f"{event}_scheduled_pct", num(m.group(8)), "%", None, i, config=True))
    return out


def _csv_samples(t: str, i: int) -> list[Sample] | None:
    """`perf stat -x,`: value, unit, event, [spread%,] run time, share, metric, unit."""
    m = _CSV.match(t)
    if not m:
        return None
    if m.group(1).startswith("<"):
        return []
    event = m.group(4)
    rest = m.group(5).split(m.group(2))
    spread = None
    if rest and rest[0].endswith("%"):
        spread = num(rest[0][:-1]) if rest[0][:-1] else None
        rest = rest[1:]
    out = [sample(event, num(m.group(1)), m.group(3) or "count", "lower", i,
                  spread_pct=spread)]
    if len(rest) >= 4 and rest[2] and rest[3]:
        d = _derived(event, num(rest[2]), "", rest[3], i)
        if d is not None:
            out.append(d)
    return out


def _json_samples(t: str, i: int) -> list[Sample] | None:
    """`perf stat -j`: one JSON object per counter."""
    try:
        d = json.loads(t)
    except ValueError:
        return None
    if not isinstance(d, dict) or "event" not in d or "counter-value" not in d:
        return None
    try:
        value = float(d["counter-value"])
    except (TypeError, ValueError):
        return []  # <not supported>
    event = str(d["event"])
    spread = d.get("variance")
    out = [sample(event, value, d.get("unit") or "count", "lower", i,
                  spread_pct=float(spread) if isinstance(spread, (int, float)) else None)]
    mv, mu = d.get("metric-value"), d.get("metric-unit")
    if isinstance(mv, (int, float)) and mu:
        derived = _derived(event, float(mv), "", str(mu), i)
        if derived is not None:
            out.append(derived)
    return out
