"""One small real-shaped text per shape the extractor knows, and texts that must yield
nothing (versions, dates, diffs, tables without a baseline)."""
from __future__ import annotations

import pytest

from claims.extract import extract_message, might_have_claims
from claims.message import message_from_text
from tests.extractkit import ex, pairs, relative


def test_prompts_are_stripped_and_hosts_kept() -> None:
    e = ex("host1:~# ./netperf -H 10.0.0.2 -t TCP_RR -l 10\n$ iperf3 -c peer -P 4\n"
           "[root@box ~]# sockperf pp -i 1.2.3.4 -t 5\n# netperf -t TCP_STREAM -H x\n")
    raws = [(c.raw, c.host) for c in e.commands]
    assert ("./netperf -H 10.0.0.2 -t TCP_RR -l 10", "host1") in raws
    assert ("iperf3 -c peer -P 4", None) in raws
    assert ("sockperf pp -i 1.2.3.4 -t 5", "box") in raws
    assert ("netperf -t TCP_STREAM -H x", None) in raws


def test_continuation_lines_are_joined_and_variables_listed() -> None:
    e = ex("$ netperf -H $peer -p $((port+$i)) \\\n    -t TCP_RR -l 60\n")
    (c,) = e.commands
    assert c.raw == "netperf -H $peer -p $((port+$i)) -t TCP_RR -l 60"
    assert c.variables == ["peer", "port", "i"]


def test_command_in_prose_and_perf_stat_header() -> None:
    e = ex("Perf recording while doing iperf -P 4 on both hosts.\n"
           " Performance counter stats for 'trafgen -i foo -o du0 -n100000000' (10 runs):\n")
    assert [c.raw for c in e.commands] == ["iperf -P 4", "trafgen -i foo -o du0 -n100000000"]
    assert e.commands[0].in_prose


def test_prose_that_names_a_tool_is_not_a_command() -> None:
    assert ex("iperf3 results before the change:\nTo test, run ./gro.sh.\n").commands == []


def test_taskset_wrapper_is_kept_in_the_command_and_typed_as_setup() -> None:
    e = ex("# taskset -c 2 netperf -H peer -t TCP_RR\n# sysctl -w net.core.busy_poll=50\n"
           "# ethtool -C eth0 rx-usecs 0\n# tc qdisc add dev eth0 root fq\n")
    assert e.commands[0].raw.startswith("taskset -c 2 netperf")
    assert e.commands[0].wrappers == ["taskset"] and e.commands[0].argv[0] == "netperf"
    kinds = {s.kind: s for s in e.setup}
    assert kinds["sysctl"].key == "net.core.busy_poll" and kinds["sysctl"].value == "50"
    assert kinds["ethtool"].device == "eth0" and kinds["ethtool"].key == "-C"
    assert kinds["tc"].device == "eth0" and "taskset" in kinds


def test_before_after_blocks_pair_lines_of_the_same_shape() -> None:
    text = ("Before:\nudp rx:   1079 MB/s   769065 calls/s\n\nAfter:\n"
            "udp rx:   1466 MB/s    24877 calls/s\n\nrfc v2 -> rfc v3:\n - fixed typos\n")
    assert pairs(text) == [(1079, 1466), (769065, 24877)]


def test_bordered_table_pairs_each_row_with_the_original() -> None:
    text = ("        +------+------+\n        | 64B  | 128B |\n        +------+------+\n"
            "Original| 100  | 200  |\ntxlock  | 110  | 210  |\nbatch   | 120  | 190  |\n"
            "        +------+------+\n")
    assert pairs(text) == [(100, 110), (200, 210), (100, 120), (200, 190)]


def test_markdown_table_with_variant_columns() -> None:
    text = "| test | before | after |\n|------|--------|-------|\n| rr   | 100    | 120   |\n| crr  | 50     | 45    |\n"
    assert pairs(text) == [(100, 120), (50, 45)]


