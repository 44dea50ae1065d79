"""The block model: output runs named by the nearest text above them, paired by key or shape.

Inputs are small invented texts, each written the way real list mail writes one structure
(bare labels, bullets, numbered headings, a sentence that introduces a run, setup steps or
an arrow between runs, the candidate printed first); none of them names its own words in
the code.
"""
from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claims.blocks import (
    _masked,
    _step_key,
    comparisons,
    find_blocks,
    interjections,
    labelled_block_claims,
    line_kind,
)
from claims.extract import extract_message
from claims.message import message_from_text
from claims.numbers import SPREAD_NAME
from claims.prescan import might_have_claims
from tests.extractkit import ex, pairs
from tests.paths import SHARED


def test_bare_lines_name_the_blocks() -> None:
    text = ("Ten seconds per run:\n\nno readahead\nrx=4100 (250 MB)\npolls=900\n"
            "readahead\nrx=5200 (317 MB)\npolls=700\n")
    # "readahead" extends nothing and names no side: the negation decides
    assert pairs(text) == [(4100, 5200), (250, 317), (900, 700)]


def test_candidate_printed_first_and_a_sentence_between() -> None:
    text = ("patched (this series):\n\n  ops=912.5\n  ops_units=k/s\n\n"
            "We see less jitter with it.\n\nvanilla:\n\n  ops=700.25\n  ops_units=k/s\n")
    assert pairs(text) == [(700.25, 912.5)]


def test_numbered_headings_and_a_command_between_label_and_output() -> None:
    text = ("2. TX only\n2.1 Polled tx\n$ ./xdpsock -i eth0 -t -B\n"
            "                   pps            pkts\ntx                 81200          81800\n\n"
            "2.2 Plain tx\n$ ./xdpsock -i eth0 -t\n"
            "                   pps            pkts\ntx                 60400          60900\n")
    msg = message_from_text(text)
    msg.subject = "[PATCH] foo: polled tx for AF_XDP"  # the subject names the candidate
    got = [(c.baseline.value, c.candidate.value) for c in extract_message(msg).claims if c.baseline and c.candidate]
    assert got[:1] == [(60400, 81200)]


def test_an_arrow_line_reads_left_to_right() -> None:
    text = ("   1,200.5 msec task-clock\n   3,400,000 cycles\n\n-->\n\n"
            "   1,000.0 msec task-clock\n   2,900,000 cycles\n")
    assert pairs(text) == [(1200.5, 1000.0), (3400000, 2900000)]


def test_labels_that_say_nothing_pair_nothing() -> None:
    # two tables titled by two tests are not two variants of one
    text = ("Sequential read:\n  bw=100 MB/s\n  iops=25\n\nRandom read:\n  bw=40 MB/s\n  iops=10\n")
    assert pairs(text) == []


def test_rows_pair_by_key_in_any_order() -> None:
    text = ("Without the patch:\n  p50: 12 us\n  p99: 80 us\n\n"
            "With the patch:\n  p99: 41 us\n  p50: 11 us\n")
    assert sorted(pairs(text)) == [(12, 11), (80, 41)]


def test_a_family_left_alone_is_not_paired() -> None:
    text = ("  tcp single\n    900 MB/s 300 calls/s\n  tcp batched\n    1500 MB/s 90 calls/s\n"
            "  udp without batching\n    870 MB/s 290 calls/s\n")
    assert pairs(text) == [(900, 1500), (300, 90)]


def test_comparisons_follow_the_lexicon() -> None:
    assert comparisons(["net-next", "net-next + series"], [False, False]) == [(0, [1])]
    assert comparisons(["TCP_RR", "UDP_RR"], [False, False]) == []
    assert comparisons(["a", "b"], [False, True]) == [(0, [1])]


def test_code_listings_are_not_output() -> None:
    text = ("before:\n10     ret = flush(q);\n11     if (ret == -EINVAL) {\n"
            "after:\n10     ret = flush(q);\n12     }\n")
    assert pairs(text) == []


_LINE = st.one_of(
    st.sampled_from(["Before:", "after", "- with", "1.1 Zero-copy", "-->", "", "=====",
                     "The numbers come from this run,", "ethtool -K eth0 gro on"]),
    st.from_regex(r"[a-z_]{1,8}=[0-9]{1,6}(\.[0-9]{1,3})?( MB)?", fullmatch=True),
    st.from_regex(r" {0,4}[0-9,]{1,9} +[a-z/-]{1,10}( +# +[0-9.]+)?", fullmatch=True),
    st.text(max_size=40),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_LINE, max_size=60), st.text(max_size=60))
def test_block_model_never_crashes(lines: list[str], subject: str) -> None:
    msg = message_from_text("\n".join(lines))
    find_blocks(msg.lines, set())
    labelled_block_claims(msg.lines, set(), subject=subject)


def test_block_model_is_linear() -> None:
    text = "without x\nrx=1 (3 MB)\nwith x\nrx=2 (4 MB)\n" * 3000
    msg = message_from_text(text)
    t = time.process_time()
    got, _ = labelled_block_claims(msg.lines, set())
    assert len(got) >= 3000
    assert time.process_time() - t < 10  # a bound, not a benchmark: quadratic took minutes


def test_a_wrapper_running_the_benchmark_does_not_name_the_blocks() -> None:
    # "taskset -c 2" is part of the command line above both runs, not a setup step of the first
    text = ("Running:\n\n   taskset -c 2 ./ring_bench --batch=64\n\n- without the patch\n\n"
            "   2,791.70 msec task-clock\n   7,249,926 cycles\n\n- with the patch\n\n"
            "   2,753.36 msec task-clock\n   7,150,358 cycles\n\n- modified, without the patch\n\n"
            "   4,126.66 msec task-clock\n   10,716,808 cycles\n\n- modified, with the patch\n\n"
            "   3,953.55 msec task-clock\n   10,267,242 cycles\n")
    assert pairs(text) == [(2791.70, 2753.36), (7249926, 7150358), (4126.66, 3953.55), (10716808, 10267242)]


def test_steps_of_a_procedure_are_not_a_candidate_printed_first() -> None:
    # sentences naming no side outright, "after" above "before": a log read top to bottom
    text = ("// This is the cache size after this operation.\ncat /proc/meminfo | grep Cached:\nCached:   65536 kB\n\n"
            "// This is the cache size before the guest starts.\ncat /proc/meminfo | grep Cached:\nCached:   0 kB\n")
    assert (0, 65536) not in pairs(text)
    # labels naming their sides outright still pair, whichever is printed first
    assert comparisons(["patched (this series)", "vanilla"], [False, False]) == [(1, [0])]


