"""UnixBench's description on the reports of the shared archive: the BASELINE column of its
index table is the suite's fixed reference (the same in every report), so a Before/After pair
of it is configuration; every test result is higher-is-better, also in a table a mail lays
out itself."""
from __future__ import annotations

from claims.extract import extract_message
from claims.message import message_from_text
from claims.tools import tool_for_program

_TABLE = """\
System Benchmarks Index Values               BASELINE       RESULT    INDEX
Dhrystone 2 using register variables         116700.0  {d}
Pipe Throughput                               12440.0   {p}
Process Creation                                126.0      {c}
System Call Overhead                          15000.0    {o}
                                                                    ========
System Benchmarks Index Score                                        {s}
"""


def test_the_index_tables_reference_column_is_no_claim() -> None:
    """Waiman Long's two-block report (the numbers of machine 1, four rows of twelve)."""
    before = _TABLE.format(d="948326591.2  81261.9", p="46482107.6  37365.0", c="85442.2   6781.1",
                           o="4714906.1   3143.3", s="7923.3")
    after = _TABLE.format(d="947032915.5  81151.1", p="46466394.2  37352.4", c="85653.1   6797.9",
                          o="4658746.7   3105.8", s="8248.8")
    text = "Before using the patch:\n" + before + "\nAfter using the patch:\n" + after
    pairs = {c.metric: (c.baseline.value, c.candidate.value, c.better, c.tool)
             for c in extract_message(message_from_text(text)).claims if c.baseline and c.candidate}
    assert not any(b == c for b, c, _, _ in pairs.values())  # no BASELINE 126.0 -> 126.0
    assert pairs["index_score"] == (7923.3, 8248.8, "higher", "unixbench")
    assert pairs["pipe_throughput"] == (46482107.6, 46466394.2, "higher", "unixbench")
    assert pairs["system_call_overhead_index"][2] == "higher"


def test_a_mails_own_table_of_index_scores_is_higher_better() -> None:
    """A pipe table with one column per kernel (archive): System Call Overhead is loops per
    second, so 2967.0 -> 3273.9 is an improvement, not a regression."""
    text = ("                                        | 5.10.0-rc6 | pv_cond_yield | vcpu_is_preempted\n"
            " System Benchmarks Index Values        |    INDEX   |      INDEX    |      INDEX\n"
            "---------------------------------------+------------+---------------+-------------------\n"
            " Dhrystone 2 using register variables  |  29164.0   |    29156.9    |    29207.2\n"
            " File Copy 4096 bufsize 8000 maxblocks |    419.9   |     1992.0    |     2733.7\n"
            " System Call Overhead                  |   2967.0   |     3273.9    |     3497.9\n")
    got = [(c.metric, c.better) for c in extract_message(message_from_text(text)).claims if c.baseline]
    assert ("system_call_overhead", "higher") in got
    assert got and all(better == "higher" for _, better in got)


def test_a_raw_result_lines_run_length_and_samples_are_config() -> None:
    """Invented: the lines `Run` prints before its index table."""
    tool = tool_for_program("unixbench")
    assert tool is not None
    blocks = tool.find_outputs(["Dhrystone 2 using register variables       34562839.7 lps   (10.0 s, 7 samples)",
                                "Execl Throughput                               1974.1 lps   (29.9 s, 2 samples)"])
    got = [(s.metric, s.value, s.unit, s.config) for b in blocks for s in b.samples]
    assert got == [("dhrystone_2_using_register_variables", 34562839.7, "lps", False),
                   ("run_length", 10.0, "s", True), ("samples", 7.0, "count", True),
                   ("execl_throughput", 1974.1, "lps", False),
                   ("run_length", 29.9, "s", True), ("samples", 2.0, "count", True)]