def test_whitespace_table_with_pre_post_rows_and_parameter_header() -> None:
    text = (" clients     1       2       4\n ......................\n pre        30      41     118\n"
            " post      299     603    1211\n")
    assert pairs(text) == [(30, 299), (41, 603), (118, 1211)]


def test_marked_rows_and_variance_column() -> None:
    text = ("   Mode Iterations   Variance    Average\n\n"
            "TCP_RR         10      %2.35      45145 ==> before the change\n"
            "TCP_RR         10      %1.06      47250 ==> after  the change\n")
    (c,) = ex(text).claims
    assert (c.baseline.value, c.candidate.value) == (45145, 47250)
    assert c.baseline.spread == pytest.approx(2.35) and c.baseline.runs == 10


def test_table_without_a_baseline_yields_nothing() -> None:
    text = "Secs Spurious IRQS\n1G TCP Guest->Host: 3.93 58\n1M normal pings: 100 72\n1M 1k pings: 57 492904\n"
    assert ex(text).claims == []


def test_variant_lines_with_stated_change_and_p_value() -> None:
    text = ("TCP 4 streams, GRO off:\nnet-next: 8.017 Gbps\n"
            "after #1: 7.785 Gbps (- 2.9%, p=0.385 vs net-next)\n"
            "after #3: 7.604 Gbps (- 5.1%, p=0.282 vs net-next)\n")
    cl = ex(text).claims
    assert [(c.baseline.value, c.candidate.value) for c in cl] == [(8.017, 7.785), (8.017, 7.604)]
    assert cl[0].claimed_change_pct == -2.9 and cl[0].p_value == 0.385 and cl[0].unit == "Gbps"
    assert cl[0].baseline.label == "net-next" and cl[1].candidate.label == "after #3"


def test_old_new_prose_lines() -> None:
    text = "  - old bonding: 16.1 gbps consistently\n  - new bonding: 17.5 gbps consistently\n"
    (c,) = ex(text).claims
    assert (c.baseline.value, c.candidate.value, c.unit) == (16.1, 17.5, "gbps")
    assert c.better == "higher"


def test_from_to_and_arrow() -> None:
    assert pairs("It improves redirection (from 2.50Mpps to 3.05Mpps).") == [(2.5, 3.05)]
    assert pairs("throughput 4.1 Mpps -> 5.0 Mpps") == [(4.1, 5.0)]
    assert pairs("rfc v2 -> rfc v3, see from v1 to v2") == []


def test_relative_claims() -> None:
    assert relative("This provides a 5-10% boost in IOPS.") == [5, 10]
    assert relative("It improves throughput by 12%.") == [12]
    assert relative("The new code is 2x faster.") == [100]
    assert relative("reduces latency by 20%") == [-20]
    assert relative("nr_task: 100%\niperf spent 0.55% in bonding") == []


def test_spreads_are_not_claims() -> None:
    text = ("Before:\n  22.856401569 seconds time elapsed   ( +-  0.33% )\nAfter:\n"
            "  12.080331543 seconds time elapsed   ( +-  0.13% )\n")
    (c,) = ex(text).claims
    assert c.baseline.spread == pytest.approx(0.33) and c.candidate.spread == pytest.approx(0.13)


def test_lkp_comparison_rows() -> None:
    text = ("> >     129489 ±  2%     +94.7%     252151 ±  1%  will-it-scale.per_process_ops\n"
            "> >      24.47            -7.2      17.29        mpstat.cpu.all.soft%\n")
    cl = ex(text).claims
    assert [(c.baseline.value, c.candidate.value, c.claimed_change_pct) for c in cl] == [
        (129489, 252151, 94.7), (24.47, 17.29, None)]
    assert cl[0].baseline.spread == 2 and cl[0].depth == 2


def test_diffs_versions_and_dates_are_not_claims() -> None:
    text = ("Date: Mon, 1 Oct 2007 00:11:35 -0400\nv2 -> v3: rebased on 6.5.0-rc1\n---\n"
            " drivers/vhost/net.c | 21 +++++++++++++++++++++\n 1 file changed, 21 insertions(+)\n\n"
            "diff --git a/x.c b/x.c\n@@ -1015,6 +1015,27 @@ static int f(void)\n"
            "-\tbefore: 10 -> 20;\n+\tafter: 30 -> 40; /* 50% */\n")
    assert ex(text).claims == []


