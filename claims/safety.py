"""Safety checks for specs: the commands and setup steps in them come from strangers.

Nothing here runs anything.  A benchmark is accepted only as an argv whose every argument
its tool description accepts; shell syntax is refused wherever it appears; setup steps are
typed actions checked against an allow-list.  Actions that are not on the list but look
harmless are kept with a reason and need a person's `--approve`; everything dangerous
(path traversal, writes outside the allowed trees, shell syntax) is refused outright.

`check_spec(spec, approve=False)` is what a runner calls before it touches anything.
"""
from __future__ import annotations

import ast
import os
import re
import shlex
from dataclasses import dataclass
from functools import cache
from typing import Literal

from claims import sysctl_policy
from claims.spec import Action, Command, Spec
from claims.tools import tool_for_program, tool_programs
from claims.tools.base import Refused

Level = Literal["refused", "needs-approval"]

APPROVE_HINT = "needs approval (a person runs `verifier run --approve`)"

# Hard limits for the run plan: a spec file may be edited, or written by someone hostile.
MAX_REPETITIONS = 1000
MAX_DURATION = 3600.0
MAX_TIMEOUT = 4 * 3600.0
MAX_OUTPUT = 64 << 20
MAX_WARMUP = 100
MAX_SETTING = 1 << 24  # ring sizes, channel counts, usecs

SHELL_CHARS = {
    ";": "';' (command separator)", "&": "'&' (background/and)", "|": "'|' (pipe)",
    "`": "backtick (command substitution)", "$": "'$' (shell expansion)",
    ">": "'>' (redirection)", "<": "'<' (redirection)", "(": "'(' (subshell)",
    ")": "')' (subshell)", "{": "'{' (brace expansion)", "}": "'}' (brace expansion)",
    "*": "'*' (glob)", "?": "'?' (glob)", "!": "'!' (history expansion)",
    "~": "'~' (home expansion)", "\\": "backslash (escape)", "'": "quote", '"': "quote",
    "\n": "newline", "\r": "carriage return", "\t": "tab", " ": "space", "\0": "NUL byte",
}

# /sys/class/net/<dev>/<attr> attributes that tune the data path (and nothing else).
SYSFS_ATTRS = re.compile(
    r"^(gro_flush_timeout|napi_defer_hard_irqs|tx_queue_len|mtu|threaded|gro_max_size|"
    r"gso_max_size|gso_max_segs|queues/rx-\d+/(rps_cpus|rps_flow_cnt)|"
    r"queues/tx-\d+/(xps_cpus|xps_rxqs|tx_maxrate|byte_queue_limits/limit_(min|max)))$")
DEVICE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.:@-]{0,14}$")
VALUE = re.compile(r"^[A-Za-z0-9 _.:,/+\-]{0,256}$")

# Programs no approval makes acceptable as a setup step: shells, interpreters, deleters,
# downloaders, disk writers, power switches, and wrappers that run another program
# (`nohup X`, `timeout 5 X`, `ip netns exec NS X`), whose X no check would see.
NEVER_RUN = {"sh", "bash", "dash", "zsh", "ksh", "csh", "tcsh", "fish", "busybox", "toybox",
             "env", "sudo", "su", "doas", "pkexec", "runuser", "eval", "exec", "command",
             "builtin", "source", ".", "python", "perl", "ruby", "node", "nodejs", "deno",
             "bun", "lua", "luajit", "php", "tclsh", "wish", "expect", "java", "awk", "gawk",
             "mawk", "nawk", "sed", "rm", "rmdir", "unlink", "dd", "mkfs", "shred", "truncate",
             "mv", "cp", "ln", "install", "mknod", "mkfifo", "chmod", "chown", "chgrp",
             "chattr", "setfacl", "curl", "wget", "nc", "ncat", "netcat", "socat", "telnet",
             "ftp", "tftp", "rsync", "ssh", "scp", "sftp", "reboot", "shutdown", "poweroff",
             "halt", "kexec", "insmod", "rmmod", "crontab", "at", "batch",
             "systemctl", "systemd-run", "service", "tee", "touch", "xargs", "find", "git",
             "make", "nohup", "timeout", "setsid", "nice", "ionice", "chrt", "stdbuf",
             "unshare", "nsenter", "chroot", "strace", "ltrace", "gdb", "script", "watch",
             "flock", "time", "parallel", "kill", "pkill", "killall", "mount", "umount",
             "losetup", "tar", "unzip", "gzip", "gunzip", "docker", "podman", "apt", "apt-get",
             "dpkg", "rpm", "yum", "dnf", "pip", "pip3", "npm", "vi", "vim", "ed", "ex",
             "emacs", "nano", "less", "more", "man", "bpftool", "tcpdump"}