def test_blocks_printing_the_same_lines_pair_line_by_line_across_a_unit_switch() -> None:
    # each side repeats one sub-heading per test; the tool changes its unit with the scale
    # ("op/s" then "kop/s") and packs three results into one word ("a/b/c")
    run = ("Testing mutex [load = 1]\nN = {n}, Lo/Mid/Hi = {lo}/{mid}/{hi}\n"
           "N = {n}, Rate = {rate}\n\n")
    text = ("v6.1\n====\n\n" + run.format(n=8, lo=10, mid=12, hi=14, rate="1,200,000 op/s")
            + run.format(n=4, lo=20, mid=22, hi=24, rate="2,300 kop/s")
            + "v6.1-fast+\n==========\n\n" + run.format(n=8, lo=30, mid=32, hi=34, rate="3,400 kop/s")
            + run.format(n=4, lo=40, mid=42, hi=44, rate="4,500 kop/s"))
    lines = message_from_text(text).lines
    claims, _ = labelled_block_claims(lines, set())
    got = [(c.baseline.value, c.candidate.value) for c in claims]
    assert (1200000, 3400) in got and (2300, 4500) in got  # values as printed
    assert (12, 32) in got and (22, 42) in got  # the packed middle values pair too
    # each side keeps its own unit, so the pair reads in one: 1,200,000 op/s against
    # 3,400,000 op/s is +183%, not the -99.7% of the bare numbers
    (switch,) = [c for c in claims if c.baseline.value == 1200000]
    assert (switch.baseline.unit, switch.candidate.unit) == ("op/s", "kop/s")
    assert switch.candidate_in_baseline_unit() == 3400000 and round(switch.change_pct or 0) == 183


def test_a_row_wrapped_by_the_mail_client_is_joined_and_a_mistyped_name_keeps_its_place() -> None:
    text = ("With the cache:\n"
            "64K:   [ 5] 0.0-5.0 sec 1.1 GBytes 2.2 Gbits/sec 0 100 KBytes\n"
            "1M:    [ 5] 0.0-5.0 sec 3.3 GBytes 4.4 Gbits/sec 0\n"
            "200 KBytes\n"
            "8M:    [ 5] 0.0-5.0 sec 5.5 GBytes 6.6 Gbits/sec 0 300 KBytes\n\n"
            "Without the cache:\n"
            "64:    [ 5] 0.0-5.0 sec 1.0 GBytes 2.0 Gbits/sec 0 110 KBytes\n"
            "1M:    [ 5] 0.0-5.0 sec 3.0 GBytes 4.0 Gbits/sec 0 210 KBytes\n"
            "8M:    [ 5] 0.0-5.0 sec 5.0 GBytes 6.0 Gbits/sec 0 310 KBytes\n")
    got = pairs(text)
    assert {(2.0, 2.2), (4.0, 4.4), (6.0, 6.6)} <= set(got)
    assert (210, 200) in got  # the wrapped tail is the row's last cell


def test_ping_summary_pairs_its_round_trip_times_not_its_run_time() -> None:
    text = ("Before:\nh1:~# ping -c 100 -i 0.1 -q h2\n"
            "100 packets transmitted, 100 received, 0% packet loss, time 10100ms\n"
            "rtt min/avg/max/mdev = 0.050/0.300/9.000/1.000 ms, pipe 2\n\n"
            "After:\nh1:~# ping -c 100 -i 0.1 -q h2\n"
            "100 packets transmitted, 100 received, 0% packet loss, time 10020ms\n"
            "rtt min/avg/max/mdev = 0.040/0.100/0.500/0.050 ms\n")
    got = {(c.baseline.value, c.candidate.value): c for c in extract_message(message_from_text(text)).claims}
    assert (0.3, 0.1) in got and got[(0.3, 0.1)].metric == "rtt_avg" and got[(0.3, 0.1)].better == "lower"
    assert (10100, 10020) not in got


def test_a_sentence_between_runs_names_the_side_and_runs_pair_by_their_condition() -> None:
    text = ("Run 1 (ring of 256):\n  rx=4100 polls=900\n\n"
            "Run 2 (ring of 1024):\n  rx=5000 polls=800\n\n"
            "Runs 3 and 4 use the patched driver with the early\nwake-up.\n\n"
            "Run 3 (ring of 256):\n  rx=4300 polls=700\n\n"
            "Run 4 (ring of 1024):\n  rx=5600 polls=650\n")
    claims, _ = labelled_block_claims(message_from_text(text).lines, set())
    got = {(c.baseline.value, c.candidate.value) for c in claims}
    assert got == {(4100, 4300), (900, 700), (5000, 5600), (800, 650)}


def test_rows_of_a_command_and_its_result_pair_across_labelled_blocks() -> None:
    """Each row the command that was run, a tab, and what it gave, under "## net branch" and
    "## with this patch" (trimmed from <1623141265.8537853-1-xuanzhuo@linux.alibaba.com>):
    the commands are still commands, and their results pair by the command as the row key."""
    text = ("Judging from this data, there is no impact on performance.\n"
            "## net branch\n"
            "sockperf tp -i 192.168.122.202 -t 200 -m 64\t284108.00\n"
            "sockperf tp -i 192.168.122.202 -t 200 -m 256\t292173.00\n"
            "sockperf tp -i 192.168.122.202 -t 200 -m 1000\t299591.00\n"
            "## with this patch(There are some conflicts)\n"
            "sockperf tp -i 192.168.122.202 -t 200 -m 64\t294286.00\n"
            "sockperf tp -i 192.168.122.202 -t 200 -m 256\t299659.00\n"
            "sockperf tp -i 192.168.122.202 -t 200 -m 1000\t299400.00\n")
    assert pairs(text) == [(284108, 294286), (292173, 299659), (299591, 299400)]
    ex = extract_message(message_from_text("Subject: x\n\n" + text))
    assert [c.raw for c in ex.commands] == ["sockperf tp -i 192.168.122.202 -t 200 -m 64",
                                           "sockperf tp -i 192.168.122.202 -t 200 -m 256",
                                           "sockperf tp -i 192.168.122.202 -t 200 -m 1000"]
    assert {c.baseline.label for c in ex.claims if c.baseline} == {"net branch"}


