"""Benchmark commands in a message: prompted shell lines, bare command lines, commands named
in prose ("while doing iperf -P 4") and the command in a `perf stat` header.

Also collects the setup steps written as shell lines, in order, because a later stage reads
the sequence "setup, command, output, setup, command, output" as variants of one benchmark.
"""
from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from claims.model import Command, Line, SetupStep
from claims.setup_steps import SETUP_PROGRAMS, parse_setup, wrapper_step

BENCH_PROGRAMS = frozenset({
    "netperf", "iperf", "iperf3", "sockperf", "super_netperf", "neper", "tcp_rr", "tcp_stream",
    "tcp_crr", "udp_rr", "udp_stream", "xdpsock", "xdp-bench", "xdp_redirect", "xdp_redirect_map",
    "xdp_redirect_cpu", "xdp_rxq_info", "xdp1", "xdp2", "trafgen", "mausezahn", "pktgen",
    "sembench", "tbench", "dbench", "hackbench", "fio", "sysbench", "schbench", "redis-benchmark",
    "memtier_benchmark", "wrk", "wrk2", "ab", "qperf", "uperf", "nuttcp", "ethr", "stress-ng",
    "ebizzy", "pgbench", "udpgso_bench_tx", "udpgso_bench_rx", "tcp_mmap", "msg_zerocopy",
    "lat_tcp", "lat_udp", "bw_tcp", "lat_ctx", "lat_syscall", "will-it-scale", "perf",
    "netbench", "moongen", "testpmd", "dpdk-testpmd", "io_uring-bench", "t/io_uring",
    "tcp_bench", "ping", "kselftest", "bench", "memcached", "mutilate",
    "aim7", "reaim", "lmbench", "unixbench", "blogbench", "vng", "kperf", "xdp-trafficgen",
})
# Programs whose invocations count as benchmark commands only behind a shell prompt.
_NOT_BENCH = frozenset({
    "cat", "ls", "cd", "make", "git", "grep", "egrep", "dmesg", "modprobe", "insmod", "rmmod",
    "mount", "umount", "vi", "vim", "less", "more", "head", "tail", "cp", "mv", "rm", "mkdir",
    "export", "source", ".", "echo", "printf", "uname", "lspci", "lscpu", "ps", "top", "kill",
    "killall", "pkill", "watch", "ssh", "scp", "dd", "gcc", "clang", "tar", "wget", "curl",
    "apt", "yum", "dnf", "pip", "python", "python3", "bpftool", "tcpdump", "ss", "netstat",
    "ifconfig", "ip", "tc", "sysctl", "ethtool", "for", "while", "if", "then", "done", "fi",
    "bash", "sh", "cpupower", "devlink", "exit", "su", "sleep", "wait", "true", "false", "set",
    "diff", "patch", "b4", "sed", "awk", "sort", "uniq", "wc", "find", "xargs", "tee", "chmod",
    "chown", "ln", "touch", "date", "history", "clear", "reboot", "journalctl", "systemctl",
})
_WRAPPER_ARGS = {"sudo": 0, "time": 0, "nice": 0, "stdbuf": 0, "env": 0, "taskset": 1, "chrt": 1,
                 "numactl": 0, "perf": 0}

_PROMPT = re.compile(
    r"^\s*(?:\[(?:[\w.-]+@)?(?P<h1>[\w.-]+)[^\]\n]{0,60}\]|(?:[\w.-]+@)?(?P<h2>[\w.-]+):[^\s#$]{0,80}"
    r"|(?P<h3>[A-Za-z][\w.-]*(?=[#$]))|~)?\s?[#$]\s+(?P<rest>\S.*)$"
)
_PERF_HEADER = re.compile(r"Performance counter stats for '(?P<cmd>[^'\n]{1,500})'")
_VAR = re.compile(r"\$\{?(\w+)\}?|\$\(\((?P<arith>[^)]{1,80})\)\)")
_BULLET = re.compile(r"^\s*(?:[-*•]\s+|\d{1,2}[.)]\s+)?`?")
_PROSE_PROG = re.compile(
    r"(?<![\w/.-])(?P<prog>(?:\./|[\w.-]*/)?(?:" + "|".join(
        re.escape(p) for p in sorted(BENCH_PROGRAMS, key=len, reverse=True) if p not in ("bench", "perf", "ping", "ab"))
    + r"))\s+(?:(?P<sub>(?!(?:with|and|or|on|in|at|to|for|using|the|a|an|is|was|runs?)\s)[a-z][a-z-]{1,15})\s+)?(?=-)"
)
_OPT = re.compile(r"^--?[A-Za-z][\w-]*(?:=\S*)?$|^-[A-Za-z]\S*$")
_ARG = re.compile(r"^[\w$@%:.,/=+<>(){}\[\]-]{1,120}$")


