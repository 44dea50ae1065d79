"""Extracted claims -> executable specs: one spec per benchmark, context and set of variants.

Why this is separate from the checks: building says what the mail claims (the command, the
setup that differs between the blocks, the numbers); `claims.safety` says whether it may
run.  A spec is always written, even when it cannot run, and then says why (`needs`, notes,
actions with a reason), so a maintainer can read and fix it.
"""
from __future__ import annotations

import hashlib
import re
import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields

from claims import safety
from claims.model import Claim, Extraction, Line, Message, SetupStep, Value
from claims.model import Command as MailCommand
from claims.numbers import MAGNITUDES, better_for
from claims.shell import basename, invocation, split_words, without_redirections
from claims.spec import Action, Command, Kernel, Metric, RunPlan, Source, Spec, Variant
from claims.spec import schema as spec_schema
from claims.tools import tool_for_program
from claims.tools.base import ToolDescription, is_host, is_number

PATCH_LABELS = re.compile(
    r"\b(before|after|old|new|un-?patched|patched|with(out)?|base(line)?|orig(inal)?|"
    r"net-next|vanilla|mainline|upstream|patch(es|set)?|series|v\d+|rc\d+|change|fix(ed)?)\b",
    re.I)
QUOTE_LINES = 80


@dataclass
class _Bench:
    """The benchmark a claim belongs to, with the hosts the mail names for its roles."""

    command: Command
    tool: ToolDescription | None
    line: int | None = None
    client_host: str | None = None
    server_host: str | None = None
    notes: list[str] = field(default_factory=list)
    duration: float | None = None
    cpu_pin: list[Action] = field(default_factory=list)
    server: Command | None = None


@dataclass
class _Group:
    bench: _Bench
    context: str | None
    claims: list[tuple[Claim, int]] = field(default_factory=list)  # (claim, variant index)
    variants: list[tuple[str | None, tuple]] = field(default_factory=list)  # (label, state)
    metric_keys: set[tuple[str, str | None, int]] = field(default_factory=set)


# ---------------------------------------------------------------------------------------
# Entry points


def build_specs(extractions: Iterable[Extraction]) -> list[Spec]:
    """Specs for every claim of every message, ids unique across the whole list."""
    out: list[Spec] = []
    for ex in extractions:
        out.extend(specs_for(ex))
    seen: dict[str, int] = {}
    for s in out:
        n = seen.get(s.id, 0)
        seen[s.id] = n + 1
        if n:
            s.id = f"{s.id}-{n + 1}"
    return out


def specs_for(ex: Extraction) -> list[Spec]:
    """The specs of one message (none when it holds no claim)."""
    groups: list[_Group] = []
    benches: dict[object, _Bench] = {}
    for claim in ex.claims:
        idx = _pick_command(claim, ex.commands)
        # the same command written twice (once per variant) is one benchmark
        key: object = (tuple(_argv(ex.commands[idx])), ex.commands[idx].host) \
            if idx is not None else ("synth", claim.tool)
        if key not in benches:
            benches[key] = (_bench_from_mail(ex.commands[idx]) if idx is not None
                            else _bench_synthesised(claim, ex.message))
        bench = benches[key]
        ctx = None if idx is not None and _context_in_command(claim, ex.commands[idx]) \
            else claim.context
        base_state = _state_at(ex.setup, _value_line(claim.baseline, claim.lines[0]), bench)
        cand_state = _state_at(ex.setup, _value_line(claim.candidate, claim.lines[1]), bench)
        _add(groups, bench, ctx, claim, base_state, cand_state)
    return [_spec(ex, g, i) for i, g in enumerate(groups)]


def _add(groups: list[_Group], bench: _Bench, ctx: str | None, claim: Claim,
         base_state: tuple, cand_state: tuple) -> None:
    """Put a claim in the group with the same benchmark, context and baseline."""
    base_label = claim.baseline.label if claim.baseline else None
    for g in groups:
        if g.bench is not bench or g.context != ctx or g.variants[0] != (base_label, base_state):
            continue
        if _full(g, claim, cand_state):
            continue
        vi = _variant_index(g, claim, cand_state)
        if (claim.metric, claim.context, vi) in g.metric_keys:
            continue  # the same metric again: another configuration the mail names
        _attach(g, claim, vi)
        return
    g = _Group(bench, ctx, variants=[(base_label, base_state)])
    groups.append(g)
    _attach(g, claim, _variant_index(g, claim, cand_state))


