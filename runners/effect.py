"""Proof that a setup step acted: preconditions, read-back and counters that must move.

A setup step that succeeds can still be inert.  `echo 2000 > .../gro_flush_timeout` on a
device without NAPI, or with GRO off, is written and reads back, yet both variants are the
same system; judging that A/A as "NOT REPRODUCED" would tell a netdev author something false.
So each knob that needs something of the device says so here, and the runner

1. makes the precondition true on its own hosts when it can (runners.actions does that,
   restoring it afterwards) and otherwise raises `Inert` (the claim is NOT RUNNABLE HERE);
2. reads each written value back (`readback_matches`);
3. counts, around every run, what must move when the knob acts (`Watch`): packets through
   the device's NAPI instance and, for the GRO flush timer, the timer's starts.  A variant
   whose counters did not move makes the whole result NOT RUNNABLE HERE with the numbers
   (`inert_reason`).

Measured on Linux 6.18 veth (tests/runners/test_effect_netns.py): `ethtool -K veth gro on` gives the
device a NAPI instance, but veth hands a packet to it only when the *sending* device has
no TSO (veth_skb_is_eligible_for_gro), so TCP needs `tso off` too; `rx_queue_N_xdp_packets`
in `ethtool -S` counts the packets NAPI polled.  Even then a TCP_RR exchange ends every
poll with nothing held in GRO, so `gro_flush_timeout` never arms its timer (0 starts of
`napi_watchdog` in 1 s of TCP_RR -r 40000,40000 at 200 us, 10-30 in TCP_STREAM): the timer
counter is what tells a knob that could act from one that did.
"""
from __future__ import annotations

import re
import time
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias

from claims.spec import Action, Variant

if TYPE_CHECKING:
    from runners.base import Handle, Runner
    from runners.fleet import FleetRunner

    # Where the runs went, for judging them: one runner, or the fleet controller, which
    # has no devices of its own (its hosts' runners count).
    Judged: TypeAlias = Runner | FleetRunner

_TIMEOUT = 10.0

# sysfs attributes of a net device that act only through its NAPI instance (and GRO).
NAPI_KNOBS = {"gro_flush_timeout": "timer", "napi_defer_hard_irqs": "defer"}
# Drivers without a NAPI instance of their own: the knobs above have nothing to act on.
NO_NAPI = {"loopback", "dummy", "bridge", "macvlan", "ipvlan", "vxlan", "geneve", "bonding",
           "team", "wireguard", "gre", "ipip", "sit", "vrf"}
# Device state recorded with the results: the offloads these knobs depend on.
OFFLOADS = ("generic-receive-offload", "tcp-segmentation-offload",
            "generic-segmentation-offload", "large-receive-offload", "rx-gro-hw",
            "rx-gro-list")


# The flush-timer count is host-wide (perf cannot tell whose NAPI armed it): a variant
# with the knob on must exceed twice the knob-off variants' count plus this many starts a
# run before the knob counts as acting.  A paced veth link arms it thousands of times a
# second; other tenants' timers give tens.
MIN_TIMER_STARTS = 10.0


class Inert(RuntimeError):
    """A setup step cannot act on this runner: the claim is NOT RUNNABLE HERE, not judged."""


@dataclass(frozen=True)
class Counter:
    """Something that must move during a run when a knob acts.

    `moves`: "always" (every variant needs it, e.g. traffic through NAPI, or the variants
    are not the system the mail describes), "set" (variants where the knob is on, e.g. the
    flush timer) or "off" (counted where the knob is off: the host's background)."""

    name: str  # "napi_packets", "napi_flush_timer"
    role: str
    device: str
    moves: str
    what: str
    scope: str = "device"  # device | host (counted for the whole machine)

    @property
    def key(self) -> str:
        return f"{self.role}:{self.name}"


def knob_of(action: Action) -> str | None:
    """The NAPI knob a sysfs action sets ("gro_flush_timeout"), if it is one."""
    if action.kind != "sysfs" or not action.key:
        return None
    attr = action.key.rstrip("/").rsplit("/", 1)[-1]
    return attr if attr in NAPI_KNOBS else None