def test_quoted_claims_keep_depth_and_author() -> None:
    m = message_from_text("> old: 10 Mpps\n> new: 12 Mpps\n")
    for ln in m.lines:
        ln.author, ln.message_id = "Jane <j@x>", "abc@x"
    m.from_ = "Replier <r@x>"
    (c,) = extract_message(m).claims
    assert (c.author, c.message_id, c.depth) == ("Jane <j@x>", "abc@x", 1)


def test_prescan_lets_plain_messages_through() -> None:
    assert not might_have_claims("Thanks, applied to net-next.\n\nSigned-off-by: A <a@b>\n")
    assert might_have_claims("Before:\n 10 Mpps\nAfter:\n 12 Mpps\n")
    assert might_have_claims("x" * 100 + "\nlpaa5:~# ./netperf -H x\n")


def test_column_variants_with_stdev_and_change_columns() -> None:
    text = ("  Th.\ttip-jun28 avg (stdev)\t+patch-set avg (stdev)\tchange\n"
            "  ---\t---------------------\t----------------------\t------\n"
            "  1\t1267765 (14146)\t\t1299253 (5715)\t\t+2.4%\n"
            "  2\t1734644 (11936)\t\t1799225 (19577)\t\t+3.7%\n")
    cl = ex(text).claims
    assert [(c.baseline.value, c.candidate.value, c.claimed_change_pct) for c in cl] == [
        (1267765, 1299253, 2.4), (1734644, 1799225, 3.7)]


def test_bordered_columns_named_after_and_before_patch() -> None:
    text = ("               test-case                |    after-patch    |   before-patch\n"
            "----------------------------------------+-------------------+------------------\n"
            " Execl Throughput                       |      3662.1 lps   |      2718.0 lps\n"
            " Process Creation                       |      4025.7 lps   |      3706.6 lps\n")
    cl = ex(text).claims
    assert [(c.baseline.value, c.candidate.value, c.unit) for c in cl] == [
        (2718.0, 3662.1, "lps"), (3706.6, 4025.7, "lps")]


def test_version_lists_and_kernel_logs_are_not_claims() -> None:
    text = ("Util-linux           2.33.2\nModule-init-tools   26\nNet-tools           1.60\n"
            "Linux C Library     2.27\n\n"
            "[    5.393985] Freeing unused kernel memory: 3912K\n"
            "[    5.492121] Write protected read-only-after-init data: 68k\n"
            "[    7.273398] mlx5_core 0001:00:00.0: enabling device (0000 -> 0002)\n"
            "pid_max: default: 348160 minimum: 2720\n"
            "So we are charging local socket 16x more (4k for a 128 byte packet)\n")
    assert ex(text).claims == []


def test_changelog_arrows_histograms_and_tool_scripts_are_not_claims() -> None:
    text = ("- Change version info in qapi/crypto.json, from 7.0 -> 7.1.\n"
            "        usecs               : count     distribution\n"
            "         0 -> 1          : 0        |                        |\n"
            "         2 -> 3          : 7        |                        |\n"
            "$ ./scripts/checkpatch.pl --strict -g master..HEAD\n")
    e = ex(text)
    assert e.claims == [] and e.commands == []


def test_repeated_output_lines_under_without_with_labels() -> None:
    text = ("Without USO:\n$ ./udpgso_bench_tx -4 -D 192.168.15.1 -s 10000 -S 1000\n"
            "udp tx:     36 MB/s     3863 calls/s   3863 msg/s\n\nWith USO:\n"
            "$ ./udpgso_bench_tx -4 -D 192.168.15.1 -s 10000 -S 1000\n"
            "udp tx:    120 MB/s    12596 calls/s  12596 msg/s\n")
    assert pairs(text) == [(36, 120), (3863, 12596), (3863, 12596)]
    assert [c.raw for c in ex(text).commands] == ["./udpgso_bench_tx -4 -D 192.168.15.1 -s 10000 -S 1000"]


