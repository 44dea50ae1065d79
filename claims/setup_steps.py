"""Typed setup steps: the sysctl, sysfs/procfs writes, ethtool, tc and ip commands that set
up a benchmark.  A step is recognised, never run here; the runner allow-lists by `kind`.

The value of a step (`echo 2000 > .../gro_flush_timeout`) is what often distinguishes
two variants, so `variant_key` gives a short name for it ("gro_flush_timeout").
"""
from __future__ import annotations

import re
import shlex

from claims.model import SetupStep
from claims.shell import privilege_prefix, shell_c

_ECHO = re.compile(r"^echo\s+(?:-n\s+)?(?P<val>[^>|]{1,200}?)\s*(?:>>?|\|\s*(?:sudo\s+)?tee(?:\s+-a)?)\s*(?P<path>\S+)\s*$")
_FOR_ECHO = re.compile(
    r"^for\s+(?P<var>\w+)\s+in\s+(?P<paths>[^;]{1,300});\s*do\s+(?P<body>[^;]{1,300});\s*done\s*$"
)
_SYSCTL_ARG = re.compile(r"[./=]")  # a key (net.ipv4.tcp_rmem, net/core/x) or key=value, never a bare word
WRAPPERS = ("taskset", "numactl", "chrt", "nice", "sudo", "time", "env", "stdbuf")
_TYPED_KINDS = frozenset({"sysctl", "sysfs", "procfs", "ethtool", "tc"})
SETUP_PROGRAMS = ("sysctl", "ethtool", "tc", "ip", "echo", "for", "cpupower", "devlink", "ifconfig",
                  "modprobe", "sysfs")


def _split(raw: str) -> list[str]:
    try:
        return shlex.split(raw)
    except ValueError:
        return raw.split()


def parse_setup(raw: str, line: int, host: str | None = None, depth: int = 0) -> SetupStep | None:
    """The typed step `raw` is, or None when it is not a setup command."""
    text = raw.strip()[:1000]
    if not text:
        return None
    step = SetupStep(raw=text, kind="other", line=line, host=host, depth=depth)
    m = _FOR_ECHO.match(text)
    if m:
        body = _ECHO.match(m.group("body").strip())
        if body and body.group("path").strip("\"'${}") == m.group("var"):
            path = m.group("paths").split()[0]
            step.kind = _path_kind(path)
            step.key, step.value = path, body.group("val").strip().strip("\"'")
            return step
        return None
    m = _ECHO.match(text)
    if m:
        path = m.group("path").strip("\"'")
        if not path.startswith(("/sys/", "/proc/")):
            return None
        step.kind = _path_kind(path)
        step.key, step.value = path, m.group("val").strip().strip("\"'")
        return step
    argv = _split(text)
    if not argv:
        return None
    lead = privilege_prefix(argv)
    inner = shell_c(argv[lead:])
    if inner is not None:  # `sudo sh -c "echo 1 > /sys/..."`: the step is the quoted one
        quoted = parse_setup(inner, line, host, depth)
        if quoted is None or quoted.kind not in _TYPED_KINDS:
            return None
        quoted.raw = text
        return quoted
    if 0 < lead < len(argv):
        # `sudo sysctl -w ...`, `sudo ethtool -K ...`: the step is the rest; only kinds whose
        # action is typed (never the raw words run as written) keep the `sudo` in their raw
        tail = parse_setup(shlex.join(argv[lead:]), line, host, depth)
        if tail is None or tail.kind not in _TYPED_KINDS:
            return None
        tail.raw = text
        return tail
    prog = argv[0].rsplit("/", 1)[-1]
    step.args = argv[1:]
    if prog == "sysctl":
        kv = next((a for a in argv[1:] if "=" in a), None)
        if kv is None or not all(a.startswith("-") or _SYSCTL_ARG.search(a) for a in argv[1:]):
            return None  # sysctl reads keys and sets key=value; other words are prose
        step.kind = "sysctl"
        step.key, step.value = (p.strip() for p in kv.split("=", 1))
        return step
    if prog == "ethtool":
        opts = [a for a in argv[1:] if a.startswith("-") and a not in _ETHTOOL_MODIFIERS]
        rest = [a for a in argv[1:] if not a.startswith("-")]
        if not rest or not opts or _ethtool_query(opts[0]):
            return None  # `ethtool eth0`, `ethtool -S eth0`: a reading, not a setting
        step.kind = "ethtool"
        step.key = opts[0] if opts else None
        step.device = rest[0]
        step.value = " ".join(rest[1:]) or None
        return step
    if prog in ("tc", "ip") and not _CHANGES.intersection(argv[1:]):
        return None  # `tc -s qdisc show dev eth0`, `ip -s link`: a reading, not a setting
    if prog == "tc":
        step.kind = "tc"
        step.key = argv[1] if len(argv) > 1 else None
        step.device = _after(argv, "dev")
        return step
    if prog == "ip" and len(argv) > 2 and argv[1] in ("link", "l", "addr", "route", "netns", "rule"):
        step.kind = "ip"
        step.key = argv[1]
        step.device = _after(argv, "dev") or (argv[3] if len(argv) > 3 and argv[2] == "set" else None)
        return step
    if prog in ("taskset", "numactl"):
        step.kind = prog
        step.value = next((a for a in argv[1:] if not a.startswith("-")), None)
        return step
    return None


# ethtool's options that only read (statistics, rings, features, driver, coalescing shown)
_ETHTOOL_QUERIES = frozenset({"-a", "-c", "-g", "-i", "-k", "-l", "-m", "-n", "-u", "-x", "-d",
                              "-e", "-S", "-P", "-T", "-w", "--statistics", "--driver",
                              "--phy-statistics", "--module-info", "--permaddr", "--dump-regs",
                              "--dump-eeprom", "--dump-module-eeprom"})
_ETHTOOL_MODIFIERS = frozenset({"--json", "-I", "--debug", "--all-groups", "--include-statistics"})
# the words with which tc and ip change something; without one they show it
_CHANGES = frozenset({"add", "del", "delete", "change", "replace", "set", "flush", "exec",
                      "append", "prepend", "attach", "detach", "up", "down"})


def _ethtool_query(option: str) -> bool:
    return option in _ETHTOOL_QUERIES or option.startswith(("--show", "--get"))


def wrapper_step(prog: str, args: list[str], line: int, host: str | None, depth: int) -> SetupStep:
    """A taskset/numactl wrapper in front of a benchmark, as a step of its own kind."""
    value = next((a for a in args if not a.startswith("-")), None)
    return SetupStep(raw=" ".join([prog, *args]), kind=prog, line=line, value=value, host=host,
                     args=list(args), depth=depth)


def _after(argv: list[str], word: str) -> str | None:
    for i, a in enumerate(argv[:-1]):
        if a == word:
            return argv[i + 1]
    return None


def _path_kind(path: str) -> str:
    return "procfs" if path.startswith("/proc/") else "sysfs"


def variant_key(step: SetupStep) -> str:
    """A short name for what a step sets: the sysfs file name, sysctl key, ethtool option."""
    if step.kind in ("sysfs", "procfs") and step.key:
        return step.key.rstrip("/").rsplit("/", 1)[-1]
    if step.kind == "ethtool":
        return f"{step.device or ''} {step.key or ''}".strip()
    return step.key or step.kind
