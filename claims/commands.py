"""Benchmark commands in a message: prompted shell lines, bare command lines, commands named
in prose ("while doing iperf -P 4") and the command in a `perf stat` header.

A line is read as shell (claims/shell.py): continuation lines joined (a trailing `\\`, or a
long command soft-wrapped by the mail client onto lines of options), a prompt or a
`client:` label in front dropped, split into its simple commands (`a; b | c`, `a && b`, two
commands side by side), each walked past its wrappers to the program.  Whether that program
runs a benchmark is decided by one model: a program a tool description (claims/tools/)
names, or any other program whose words read as a command line by the evidence around
it: a path or script name (`./vsock_perf`, `run.sh`), a wrapper in front (`nice -n -20
./x`), a shell prompt, neighbouring shell lines, or options and no prose words.  Read-only
inspections (cat, grep) and setup programs (sysctl, ip, ethtool, tc) are never benchmarks;
nor is a sub-command its tool's description does not list among those that measure
(`perf top`).  A program of one's own that only the shape of its line makes a command
(`./a.out`, `./virtiofsd --socket-path x`) stays one only in a mail that reports a
measurement (`with_results`, applied once the claims are read).

Also collects the setup steps written as shell lines, in order, because a later stage reads
the sequence "setup, command, output, setup, command, output" as variants of one benchmark.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from claims.model import Command, Line, SetupStep
from claims.setup_steps import SETUP_PROGRAMS, parse_setup, wrapper_step
from claims.shell import (
    WRAPPERS,
    Invocation,
    basename,
    gap_splits,
    invocation,
    measures,
    pieces,
    privilege_prefix,
    shell_c,
    split_words,
    strip_keywords,
    without_output_file,
    without_redirections,
)

if TYPE_CHECKING:
    from claims.tools.base import ToolDescription


def _described_programs() -> frozenset[str]:
    """The programs the tool descriptions (claims/tools/) name, servers included."""
    from claims.tools import tool_programs

    try:
        return frozenset(p for p, _, _ in tool_programs())
    except Exception:  # noqa: BLE001 - a broken tool module must not stop command recognition
        return frozenset()


# Benchmark programs no tool description covers (yet); the described ones come from there.
UNDESCRIBED_PROGRAMS = frozenset({
    "neper", "xdp_redirect", "xdp_redirect_map", "xdp_redirect_cpu", "xdp_rxq_info", "xdp1",
    "xdp2", "mausezahn", "pktgen", "sembench", "tbench", "dbench", "hackbench", "fio",
    "sysbench", "schbench", "redis-benchmark", "memtier_benchmark", "wrk", "wrk2", "ab", "qperf",
    "uperf", "nuttcp", "ethr", "stress-ng", "ebizzy", "pgbench", "udpgso_bench_tx",
    "udpgso_bench_rx", "tcp_mmap", "msg_zerocopy", "lat_tcp", "lat_udp", "bw_tcp", "lat_ctx",
    "lat_syscall", "will-it-scale", "netbench", "moongen", "testpmd", "dpdk-testpmd",
    "io_uring-bench", "t/io_uring", "tcp_bench", "ping", "kselftest", "bench", "memcached",
    "mutilate", "aim7", "reaim", "lmbench", "unixbench", "blogbench", "vng", "kperf",
    "xdp-trafficgen",
})
BENCH_PROGRAMS = UNDESCRIBED_PROGRAMS | _described_programs()


def _server_programs() -> frozenset[str]:
    """Programs that only serve a described tool (netserver): run bare, they are still a run."""
    from claims.tools import tool_programs

    try:
        progs = tool_programs()
        return frozenset(p for p, _, server in progs if server) - {p for p, _, s in progs if not s}
    except Exception:  # noqa: BLE001 - a broken tool module must not stop command recognition
        return frozenset()


_SERVERS = _server_programs()
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
    # monitors and inspections read a running system; they are not the benchmark
    "nstat", "sar", "mpstat", "vmstat", "iostat", "pidstat", "numastat", "turbostat", "free",
    "uptime", "htop", "lsmod", "lsblk", "lsof", "strace", "ltrace", "gdb", "trace-cmd",
    "bpftrace", "virsh", "docker", "podman", "which", "type", "file", "stat", "sync",
    "service", "xl", "passt", "socat", "nc", "ncat",
    # builds and installs
    "configure", "autogen.sh", "bootstrap.sh", "meson", "ninja", "cmake", "cargo", "rustc",
    "apt-get", "pip3", "rpm", "dpkg", "git-send-email", "checkpatch.pl", "virtme-configkernel",
})

_PROMPT = re.compile(
    r"^\s*(?:\[(?:[\w.-]+@)?(?P<h1>[\w.-]+)[^\]\n]{0,60}\]|(?:[\w.-]+@)?(?P<h2>[\w.-]+):[^\s#$]{0,80}"
    r"|[\w.-]+@(?P<h4>[\w.-]+)\s[~/][^\s#$]{0,80}|(?P<h3>[A-Za-z][\w.-]*(?=[#$]))"
    # a working directory and a git branch (`~/git/linux memory_holes $ `): `$` only, as
    # `/path # words` is a program and its comment
    r"|~?/[\w.~/-]{0,80}(?:\s\(?[\w./-]{1,40}\)?)?(?=\s?\$\s)"
    # a role or host word before a `$` (`guest $ `, `(vm1)$ `)
    r"|\(?(?P<h5>[A-Za-z][\w.-]{0,30})\)?(?=\s?\$\s)|~)?\s?[#$]\s+(?P<rest>\S.*)$"
)
_PERF_HEADER = re.compile(r"Performance counter stats for '(?P<cmd>[^'\n]{1,500})'")
_PERF_OPEN = "Performance counter stats for '"
_VAR = re.compile(r"\$\{?(\w+)\}?|\$\(\((?P<arith>[^)]{1,80})\)\)")
# What may stand before a command on its line: an arrow, a bullet or an item's number. Public:
# the gate (claims.prescan) looks for a command after the same marks; blanks that never
# cross a line, for it reads a whole text (on one line they are any blanks).
BULLET = r"(?:[-=]>[^\S\n]+|→[^\S\n]*|[-*•+][^\S\n]+|\(?\d{1,2}[.)][^\S\n]+|\(?[a-z]\)[^\S\n]+)"
_BULLET = re.compile(rf"^\s*{BULLET}?`?")
# `iperf3 -c x \ -t 30 \ -P 8`: continuation lines an archive page ran into one line
_COLLAPSED_CONTINUATION = re.compile(r"(?<=\s)\\\s+(?=\S)")
# "client:  taskset -c 1 sockperf ...", "xmit command: sockperf tp ...": a short label
_LABEL = re.compile(r"^(?P<label>[A-Za-z][\w./+()-]*(?: [\w./+()-]+){0,3})\s*:\s+(?P<rest>\S.*)$")
_PROSE_PROG = re.compile(
    r"(?<![\w/.-])(?P<prog>(?:(?:\.{1,2}|~)?/)?(?:[\w.-]+/){0,4}(?:" + "|".join(
        re.escape(p) for p in sorted(BENCH_PROGRAMS, key=len, reverse=True) if p not in ("bench", "perf", "ping", "ab"))
    + r"))\s+(?:(?P<sub>(?!(?:with|and|or|on|in|at|to|for|using|the|a|an|is|was|runs?)\s)[a-z][a-z-]{1,15})\s+)?(?=-)"
)
# A sentence about a run that has not happened ("I'll rerun with neper -T4 once ...")
_HYPOTHETICAL = re.compile(r"\b(?:will|would|could|should|shall|might|may|going to|plan(?:s|ning)? to|"
                           r"want(?:s|ed)? to|try(?:ing)?|if)\b|'ll\b", re.I)
_OPT = re.compile(r"^--?[A-Za-z][\w-]*(?:=\S*)?$|^-[A-Za-z][\w.:/]*$")
OPTION_WORD = re.compile(r"^--?[A-Za-z]")  # a word that is an option; public: grid reads a title by it
_ARG = re.compile(r"^[\w$@%:.,/=+<>(){}\[\]-]{1,120}$")
_LOOSE = re.compile(r"^[A-Za-z]+[.,]?$")
_VALUEISH = re.compile(r"^(?:[+-]?\d[\d.,:x/-]*[kKmMgGtT]?[bB]?|<[^>]+>|\$\S+|\S*[/=]\S*|\[\S+\])$")
_PROGRAM_WORD = re.compile(r"^[A-Za-z_][\w.+-]{0,60}$")
_NOT_PROGRAM_EXT = (".c", ".h", ".pl", ".txt", ".log", ".patch", ".diff", ".json", ".yaml",
                    ".yml", ".conf", ".cfg", ".ko", ".img", ".html", ".md", ".rst", ".csv",
                    ".o", ".so", ".xz", ".gz", ".tar", ".qcow2", ".iso", ".sock", ".socket")
_SCRIPT_EXT = (".sh", ".py", ".bash")
_SYSTEM_DIRS = ("/sys/", "/proc/", "/dev/", "/etc/", "/tmp/", "/boot/", "/lib/modules")


@dataclass
class ShellEvent:
    """A command or setup step at a line index, in message order."""

    index: int  # index into the message's lines
    last: int  # last line index (continuations)
    command: Command | None = None
    setup: SetupStep | None = None
    prose_after: bool = False  # "neper tcp_rr -T 32: before 4.2M, after 4.5M": results follow
    named_by_output: bool = False  # the command a perf stat header names


@dataclass
class Found:
    commands: list[Command] = field(default_factory=list)
    setup: list[SetupStep] = field(default_factory=list)
    events: list[ShellEvent] = field(default_factory=list)
    used: set[int] = field(default_factory=set)  # line indexes that are shell lines


def _named_program(prog: str) -> str:
    """The program a command's first word names: a script's variable (`$NETPERF`,
    `${NETPERF}`) holds the program of its name."""
    return prog.strip("${}").lower() if prog.startswith("$") else prog


def split_argv(raw: str) -> list[str]:
    """A command's words as its program receives them (redirections left out), a new list
    each time: the caller may change it."""
    return list(_argv(raw))


@lru_cache(maxsize=256)  # a line's words are asked by its events, its pieces and its command
def _argv(raw: str) -> tuple[str, ...]:
    return tuple(without_redirections(split_words(raw)))


def make_command(raw: str, line: int, host: str | None, depth: int, in_prose: bool = False,
                 author: str | None = None) -> Command:
    from claims.tools import tool_for_program

    inv = invocation(split_argv(raw))
    prog = inv.program
    if prog and (bare := unversioned(prog)) and bare in BENCH_PROGRAMS:
        prog = bare  # `iperf3.16`, `fio-3.35`: the tool, whichever build of it
    tool = tool_for_program(_named_program(prog)) if prog else None
    variables = []
    for m in _VAR.finditer(raw):
        if m.group(1):
            variables.append(m.group(1))
        elif m.group("arith"):
            variables.extend(re.findall(r"[A-Za-z_]\w*", m.group("arith")))
    return Command(raw=raw, line=line, tool=tool.name if tool else (prog or None),
                   argv=inv.argv[inv.at:], host=host, variables=list(dict.fromkeys(variables)),
                   wrappers=inv.wrapper_names, in_prose=in_prose, depth=depth, author=author)


def strip_prompt(text: str) -> tuple[bool, str | None, str]:
    """(had a prompt, host it names, the rest)."""
    head = text[:2000]
    if "$" not in head and "#" not in head:
        return False, None, text  # every prompt ends in "$" or "#" (most lines have neither)
    m = _PROMPT.match(head)
    if not m:
        return False, None, text
    host = m.group("h1") or m.group("h2") or m.group("h3") or m.group("h4") or m.group("h5")
    return True, host, m.group("rest")



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


# What a known program's first argument may open with: an option's dash (any: "-H", "-4",
# "-", "--") or a variable's "$", or else be one of FIRST_ARGS ("perf stat", "perf bench",
# "perf record"). Public: the gate (claims.prescan) looks for the lines that hold one.
ARG_MARKS = ("-", "$")
FIRST_ARGS = ("stat", "bench", "record")


def opens_args(word: str) -> bool:
    """Can `word` open a known program's arguments by itself (_looks_like_args: an option,
    a variable or one of FIRST_ARGS first; sub-command words before an option are the
    other way)?"""
    return word.startswith(ARG_MARKS) or word in FIRST_ARGS


def _looks_like_args(args: list[str], prog: str = "") -> bool:
    """Option-like arguments, not a sentence that starts with a program's name (`ping -f
    requires root`: by the tool's description `-f` takes no value, so two plain words
    follow it)."""
    if not args:
        return False
    # "sockperf ping-pong -i ...", "super_netperf 200 -H ..." (a subcommand or a count first)
    # subcommand words (`perf bench sched pipe -l 1000000`) or a count, then an option
    lead = 0
    while lead < min(3, len(args) - 1) and _SUBCOMMAND.fullmatch(args[lead]) and not args[lead].isdigit():
        lead += 1
    if lead == 0 and _SUBCOMMAND.fullmatch(args[0]):
        lead = 1  # `super_netperf 200 -H ...`
    subcommand = 0 < lead < len(args) and OPTION_WORD.match(args[lead]) is not None
    if not (opens_args(args[0]) or subcommand):
        return False
    flags = _option_arities(prog)[1] if prog else frozenset()
    loose = _loose_words(args[lead:] if subcommand else args, flags)
    return loose is not None and loose <= 2


_SUBCOMMAND = re.compile(r"[a-z][a-z_-]{0,15}\d{0,3}|\d{1,5}")


def _loose_words(args: Sequence[str], flags: frozenset[str] = frozenset()) -> int | None:
    """How many bare words (not an option, nor an option's value) the arguments hold, or
    None when one of them cannot be a shell word at all (a sentence's punctuation) or, with
    the tool's `flags` known, two plain words follow one another as in a sentence."""
    loose = 0
    after_option = False
    plain_before = False
    for a in args[:60]:
        if not (_ARG.match(a) or a.startswith(("-", "$", "'", '"', "<", "["))) \
                or a.startswith("(") and not a.startswith("(("):
            return None  # "(five runs)" after the options: a sentence's aside, not a shell word
        if a.startswith("-"):
            after_option = not a.endswith(".") and a.split("=", 1)[0] not in flags
            plain_before = False
            if a.endswith(".") and len(a) > 2:
                return None
            continue
        if a.endswith(".") and len(a) > 2 and not _VALUEISH.match(a) and a != "...":
            return None
        if not after_option and _LOOSE.match(a):
            loose += 1
            if flags and plain_before and _PLAIN_WORD.match(a):
                return None
            plain_before = _PLAIN_WORD.match(a) is not None
        else:
            plain_before = False
        after_option = False
    return loose


def _evidence(args: Sequence[str]) -> int:
    """How many arguments read as command-line words: options, numbers and sizes, paths,
    key=value, variables, <placeholders>."""
    return sum(1 for a in args if OPTION_WORD.match(a) or _VALUEISH.match(a))


def known_program(prog: str) -> bool:
    """A benchmark program by name: described, listed, or of a listed family (pktgen_*.sh)."""
    return prog in BENCH_PROGRAMS or (prog.startswith(("pktgen_", "xdp_", "udpgso_bench", "super_netperf"))
                                      and _PROGRAM_WORD.match(prog) is not None) \
        or (unversioned(prog) or prog) in BENCH_PROGRAMS


_VERSION = re.compile(r"(?<=[A-Za-z\d])[-_.]v?\d+(?:\.\d+)*$")


def unversioned(prog: str) -> str | None:
    """`iperf3.16` -> `iperf3`, `netperf-2.7.0` -> `netperf`: a program named with its
    version (None when the name carries none)."""
    bare = _VERSION.sub("", prog)
    return bare if bare != prog and bare else None


def _executable_word(word: str) -> bool:
    """A path to a program (`./vsock_perf`, `/usr/share/bcc/tools/funclatency`) or a script
    name (`zc_selftest.sh`): words that only a shell line starts with."""
    base = basename(word)
    if not _PROGRAM_WORD.match(base) or base.endswith(_NOT_PROGRAM_EXT) or base in _NOT_BENCH:
        return False
    if "scripts/" in word or word.startswith(_SYSTEM_DIRS):
        return False
    path = word.startswith(("./", "../", "/", "~/")) and len(word) > 2 and "//" not in word
    return path or base.endswith(_SCRIPT_EXT)


@lru_cache(maxsize=4096)  # asked of each line's first word two or three times; words recur
def program_like(word: str) -> bool:
    """Could a shell line start with `word`? (cheap: no parse)"""
    base = basename(word)
    return (base in _ALWAYS or known_program(base) or _executable_word(word)
            or _ASSIGNMENT.match(word) is not None or word.startswith("$") and len(word) > 2)


_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=\S")
_FIRST_WORD = re.compile(r"^\S+")
# The programs a shell line may start with whatever follows them: benchmarks, setup tools
# and wrappers (claims.prescan looks for the same words, so it lets through what runs).
LINE_PROGRAMS = frozenset(BENCH_PROGRAMS | set(SETUP_PROGRAMS) | set(WRAPPERS) | {"ip", "taskset", "numactl"})
_ALWAYS = LINE_PROGRAMS | {"do", "then", "(", "{"}


# The characters of a line the reader reads (the rest of a longer one is cut). Public: the
# gate (claims.prescan) takes a longer line as one the reader may join.
LINE_CHARS = 2000


def _clean(text: str) -> str:
    return text[:LINE_CHARS].replace("\xa0", " ")


def _unlabel(text: str) -> str:
    """`client:  taskset -c 1 sockperf ...` -> the command; a label before anything else
    is kept (it may be a result line)."""
    if ":" not in text:
        return text  # a label ends in a colon (most lines have none)
    m = _LABEL.match(text)
    if m is None or any(w.startswith("-") for w in m.group("label").split()):
        return text
    rest = m.group("rest").strip()
    first = _FIRST_WORD.match(rest)
    return rest if first and program_like(first.group()) else text


def _wrapped_value(line: str, text: str) -> bool:
    """A line ending in an option, then a line that starts with its value and goes on with
    options (`... -m` / `00:11:22:33:44:55 -t 4`): one command wrapped inside an option."""
    words = text.split()
    tail = line.split()[-1:] if line.strip() else []
    if not (words and tail) or OPTION_WORD.match(tail[0]) is None or "=" in tail[0]:
        return False
    value = words[0].rstrip(";&|")
    if value != words[0] or all(w in _SHELL_TAIL for w in words[1:]):
        # `... -t` / `150& done`: the value, then only the line's shell punctuation
        return bool(value) and _VALUEISH.match(value) is not None and all(w in _SHELL_TAIL for w in words[1:])
    return _VALUEISH.match(words[0]) is not None and any(OPTION_WORD.match(w) for w in words[1:]) \
        and (loose := _loose_words(words)) is not None and loose <= 1


_SHELL_TAIL = frozenset({"&", ";", "&&", "||", "|", "done", "fi", "}", ")", "done;", "fi;"})


def wrapped_args(text: str) -> bool:
    """A line that continues a soft-wrapped command: it starts with an option and holds
    only command-line words. Public: the gate (claims.prescan) walks up such lines to the
    command a mail client wrapped onto them."""
    words = text.split()
    return bool(words) and OPTION_WORD.match(words[0]) is not None and \
        _PERF_OPEN.lower() not in text.lower() and (loose := _loose_words(words)) is not None and \
        loose <= 1


@dataclass
class _Context:
    """Where a line's pieces come from: its prompt (and the host it names) and its lines."""

    prompted: bool
    host: str | None
    index: int
    last: int
    labelled: bool = False  # a `server:` label stood before it
    ran: frozenset[str] = frozenset()  # programs an earlier line of the message ran as a benchmark


def _runs_benchmark(inv: Invocation, ctx: _Context, *, alone: bool, background: bool) -> bool:
    """The one model of "this simple command runs a benchmark" (see the module docstring).
    `alone`: the piece is the whole line, not one part of `a; b | c`.

    A program a tool description or the benchmark list names needs command-line words after
    it.  Any other program needs evidence that it is run to be measured: a path or a script
    of one's own (`./vsock_perf`, `zc_selftest.sh`), a wrapper that shapes or measures a run
    (perf stat, time, nice, taskset, numactl, chrt), or a benchmark's name (`*bench*`,
    `*perf*`, `*test*`, ...) or a background job, with options.  Tools that inspect or
    configure a system (`vdpa dev show`, `driverctl`, `openssl`, `cc`) have none of these."""
    prog = inv.program
    word = inv.argv[inv.at] if prog else ""
    args = inv.argv[inv.at + 1:]
    if prog.startswith("$"):
        # `$NETPERF -H $host ...` in a script: the variable names the program it holds
        name = _named_program(prog)
        return bool(name) and (known_program(name) or BENCH_NAME.search(name) is not None) \
            and _looks_like_args(args)
    if not prog or prog.endswith(":") or _never_benchmark(prog):
        return False
    if known_program(prog):
        if _other_mode(prog, args):
            return False
        # with no argument: at a prompt, labelled or a path; a server put in the background
        # or run by a wrapper (`nohup netserver &`, `ssh host netserver`)
        bare = not args and (ctx.prompted or alone and (ctx.labelled and prog in _SERVERS or _executable_word(word))
                             or prog in _SERVERS and (background or bool(inv.wrappers)))
        # "$ hackbench 10", "./hackbench 10", "perf stat -r 10 hackbench 10": run as a command
        # is, a count may open its arguments
        run = bool(args) and (ctx.prompted or _executable_word(word) or any(measures(w) for _, w in inv.wrappers)) \
            and args[0][:1].isdigit() and (loose := _loose_words(args)) is not None and loose <= 2
        return _looks_like_args(args, prog) or bare or run or _tool_accepts(inv.argv[inv.at:])
    if not _PROGRAM_WORD.match(prog):
        return False
    loose = _loose_words(args)
    if loose is None or loose > 2:
        return False
    if prog in ctx.ran and alone and loose == 0 and _evidence(args) > 0:
        return True  # "usemem 800m" after "usemem --punch-holes -s -1 800m &": run again
    options = sum(1 for a in args if OPTION_WORD.match(a))
    measured = any(measures(words) for _, words in inv.wrappers)
    if _executable_word(word):
        # alone on its line with no argument: a script, or a program named as a benchmark
        bare = alone and not args and (prog.endswith(_SCRIPT_EXT) or BENCH_NAME.search(prog) is not None)
        return _evidence(args) > 0 or ctx.prompted or measured or bare
    if loose > 1:
        return False
    if measured:
        return _evidence(args) > 0
    return options > 0 and (background or BENCH_NAME.search(prog) is not None)


def _other_mode(prog: str, args: Sequence[str]) -> bool:
    """`perf top -g`, `perf report`: a sub-command word the tool's description does not
    list among those that run a measurement (`ToolDescription.modes`)."""
    if not args or args[0].startswith("-"):
        return False
    tool = _described_tool(prog)
    return tool is not None and bool(tool.modes) and args[0] not in tool.modes


_LIBRARY = re.compile(r"\.so(?:\.\d+)*$")
# how benchmark and test programs are named (netperf, vsock_perf, blkio-bench, virtio_test)
BENCH_NAME = re.compile(r"bench|perf|test|stress|(?<!un)load|mark|_rr$|_stream$|^lat_|^bw_|iops", re.I)


def find_commands(lines: Sequence[Line], skip: set[int] | None = None) -> Found:
    """Every command and setup step in `lines` (indexes in `skip` are not read)."""
    found = Found()
    skip = skip or set()
    ran: set[str] = set()
    ran_now: frozenset[str] = frozenset()  # `ran` as the lines' contexts see it, rebuilt when it grows
    i = 0
    n = len(lines)
    while i < n:
        if i in skip or lines[i].text.isspace() or not lines[i].text:
            i += 1  # a blank line has no first word, no option and no perf header
            continue
        ln = lines[i]
        text = _clean(ln.text)
        if _passed_by(text, ran_now):
            i += 1
            continue
        prompted, host, rest = strip_prompt(text)
        labelled = False
        if not prompted:
            bare = _BULLET.sub("", text, count=1).strip().strip("`").strip()
            rest = _unlabel(bare)
            labelled = rest != bare
            if labelled:  # `t460s: ~/git/linux master $ git grep ...`: a label, then a prompt
                prompted, host, rest = strip_prompt(rest)
        rest, last = _joined(rest, lines, i, skip, prompted)
        if "\\" in rest:
            rest = _COLLAPSED_CONTINUATION.sub("", rest)
        ctx = _Context(prompted, host, i, last, labelled, ran_now)
        events = _line_events(rest.strip(), ctx, ln) if _worth_parsing(rest, ctx) else []
        if events:
            found.events.extend(events)
            ran.update(basename(invocation(split_argv(ev.command.raw)).program)
                       for ev in events if ev.command is not None)
            ran_now = frozenset(ran)
            if not all(ev.prose_after for ev in events):
                found.used.update(range(i, last + 1))
            i = last + 1
            continue
        i += _prose_commands(lines, i, skip, found)
    shown = [ev.command for ev in found.events if ev.command is not None and not ev.named_by_output]
    for ev in found.events:
        if ev.command is not None and not (ev.named_by_output and _runs_inside(ev.command, shown)):
            found.commands.append(ev.command)
        if ev.setup is not None:
            found.setup.append(ev.setup)
    return found