# Versioned interpreters: python3.11, perl5.36, ruby3.1, lua5.4, php8.2, pypy3, node18.
_INTERPRETER = re.compile(r"^(?:python|pypy|perl|ruby|lua|luajit|php|node|tclsh|wish|java)"
                          r"[\d.]*$")
# Subcommands that make a listed program run another one (`ip netns exec NS X`,
# `ip vrf exec VRF X`), and option values that are a program to run.
_EXEC_WORDS = {"exec", "-exec", "--exec", "-e"}
# Where a program a spec names may live: the system's directories, never a spec's own path.
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def never_run(program: str) -> bool:
    """True for a program no approval lets run as a setup step."""
    name = program.rsplit("/", 1)[-1].lower()
    return name in NEVER_RUN or _INTERPRETER.match(name) is not None


def program_path_problem(program: str) -> str | None:
    """Why `program` (argv[0] of a spec) may not run from where it says, or None.

    A bare name is looked up on the system's PATH; a path is accepted only when it is the
    file that lookup finds (`/usr/bin/netperf`), never a spec's `/tmp/x/netperf`."""
    if "/" not in program:
        return None
    import shutil

    name = program.rsplit("/", 1)[-1]
    found = shutil.which(name, path=SYSTEM_PATH)
    if found is None or os.path.realpath(found) != os.path.realpath(program):
        return (f"{program!r} is not the system's {name} (programs run from "
                f"{SYSTEM_PATH.replace(':', ', ')} only)")
    return None


@cache
def denied_options() -> dict[str, frozenset[str]]:
    """Program -> options refused whatever its description's grammar says (files written,
    programs run, detaching), from the descriptions' `denied_options`: a second guard,
    because a grammar and its deny list are written separately and one may miss an option."""
    out: dict[str, frozenset[str]] = {}
    for prog, tool, server in tool_programs():
        out[prog] = out.get(prog, frozenset()) | (
            tool.server_denied_options if server else tool.denied_options)
    return out


@cache
def count_limits() -> dict[str, dict[str, float]]:
    """Program -> option -> the largest count accepted (`perf stat -r`, `iperf3 -P`), from
    the descriptions' `count_limits`: counts that make one run last hours."""
    out: dict[str, dict[str, float]] = {}
    for prog, tool, server in tool_programs():
        if not server:
            out.setdefault(prog, {}).update(tool.count_limits)
    return out


ETHTOOL_SUBS = {"-K": "features", "--features": "features", "--offload": "features",
                "-C": "coalesce", "--coalesce": "coalesce", "-G": "ring", "--set-ring": "ring",
                "-L": "channels", "--set-channels": "channels"}
# Writes firmware/EEPROM, dumps to files or resets the device: no approval makes it a benchmark
# setting.  Other ethtool changes (speed, pause, flow rules) need a person's approval.
ETHTOOL_DANGEROUS = {"-E", "--change-eeprom", "-f", "--flash", "-W", "--set-dump", "-w",
                     "--get-dump", "--reset", "--set-phy-tunable", "--set-module"}
ETHTOOL_KEYS = {
    "features": re.compile(r"^[a-z][a-z0-9-]{0,63}$"),
    "coalesce": re.compile(r"^(adaptive-(rx|tx)|(rx|tx)-(usecs|frames)(-irq|-low|-high)?|"
                           r"stats-block-usecs|pkt-rate-(low|high)|sample-interval|"
                           r"cqe-mode-(rx|tx)|(rx|tx)-aggr-(max-bytes|max-frames|time-usecs))$"),
    "ring": re.compile(r"^(rx|rx-mini|rx-jumbo|tx|rx-buf-len|cqe-size|tx-push|rx-push|"
                       r"tcp-data-split)$"),
    "channels": re.compile(r"^(rx|tx|other|combined)$"),
}
SETTING_VALUE = re.compile(r"^(on|off|auto|\d{1,9})$")

