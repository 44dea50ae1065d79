"""Prose as real mail writes it: lines quoted from the shared virtualization archive
(messages outside the labelled corpus), each a way the prose model read wrong or not at
all, and invented sentences of the same shapes."""
from __future__ import annotations

import pytest

from claims.model import Line
from claims.prose import relative_claims, statement_claims
from tests.extractkit import ex, pairs, relative


def _metrics(text: str) -> list[str]:
    return [c.metric for c in ex("Subject: t\n\n" + text + "\n").claims]


@pytest.mark.parametrize("text", [
    "Right, we'd need 8 instead of 4 bits. But we could preserve the previous",  # sizes in bits
    "The difference from 32 to 64 bit between virtio_pci_legacy.c and",
    "c_eqn_or_apu_element was extended from 8 bits to 32 bits, which wan't",
    # a count that grew, not a measure: a unitless "from .. to" needs one named
    "For some obscure reason when CONFIG_DEBUG_HIGHMEM is enabled the stack depth\nis increased from 20 to 41.",
])
def test_sizes_and_counts_are_no_pairs(text: str) -> None:
    assert pairs("Subject: t\n\n" + text + "\n") == []


def test_a_unitless_from_to_with_a_measure_or_a_ratio_is_a_pair() -> None:
    assert pairs("Subject: t\n\nIOPs jumps from 600K to 800K for vhost-scsi.\n") == [(600, 800)]
    assert pairs("Subject: t\n\nBytes per call increase from 1024 to 38400.\n") == [(1024, 38400)]


def test_a_spread_between_value_and_unit_is_not_a_side() -> None:
    claims = ex("Subject: t\n\nThroughput is 9.1 +- 0.2 Gbps vs 9.5 +- 0.1 Gbps (4.6% gain).\n").claims
    assert [(c.baseline.value, c.candidate.value, c.claimed_change_pct) for c in claims if c.baseline] \
        == [(9.1, 9.5, 4.6)]


def test_a_unit_written_once_after_two_magnitudes() -> None:
    assert pairs("Subject: t\n\nWe measured 812K vs 901K requests/s.\n") == [(812, 901)]
    assert pairs("Subject: t\n\nwe saw 9K vs 12K pages in use\n") == []


def test_a_remark_glued_to_a_percentage() -> None:
    text = "and\nIOPS can be improved by ~20%(hipri=1 vs hipri=0) with the 3 patches, and the virtio-blk is\n"
    assert relative(text) == [20.0]


def test_a_stated_change_is_named_within_its_sentence() -> None:
    # "5 times." is how often fio ran; the 2% is of no latency, so it keeps its sign
    assert relative("I set 4 vcpu and run fio test 5 times.\nIt shows about 2% improvement.\n") == [2.0]
    assert _metrics("Test shows about 23% improvement on TX PPS. TCP_STREAM doesn't see\n"
                    "obvious improvement.") == ["TX PPS"]
    assert _metrics("About 2% improvement of PPS were seen during vitio-user\ntxonly test.") == ["PPS"]
    assert _metrics("Enabling indirect in device can help at cost of 7x higher memory per VQ in the guest VM.") \
        == ["memory per VQ"]


def test_a_bare_comparative_needs_a_measure() -> None:
    ln = Line("we are paying remote 16x less (128 credits for 4k byte buffer). It evens", 1)
    assert relative_claims(ln) == []
    assert [c.claimed_change_pct for c in relative_claims(Line("The tail latency is 3x lower now.", 1))] \
        == [-66.6667]
    assert relative("3 versus 2 seems a 50% saving.\n") == [-50.0]  # a saving is a reduction