@dataclass
class ShellEvent:
    """A command or setup step at a line index, in message order."""

    index: int  # index into the message's lines
    last: int  # last line index (continuations)
    command: Command | None = None
    setup: SetupStep | None = None
    prose_after: bool = False  # "neper tcp_rr -T 32: before 4.2M, after 4.5M": results follow


@dataclass
class Found:
    commands: list[Command] = field(default_factory=list)
    setup: list[SetupStep] = field(default_factory=list)
    events: list[ShellEvent] = field(default_factory=list)
    used: set[int] = field(default_factory=set)  # line indexes that are shell lines


def split_argv(raw: str) -> list[str]:
    try:
        return shlex.split(raw)
    except ValueError:
        return raw.split()


def program_of(argv: Sequence[str]) -> tuple[str, list[str], int]:
    """The benchmark program behind wrappers: (basename, wrappers, index of program)."""
    wrappers: list[str] = []
    i = 0
    while i < len(argv):
        base = argv[i].rsplit("/", 1)[-1]
        if base in _WRAPPER_ARGS:
            if base == "perf" and i + 1 < len(argv) and argv[i + 1] == "stat":
                j = i + 2
                while j < len(argv) and argv[j].startswith("-"):
                    j += 2 if argv[j] in ("-r", "-e", "-C", "-x", "-o", "-p", "-I", "-G") else 1
                if j >= len(argv) or (argv[j] == "sleep" and "-a" in argv[i + 2:j]):
                    return base, wrappers, i  # "perf stat -a -- sleep 10": perf is the tool
                wrappers.append("perf stat")
                i = j
                continue
            if base == "perf":
                return base, wrappers, i
            j = i + 1
            while j < len(argv) and (argv[j].startswith("-") or "=" in argv[j]):
                j += 2 if base in ("nice", "chrt") and argv[j] in ("-n", "-p") else 1
            j += _WRAPPER_ARGS[base]
            wrappers.append(base)
            i = j
            continue
        if base == "ip" and argv[i + 1:i + 3] == ["netns", "exec"]:
            wrappers.append("ip netns exec")
            i += 4
            continue
        return base, wrappers, i
    return "", wrappers, len(argv)


def make_command(raw: str, line: int, host: str | None, depth: int, in_prose: bool = False,
                 author: str | None = None) -> Command:
    from claims.tools import tool_for_program

    argv = split_argv(raw)
    prog, wrappers, at = program_of(argv)
    tool = tool_for_program(prog) if prog else None
    variables = []
    for m in _VAR.finditer(raw):
        if m.group(1):
            variables.append(m.group(1))
        elif m.group("arith"):
            variables.extend(re.findall(r"[A-Za-z_]\w*", m.group("arith")))
    return Command(raw=raw, line=line, tool=tool.name if tool else (prog or None), argv=argv[at:],
                   host=host, variables=list(dict.fromkeys(variables)), wrappers=wrappers,
                   in_prose=in_prose, depth=depth, author=author)


def strip_prompt(text: str) -> tuple[bool, str | None, str]:
    """(had a prompt, host it names, the rest)."""
    m = _PROMPT.match(text[:2000])
    if not m:
        return False, None, text
    host = m.group("h1") or m.group("h2") or m.group("h3")
    return True, host, m.group("rest")


def _is_bench(prog: str) -> bool:
    return prog in BENCH_PROGRAMS or prog.startswith(("pktgen_", "xdp_", "udpgso_bench", "super_netperf"))