def is_set(action: Action) -> bool:
    """The knob's value turns it on (0 means off for both NAPI knobs)."""
    return (action.value or "0").strip() not in ("", "0")


@dataclass(frozen=True)
class Proof:
    """How to tell that one setup step took effect on a runner (recorded per variant)."""

    precondition: str
    readback: str
    counter: str


def proof_of(action: Action) -> Proof:
    """What the runner checks for `action`: before, right after, and during the runs."""
    kind, knob = action.kind, knob_of(action)
    if kind in ("sysctl", "procfs"):
        return Proof("the key exists on the runner's kernel (per-namespace keys inside the "
                     "namespace; host-global ones only with a person's approval)",
                     "the /proc/sys file reads the value written", "none known: read-back only")
    if kind == "sysfs" and knob:
        return Proof("a driver with NAPI and GRO on (made true: ethtool -K gro on; on veth "
                     "also tso off, or its NAPI never sees a TCP packet)",
                     "the sysfs file reads the value written",
                     "packets polled by the device's NAPI (veth: ethtool -S "
                     "rx_queue_*_xdp_packets) in every variant"
                     + ("; GRO flush timer starts (napi_watchdog, perf, host-wide) above "
                        "the knob-off variants'" if NAPI_KNOBS[knob] == "timer" else ""))
    if kind == "sysfs":
        return Proof("the runner's device has the attribute", "the sysfs file reads the "
                     "value written", "none known: read-back only")
    if kind == "ethtool":
        sub = action.key or "features"
        return Proof(f"the driver shows each {sub} setting and does not mark it [fixed]",
                     f"ethtool {_ETHTOOL_SHOW.get(sub, '-k')} shows the new values",
                     "none known: read-back only")
    if kind == "tc":
        return Proof("the runner's kernel has the qdisc", "tc qdisc show lists it as root",
                     "packets sent through the root qdisc (tc -s qdisc show) in every run")
    if kind == "cpu-pin":
        return Proof("a valid CPU list", "the benchmark argv runs under taskset -c",
                     "none known")
    return Proof("a person approved the step", "none: an approved step is run as written",
                 "none known")


_ETHTOOL_SHOW = {"features": "-k", "coalesce": "-c", "ring": "-g", "channels": "-l"}


# -- reading device state -------------------------------------------------------------
def driver(runner: Runner, role: str, dev: str) -> str | None:
    res = runner.run(role, ["ethtool", "-i", dev], timeout=_TIMEOUT)
    m = re.search(r"^driver:\s*(\S+)", res.stdout, re.M) if res.ok else None
    if m:
        return m.group(1)
    return "loopback" if dev == "lo" else None


def offloads(runner: Runner, role: str, dev: str) -> dict[str, str]:
    """`ethtool -k` as feature -> "on"/"off" ("off [fixed]" kept: it cannot change)."""
    res = runner.run(role, ["ethtool", "-k", dev], timeout=_TIMEOUT)
    out: dict[str, str] = {}
    for ln in res.stdout.splitlines() if res.ok else []:
        name, sep, val = ln.strip().partition(":")
        if sep and val.strip():
            out[name.strip()] = val.strip()
    return out


def queues(runner: Runner, role: str, dev: str) -> dict[str, str]:
    """`ethtool -l`'s current channel counts (rx, tx, combined)."""
    res = runner.run(role, ["ethtool", "-l", dev], timeout=_TIMEOUT)
    text = res.stdout.split("Current hardware settings", 1)[-1] if res.ok else ""
    return {k.strip().lower(): v.strip() for k, _, v in
            (ln.partition(":") for ln in text.splitlines()) if v.strip()}


