"""Run a Spec on a Runner: validated argv, servers, interleaved variants, every run recorded.

The benchmark argv goes through its tool description twice — once as the mail wrote it,
once after the runner's host, duration and port are put in — and nothing else ever runs.
Variants are interleaved in ABBA blocks shuffled from the spec's seed so drift (thermal,
caches, neighbours) hits every variant alike; a warm-up run per variant is kept but marked
and never counted.  Each run's stdout is parsed by the same tool description that read the
mail, so claim and measurement share metric names.  A failed run is recorded with its
reason, never dropped.  `run_batch` is the entry point for callers that want more runs of
some variants (the statistics' sequential loop).
"""
from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from claims.spec import Spec, Variant
from claims.tools import tool_for_program
from claims.tools.base import Refused, Sample, ToolDescription
from runners import effect
from runners.actions import ActionError
from runners.base import Runner, RunnerError
from runners.effect import Inert
from runners.results import Results, RunRecord, RunStatus

Progress = Callable[[dict[str, Any]], None]
# Sample names a tool may use for the time it measured itself.
_TOOL_TIME = ("elapsed_time", "sender_time", "elapsed_s", "elapsed", "duration_s", "duration", "time_s", "seconds")


class NotRunnable(RuntimeError):
    """The spec cannot run on this runner (refused command, missing capability)."""


@dataclass
class Prepared:
    """A spec's commands after validation and rewriting for one runner."""

    tool: ToolDescription
    argv: list[str]  # the client command as it will run
    role: str
    server_argv: list[str] | None
    server_role: str | None
    port: int | None
    duration: float | None
    timeout: float


def _check_safety(spec: Spec, approve: bool) -> None:
    """claims.safety's verdict; the spec file's own `approved` flags are never trusted."""
    from claims.safety import blocking, check_spec

    problems = blocking(check_spec(spec, approve=approve), approve)
    if problems:
        raise NotRunnable("refused: " + "; ".join(str(p) for p in problems))
    for v in spec.variants:
        for a in v.setup:
            a.approved = approve


def prepare(spec: Spec, runner: Runner, duration: float | None = None,
            approve: bool = False) -> Prepared:
    """Validate and rewrite the spec's benchmark for `runner`; raise NotRunnable with why.

    The result is cached on the runner per spec id: later batches reuse the same argv,
    port and server (the first preparation's duration wins)."""
    cached = runner.cache.get(("prepared", spec.id))
    if cached is not None:
        return cached
    missing = [n for n in spec.needs if n not in runner.offers]
    kernels = [v.name for v in spec.variants if v.kernel is not None]
    if "kernel" in missing or (kernels and "kernel" not in runner.offers):
        raise NotRunnable("needs a kernel runner")
    if missing:
        raise NotRunnable(f"needs {', '.join(missing)}, which the {runner.kind} runner lacks")
    _check_safety(spec, approve)
    bench = spec.benchmark
    if not bench.argv:
        raise NotRunnable("refused: the benchmark has no command")
    tool = tool_for_program(bench.argv[0])
    if tool is None:
        raise NotRunnable(f"refused: no tool description for {bench.argv[0]!r}")
    if bench.role not in runner.roles:
        raise NotRunnable(f"benchmark role {bench.role!r} is not one of {runner.roles}")
    try:
        argv = list(bench.argv)
        parsed = tool.parse_args(argv)
        dur = duration if duration is not None else spec.run.duration
        if dur is None:
            dur = tool.duration(parsed)
        if dur is not None:
            dur = min(dur, spec.run.duration_cap)
        peer = bench.peer_role if bench.peer_role in runner.roles else None
        server = tool.server_argv(parsed)
        server_role = peer or ("server" if "server" in runner.roles else bench.role)
        port = runner.free_port(server_role) if server is not None else None
        argv = tool.rewrite(argv, host=runner.address(peer) if peer else None,
                            duration=dur, port=port)
        parsed = tool.parse_args(argv)  # what runs is what was validated
        server = tool.server_argv(parsed)
        if server is not None and port is not None:
            server = _with_port(server, port)
    except Refused as e:
        raise NotRunnable(f"refused: {e}") from None
    _check_rewritten(spec, argv, server, peer)
    # twice what the command needs (all of `perf stat -r N`'s repeats), capped by the spec
    need = (dur or spec.run.duration_cap) * tool.invocations(parsed)
    timeout = min(spec.run.timeout, need * 2 + 30)
    prep = Prepared(tool, argv, bench.role, server, server_role if server else None, port,
                    dur, timeout)
    runner.cache[("prepared", spec.id)] = prep
    return prep