QDISCS = {"pfifo_fast", "pfifo", "bfifo", "fq", "fq_codel", "codel", "mq", "mqprio", "netem",
          "tbf", "htb", "prio", "noqueue", "cake", "sfq", "red", "hfsc", "fq_pie", "pie",
          "ingress", "clsact", "multiq", "skbprio", "taprio", "ets"}
TC_VERBS = {"add", "replace", "del", "delete", "change"}


@dataclass
class Problem:
    """Why (part of) a spec may not run: where in the spec, the reason, and how bad."""

    where: str  # "benchmark.argv[3]", "variants[1].setup[0]"
    reason: str
    level: Level = "refused"

    def __str__(self) -> str:
        return f"{self.where}: {self.reason}"


# ---------------------------------------------------------------------------------------
# Commands


def shell_syntax(token: str) -> str | None:
    """The first shell metacharacter in `token`, described, or None."""
    for ch in token:
        if ch in SHELL_CHARS:
            return SHELL_CHARS[ch]
        if ord(ch) < 32 or ord(ch) == 127:
            return f"control character {ord(ch):#04x}"
    return None


def raw_syntax(raw: str, bound: set[str] | frozenset[str] = frozenset()) -> str | None:
    """Shell operators in the command as written in the mail: a reason, or None.

    Variables listed in `bound` (`$peer`) were replaced from host roles and are allowed;
    every other expansion, substitution, operator or redirection is a refusal.
    """
    text = raw
    for b in sorted(bound, key=len, reverse=True):
        text = text.replace(b, "BOUND")
    text = re.sub(r"\$\(\([^()]{1,40}\)\)",
                  lambda m: "CONST" if constant_arith(m.group(0)) is not None else m.group(0), text)
    if "$(" in text or "`" in text:
        return "command substitution ($(...) or backticks)"
    for ch in ";&|<>":  # quoted or not: nothing from a mail needs them in an argument
        if ch in text:
            return f"shell syntax {SHELL_CHARS[ch]}"
    m = re.search(r"\$\{?[A-Za-z_][A-Za-z0-9_]*|\$[0-9@*#?$!-]", text)
    if m:
        return f"shell variable {m.group(0)!r} that no host role binds"
    try:
        lex = shlex.shlex(text, posix=True, punctuation_chars=";&|<>()")
        lex.whitespace_split = True
        tokens = list(lex)
    except ValueError as e:
        return f"unbalanced quoting ({e})"
    for tok in tokens:
        if tok and set(tok) <= set(";&|<>()"):
            return f"shell operator {tok!r}"
    return None


def constant_arith(tok: str) -> str | None:
    """The value of `$((64*1024))`-style arithmetic on integer literals, else None."""
    m = re.fullmatch(r"\$\(\(([\d\s+\-*/()]{1,40})\)\)", tok)
    if not m:
        return None
    try:
        tree = ast.parse(m.group(1).strip(), mode="eval")
    except SyntaxError:
        return None
    ops = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
           ast.Mult: lambda a, b: a * b, ast.Div: lambda a, b: a // b,
           ast.FloorDiv: lambda a, b: a // b}

    def ev(n: ast.AST) -> int:
        if isinstance(n, ast.Constant) and isinstance(n.value, int):
            return n.value
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            return -ev(n.operand)
        if isinstance(n, ast.BinOp) and type(n.op) in ops:
            left, right = ev(n.left), ev(n.right)
            if abs(left) > 1 << 40 or abs(right) > 1 << 40:
                raise ValueError("too large")
            return ops[type(n.op)](left, right)
        raise ValueError("not constant arithmetic")

    try:
        return str(ev(tree.body))
    except (ValueError, ZeroDivisionError):
        return None