# What a line needs to be read below as more than a program's name with arguments (perhaps
# after a label): a prompt's "$" or "#", a "\\" continuation, an option's "-", a backtick
_READ_MARK = re.compile(r"[$#\\`-]")


def _passed_by(text: str, ran: frozenset[str]) -> bool:
    """Whether `find_commands` reads nothing in a line, told from its marks and first word
    alone: without _READ_MARK or a perf stat header it has no prompt, continuation or
    header, and no option for a program in a sentence to take, so only a first word (after
    a bullet or a label) that is a program, or one the message ran, makes it a command.
    Half the lines of a mail."""
    if _READ_MARK.search(text) is not None or _PERF_OPEN in text:
        return False
    bare = _BULLET.sub("", text, count=1).strip()
    if _unlabel(bare) != bare:
        return False  # a label, then a program: read as a command line
    first = _FIRST_WORD.match(bare)
    return first is None or not (program_like(first.group()) or first.group() in ran)


def with_results(commands: Sequence[Command], measured: bool) -> list[Command]:
    """The commands of a message, given whether the message reports a measurement
    (`measured`: a claim read from it).  A program no tool description or list names and
    whose name says nothing of a benchmark (`./a.out`, `~/create_vdpa_device.sh`,
    `./virtiofsd --socket-path ...`) is read as a command only by the shape of its line; in
    a mail that measures nothing that shape is a program's demonstration, a reproducer or a
    setup script, not a benchmark whose result the bot could check."""
    if measured:
        return list(commands)
    return [c for c in commands if _benchmark_by_name(c)]