def _check_rewritten(spec: Spec, argv: list[str], server: list[str] | None,
                     peer: str | None) -> None:
    """The commands as they will run go through the safety checks once more, with the peer
    this runner really substituted: a peer role it lacks leaves the mail's host in argv."""
    from claims.safety import check_command

    bench = replace(spec.benchmark, argv=argv, original="", peer_role=peer)
    problems = check_command(bench, "benchmark")
    if server is not None:
        problems += check_command(replace(bench, argv=server, role="server"), "server",
                                  server_of=bench)
    refused = [p for p in problems if p.level == "refused"]
    if refused:
        raise NotRunnable("refused: " + "; ".join(str(p) for p in refused))


def _with_port(server: list[str], port: int) -> list[str]:
    """Make sure the server listens on our port (never the system netserver's 12865)."""
    if str(port) in server:
        return server
    stool = tool_for_program(server[0])
    if stool is not None:
        try:
            return stool.rewrite(server, port=port)
        except Refused:
            pass
    return [*server, "-p", str(port)]


def abba_order(names: Sequence[str], n: int, rng: random.Random) -> list[str]:
    """`n` runs of each variant in ABBA blocks: a shuffled order, then the same reversed."""
    counts = dict.fromkeys(names, 0)
    order: list[str] = []
    while any(c < n for c in counts.values()):
        perm = list(names)
        rng.shuffle(perm)
        for block in (perm, perm[::-1]):
            for name in block:
                if counts[name] < n:
                    counts[name] += 1
                    order.append(name)
    return order


def samples_dict(samples: list[Sample], average: bool = False) -> dict[str, float]:
    """metric -> value; the first sample of a metric wins (as when the mail was read), or
    with `average` (a tool that prints every interval) the mean of all of them."""
    if average:
        groups: dict[str, list[float]] = {}
        for s in samples:
            groups.setdefault(s.metric, []).append(s.value)
        return {k: sum(v) / len(v) for k, v in groups.items()}
    out: dict[str, float] = {}
    for s in samples:
        out.setdefault(s.metric, s.value)
    return out


def _switch(runner: Runner, variant: Variant) -> None:
    """Put the host into `variant`'s state: restore everything, then apply its steps."""
    if runner.cache.get("variant") == variant.name:
        return
    runner.cache["variant"] = None
    runner.select_variant(variant)
    errors = runner.switch(variant.setup)
    if errors:
        raise RunnerError("; ".join(errors))
    runner.cache["variant"] = variant.name


def _pinned(variant: Variant, prep: Prepared) -> list[str]:
    """The benchmark argv under `taskset -c CPUS` when the variant pins the client."""
    for a in variant.setup:
        if a.kind == "cpu-pin" and prep.role in a.roles:
            if not a.value or not re.fullmatch(r"\d{1,4}([-,]\d{1,4})*", a.value):
                raise NotRunnable(f"refused: CPU list {a.value!r}")
            return ["taskset", "-c", a.value, *prep.argv]
    return list(prep.argv)