def _schema_limit(name: str) -> int:
    return int(spec_schema()["properties"][name]["maxItems"])


def _full(g: _Group, claim: Claim, cand_state: tuple) -> bool:
    """Whether the claim would take the group's spec past the schema's limits (32 variants,
    256 metrics): a cover letter with more configurations than that (or hostile mail) gets
    a second spec with the same baseline instead of one that fails its own schema."""
    label = claim.candidate.label if claim.candidate else None
    new_variant = (label, cand_state) not in g.variants[1:]
    return (new_variant and len(g.variants) >= _schema_limit("variants")) or \
        len(g.claims) >= _schema_limit("metrics")


def _variant_index(g: _Group, claim: Claim, cand_state: tuple) -> int:
    label = claim.candidate.label if claim.candidate else None
    for i, v in enumerate(g.variants[1:], 1):
        if v == (label, cand_state):
            return i
    g.variants.append((label, cand_state))
    return len(g.variants) - 1


def _attach(g: _Group, claim: Claim, vi: int) -> None:
    g.metric_keys.add((claim.metric, claim.context, vi))
    g.claims.append((claim, vi))


# ---------------------------------------------------------------------------------------
# The benchmark command


def _pick_command(claim: Claim, cmds: Sequence[MailCommand]) -> int | None:
    """The command whose output the claim's numbers are: same tool, named test, or nearest."""
    cands = [i for i, c in enumerate(cmds) if c.tool or c.argv or c.raw]
    if not cands:
        return None
    if claim.tool:
        same = [i for i in cands if cmds[i].tool == claim.tool
                or any(w.split()[:1] == [claim.tool] for w in cmds[i].wrappers)]
        if same:
            cands = same
        elif tool_for_program(claim.tool) is not None and all(cmds[i].tool for i in cands):
            return None  # the numbers come from a tool the mail never shows a command for
    named = [i for i in cands if _context_in_command(claim, cmds[i], cmds=[cmds[j] for j in cands])]
    if len(named) == 1:
        return named[0]
    first = _value_line(claim.baseline, claim.lines[0])
    before = [i for i in cands if cmds[i].line <= first]
    return before[-1] if before else cands[0]


def _context_in_command(claim: Claim, cmd: MailCommand,
                        cmds: Sequence[MailCommand] | None = None) -> bool:
    """Does the claim's row/heading name a token of this command (TCP_RR in `-t TCP_RR`)?"""
    text = " ".join(x for x in (claim.context, claim.metric) if x)
    if not text:
        return False
    common = set.intersection(*(set(_argv(c)) for c in cmds)) if cmds and len(cmds) > 1 \
        else set()
    for tok in _argv(cmd)[1:]:
        if len(tok) >= 3 and tok not in common and re.match(r"^[A-Za-z][\w.-]+$", tok) \
                and re.search(rf"(?<![\w-]){re.escape(tok)}(?![\w-])", text, re.I):
            return True
    return False


_ODD_SPACE = re.compile(r"[\u00a0\u2000-\u200b\u202f\u205f\u3000]+")


def _argv(cmd: MailCommand) -> list[str]:
    """The command's argv; non-breaking spaces from web pages separate arguments too."""
    if cmd.argv:
        argv = list(cmd.argv)
    else:
        try:
            argv = shlex.split(cmd.raw)
        except ValueError:
            argv = cmd.raw.split()
    return [p for tok in argv for p in _ODD_SPACE.split(tok) if p]


def _bench_from_mail(mc: MailCommand) -> _Bench:
    argv = _argv(mc)
    notes: list[str] = []
    pins: list[Action] = []
    for wargv in _wrapper_segments(mc, argv):
        if wargv[:2] == ["perf", "stat"]:
            argv = wargv + argv
        elif wargv[:1] in (["taskset"], ["numactl"]):
            pins.append(_pin_action(wargv))
        else:
            notes.append(f"wrapper {' '.join(wargv)!r} dropped")
    if argv and "/" in argv[0]:
        argv[0] = argv[0].rsplit("/", 1)[-1]  # ./netperf: the runner's own program
    tool = tool_for_program(argv[0]) if argv else None
    name = tool.name if tool else (mc.tool or (argv[0] if argv else "unknown"))
    cmd = Command(tool=name, argv=argv, original=mc.raw, role="client", peer_role=None)
    bench = _Bench(cmd, tool, line=mc.line, client_host=mc.host, notes=notes, cpu_pin=pins)
    if tool is not None:
        _bind(bench)
    return bench