def test_header_naming_both_columns_with_unnamed_key_column() -> None:
    text = ("MTU(Bytes)/Bandwidth (Gbit/s)\n             Before   After\n"
            "  1500        22.5     22.4\n  9000        12.8     25.9\n")
    assert pairs(text) == [(22.5, 22.4), (12.8, 25.9)]


def test_sentence_starting_with_a_program_name_is_not_a_command() -> None:
    assert ex("ping -f. This time I will construct a split vq device of size 5\n").commands == []


def test_key_value_output_and_more_throughput() -> None:
    text = ("Before:\nthroughput=9400.21\nlatency_mean=51.2\n\nAfter:\nthroughput=9800.50\n"
            "latency_mean=49.0\n")
    cl = ex(text).claims
    assert [(c.metric, c.baseline.value, c.candidate.value) for c in cl] == [
        ("throughput", 9400.21, 9800.5), ("latency_mean", 51.2, 49.0)]
    assert relative("This gives up to 30% more throughput.") == [30]
    (c,) = ex("TCP_RR latency 51.2 us -> 49.0 us (-4.3%)").claims
    assert (c.baseline.value, c.candidate.value, c.claimed_change_pct) == (51.2, 49.0, -4.3)


def test_shell_comment_naming_a_tool_is_not_a_command() -> None:
    e = ex("# netperf results below\n$ sockperf pp -i 10.0.0.1 -t 10\n# iperf3\n")
    assert [c.raw for c in e.commands] == ["sockperf pp -i 10.0.0.1 -t 10", "iperf3"]


@pytest.mark.parametrize("text,want", [
    ("w/o patch: 100 Mbps\nw/ patch: 120 Mbps", [(100, 120)]),
    ("Before: 1.23 Mpps, After: 4.56 Mpps", [(1.23, 4.56)]),
    ("Throughput went from 10.2 to 12.3 Gbps.", [(10.2, 12.3)]),
    ("net-next      patched\n1000          1200", [(1000, 1200)]),
    ("Without the patch:\n  9.41 Gbits/sec\nWith the patch:\n  9.52 Gbits/sec", [(9.41, 9.52)]),
])
def test_common_pair_shapes(text: str, want: list[tuple[float, float]]) -> None:
    assert pairs(text) == want


def test_common_relative_shapes() -> None:
    assert relative("This improves throughput by 1.5x.") == [50]
    assert relative("TCP_RR improves ~10 % on average") == [10]


def test_repeated_before_after_blocks_pair_within_each_block() -> None:
    """uperf results as a vsock series gave them: a "Test:" heading, then Before/After,
    four times; each After pairs with its own Before and the heading is the context."""
    text = "".join(f"Test: {size}, {d}\nBefore: {b} {u}\nAfter: {a} {u} (+{p}%)\n\n"
                   for size, d, b, a, u, p in [("64KB", "g2h", 21.63, 25.59, "Gb/s", 18),
                                               ("16B", "g2h", 11.86, 17.41, "Mb/s", 46),
                                               ("64KB", "h2g", 2.15, 3.6, "Gb/s", 67)])
    claims = ex(text).claims
    assert [(c.baseline.value, c.candidate.value) for c in claims] == [
        (21.63, 25.59), (11.86, 17.41), (2.15, 3.6)]
    assert [c.context for c in claims] == ["Test: 64KB, g2h", "Test: 16B, g2h", "Test: 64KB, h2g"]
    assert [c.claimed_change_pct for c in claims] == [18, 46, 67]


def test_the_labels_name_the_metric_when_the_numbers_do_not() -> None:
    (c,) = ex("netperf -H 10.0.0.2 -t TCP_RR -l 10\n\nRxIRQs before: 120000\n"
              "RxIRQs after: 80000\n").claims
    assert c.metric == "RxIRQs" and (c.baseline.value, c.candidate.value) == (120000, 80000)
    (c,) = ex("Rx IRQs before: 120000, after: 80000\n").claims
    assert c.metric == "Rx IRQs"