def run_once(spec: Spec, runner: Runner, prep: Prepared, variant: Variant, index: int,
             warmup: bool = False, batch: int = 0) -> RunRecord:
    """One run of one variant; any failure becomes a failed record with its reason."""
    argv = _pinned(variant, prep)
    rec = RunRecord(variant=variant.name, index=index, warmup=warmup, batch=batch,
                    argv=argv, host=prep.role, started=time.time())
    try:
        _switch(runner, variant)
        if prep.server_argv is not None and prep.server_role is not None:
            runner.server(prep.server_role, prep.server_argv, prep.port)
        effect.record_device_state(runner, variant)
        watch = effect.Watch(runner, effect.counters_for(runner, variant)).start()
        try:
            res = runner.run(prep.role, argv, prep.timeout, spec.run.output_cap)
        finally:
            rec.counters = watch.stop()  # what had to move for the setup to act
    except (RunnerError, ActionError) as e:
        rec.ok, rec.error, rec.ended = False, str(e), time.time()
        return rec
    rec.stdout, rec.stderr, rec.returncode = res.stdout, res.stderr, res.returncode
    rec.started, rec.ended = res.started, res.ended
    # stderr too: perf stat prints its counters there; argv tells bare outputs apart.
    samples = prep.tool.parse_run(argv, res.stdout + "\n" + res.stderr)
    rec.samples = samples_dict(samples, average=prep.tool.per_interval)
    rec.tool_seconds = next((rec.samples[k] for k in _TOOL_TIME if k in rec.samples), None)
    if not res.ok:
        rec.ok, rec.error = False, res.reason()
    elif not rec.samples:
        rec.ok, rec.error = False, f"no {prep.tool.name} results in the output"
    if res.truncated:
        rec.error = (rec.error + "; " if rec.error else "") + "output truncated at the cap"
    return rec


def run_batch(spec: Spec, runner: Runner, variant_names: Sequence[str], n: int,
              results: Results | None = None, *, batch: int = 0, warmup: bool = False,
              duration: float | None = None, approve: bool = False,
              progress: Progress | None = None) -> list[RunRecord]:
    """Run `n` more runs of each named variant in ABBA order seeded by (spec seed, batch).

    The runner must be set up; the commands are prepared (and cached on the runner) on
    first use.  Records are appended to `results.runs` as they finish, so an interrupted
    batch keeps what it measured.  Raises NotRunnable before running anything refused.
    """
    prep = prepare(spec, runner, duration, approve)
    by_name = {v.name: v for v in spec.variants}
    unknown = [v for v in variant_names if v not in by_name]
    if unknown:
        raise NotRunnable(f"no variant named {', '.join(unknown)}")
    rng = random.Random(f"{spec.run.seed}:{batch}:{int(warmup)}")
    order = abba_order(list(variant_names), n, rng)
    out: list[RunRecord] = []
    t0 = time.monotonic()
    for i, name in enumerate(order):
        index = len(results.runs) if results is not None else i
        rec = run_once(spec, runner, prep, by_name[name], index, warmup, batch)
        out.append(rec)
        if results is not None:
            results.runs.append(rec)
        if progress is not None:
            progress({"variant": name, "i": i + 1, "n": len(order), "warmup": warmup,
                      "elapsed": time.monotonic() - t0, "ok": rec.ok, "error": rec.error,
                      "value": _headline(spec, rec)})
    return out


def _headline(spec: Spec, rec: RunRecord) -> float | None:
    for m in spec.metrics:
        if (m.sample or m.name) in rec.samples:
            return rec.samples[m.sample or m.name]
    return next(iter(rec.samples.values()), None)


def _missing_tools(env: dict[str, Any], prep: Prepared) -> str | None:
    """Which needed program a host lacks (probed by `environment()`), if any."""
    hosts = env.get("hosts", {})
    needs = [(prep.role, prep.argv[0])]
    if prep.server_argv and prep.server_role:
        needs.append((prep.server_role, prep.server_argv[0]))
    for role, prog in needs:
        h = hosts.get(role, {})
        h = hosts.get(h.get("same_as"), h) if "same_as" in h else h
        if h.get("tools", {}).get(prog, "") is None:
            return f"{prog} is not installed on the {role} host"
    return None


# A stopping rule drives the runs from above: given the results so far and `more`, which runs
# one batch ({variant: runs}), it asks for batches until its statistics decide.
StoppingRule = Callable[[Results, Callable[[dict[str, int]], None]], object]


def new_results(spec: Spec, runner: Runner) -> Results:
    return Results(spec=spec, runner=runner.kind,
                   created=datetime.now(UTC).isoformat(timespec="seconds"))