def _wrapper_segments(mc: MailCommand, argv: list[str]) -> list[list[str]]:
    """The wrappers in front of the benchmark with their own arguments, read from the raw
    text the way claims.shell reads it (`perf stat -r 10 trafgen ...` ->
    [["perf", "stat", "-r", "10"]])."""
    if not mc.wrappers:
        return []
    inv = invocation(without_redirections(split_words(mc.raw)))
    if inv.argv[inv.at:] != argv or not inv.wrappers:
        return [w.split() for w in mc.wrappers]
    return [[basename(words[0]), *words[1:]] for _, words in inv.wrappers]


def _bench_synthesised(claim: Claim, msg: Message) -> _Bench:
    """A command for numbers printed without one: from the output's own header or defaults."""
    tool = tool_for_program(claim.tool) if claim.tool else None
    if tool is None or not (tool.programs or tool.default_argv):  # read-only tools (testpmd, ping) never run
        cmd = Command(tool=claim.tool or "unknown", argv=[], role="client", peer_role=None)
        return _Bench(cmd, None, notes=["the mail gives no benchmark command for these numbers; "
                                        "fill in benchmark.argv"])
    argv = _command_from_output(tool, claim, msg)
    note = "command read from the tool output's header" if argv else \
        f"the mail shows {tool.name} output but no command; a default {tool.name} run is assumed"
    if not argv:
        argv = list(tool.default_argv or tool.programs[:1])
    inner = tool_for_program(argv[0])
    bench = _Bench(Command(tool=inner.name if inner else tool.name, argv=argv, role="client",
                           peer_role=None), inner or tool, notes=[note])
    _bind(bench)
    return bench


def _command_from_output(tool: ToolDescription, claim: Claim, msg: Message) -> list[str]:
    """perf stat prints the command it measured; use it when the mail shows no command."""
    texts = [ln.text for ln in msg.lines]
    numbers = [ln.number for ln in msg.lines]
    at = _value_line(claim.baseline, claim.lines[0])
    try:
        blocks = tool.find_outputs(texts)
    except Exception:
        return []
    best = None
    for b in blocks:
        if b.command and numbers and numbers[min(b.start, len(numbers) - 1)] <= at:
            best = b
    if best is None:
        best = next((b for b in blocks if b.command), None)
    if best is None or not best.command:
        return []
    try:
        inner = shlex.split(best.command)
    except ValueError:
        return []
    if tool.name == "perf":
        runs = next((s.runs for s in best.samples if s.runs), None)
        return ["perf", "stat"] + (["-r", str(runs)] if runs else []) + inner
    return inner


def _bind(bench: _Bench) -> None:
    """Replace the mail's peer host and shell variables with roles; note the duration."""
    tool, cmd = bench.tool, bench.command
    assert tool is not None
    argv = cmd.argv
    # `perf stat ... netperf -H x`: the wrapped command's options are its own tool's
    at = invocation(argv).at if tool.wraps else len(argv)
    inner = tool_for_program(argv[at]) if at < len(argv) else None
    for i in range(1, len(argv)):
        tok = argv[i]
        const = safety.constant_arith(tok)
        if const is not None:  # `-m $((64*1024))`: shell arithmetic on numbers alone
            argv[i] = const
            bench.notes.append(f"{tok} from the mail evaluated to {const}")
            continue
        own = inner if inner is not None and i > at else tool
        opt = own.options.lookup(argv[i - 1])
        if opt is None or opt.value is None:
            continue
        if opt.role == "host":
            cmd.peer_role = "server"
            if re.fullmatch(r"\$\{?[A-Za-z_]\w*\}?|<[\w .:-]{1,30}>", tok):  # $peer, <IP>
                cmd.bindings[tok] = "server"
            elif is_host(tok):
                # a name from the mail: the runner puts its own address in
                bench.server_host = tok if tok != "server" else None
            else:
                continue  # not a host: left as written, for the checks to refuse
            argv[i] = "server"
        elif opt.role == "duration" and is_number(tok) and float(tok) > 0:
            bench.duration = float(tok)
            cap = RunPlan().duration_cap
            if float(tok) > cap:  # capped in the argv too, so the tool's own limit passes
                argv[i] = f"{cap:g}"
        elif opt.role == "port" and own.default_port is not None \
                and re.fullmatch(r"\$\(\([\w$+\- ]+\)\)|\$\{?\w+\}?", tok):
            argv[i] = str(own.default_port)
            cmd.bindings[tok] = "port"
    if tool.peer or (inner is not None and inner.peer):
        cmd.peer_role = "server"  # a client of a server: there is always a peer
    try:
        parsed = tool.parse_args(argv)
    except Exception:  # refused: the spec keeps it and safety says why
        return
    dev, conf = parsed.get("device"), parsed.get("config")  # perf stat: the wrapped command's
    if dev:
        bench.notes.append(f"device {dev} named in the mail: the runner uses its own")
    if conf:
        bench.notes.append(f"config file {conf!r} is not in the mail as a file: a person "
                           "must supply it next to the spec")
    if bench.duration is None:
        d = tool.duration(parsed)
        bench.duration = d if d is not None and d > 0 else None
    srv = tool.server_argv(parsed)
    if srv:
        stool = tool_for_program(srv[0])
        cmd.peer_role = "server"
        bench.server = Command(tool=(stool or tool).name, argv=list(srv), role="server",
                               peer_role=None)