def _keys_agree(texts: list[str]) -> list[list[str]]:
    by_mask: dict[str, set[str]] = {}
    for t in texts:
        by_mask.setdefault(_masked(t), set()).add(t)
    return [sorted(ts) for ts in by_mask.values() if len({_step_key(t) for t in ts}) > 1]


def test_lines_the_step_mask_makes_equal_have_one_step_key() -> None:
    """The transcript reader reads only lines whose _step_key stands twice: sound only if
    every two lines _masked makes equal share it, on the corpus's lines and on lines of
    other digits and blanks (Arabic-Indic digits, no-break and em spaces, "#")."""
    texts = [ln for p in sorted((SHARED / "corpus").glob("*.txt")) for ln in p.read_text().split("\n")]
    assert len(texts) > 5000 and _keys_agree(texts) == []
    assert _keys_agree(["echo 1 > x", "echo \u0661 > x", "echo  2\xa0> x", "echo # > x", "ECHO 3,5 >\u2003x"]) == []
    assert _step_key("echo 1 > x") != _step_key("echo 1 > y")


@given(st.lists(st.text(alphabet="0123456789,.# \t\x1c\xa0\u2003\u0661aAb>-:\u0130\x85", max_size=8), max_size=40))
@settings(max_examples=200, deadline=None)
def test_the_step_key_never_parts_what_the_mask_joins(texts: list[str]) -> None:
    assert _keys_agree(texts) == []


def test_a_key_printed_before_each_tool_line_is_the_claims_context() -> None:
    """iperf3 interval lines each printed under the size they ran with ("1K:   [  5] ...")
    in one block per side: the tool names the numbers (transfer, bitrate), the key says
    which run, so each size keeps its own claim and spec; a key one side mistyped is shown
    as both sides wrote it."""
    def side(keys: list[str], gbytes: list[str]) -> str:
        return "".join(f"{k}:     [  5]  30.00-35.00  sec  {g} GBytes  {float(g) * 1.7:.1f} Gbits/sec    0\n"
                       for k, g in zip(keys, gbytes, strict=True))

    text = ("Subject: [PATCH net-next] x\n\nHere is the iperf3 output:\n\nWith the patch:\n"
            + side(["256K", "1K", "4K"], ["1.34", "4.63", "13.3"]) + "\nWithout the patch:\n"
            + side(["256", "1K", "4K"], ["1.57", "5.47", "14.5"]))
    ex = extract_message(message_from_text(text))
    got = {(c.context, c.metric): (c.baseline.value, c.candidate.value) for c in ex.claims if c.baseline and c.candidate}
    assert got[("1K", "transfer")] == (5.47, 4.63)
    assert got[("4K", "transfer")] == (14.5, 13.3)
    assert got[("256 / 256K", "transfer")] == (1.57, 1.34)
    assert {ctx for ctx, _ in got} == {"256 / 256K", "1K", "4K"}

    from claims.specbuild import specs_for

    # one spec per size, each saying which: before, three specs of one "transfer" each, unnamed
    assert sorted(m.label for spec in specs_for(ex) for m in spec.metrics if m.name == "transfer") \
        == ["1K", "256 / 256K", "4K"]


def test_a_setting_that_names_each_row_is_its_claims_context() -> None:
    """fio results listed per job count under each side ("-- numjobs=2 : IOPS = 367K, avg
    latency = 347.33us"): the words name the numbers, the setting before the ":" names the
    run; a row that names its first number there ("Rx-pps: 8861574  Rx-bps: ...") keeps none."""
    text = ("Subject: x\n\n- Fio io_uring poll without virtio-blk poll support\n"
            "\t-- numjobs=1 : IOPS = 339K, avg latency = 188.33us\n"
            "\t-- numjobs=2 : IOPS = 367K, avg latency = 347.33us\n\n"
            "- Fio io_uring poll with virtio-blk poll support\n"
            "\t-- numjobs=1 : IOPS = 385K, avg latency = 165.94us\n"
            "\t-- numjobs=2 : IOPS = 408K, avg latency = 313.28us\n")
    got = [(c.context, c.metric, c.baseline.value, c.candidate.value)
           for c in extract_message(message_from_text(text)).claims if c.baseline and c.candidate]
    assert got == [("numjobs=1", "IOPS", 339, 385), ("numjobs=1", "avg latency", 188.33, 165.94),
                   ("numjobs=2", "IOPS", 367, 408), ("numjobs=2", "avg latency", 347.33, 313.28)]
    text = ("Subject: x\n\nwithout the patch:\n  Rx-pps:   8861574     Rx-bps:  3969985208\n\n"
            "with the patch:\n  Rx-pps:   6333196     Rx-bps:  2837272088\n")
    got = [(c.context, c.metric) for c in extract_message(message_from_text(text)).claims]
    assert len(got) == 2 and {ctx for ctx, _ in got} == {None}


def test_each_number_of_a_packed_word_takes_its_own_name() -> None:
    """"Min/Mean/Max = 77,665/90,153/106,895" under each kernel: three results, each named
    at its place ("Min" kept as a name, not read as minutes), not one named and two 'value'."""
    text = ("Subject: x\n\n5.8.0-rc4\n=========\n\nThreads = 160, Min/Mean/Max = 77,665/90,153/106,895\n\n"
            "5.8.0-rc4-qlock+\n================\n\nThreads = 160, Min/Mean/Max = 123,835/124,580/124,587\n")
    got = {c.metric: (c.baseline.value, c.candidate.value, c.unit)
           for c in extract_message(message_from_text(text)).claims if c.baseline and c.candidate}
    assert got["Min/Mean/Max: Min"] == (77665, 123835, None)
    assert got["Min/Mean/Max: Mean"] == (90153, 124580, None)
    assert got["Min/Mean/Max: Max"] == (106895, 124587, None)


def test_a_setting_each_row_starts_with_and_both_sides_share_names_the_row() -> None:
    """locktest's rows under each kernel ("Threads = 160, Total Rate = 1,441,759 op/s"):
    the thread count is the same on both sides and another down the rows, so it is the
    parameter the rows sweep; it names each claim, and is no claim of its own."""
    def side(rates: list[str]) -> str:
        return "".join(f"Threads = {n}, Total Rate = {r} op/s\n"
                       for n, r in zip((160, 80, 40), rates, strict=True))

    text = ("Subject: x\n\n5.8.0-rc4\n=========\n\n" + side(["1,441,759", "2,555,000", "4,001,000"])
            + "\n5.8.0-rc4-qlock+\n================\n\n" + side(["1,992,000", "4,825,000", "5,299,000"]))
    got = {(c.context, c.metric): (c.baseline.value, c.candidate.value)
           for c in extract_message(message_from_text(text)).claims if c.baseline and c.candidate}
    assert got == {("Threads = 160", "Total Rate"): (1441759, 1992000), ("Threads = 80", "Total Rate"): (2555000, 4825000),
                   ("Threads = 40", "Total Rate"): (4001000, 5299000)}