def batch_adder(spec: Spec, runner: Runner, results: Results, *,
                duration: float | None = None, approve: bool = False,
                progress: Progress | None = None) -> Callable[[dict[str, int]], None]:
    """`more({variant: runs})` for verifier.sequential: each call is one new batch, variants
    asking for the same number of runs interleaved together."""
    state = {"batch": max((r.batch for r in results.runs), default=0)}

    def more(want: dict[str, int]) -> None:
        state["batch"] += 1
        groups: dict[int, list[str]] = {}
        for name, n in want.items():
            if n > 0:
                groups.setdefault(n, []).append(name)
        for n, names in sorted(groups.items()):
            run_batch(spec, runner, names, n, results, batch=state["batch"],
                      duration=duration, approve=approve, progress=progress)

    return more


def _run_all(spec: Spec, runner: Runner, prep: Prepared, results: Results,
             runs: int | None, duration: float | None, approve: bool,
             progress: Progress | None, stopping: StoppingRule | None) -> None:
    """Probe the environment, then the warm-up and the counted runs (with a stopping rule:
    the batches it asks for)."""
    programs = [prep.argv[0]] + ([prep.server_argv[0]] if prep.server_argv else [])
    results.environment = runner.environment(programs)
    missing = _missing_tools(results.environment, prep)
    if missing:
        results.status, results.reason = RunStatus.NOT_RUNNABLE, missing
        return
    results.environment["duration"] = prep.duration
    results.environment["touched"] = runner.touched  # the live list: complete if interrupted
    results.environment["device_state"] = runner.cache.setdefault("device_state", {})
    names = [v.name for v in spec.variants]
    if spec.run.warmup > 0:
        run_batch(spec, runner, names, spec.run.warmup, results, warmup=True,
                  progress=progress)
        why = effect.inert_reason(runner, spec.variants, [r for r in results.runs if r.warmup])
        if why:  # the warm-up already shows the setup cannot act: spend nothing more
            raise Inert(why)
    if stopping is not None:
        stopping(results, batch_adder(spec, runner, results, duration=duration,
                                      approve=approve, progress=progress))
    else:
        run_batch(spec, runner, names, runs or spec.run.repetitions, results,
                  progress=progress)


def execute(spec: Spec, runner: Runner, *, runs: int | None = None,
            duration: float | None = None, approve: bool = False,
            progress: Progress | None = None, results: Results | None = None,
            stopping: StoppingRule | None = None) -> Results:
    """Run the whole spec: warm-up per variant, then `runs` (default: the spec's repetitions)
    of each variant interleaved — or, with a `stopping` rule, the batches that rule asks for
    (the statistics live above the runners: verifier passes verifier.sequential's rule, with
    its calibration bound in).  The caller owns the runner (`with runner:`);
    pass `results` to keep partial results when interrupted."""
    results = results if results is not None else new_results(spec, runner)
    try:
        runner.setup()
        prep = prepare(spec, runner, duration, approve)
    except NotRunnable as e:
        results.status, results.reason = RunStatus.NOT_RUNNABLE, str(e)
        return results
    except RunnerError as e:
        results.status, results.reason = RunStatus.FAILED, str(e)
        return results
    try:
        _run_all(spec, runner, prep, results, runs, duration, approve, progress, stopping)
    except Inert as e:
        effect.not_acting(runner, spec.variants, results, str(e))
        return results
    except (RunnerError, NotRunnable) as e:
        results.status, results.reason = RunStatus.FAILED, str(e)
        return results
    if results.status == "not-runnable":
        return results
    if effect.judge_results(runner, spec.variants, results):
        return results  # NOT RUNNABLE HERE: the setup did not act
    if not settle_failed(results):
        results.status = RunStatus.COMPLETE
    return results


def settle_failed(results: Results) -> bool:
    """Runs were counted and not one succeeded: the results are "failed", with the first
    one's error (here, on the fleet, and for a resumed claim's merged runs alike)."""
    counted = [r for r in results.runs if not r.warmup]
    if counted and not any(r.ok for r in counted):
        results.status, results.reason = RunStatus.FAILED, f"every run failed: {counted[0].error}"
        return True
    return False
