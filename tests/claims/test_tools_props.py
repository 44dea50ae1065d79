"""Property checks: no argv and no text makes a tool description fail other than by
refusing (Refused) or by finding nothing."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claims.tools import Refused, all_tools

TOOLS = all_tools()
PROGRAMS = sorted({p for t in TOOLS for p in t.programs} | {"pktgen"})
# tokens that look like options and values of these tools, plus shell syntax
TOKENS = st.one_of(
    st.sampled_from(["-H", "-l", "-t", "-c", "-C", "-Cc", "--", "-p", "-P", "-r", "-o", "-O",
                     "-k", "-J", "-u", "-b", "-i", "-n", "stat", "ping-pong", "drop", "-e",
                     "TCP_RR", "20", "-1", "1,1", "x", ";", "$(id)", "`id`", "|", ">", "--time=",
                     "--pre=", "-l9999", "-n100", "=", "-", "lo", "10M", "::1"]),
    st.text(max_size=12),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PROGRAMS), st.lists(TOKENS, max_size=10))
def test_parse_args_only_refuses(program, args):
    for tool in TOOLS:
        if program in tool.programs or (program == "pktgen" and tool.name == "pktgen"):
            try:
                tool.parse_args([program, *args])
            except Refused:
                continue
            # what is accepted can be rewritten for a runner and stays acceptable
            out = tool.rewrite([program, *args], host="10.0.0.2", duration=1, port=12000)
            tool.parse_args(out)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=80), max_size=40))
def test_find_outputs_never_raises(lines):
    for tool in TOOLS:
        for blk in tool.find_outputs(lines):
            assert 0 <= blk.start <= blk.end < len(lines)


def test_super_netperf_refuses_a_digit_int_cannot_read() -> None:
    """'²' is a digit to str.isdigit but not to int(): found by the property above."""
    import pytest

    tool = next(t for t in TOOLS if "super_netperf" in t.programs)
    for count in ("²", "٣", "1²"):
        with pytest.raises(Refused):
            tool.parse_args(["super_netperf", count, "-H", "peer"])
    assert tool.parse_args(["super_netperf", "4", "-H", "peer"]).positionals[0] == "4"