@pytest.mark.parametrize("text,want,unit", [
    ("latency before: 25 us, after 20 us\n", (25, 20), "us"),
    ("Throughput was 9.1 Gbps without the patch and 9.4 Gbps with it.\n", (9.1, 9.4), "Gbps"),
    ("Before the patch: 1.2 Mpps. After the patch: 1.5 Mpps.\n", (1.2, 1.5), "Mpps"),
])
def test_sentence_shapes_of_one_pair(text: str, want: tuple[float, float], unit: str) -> None:
    (c,) = ex(text).claims
    assert (c.baseline.value, c.candidate.value) == want and c.unit == unit
    assert not c.metric.endswith(".")


def test_stacked_tables_with_setting_headers_pair_rows_not_settings() -> None:
    """fio results as a virtio-blk series gave them: a "numjobs=2 | numjobs=4" header per
    VM size, "367.2K IOPS" cells; settings are not results and each table pairs alone."""
    block = ("           {vm} vcpu VM       |   numjobs=2   |   numjobs=4\n"
             "      -----------------------------------------------------------\n"
             "        fio without patch  |  {a}K IOPS  |   {b}K IOPS\n"
             "      -----------------------------------------------------------\n"
             "        fio with patch     |  {c}K IOPS  |   {d}K IOPS\n\n")
    text = (block.format(vm=4, a=367.2, b=397.6, c=372.8, d=407.7)
            + block.format(vm=12, a=363.6, b=374.8, c=373.8, d=385.3))
    claims = ex(text).claims
    assert [(c.baseline.value, c.candidate.value) for c in claims] == [
        (367.2, 372.8), (397.6, 407.7), (363.6, 373.8), (374.8, 385.3)]
    assert {c.unit for c in claims} == {"KIOPS"}


def test_sizes_and_idle_counters_are_not_performance_claims() -> None:
    """size(1), pahole and bloat-o-meter before/after report bytes, not speed; a counter
    at 0 on both sides is idle.  None of them is a claim to re-run."""
    text = ("Before:\n   text    data     bss     dec     hex filename\n"
            "  25447     713      76   26236    667c drivers/char/virtio_console.o\n\n"
            "After:\n   text    data     bss     dec     hex filename\n"
            "  25488     673      76   26237    667d drivers/char/virtio_console.o\n\n"
            "Before:\n\t/* size: 72, cachelines: 2, members: 9 */\n"
            "\t/* sum members: 61, holes: 1, sum holes: 4 */\n\n"
            "After:\n\t/* size: 64, cachelines: 1, members: 8 */\n"
            "\t/* sum members: 60, holes: 1, sum holes: 3 */\n\n"
            "add/remove: 0/0 grow/shrink: 1/2 up/down: 12/-40 (-28)\n"
            "Function                                     old     new   delta\n\n"
            "Before: missed: 0   rate: 3615824 pps\n"
            "After:  missed: 0   rate: 3715795 pps\n")
    claims = ex(text).claims
    assert [(c.baseline.value, c.candidate.value) for c in claims] == [(3615824, 3715795)]


