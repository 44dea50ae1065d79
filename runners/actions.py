"""Typed setup actions applied on a runner's host and undone afterwards.

Each action reads the old value first, writes the new one, and returns `Applied` records
that know how to put the old value back; `Runner.undo()` replays them newest first on every
path (normal end, failure, Ctrl-C, SIGTERM).  Everything goes through `runner.run(role,
argv)` with argv lists (`cat`, `tee`, `ethtool`, `tc`), so the same code works on the local
host, inside a namespace and over SSH.  The allow-list is checked here again even though
the spec was checked on load: a device or key from a mail never reaches a path unchecked,
and sysctls follow the same claims.sysctl_policy as the spec check (a host-global key is
written only when a person approved it).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from claims import sysctl_policy
from claims.spec import Action
from runners import effect
from runners.effect import Inert

if TYPE_CHECKING:
    from runners.base import Runner

_TIMEOUT = 15.0
_ATTR = re.compile(r"^[A-Za-z0-9_\-]+(/[A-Za-z0-9_\-]+)*$")
_DEV = re.compile(r"^[A-Za-z0-9_.\-@]{1,15}$")
_SETTING = re.compile(r"^[A-Za-z0-9_\-]+$")
_TC_QDISCS = {"fq", "fq_codel", "pfifo_fast", "pfifo", "bfifo", "netem", "tbf", "htb", "mq",
              "noqueue", "cake", "sfq", "prio", "codel", "red"}
_TC_WORD = re.compile(r"^[A-Za-z0-9_.:%/\-]+$")
# ethtool -K short names -> the names `ethtool -k` prints.
_FEATURES = {"gro": "generic-receive-offload", "gso": "generic-segmentation-offload",
             "tso": "tcp-segmentation-offload", "lro": "large-receive-offload",
             "sg": "scatter-gather", "rx": "rx-checksumming", "tx": "tx-checksumming",
             "rxhash": "receive-hashing", "ntuple": "ntuple-filters",
             "rx-gro-hw": "rx-gro-hw", "rx-gro-list": "rx-gro-list",
             "rx-udp-gro-forwarding": "rx-udp-gro-forwarding", "txvlan": "tx-vlan-offload",
             "rxvlan": "rx-vlan-offload"}
_ETHTOOL = {"features": ("-k", "-K"), "coalesce": ("-c", "-C"), "ring": ("-g", "-G"),
            "channels": ("-l", "-L")}


Remember = Callable[["Applied"], None]


class ActionError(RuntimeError):
    """An action that is refused or failed; the message says which and why."""


@dataclass
class Applied:
    """One changed setting on one role and how to restore it."""

    role: str
    kind: str  # file | ethtool | tc | approved
    target: str  # a path, `ethtool -K eth0`, `tc qdisc dev eth0 root`
    old: Any = None
    new: Any = None
    argv: list[str] = field(default_factory=list)  # ethtool's sub-option

    def describe(self) -> dict[str, Any]:
        return {"role": self.role, "kind": self.kind, "target": self.target,
                "old": self.old, "new": self.new}


def _run_ok(runner: Runner, role: str, argv: list[str], what: str,
            input: str | None = None) -> str:
    res = runner.run(role, argv, timeout=_TIMEOUT, input=input)
    if not res.ok:
        raise ActionError(f"{what} on {role}: {res.reason()}")
    return res.stdout


def _map_device(runner: Runner, role: str, dev: str | None) -> str:
    """The runner's own device for the one the mail names (eth0 -> veth, lo, ...)."""
    if dev is not None and not _DEV.match(dev):
        raise ActionError(f"bad device name {dev!r}")
    return runner.device(role)


def _file_path(runner: Runner, role: str, action: Action) -> str:
    """Map a sysctl key, procfs path or sysfs path onto a checked path on this runner."""
    key = action.key or ""
    if ".." in key or "\x00" in key:
        raise ActionError(f"path traversal in {key!r}")
    if action.kind in ("sysctl", "procfs"):
        if action.kind == "procfs" and not (key.startswith("/proc/sys/net/")
                                            and _ATTR.match(key[len("/proc/sys/net/"):])):
            raise ActionError(f"procfs path {key!r} is not under /proc/sys/net/")
        ruling = sysctl_policy.rule(key, runner.kind)
        if ruling.level == "refused":
            raise ActionError(f"refused: {ruling.reason}")
        if ruling.level == "needs-approval" and not action.approved:
            # the spec check passed it (it knows no runner): not runnable on this one
            raise Inert(f"{ruling.reason}: needs a person's approval on the {runner.kind} "
                        f"runner")
        parts = ruling.key.split(".")
        if action.device and action.device in parts:
            parts[parts.index(action.device)] = runner.device(role)
        return "/proc/sys/" + "/".join(parts)
    if action.kind == "sysfs":
        m = re.fullmatch(r"/sys/class/net/([^/]+)/(.+)", key)
        dev, attr = (m.group(1), m.group(2)) if m else (action.device, key)
        if not attr or not _ATTR.match(attr) or (dev is not None and not _DEV.match(dev)):
            raise ActionError(f"sysfs path {key!r} is not /sys/class/net/<dev>/<attr>")
        return f"/sys/class/net/{_map_device(runner, role, dev)}/{attr}"
    raise ActionError(f"not a file action: {action.kind}")