def _tool_accepts(argv: list[str]) -> bool:
    """The tool's own grammar takes the whole command ("xdp-bench drop eth0": a mode and an
    interface, no option), which a sentence starting with the tool's name never passes."""
    from claims.tools import tool_for_program

    tool = tool_for_program(argv[0]) if len(argv) > 1 else None
    if tool is None or not getattr(tool, "subcommand", False):
        return False
    try:
        tool.parse_args(argv)
    except Exception:  # noqa: BLE001 - Refused, or a broken tool module: not a command
        return False
    return True


def _looks_like_args(args: list[str]) -> bool:
    """Option-like arguments, not a sentence that starts with a program's name."""
    if not args:
        return False
    # "sockperf ping-pong -i ...", "super_netperf 200 -H ..." (a subcommand or a count first)
    subcommand = re.fullmatch(r"[a-z][a-z_-]{0,15}|\d{1,5}", args[0]) is not None and len(args) > 1 \
        and args[1].startswith("-")
    if not (args[0].startswith(("-", "$")) or args[0] in ("stat", "bench", "record") or subcommand):
        return False
    loose = 0
    after_option = False
    for a in args[:40]:
        if not (_ARG.match(a) or a.startswith(("-", "$", "'", '"'))):
            return False
        if a.startswith("-"):
            after_option = not a.endswith(".")
            if a.endswith(".") and len(a) > 2:
                return False
            continue
        if not after_option and re.fullmatch(r"[A-Za-z]+[.,]?", a):
            loose += 1
        after_option = False
    return loose <= 2


@lru_cache(maxsize=1)
def _tool_programs() -> frozenset[str]:
    from claims.tools import all_tools

    try:
        return frozenset(p for t in all_tools() for p in t.programs)
    except Exception:  # a broken tool module must not stop command recognition
        return frozenset()


def _known_program(prog: str) -> bool:
    return _is_bench(prog) or prog in _tool_programs()


def find_commands(lines: Sequence[Line], skip: set[int] | None = None) -> Found:
    """Every command and setup step in `lines` (indexes in `skip` are not read)."""
    found = Found()
    skip = skip or set()
    i = 0
    n = len(lines)
    while i < n:
        if i in skip:
            i += 1
            continue
        ln = lines[i]
        text = ln.text[:2000].replace("\xa0", " ")
        prompted, host, rest = strip_prompt(text)
        if not prompted:
            rest = _BULLET.sub("", text, count=1).strip().rstrip("`")
        last = i
        while rest.endswith("\\") and last + 1 < n and last - i < 20:
            last += 1
            rest = rest[:-1].rstrip() + " " + lines[last].text.replace("\xa0", " ").strip()
        rest = rest.strip()
        event = _line_event(rest, prompted, host, ln, i, last) if _worth_parsing(rest, prompted) else None
        if event is not None:
            found.events.append(event)
            if not event.prose_after:
                found.used.update(range(i, last + 1))
            i = last + 1
            continue
        _prose_commands(text, ln, i, found)
        i += 1
    for ev in found.events:
        if ev.command is not None:
            found.commands.append(ev.command)
        if ev.setup is not None:
            found.setup.append(ev.setup)
    return found


_FIRST_WORD = re.compile(r"^\S+")
_ALWAYS = frozenset(BENCH_PROGRAMS | set(SETUP_PROGRAMS) | set(_WRAPPER_ARGS) | {"ip", "taskset", "numactl"})


def _worth_parsing(rest: str, prompted: bool) -> bool:
    """A cheap look at the first word before the costly argv parse."""
    m = _FIRST_WORD.match(rest)
    if not m:
        return False
    if prompted:
        return True
    first = m.group().rsplit("/", 1)[-1]
    return first in _ALWAYS or _known_program(first)