def _benchmark_by_name(cmd: Command) -> bool:
    """Is the command's program a benchmark by its name or by a wrapper that measures it?"""
    inv = invocation(split_argv(cmd.raw))
    prog = _named_program(inv.program)
    return known_program(prog) or BENCH_NAME.search(prog) is not None or \
        any(measures(words) for _, words in inv.wrappers)


def _runs_inside(cmd: Command, others: list[Command]) -> bool:
    """A perf stat header's command that another command already runs (`taskset -c 2 perf
    stat -r 10 -- ./virtio_test --batch=64` above the header './virtio_test --batch=64')."""
    words = [basename(w) for w in split_argv(cmd.raw)]  # `./x` in one, `x` in the other
    return bool(words) and any(len(o_words) > len(words) and o_words[-len(words):] == words
                               for o_words in ([basename(w) for w in split_argv(o.raw)] for o in others))


# Lines _joined joins to a command's first at most (continuations, wrapped options). Public: the
# gate (claims.prescan) reads as far.
JOIN_REACH = 20


def join_continued(line: str, following: Iterable[str]) -> tuple[str, int]:
    """`line` with the lines after it that its trailing "\\" continues onto (each next one
    while the text so far ends in "\\", at most JOIN_REACH): the "\\" and the blanks
    around it dropped, one blank between; and how many lines were joined to it. Public:
    the gate (claims.prescan) joins a command's continuation lines as the reader does."""
    joined = 0
    rest = iter(following)
    while line.endswith("\\") and joined < JOIN_REACH:
        nxt = next(rest, None)
        if nxt is None:
            break
        line = line[:-1].rstrip() + " " + nxt.strip()
        joined += 1
    return line, joined