def test_a_bullet_before_a_value_is_no_part_of_its_name() -> None:
    """Results listed as bullets under each side ("No sockmap:" / "- 76.3 MB/s"): the value
    is named by what its unit measures, not "- MB/s"."""
    text = ("Subject: x\n\nNo sockmap:\n- 76.3 MB/s\n- The guest redirector was socat\n"
            "Using sockmap (this patch):\n- 168.8 MB/s (+121%)\n")
    got = [(c.metric, c.unit, c.baseline.value, c.candidate.value) for c in extract_message(message_from_text(text)).claims
           if c.baseline and c.candidate]
    assert got == [("throughput", "MB/s", 76.3, 168.8)]


def test_a_line_whose_words_carry_numbers_pairs_with_its_twin() -> None:
    """fio's summary line ends with words holding numbers ("(28.1GiB/60001msec)") that
    differ between runs: a line's shape masks them, or the one line per side had no twin
    on the other side and the IOPS and bandwidth gave no claim."""
    text = ("before:\n"
            "  read: IOPS=123k, BW=480MiB/s (503MB/s)(28.1GiB/60001msec)\n"
            "after:\n"
            "  read: IOPS=156k, BW=609MiB/s (639MB/s)(35.7GiB/60001msec)\n")
    assert pairs(text) == [(123, 156), (480, 609)]


def test_time_output_and_a_count_in_parentheses_are_output() -> None:
    """time(1)'s "real 0m12.345s" per side, and hackbench's banner "(== 400 tasks)" above
    its "Time:": the gate had no number pattern for the first, and the block reader took
    the second for a line of code (an "==" with no operand before it) and read no block."""
    timed = ("Without the patch:\nreal\t0m12.345s\nuser\t0m40.123s\nsys\t0m5.678s\n\n"
             "With the patch:\nreal\t0m11.345s\nuser\t0m40.023s\nsys\t0m4.678s\n")
    assert might_have_claims(timed)
    assert [(c.metric, c.baseline.value, c.candidate.value, c.unit) for c in ex(timed).claims] == [
        ("real", 12.345, 11.345, "s"), ("user", 40.123, 40.023, "s"), ("sys", 5.678, 4.678, "s")]
    banner = "Running in process mode with 10 groups using 40 file descriptors each (== 400 tasks)\n"
    hackbench = f"Before:\n{banner}Time: 1.234\nAfter:\n{banner}Time: 1.034\n"
    assert [(c.metric, c.baseline.value, c.candidate.value, c.better) for c in ex(hackbench).claims] == [
        ("Time", 1.234, 1.034, "lower")]
    assert line_kind("  if (ret == 0)") == "code" and line_kind(banner) == "text"


def test_a_measured_value_is_no_part_of_a_rows_name() -> None:
    """dbench: "Throughput 1234.56 MB/sec  8 clients  8 procs  max_latency=12.345 ms". The
    words before the first wide gap are a name only while the numbers in them are bare
    ("Dhrystone 2 using register variables"): with its unit, 1234.56 MB/sec is the result.
    The throughput had been lost and the latency named after it (so higher-is-better)."""
    text = ("Before:\nThroughput 1234.56 MB/sec  8 clients  8 procs  max_latency=12.345 ms\n"
            "After:\nThroughput 1334.56 MB/sec  8 clients  8 procs  max_latency=10.345 ms\n")
    got = {(c.baseline.value, c.candidate.value): (c.unit, c.better) for c in ex(text).claims}
    assert got[(1234.56, 1334.56)] == ("MB/sec", "higher") and got[(12.345, 10.345)] == ("ms", "lower")


def test_a_disassembly_is_code() -> None:
    """The kernel's decodecode prints an oops's code twice ("2f:\\t41 54 \\tpush %r12", then
    from the faulting instruction "5:\\t41 54 \\tpush %r12"): two listings of one shape,
    which a block reader (once a line's shape masked the numbers in its words) paired
    into "claims" such as push %r12 54 -> 55. Offset, tab, bytes, tab: code."""
    listing = ("Code starting with the faulting instruction\n"
               "===========================================\n"
               "   0:\t41 55                \tpush   %r13\n"
               "   2:\t49 89 f5             \tmov    %rsi,%r13\n"
               "   5:\t41 54                \tpush   %r12\n")
    text = ("Code: \n  2a:*\t41 55                \tpush   %r13\t\t<-- trapping instruction\n"
            "  2c:\t49 89 f5             \tmov    %rsi,%r13\n  2f:\t41 54                \tpush   %r12\n\n"
            + listing)
    assert all(line_kind(ln) == "code" for ln in listing.splitlines()[2:])
    assert ex(text).claims == []
    assert line_kind("10: 12 34 56") == "data"  # a key and its values, spaced: output


_SCHBENCH = "".join(line + "\n" for line in (  # schbench prints its rows after a tab
    "Wakeup Latencies percentiles (usec) runtime 30 (s) ({} total samples)",
    "\t  50.0th: {}         ({} samples)",
    "\t* 99.0th: {}         ({} samples)",
    "\t  min=1, max={}",
    "Request Latencies percentiles (usec) runtime 30 (s) ({} total samples)",
    "\t  50.0th: {}       ({} samples)",
    "\t* 99.0th: {}      ({} samples)",
    "\t  min=3978, max={}",
    "RPS percentiles (requests) runtime 30 (s) (31 total samples)",
    "\t* 50.0th: {}      (18 samples)",
    "\t  min=12170, max=12458",
    "average rps: {}"))