def _pin_action(wargv: list[str]) -> Action:
    cpus = None
    for flag in ("-c", "--cpu-list", "-C", "--physcpubind"):
        if flag in wargv and wargv.index(flag) + 1 < len(wargv):
            cpus = wargv[wargv.index(flag) + 1]
    raw = " ".join(wargv)
    if cpus is not None:
        return Action(kind="cpu-pin", value=cpus, roles=["client"], raw=raw)
    return Action(kind=wargv[0], args=wargv, roles=["client"], raw=raw)


# ---------------------------------------------------------------------------------------
# Setup steps -> typed actions, and the state the mail's hosts were in at a given line


def action_from_step(step: SetupStep) -> Action:
    """A typed Action for one setup step; unknown shapes become kind "other"."""
    try:
        argv = shlex.split(step.raw)
    except ValueError:
        argv = step.raw.split()
    kind = step.kind
    if kind == "sysfs" or kind == "procfs":
        path, value = step.key, step.value
        if path is None or value is None:
            path, value = _echo_target(argv)
        if path and path.startswith("/proc/sys/") and kind == "sysfs":
            kind = "procfs"
        dev = step.device
        m = re.match(r"^/sys/class/net/([^/]+)/", path or "")
        if dev is None and m:
            dev = m.group(1)
        return Action(kind=kind, key=path, value=value, device=dev, raw=step.raw)
    if kind == "sysctl":
        key, value = step.key, step.value
        if key is None or value is None:
            kv = next((a for a in argv[1:] if "=" in a), "")
            key, _, value = kv.partition("=")
        key = key.strip().replace("/", ".")
        m = re.match(r"^net\.ipv[46]\.(?:conf|neigh)\.([^.]+)\.", key)
        dev = m.group(1) if m and m.group(1) not in ("all", "default") else step.device
        return Action(kind="sysctl", key=key, value=(value or "").strip(), device=dev,
                      raw=step.raw)
    if kind == "ethtool":
        return _ethtool_action(step, argv)
    if kind == "tc":
        args = list(step.args) or argv
        if args[:1] == ["tc"]:
            args = args[1:]
        dev = args[args.index("dev") + 1] if "dev" in args[:-1] else step.device
        return Action(kind="tc", device=dev, args=args, raw=step.raw)
    if kind in ("taskset", "numactl"):
        return _pin_action(argv)
    known = kind if kind in ("ip",) else "other"
    # The whole argv, program included: an approved step runs exactly this.
    return Action(kind=known, key=step.key, value=step.value, device=step.device,
                  args=argv, raw=step.raw)


def _echo_target(argv: list[str]) -> tuple[str | None, str | None]:
    """`echo 2000 > /sys/...` or `echo 2000 | tee /sys/...` -> (path, value)."""
    words = " ".join(argv)
    m = re.match(r"^echo\s+(?:-n\s+)?(.*?)\s*(?:>|\|\s*(?:sudo\s+)?tee(?:\s+-a)?)\s*(\S+)$", words)
    return (m.group(2), m.group(1).strip("'\"")) if m else (None, None)