def _joined(rest: str, lines: Sequence[Line], i: int, skip: set[int],
            prompted: bool) -> tuple[str, int]:
    """The logical line from `i`: `\\` continuations joined, and the lines of options a mail
    client wrapped a long command onto."""
    n = len(lines)
    last = i
    if rest.endswith("\\"):
        rest, joined = join_continued(rest, (_clean(lines[k].text) for k in range(i + 1, n)))
        last += joined
    first = _FIRST_WORD.match(rest.strip())
    if first is None or not (prompted or program_like(first.group())):
        return rest, last
    depth = lines[i].depth
    while last + 1 < n and last - i < JOIN_REACH and last + 1 not in skip and lines[last + 1].depth == depth:
        nxt = _clean(lines[last + 1].text).strip()
        if not (wrapped_args(nxt) or _wrapped_value(rest, nxt)) or strip_prompt(nxt)[0]:
            break
        last += 1
        rest = rest.rstrip().rstrip("\\").rstrip() + " " + nxt.rstrip("\\").rstrip()
    return rest, last


# Kconfig's line for an option left out, after its "#" (which reads as a root prompt)
_KCONFIG_UNSET = re.compile(r"CONFIG_\w+ is not set")


def _worth_parsing(rest: str, ctx: _Context) -> bool:
    """A cheap look at the first word before the costly argv parse. An assignment alone
    runs nothing (a kernel .config attached to a build report is thousands of them:
    "CONFIG_X=y", "# CONFIG_X is not set")."""
    line = rest.strip()
    m = _FIRST_WORD.match(line)
    if not m:
        return False
    word = m.group()
    if len(word) == len(line) and _ASSIGNMENT.match(word):
        return False
    if ctx.prompted:
        return _KCONFIG_UNSET.fullmatch(line) is None
    if program_like(word) or word in ctx.ran:
        return True
    # an unknown program is a benchmark only with options (see _runs_benchmark)
    return _PROGRAM_WORD.match(word) is not None and word[0].islower() and " -" in rest