def test_a_throughput_of_zero_is_a_run_that_did_not_happen() -> None:
    """fio bandwidth per file system where one cannot do the operation ("0(KiB/s)": the mail
    says it is not supported): no -100% claim, and none from a 0 baseline; the other rows
    pair as ever, and a counter that falls to zero (lower is better) is still a claim."""
    def op(name: str, bws: tuple[str, str, str]) -> str:
        return "".join(f"{fs:<24}{name:<24}{bw}\n" for fs, bw in zip(
            ("9p-cache-none", "virtiofs-cache-none", "virtiofs-dax-cache-none"), bws, strict=True)) + "\n"

    text = ("Subject: [PATCH 0/3] virtio-fs: a shared file system for virtual machines\n\n"
            "- Results in three configurations have been reported. 9p (cache=none),\n"
            "  virtio-fs (cache=none) and virtio-fs (cache=none + dax).\n\n"
            "NAME                    I/O Operation           BW(Read/Write)\n\n"
            + op("seqread-psync", ("27(MiB/s)", "35(MiB/s)", "245(MiB/s)"))
            + op("seqread-mmap", ("24(MiB/s)", "0(KiB/s)", "168(MiB/s)"))
            + op("seqwrite-mmap", ("0(KiB/s)", "0(KiB/s)", "165(MiB/s)")))
    got = [(c.baseline.value, c.candidate.value) for c in extract_message(message_from_text(text)).claims]
    assert got == [(27, 35), (27, 245), (24, 168)]
    text = "Before: 3 retransmits, 20 errors\nAfter: 0 retransmits, 2 errors\n"
    assert {(c.metric, c.baseline.value, c.candidate.value) for c in ex(text).claims} == {
        ("retransmits", 3, 0), ("errors", 20, 2)}


@pytest.mark.parametrize("text,metric", [
    ("Test result shows about 2% improvement.\n", "change"),
    ("Tests shows at most about 22% improvement on TX PPS when using it\n", "TX PPS"),
    ("SMAP off | 7.0Mpps | 7.5Mpps  (+7%)\n", "SMAP off"),
    ("This gives a 10% throughput improvement.\n", "throughput"),
    ("throughput increased by 8.5%\n", "throughput"),
    ("Performance improves by about 8% for small packets.\n", "Performance"),
])
def test_a_stated_change_is_named_by_its_subject_not_its_sentence(text: str, metric: str) -> None:
    (c,) = [c for c in ex(text).claims if c.baseline is None]
    assert c.metric == metric


@pytest.mark.parametrize("text,want,unit", [
    ("udp_rr: 1.2M -> 1.5M trans/s\n", (1.2, 1.5), "Mtrans/s"),
    ("The RPS went up from 812k to 901k.\n", (812, 901), "k"),
    ("p99 latency: 45us (base) vs 38us (patched)\n", (45, 38), "us"),
    ("Almost 50% improvement (600k iops -> 900k iops) in the high iops case\n", (600, 900), "kiops"),
])
def test_magnitudes_and_named_sides(text: str, want: tuple[float, float], unit: str) -> None:
    (c,) = [c for c in ex(text).claims if c.baseline is not None]
    assert (c.baseline.value, c.candidate.value) == want and c.unit.lower() == unit.lower()


def test_a_command_followed_by_its_results_on_one_line() -> None:
    """"neper tcp_rr -F 1000 -T 32: before 4.2M trans/s, after 4.5M trans/s": the command
    stops at the colon and the rest of the line is a claim."""
    e = ex("neper tcp_rr -F 1000 -T 32: before 4.2M trans/s, after 4.5M trans/s\n")
    assert [c.raw for c in e.commands] == ["neper tcp_rr -F 1000 -T 32"]
    (c,) = e.claims
    assert (c.baseline.value, c.candidate.value) == (4.2, 4.5)
    assert c.metric == "tcp_rr transaction rate"


def test_numbers_inside_an_aligned_row_name_are_not_results() -> None:
    """UnixBench as a kvm series pasted it: "Dhrystone 2 using register variables" and
    "File Copy 1024 bufsize 2000 maxblocks" name rows; only the aligned columns are results."""
    head = "System Benchmarks Index Values               BASELINE       RESULT    INDEX\n"
    rows = [("Dhrystone 2 using register variables ", "116700.0", "948326591.2", "81261.9",
             "947032915.5", "81151.1"),
            ("File Copy 1024 bufsize 2000 maxblocks", "  3960.0", "   438936.2", "  1108.4",
             "   515024.9", " 1300.6")]
    text = "Before using the patch:\n" + head + "".join(
        f"{n}        {b}  {r1}  {i1}\n" for n, b, r1, i1, _, _ in rows)
    text += "\nAfter using the patch:\n" + head + "".join(
        f"{n}        {b}  {r2}  {i2}\n" for n, b, _, _, r2, i2 in rows)
    got = {(c.metric, c.baseline.value, c.candidate.value) for c in ex(text).claims}
    # named by UnixBench's description (claims/tools/unixbench.py), which drops BASELINE
    assert ("dhrystone_2_using_register_variables", 948326591.2, 947032915.5) in got
    assert ("file_copy_1024_bufsize_2000_maxblocks_index", 1108.4, 1300.6) in got
    assert not {(b, c) for _, b, c in got} & {(2.0, 2.0), (1024.0, 1024.0), (2000.0, 2000.0)}