def _ethtool_action(step: SetupStep, argv: list[str]) -> Action:
    args = list(step.args) or argv
    if args[:1] == ["ethtool"]:
        args = args[1:]
    sub = step.key if step.key in safety.ETHTOOL_SUBS or step.key in safety.ETHTOOL_DANGEROUS \
        else (args[0] if args else None)
    rest = args[1:] if args and args[0] == sub else args
    dev = step.device or (rest[0] if rest else None)
    pairs = rest[1:] if rest and rest[0] == dev else rest
    settings = {pairs[i]: pairs[i + 1] for i in range(0, len(pairs) - 1, 2)}
    # key is the sub-command's name (features, coalesce, ...) as runners expect it
    return Action(kind="ethtool", key=safety.ETHTOOL_SUBS.get(sub or "", sub), device=dev,
                  settings=settings, args=args, raw=step.raw)


def _roles_of(host: str | None, bench: _Bench) -> tuple[str, ...]:
    both = ("client", "server") if bench.command.peer_role else ("client",)
    if host is None:
        return both
    if host == bench.client_host:
        return ("client",)
    if host == bench.server_host:
        return ("server",)
    return both


def _state_at(steps: Sequence[SetupStep], line: int, bench: _Bench) -> tuple:
    """The setup in force when the output at `line` was printed, as a hashable tuple.

    Later steps override earlier ones on the same knob and role; steps on two hosts with
    the same value collapse into one action applied on both roles.
    """
    state: dict[tuple, tuple[Action, str]] = {}
    for step in sorted((s for s in steps if s.line < line), key=lambda s: s.line):
        a = action_from_step(step)
        for role in _roles_of(step.host, bench):
            knob = (a.kind, a.key, a.device, tuple(sorted(a.settings)),
                    tuple(a.args) if a.kind in ("other", "ip", "tc") else ())
            state[knob + (role,)] = (a, role)
    merged: dict[tuple, list[str]] = {}
    acts: dict[tuple, Action] = {}
    for a, role in state.values():
        ident = (a.kind, a.key, a.value, a.device, tuple(sorted(a.settings.items())),
                 tuple(a.args))
        merged.setdefault(ident, []).append(role)
        acts.setdefault(ident, a)
    return tuple((ident, tuple(sorted(roles)), acts[ident]) for ident, roles in merged.items())


def _actions(state: tuple) -> list[Action]:
    out = []
    for _ident, roles, a in state:
        b = Action(**{f.name: getattr(a, f.name) for f in fields(Action)})
        b.roles = list(roles)
        b.settings = dict(a.settings)
        b.args = list(a.args)
        p = safety.check_action(b)
        b.reason = p.reason if p else None
        out.append(b)
    return out


def _value_line(v: Value | None, default: int) -> int:
    return v.line if v is not None and v.line is not None else default


# ---------------------------------------------------------------------------------------
# Assembling one spec


def _spec(ex: Extraction, g: _Group, index: int) -> Spec:
    msg = ex.message
    bench = g.bench
    states = [s for _, s in g.variants]
    by_setup = any(_knobs(s) != _knobs(states[0]) for s in states[1:])
    variants: list[Variant] = []
    notes = list(bench.notes)
    needs: list[str] = []
    for i, (label, state) in enumerate(g.variants):
        name = "baseline" if i == 0 else ("candidate" if i == 1 else f"candidate-{i}")
        v = Variant(name=name, label=label, setup=bench.cpu_pin + _actions(state))
        if not by_setup:
            v.kernel = _kernel(msg, i)
        variants.append(v)
    if len(variants) == 1:  # a change stated on its own: baseline is "without the patch"
        variants.append(Variant(name="candidate", label=None, kernel=_kernel(msg, 1)))
        variants[0].kernel = _kernel(msg, 0)
        by_setup = False
    if not by_setup:
        needs.append("kernel")
        if not msg.message_id:
            notes.append(f"no Message-ID: name the series for the candidate kernel by hand "
                         f"(subject: {msg.subject or 'unknown'})")
        labels = " vs ".join(repr(v.label) for v in variants if v.label)
        if labels and all(PATCH_LABELS.search(v.label or "") for v in variants if v.label):
            notes.append(f"the variants differ by the patch itself ({labels}): "
                         "needs a kernel runner")
        else:
            notes.append(f"no setup step differs between the variants ({labels or 'unlabelled'}); "
                         "assumed they differ by kernel: needs a kernel runner")
    metrics = [_metric(c, variants[vi].name, bench) for c, vi in g.claims]
    spec = Spec(
        id=_spec_id(msg, bench, index),
        source=_source(msg, g),
        roles=["client", "server"] if bench.command.peer_role else ["client"],
        benchmark=bench.command,
        server=bench.server,
        variants=variants,
        metrics=metrics,
        run=_run_plan(msg, bench, notes),
        claimed_environment=claimed_environment(msg),
        needs=needs,
        notes=notes,
    )
    if g.context:
        spec.notes.insert(0, f"context in the mail: {g.context}")
    hosts = {h: r for h, r in ((bench.client_host, "client"), (bench.server_host, "server")) if h}
    if hosts:
        spec.claimed_environment["hosts"] = hosts
    # `needs` is for runner capabilities only; why it cannot run goes in the notes.
    for p in safety.check_spec(spec):
        spec.notes.append(("cannot run: " if p.level == "refused" else "") + str(p))
    return spec