def _line_events(rest: str, ctx: _Context, ln: Line) -> list[ShellEvent]:
    if not rest or len(rest) > 1500:
        return []
    if not ctx.prompted:
        if rest.endswith(".") and not rest.endswith(".."):
            rest = rest[:-1]  # a command that ends a sentence
        # one item of a list in prose ("ethtool -C eth0 rx-usecs 10, or"), or a command the
        # mail annotates ("ethtool -C eth0 tx-frames-irq 0 // disables tx interrupts")
        rest = _PROSE_TAIL.sub("", rest)
        head, results = _results_after(rest)
        if results:
            inner = _line_events(head, ctx, ln)
            for event in inner:
                event.prose_after = True
            return inner
    words = split_argv(rest)
    if not words:
        return []
    lead = privilege_prefix(words)
    if lead < len(words) and (basename(words[lead]) in ("for", "while", "echo") or shell_c(words[lead:])):
        # a loop writing sysfs, `echo 1 | sudo tee /sys/...`: the setup grammar reads it whole
        step = parse_setup(rest, ln.number, ctx.host, ln.depth)
        if step is not None:
            return [ShellEvent(ctx.index, ctx.last, setup=step)]
    parts = pieces(rest)
    events: list[ShellEvent] = []
    for part in parts:
        texts, results = gap_splits(part.text, program_like) \
            if ("\t" in part.text or "   " in part.text) else ([part.text], False)
        for k, text in enumerate(texts):
            if k or part.start:
                text = _unlabel(text)  # `server: iperf3 -s; client: iperf3 -c x`
            alone = len(parts) == 1 and len(texts) == 1
            background = part.background and k == len(texts) - 1
            ev = _piece_event(text, ctx, ln, alone=alone, background=background)
            if ev is not None:
                ev.prose_after = results  # the numbers after the gap are its output
                events.append(ev)
    return events