def _check_value(value: str | None) -> str:
    if value is None or not re.fullmatch(r"[A-Za-z0-9_.:,\- \t]{0,200}", value):
        raise ActionError(f"value {value!r} is not accepted")
    return value


def _apply_file(runner: Runner, role: str, action: Action, remember: Remember,
                current: dict[tuple[str, str], Applied]) -> None:
    path = _file_path(runner, role, action)
    value = _check_value(action.value)
    _ensure_napi(runner, role, action, remember)
    prev = current.pop((role, path), None)  # set by the previous variant: original known
    if prev is not None:
        rec = Applied(role, "file", path, prev.old, value)
        remember(rec)
        if prev.new == value:
            return
    else:
        res = runner.run(role, ["cat", path], timeout=_TIMEOUT)
        if not res.ok and "No such file" in res.stderr:
            raise Inert(f"{action.key} does not exist on the {runner.kind} runner's "
                        f"{role} host ({path})")
        if not res.ok:
            raise ActionError(f"reading {path} on {role}: {res.reason()}")
        rec = Applied(role, "file", path, res.stdout.strip(), value)
        remember(rec)
    _run_ok(runner, role, ["tee", path], f"writing {path}", input=value + "\n")
    back = _run_ok(runner, role, ["cat", path], f"reading back {path}").strip()
    if not effect.readback_matches(value, back):
        raise Inert(f"{path} on {role}: wrote {value!r}, the kernel reads back {back!r}")


def _ensure_napi(runner: Runner, role: str, action: Action, remember: Remember) -> None:
    """Make a NAPI knob able to act on `role`'s device, or raise Inert with why not.

    gro_flush_timeout and napi_defer_hard_irqs act only in a NAPI poll with GRO on.  A
    driver without NAPI cannot have them; GRO is turned on when it is off (and restored
    afterwards); veth also needs TSO off, or its NAPI never sees a TCP packet (runners.effect
    has the measurement)."""
    knob = effect.knob_of(action)
    if knob is None:
        return
    dev = runner.device(role)
    drv = effect.driver(runner, role, dev)
    if drv in effect.NO_NAPI:
        raise Inert(f"{knob} needs a device with NAPI and GRO; {dev} ({drv}) on the "
                    f"{runner.kind} runner has no NAPI")
    feats = effect.offloads(runner, role, dev)
    gro = feats.get("generic-receive-offload", "")
    want: dict[str, str] = {}
    if not gro.startswith("on"):
        if "fixed" in gro or not gro:
            raise Inert(f"{knob} needs GRO, which {drv or 'the driver'} cannot turn on "
                        f"for {dev} (generic-receive-offload: {gro or 'absent'})")
        want["gro"] = "on"
    if drv == "veth" and feats.get("tcp-segmentation-offload", "").startswith("on"):
        want["tso"] = "off"
    if want:
        args = " ".join(f"{k} {v}" for k, v in want.items())
        _apply_ethtool(runner, role, Action(kind="ethtool", key="features", device=dev,
                                            settings=want,
                                            raw=f"ethtool -K {dev} {args} (for {knob})"),
                       remember)


def _parse_ethtool(sub: str, text: str) -> dict[str, str]:
    """`name: value` pairs; for ring/channels only the "Current" section."""
    if sub in ("ring", "channels") and "Current hardware settings" in text:
        text = text.split("Current hardware settings", 1)[1]
    out: dict[str, str] = {}
    for ln in text.splitlines():
        name, sep, val = ln.partition(":")
        if sep and val.strip():
            out[name.strip().lower()] = val.strip().split()[0]
    return out


def _apply_ethtool(runner: Runner, role: str, action: Action, remember: Remember) -> None:
    sub = action.key or "features"
    if sub not in _ETHTOOL:
        raise ActionError(f"ethtool {sub!r} is not one of {', '.join(_ETHTOOL)}")
    if not action.settings:
        raise ActionError("ethtool action without settings")
    show, change = _ETHTOOL[sub]
    dev = _map_device(runner, role, action.device)
    for k, v in action.settings.items():
        if not _SETTING.match(k) or not _SETTING.match(str(v)):
            raise ActionError(f"ethtool setting {k}={v!r} is not accepted")
    text = _run_ok(runner, role, ["ethtool", show, dev], f"ethtool {show}")
    current = _parse_ethtool(sub, text)
    old: dict[str, str] = {}
    for k, v in action.settings.items():
        name = (_FEATURES.get(k, k) if sub == "features" else k).lower()
        val = current.get(name)
        if val is None:
            raise Inert(f"ethtool {show} {dev} shows no {k!r}: the {effect.driver(runner, role, dev)}"
                        f" driver on the {runner.kind} runner does not have it")
        if sub == "features" and val != v and re.search(rf"^\s*{re.escape(name)}: \S+ \[fixed\]",
                                                        text, re.M | re.I):
            raise Inert(f"{k} is fixed {val} on {dev} ({effect.driver(runner, role, dev)}): "
                        f"the driver cannot set it {v}")
        old[k] = val
    remember(Applied(role, "ethtool", f"ethtool {change} {dev}", old, dict(action.settings),
                     [change]))
    args = [x for k, v in action.settings.items() for x in (k, str(v))]
    _run_ok(runner, role, ["ethtool", change, dev, *args], f"ethtool {change}")
    back = _parse_ethtool(sub, _run_ok(runner, role, ["ethtool", show, dev], f"ethtool {show}"))
    for k, v in action.settings.items():
        name = (_FEATURES.get(k, k) if sub == "features" else k).lower()
        if back.get(name) != str(v):
            raise Inert(f"ethtool {change} {dev} {k} {v}: the device reads back "
                        f"{back.get(name)!r}")