def test_sections_of_a_tools_output_name_their_rows() -> None:
    """schbench prints three sections per run, each with a "50.0th:" row, under a heading
    that gives their unit ("Wakeup Latencies percentiles (usec) ..."). The rows are named
    by their section and take its unit (so a request latency is lower-is-better, though
    "Request" reads as a rate); how many samples a percentile came from is no result. The
    claims had all been "50.0th", without unit or direction, beside "samples" claims."""
    text = ("Before:\n" + _SCHBENCH.format(370213, 16, 110458, 50, 33233, 4891, 370452, 8136, 111232, 12176,
                                           33133, 42048, 12368, 12339.07)
            + "\nAfter:\n" + _SCHBENCH.format(373000, 14, 111000, 40, 34000, 4500, 373100, 8000, 112000, 11000,
                                              34100, 40000, 12500, 12450.5))
    assert might_have_claims(text)
    got = {c.metric: (c.baseline.value, c.candidate.value, c.unit, c.better) for c in ex(text).claims}
    assert got["Wakeup Latencies percentiles 99.0th"] == (50, 40, "usec", "lower")
    assert got["Request Latencies percentiles 50.0th"] == (8136, 8000, "usec", "lower")
    assert got["RPS percentiles 50.0th"][:2] == (12368, 12500)
    assert not any("sample" in m for m in got)


def test_words_in_parentheses_after_a_keyed_value_are_its_aside() -> None:
    """pgbench prints "tps = 512345.67 (without initial connection time)". The words in
    parentheses say how the value was taken, not what it is: the name stands before the
    "=". Read as the name, "... connection time" made the rate lower-is-better (a gain
    judged a regression); in a block, the line's many plain words made it a wrapped
    sentence, and the rate was lost."""
    run = ("number of transactions actually processed: {}\nlatency average = {} ms\n"
           "tps = {} (without initial connection time)\n")
    text = ("pgbench -S -c 64 -j 64 -T 60:\n\nbase:\n" + run.format(30740740, 0.125, 512345.67)
            + "\npatched:\n" + run.format(32407407, 0.118, 540123.45))
    got = {c.metric: (c.baseline.value, c.candidate.value, c.better) for c in ex(text).claims}
    assert got["transaction rate"] == (512345.67, 540123.45, "higher")
    assert got["latency average"] == (0.125, 0.118, "lower")
    rows = ("  base:    tps = 512345.67 (without initial connection time)\n"
            "  patched: tps = 540123.45 (without initial connection time)\n\nThat is +5.4%.\n")
    (claim,) = ex(rows).claims
    assert (claim.metric, claim.better, claim.claimed_change_pct) == ("transaction rate", "higher", 5.4)
    (claim,) = ex("  base:    throughput = 512345.67 (higher is better)\n"
                  "  patched: throughput = 540123.45 (higher is better)\n").claims
    assert (claim.metric, claim.better) == ("throughput", "higher")
    # with no name before the value, the words in parentheses are still the best one
    assert "TCP_STREAM" in ex("  base:    9.1 Gbps (TCP_STREAM)\n  patched: 9.4 Gbps (TCP_STREAM)\n").claims[0].metric


_TCRYPT = ("testing speed of async ecb(aes) (ecb-aes-ce) encryption\n"
           "test 0 (128 bit key, 16 byte blocks): 1 operation in {} cycles (16 bytes)\n"
           "test 1 (128 bit key, 64 byte blocks): 1 operation in {} cycles (64 bytes)\n")


def test_numbers_after_a_rows_first_word_are_its_names() -> None:
    """tcrypt keys each row "test 0 (128 bit key, 16 byte blocks):". Its numbers name the
    test; they had been read as results (a "bit key" claim of 128 -> 128 per row) and the
    rows had no key. Numbers that open a line ("133292pps 68Mb/sec errors:") or follow an
    "=" ("avg = 145 nsecs, total:") are still results."""
    text = "Before:\n" + _TCRYPT.format(115, 192) + "\nAfter:\n" + _TCRYPT.format(98, 160)
    got = {(c.context, c.metric): (c.baseline.value, c.candidate.value, c.better) for c in ex(text).claims}
    assert got[("test 0 (128 bit key, 16 byte blocks)", "operation in cycles")] == (115, 98, "lower")
    assert got[("test 1 (128 bit key, 64 byte blocks)", "operation in cycles")] == (192, 160, "lower")
    assert not any("key" in metric for _, metric in got)
    funclatency = ("{}:\n# funclatency -d 10 vhost_get_vq_desc\n"
                   "avg = {} nsecs, total: {} nsecs, count: {}\n")
    text = funclatency.format("current code", 145, 1455980341, 9985224) + "\n" \
        + funclatency.format("vmap", 122, 1286983929, 10478134)
    assert (145, 122) in pairs(text)


def test_a_minimum_is_no_duration_in_minutes() -> None:
    """cyclictest prints "Min:  2 Act:  3 Avg:  3 Max:  45" per thread: "Min" names the
    minimum, as "Max" the maximum (it had become a unit, minutes, and the claim a "time");
    "P:99 I:200 C:3000000" are items of their own, no name of the number before them."""
    row = "T: 0 ( {}) P:99 I:200 C:3000000 Min:      2 Act:    3 Avg:    3 Max:      {}\n"
    text = "v6.7-rt:\n" + row.format(1234, 45) + "\nv6.7-rt + this series:\n" + row.format(1301, 21)
    got = {c.metric: (c.baseline.value, c.candidate.value, c.unit) for c in ex(text).claims}
    assert got["Min"] == (2, 2, None)
    assert got["Max"] == (45, 21, None)
    assert not any("P:99" in metric or metric == "time" for metric in got)


_MEMCPY = ("# Running 'mem/memcpy' benchmark:\n"
           "# function 'default' (Default memcpy() provided by glibc)\n"
           "# Copying 1GB bytes ...\n\n      {} GB/sec\n")


def test_lines_every_block_repeats_name_no_side() -> None:
    """perf bench prints the same two banner lines over each run's result: the side is named
    by the nearest line above them that differs ("before:" / "after:"), past every line
    they share, though the banner has a side's word in it ("default"). No claim had come."""
    text = ("perf bench mem memcpy -s 1GB -l 10:\n\nbefore:\n" + _MEMCPY.format(10.412415)
            + "\nafter:\n" + _MEMCPY.format(12.874551))
    got = [(c.baseline.value, c.candidate.value, c.baseline.label, c.candidate.label, c.better)
           for c in ex(text).claims]
    assert got == [(10.412415, 12.874551, "before", "after", "higher")]