def test_statements_across_sentences_pair_against_the_named_baseline() -> None:
    lines = [Line(t, n) for n, t in enumerate([
        "* We start with a baseline of 4208772.571 pps and 269361444.6 bytes/s [2].",
        "* When we add the batching, I see a small performance decrease:",
        "4133292.308 and 264530707.7 bytes/s.",
        "* However, the buf api it outperform the baseline: 4551319.631pps,",
        "291205178.1 bytes/s"], 1)]
    got = [(c.baseline.value, c.candidate.value, c.unit) for c in statement_claims(lines, set())]
    assert got == [(4208772.571, 4133292.308, "pps"), (269361444.6, 264530707.7, "bytes/s"),
                   (4208772.571, 4551319.631, "pps"), (269361444.6, 291205178.1, "bytes/s")]
    assert pairs("Subject: t\n\nWithout the patch we get 9.1 Gbps on one flow. With the patch it is 9.6 Gbps.\n") \
        == [(9.1, 9.6)]


@pytest.mark.parametrize("text", [
    "The baseline kernel has 4 queues. The new one uses 8 queues.",  # settings, not results
    "INFO: task Xorg:879 blocked for more than 120 seconds.\n      Not tainted 5.0.0-13-generic #14-Ubuntu\n"
    '"echo 0 > /proc/sys/kernel/hung_task_timeout_secs" disables this message.',  # a lean, not a baseline
    "With the patch we get 9.6 Gbps. With a new NIC we get 25 Gbps.",  # no baseline named
    "We start with a baseline of 4.2 Mpps. Then we ran it 5 more rounds.",  # a count, no unit of its own
])
def test_statements_without_a_named_baseline_are_no_pairs(text: str) -> None:
    assert pairs("Subject: t\n\n" + text + "\n") == []


def test_words_between_value_and_vs_name_its_side() -> None:
    text = ("a stress test gets big speedups, 11620op/s aggregate with simple spinlocks vs 384158op/s "
            "(33x faster).")
    claims = ex("Subject: t\n\n" + text + "\n").claims
    assert [(c.baseline.value, c.candidate.value, c.claimed_change_pct) for c in claims if c.baseline] \
        == [(11620, 384158, 3200.0)]
    assert pairs("Subject: t\n\nLatency is 45us with the patch vs 61us without.\n") == [(61, 45)]


@pytest.mark.parametrize(("text", "pair"), [
    ("we went from ~600k to ~800k IOPS", (600, 800)),  # the unit after the magnitudes
    ("From 9.4Gbps down to 8.1Gbps on the same box.", (9.4, 8.1)),
    ("Latency (p99) is down to 38 us from 45 us.", (45, 38)),  # the candidate first
    ("Results: 5.1 Gbps (baseline), 6.3 Gbps (patched)", (5.1, 6.3)),  # sides in parentheses
    ("Baseline gets 100k rps; patched gets 120k rps.", (100, 120)),
    ("The patched kernel does 1.45 Mpps, the unpatched one 1.21 Mpps.", (1.21, 1.45)),
])
def test_more_ways_prose_writes_a_pair(text: str, pair: tuple[float, float]) -> None:
    assert pairs("Subject: t\n\n" + text + "\n") == [pair]


def test_a_change_that_goes_up_or_down() -> None:
    assert relative("Throughput goes up by 15%.\n") == [15.0]
    assert relative("pps went down by 5-10%.\n") == [-5.0, -10.0]
    assert relative("it reduces the latency by up to 45%\n") == [-45.0]  # "up to" is a hedge
    assert _metrics("it's roughly 2.5x faster than before") == ["change"]  # no "s" from "it's"


def test_the_compared_to_number_is_the_baseline_unless_words_say_otherwise() -> None:
    assert pairs("Subject: t\n\nThis brings the p99 latency to 38 us, compared to 45 us before.\n") == [(45, 38)]
    assert pairs("Subject: t\n\nThe series gets 14.88 Mpps compared with 12.1 Mpps on net-next.\n") == [(12.1, 14.88)]