def device_state(runner: Runner, role: str) -> dict[str, Any]:
    """What decides whether a NAPI/GRO knob can act, for the results file."""
    dev = runner.device(role)
    feats = offloads(runner, role, dev)
    state: dict[str, Any] = {"device": dev, "driver": driver(runner, role, dev),
                             "offloads": {k: feats[k] for k in OFFLOADS if k in feats},
                             "queues": queues(runner, role, dev)}
    for attr in NAPI_KNOBS:
        res = runner.run(role, ["cat", f"/sys/class/net/{dev}/{attr}"], timeout=_TIMEOUT)
        state[attr] = res.stdout.strip() if res.ok else None
    return state


def napi_packets(runner: Runner, role: str, dev: str) -> float | None:
    """Packets the device's NAPI instance polled (veth: rx_queue_N_xdp_packets), or None
    when the driver has no such counter."""
    res = runner.run(role, ["ethtool", "-S", dev], timeout=_TIMEOUT)
    vals = [float(m.group(1)) for m in
            re.finditer(r"rx_queue_\d+_xdp_packets:\s*(\d+)", res.stdout)] if res.ok else []
    return sum(vals) if vals else None


def qdisc_packets(runner: Runner, role: str, dev: str) -> float | None:
    """Packets the device's root qdisc sent (`tc -s qdisc show dev DEV root`)."""
    res = runner.run(role, ["tc", "-s", "qdisc", "show", "dev", dev, "root"], timeout=_TIMEOUT)
    m = re.search(r"Sent \d+ bytes (\d+) pkt", res.stdout) if res.ok else None
    return float(m.group(1)) if m else None


def readback_matches(wrote: str, read: str) -> bool:
    """The kernel kept the value: same words, or the same number/CPU mask in another form."""
    a, b = wrote.split(), read.replace(",", " ").split() if "," in read else read.split()
    if a == b:
        return True
    try:  # rps_cpus "f" reads back "0000000f" or "00000000,0000000f"
        return int("".join(wrote.split(",")), 16) == int("".join(read.split(",")), 16)
    except ValueError:
        return False


# -- the counters a variant's steps need ----------------------------------------------
def counters_for(runner: Judged, variant: Variant) -> list[Counter]:
    """The counters that must move during `variant`'s runs, one per (role, counter)."""
    out: dict[str, Counter] = {}
    roles = list(getattr(runner, "roles", ("client", "server")))
    device = getattr(runner, "device", None)  # a fleet controller has none
    for a in variant.setup:
        knob = knob_of(a)
        if a.kind == "tc":
            for role in [r for r in (a.roles or roles) if r in roles]:
                dev = device(role) if device else f"{role}'s device"
                q = Counter("qdisc_packets", role, dev, "always",
                            f"packets sent through {dev}'s root qdisc (tc -s qdisc show)")
                out.setdefault(q.key, q)
        if knob is None:
            continue
        for role in a.roles or roles:
            if role not in roles:
                continue
            # a fleet controller has no devices of its own: its hosts' runners count
            dev = device(role) if device else f"the {role}'s device"
            c = Counter("napi_packets", role, dev, "always",
                        f"packets polled by {dev}'s NAPI (ethtool -S rx_queue_*_xdp_packets)")
            out.setdefault(c.key, c)
            if NAPI_KNOBS[knob] == "timer":  # counted with the knob off too: background
                t = Counter("napi_flush_timer", role, dev, "set" if is_set(a) else "off",
                            "starts of the NAPI GRO flush timer (napi_watchdog), host-wide",
                            scope="host")
                out.setdefault(t.key, t)
    # one host-wide timer count is enough: it cannot tell the roles apart
    timers = [k for k, c in out.items() if c.name == "napi_flush_timer"]
    for k in timers[1:]:
        del out[k]
    return list(out.values())


def _watchdog_address() -> str | None:
    """napi_watchdog's address (root reads /proc/kallsyms unhashed), for perf's filter."""
    try:
        with open("/proc/kallsyms") as f:
            for ln in f:
                parts = ln.split()
                if len(parts) >= 3 and parts[2] == "napi_watchdog" and int(parts[0], 16):
                    return "0x" + parts[0]
    except (OSError, ValueError):
        return None
    return None