def _piece_event(text: str, ctx: _Context, ln: Line, *, alone: bool,
                 background: bool) -> ShellEvent | None:
    text = strip_keywords(text)
    if alone and not ctx.prompted and text.endswith(":"):
        text = text[:-1].rstrip()  # "zc_selftest.sh 6 udp:" introduces its output
    argv = split_argv(text)
    if not argv or text.endswith(":"):
        return None
    lead = privilege_prefix(argv)
    first = basename(argv[lead]) if lead < len(argv) else ""
    inv = invocation(argv)
    is_cmd = _runs_benchmark(inv, ctx, alone=alone, background=background)
    pin_only = first in ("taskset", "numactl") and len(argv) - lead < 3
    if (first in SETUP_PROGRAMS and not (is_cmd and inv.wrappers)) or pin_only:
        step = parse_setup(text, ln.number, ctx.host, ln.depth)
        if step is not None and (ctx.prompted or first != "echo" or ">" in text):
            return ShellEvent(ctx.index, ctx.last, setup=step)
        if first in SETUP_PROGRAMS:
            return None
    if not is_cmd:
        return None
    cmd = make_command(without_output_file(text), ln.number, ctx.host, ln.depth, author=ln.author)
    ev = ShellEvent(ctx.index, ctx.last, command=cmd)
    pin = next(((name, words) for name, words in inv.wrappers if name in ("taskset", "numactl")), None)
    if pin is not None:
        ev.setup = wrapper_step(pin[0], pin[1][1:], ln.number, ctx.host, ln.depth)
    return ev


# a comment, a list's comma, or a clause of plain words after the comma ("... -l 1000, before:")
_PROSE_TAIL = re.compile(r"\s+//\s.*$|(?<=\S),(?:\s+[a-z][a-z'-]*){0,8}\s*[:.]?\s*$")
_RESULTS_AFTER = re.compile(r"^(?P<cmd>\S+(?:\s+\S+){1,40}?):\s+(?=[^\n]*[A-Za-z][^\n]*\d)(?P<rest>.+)$")