def check_command(cmd: Command, where: str = "benchmark",
                  server_of: Command | None = None) -> list[Problem]:
    """Problems of one command: shell syntax, unknown tool, options its description refuses.

    `server_of` is the benchmark when `cmd` is its server side (netserver): that program
    need not have a description of its own, but must be one the benchmark's tool names.
    """
    probs: list[Problem] = []
    if cmd.original:
        why = raw_syntax(cmd.original, set(cmd.bindings))
        if why:
            probs.append(Problem(f"{where}.original", f"refused: {why}"))
    if not cmd.argv:
        return probs + [Problem(f"{where}.argv", "no command line (the mail gives none)")]
    for i, tok in enumerate(cmd.argv):
        why = shell_syntax(tok)
        if why:
            probs.append(Problem(f"{where}.argv[{i}]",
                                 f"refused: {tok!r} contains {why}; commands run without a shell"))
    if probs:
        return probs
    why = program_path_problem(cmd.argv[0])
    if why:
        return [Problem(f"{where}.argv[0]", f"refused: {why}")]
    program = cmd.argv[0].rsplit("/", 1)[-1]
    if server_of is not None:
        return probs + _check_server(cmd, program, server_of, where)
    tool = tool_for_program(program)
    if tool is None:
        return [Problem(f"{where}.argv[0]", f"refused: unknown tool {program!r}")]
    if cmd.tool != tool.name:
        probs.append(Problem(f"{where}.tool",
                             f"refused: tool {cmd.tool!r} does not match program {program!r}"))
    probs += _denied_all(cmd.argv, where)
    try:
        parsed = tool.parse_args(cmd.argv)
    except Refused as e:
        probs.append(Problem(f"{where}.argv", f"refused: {e}"))
    except Exception as e:  # a description bug must not let a command through
        probs.append(Problem(f"{where}.argv", f"refused: {tool.name} cannot read it ({e})"))
    else:
        host = parsed.get("host")
        if host is not None and cmd.peer_role is None and not _loopback(host):
            probs.append(Problem(f"{where}.peer_role", f"refused: the command names host "
                                 f"{host!r} and no role's address replaces it (peer_role is "
                                 "null); commands reach the runner's own hosts only"))
    return probs


def _loopback(host: str) -> bool:
    return host in ("localhost", "::1", "ip6-localhost") or host.startswith("127.")


def _denied_all(argv: list[str], where: str) -> list[Problem]:
    """Deny-list checks on a command and, for `perf stat CMD`, on the command it wraps."""
    program = argv[0].rsplit("/", 1)[-1]
    if program != "perf":
        return _denied(argv, program, where)
    for i in range(2, len(argv)):
        tok = argv[i]
        inner = tool_for_program(tok) if not tok.startswith("-") else None
        if inner is not None and inner.name != "perf":
            return (_denied(argv[:i], "perf", where)
                    + _denied(argv[i:], tok.rsplit("/", 1)[-1], where, i))
    return _denied(argv, "perf", where)


def _denied(argv: list[str], program: str, where: str, offset: int = 0) -> list[Problem]:
    """Options refused whatever the description says, and counts above the limits."""
    denied = denied_options().get(program, frozenset())
    limits = count_limits().get(program, {})
    probs = []
    for i, tok in enumerate(argv[1:], 1):
        name = tok.split("=", 1)[0]
        val = tok.split("=", 1)[1] if "=" in tok else (argv[i + 1] if i + 1 < len(argv) else "")
        if name not in limits and name[:2] in limits and not name.startswith("--"):
            name, val = name[:2], tok[2:] or val  # -n100000000
        if name in limits and re.fullmatch(r"[+-]?\d+(\.\d+)?([eE]\d+)?", val) \
                and abs(float(val)) > limits[name]:
            probs.append(Problem(f"{where}.argv[{i + offset}]", f"refused: {program} {name} {val} is "
                                 f"above the limit {limits[name]:g}"))
            continue
        name = tok.split("=", 1)[0]
        if name in denied or (name[:2] in denied and not name.startswith("--")):
            probs.append(Problem(f"{where}.argv[{i + offset}]",
                                 f"refused: {program} option {name} writes files or runs programs"))
    return probs


