"""How a shell line written in a mail reads: its pieces (`a; b | c`, `a && b`, a trailing
`# comment` or `&`), its words, and the wrappers in front of the program it runs.

A wrapper (sudo, env, taskset, numactl, chrt, nice, timeout, onload, `ip netns exec NS`,
`docker exec CONTAINER`, `ssh HOST`, `perf stat`) is described by its grammar alone: which
of its options take a value and how many positional arguments it reads before the command
it runs.  With that, the program is found wherever it sits in argv (`sudo FOO=1 taskset -c
2-5 onload ./x`), and no list has to name the programs that may follow a wrapper.  perf's
own option arities come from its tool description (claims/tools/perf_stat.py), which is
the one place they are written.

Nothing here runs anything; it only reads text.
"""
from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache


@dataclass(frozen=True)
class Wrapper:
    """A program that runs another command.

    `valued` are its options that take a separate value; `positionals` how many plain
    arguments it reads before the command (taskset's mask, chrt's priority, timeout's
    duration, the namespace of `ip netns exec`, ssh's host); `words` the sub-command words
    that make it a wrapper at all (`ip netns exec`, `perf stat`); `measures` whether it
    shapes or measures the run it wraps, which makes that run a benchmark's.
    """

    name: str
    valued: frozenset[str] = frozenset()
    positionals: int = 0
    words: tuple[str, ...] = ()
    measures: bool = False


def _w(name: str, valued: str = "", positionals: int = 0, words: tuple[str, ...] = (),
       measures: bool = False) -> Wrapper:
    return Wrapper(name, frozenset(valued.split()), positionals, words, measures)


WRAPPERS: dict[str, tuple[Wrapper, ...]] = {}
for _wrapper in (
    _w("sudo", "-u -g -C -h -p -U -r -t -D --user --group --host --prompt --chdir"),
    _w("env", "-u -C -S --unset --chdir --split-string"),
    _w("time", "-f -o --format --output", measures=True),
    _w("nice", "-n --adjustment", measures=True),
    _w("ionice", "-c -n --class --classdata", measures=True),
    _w("taskset", "", 1, measures=True),
    _w("numactl", "-N -C -m -p -i -P --cpunodebind --physcpubind --membind --preferred "
                  "--interleave --cpubind", measures=True),
    _w("chrt", "-T -P -D --sched-runtime --sched-period --sched-deadline", 1, measures=True),
    _w("timeout", "-s -k --signal --kill-after", 1),
    _w("stdbuf", "-i -o -e --input --output --error"),
    _w("onload", "-p --profile", measures=True),
    _w("nohup"),
    _w("sh", "", 0, ("-c",)),
    _w("bash", "", 0, ("-c",)),
    _w("nsenter", "-t --target -S -G --setuid --setgid -w --wd"),
    _w("ip", "", 1, ("netns", "exec")),
    # a container's shell: `docker exec -it c1 iperf3 -c x` runs iperf3 in container c1
    _w("docker", "-u -w -e --user --workdir --env --env-file", 1, ("exec",)),
    _w("podman", "-u -w -e --user --workdir --env --env-file", 1, ("exec",)),
    _w("ssh", "-p -i -l -o -F -J -b -c -E -L -R -D -W -w -Q -m -O -S -e -B -I", 1),
    # perf's own options (-r, -e, --log-fd, ...) come from its tool description
    _w("perf", "", 0, ("stat",), measures=True),
    _w("perf", "-F --freq -c --count -m --mmap-pages --call-graph -z --compression-level "
               "--switch-output --max-size", 0, ("record",), measures=True),
):
    WRAPPERS[_wrapper.name] = WRAPPERS.get(_wrapper.name, ()) + (_wrapper,)

_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
# `do`, `then`, ...; and a C-style loop header run into its body without a `;`
# (`for ((i=0; i < 10; ++i)) do netperf ...`)
_KEYWORD_HEAD = re.compile(r"^(?:(?:for\s*\(\([^()]{0,200}\)\)\s*(?:;\s*)?do|do|then|else|exec|\{|\(|!)\s+)+")
_KEYWORD_TAIL = re.compile(r"(?:\s+(?:done|fi|\}|\)))+$")


@lru_cache(maxsize=1)
def _perf_valued() -> frozenset[str]:
    """perf stat's options that take a value, from its tool description."""
    try:
        from claims.tools import tool_for_program

        tool = tool_for_program("perf")
        opts = tool.options.options if tool is not None else []
        return frozenset(n for o in opts if o.value is not None and not o.optional_value
                         for n in o.names)
    except Exception:  # noqa: BLE001 - a broken tool module must not stop reading commands
        return frozenset({"-e", "-r", "-C", "-x", "-o", "-p", "-I", "-G", "-t", "--log-fd"})