def _knobs(state: tuple) -> set:
    return {(ident, roles) for ident, roles, _ in state}


def _kernel(msg: Message, i: int) -> Kernel:
    subj = msg.subject or ""
    m = re.search(r"\[[^\]]*\b(net-next|net|bpf-next|bpf|mm-unstable|tip)\b[^\]]*\]", subj)
    base = m.group(1) if m else None
    return Kernel(base=base, series=msg.message_id if i > 0 else None)


def _metric(c: Claim, variant: str, bench: _Bench) -> Metric:
    b, k = c.baseline, c.candidate
    spreads = [s for v in (b, k) if v is not None and (s := _spread_pct(v)) is not None]
    runs = [v.runs for v in (b, k) if v is not None and v.runs]
    change = c.claimed_change_pct if c.claimed_change_pct is not None else c.change_pct
    unit = c.unit or (b.unit if b else None)
    if b is not None and k is not None and b.unit and k.unit and b.unit != k.unit and b.unit not in MAGNITUDES:
        unit = b.unit  # "from 1.2ms to 950us": both numbers go in the baseline's unit
    # a claim the extractor could not name (numbers in a garbled line) still needs a name
    # the spec schema accepts, or the spec does not read back (bench/fuzz.py seed 2018316)
    sample = _sample(c, unit, bench)
    # "12% faster" of a run: the sample the tool measures for it says which way is better
    better = c.better or (better_for(sample, None) if c.merit and sample else None)
    return Metric(name=c.metric if c.metric.strip() else unit or "value", unit=unit, better=better,
                  baseline=b.value if b else None, candidate=c.candidate_in_baseline_unit(),
                  claimed_change_pct=change, spread_pct=max(spreads) if spreads else None,
                  runs=min(runs) if runs else None, label=c.context, variant=variant,
                  sample=sample, no_change=c.no_change, merit=c.merit)


def _sample(c: Claim, unit: str | None, bench: _Bench) -> str | None:
    """What the benchmark's tool measures for this claim, when not the claim's own name.
    A claim whose numbers are another tool's output (iperf3 pasted under a netperf
    command) is left alone: this command does not measure it."""
    tool = bench.tool
    if tool is None or (c.tool and tool_for_program(c.tool) not in (None, tool)):
        return None
    got = tool.sample_for(c.metric, unit, bench.command.argv)
    return got if got != c.metric else None


def _spread_pct(v: Value) -> float | None:
    if v.spread is None:
        return None
    if v.spread_kind == "abs":
        return abs(v.spread / v.value * 100.0) if v.value else None
    return abs(v.spread)


def _run_plan(msg: Message, bench: _Bench, notes: list[str]) -> RunPlan:
    plan = RunPlan(seed=int(hashlib.sha1(_ident(msg).encode()).hexdigest()[:8], 16))
    d = bench.duration
    if d is not None:
        if d > plan.duration_cap:
            notes.append(f"duration {d:g} s from the mail capped to {plan.duration_cap:g} s")
            d = plan.duration_cap
        plan.duration = d
        plan.timeout = max(plan.timeout, 2 * d + 60)
    return plan


def _ident(msg: Message) -> str:
    return msg.message_id or msg.source or msg.subject or msg.body[:500]


def _spec_id(msg: Message, bench: _Bench, index: int) -> str:
    h = hashlib.sha1(_ident(msg).encode()).hexdigest()[:8]
    name = re.sub(r"[^a-z0-9]+", "-", bench.command.tool.lower()).strip("-") or "spec"
    return f"{name}-{h}-{index + 1}"