def test_a_stated_change_orders_an_unnamed_vs() -> None:
    claims = ex("Subject: t\n\nThe new code is 20% faster (12.1 vs 10.1 Mpps).\n").claims
    assert [(c.baseline.value, c.candidate.value, c.claimed_change_pct) for c in claims if c.baseline] \
        == [(10.1, 12.1, 20.0)]
    assert pairs("Subject: t\n\nIt is 20% slower now (12.1 vs 10.1 Mpps).\n") == [(12.1, 10.1)]
    assert pairs("Subject: t\n\nLatency is 20% lower: 10 us vs 8 us.\n") == [(10, 8)]


def test_a_baseline_sentence_and_the_next_pass_the_gate() -> None:
    text = "Subject: t\n\nThe vanilla kernel boots in 3.2 s.\nWith this series it boots in 2.1 s, see below.\n"
    assert pairs(text) == [(3.2, 2.1)]
    assert pairs(text.replace("3.2 s.\n", "3.2 s.\n\n")) == []  # another paragraph: no pair


def test_numbers_that_name_things_have_no_side() -> None:
    assert pairs("Subject: t\n\nAnd he did not ack patch 2\nwhile he acked patch 1. Did I misunderstand?\n") == []


# the archive's "virtio_ring: split: update avali idx lazily": percentage levels in two
# sentences, the baseline named after its number
_HITM = """Subject: t

perf c2c:

    On the vhost-user side, the perf c2c show 34.25% Hitm of the first cache
    line of the avail structure without this commit. The hitm reduces to
    1.57% when this commit is included.
"""


def test_percentage_levels_across_sentences_pair() -> None:
    assert [(c.metric, c.baseline.value, c.candidate.value) for c in ex(_HITM).claims if c.baseline] \
        == [("Hitm", 34.25, 1.57)]
    # a stated change is no level: "a 5% gain" has its baseline unsaid
    assert pairs("Subject: t\n\nWe measured 20% CPU usage without the patch. The patch gives a 5% gain.\n") == []


@pytest.mark.parametrize("text", [
    # "9p", "35395770f803": names with digits in them are no measures (archive, "9p regression")
    "This patch (commited as 35395770f803 (\"virtio_ring: don't update event\nidx on get_buf\") in "
    "next-20230327 apparently breaks 9p, as reported by",
    # a design, not a measurement (archive, "virtio-mem: Better retry handling")
    "Let's start with a retry interval of 30 seconds and double the time until we\nreach 30 minutes, "
    "in case we keep getting errors.",
    "Sending an interrupt at the end\nof each scan doubles the overhead ...",
    "If so, it halves its buffer allocation. If not, it doubles its buffer",
    "will never hotplug more than 3 times the boot memory (and the",
])
def test_archive_sentences_that_state_no_claim(text: str) -> None:
    assert ex("Subject: t\n\n" + text + "\n").claims == []


def test_n_times_that_of_is_a_stated_change() -> None:
    # archive, "virtio-net, xsk: virtio-net support xsk zero copy tx"
    assert relative("> The performance of udp sending based on virtio net + xsk is 6 times that\n"
                    "> of ordinary kernel udp send.\n") == [500.0]


def test_a_range_of_percentages_in_brackets_is_a_change() -> None:
    # archive: "Re: [RFC PATCH V2 0/7] Do not read from descripto ring", the range wrapped
    # onto the next line; "(5%-10%)" is one token, the change noun before it gives the sign
    text = "Our QE see no regression on the perf test for 10G but some regressions \n(5%-10%) on 40G card.\n"
    assert relative(text) == [-5.0, -10.0]
    assert _metrics(text) == ["change", "change"]  # "some" names no measure


@pytest.mark.parametrize("text", [
    # archive: a level reached, not a change ("goes" with no "up" or "down")
    "> I've checked that vhost process (and pktgen) goes 100% cpu also.",
    # archive: a printf conversion in a quoted patch read as "-22%"
    '> +\tseq_printf(f, "%-22s: %d\\n", "page_size", 4096);',
    # invented: a range reached ("drops to 5-10%") is a level, as a single percentage is
    "The usage drops to 5-10% under load.",
])
def test_levels_and_formats_are_no_changes(text: str) -> None:
    assert relative(text + "\n") == []