@dataclass
class Invocation:
    """A command's words: the wrappers in front (each with its own words) and where the
    program they run sits (`at`; len(argv) when the wrappers run nothing)."""

    argv: list[str]
    at: int
    wrappers: list[tuple[str, list[str]]] = field(default_factory=list)

    @property
    def program(self) -> str:
        return basename(self.argv[self.at]) if self.at < len(self.argv) else ""

    @property
    def wrapper_names(self) -> list[str]:
        return [name for name, _ in self.wrappers]


def basename(word: str) -> str:
    return word.rsplit("/", 1)[-1]


def split_words(raw: str) -> list[str]:
    """shlex words, with `<buf size>` placeholders kept as one word and a quote left open
    by a mail read as plain words."""
    try:
        words = shlex.split(raw)
    except ValueError:
        words = raw.split()
    out: list[str] = []
    for w in words:
        if out and out[-1].startswith("<") and ">" not in out[-1] and len(out[-1]) < 40:
            out[-1] += " " + w
        else:
            out.append(w)
    return out


_REDIRECT = re.compile(r"^(?:\d*>>?|&>>?|\d*>&|\d*<)(?P<target>\S*)$")


# the redirections that end a command line: its output sent to a file ("> out.txt", ">> log",
# "2>&1", "&> /dev/null"); a "<placeholder>" is not one (its ">" follows a word)
_TRAILING_REDIRECTS = re.compile(r"(?:\s+(?:\d*>>?|&>>?)\s*[^\s<>|&;]+|\s+\d*>&\d+)+\s*$")


def without_output_file(text: str) -> str:
    """A command line as it is run to be read: without the redirections that end it (the
    output in a file is the writer's bookkeeping, not the benchmark's arguments)."""
    return _TRAILING_REDIRECTS.sub("", text) if ">" in text else text


def without_redirections(words: list[str]) -> list[str]:
    """The words a program receives: `2>&1`, `> out.txt`, `>>log`, `< in` are the shell's
    (a `<placeholder>` is kept)."""
    out: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        m = _REDIRECT.match(w)
        if m is None or (w.startswith("<") and w.endswith(">") and len(w) > 2):
            out.append(w)
            i += 1
            continue
        i += 1 if m.group("target") else 2
    return out


def invocation(argv: Sequence[str]) -> Invocation:
    """Walk the wrappers from the left: assignments, each wrapper's options (a valued option
    eats the next word), its positional arguments, then the program."""
    argv = list(argv)
    inv = Invocation(argv=argv, at=len(argv))
    i = 0
    while i < len(argv):
        word = argv[i]
        if _ASSIGNMENT.match(word):
            i += 1  # `FOO=1 cmd`, `sudo LD_PRELOAD=x cmd`, `env A=1 cmd`
            continue
        parts = split_words(word) if i and len(argv) < 200 and any(c in word for c in " \t") \
            else []
        if len(parts) > 1:
            argv[i:i + 1] = parts  # `ssh host "netperf -H x"`: the quoted command
            continue
        wrapper = _wrapper_at(argv, i)
        if wrapper is None:
            inv.at = i
            return inv
        j = i + 1 + len(wrapper.words)
        valued = wrapper.valued | (_perf_valued() if wrapper.name == "perf" else frozenset())
        left = wrapper.positionals
        while j < len(argv):
            a = argv[j]
            if a == "--":
                j += 1
                break
            if _ASSIGNMENT.match(a) and wrapper.name in ("env", "sudo"):
                j += 1
                continue
            if a.startswith("-") and len(a) > 1:
                name = a.split("=", 1)[0]
                j += 2 if name == a and a in valued else 1
                continue
            if left:
                left -= 1
                j += 1
                continue
            break
        label = " ".join((wrapper.name, *wrapper.words))
        inv.wrappers.append((label, argv[i:j]))
        if wrapper.name == "perf" and _perf_is_the_tool(argv[i:j], argv[j:]):
            inv.wrappers.pop()
            inv.at = i
            return inv
        i = j
    return inv


def _wrapper_at(argv: list[str], i: int) -> Wrapper | None:
    for w in WRAPPERS.get(basename(argv[i]), ()):
        if tuple(argv[i + 1:i + 1 + len(w.words)]) == w.words:
            return w
    return None


def _perf_is_the_tool(own: list[str], rest: list[str]) -> bool:
    """`perf stat -a -- sleep 10` counts a window of the whole system: perf itself is the
    benchmark; so is a `perf stat` / `perf record` that runs nothing."""
    if not rest:
        return True
    system_wide = any(a in ("-a", "--all-cpus") or a.startswith(("-C", "--cpu")) for a in own)
    return basename(rest[0]) == "sleep" and system_wide