def _perf_total(text: str) -> float | None:
    """Sum of `perf stat -I -x,` interval counts; None when perf printed none."""
    total, seen = 0.0, False
    for ln in text.splitlines():
        f = ln.strip().split(",")
        if len(f) >= 4 and f[3].startswith("timer:hrtimer_start"):
            try:
                total += float(f[1])
                seen = True
            except ValueError:
                continue
    return total if seen else None


_READERS = {"napi_packets": napi_packets, "qdisc_packets": qdisc_packets}


@dataclass
class Watch:
    """Counter readings around one run: `start()` before it, `stop()` after."""

    runner: Runner
    counters: list[Counter]
    before: dict[str, float | None] = field(default_factory=dict)
    probe: Handle | None = None
    unavailable: dict[str, str] = field(default_factory=dict)

    def start(self) -> Watch:
        for c in self.counters:
            if c.name in _READERS:
                self.before[c.key] = _READERS[c.name](self.runner, c.role, c.device)
            elif c.name == "napi_flush_timer":
                self._start_probe(c)
        return self

    def _start_probe(self, c: Counter) -> None:
        notes = self.runner.cache.setdefault("effect_notes", {})
        if c.key in notes:  # failed before on this runner: do not wait for it every run
            self.unavailable[c.key] = notes[c.key]
            return
        addr = _watchdog_address()
        if addr is None:
            self.unavailable[c.key] = "napi_watchdog is not in /proc/kallsyms"
            return
        argv = ["perf", "stat", "-a", "-x,", "-I", "100", "-e", "timer:hrtimer_start",
                "--filter", f"function == {addr}"]
        try:
            self.probe = self.runner.start(c.role, argv)
        except Exception as e:  # noqa: BLE001 - a missing perf leaves the counter unknown
            self.unavailable[c.key] = f"perf did not start: {e}"
            return
        deadline = time.monotonic() + 3.0
        while time.monotonic() < deadline and self.probe.alive() \
                and "hrtimer_start" not in self.probe.text():
            time.sleep(0.02)
        if "hrtimer_start" not in self.probe.text():
            self.unavailable[c.key] = ("perf cannot count timer:hrtimer_start: "
                                       + " ".join(self.probe.text().split())[-160:])
            self.probe.stop()
            self.probe = None

    def stop(self) -> dict[str, float]:
        """The counters' deltas over the run (a counter this host cannot read is absent)."""
        out: dict[str, float] = {}
        for c in self.counters:
            if c.name in _READERS:
                b = self.before.get(c.key)
                a = _READERS[c.name](self.runner, c.role, c.device)
                if a is not None and b is not None:
                    out[c.key] = a - b
            elif c.name == "napi_flush_timer" and self.probe is not None:
                time.sleep(0.15)  # let perf print the run's last interval
                text = self.probe.text()
                self.probe.stop()
                self.probe = None
                total = _perf_total(text)
                if total is not None:
                    out[c.key] = total
        if self.unavailable:
            self.runner.cache.setdefault("effect_notes", {}).update(self.unavailable)
        return out


