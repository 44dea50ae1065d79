"""Property checks of the command and action checks: any shell metacharacter anywhere in an
argument or a setup value is refused, whatever surrounds it."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from claims import safety
from claims.spec import Action, Command

META = sorted(set(safety.SHELL_CHARS) - {" "}) + [" "]
SAFE = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_.,:-", max_size=12)


@settings(max_examples=300, deadline=None)
@given(SAFE, st.sampled_from(META), SAFE, st.integers(min_value=1, max_value=6))
def test_metacharacter_in_any_argument_is_refused(pre, meta, post, pos):
    argv = ["netperf", "-H", "server", "-t", "TCP_RR", "-l", "10"]
    pos = min(pos, len(argv) - 1)
    argv[pos] = pre + meta + post
    problems = safety.check_command(Command(tool="netperf", argv=argv))
    assert any(p.level == "refused" and p.where == f"benchmark.argv[{pos}]" for p in problems)


@settings(max_examples=200, deadline=None)
@given(SAFE, st.sampled_from([m for m in META if m != " "]), SAFE)
def test_metacharacter_in_a_setup_value_is_refused(pre, meta, post):
    a = Action(kind="sysfs", key="/sys/class/net/eth0/gro_flush_timeout", value=pre + meta + post,
               device="eth0")
    p = safety.check_action(a)
    assert p is not None and p.level == "refused"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["..", ".", "eth0", "gro_flush_timeout", "device", "x", ""]),
                min_size=1, max_size=6))
def test_sysfs_paths_outside_the_device_are_never_allowed(parts):
    path = "/sys/class/net/" + "/".join(parts)
    p = safety.check_action(Action(kind="sysfs", key=path, value="1"))
    allowed = p is None
    if allowed:
        assert len(parts) == 2 and parts[1] == "gro_flush_timeout" and parts[0] not in (".", "..")