def _results_after(rest: str) -> tuple[str, bool]:
    """("neper tcp_rr -T 32", True) for "neper tcp_rr -T 32: before 4.2M, after 4.5M": a
    command, a colon, then prose with numbers (what it gave) on the same line."""
    m = _RESULTS_AFTER.match(rest)
    if m is None or "://" in m.group("cmd") or m.group("rest").lstrip().startswith("-"):
        return rest, False
    after = m.group("rest").split()
    if program_like(after[0]) and any(OPTION_WORD.match(w) for w in after[1:4]):
        return rest, False  # `iperf3 -s; client: iperf3 -c x`: another labelled command
    return m.group("cmd"), True


def _perf_header(lines: Sequence[Line], i: int, skip: set[int]) -> tuple[str | None, int]:
    """The command a perf stat header names, its quote closed on a later line when the mail
    client wrapped it; and how many lines it took."""
    text = _clean(lines[i].text)
    at = text.find(_PERF_OPEN)
    if at < 0:
        return None, 1
    joined, used = text, 1
    while "'" not in joined[at + len(_PERF_OPEN):] and used < 4 and i + used < len(lines) \
            and i + used not in skip and lines[i + used].depth == lines[i].depth:
        joined = joined.rstrip() + " " + _clean(lines[i + used].text).strip()
        used += 1
    m = _PERF_HEADER.search(joined)
    return (m.group("cmd").strip(), used) if m else (None, 1)


def _prose_commands(lines: Sequence[Line], i: int, skip: set[int], found: Found) -> int:
    """Commands inside a sentence ('while doing iperf -P 4', '[2]: ./xdpsock -i eth1 -t')
    or named by a perf stat header; returns the lines read."""
    ln = lines[i]
    text = _clean(ln.text)
    raw, used = _perf_header(lines, i, skip)
    if raw is not None:
        if not raw.lower().startswith(("system wide", "cpu", "process id", "thread id")):
            found.events.append(ShellEvent(i, i + used - 1, named_by_output=True, command=make_command(
                raw, ln.number, None, ln.depth, author=ln.author)))
        return used
    if "-" not in text or _PATCH_TITLE.match(text):
        return 1
    if "`" not in text and _SPACE_DASH.search(text[:4000]) is None:
        return 1  # no backtick to quote a command, and neither pattern below has its " -"
    spans = _quoted_commands(lines, i, found)
    # a line that is itself some program's command line (`qemu-system-x86_64 -m 4G ...`) is
    # not a sentence: the paths among its arguments are not programs run
    own = [] if _SHELL_LINE.match(text) else list(_PROSE_OWN.finditer(text[:4000]))
    matches = sorted([*_PROSE_PROG.finditer(text[:4000]), *own], key=lambda m: m.start())
    for m in matches:
        if any(a <= m.start() < b for a, b in spans) or (
                m.re is _PROSE_OWN and not _own_program(m.group("prog"))):
            continue
        taken = _options_after(text[m.end():m.end() + 600], basename(m.group("prog")))
        if not taken:
            continue
        start = _wrappers_before(text, m.start())
        if _hypothetical(text, start):
            continue
        sub = m.groupdict().get("sub")
        raw = " ".join(filter(None, (text[start:m.start()].strip(), m.group("prog"), sub, *taken)))
        found.events.append(ShellEvent(i, i, command=make_command(raw, ln.number, None, ln.depth,
                                                                  in_prose=True, author=ln.author)))
        spans.append((m.start(), m.end()))
    return 1


# What both patterns need: the blank before a program's first option
_SPACE_DASH = re.compile(r"\s-")


# A program of one's own in a sentence ("running ./virtio_test --batch=64 gives"):
# a path, or a name built around a benchmark word (vsock_perf, blkio-bench), then an option.
_PROSE_OWN = re.compile(r"(?<![\w/.$+=,:-])(?P<prog>(?:\.{1,2}/|~/|/)[\w.+/-]+|[a-z][\w+-]*[_-][\w.+-]+|"
                        r"[a-z]+\d[\w.+-]*)\s+(?=--?[A-Za-z])")


# A patch title in a shortlog or a pull request ("  tools/virtio: Reset index in virtio_test
# --reset."), also quoted after a commit id (`("tools/virtio: Reset index in virtio_test
# --reset.")`): it names a change to a tool, not a run of it.
_PATCH_TITLE = re.compile(r"^\s*(?:[0-9a-f]{7,40}\s+|\[[^\]\n]{0,60}\]\s*)?\(?[\"']?[a-z][\w.-]*(?:/[\w.*-]+)+"
                          r"(?::\s*[\w.-]+(?:/[\w.*-]+)*)*:\s+\S")
_SHELL_LINE = re.compile(r"^\s*(?:[\w.@-]+[#$]\s+)?[\w./~+-]+\s+-")


def _own_program(word: str) -> bool:
    base = basename(word)
    return not known_program(base) and not _never_benchmark(base) and (
        _executable_word(word) or (BENCH_NAME.search(base) is not None and _PROGRAM_WORD.match(base)
                                   is not None))


def _never_benchmark(prog: str) -> bool:
    """Programs that inspect, build, boot or configure (cat, make.cross, qemu-system-x86_64,
    a kernel image, a shared library) whatever wraps them."""
    return (prog in _NOT_BENCH or prog.split(".")[0] in _NOT_BENCH or prog.startswith("qemu")
            or prog in SETUP_PROGRAMS or prog.endswith(_NOT_PROGRAM_EXT) or _LIBRARY.search(prog) is not None
            or prog != prog.lower() and not known_program(prog))