def _apply_tc(runner: Runner, role: str, action: Action, remember: Remember) -> None:
    args = list(action.args)
    if args[:1] == ["tc"]:
        args = args[1:]
    if len(args) < 4 or args[0] != "qdisc" or args[1] not in ("add", "replace", "change"):
        raise ActionError(f"tc {' '.join(args)!r}: only `tc qdisc add|replace ...` is allowed")
    rest = args[2:]
    if "dev" in rest:
        i = rest.index("dev")
        if i + 1 >= len(rest):
            raise ActionError("tc: dev needs a device")
        del rest[i:i + 2]
    if rest[:1] != ["root"]:
        raise ActionError("tc: only root qdiscs are allowed")
    rest = rest[1:]
    if not rest or rest[0] not in _TC_QDISCS:
        raise ActionError(f"tc: qdisc {rest[:1]} is not on the allow-list")
    if not all(_TC_WORD.match(w) for w in rest):
        raise ActionError(f"tc: argument not accepted in {' '.join(rest)!r}")
    dev = _map_device(runner, role, action.device)
    old = _run_ok(runner, role, ["tc", "qdisc", "show", "dev", dev, "root"], "tc show").strip()
    remember(Applied(role, "tc", f"tc qdisc dev {dev} root", old, " ".join(rest), [dev]))
    res = runner.run(role, ["tc", "qdisc", "replace", "dev", dev, "root", *rest],
                     timeout=_TIMEOUT)
    if not res.ok and "kind is unknown" in res.stderr:
        raise Inert(f"the {runner.kind} runner's kernel has no {rest[0]} qdisc")
    if not res.ok:
        raise ActionError(f"tc qdisc on {role}: {res.reason()}")
    shown = _run_ok(runner, role, ["tc", "qdisc", "show", "dev", dev, "root"], "tc show")
    if f"qdisc {rest[0]} " not in shown + " ":
        raise Inert(f"tc qdisc {rest[0]} on {dev}: the device shows {shown.strip()!r}")


def apply_action(runner: Runner, role: str, action: Action, remember: Remember,
                 current: dict[tuple[str, str], Applied] | None = None) -> None:
    """Apply `action` on `role`; raise ActionError when refused or failed.

    `remember` gets each setting's restore record *before* the setting changes, so an
    interrupt between the write and the return still leaves it to be restored.
    `current` holds file settings a previous variant changed, by (role, path): one this
    action sets again is taken out and its original value carried over, so switching
    variants costs one write instead of restore + read + write."""
    if action.reason and not action.approved:
        raise ActionError(f"setup step needs approval ({action.reason}): {action.raw}")
    if action.kind in ("sysctl", "procfs", "sysfs"):
        _apply_file(runner, role, action, remember, {} if current is None else current)
    elif action.kind == "ethtool":
        _apply_ethtool(runner, role, action, remember)
    elif action.kind == "tc":
        _apply_tc(runner, role, action, remember)
    elif action.kind == "cpu-pin":
        return  # pinning changes the benchmark argv (taskset), not the host
    elif action.approved and action.args:
        remember(Applied(role, "approved", " ".join(action.args), None, "ran (no undo)"))
        _run_ok(runner, role, list(action.args), f"approved step {action.raw!r}")
    else:
        raise ActionError(f"setup step kind {action.kind!r} is not on the allow-list: "
                          f"{action.raw}")


def undo_applied(runner: Runner, rec: Applied) -> str | None:
    """Restore one setting; return an error message instead of raising."""
    try:
        if rec.kind == "file":
            _run_ok(runner, rec.role, ["tee", rec.target], f"restoring {rec.target}",
                    input=str(rec.old) + "\n")
        elif rec.kind == "ethtool":
            dev = rec.target.split()[-1]
            args = [x for k, v in rec.old.items() for x in (k, v)]
            _run_ok(runner, rec.role, ["ethtool", rec.argv[0], dev, *args], "restoring ethtool")
        elif rec.kind == "tc":
            # Deleting the root qdisc gives the device its default one back.
            res = runner.run(rec.role, ["tc", "qdisc", "del", "dev", rec.argv[0], "root"],
                             timeout=_TIMEOUT)
            if not res.ok and "No such file" not in res.stderr and "Cannot delete" not in res.stderr:
                return f"restoring {rec.target} on {rec.role}: {res.reason()}"
    except ActionError as e:
        return str(e)
    return None