def _check_server(cmd: Command, program: str, bench: Command, where: str) -> list[Problem]:
    btool = tool_for_program(bench.argv[0]) if bench.argv else None
    inner = getattr(btool, "inner_tool", None)
    if inner is not None:  # `perf stat -- netperf ...`: the server is the wrapped tool's
        try:
            btool = inner(btool.parse_args(bench.argv))  # type: ignore[union-attr]
        except Refused:
            btool = None
    own = tool_for_program(program)
    if btool is None or (program not in btool.server_programs and own is not btool):
        return [Problem(f"{where}.argv[0]", f"refused: {program!r} is not the server of "
                        f"{bench.tool}")]
    probs = _denied(cmd.argv, program, where)
    if own is not None and own is not btool:
        try:
            own.parse_args(cmd.argv)
        except Refused as e:
            probs.append(Problem(f"{where}.argv", f"refused: {e}"))
    return probs


# ---------------------------------------------------------------------------------------
# Setup actions


def check_action(a: Action) -> Problem | None:
    """None when `a` is on the allow-list, else a refusal or a needs-approval problem.

    The returned problem's `where` is empty; `check_spec` fills in the position.
    """
    for name, val in (("key", a.key), ("value", a.value), ("device", a.device)):
        if val is None:
            continue
        why = shell_syntax(val.replace(" ", "") if name == "value" else val)  # "4096 87380"
        if why:
            return Problem("", f"refused: {name} {val!r} contains {why}")
    for tok in [*a.args, *a.settings.keys(), *a.settings.values()]:
        why = shell_syntax(tok)
        if why:
            return Problem("", f"refused: argument {tok!r} contains {why}")
    if a.device is not None and not DEVICE.match(a.device):
        return Problem("", f"refused: {a.device!r} is not an interface name")
    if a.args and "/" in a.args[0] and not a.args[0].startswith("/sys/") \
            and not a.args[0].startswith("/proc/"):
        why = program_path_problem(a.args[0])  # `/tmp/x/tc qdisc ...`: never a spec's program
        if why:
            return Problem("", f"refused: {why}")
    check = _ACTION_CHECKS.get(a.kind)
    if check is None:
        return _check_unlisted(a)
    return check(a)


def _check_unlisted(a: Action) -> Problem:
    """A step off the allow-list: a person may approve it, unless it is plainly hostile."""
    if a.raw:
        why = raw_syntax(a.raw)
        if why:
            return Problem("", f"refused: {why} in {a.raw!r}")
    prog = (a.args[0].rsplit("/", 1)[-1] if a.args else "")
    for tok in a.args:  # wrappers hide the program they run anywhere in the argv
        if never_run(tok):
            return Problem("", f"refused: {tok.rsplit('/', 1)[-1]} is never run")
    if prog == "ip" and _EXEC_WORDS.intersection(a.args):
        return Problem("", "refused: ip ... exec runs another program")
    if a.args:
        why = program_path_problem(a.args[0])
        if why:
            return Problem("", f"refused: {why}")
    if a.raw:
        try:
            words = shlex.split(a.raw)
        except ValueError:
            words = a.raw.split()
        bad = next((w for w in words if never_run(w)), None)
        if bad is not None:
            return Problem("", f"refused: {bad.rsplit('/', 1)[-1]} is never run")
    return Problem("", f"{a.kind} step is not on the allow-list: {APPROVE_HINT}",
                   "needs-approval")


def _check_value(a: Action) -> Problem | None:
    if a.value is None or not VALUE.match(a.value):
        return Problem("", f"refused: value {a.value!r} is not a plain setting")
    return None


def _check_sysctl(a: Action) -> Problem | None:
    """claims.sysctl_policy decides; a per-namespace key must also exist on this kernel (a
    host-global one is checked by the runner on its own host, once a person approved it)."""
    ruling = sysctl_policy.rule(a.key or "")
    if ruling.level == "refused":
        return Problem("", f"refused: {ruling.reason}")
    bad = _check_value(a)
    if bad is not None:
        return bad
    if ruling.level == "needs-approval":
        return Problem("", f"{ruling.reason}: {APPROVE_HINT}", "needs-approval")
    # per-device keys (net.ipv4.conf.eth0.rp_filter): the mail's device is mapped by the
    # runner, so check the key on the template every kernel has ("default")
    generic = re.sub(r"^(net\.ipv[46]\.(?:conf|neigh))\.[^.]+\.", r"\1.default.", ruling.key)
    if not os.path.isfile(sysctl_policy.proc_path(generic)):
        return Problem("", f"refused: sysctl {ruling.key} does not exist on this machine")
    return None