def _options_after(tail: str, prog: str = "") -> list[str]:
    """The options (and their values) that follow a program named in a sentence, up to the
    first word that is neither: "iperf -P 4 on both hosts" -> ["-P", "4"].  A `<placeholder
    of words>` is one value.  A plain word that the sentence goes on from ("iperf -c in the
    guest") is prose, not a value: an option the tool's description says needs a value is
    then only named, and the sentence gives no command at all."""
    taken: list[str] = []
    expect_value = False
    valued, flags = _option_arities(prog)
    words = _prose_words(tail)
    if len(words) > 1 and words[1].rstrip(".,;:)") in _OPTION_NOUNS:
        return []  # "the iperf3 -R option reverses it": the sentence is about the option
    for k, w in enumerate(words):
        if "\\" in w:
            return []  # `--peer-cid=2\n`: a string in code, not a sentence about a run
        bare = w.rstrip(".,;:)'\"`")
        if _OPT.match(bare) and not bare.startswith("--") or bare.startswith("--") and len(bare) > 2:
            taken.append(bare)
            name = bare.split("=", 1)[0]
            expect_value = "=" not in bare and name not in flags and not (
                len(bare) > 2 and not bare.startswith("--") and bare[2:].isdigit())
        elif w == "--" and k + 1 < len(words) and _OPT.match(words[k + 1].rstrip(".,;:)'\"`")):
            taken.append(w)  # "netperf -t TCP_RR -- -r 1,1": the test's own options follow,
            expect_value = False  # whose arities the program's own options do not tell
            valued, flags = frozenset(), frozenset()
        elif expect_value and _ARG.match(bare.replace(" ", "_")) and not re.match(r"^[A-Z][a-z]+$", bare):
            if bare == w and _PLAIN_WORD.match(bare) and k + 1 < len(words) and _PLAIN_WORD.match(words[k + 1]):
                if taken[-1] in valued:
                    return []
                break
            taken.append(bare)
            expect_value = False
        else:
            break
        if bare != w:
            break
    return taken


_PLAIN_WORD = re.compile(r"^[a-z]+[.,]?$")
_OPTION_NOUNS = frozenset({"option", "options", "flag", "flags", "switch", "parameter", "argument"})
_SPACED_PLACEHOLDER = re.compile(r"<[^<>\s][^<>\n]{0,38}>")


def _prose_words(tail: str) -> list[str]:
    """Whitespace words, a `<placeholder of words>` kept whole."""
    out: list[str] = []
    at = 0
    for m in _SPACED_PLACEHOLDER.finditer(tail):
        if " " not in m.group() or (m.start() and not tail[m.start() - 1].isspace()):
            continue
        out += tail[at:m.start()].split()
        end = m.end()
        while end < len(tail) and not tail[end].isspace():
            end += 1
        out.append(tail[m.start():end])
        at = end
    return out + tail[at:].split()


def _described_tool(prog: str) -> ToolDescription | None:
    """The description of `prog`, whichever build of it (`iperf3.16`); None for a program
    none describes, and for a broken tool module, which must not stop command reading."""
    from claims.tools import tool_for_program

    try:
        return tool_for_program(unversioned(prog) or prog) if prog else None
    except Exception:  # noqa: BLE001 - a broken tool module: no description known
        return None


def _option_arities(prog: str) -> tuple[frozenset[str], frozenset[str]]:
    """The options of a described tool that take a value, and those that take none."""
    tool = _described_tool(prog)
    opts = tool.options.options if tool is not None else []
    valued = frozenset(n for o in opts if o.value is not None and not o.optional_value for n in o.names)
    flags = frozenset(n for o in opts if o.value is None for n in o.names)
    return valued, flags


BACKTICKS = re.compile(r"`([^`\n]{3,300})`")


def _quoted_commands(lines: Sequence[Line], i: int, found: Found) -> list[tuple[int, int]]:
    """Commands a sentence quotes in backticks ("run `./vsock_perf --sender 2` on the
    guest"), judged as a line of their own; with options, so that "`perf stat`" is the
    tool's name, not a run.  Returns the spans that held a command."""
    ln = lines[i]
    text = _clean(ln.text)
    spans: list[tuple[int, int]] = []
    for m in BACKTICKS.finditer(text[:4000]):
        if _hypothetical(text, m.start()):
            continue
        prompted, host, rest = strip_prompt(m.group(1))
        ctx = _Context(prompted, host, i, i)
        for part in pieces(rest):
            words = split_argv(strip_keywords(part.text))
            inv = invocation(words)
            if not any(a.startswith("-") and len(a) > 1 for a in inv.argv[inv.at + 1:]) or \
                    not _runs_benchmark(inv, ctx, alone=True, background=False):
                continue
            found.events.append(ShellEvent(i, i, command=make_command(
                strip_keywords(part.text), ln.number, host, ln.depth, in_prose=True, author=ln.author)))
            spans.append((m.start(), m.end()))
    return spans


def _hypothetical(text: str, start: int) -> bool:
    """Does the sentence before `start` speak of a run still to come or a condition?"""
    return _HYPOTHETICAL.search(re.split(r"[.!?;]\s", text[:start])[-1]) is not None


def _wrappers_before(text: str, start: int) -> int:
    """Where the wrappers written in front of a program in a sentence begin ("run with
    taskset -c 1 sockperf tp ..."): the longest run of words before it that reads as
    wrappers ending exactly at the program."""
    spans = [m for m in re.finditer(r"\S+", text[max(0, start - 200):start])][-8:]
    offset = max(0, start - 200)
    best = start
    for k in range(len(spans), 0, -1):
        words = [m.group() for m in spans[-k:]]
        if basename(words[0]) not in WRAPPERS and not _ASSIGNMENT.match(words[0]):
            continue
        if invocation([*words, "PROGRAM"]).at == k:
            best = offset + spans[-k].start()
            break
    return best