def test_rows_that_name_their_variant_before_one_value_pair() -> None:
    # archive: "Re: [PATCH vhost v11 10/10] virtio_net: merge dma operation for one page";
    # a "label: value" row without its colon, the setting heading the rows is their context
    text = ("> kernel command line: intel_iommu=on iommu.strict=1 iommu.passthrough=0\n>\n"
            "> virtio-net without merge dma 428614.00 pps\n>\n> virtio-net with merge dma    742853.00 pps\n\n\n"
            "kernel command line: intel_iommu=on iommu.strict=0 iommu.passthrough=0\n\n"
            "virtio-net without merge dma 775496.00 pps\n\nvirtio-net with merge dma    1010514.00 pps\n\nThanks.\n")
    claims = [c for c in ex("Subject: t\n\n" + text).claims if c.baseline]
    assert [(c.baseline.value, c.candidate.value) for c in claims] == [(428614, 742853), (775496, 1010514)]
    assert all(c.unit == "pps" and c.context and "iommu.strict" in c.context for c in claims)


@pytest.mark.parametrize("text", [
    "I ran it for 30 seconds\nand then for 60 seconds",  # no variant named
    "Tested on a box with 4 cores\nand on one with 8 cores",  # sizes, not measures
    # archive (a call for papers): journals and their impact factors under a heading row
    "Data Technologies and Applications (IF: 1.667 / Q4)\n\nComputer Science and Information Systems "
    "(IF: 1.167 / Q4)\n\nJournal of Information Science and Engineering (IF: 0.541 / Q4): Special Issue",
])
def test_sentences_ending_in_a_value_are_no_rows(text: str) -> None:
    assert pairs("Subject: t\n\n" + text + "\n") == []


def test_the_upper_end_of_a_range_written_with_to() -> None:
    # archive: "[PATCH v2] x86/paravirt: useless assignment instructions cause Unixbench
    # full core performance degradation"; the "5%" after "to" is read as the "4%" before it
    ln = Line("causing the multi-core performance of Unixbench to drop by about 4% to 5%.", 1)
    assert [(c.metric, c.claimed_change_pct) for c in relative_claims(ln)] \
        == [("performance", -4.0), ("performance", -5.0)]


def test_a_perf_call_graph_node_is_no_prose() -> None:
    # archive: a "perf report -g" call graph pasted in a reply; its lines are no sentence
    text = ("      - vhost_worker\n         - 33.47% handle_tx_kick\n              handle_tx\n"
            "              handle_tx_copy\n              vhost_tx_batch.isra.0\n")
    assert relative(text) == []


@pytest.mark.parametrize("text", [
    # archive: a reviewer's reply on a percpu patch; "talking" was the metric
    "Also, you're talking ~1% gains here. I think our collective time would",
    # archive: a reply on virtio vectors; "versus seems" was the metric
    "on vectors. 3 versus 2 seems a 50% saving. You disagree?",
])
def test_the_clause_around_a_stated_change_is_not_its_measure(text: str) -> None:
    """Words before a stated change name its measure only when a verb ends them as a
    subject; otherwise the change is of a measure the sentence does not name."""
    assert {c.metric for c in ex("Subject: t\n\n" + text + "\n").claims} == {"change"}


def test_a_subject_ended_by_its_verb_still_names_a_stated_change() -> None:
    assert [(c.metric, c.claimed_change_pct) for c in relative_claims(Line("XDP_REDIRECT gets a 20% improvement", 1))] \
        == [("XDP_REDIRECT", 20.0)]
    assert [c.metric for c in relative_claims(Line("The memcpy cost dropped by 5%.", 1))] == ["memcpy cost"]


def test_a_share_of_the_runs_is_bookkeeping_not_a_change() -> None:
    text = ("The ring no longer takes the lock on the fast path: throughput improves by\n"
            "12% with 8 clients (20% of the runs were dropped as warm-up).\n")
    assert relative(text) == [12.0]