def privilege_prefix(words: Sequence[str]) -> int:
    """How many leading words only set who runs a command and with what environment
    (`sudo -E`, `env A=1`, `FOO=1`): what follows is the command itself, setup or run."""
    i = 0
    while i < len(words):
        if _ASSIGNMENT.match(words[i]):
            i += 1
            continue
        w = _wrapper_at(list(words), i)
        if w is None or w.name not in ("sudo", "env"):
            return i
        inv = invocation(list(words[i:i + 1 + 64]))
        if not inv.wrappers:
            return i
        i += len(inv.wrappers[0][1])
    return i


def shell_c(words: Sequence[str]) -> str | None:
    """The command string of `sh -c "..."` / `bash -c "..."`, else None."""
    if len(words) == 3 and basename(words[0]) in ("sh", "bash") and words[1] == "-c":
        return words[2]
    return None


def measures(words: Sequence[str]) -> bool:
    """Does this wrapper (its own words, `["taskset", "-c", "2"]`) shape or measure the run?"""
    w = _wrapper_at(list(words), 0) if words else None
    return w is not None and w.measures


def strip_keywords(text: str) -> str:
    """`do netperf ...` inside a loop, `( cmd )`, `{ cmd; }`: the command itself."""
    return _KEYWORD_TAIL.sub("", _KEYWORD_HEAD.sub("", text)).strip()


# ---------------------------------------------------------------------------------------
# Pieces of a line


@dataclass(frozen=True)
class Piece:
    """One simple command of a shell line, as written; `background` for a trailing `&`."""

    text: str
    start: int  # offset in the line
    background: bool = False
    compound: bool = False  # the line held other pieces too


def pieces(line: str) -> list[Piece]:
    """The simple commands of a line: split at `;`, `&&`, `||`, `|` and `&` outside quotes,
    `$(...)` and backticks; a `#` that starts a word ends the line (a comment)."""
    out: list[tuple[int, int, bool]] = []
    quote = ""
    depth = 0
    start = 0
    i = 0
    n = len(line)
    while i < n:
        ch = line[i]
        if quote:
            if ch == quote:
                quote = ""
            elif ch == "\\" and quote == '"':
                i += 1
            i += 1
            continue
        if ch in "'\"`":
            quote = ch
        elif ch == "\\":
            i += 1
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif depth == 0 and ch == "#" and (i == 0 or line[i - 1] in " \t"):
            n = i
            break
        elif depth == 0 and ch in ";|&":
            two = line[i:i + 2]
            if ch == "&" and (i > 0 and line[i - 1] in "<>" or two == "&>"):
                i += 1  # 2>&1, &>file: a redirection, not a separator
                continue
            if ch == "|" and i > 0 and line[i - 1] == ">":
                i += 1  # >| file
                continue
            out.append((start, i, ch == "&" and two != "&&"))
            i += 2 if two in ("&&", "||", ";;") else 1
            start = i
            continue
        i += 1
    out.append((start, n, False))
    result: list[Piece] = []
    for a, b, bg in out:
        text = line[a:b]
        if text.strip():
            lead = len(text) - len(text.lstrip())
            result.append(Piece(text.strip(), a + lead, bg))
    if len(result) > 1:
        result = [Piece(p.text, p.start, p.background, True) for p in result]
    return result


_GAP = re.compile(r"\t+|\s{3,}")
_RESULT_START = re.compile(r"^[~<>]?[+-]?\d[\d.,]*(?:[eE][+-]?\d+)?%?(?:\s|$)")


def gap_splits(text: str, starts_command) -> tuple[list[str], bool]:  # noqa: ANN001 - a predicate
    """Two commands side by side on one line (`./udp_rr -c ...<TABS>./udp_stream -c ...`):
    split at a wide gap whose right side starts with a program (`starts_command(word)`).
    A wide gap followed by a number ends the command: what follows is its result
    (`sockperf pp -i x -t 10<TAB>12.3`); the flag says so."""
    parts: list[str] = []
    last = 0
    results = False
    for m in _GAP.finditer(text):
        right = text[m.end():]
        first = right.split(None, 1)[0] if right.strip() else ""
        if first and not first.startswith("-") and starts_command(first):
            parts.append(text[last:m.start()].strip())
            last = m.end()
        elif first and _RESULT_START.match(right) and text[last:m.start()].strip():
            parts.append(text[last:m.start()].strip())
            last = len(text)
            results = True
            break
    parts.append(text[last:].strip())
    return [p for p in parts if p], results