def test_commands_behind_netns_sudo_perf_and_bare_modes() -> None:
    """`ip netns exec NS tool`, `perf stat -a -- sleep N` (perf counts the window) and a
    tool run as mode + interface with no option are all benchmark commands."""
    e = ex("  ip netns exec ns1 iperf3 -c 10.0.0.2 -t 30\n"
           "  $ sudo perf stat -e cycles -a -- sleep 10\n"
           "  xdp-bench drop eth0\n"
           "xdp-bench is what I used here.\n")
    assert [c.raw for c in e.commands] == ["ip netns exec ns1 iperf3 -c 10.0.0.2 -t 30",
                                           "sudo perf stat -e cycles -a -- sleep 10",
                                           "xdp-bench drop eth0"]
    assert not e.setup


LKP_HEADLINE = """Greeting,

FYI, we noticed a -12.3% regression of will-it-scale.per_process_ops due to commit:

commit: 1234567890ab ("mm: do something")

in testcase: will-it-scale
with following parameters:

	nr_task: 100%
	mode: process
	test: page_fault2

commit:
  abcdef0123
  1234567890

      abcdef0123 1234567890ab
---------------- ---------------------------
         %stddev     %change         %stddev
             \\          |                \\
   8956789            -12.3%    7855123        will-it-scale.per_process_ops
     45678 ±  5%     +25.1%      57134 ±  4%  vmstat.system.cs
"""


def test_a_change_restated_far_from_its_pair_of_one_measure_is_one_claim() -> None:
    """The 0-day robot's headline, "a -12.3% regression of will-it-scale.per_process_ops",
    stands twenty lines above the row that measured it: it was a second claim, which a
    verdict would judge apart. The same change of the same measure is the pair's, at any
    distance; another measure's change is not."""
    got = [(c.metric, c.baseline and c.baseline.value, c.claimed_change_pct) for c in ex(LKP_HEADLINE).claims]
    assert got == [("will-it-scale.per_process_ops", 8956789, -12.3), ("vmstat.system.cs", 45678, 25.1)]


@pytest.mark.parametrize(("intro", "got"), [
    ("Kernel compile (make -j32 vmlinux), elapsed seconds, 5 runs:\n\n", ("time", "seconds", "lower")),
    ("Kernel compile (make -j32 vmlinux), elapsed seconds, 5 runs:\n", ("time", "seconds", "lower")),
    ("ops/sec of memtier_benchmark client is\n", ("operation rate", "ops/sec", "higher")),
    ("Kernel compile, 5 runs:\n\n", ("Kernel compile, 5 runs", None, None)),
])
def test_an_intro_names_the_time_or_rate_of_unnamed_values(intro: str, got: tuple) -> None:
    """"Kernel compile (make -j32 vmlinux), elapsed seconds, 5 runs:" over "base: ... mean
    312.5" / "patched: ... mean 305.1" gave an unnamed claim with no unit or direction: an
    intro's rate named the values, its time did not, nor did one over a blank line."""
    text = intro + ("  base:    312.4 312.9 311.8 313.1 312.2   mean 312.5\n"
                    "  patched: 305.1 304.8 305.9 305.2 304.6   mean 305.1\n")
    (c,) = ex(text).claims
    assert (c.metric, c.unit, c.better) == got