def _source(msg: Message, g: _Group) -> Source:
    claims = [c for c, _ in g.claims]
    nums = [n for c in claims for n in c.lines if n]
    nums += [v.line for c in claims for v in (c.baseline, c.candidate) if v and v.line]
    if g.bench.line:
        nums.append(g.bench.line)
    for _, state in g.variants:
        nums += [a.raw and _line_of(msg.lines, a.raw) or 0 for _, _, a in state]
    nums = [n for n in nums if n]
    lo, hi = (min(nums), max(nums)) if nums else (0, 0)
    quote = [("> " * ln.depth + ln.text).rstrip() for ln in msg.lines if lo <= ln.number <= hi]
    if len(quote) > QUOTE_LINES:
        quote = quote[:QUOTE_LINES] + [f"[... {len(quote) - QUOTE_LINES} more lines]"]
    url = msg.source if msg.source and msg.source.startswith(("http://", "https://")) else None
    if url is None and msg.message_id:
        url = f"https://lore.kernel.org/r/{msg.message_id.strip('<>')}"
    return Source(message_id=msg.message_id, author=msg.from_, subject=msg.subject,
                  date=msg.date, lines=[lo, hi], quote="\n".join(quote) + ("\n" if quote else ""),
                  url=url)


def _line_of(lines: Sequence[Line], raw: str) -> int:
    for ln in lines:
        if raw and raw in ln.text:
            return ln.number
    return 0


_ENV_PATTERNS = {
    "cpu": r"\b(?:Intel|AMD|Xeon|EPYC|Core\s?i\d|Opteron|Ampere|Graviton|Cortex-A\d+|"
           r"POWER\d+|Skylake|Cascade ?Lake|Ice ?Lake|Sapphire ?Rapids|Milan|Rome|Genoa)"
           r"[\w/.@ -]{0,40}",
    "cpus": r"\b\d+\s?(?:v?cpus?|cores?|threads)\b(?![-:])",
    "nic": r"\b(?:mlx[45]\w*|ConnectX-?\d\w*|Mellanox|ixgbe|i40e|E810|bnxt\w*|tg3|e1000e?|"
           r"igb|igc|virtio[-_]net|nfp|cxgb\d|qede|be2net|hns3|stmmac|veth|"
           r"\d+\s?[GM](?:bit|b|bE|igE)\b(?:\s?(?:NIC|Ethernet|link))?)",
    "vm": r"\bVMs?\d*(?:\s?\(\s?\d+\s?v?cpus?\s?\))?",
}


def claimed_environment(msg: Message) -> dict[str, list[str]]:
    """What the mail says the claim ran on (CPU, NIC, VMs), as printed, for the report."""
    body = msg.body
    env: dict[str, list[str]] = {}
    for key, pat in _ENV_PATTERNS.items():
        found: list[str] = []
        for m in re.finditer(pat, body, re.I if key in ("cpus", "vm") else 0):
            s = " ".join(m.group(0).split()).strip(" -/.")
            if s and s not in found:
                found.append(s)
        if found:
            env[key] = found[:8]
    return env


# ---------------------------------------------------------------------------------------
# The JSON of `verifier extract --format json` back into an Extraction


def extraction_from_dict(d: dict) -> Extraction:
    """An Extraction from `Extraction.to_dict()` output (message lines are not in it)."""
    msg = Message(message_id=d.get("message_id"), subject=d.get("subject"), from_=d.get("from"),
                  date=d.get("date"), in_reply_to=d.get("in_reply_to"), source=d.get("source"),
                  warnings=list(d.get("warnings") or []))
    for ln in d.get("lines") or []:
        msg.lines.append(_pick(Line, ln))
    cmds = [_pick(MailCommand, c) for c in d.get("commands") or []]
    steps = [_pick(SetupStep, s) for s in d.get("setup") or []]
    claims = []
    for c in d.get("claims") or []:
        cl = _pick(Claim, c)
        cl.baseline = _pick(Value, c["baseline"]) if c.get("baseline") else None
        cl.candidate = _pick(Value, c["candidate"]) if c.get("candidate") else None
        cl.lines = tuple(c.get("lines") or (0, 0))  # type: ignore[assignment]
        claims.append(cl)
    return Extraction(message=msg, commands=cmds, setup=steps, claims=claims)


def _pick(cls: type, d: dict):
    names = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in d.items() if k in names})