def _check_procfs(a: Action) -> Problem | None:
    path = a.key or ""
    if ".." in path.split("/") or "//" in path:
        return Problem("", f"refused: path traversal in {path!r}")
    if not path.startswith("/proc/sys/net/"):
        return Problem("", f"refused: {path!r} is outside /proc/sys/net/")
    real = os.path.realpath(path)
    if not real.startswith("/proc/sys/net/"):
        return Problem("", f"refused: {path!r} leads outside /proc/sys/net/")
    if not os.path.isfile(real):
        return Problem("", f"refused: {path} does not exist on this machine")
    return _check_sysctl(a)  # a /proc/sys file is a sysctl: one policy for both spellings


_SYSFS = re.compile(r"^/sys/class/net/([^/]+)/(.+)$")


def _check_sysfs(a: Action) -> Problem | None:
    path = a.key or ""
    parts = path.split("/")
    if ".." in parts or "." in parts or "//" in path:
        return Problem("", f"refused: path traversal in {path!r}")
    m = _SYSFS.match(path)
    if not m:
        return Problem("", f"refused: {path!r} is not /sys/class/net/<dev>/<attr>")
    dev, attr = m.groups()
    if not DEVICE.match(dev):
        return Problem("", f"refused: {dev!r} is not an interface name")
    if a.device is not None and a.device != dev:
        return Problem("", f"refused: device {a.device!r} does not match the path {path!r}")
    if not SYSFS_ATTRS.match(attr):
        if "/" in attr:  # device/, subsystem/, master/: symlinks out of the device's tree
            return Problem("", f"refused: {attr!r} leaves /sys/class/net/<dev>/")
        return Problem("", f"sysfs attribute {attr} is not on the allow-list: {APPROVE_HINT}",
                       "needs-approval")
    if os.path.lexists(path):  # the mail's device exists here: the real file must stay inside
        real = os.path.realpath(path)
        if not (real.startswith("/sys/devices/") and real.endswith(f"/net/{dev}/{attr}")):
            return Problem("", f"refused: {path!r} leads outside the device's directory")
    return _check_value(a)


def _check_ethtool(a: Action) -> Problem | None:
    sub = ETHTOOL_SUBS.get(a.key or "", a.key)
    if a.key in ETHTOOL_DANGEROUS or any(t in ETHTOOL_DANGEROUS for t in a.args):
        return Problem("", f"refused: ethtool {a.key or ''} changes more than a data-path knob")
    if sub not in ETHTOOL_KEYS:
        return Problem("", f"ethtool {a.key} is not on the allow-list: {APPROVE_HINT}",
                       "needs-approval")
    if a.device is None:
        return Problem("", "refused: ethtool step names no device")
    if not a.settings:
        return Problem("", "refused: ethtool step has no settings")
    for k, v in a.settings.items():
        if not ETHTOOL_KEYS[sub].match(k):
            return Problem("", f"ethtool {sub} setting {k!r} is not on the allow-list: "
                           f"{APPROVE_HINT}", "needs-approval")
        if not SETTING_VALUE.match(v) or (v.isdigit() and int(v) > MAX_SETTING):
            return Problem("", f"refused: ethtool {sub} {k} value {v!r} is not accepted")
    return None