def test_a_histograms_buckets_are_no_claims() -> None:
    """bpftrace draws a count's bar after each bucket ("[2, 4)   1234 |@@@@   |"), as bcc does
    after "2 -> 3 : 1234": a share of a distribution, not a result to reproduce. The
    biggest bucket's count had been a claim named by its bar."""
    hist = ("@usecs:\n[0]                  {} |@@                                                  |\n"
            "[1]                 {} |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
            "[2, 4)              {} |@@@@@@@@@@@@@@@@@@@@@@@@@@@                         |\n")
    text = "tcp_sendmsg latency, before:\n\n" + hist.format(123, 2345, 1234) + "\nafter:\n\n" + hist.format(456, 2890, 789)
    assert ex(text).claims == []


def test_a_header_names_each_column_whole() -> None:
    """memtier_benchmark heads its columns "Avg. Latency   p50 Latency   p99 Latency": the
    period of "Avg." is no sentence's end (the line had not been a header, and every claim
    was named "Totals" without a direction), and a value standing under "Latency" takes the
    whole name its column has."""
    run = ("Type         Ops/sec     Hits/sec   Misses/sec    Avg. Latency     p50 Latency     p99 Latency\n"
           "Totals     {}     12345.67     98765.43         {}         1.51900         {}\n")
    text = "base:\n" + run.format(123456.78, "1.61900", "3.93500") + "\npatched:\n" + run.format(134567.89, "1.48600", "3.51900")
    got = {c.metric: (c.baseline.value, c.candidate.value, c.better) for c in ex(text).claims}
    assert got["Totals Ops/sec"] == (123456.78, 134567.89, "higher")
    assert got["Totals Avg. Latency"] == (1.619, 1.486, "lower")
    assert got["Totals p99 Latency"] == (3.935, 3.519, "lower")


def test_plain_names_spaced_as_columns_head_them() -> None:
    """perf trace -s heads its columns with plain words ("syscall  calls  errors  total  min
    avg  max  stddev"), their units on a second line and dashes under both: the words are
    names spaced as columns, not a wrapped sentence, and the dashes name nothing. The
    claims had been named "futex --------------- --------" and "futex (msec) ---------"."""
    head = ("   syscall            calls  errors  total       min       avg       max       stddev\n"
            "                                     (msec)    (msec)    (msec)    (msec)        (%)\n"
            "   --------------- --------  ------ -------- --------- --------- ---------     ------\n")
    text = ("perf trace -s, before:\n\n" + head
            + "   futex              12345      0  1234.567     0.001     0.100    12.345      3.21%\n\nafter:\n"
            + "   futex               6789      0   567.890     0.001     0.084     9.876      2.98%\n")
    got = {c.metric: (c.baseline.value, c.candidate.value) for c in ex(text).claims}
    assert got["futex calls"] == (12345, 6789)
    assert got["futex avg (msec)"] == (0.1, 0.084)
    assert not any("--" in m for m in got)
    # the runs' spread is no result (as a grid's spread column or Stddev row, 56692fa)
    assert not any("stddev" in m for m in got)


def test_fio_runs_pasted_whole_pair_their_results_only() -> None:
    """fio's output of two runs: each opens with "pid=N: <date>", which had given claims of
    the pids (1234 -> 1301) and of the dates' days and years, and its latency lines'
    "stdev=" had been a claim of the samples' spread."""
    run = ("randread: (groupid=0, jobs=4): err= 0: pid={}: {} Dec  {} 10:00:00 2026\n"
           "  read: IOPS={}k, BW={}MiB/s\n"
           "    clat (usec): min=3, max={}, avg={}, stdev={}\n")
    text = ("Before:\n\n" + run.format(1234, "Mon", 7, 412, 1609, 2211, 38.12, 11.02)
            + "\nAfter:\n\n" + run.format(1301, "Tue", 8, 498, 1945, 1870, 31.40, 9.87))
    got = {(c.baseline.value, c.candidate.value) for c in ex(text).claims if c.baseline and c.candidate}
    assert {(412, 498), (1609, 1945), (2211, 1870), (38.12, 31.40)} <= got
    assert not got & {(1234, 1301), (7, 8), (11.02, 9.87)}


def test_sockperfs_spread_statistics_are_no_results() -> None:
    """sockperf prints its average with the samples' spread in parentheses ("(std-dev=1.234,
    mean-ad=0.987, median-ad=0.876, siqr=0.765, cv=0.100, std-error=0.012, ...)"): each had
    been a claim of two runs; only the average and the percentiles are results."""
    run = ("sockperf: ====> avg-latency={} (std-dev={}, mean-ad={}, median-ad={}, siqr={}, cv={}, "
           "std-error={}, mean-ci-99%={})\nsockperf: ---> percentile 99.000 =   {}\n")
    text = ("Before:\n" + run.format(12.345, 1.234, 0.987, 0.876, 0.765, 0.100, 0.012, 0.031, 20.456)
            + "\nAfter:\n" + run.format(10.111, 1.001, 0.801, 0.700, 0.600, 0.099, 0.010, 0.025, 17.321))
    got = {(c.baseline.value, c.candidate.value) for c in ex(text).claims if c.baseline and c.candidate}
    assert got == {(12.345, 10.111), (20.456, 17.321)}


def test_ioping_and_ping_summaries_name_each_value_and_leave_the_spread() -> None:
    """ioping's "99 requests completed in 9.81 ms" was a time judged higher-is-better (read
    as requests): a value in a unit of time is a time, lower is better. Its "min/avg/max/mdev
    = 82.1 us / 99.1 us / ..." names each value by its place, as ping's packed form is named,
    and the mdev of either (the spread of the samples) is no result."""
    run = ("99 requests completed in {} ms, 396 KiB read, {} k iops, {} MiB/s\n"
           "min/avg/max/mdev = {} us / {} us / {} us / {} us\n")
    text = ("before:\n" + run.format(9.81, 10.1, 39.4, 82.1, 99.1, 180.2, 12.3)
            + "\nafter:\n" + run.format(8.12, 12.2, 47.6, 70.3, 82.0, 150.9, 10.1))
    got = {(c.baseline.value, c.candidate.value): (c.metric, c.better) for c in ex(text).claims
           if c.baseline and c.candidate}
    assert got[(9.81, 8.12)][1] == "lower"
    assert got[(99.1, 82.0)] == ("min/avg/max/mdev: avg", "lower")
    assert (12.3, 10.1) not in got
    ping = "rtt min/avg/max/mdev = {}/{}/{}/{} ms\n"
    got = {(c.baseline.value, c.candidate.value) for c in ex(
        "before:\n" + ping.format(0.031, 0.044, 0.067, 0.010) + "\nafter:\n" + ping.format(0.021, 0.034, 0.057, 0.008)).claims}
    assert got == {(0.031, 0.021), (0.044, 0.034), (0.067, 0.057)}