def _line_event(rest: str, prompted: bool, host: str | None, ln: Line, i: int,
                last: int) -> ShellEvent | None:
    if not rest or len(rest) > 1500:
        return None
    if not prompted and rest.endswith(".") and not rest.endswith(".."):
        rest = rest[:-1]  # a command that ends a sentence
    head, results = _results_after(rest) if not prompted else (rest, False)
    if results:
        ev = _line_event(head, prompted, host, ln, i, last)
        if ev is not None:
            ev.prose_after = True
        return ev
    argv = split_argv(rest)
    if not argv:
        return None
    first = argv[0].rsplit("/", 1)[-1]
    in_netns = first == "ip" and argv[1:3] == ["netns", "exec"] and _known_program(program_of(argv)[0])
    if not in_netns and (first in SETUP_PROGRAMS or first in ("taskset", "numactl") and len(argv) < 3):
        step = parse_setup(rest, ln.number, host, ln.depth)
        if step is not None and (prompted or first != "echo" or ">" in rest):
            return ShellEvent(i, last, setup=step)
        if first in SETUP_PROGRAMS:
            return None
    prog, wrappers, at = program_of(argv)
    if not prog:
        return None
    ok = _known_program(prog) and (_looks_like_args(argv[at + 1:]) or (prompted and len(argv) == at + 1)
                                   or _tool_accepts(argv[at:]))
    if prompted and not ok:
        ok = (prog not in _NOT_BENCH and "scripts/" not in argv[at] and not prog.endswith(".pl") and not rest.endswith((".", ":"))
              and re.match(r"^\.{0,2}/[\w./-]+$", argv[at]) is not None)
    if not ok or rest.endswith(":"):
        return None
    cmd = make_command(rest, ln.number, host, ln.depth, author=ln.author)
    ev = ShellEvent(i, last, command=cmd)
    if any(w in ("taskset", "numactl") for w in wrappers):
        prog0 = argv[0].rsplit("/", 1)[-1]
        if prog0 in ("taskset", "numactl"):
            ev.setup = wrapper_step(prog0, argv[1:at], ln.number, host, ln.depth)
    return ev


_RESULTS_AFTER = re.compile(r"^(?P<cmd>\S+(?:\s+\S+){1,40}?):\s+(?=[^\n]*[A-Za-z][^\n]*\d)(?P<rest>.+)$")


def _results_after(rest: str) -> tuple[str, bool]:
    """("neper tcp_rr -T 32", True) for "neper tcp_rr -T 32: before 4.2M, after 4.5M": a
    command, a colon, then prose with numbers (what it gave) on the same line."""
    m = _RESULTS_AFTER.match(rest)
    if m is None or "://" in m.group("cmd") or m.group("rest").lstrip().startswith("-"):
        return rest, False
    return m.group("cmd"), True


def _prose_commands(text: str, ln: Line, i: int, found: Found) -> None:
    """Commands inside a sentence ('while doing iperf -P 4', '[2]: ./xdpsock -i eth1 -t')."""
    m = _PERF_HEADER.search(text)
    if m:
        raw = m.group("cmd").strip()
        if not raw.lower().startswith(("system wide", "cpu", "process id", "thread id")):
            found.events.append(ShellEvent(i, i, command=make_command(raw, ln.number, None, ln.depth,
                                                                      author=ln.author)))
        return
    if "-" not in text:
        return
    for m in _PROSE_PROG.finditer(text[:4000]):
        words = text[m.end():m.end() + 600].split()
        taken: list[str] = []
        expect_value = False
        for w in words:
            bare = w.rstrip(".,;:)'\"`")
            if _OPT.match(bare) and not bare.startswith("--") or bare.startswith("--") and len(bare) > 2:
                taken.append(bare)
                expect_value = "=" not in bare and not (len(bare) > 2 and not bare.startswith("--")
                                                        and bare[2:].isdigit())
                if bare != w:
                    break
                continue
            if expect_value and _ARG.match(bare) and not re.match(r"^[A-Z][a-z]+$", bare):
                taken.append(bare)
                expect_value = False
                if bare != w:
                    break
                continue
            break
        if not taken:
            continue
        raw = " ".join(filter(None, (m.group("prog"), m.group("sub"), *taken)))
        found.events.append(ShellEvent(i, i, command=make_command(raw, ln.number, None, ln.depth,
                                                                  in_prose=True, author=ln.author)))