def _check_tc(a: Action) -> Problem | None:
    args = list(a.args)
    if args[:1] == ["tc"]:
        args = args[1:]
    if len(args) < 2 or args[0] != "qdisc":
        return Problem("", f"tc {' '.join(args[:1])} is not on the allow-list: {APPROVE_HINT}",
                       "needs-approval")
    if args[1] not in TC_VERBS:
        return Problem("", f"refused: tc qdisc {args[1]!r} is not add/replace/change/del")
    if "dev" not in args or args.index("dev") + 1 >= len(args):
        return Problem("", "refused: tc qdisc step names no device")
    dev = args[args.index("dev") + 1]
    if not DEVICE.match(dev) or (a.device is not None and dev != a.device):
        return Problem("", f"refused: tc device {dev!r} is not accepted")
    if args[1] not in ("del", "delete") and not any(t in QDISCS for t in args[2:]):
        return Problem("", f"tc qdisc kind is not on the allow-list: {APPROVE_HINT}",
                       "needs-approval")
    for tok in args:
        if not re.match(r"^[A-Za-z0-9_.:%/+\-]{1,64}$", tok) or ".." in tok:
            return Problem("", f"refused: tc argument {tok!r} is not accepted")
    return None


def _check_cpu_pin(a: Action) -> Problem | None:
    if not a.value or not re.match(r"^\d{1,4}([-,]\d{1,4})*$", a.value):
        return Problem("", f"refused: CPU list {a.value!r} is not accepted")
    return None


_ACTION_CHECKS = {"sysctl": _check_sysctl, "procfs": _check_procfs, "sysfs": _check_sysfs,
                  "ethtool": _check_ethtool, "tc": _check_tc, "cpu-pin": _check_cpu_pin}


def sysfs_target(a: Action, device: str) -> str:
    """The file a sysfs action writes once the runner mapped the mail's device to `device`.

    Raises Refused unless the resolved file is the device's own attribute (no symlink or
    traversal out of its directory).  Runners call this right before writing.
    """
    p = check_action(a)
    if p is not None and p.level == "refused":
        raise Refused(p.reason)
    m = _SYSFS.match(a.key or "")
    if not m or not DEVICE.match(device):
        raise Refused(f"not a sysfs attribute: {a.key!r} on {device!r}")
    path = f"/sys/class/net/{device}/{m.group(2)}"
    real = os.path.realpath(path)
    if not (real.startswith("/sys/devices/") and real.endswith(f"/net/{device}/{m.group(2)}")):
        raise Refused(f"{path} leads outside the device's directory")
    return real


# ---------------------------------------------------------------------------------------
# The whole spec


def check_run_plan(spec: Spec) -> list[Problem]:
    r = spec.run
    probs = []
    limits = [("repetitions", r.repetitions, MAX_REPETITIONS),
              ("max_repetitions", r.max_repetitions, MAX_REPETITIONS),
              ("duration_cap", r.duration_cap, MAX_DURATION),
              ("duration", r.duration or 0, r.duration_cap),
              ("timeout", r.timeout, MAX_TIMEOUT), ("output_cap", r.output_cap, MAX_OUTPUT),
              ("warmup", r.warmup, MAX_WARMUP)]
    for name, val, cap in limits:
        if val > cap:
            probs.append(Problem(f"run.{name}", f"refused: {val:g} is above the limit {cap:g}"))
    return probs


def check_spec(spec: Spec, approve: bool = False) -> list[Problem]:
    """Every reason this spec may not run here; empty means it may.

    With `approve=True` (a person's `--approve`, never the bot's) actions that only need
    approval pass; refusals never do.  The `approved` flag inside a spec file is not trusted.
    """
    probs = check_command(spec.benchmark, "benchmark")
    if spec.server is not None:
        probs += check_command(spec.server, "server", server_of=spec.benchmark)
    for role in [spec.benchmark.role, spec.benchmark.peer_role]:
        if role is not None and role not in spec.roles:
            probs.append(Problem("benchmark", f"refused: role {role!r} is not in roles"))
    for vi, var in enumerate(spec.variants):
        for ai, act in enumerate(var.setup):
            where = f"variants[{vi}].setup[{ai}]"
            bad = [r for r in act.roles if r not in spec.roles]
            if bad:
                probs.append(Problem(where, f"refused: roles {bad} are not in roles"))
            p = check_action(act)
            if p is None or (approve and p.level == "needs-approval"):
                continue
            p.where = where
            probs.append(p)
    return probs + check_run_plan(spec)


def blocking(problems: list[Problem], approve: bool = False) -> list[Problem]:
    """The problems that stop a run (all of them, unless a person approved)."""
    return [p for p in problems if p.level == "refused" or not approve]