@pytest.mark.parametrize("name", ["+/- Stdev", "mdev", "std-dev", "siqr"])
def test_names_of_spreads(name: str) -> None:
    assert SPREAD_NAME.match(name)


def test_a_header_names_the_rows_of_its_table_not_the_lines_after_it() -> None:
    """wrk prints its "Thread Stats  Avg  Stdev  Max" table, then "Requests/sec:  97245.11":
    the header had named that line's value by its place ("Requests/sec Avg") and the
    "2.35GB read" of the line before it "Stdev Max". A line of another shape than the
    table's first row (keyed, or its value first) leaves the header's names."""
    run = ("  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
           "    Latency     {}ms    1.03ms  52.31ms   87.65%\n"
           "  2918234 requests in 30.01s, {}GB read\n"
           "Requests/sec:  {}\n")
    text = "base:\n" + run.format(4.12, 2.35, 97245.11) + "\npatched:\n" + run.format(3.71, 2.60, 107678.45)
    got = {(c.baseline.value, c.candidate.value): c.metric for c in ex(text).claims if c.baseline and c.candidate}
    assert got[(4.12, 3.71)] == "Latency Avg"
    assert "Avg" not in got[(97245.11, 107678.45)] and "Stdev" not in got[(2.35, 2.6)]


def test_a_process_id_in_brackets_is_no_measurement() -> None:
    """stress-ng prefixes every line with its pid ("stress-ng: info:  [1234] mmap ..."): the
    two runs' pids had been a claim, 1234 -> 1240, beside the bogo ops. A whole number in
    square brackets names a process, a stream or a CPU."""
    text = ("Without patch:\n"
            "stress-ng: info:  [1234] mmap             12345     60.01     10.20    850.10       205.72\n"
            "\n"
            "With patch:\n"
            "stress-ng: info:  [1240] mmap             15012     60.01     10.31    840.55       250.16\n")
    got = [(c.baseline.value, c.candidate.value) for c in ex(text).claims]
    assert (1234, 1240) not in got and (12345, 15012) in got and (205.72, 250.16) in got


@pytest.mark.parametrize(("text", "got"), [
    ("Before:\nIOPS=2.51M, BW=1226MiB/s\n\nAfter:\nIOPS=2.73M, BW=1333MiB/s\n",
     [("IOPS", "MIOPS", "MIOPS", 8.76), ("BW", "MiB/s", "MiB/s", 8.73)]),
    ("before:\n  read: IOPS=1523k, BW=5949MiB/s\nafter:\n  read: IOPS=1.69M, BW=6590MiB/s\n",
     [("read IOPS", "kIOPS", "MIOPS", 10.97), ("read BW", "MiB/s", "MiB/s", 10.77)]),
])
def test_a_bare_magnitude_takes_the_unit_its_key_names(text: str, got: list) -> None:
    """fio's and t/io_uring's "IOPS=2.51M" was 2.51 in the unit "M": a magnitude with no
    unit, which a run's IOPS cannot be put beside. The key is the unit: 2.51 MIOPS (as
    the grid joins "950K" to its column's "pps"), each side at its own scale."""
    assert [(c.metric, c.baseline.unit, c.candidate.unit, round(c.change_pct, 2)) for c in ex(text).claims] == got


def test_a_sentence_restating_a_blocks_pair_gives_its_unit_and_direction() -> None:
    """cyclictest's "Max:      41" over "Max:      18" gave a pair with no unit and no
    direction, though the sentence under it says "The max latency drops from 41us to
    18us": a sentence's pair of the same numbers was dropped as a repeat. It still is,
    but what it says of them (the unit, and the direction its words give) fills what the
    block's bare numbers lack."""
    text = ("without the series:\n"
            "T: 0 ( 1234) P:99 I:200 C:3000000 Min:      2 Act:    3 Avg:    3 Max:      41\n\n"
            "with the series:\n"
            "T: 0 ( 1240) P:99 I:200 C:3000000 Min:      2 Act:    3 Avg:    3 Max:      18\n\n"
            "The max latency drops from 41us to 18us.\n")
    got = [(c.metric, c.unit, c.better) for c in ex(text).claims if (c.baseline.value, c.candidate.value) == (41, 18)]
    assert got == [("Max", "us", "lower")]


@pytest.mark.parametrize("gap", ["\t", "  "])
def test_as_many_names_as_bare_values_name_them_in_order(gap: str) -> None:
    """turbostat's "Busy%<TAB>PkgWatt<TAB>CorWatt" over "0.41<TAB>1.92<TAB>0.35" named the
    package power "Busy% PkgWatt" and the core power "PkgWatt CorWatt": names were
    matched to values by the columns they span, and a tab (or names wider than their
    values) puts them out of line. A row of bare values under as many names is named in
    order."""
    head, before, after = (gap.join(x) for x in (("Busy%", "PkgWatt", "CorWatt"), ("0.41", "1.92", "0.35"),
                                                 ("0.22", "1.41", "0.18")))
    text = f"before:\n{head}\n{before}\n\nafter:\n{head}\n{after}\n"
    assert [(c.metric, c.baseline.value, c.candidate.value) for c in ex(text).claims] == [
        ("Busy%", 0.41, 0.22), ("PkgWatt", 1.92, 1.41), ("CorWatt", 0.35, 0.18)]


_ENERGY = ("{first}\n\n"
           " Performance counter stats for 'system wide':\n\n"
           "            512.34 Joules power/energy-pkg/\n\n"
           "      60.001234567 seconds time elapsed\n\n"
           "{second}\n\n"
           " Performance counter stats for 'system wide':\n\n"
           "            431.87 Joules power/energy-pkg/\n\n"
           "      60.001122334 seconds time elapsed\n")


@pytest.mark.parametrize(("first", "second", "quote"), [
    ("perf stat -e power/energy-pkg/ -a sleep 60", "with the patch:", ""),
    ("", "after:", "> "),
    ("vanilla:", "", "> "),
])
def test_a_side_named_over_a_tools_banner_names_the_block(first: str, second: str, quote: str) -> None:
    """perf stat's energy counter run once as the command shows, then again under "with
    the patch:", gave nothing: each block was named by perf's own banner ("Performance
    counter stats for 'system wide':", nearer and ending in ":"), so both blocks had one
    name and nothing told them apart. A line that names a side and introduces what
    follows is the name over the tool's banner; the block without one is the other side.
    The gate passes such a run with one side named, quoted too (claims.prescan's block
    labels: 1c54833 had this without it, and lost the quoted forms)."""
    text = "\n".join(quote + ln for ln in _ENERGY.format(first=first, second=second).split("\n"))
    assert might_have_claims(text)
    got = [(c.metric, c.baseline.value, c.candidate.value, c.unit, c.better) for c in ex(text).claims]
    assert ("power/energy-pkg/", 512.34, 431.87, "Joules", "lower") in got