# -- the judgement ----------------------------------------------------------------------
def inert_reason(runner: Judged, variants: list[Variant], runs: list[Any]) -> str | None:
    """Why the measured runs cannot stand for the mail's knob, or None when they can.

    `runs` are RunRecords with `.counters`.  NAPI must have carried each variant's traffic
    where the device counts it, a tc qdisc must have sent packets, and a variant that turns
    the flush timer on must have armed it clearly more often per run than the variants with
    it off (MIN_TIMER_STARTS: the count is host-wide, other tenants' timers are
    background), or the knob did nothing measurable."""
    problems: list[str] = []
    notes: dict[str, str] = getattr(runner, "cache", {}).get("effect_notes", {})
    off: list[float] = []
    on: list[tuple[Variant, Counter, list[float]]] = []
    for v in variants:
        recs = [r for r in runs if r.variant == v.name and r.ok]
        if not recs:
            continue
        for c in counters_for(runner, v):
            vals = [r.counters[c.key] for r in recs if c.key in getattr(r, "counters", {})]
            if c.name == "napi_packets" and vals and not any(x > 0 for x in vals):
                problems.append(f"no packet went through {c.device}'s NAPI in {len(vals)} "
                                f"runs, so {_knobs(v)} ({v.name}) had nothing to act on")
            elif c.name == "qdisc_packets" and vals and not any(x > 0 for x in vals):
                problems.append(f"no packet went through {c.device}'s root qdisc in "
                                f"{len(vals)} runs ({v.name}): the tc step did not shape "
                                f"the benchmark's traffic")
            elif c.name == "napi_flush_timer" and c.moves == "off":
                off += vals
            elif c.name == "napi_flush_timer":
                on.append((v, c, vals))
    background = sum(off) / len(off) if off else 0.0
    for v, c, vals in on:
        if not vals:
            why = notes.get(c.key, "no count was taken")
            problems.append(f"cannot show that {_knobs(v)} ({v.name}) acted: the GRO flush "
                            f"timer could not be counted ({why})")
            continue
        per_run = sum(vals) / len(vals)
        if per_run <= 2 * background + MIN_TIMER_STARTS:
            problems.append(f"{_knobs(v)} ({v.name}) never armed the GRO flush timer: "
                            f"{per_run:g} starts per run in {len(vals)} runs, {background:g} "
                            f"with it off (host-wide); GRO held nothing at the end of a NAPI "
                            f"poll, so the knob cannot act here (a paced link, e.g. tbf "
                            f"with GSO off, lets it)")
    return "; ".join(problems) or None


def _knobs(v: Variant) -> str:
    names = [f"{knob_of(a)}={a.value}" for a in v.setup if knob_of(a)]
    return ", ".join(names) or "the setting"


def summary(runner: Judged, variants: list[Variant], runs: list[Any]) -> dict[str, Any]:
    """Per variant and counter: the runs counted and the total moved, for the results."""
    out: dict[str, Any] = {}
    for v in variants:
        recs = [r for r in runs if r.variant == v.name and r.ok]
        for c in counters_for(runner, v):
            vals = [r.counters[c.key] for r in recs if c.key in r.counters]
            out.setdefault(v.name, {})[c.key] = {"what": c.what, "runs": len(vals),
                                                 "total": sum(vals), "moves": c.moves}
    return out


def record_device_state(runner: Runner, variant: Variant) -> None:
    """Driver, offloads, queues and NAPI knobs of each role's device once per variant, with
    how each of its steps is proven to act; kept on the runner (execute puts the live dict
    into the results' environment)."""
    states = runner.cache.setdefault("device_state", {})
    if variant.name not in states:
        seen: dict[str, str] = {}
        hosts: dict[str, Any] = {}
        for r in runner.roles:
            key = runner.host_key(r) + ":" + runner.device(r)
            hosts[r] = {"same_as": seen[key]} if key in seen else device_state(runner, r)
            seen.setdefault(key, r)
        checks = [{"step": a.raw or f"{a.kind} {a.key or ''}".strip(), **asdict(proof_of(a))}
                  for a in variant.setup]
        states[variant.name] = {"hosts": hosts, "checks": checks}


def not_acting(runner: Judged, variants: list[Variant], results: Any, why: str) -> None:
    """Mark `results` NOT RUNNABLE HERE: the setup cannot act on this runner."""
    results.status = "not-runnable"
    results.reason = f"the setup cannot act on the {results.runner} runner: {why}"
    results.environment["effects"] = summary(runner, variants, results.runs)


def judge_results(runner: Judged, variants: list[Variant], results: Any) -> bool:
    """After the counted runs: record what the counters saw; True (and the results made
    NOT RUNNABLE HERE) when a variant's setup did not act."""
    counted = [r for r in results.runs if not r.warmup]
    why = inert_reason(runner, variants, counted)
    if why:
        not_acting(runner, variants, results, why)
        return True
    if any(counters_for(runner, v) for v in variants):
        results.environment["effects"] = summary(runner, variants, counted)
    return False