def test_an_items_name_that_closes_a_parenthesis_is_named_whole() -> None:
    """hyperfine's "Time (mean ± σ):     312.4 ms ± 4.1 ms    [User: 120.3 ms, System:
    190.2 ms]" named its mean "Time (mean ± σ) σ)" and the user time "Time (mean ± σ)
    [User": an item's name was the one word before its value ("σ):", "[User:"). A word
    that closes a parenthesis names with the words from the one before it opens, and a
    bracket that opens a list of items is no part of a name."""
    text = ("Before:\n"
            "  Time (mean ± σ):     312.4 ms ±   4.1 ms    [User: 120.3 ms, System: 190.2 ms]\n\n"
            "After:\n"
            "  Time (mean ± σ):     251.9 ms ±   3.8 ms    [User: 118.7 ms, System: 131.6 ms]\n")
    assert [(c.metric, c.baseline.value, c.candidate.value) for c in ex(text).claims] == [
        ("Time (mean ± σ)", 312.4, 251.9), ("User", 120.3, 118.7), ("System", 190.2, 131.6)]


def test_names_before_their_values_name_them_in_turn() -> None:
    """"rx 102 tx 55" under "base" and "patched" gave two claims named "tx": the words
    after a value name it ("4.7 Mpps"), so "tx" named 102 too. Where a name stands before
    the value, a word after it that stands before the next value is that value's name."""
    text = "base:\n  rx 102 tx 55\n\npatched:\n  rx 98 tx 60\n"
    assert [(c.metric, c.baseline.value, c.candidate.value) for c in ex(text).claims] == [
        ("rx", 102, 98), ("tx", 55, 60)]
    text = "base:\n  rx 1.23 Mpps tx 1.45 Mpps\n\npatched:\n  rx 1.33 Mpps tx 1.55 Mpps\n"
    assert [(c.metric, c.unit) for c in ex(text).claims] == [("rx Mpps", "Mpps"), ("tx Mpps", "Mpps")]


# d114, a reply quoting three blocks: the series' ("xsk zero copy in virtio-net"), the copy
# mode's ("xsk without zero copy ...") and a reference tool's ("sockperf")
_D114_HEAD = "From: Jason Wang <jasowang@redhat.com>\n" \
    "Subject: Re: [PATCH net-next v2 0/7] virtio-net support xdp socket zero copy xmit\n\n"
_D114_ZC = "> xsk zero copy in virtio-net:\n> CPU        PPS         MSGSIZE\n> 28.7%      3833857     64\n" \
    "> 38.5%      3689491     512\n"
_D114_COPY = "> xsk without zero copy in virtio-net:\n> CPU        PPS         MSGSIZE\n" \
    "> 100%       1916747     64\n> 100%       1775988     512\n"
_D114_REF = "> sockperf:\n> CPU        PPS         MSGSIZE\n> 100%       713274      64\n> 100%       701024      512\n"


def test_a_reference_block_does_not_answer_a_baseline_named_by_its_side() -> None:
    """d114: the copy mode was paired against sockperf, as if sockperf were the patched
    side: a label that names no side and shares no word with the baseline's nor with the
    subject answers nothing."""
    assert pairs(_D114_HEAD + _D114_COPY + ">\n" + _D114_REF) == []
    whole = _D114_HEAD + _D114_ZC + ">\n" + _D114_COPY + ">\n" + _D114_REF
    assert (1916747.0, 3833857.0) in pairs(whole) and (1775988.0, 3689491.0) in pairs(whole)
    assert not {713274.0, 701024.0} & {v for p in pairs(whole) for v in p}


def test_a_reply_written_inside_the_quote_does_not_end_its_blocks() -> None:
    """d114 again: the reply asks its questions between the first quoted block and the
    other two. The quoted text is one message; its blocks read on past the reply's words
    (blocks.interjections), so the copy mode pairs with the series' block as when unsplit,
    and the gate passes what the extractor reads there (prescan's walks of blocks skip the
    same lines). A reply's own numbers between two quotes are no such words."""
    questions = "\n\nSome questions on the results:\n\n1) What's the setup on the vhost?\n\nThanks\n\n>\n"
    split = _D114_HEAD + _D114_ZC + questions + _D114_COPY
    assert interjections(message_from_text(split).lines)
    assert (1916747.0, 3833857.0) in pairs(split) and (1775988.0, 3689491.0) in pairs(split)
    own = _D114_HEAD + _D114_ZC + "\n\nHere I get:\n  CPU 40%  PPS 3100000  MSGSIZE 64\n\n" + _D114_COPY
    assert not interjections(message_from_text(own).lines)
    # no other cue in it: the block model alone pairs rows keyed with no colon
    text = "Hi,\n\n> base\n>   Elapsed Time 102.41 (0.62)\n\nCan you share the config?\n\n" \
        "> patched\n>   Elapsed Time 98.77 (0.48)\n"
    assert might_have_claims(text) and (102.41, 98.77) in pairs(text)


def test_a_share_in_parentheses_is_named_by_its_value_s_words() -> None:
    """stress-ng's "7.71s user time   (  0.13%)": the percentage is the share of the time
    available, named by the words of the value before it ("user time (%)"), not by its unit
    alone ("%", a claim nobody could tell from another)."""
    text = ("Subject: t\n\n1) Before:\n\n for a 60.03s run time:\n    5762.40s available CPU time\n"
            "       7.71s user time   (  0.13%)\n     226.93s system time (  3.94%)\n\n2) After:\n\n"
            " for a 60.12s run time:\n    5771.95s available CPU time\n       7.44s user time   (  0.13%)\n"
            "     230.22s system time (  3.99%)\n")
    got = {c.metric: (c.baseline.value, c.candidate.value, c.unit) for c in ex(text).claims}
    assert got["user time"] == (7.71, 7.44, "s") and got["system time (%)"] == (3.94, 3.99, "%")
    assert "%" not in got
