"""Prose read as clauses: stated changes and the pair templates ("from X to Y", "X -> Y",
"Y instead of X", "X vs Y", "N-fold", "N% faster/slower/drop"), with the direction taken
from the clause's words, not from the order the numbers stand in."""
from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claims.model import Line
from claims.prose import (
    arrow_claims,
    from_to_claims,
    passages,
    relative_claims,
    side_claims,
    vs_claims,
)
from tests.extractkit import ex, pairs, relative


def named_pairs(text: str) -> list[tuple]:
    """Each claim's measure, baseline, candidate and better direction, in order."""
    return [(c.metric, c.baseline.value, c.candidate.value, c.better) for c in ex(text).claims]


@pytest.mark.parametrize(("text", "change"), [
    ("Under load I get a 22 % increase in throughput.", 22.0),
    ("The request rate is about 4 % slower on the small box.", -4.0),
    ("The old path had caused a 6% throughput drop.", -6.0),
    ("Single-flow latency is 2% worse.", 2.0),  # worse latency went up
    ("Single-flow throughput is 2% worse.", -2.0),  # worse throughput went down
    ("Tail latency shows a 40-fold drop.", -97.5),
    ("Rate is ~1.5 percent lower after the patch.", -1.5),
])
def test_stated_changes(text: str, change: float) -> None:
    assert relative(text) == [change]


def test_a_wrapped_sentence_lends_its_verb() -> None:
    prev = Line("On the stream test we measured a decrease of", 1)
    ln = Line("softirq time by up to 45%, depending on size.", 2)
    assert [c.claimed_change_pct for c in relative_claims(ln, prev)] == [-45.0]
    assert relative_claims(ln) == []  # alone, the line names no change


def test_instead_of_names_the_candidate_first() -> None:
    assert pairs("at 10Gbit: below 3 ms instead of 35 ms with GSO\n") == [(35, 3)]


def test_pair_templates() -> None:
    assert pairs("Throughput went from 2.50Mpps to 3.05Mpps.\n") == [(2.50, 3.05)]
    assert pairs("XDP_DROP goes 24.1 Mpps -> 26.3 Mpps here.\n") == [(24.1, 26.3)]
    assert pairs("p99 latency is 45us vs 38us.\n") == [(45, 38)]


def test_versions_and_histograms_are_not_pairs() -> None:
    assert pairs("Bumped the library from 7.0 -> 7.1 in this series.\n") == []


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("0123456789.,% -><=→xX~+fromtovsinsteadfoldby\u0661\u0662")), max_size=300))
def test_prose_readers_never_crash(text: str) -> None:
    ln = Line(text, 1)
    for fn in (arrow_claims, vs_claims, relative_claims):
        fn(ln)
    from_to_claims(ln, Line(text[::-1], 2))
    relative_claims(ln, Line(text, 0))


@pytest.mark.parametrize("unit", ["1.0 -> 2.0 ", "\u0661\u0662\u0663 -> \u0664\u0665\u0666 ", "from 1 to 2 ",
                                  "improves by 5% ", "45us vs 61us "])
def test_prose_readers_are_linear(unit: str) -> None:
    ln = Line(unit * 20000, 1)  # a line far past MAX_LINE: every reader works on a bounded window
    t = time.process_time()
    for fn in (arrow_claims, vs_claims, relative_claims):
        fn(ln)
    from_to_claims(ln, None)
    assert time.process_time() - t < 5  # a bound, not a benchmark: quadratic took 20-45 s


def test_two_stated_changes_are_not_a_pair() -> None:
    # each percentage is a change against its own baseline; neither is the other's baseline
    assert pairs("v3 shows bigger gains than v2 (~25% vs ~11%) for stream.\n") == []
    assert pairs("CPU utilization 40% vs 30%\n") == [(40, 30)]  # a metric measured in %


_FILLER = "\n".join(f"Some unrelated line of discussion number {i}." for i in range(15))
_TABLE = """Subject: [PATCH net-next] tcp: something

netperf -t TCP_STREAM results:

              before     after
throughput    1000       1120    (+12.0%)
"""


def test_a_percent_far_from_a_pair_is_its_own_claim_and_near_it_restates_it() -> None:
    """The same +12% far below a table is another change (UDP_RR here); right under the
    table it restates the table's change and is not counted twice."""
    far = _TABLE + "\n" + _FILLER + "\n\nSeparately, UDP_RR latency improves by 12.0% with it.\n"
    near = _TABLE + "\nThat is a 12.0% improvement.\n"
    assert pairs(far) == [(1000.0, 1120.0)] and relative(far) == [-12.0]  # an improved latency went down
    assert pairs(near) == [(1000.0, 1120.0)] and relative(near) == []


def test_a_fold_drop_restates_a_pair_only_when_the_factors_agree() -> None:
    """Near -100% percents hardly differ, so two drops are compared as factors: "a 130-fold
    drop" under a pair that fell 1,700-fold is another change, its own claim; under one
    that fell 128-fold it restates that pair's change."""
    def text(after: str) -> str:
        return ("Subject: t\n\nBefore:\n\nnum_transactions=3110\nlatency_p99=0.041200510\n\n"
                f"After:\n\nnum_transactions=398004\nlatency_p99={after}\n\n"
                "That is a 130-fold drop in latency.\n")
    far, near = ex(text("0.000024110")), ex(text("0.000321875"))
    assert [(c.metric, c.claimed_change_pct) for c in far.claims if c.baseline is not None] == [
        ("num_transactions", None), ("latency_p99", None)]
    assert [round(c.claimed_change_pct or 0, 2) for c in far.claims if c.baseline is None] == [-99.23]
    assert [(c.metric, round(c.claimed_change_pct or 0, 2)) for c in near.claims] == [
        ("num_transactions", 0), ("latency_p99", -99.23)]


@pytest.mark.parametrize(("said", "before", "after", "change"), [
    ("a 1.5x speedup", 3.0, 2.0, -33.33),  # a factor: the time divided by it
    ("a 20% speedup", 100.0, 83.3, -16.67),  # "20% faster" whose numbers are the ratio's
    ("a 20% speedup", 100.0, 80.0, -20.0),  # ... or the percentage's (the corpus' convention)
    ("a 2x speedup", 3.0, 1.5, -50.0),
])
def test_a_change_of_merit_beside_a_time_is_the_reading_its_numbers_give(
        said: str, before: float, after: float, change: float) -> None:
    """A speedup stated beside the times it comes from is the change of those times: a
    factor of merit inverts the ratio (-33%, where turning a percentage's sign would say a
    -50% that the printed numbers contradict, and the report would call it wrong)."""
    claims = ex(f"Subject: t\n\nThis gives {said} (from {before}s to {after}s).\n").claims
    assert [(c.baseline.value, c.candidate.value, c.claimed_change_pct) for c in claims] == [
        (before, after, change)]


def test_a_wrapped_sentence_is_read_whole() -> None:
    """The mail client broke the sentence inside the template; the passage joins it."""
    text = ("Subject: t\n\nThe rest goes noticeably worse: UDP_RR goes from ~6347\n"
            "transactions/sec to 5830 on the same box.\n")
    assert pairs(text) == [(6347, 5830)]
    assert relative("Compared to no cache, virtio-net can get a 16%\nperformance improvement.\n") == [16]


def test_passages_keep_items_labels_and_depths_apart() -> None:
    lines = [Line("We measured the throughput", 1), Line("with netperf on both hosts.", 2),
             Line("- before: 10 Gbps", 3), Line("Quoted text goes on here", 4, depth=1),
             Line("  col_a    col_b", 5), Line("Results below:", 6), Line("and more words", 7)]
    got = [[ln.number for ln in p.lines] for p in passages(lines, set())]
    assert got == [[1, 2], [3], [4], [5], [6], [7]]
    p = passages(lines, set())[0]
    assert p.line_at(p.text.index("netperf")) == 2


@pytest.mark.parametrize(("text", "change"), [
    ("As it is it looks like a 1-2% regression for 512B.", [-1.0, -2.0]),  # the range's sign
    ("with a reduction in execution time (3.7 %) and fewer branches", [-3.7]),  # a change in parentheses
    ("an improvement, with a reduction of the execution time of about 3.7%.", [-3.7]),  # the nearest word
    ("netperf UDP_STREAM shows a performance increase of 1.8, almost doubling", [80.0]),  # a factor
    ("This reduces the 99.9th percentile latencies in our tests by\n60x and slightly more.", [-98.3333]),
    ("As a result, IOPS and average latency improved about 10%.", [10.0, -10.0]),  # improved latency fell
    # "went"/"goes" name no side: the "down" after them does, for a factor as for "a factor of"
    ("The number of IPIs went down by 40x.", [-97.5]),
    ("The number of IPIs went up by 40x.", [3900.0]),
])
def test_stated_changes_signed_by_their_words(text: str, change: list[float]) -> None:
    assert relative(text + "\n") == change


def _sides(text: str) -> list[tuple[float, float]]:
    return [(c.baseline.value, c.candidate.value) for c in side_claims(Line(text, 1))
            if c.baseline and c.candidate]


def test_each_number_takes_the_side_its_words_name() -> None:
    assert _sides("Small packets: about 645 without the patch, ~625 with batch and buf api.") == [(645, 625)]
    assert _sides("I get 9.8 Gbps patched and 9.4 Gbps on net-next.") == [(9.4, 9.8)]  # candidate first
    # code described in words: the numbers are states of a flag, no change is named
    assert _sides("It tells you whether the bit flipped from 0 in old to 1 in new.") == []
    assert _sides("We use 2 queues with the patch and 4 queues without.") == []  # a setting, not a result


def test_value_first_items_against_a_named_baseline() -> None:
    text = ("Subject: t\n\nSingle flow, 128 byte frames:\n* 5,112,930 - baseline\n* 5,098,004 - page frags only\n"
            "* 5,322,100 - page frags with recycling\n4.1% gain\n")
    assert pairs(text) == [(5112930, 5098004), (5112930, 5322100)]
    # key: value settings are no variants of one another, even when one name holds another
    assert pairs("Subject: t\n\n  requested-size: 1073741824\n  size: 0\n  max-size: 107374182400\n"
                 "  block-size: 2097152\n") == []


def test_a_label_that_adds_to_the_baseline_is_the_candidate() -> None:
    text = ("Subject: t\n\n  Upstream codebase: 1.76 Gbits/sec\n"
            "  Upstream codebase with page pool fragmentation support: 1.81 Gbits/sec\n"
            "  Upstream codebase with page pool fragmentation and DMA support: 19.3\n"
            "  Gbits/sec\n")
    assert pairs(text) == [(1.76, 1.81), (1.76, 19.3)]
    assert pairs("Subject: t\n\navg packets drop before: 2842\navg packets drop after: 360(-87.3%)\n") == [(2842, 360)]
    # the labels name the metric, and so its direction: fewer drops are better
    (c,) = ex("Subject: t\n\navg packets drop before: 2842\navg packets drop after: 360(-87.3%)\n").claims
    assert (c.metric, c.better) == ("avg packets drop", "lower")


@pytest.mark.parametrize("cand", ["v6.6+fix", "v6.6 + fix", "v6.6 with this series"])
def test_the_label_a_candidate_extends_is_its_baseline(cand: str) -> None:
    """"v6.6:" / "v6.6+fix:": the second names a change to the first, which names no side
    on its own (a release); the pair had been left unread. Two names joined by "+" with
    no change word ("TCP" / "TCP+TLS") stay two measurements."""
    (c,) = ex(f"Subject: t\n\nlat_ctx:\n   v6.6:     1.23 us\n   {cand}: 1.12 us\n").claims
    assert (c.baseline.label, c.candidate.label, c.baseline.value, c.candidate.value) == ("v6.6", cand, 1.23, 1.12)
    assert pairs("Subject: t\n\n   TCP:     1.23 us\n   TCP+TLS: 1.12 us\n") == []


@pytest.mark.parametrize(("text", "got"), [
    ("refscale, ns per read:\n\n  scale_type=srcu   v6.12: 12.345   this series: 9.876\n", [(12.345, 9.876)]),
    ("Results:\n\n  srcu:       v6.12: 12.345   this series: 9.876\n  srcu-fast:  v6.12: 3.210   this series: 1.987\n",
     [(12.345, 9.876), (3.21, 1.987)]),
    ("Results:\n\n  v6.12: 12.3 ns\n  this series: 9.8 ns\n", [(12.3, 9.8)]),
    ("rx  6.8-rc1: 12.3us | +patch: 9.8us\n", [(12.3, 9.8)]),
    ("Baseline: 1853025pps 622Mb/sec errors: 7915231\nBatch: 1891404pps 635Mb/sec errors: 4926093\n",
     [(1853025, 1891404), (622, 635), (7915231, 4926093)]),
])
def test_a_release_beside_a_candidate_is_its_baseline(text: str, got: list) -> None:
    """"v6.12: 12.345   this series: 9.876" was left unread or, over two such rows, read
    as "this series" of srcu against "this series" of srcu-fast (9.876 -> 1.987): a line's
    "label: value" segments were read as a pair only where two labels had side words, and
    a label ran back over a column's gap ("srcu   v6.12"). A bare release beside a
    candidate is its baseline, as the lexicon ranks one beside a table's columns; a label
    with one side word beside one with none ("Baseline: ... errors: 7915231") stays one
    row; and the release names no metric."""
    claims = ex(text).claims
    assert [(c.baseline.value, c.candidate.value) for c in claims] == got
    assert not any("6." in c.metric for c in claims)


def test_a_columns_gap_after_a_value_ends_its_name() -> None:
    """"real 1m52.31s   user 58m01.2s   sys 6m12.9s" named the real time "user" and the
    user time "sys": the word after a value names it, and a gap of columns ended that
    name only after its first word. A gap right after the value ends it too (but for a
    unit printed apart: "1.23   Mpps"), so each value keeps the name before it."""
    text = ("Kernel build, make -j64:\n\n"
            "  vanilla:  real 1m52.31s   user 58m01.2s   sys 6m12.9s\n"
            "  patched:  real 1m47.02s   user 57m58.8s   sys 5m31.4s\n")
    got = [(c.metric, round(c.baseline.value, 2), round(c.candidate.value, 2)) for c in ex(text).claims]
    assert got == [("real", 112.31, 107.02), ("user", 3481.2, 3478.8), ("sys", 372.9, 331.4)]
    (c,) = ex("base:     rx 1.23   Mpps\npatched:  rx 1.45   Mpps\n").claims
    assert (c.unit, c.baseline.value, c.candidate.value) == ("Mpps", 1.23, 1.45)


@pytest.mark.parametrize(("text", "got"), [
    ("The memory footprint of the slab drops by ~30MB (from 412MB to 381MB).", [("memory footprint", 412, 381, "lower")]),
    ("The footprint of the slab drops from 412 MB to 381 MB.", [("footprint", 412, 381, "lower")]),
    ("The number of TLB flushes dropped from 1200 to 300.", [("TLB flushes", 1200, 300, "lower")]),
])
def test_a_measure_of_something_is_named_by_its_head(text: str, got: list) -> None:
    """"The memory footprint of the slab drops from 412MB to 381MB" gave nothing: the
    subject was read from the last four words ("of the slab drops"), so the measure was
    "the slab", which has no direction, and a size without one is a setting. The words
    "of" hangs on are read too, and name the measure when they have a direction; else
    what it is of does ("the number of TLB flushes")."""
    assert named_pairs(text) == got


def test_sides_named_before_the_numbers() -> None:
    assert _sides("baseline 10.2 Gbps, patched 11.3 Gbps") == [(10.2, 11.3)]
    assert _sides("Before the series it was 5.1 Mpps; after, 6.2 Mpps.") == [(5.1, 6.2)]
    assert _sides("without the patch we got 10 Gbps and with it 12 Gbps.") == [(10, 12)]
    assert _sides("With the patch applied I see 12 Gbps.") == []  # one side: nothing to pair


def test_label_lines_pair_by_the_units_they_print() -> None:
    text = ("Subject: t\n\nTestpmd reports:\nBaseline: 1854448pps, 860464156 bps. [3]\n"
            "Batch: 1892844.25pps, 878280070bps.\n")
    assert pairs(text) == [(1854448, 1892844.25), (860464156, 878280070)]


def test_a_number_set_in_the_past_against_one_set_now() -> None:
    assert _sides("Throughput was 9.4 Gbps; with this series it is now 9.8 Gbps.") == [(9.4, 9.8)]
    assert _sides("It used to take 5 ms to map the region, now it takes about 1 ms.") == [(5, 1)]
    assert _sides("Previously we got 2.1 Mpps, now we get 2.9 Mpps.") == [(2.1, 2.9)]
    # two pasts and no "now": nothing says which is the baseline
    assert _sides("It was 5 ms on one box and was 7 ms on the other.") == []


@pytest.mark.parametrize("text", [
    "The overhead is less than 1% in all tests.",  # a bound, not a point
    "If it is <~ 1% then there is no performance argument.",
    "The regression stays below 2% on every run.",
    "Is the overhead 5% or more?",  # asked, not measured
    "If it is 10% faster then we should take it.",
    "the QPS of HTTPS increase to ~200% in a guest.",  # a level against an unsaid base
])
def test_bounds_questions_and_levels_state_no_change(text: str) -> None:
    assert relative(f"Subject: t\n\n{text}\n") == []


def test_a_range_and_a_lead_to_still_state_changes() -> None:
    assert relative("Subject: t\n\nDaniel reported from +14% to +18% of throughput in TCP RR.\n") == [14.0, 18.0]
    assert relative("Subject: t\n\nThese changes lead to about 19% more IOPS in a fio test.\n") == [19.0]


@pytest.mark.parametrize(("text", "metric"), [
    # the verb's object is what changed, not a measure word further back or a later clause
    ("It reduced inflate/deflate activity by 12x, and reduced inflation time by 8.6x.",
     ["inflate/deflate activity", "inflation time"]),
    ("This reduces the 99.9th percentile latencies in our tests by 60x.", ["99.9th percentile latencies"]),
    ("It can boost up the performance by 2%.", ["performance"]),
    # the comparative's noun
    ("Old kernels have roughly 10x faster balloon inflation when pressuring the cache.", ["balloon inflation"]),
    ("Rate is ~1.5 percent lower after the patch.", ["Rate"]),
    # modifiers between the number and the change noun
    ("I did see a 30% compile speed improvement with clang.", ["compile speed"]),
])
def test_a_stated_change_is_named_from_its_clause(text: str, metric: list[str]) -> None:
    assert [c.metric for c in relative_claims(Line(text, 1))] == metric


def test_tool_lines_state_no_change() -> None:
    # a perf call graph's nodes and ping's loss figure are readings, not changes
    assert relative("Subject: t\n\nThe call tree as below:\n   + 5.41% secondary_startup_64\n"
                    "   - 66.51%\n        ret_from_fork\n") == []
    assert relative("Subject: t\n\n5 packets transmitted, 1 received, 80% packet loss, time 76ms\n") == []


def test_a_sentence_wrapped_before_its_last_word_is_read_whole() -> None:
    text = "Subject: t\n\nTestpmd (virtio-user) + vhost_net shows about 2.6% improvement on TX\nPPS.\n"
    assert [(c.metric, c.claimed_change_pct) for c in ex(text).claims] == [("TX PPS", 2.6)]


_PARALLEL = """Subject: [PATCH] crypto: wait for the ctrl queue instead of busy polling

There are two problems:
1, The queue depth is always 1. Test on a big box, a single worker gets
   ~35K/s session operations, and 8 workers get ~40K/s operations with
   800% CPU utilization.

    CPU0   CPU1
     |      |
      \\----spin_lock----/

Test this patch, the guest side get ~200K/s operations with 300% CPU
utilization.
"""


def test_parallel_clauses_across_paragraphs_pair() -> None:
    assert pairs(_PARALLEL) == [(40, 200), (800, 300)]
    # the later clause names no change: two measurements, not a comparison
    assert pairs(_PARALLEL.replace("Test this patch", "On the small box")) == []
    # two earlier clauses of that shape: which one is the baseline is not said
    doubled = _PARALLEL.replace("There are two problems:", "Over one queue 4 workers get ~30K/s operations\n"
                                "with 400% CPU utilization.\n\nThere are two problems:")
    assert pairs(doubled) == []


def test_one_reading_per_pair_of_numbers() -> None:
    # the unnamed "X vs Y" and the named one read the same two numbers: the words win
    assert pairs("Subject: t\n\nWe see 1.2M ops/s vs 1.0M ops/s without the patch.\n") == [(1.0, 1.2)]


def test_changes_by_rising_and_falling_verbs() -> None:
    assert [c.claimed_change_pct for c in relative_claims(Line(
        "Throughput drops 3% for 64 byte packets but rises 5% for 1500 byte packets.", 1))] == [-3.0, 5.0]
    assert [c.claimed_change_pct for c in relative_claims(Line(
        "Single-stream throughput went up by a factor of 2.", 1))] == [100.0]
    assert [c.claimed_change_pct for c in relative_claims(Line(
        "The copy cost was reduced by a factor of 4.", 1))] == [-75.0]


def test_a_subject_is_named_without_its_verb() -> None:
    assert [c.metric for c in from_to_claims(Line("The memcpy cost dropped from 12% to 4% of cycles.", 1))] \
        == ["memcpy cost"]


def test_parallel_clauses_are_named_by_the_words_after_their_values() -> None:
    assert [(c.metric, c.unit) for c in ex(_PARALLEL).claims if c.baseline] == [
        ("operations", "K/s"), ("CPU utilization", "%")]


@pytest.mark.parametrize(("text", "change"), [
    ("This halves the latency of the fast path.", -50.0),
    ("The latency dropped by half with this patch.", -50.0),
    ("Throughput doubled with the series applied.", 100.0),
    ("This patch cuts the boot time in half.", -50.0),
    ("The throughput is 3 times as high as before.", 200.0),
])
def test_changes_sized_by_a_word(text: str, change: float) -> None:
    assert relative("Subject: t\n\n" + text + "\n") == [change]


@pytest.mark.parametrize("text", [
    "This would double the throughput.",  # a supposition
    "We did not see the throughput double.",
    "The driver doubles the time between retries.",  # a design: the time of nothing measured
    "With DEBUG_HIGHMEM the stack depth is doubled and every second",  # no measure
])
def test_word_sized_changes_need_a_reported_measure(text: str) -> None:
    assert relative("Subject: t\n\n" + text + "\n") == []


@pytest.mark.parametrize("text", [
    "Without the patch the boot takes 5.2s; with it, in 3.1s.",
    "Without the patch, the boot completes in 5.2s; with it, it completes in 3.1s.",
])
def test_a_side_set_off_by_a_comma_names_the_clause_after_it(text: str) -> None:
    assert pairs("Subject: t\n\n" + text + "\n") == [(5.2, 3.1)]


_ORDERED = """Subject: t

> Rate is ~1.5 percent lower after the patch.

Time per packet makes it easier to judge:

  89.25 ns per packet at 11,204,330 pps (10^9 / 11204330)
  90.58 ns per packet at 11,040,118 pps (10^9 / 11040118)
"""


def test_a_stated_change_orders_two_unsided_lines() -> None:
    assert sorted(pairs(_ORDERED)) == [(89.25, 90.58), (11204330, 11040118)]
    # lines written the other way round: the stated change still says which came first
    swapped = _ORDERED.replace("  89.25 ns per packet at 11,204,330 pps (10^9 / 11204330)\n", "") \
        .replace("(10^9 / 11040118)\n", "(10^9 / 11040118)\n  89.25 ns per packet at 11,204,330 pps\n")
    assert sorted(pairs(swapped)) == [(89.25, 90.58), (11204330, 11040118)]
    # no stated change, or one that fits neither order: two measurements, not a pair
    assert pairs(_ORDERED.replace("~1.5 percent", "~9 percent")) == []
    assert pairs(_ORDERED.replace("> Rate is ~1.5 percent lower after the patch.\n", "")) == []


@pytest.mark.parametrize(("text", "pair"), [
    ("I see a throughput of 21 Gbps, up from 18 Gbps.", (18, 21)),  # the candidate first
    ("p99 is 40 us, down from 52 us.", (52, 40)),
    ("Latency went down to 45us (from 61us).", (61, 45)),
    ("TCP_RR improved from 31000 to 35000 transactions per second.", (31000, 35000)),
    # no unit, and the sentence goes on: "on" is no unit, and a counter that names its
    # rate ("per_process_ops") is a measure
    ("The patch improves throughput from 123456 to 145678 on a 96-thread box.", (123456, 145678)),
    ("This improves per_process_ops from 123456 to 145678 (+18%).", (123456, 145678)),
])
def test_from_templates_in_either_order(text: str, pair: tuple[float, float]) -> None:
    assert pairs("Subject: t\n\n" + text + "\n") == [pair]


@pytest.mark.parametrize("text", [
    "We now need 4 queues, up from 2 queues.",  # counts, not measures
    "The kernel is 5.10, up from 4.19.",
    "It went from 3 steps to 5 steps per second.",
    "The stack depth is increased from 20 to 41 on x86.",  # a count, the sentence going on
])
def test_from_templates_refuse_counts_and_versions(text: str) -> None:
    assert pairs("Subject: t\n\n" + text + "\n") == []


def test_up_and_down_before_a_percentage() -> None:
    assert relative("Subject: t\n\nThroughput is up 12% and latency down 8%.\n") == [12.0, -8.0]
    assert relative("Subject: t\n\nScroll down 5% of the page.\n") == []


def test_side_words_outrank_the_order_of_an_unnamed_vs() -> None:
    assert pairs("Subject: t\n\nWith the patch, p50 is 12us vs 15us without.\n") == [(15, 12)]
    assert pairs("Subject: t\n\nWe measured 45us vs 61us.\n") == [(45, 61)]


@pytest.mark.parametrize(("text", "pair"), [
    ("Running netperf on the unpatched kernel yields 9.1 Gbps, while on the patched kernel it yields 9.4 Gbps.",
     (9.1, 9.4)),  # a strong side word a clause of eight words away
    ("It takes 3.1s with the patch applied instead of 5.2s.", (5.2, 3.1)),  # a few words before "instead of"
])
def test_sides_named_a_clause_away(text: str, pair: tuple[float, float]) -> None:
    assert pairs("Subject: t\n\n" + text + "\n") == [pair]


def test_instead_of_needs_measures() -> None:
    assert pairs("Subject: t\n\nWe use 4 queues by default instead of 8 queues.\n") == []
    assert pairs("Subject: t\n\nIt sleeps 1s in the loop instead of 10 ms.\n") == []


@pytest.mark.parametrize(("text", "change"), [
    ("The throughput regression is about 4 percent.", -4.0),  # the change named, then its size
    ("The improvement is ~12%.", 12.0),
    ("Latency is now 70% of what it was.", -30.0),
    ("Latency increased 3x.", 200.0),
    ("Throughput increased 3x in our tests.", 200.0),
])
def test_changes_named_before_their_size(text: str, change: float) -> None:
    assert relative("Subject: t\n\n" + text + "\n") == [change]


@pytest.mark.parametrize("text", [
    "The overhead is 5% of total CPU.",  # levels, not changes
    "Packet loss is 5%.",
    "It uses 70% of the original memory.",
    "The patch count increased 3x.",  # a count
])
def test_levels_and_counts_are_no_stated_changes(text: str) -> None:
    assert relative("Subject: t\n\n" + text + "\n") == []


def test_a_side_named_after_the_second_number_of_a_vs() -> None:
    assert pairs("Subject: t\n\nOn a 100G NIC the series gives 38 Gbps (vs. 33 Gbps on net-next).\n") == [(33, 38)]
    assert pairs("Subject: t\n\nWe measured 45us vs 61us with the patch.\n") == [(45, 61)]


def test_one_note_after_a_vs_names_both_sides_in_order() -> None:
    """"120k vs 135k pps (baseline vs patched)": the note's two names are the numbers' in
    their order, so the words, not the order, give the sides."""
    assert named_pairs("Subject: t\n\nThroughput is 120k vs 135k pps (baseline vs patched).\n") == [
        ("Throughput", 120.0, 135.0, "higher")]
    assert named_pairs("Subject: t\n\nThroughput is 120k vs 135k pps (patched vs baseline).\n") == [
        ("Throughput", 135.0, 120.0, "higher")]


def test_a_scale_and_its_unit_apart_are_one_unit() -> None:
    """"120k pps": the scale glued to the number, the unit a word after it; the unit is no
    name of a side."""
    got = ex("Subject: t\n\nThroughput: 120k pps vs 135k pps\n").claims
    assert [(c.baseline.value, c.candidate.value, c.unit, c.baseline.label) for c in got] == [
        (120.0, 135.0, "kpps", None)]


def test_a_sentence_that_introduces_unnamed_rows_names_their_rate() -> None:
    """"ops/sec of memtier_benchmark client is" over "dim off: 978437.23" / "dim on:
    1143638.28": the rows carry no name or unit; the sentence that introduces them names
    their rate, so the claim is an operation rate in ops/sec, higher is better, not "value"."""
    text = ("II. Redis\n2. Result\nWhen all cpus are 100%, ops/sec of memtier_benchmark client is\n"
            "dim off:   978437.23\ndim on: 1143638.28\n")
    got = [(c.metric, c.unit, c.better, c.baseline.value, c.candidate.value) for c in ex(text).claims]
    assert got == [("operation rate", "ops/sec", "higher", 978437.23, 1143638.28)]
    # a sentence that does not introduce them (it ends with a full stop) names nothing
    text = text.replace("client is\n", "client is high.\n")
    assert [c.metric for c in ex(text).claims] == ["value"]


def test_the_measure_a_verb_changes_is_its_object() -> None:
    """"This improves per_process_ops from ...": the measure follows the verb; before it
    stands what made the change. A stated change wrapped onto the next line restates the
    pair whose change it is to its rounding, not a nearer pair it only roughly matches."""
    text = ("The patch improves will-it-scale page_fault2 per_process_ops from 123456 to 145678\n"
            "(+18%) on a 96-thread box, and reduces sys time from 45.6% to 38.2%.\n")
    got = {(c.metric, c.baseline.value, c.candidate.value, c.claimed_change_pct) for c in ex(text).claims}
    assert got == {("will-it-scale page_fault2 per_process_ops", 123456, 145678, 18.0),
                   ("sys time", 45.6, 38.2, None)}  # (was "time": what a time is of names it)
    (c,) = ex("The memcpy cost dropped from 120 cycles to 80 cycles.\n").claims
    assert c.metric == "memcpy cost"


def test_a_name_that_opens_a_labelled_line_names_its_value() -> None:
    """sysbench's "transactions: 1234567 (4115.20 per sec.)" after a side's label: the
    label is cut off before the line is read, so its first "name:" is the value's name,
    not the side's (the claim had been named "base")."""
    text = ("base:     transactions: 1234567 (4115.20 per sec.)\n"
            "patched:  transactions: 1334567 (4448.53 per sec.)\n")
    got = [(c.metric, c.baseline.value, c.candidate.value) for c in ex(text).claims]
    assert ("transactions", 1234567, 1334567) in got
    # a line's own leading label is still its label: "avg" and "total" name the values
    text = ("Before patch: avg = 145 nsecs, total: 1455980341 nsecs\n"
            "After patch: avg = 120 nsecs, total: 1255980341 nsecs\n")
    assert [c.metric for c in ex(text).claims] == ["avg", "total"]


@pytest.mark.parametrize(("text", "named"), [
    ("We measured 25% fewer cache misses with the patch.", "cache misses"),
    ("The series gives 25% fewer page faults.", "page faults"),
])
def test_a_percentage_fewer_of_a_measure_is_a_drop(text: str, named: str) -> None:
    """"25% fewer cache misses": a comparative before a measure (its words have a
    direction) states a change of it, as "12% higher throughput" did; "fewer" of things
    that are no measure ("25% fewer people") states none."""
    (c,) = ex("Subject: t\n\n" + text + "\n").claims
    assert (c.metric, c.claimed_change_pct) == (named, -25.0)
    assert ex("Subject: t\n\n25% fewer people use it.\n").claims == []


def test_a_measured_size_changes_where_a_set_size_does_not() -> None:
    """"The memory footprint drops from 120MB to 90MB": a size that a change verb moves
    and whose name is a cost (footprint, usage, RSS) is measured; "the buffer size is
    increased from 64KB to 256KB" sets one. Sizes had been refused alike."""
    (c,) = ex("Subject: t\n\nThis reduces the memory footprint from 120MB to 90MB per VM.\n").claims
    assert (c.metric, c.baseline.value, c.candidate.value, c.unit, c.better) == (
        "memory footprint", 120, 90, "MB", "lower")
    (c,) = ex("Subject: t\n\nMemory usage went down from 120 MB to 90 MB.\n").claims
    assert (c.baseline.value, c.candidate.value, c.better) == (120, 90, "lower")
    assert ex("Subject: t\n\nThe buffer size is increased from 64KB to 256KB.\n").claims == []


@pytest.mark.parametrize("text", [
    "This increases the timeout from 5 seconds to 30 seconds, as some devices need longer to reset.",
    "Reduce the poll interval from 10 ms to 1 ms to lower wakeup latency.",
    "The limit was raised from 64 to 128 in commit abcdef.",
    "This changes the timeout 5s -> 30s.",
    "The patch changes the default ring size from 256 to 1024 and the default coalescing from 64us to 16us.",
])
def test_a_setting_the_patch_changes_is_no_measurement(text: str) -> None:
    """A patch that moves a timeout, an interval or a limit states the new setting, not a
    result: "from 5 seconds to 30 seconds" had been a 'time' claim of +500%, which a
    verdict would have tried to reproduce."""
    assert pairs("Subject: t\n\n" + text + "\n") == []


def test_a_setting_in_another_clause_leaves_the_measure() -> None:
    assert pairs("Subject: t\n\nWith the default settings, latency dropped from 10 ms to 1 ms.\n") == [(10, 1)]
    assert pairs("Subject: t\n\ndefault: 10 Gbps -> 12 Gbps\n") == [(10, 12)]
    assert pairs("Subject: t\n\nOn the default kernel throughput went from 10 to 12 Gbps.\n") == [(10, 12)]


def test_each_item_of_a_list_of_changes_is_named_by_its_own_words() -> None:
    """"TCP_STREAM: +3.2%, TCP_RR: -1.1%, UDP_RR: +0.4%": the words before a change end at
    the number of the item before it; the names had run together ("TCP_STREAM TCP_RR")."""
    got = [(c.metric, c.claimed_change_pct) for c in ex("Subject: t\n\nTCP_STREAM: +3.2%, TCP_RR: -1.1%, UDP_RR: +0.4%\n").claims]
    assert got == [("TCP_STREAM", 3.2), ("TCP_RR", -1.1), ("UDP_RR", 0.4)]


def test_a_stated_change_goes_to_the_pair_its_sentence_names() -> None:
    """Two pairs of one run rose by about as much ("IOPS" 10.8%, "BW" 10.6%): "about 10%
    more IOPS" is the IOPS pair's, whichever of the two the rounding favours."""
    text = ("t/io_uring on a single Optane drive, polled IO:\n\n"
            "before: IOPS=2.51M, BW=1227MiB/s, IOS/call=32/31\n"
            "after:  IOPS=2.78M, BW=1357MiB/s, IOS/call=32/32\n\n"
            "so about 10% more IOPS per core.\n")
    got = {c.metric: c.claimed_change_pct for c in ex(text).claims}
    assert got == {"IOPS": 10.0, "BW": None}


@pytest.mark.parametrize(("sentence", "change"), [
    ("Compile time is 7% better with the patch.", -7.0),
    ("This regresses p99 latency by 15%.", 15.0),
    ("The build time is 5% slower.", 5.0),
    ("We get 2% worse latency.", 2.0),
    ("Latency degrades by 8% under load.", 8.0),
    ("A 9% latency regression shows up in TCP_RR.", 9.0),
    ("The p99 latency improves by 20% with this series.", -20.0),
    ("With the knob on, p99 latency increases by 20%.", 20.0),
    ("Throughput is 3% worse.", -3.0),
    ("We see a 5% throughput regression.", -5.0),
    ("It ran 1.55 times faster than before.", 55.0),  # a factor's "times" is no run time
])
def test_a_change_stated_as_better_or_worse_is_signed_as_the_value_moves(sentence: str, change: float) -> None:
    """A stated change is signed as its value moves, which the verdict compares with the
    runs: a latency or a time that regresses, degrades, is worse or slower went up, one that
    improves or is better went down. Words of merit had kept their own sign for a time or
    latency ("regresses p99 latency by 15%" as -15%) or been turned twice ("7% better"
    compile time as +7%): a reproduced regression would have been reported as refuted."""
    assert relative("Hi,\n\n" + sentence + "\n") == [change]


def test_rather_than_names_the_baseline_second() -> None:
    """"Boot takes 1.9s rather than 2.4s" reads as "instead of": the candidate first, the
    yardstick after. The gate had turned the message away (no cue of a pair in words).
    Factors proposed the same way ("e.g. 2x rather than 16x") are no measure of a side."""
    from claims.prescan import might_have_claims

    text = "Hi,\n\nBoot takes 1.9s rather than 2.4s.\n"
    assert might_have_claims(text)
    assert named_pairs(text) == [
        ("time", 2.4, 1.9, "lower")]
    assert pairs("Hi,\n\nCan be combined, probably in a less drastic fashion\n(e.g. 2x rather than 16x).\n") == []


def test_an_earlier_value_in_parentheses_is_the_baseline() -> None:
    """"boots in 8.2s (previously 14.7s)", "1.5 Mpps (was 1.2 Mpps)": the value before the
    change stands aside in parentheses. No claim had come of them, and the gate had turned
    the first away."""
    from claims.prescan import might_have_claims

    text = ("Hi,\n\nWith 64 vCPUs the guest now boots in 8.2s (previously 14.7s), and\n"
            "with 256 vCPUs in 21.3s (previously 58.9s).\n")
    assert might_have_claims(text)
    assert pairs(text) == [(14.7, 8.2), (58.9, 21.3)]
    assert pairs("Hi,\n\nWith the patch: 1.5 Mpps (was 1.2 Mpps).\n") == [(1.2, 1.5)]
    assert pairs("Hi,\n\nthe block size is 256MB (was 128MB) now.\n") == []  # a size set


@pytest.mark.parametrize(("sentence", "merit"), [
    ("hackbench regresses by 5% with this patch.", (-5.0, True)),
    ("This speeds up fork() by 30%.", (30.0, True)),
    ("This makes TCP_RR 12% faster.", (12.0, True)),
    ("The p99 latency improves by 20%.", (-20.0, False)),
    ("Throughput drops 3%.", (-3.0, False)),
])
def test_a_merit_of_a_measure_without_direction_says_so(sentence: str, merit: tuple[float, bool]) -> None:
    """Words of merit ("regresses", "speeds up", "faster") of a measure whose direction
    the words do not give sign the change as better (+) or worse (-) and say so
    (Claim.merit): the verdict turns it into a way only where the measured metric's
    direction is known. A change of a known measure, or one stated as a way, is a way."""
    (claim,) = ex("Hi,\n\n" + sentence + "\n").claims
    assert (claim.claimed_change_pct, claim.merit) == merit


@pytest.mark.parametrize("sentence", [
    "The default interval is 10ms vs 100ms before.",
    "with a 30s timeout instead of 5s",
    "the watchdog threshold is 20s (was 10s)",
    "The timeout is now 30s (was 5s).",
    "Ring size: 256 -> 1024 (+300%)",
    "MTU: 1500 -> 9000",
    "The queue depth is 128 instead of 32.",
])
def test_a_setting_compared_in_words_is_no_measurement(sentence: str) -> None:
    """A setting a patch changes, compared as "vs", "instead of" or "(was X)", is no
    measurement, as from/to and arrows already knew (8f93251): each had been a latency or
    time claim, which a verdict would have judged against runs. A size, a depth or an MTU
    is such a setting, and so is the change stated beside it ("(+300%)")."""
    assert ex("Hi,\n\n" + sentence + "\n").claims == []


def test_a_measurement_beside_a_changed_size_stays() -> None:
    assert named_pairs("Hi,\n\nBatch size: 32 -> 64, throughput: 1.2 -> 1.5 Mpps\n") == [
        ("throughput", 1.2, 1.5, "higher")]
    assert named_pairs("Hi,\n\nRaising the buffer size from 4KB to 64KB improves throughput from 1.1 to "
                       "2.3 Gbps.\n") == [("throughput", 1.1, 2.3, "higher")]


def test_a_measurement_beside_a_setting_in_another_clause_stays() -> None:
    assert pairs("Hi,\n\nWith the default settings, latency is 45us vs 60us before.\n") == [(60.0, 45.0)]


@pytest.mark.parametrize(("rows", "named"), [
    ("before:  rx 1.23 Mpps  tx 1.45 Mpps\nafter:   rx 1.50 Mpps  tx 1.60 Mpps\n",
     {"rx Mpps": (1.23, 1.5), "tx Mpps": (1.45, 1.6)}),
    ("before:  throughput 9.41 Gbit/s  cpu 45%\nafter:   throughput 9.40 Gbit/s  cpu 31%\n",
     {"throughput Gbit/s": (9.41, 9.4), "cpu": (45.0, 31.0)}),
    ("base:    Throughput 1234.56 MB/sec  8 clients  8 procs  max_latency=23.456 ms\n"
     "patched: Throughput 1398.12 MB/sec  8 clients  8 procs  max_latency=19.001 ms\n",
     {"Throughput MB/sec": (1234.56, 1398.12), "max_latency": (23.456, 19.001)}),
])
def test_rows_of_named_values_spaced_as_columns(rows: str, named: dict[str, tuple[float, float]]) -> None:
    """A side's line of measures each printed with its name, pieces two spaces apart (as
    dbench prints its summary): the grid had read the first named value as the row's label,
    so only the last measure was paired (dbench's throughput was lost), and the row reader
    named a value by the next item's name ("Mpps tx"). A gap of columns ends an item."""
    got = {c.metric: (c.baseline.value, c.candidate.value) for c in ex("Results:\n\n" + rows).claims
           if c.baseline and c.candidate}
    assert got == named


@pytest.mark.parametrize("sentence", [
    "Score: baseline 1021, patched 1187.",
    "Score (higher is better): baseline 1,021, patched 1,187.",
])
def test_a_comma_after_a_bare_number_ends_its_side(sentence: str) -> None:
    """side_claims read a number's comma as a thousands separator's ("1021,"), so the next
    clause's side ("patched") was this number's too, and no baseline was left."""
    assert pairs("Hi,\n\n" + sentence + "\n") == [(1021.0, 1187.0)]


@pytest.mark.parametrize(("sentence", "pair"), [
    ("The build went from 12m30s to 11m58s.", (750.0, 718.0)),
    ("Build time is down from 12m30.5s to 11m58.2s.", (750.5, 718.2)),
    ("A full run goes from 1m20s to 45s with the patch.", (80.0, 45.0)),
    ("Kernel build time: 12m30s vs 11m58s.", (750.0, 718.0)),
    ("The test now takes 3m2.5s instead of 4m10.0s.", (250.0, 182.5)),
    ("The build takes 11m58s, compared to 12m30s before.", (750.0, 718.0)),
])
def test_times_written_as_time_prints_them_are_read_in_seconds(sentence: str, pair: tuple[float, float]) -> None:
    """time(1)'s "12m30s" in a sentence: the templates' number patterns stop at the
    minutes and read "m30s" as a unit, which is none, so the pair was dropped (or the
    candidate read as 11 s). Output lines already read it (numbers.clock_seconds)."""
    (claim,) = ex("Hi,\n\n" + sentence + "\n").claims
    assert (claim.baseline.value, claim.candidate.value, claim.unit) == (*pair, "s")


@pytest.mark.parametrize(("sentence", "pair"), [
    ("IPI rate: 183000 before, 21000 after.", (183000.0, 21000.0)),  # a comma, not "and"
    ("IPI rate: 183k before and 21k after.", (183.0, 21.0)),  # a count's scale
    ("The rate was 2M before and 3M after the change.", (2.0, 3.0)),
    ("Rate: 1.2M (was 1.0M).", (1.0, 1.2)),
])
def test_numbers_the_words_place_before_and_after(sentence: str, pair: tuple[float, float]) -> None:
    """"X before, Y after" was read only with "and" between; and a bare magnitude ("183k")
    was no unit, so the pair was dropped, though from/to read one ("from 812k to 901k").
    A magnitude counts only where the words say before and after: "4K vs 64K" sizes stay out."""
    assert pairs("Hi,\n\n" + sentence + "\n") == [pair]
    assert pairs("Hi,\n\nThroughput for 4K vs 64K blocks is the same.\n") == []


@pytest.mark.parametrize(("sentence", "changes"), [
    ("The mean latency improved by 2.5x.", [-60.0]),  # had been -150%: no latency falls by more than all of it
    ("Latency got 2x better.", [-50.0]),
    ("Latency got 3x worse.", [200.0]),  # "worse" after a factor had given nothing
    ("Throughput is 2x worse.", [-50.0]),
    ("The mean latency improved 2.5x while the tail stayed the same.", [-60.0]),  # a clause after it
    ("We get 10% to 15% better throughput.", [10.0, 15.0]),  # a range: both ends, as "drops by 4% to 5%"
    ("It uses 10% to 15% less CPU.", [-10.0, -15.0]),
])
def test_a_factor_of_merit_of_a_cost_inverts_its_ratio(sentence: str, changes: list[float]) -> None:
    """A factor stated as merit of a measure that is better lower: "latency improved 2x"
    halves it (-50%), where "improved by 50%" takes half away (-50% too, the sign turned):
    a factor's sign cannot simply be turned, -100% and below is no change a measure can make."""
    assert relative("Hi,\n\n" + sentence + "\n") == changes


def test_an_aside_after_a_stated_change_does_not_name_it() -> None:
    """" - XDP_REDIRECT: -0.5% (noise)": the change is XDP_REDIRECT's; it had been named
    "noise", a name no tool measures."""
    got = [(c.metric, c.claimed_change_pct) for c in ex(
        "Hi,\n\nPerformance impact:\n - XDP_DROP: +12.4%\n - XDP_REDIRECT: -0.5% (noise)\n").claims]
    assert got == [("XDP_DROP", 12.4), ("XDP_REDIRECT", -0.5)]


@pytest.mark.parametrize(("sentence", "name"), [
    ("Cache miss rate: 4.1% -> 2.3%.", "miss rate"),
    ("The cache miss rate goes from 4.1% to 2.3%.", "miss rate"),
    ("The packet drop rate went from 2% to 0.5%.", "drop rate"),
])
def test_what_a_rate_counts_turns_its_direction(sentence: str, name: str) -> None:
    """"miss rate" had been named "rate", higher-is-better: a halved miss rate would have
    been judged a regression. The words before a measure that name something unwanted
    (numbers.names_a_cost) are part of its name, as "p99" is."""
    (claim,) = ex("Hi,\n\n" + sentence + "\n").claims
    assert (claim.metric, claim.better) == (name, "lower")
    (claim,) = ex("Hi,\n\nThe XDP_DROP rate went from 20 Mpps to 24 Mpps.\n").claims
    assert claim.better == "higher"  # an action's rate is its speed


def test_a_netperf_test_named_before_bare_numbers_says_they_are_its_results() -> None:
    """"TCP_RR: 31100 vs 33150." had given nothing: a pair of bare numbers in words needs a
    measure named before it, and netperf's test names (which measure a rate) were none."""
    assert pairs("Hi,\n\nTCP_RR: 31100 vs 33150.\n") == [(31100.0, 33150.0)]
    assert pairs("Hi,\n\nTCP_RR with 1 vs 8 flows.\n") == []


def test_a_change_stated_beside_a_pair_is_its_own_only_when_it_is_of_it() -> None:
    """A pair carries the change its sentence states, and a verdict checks that size: "CPU
    usage drops 15%" beside "(9.41 vs 9.40 Gbps)" had become the throughput's -15%, and
    "(42% -> 35%)", the two levels of a pair, had stated a -42% change of it."""
    got = [(c.metric, c.baseline and c.baseline.value, c.claimed_change_pct) for c in ex(
        "Hi,\n\nThroughput is basically identical (9.41 vs 9.40 Gbps), but CPU usage drops 15%.\n").claims]
    assert got == [("Throughput", 9.41, None), ("CPU usage", None, -15.0)]
    (claim,) = ex("Hi,\n\nCPU usage went down by 7 percentage points (42% -> 35%).\n").claims
    assert (claim.baseline.value, claim.candidate.value, claim.claimed_change_pct) == (42.0, 35.0, None)
    (claim,) = ex("Hi,\n\nAllocation latency: 120ns -> 95ns (-21%).\n").claims
    assert claim.claimed_change_pct == -21.0  # its own change, in its own sentence, stays


def test_saves_is_a_change_verb() -> None:
    """"This saves ~150 cycles per packet (from 620 to 470)." gave nothing: bare numbers
    from/to need a change verb near, and "saves" was none."""
    assert pairs("Hi,\n\nThis saves ~150 cycles per packet (from 620 to 470).\n") == [(620.0, 470.0)]
    assert relative("Hi,\n\nThis saves 15% of the CPU time.\n") == [-15.0]
    assert pairs("Hi,\n\nIt saves us from 3 to 5 allocations.\n") == []


@pytest.mark.parametrize(("sentence", "change"), [
    ("Patched throughput is 112% of baseline.", 12.0),
    ("Throughput is now 112% of what it was.", 12.0),
    ("Latency is now 70% of what it was.", -30.0),
])
def test_a_share_of_the_baseline_is_a_change(sentence: str, change: float) -> None:
    """"112% of baseline" had given nothing: a share of what it was counted only below 100%
    and only of "the baseline"."""
    assert relative("Hi,\n\n" + sentence + "\n") == [change]


def test_a_factor_of_a_measure_of_the_baseline() -> None:
    """"achieves 1.21x the throughput of the baseline" had given nothing: a factor with "the
    <measure> of" after it is that measure's change; "3x the memory of" (no measure) is none."""
    assert relative("Hi,\n\nThe patched kernel achieves 1.21x the throughput of the baseline.\n") == [21.0]
    assert relative("Hi,\n\nIt uses 3x the memory of the old one.\n") == []


@pytest.mark.parametrize(("sentence", "metric", "pair"), [
    ("We now reach 95% of line rate, up from 80%.", "line rate", (80.0, 95.0)),
    ("Throughput is 9.5 Gbps now, up from 8.0.", "Throughput", (8.0, 9.5)),
    ("Throughput is 9.5 Gbps, up from 8.0.", "Throughput", (8.0, 9.5)),  # the gate had turned it away
])
def test_a_value_up_from_an_earlier_one_with_words_between(sentence: str, metric: str, pair: tuple[float, float]) -> None:
    """"95% of line rate, up from 80%" gave nothing: "up from" had to follow the value and its
    unit; what the share is of names the pair."""
    (claim,) = ex("Hi,\n\n" + sentence + "\n").claims
    assert (claim.metric, claim.baseline.value, claim.candidate.value) == (metric, *pair)


@pytest.mark.parametrize(("sentence", "metric", "pair", "change"), [
    # a count of events a change avoids is a measure, lower-better, with or without a unit
    ("TLB flushes dropped from 1200 to 310.", "TLB flushes", (1200, 310), -74.17),
    ("The number of page faults dropped from 1200 to 310.", "page faults", (1200, 310), -74.17),
    # the two sides at two magnitudes of one count ("1.2M" / "300k"), each kept as printed
    ("This reduces VM exits from 1.2M to 300k during boot.", "VM exits", (1.2, 300), -75.0),
    ("It lowers the page faults from 1.2M to 0.3M.", "page faults", (1.2, 0.3), -75.0),
    # "per second" after the later value: both sides, and no unit of its own
    ("The patch reduces the number of IPIs from 45000 to 1200 per second.", "IPIs per second", (45000, 1200), -97.33),
    ("Interrupts dropped from 120k to 20k per second with the new coalescing.", "Interrupts", (120, 20), -83.33),
    # a rate of events is named by them, and is lower-better: not a "rate", higher-better
    ("Context switches went down from 52k/s to 31k/s.", "Context switches", (52, 31), -40.38),
    # a hedge before the later value ("to about 310k"): the gate let it by only with units
    ("The number of TLB flushes per second fell from 1.2M to about 310k.", "flushes per second", (1.2, 310), -74.17),
    # the measure named between the first value and "down to"
    ("We went from ~5% packet loss down to 0.1%.", "packet loss", (5, 0.1), -98.0),
])
def test_counts_of_events_a_change_avoids(sentence: str, metric: str, pair: tuple[float, float], change: float) -> None:
    """Mail of other lists counts what a change avoids (mm's TLB flushes, KVM's VM exits,
    IPIs, interrupts) in sentences that had given nothing: no unit, no known measure word,
    magnitudes that differ, "per second" said once for both, or "to about". Each is now
    a lower-better pair; the gate passes it (`ex` reads through the gate)."""
    (c,) = ex(sentence).claims
    assert (c.metric, (c.baseline.value, c.candidate.value), c.better) == (metric, pair, "lower")
    assert round(c.change_pct or 0, 2) == change


@pytest.mark.parametrize("sentence", [
    "The series changes the ring size from 1024 to 4096.",
    "We bumped the ring size from 4K to 16K entries.",
    "The rate limit was raised from 100 to 1000 per second.",
    "The default changed from 64 to 128 per second.",
])
def test_settings_counted_are_still_no_claims(sentence: str) -> None:
    assert ex(sentence).claims == []


@pytest.mark.parametrize(("sentence", "units", "change"), [
    ("The p99 latency improves from 1.2ms to 950us.", ("ms", "us"), -20.83),
    ("Boot time is reduced from 4.2s to 3100ms.", ("s", "ms"), -26.19),
    ("Memory usage drops from 1.2GB to 800MB.", ("GB", "MB"), -33.33),
    ("Throughput went from 940 Mbps to 1.2 Gbps.", ("Mbps", "Gbps"), 27.66),
    ("Throughput went from 812 MiB/s to 1.1 GiB/s.", ("MiB/s", "GiB/s"), 38.72),
])
def test_from_to_at_two_scales_of_one_unit(sentence: str, units: tuple[str, str], change: float) -> None:
    """A latency that fell below a millisecond is written in the next unit down; "from
    X to Y" had wanted both units equal and gave nothing. Each side keeps its unit as
    printed (the corpus records values as printed) and the change reads them at one scale:
    numbers.common_scale knows times now as it knew K/M/G prefixes."""
    (c,) = ex(sentence).claims
    assert (c.baseline.unit, c.candidate.unit) == units
    assert round(c.change_pct or 0, 2) == change


def test_a_stated_change_orders_an_unnamed_pair_of_a_cost() -> None:
    """"Page fault latency is down 20% (avg 1.5us vs 1.9us)": the new value first. The
    stated change ordered such a pair only for higher-better measures, so this was a rise
    of 26.7% beside a stated -20%: a reproduced improvement judged against the wrong way."""
    (c,) = ex("Page fault latency is down 20% (avg 1.5us vs 1.9us).").claims
    assert (c.baseline.value, c.candidate.value, c.claimed_change_pct) == (1.9, 1.5, -20.0)
    (c,) = ex("The p99 latency went up 10% (55us vs 50us).").claims
    assert (c.baseline.value, c.candidate.value, c.claimed_change_pct) == (50, 55, 10.0)


@pytest.mark.parametrize(("sentence", "pair", "change"), [
    ("perf bench sched messaging shows 5% improvement: 5.123 sec vs 5.392 sec.", (5.392, 5.123), -5.0),
    ("perf bench sched messaging shows 5% improvement (5.123 sec vs 5.392 sec).", (5.392, 5.123), -5.0),
    ("hackbench is 2x faster: 10.2 sec vs 5.1 sec.", (10.2, 5.1), -50.0),
])
def test_a_change_of_merit_beside_a_pair_of_a_cost_is_the_way_it_moves(
        sentence: str, pair: tuple[float, float], change: float) -> None:
    """A change stated by its merit where the sentence names no measure ("perf bench ...
    shows 5% improvement", "hackbench is 2x faster") is +5% and +100%; beside a pair of
    times it is the time's change, -5% and -50%. It had been attached as it stood, and it
    ordered the unnamed pair by that sign: 5.123 -> 5.392 sec claimed +5% (a slower run
    claimed as the improvement), 5.1 -> 10.2 sec claimed +100%."""
    (c,) = ex(sentence).claims
    assert ((c.baseline.value, c.candidate.value), c.claimed_change_pct, c.better) == (pair, change, "lower")


@pytest.mark.parametrize(("sentence", "pair"), [
    ("We can now do 3.2M ops/sec compared to 2.9M ops/sec before.", (2.9, 3.2)),
    ("nr_migrations: 15232 before, 1203 after", (15232, 1203)),
    # a count "per second" written out after each number (redis-benchmark's own words)
    ("redis-benchmark: SET 123456.79 requests per second before, 134567.90 requests per second after.",
     (123456.79, 134567.90)),
])
def test_pairs_written_with_a_spaced_magnitude_or_a_counter_name(sentence: str, pair: tuple[float, float]) -> None:
    """"3.2M ops/sec" (a magnitude, a blank, a rate per "sec") was read only as "3.2M ops/s";
    "X before, Y after" of a counter ("nr_migrations") wanted a measure word before it."""
    assert pairs(sentence) == [pair]


@pytest.mark.parametrize(("sentence", "change"), [
    ("The speedup is about 1.8x for large folios.", 80.0),
    ("The improvement is 2x on big machines.", 100.0),
    ("This patch cuts the number of IPIs by half.", -50.0),
    ("This halves the number of IPIs.", -50.0),
])
def test_factors_named_by_their_noun_and_halved_counts(sentence: str, change: float) -> None:
    """"The speedup is 1.8x" (a factor after "<noun> is"), and a count halved ("cuts the
    number of IPIs by half") gave nothing: the factor branches wanted a comparative after
    the number, the size words a measure word (events counted are measures now)."""
    assert relative(sentence) == [change]


def test_a_slowdown_stated_as_a_factor_is_left_unread() -> None:
    """"The regression is 2x": a doubled time or a halved rate; no way to tell."""
    assert relative("The regression is 2x.") == []


def test_slows_down_is_a_change_verb_as_speeds_up_is() -> None:
    """"This speeds up exec by 5%" gave +5% (of merit: exec's way unnamed); "This slows down
    exec by 5%" gave nothing, neither to the extractor nor through the gate."""
    (c,) = ex("This slows down exec by 5%.").claims
    assert (c.metric, c.claimed_change_pct, c.merit) == ("exec", -5.0, True)


@pytest.mark.parametrize(("line", "pair", "stated"), [
    ("IOPS: 812K -> 905K", (812, 905), None),
    ("IOPS: 812K -> 905K (+11.4%)", (812, 905), 11.4),
    ("Requests/s: 812K -> 905K", (812, 905), None),
    ("IOPS: 812K (baseline) → 905K (+11.4%)", (812, 905), 11.4),
    ("Latency: 45us (base) -> 38us", (45, 38), None),
])
def test_arrows_between_counts_at_a_magnitude_and_past_a_baselines_aside(
        line: str, pair: tuple[float, float], stated: float | None) -> None:
    """"IOPS: 812K -> 905K (+11.4%)" gave only the +11.4%: a bare "K" read as a size (KB),
    which an arrow never pairs; it counts what the line names. And a side named aside
    before the arrow ("812K (baseline) -> 905K") broke the pair."""
    (c,) = [c for c in ex(line).claims if c.baseline is not None]
    assert ((c.baseline.value, c.candidate.value), c.claimed_change_pct) == (pair, stated)


def test_an_arrow_between_sizes_stays_no_claim() -> None:
    assert ex("The ring grows 4K -> 16K entries.").claims == []


@pytest.mark.parametrize("sentence", [
    "Latency was 812 us and is now 640 us.",
    "Mean RTT used to be 812 us and is now 640 us.",
])
def test_was_and_is_now(sentence: str) -> None:
    """"was X and now it is Y" gave the pair, "was X and is now Y" did not (through the gate
    neither: it asks the same reader)."""
    assert pairs(sentence) == [(812, 640)]


@pytest.mark.parametrize(("line", "got"), [
    ("p50/p99 latency: 12/45 us -> 10/31 us", [("p50 latency", 12, 10, "us"), ("p99 latency", 45, 31, "us")]),
    ("rx/tx pps: 1.2/1.4 -> 1.5/1.6 Mpps", [("rx pps", 1.2, 1.5, "Mpps"), ("tx pps", 1.4, 1.6, "Mpps")]),
    ("version 1/2 -> 3/4", []),
])
def test_an_arrow_between_slashed_lists_pairs_each_measure(line: str, got: list) -> None:
    """"p50/p99 latency: 12/45 us -> 10/31 us" gave nothing: a slashed list is no number.
    As many measures as the names before it list, one pair each, named by them; with no
    measure named or unit, nothing, as for a single arrow."""
    assert [(c.metric, c.baseline.value, c.candidate.value, c.unit) for c in ex(line).claims] == got


@pytest.mark.parametrize(("line", "got"), [
    ("Latency p50/p99: 12/45 us before, 11/31 us after.",
     [("Latency p50", 12, 11, "us"), ("Latency p99", 45, 31, "us")]),
    ("p50/p99 latency went from 12/45 us to 11/31 us.", [("p50 latency", 12, 11, "us"), ("p99 latency", 45, 31, "us")]),
    ("Throughput 5.1/6.2 Gbps before and 5.5/6.9 Gbps after for rx/tx.",
     [("Throughput rx", 5.1, 5.5, "Gbps"), ("Throughput tx", 6.2, 6.9, "Gbps")]),
    ("Throughput is 5.1/6.2 Gbps vs 5.5/6.9 Gbps with the patch for rx/tx.",
     [("Throughput rx", 5.1, 5.5, "Gbps"), ("Throughput tx", 6.2, 6.9, "Gbps")]),
    ("Rates of 5.1/6.2 KB/s before and 5.5/6.9 KB/s after.", []),  # no names: a unit's slash lists none
])
def test_a_sentence_about_listed_measures_is_read_once_per_measure(line: str, got: list) -> None:
    """"Latency p50/p99: 12/45 us before, 11/31 us after" gave nothing: a slashed list is no
    number. The sentence is read once per measure the names list, by the same templates
    (the arrow's own reader of such lists is gone into this), and each pair is named by its
    measure."""
    assert [(c.metric, c.baseline.value, c.candidate.value, c.unit) for c in ex(line).claims] == got


@pytest.mark.parametrize(("text", "got"), [
    ("Before this series: 3.41 Mpps\nAfter this series: 3.87 Mpps", ("packet rate", 3.41, 3.87)),
    ("baseline: 3.41 Mpps, patched: 3.87 Mpps", ("packet rate", 3.41, 3.87)),
    ("Before this series: 812 us\nAfter this series: 640 us", ("latency", 812, 640)),
    ("rx_packets before: 3.41 Mpps\nrx_packets after: 3.87 Mpps", ("rx_packets", 3.41, 3.87)),
])
def test_a_name_of_side_words_alone_names_no_measure(text: str, got: tuple) -> None:
    """"Before this series: 3.41 Mpps" was named "this", "baseline: ..." "baseline": the
    words that tell the sides apart are no measure's name; the unit names it, as it names
    a value written with its unit alone. A name beside them stays."""
    (c,) = ex(text).claims
    assert (c.metric, c.baseline.value, c.candidate.value) == got


@pytest.mark.parametrize(("text", "got"), [
    ("base=1.23Mpps patched=1.41Mpps", ("packet rate", 1.23, 1.41, "Mpps")),
    ("base 1.23Mpps patched 1.41Mpps", ("packet rate", 1.23, 1.41, "Mpps")),
    ("Throughput: before=9.1Gbps after=9.4Gbps", ("Throughput", 9.1, 9.4, "Gbps")),
    ("latency old=812us new=640us", ("latency", 812, 640, "us")),
    ("9.4 Gbps on net-next and 9.8 Gbps patched", ("throughput", 9.4, 9.8, "Gbps")),
    ("rx_pps: base=1.23M patched=1.41M", ("rx_pps", 1.23, 1.41, None)),
])
def test_each_number_named_just_before_it(text: str, got: tuple) -> None:
    """"base=1.23Mpps patched=1.41Mpps" gave nothing: the side words after a number are read
    first ("645 without the patch"), so "patched" named the first number and the second had
    none. Where every number of a sentence has its side just before it, those are its sides;
    words after the number still name it otherwise. The first side is no word of the
    measure's name ("rx_pps base")."""
    assert [(c.metric, c.baseline.value, c.candidate.value, c.unit) for c in ex(text).claims] == [got]


def test_no_pair_of_a_side_and_a_count_of_something_else() -> None:
    """A side before one number and a word after it that names no side of the next: no pair."""
    assert ex("Without the patch we get 9.1 Gbps with 4 queues.").claims == []


@pytest.mark.parametrize("text", ["about 645 without the patch, ~625 with batch",
                                  "roughly 645 without the patch, ~625 with batch"])
def test_a_hedge_names_no_measure(text: str) -> None:
    """The archive's "scenario minimum bytes about 645 without the patch" named its claim
    "... about": the hedge before a number is no word of its measure's name."""
    (c,) = ex(text).claims
    assert (c.metric, c.baseline.value, c.candidate.value) == ("value", 645, 625)


@pytest.mark.parametrize(("text", "got"), [
    ("This improves throughput by 5% on average and up to 20% for small packets.",
     [("throughput", 5.0), ("throughput", 20.0)]),
    ("Latency drops by 12% on average and up to 30% at the tail.", [("Latency", -12.0), ("Latency", -30.0)]),
    ("Results: 4.3% faster on average, up to 11% on the worst case.", [("change", 4.3), ("change", 11.0)]),
    ("Throughput improves by 5% and 20% of the CPUs are idle.", [("Throughput", 5.0)]),
    ("It improves throughput by 5%. Up to 20% of runs fail.", [("throughput", 5.0)]),
])
def test_a_hedged_second_size_of_a_change(text: str, got: list) -> None:
    """"by 5% on average and up to 20%" gave only the 5%: the word before the hedge ("up
    to") was "and", which states no change. A hedged size after "and", "or" or a comma, a
    few words after a change in its sentence, is that change's again, of its measure and
    sign. Without a hedge, or in the next sentence, it is not."""
    assert [(c.metric, c.claimed_change_pct) for c in ex(text).claims] == got


@pytest.mark.parametrize(("text", "name"), [
    ("Throughput is 4.3% better on average.", "Throughput"),
    ("It is 4.3% faster in most cases.", "change"),
    ("We get a 5% improvement in TCP_RR.", "TCP_RR"),
    ("A 5% improvement in total throughput.", "total throughput"),
])
def test_an_adverbial_phrase_names_no_measure(text: str, name: str) -> None:
    """"4.3% faster on average" was a change named "average": what follows "in", "on", "for"
    after a change names its measure, but not in an adverbial phrase ("on average", "in
    most cases", "in the worst case")."""
    assert [c.metric for c in ex(text).claims] == [name]


@pytest.mark.parametrize(("line", "got"), [
    ("page_fault1_processes -t 64: 1234567 -> 1345678 (+9.0%)", [("page_fault1_processes", 1234567, 1345678, 9.0)]),
    ("page_fault1_threads: 534567 -> 545678 (+2.1%)", [("page_fault1_threads", 534567, 545678, 2.1)]),
    ("page_fault1_processes: 1234567 -> 1345678 (+20.0%)", [("change", None, None, 20.0)]),
    ("version 7.0 -> 7.1 (+20%)", [("version", None, None, 20.0)]),
])
def test_an_arrow_between_counts_whose_change_is_stated(line: str, got: list) -> None:
    """will-it-scale's "page_fault1_processes -t 64: 1234567 -> 1345678 (+9.0%)" gave only the
    +9%, named "t": an arrow between bare numbers needs a measure's word near it, and this
    line's measure is a test's name. The change stated after the pair, which is the pair's
    to its rounding, says they are measured; an option's letter ("-t 64") names nothing.
    A change that is not the pair's leaves it unread."""
    claims = ex(line).claims
    assert [(c.metric, c.baseline and c.baseline.value, c.candidate and c.candidate.value, c.claimed_change_pct)
            for c in claims] == got


@pytest.mark.parametrize(("text", "name"), [
    ("FYI, we noticed a -12.3% regression of will-it-scale.per_process_ops due to commit:",
     "will-it-scale.per_process_ops"),
    ("We see a 5% improvement in TCP_RR because of the batching.", "TCP_RR"),
])
def test_a_cause_after_the_measure_is_not_its_name(text: str, name: str) -> None:
    """The 0-day robot's "a -12.3% regression of will-it-scale.per_process_ops due to
    commit" was named "... due": the measure's name ends where its cause starts."""
    assert [c.metric for c in ex(text).claims] == [name]


@pytest.mark.parametrize(("text", "got"), [
    ("Memory usage: 1.2 GB -> 1.0 GB.", [("Memory usage", 1.2, 1.0, "GB", "lower")]),
    ("Slab usage: 120 MB vs 98 MB.", [("Slab usage", 120, 98, "MB", "lower")]),
    ("Peak RSS 812 MB vs 640 MB without the patch.", [("Peak RSS", 640, 812, "MB", "lower")]),
    ("The memory footprint is reduced from 1.2 GiB to 0.9 GiB.", [("memory footprint", 1.2, 0.9, "GiB", "lower")]),
    ("Memory usage dropped from 1.2 GB to 1.0 GB.", [("Memory usage", 1.2, 1.0, "GB", "lower")]),
    ("The ring grows 4K -> 16K entries.", []),
    ("Memory usage is fine. The ring grows 4K -> 16K entries.", []),
    ("We increased the guest memory from 4G to 8G.", []),
])
def test_sizes_of_memory_used_are_measures(text: str, got: list) -> None:
    """"Memory usage: 1.2 GB -> 1.0 GB" and "Slab usage: 120 MB vs 98 MB" gave nothing: an
    arrow or "vs" between sizes reads as a size set. Where its clause names memory used
    (usage, footprint, consumption, RSS) the sizes are that measure. Names: "Memory usage"
    (was "usage"), "memory footprint" (was "memory footprint is")."""
    assert [(c.metric, c.baseline.value, c.candidate.value, c.unit, c.better) for c in ex(text).claims] == got


@pytest.mark.parametrize(("text", "got"), [
    ("We saw 15232 VM exits before and 1203 after.", [("VM exits", 15232, 1203, "lower")]),
    ("There were 15232 TLB flushes without the patch and 1203 with the patch.", [("TLB flushes", 15232, 1203, "lower")]),
    ("I applied 3 patches before and 2 after.", []),
    ("We had 5 bugs before and 3 after.", []),
])
def test_what_is_counted_between_a_number_and_its_side(text: str, got: list) -> None:
    """"15232 VM exits before and 1203 after" gave nothing: the sentence template read
    "N before and M after" with nothing between a number and its side, and "VM" was taken
    for a unit. What is counted may stand there, and names the pair where it is events a
    change avoids or a measure. "3 patches" counts what a change is made of: no measure,
    and no side either (ea90b79's sides named before their numbers had read "I applied 3
    patches before and 2 after" as 2 -> 3)."""
    assert named_pairs(text) == got


@pytest.mark.parametrize(("text", "name"), [
    ("Boot time reduced from 1.2s to 0.9s.", "Boot time"),
    ("It improves the total run time from 120s to 110s.", "total run time"),
    ("Compile time: 120s -> 110s", "Compile time"),
    ("After this patch, kata-runtime (with vsock enabled) boot time is reduced from 3s to 1s.", "boot time"),
    ("The time dropped from 120s to 110s.", "time"),
])
def test_what_a_time_is_of_names_it(text: str, name: str) -> None:
    """"Boot time reduced from 1.2s to 0.9s" was named "time", as were the archive's
    "execution time" and "VM creation time": the plain words just before "time" say
    which time it is (an article, a verb or a parenthesis between do not)."""
    assert [c.metric for c in ex(text).claims] == [name]


@pytest.mark.parametrize(("text", "name", "better"), [
    ("ebizzy shows a nice improvement: records/s go from 812345 to 901234 (+10.9%).", "records/s", "higher"),
    ("A nice improvement: ops/s went from 812345 to 901234.", "operation rate", "higher"),
    ("A nice gain: latency goes from 812 to 640 us.", "latency", "lower"),
])
def test_a_clause_after_a_colon_names_its_own_subject(text: str, name: str, better: str) -> None:
    """"a nice improvement: records/s go from X to Y" was named "records/s go", lower-better
    (so a gain read as a regression): "go" was no verb (only "goes", "went"), and the noun
    "improvement" was taken for the sentence's verb, so the words after it were its object.
    A noun of a change is the verb only when no verb follows it, and the clause after a
    colon names the measure where it holds words."""
    assert [(c.metric, c.better) for c in ex(text).claims] == [(name, better)]


@pytest.mark.parametrize(("text", "got"), [
    ("The p99 latency was 812 us and is now 640 us with the series applied.", [("p99 latency", 812, 640, "lower")]),
    ("The p99 latency was 812 us; now it is 640 us with the series applied.", [("p99 latency", 812, 640, "lower")]),
    ("The p99 latency was 812 us before and is 640 us now.", [("p99 latency", 812, 640, "lower")]),
    ("The timeout was 5 seconds and is now 30 seconds with this patch.", []),
    ("The timeout was 5 seconds; with this patch it is now 30 seconds.", []),
    ("The default was 64 and is now 128 with this patch.", []),
])
def test_a_number_set_now_pairs_with_one_set_in_the_past(text: str, got: list) -> None:
    """"was 812 us and is now 640 us with the series applied" gave nothing: a number set in
    the past was the baseline only of numbers whose words after them said "now", and these
    say "now" before them ("and is now", "now it is") or name the patch after them; "is 640
    us now" was not read as set now at all. A setting the patch changes ("the timeout was
    5 s ... now 30 s") is no measure, as in the from/to templates (it had been read as a
    time, lower-better: a regression)."""
    assert named_pairs(text) == got


@pytest.mark.parametrize(("text", "got"), [
    ("The CPU time went down from 1.2M cycles to 310k cycles.", [("CPU time", 1.2, 310, "lower")]),
    ("The kcompactd CPU time went down to about 310k cycles from 1.2M cycles.",
     [("kcompactd CPU time", 1.2, 310, "lower")]),
    ("IOPS went up from 600k IOPS to 800k IOPS.", [("IOPS", 600, 800, "higher")]),
    ("IOPS went up to 800k IOPS from 600k IOPS.", [("IOPS", 600, 800, "higher")]),
])
def test_a_count_at_two_magnitudes_with_its_word_on_both_sides(text: str, got: list) -> None:
    """"from 1.2M cycles to 310k cycles" gave nothing: the from/to templates took a unit word
    after the second number only ("from 1.2M to 310k cycles"), so a word between the first
    number and "to" (or "from") broke them. The same word after both numbers' magnitudes
    is the unit of both."""
    assert named_pairs(text) == got


@pytest.mark.parametrize(("text", "got"), [
    ("With 16 threads the patched kernel does 1.45M ops/s where mainline does 1.23M ops/s.",
     [("operation rate", 1.23, 1.45)]),
    ("For 4K blocks my series gets 9.8 Gbps while net-next gets 9.4 Gbps.", [("throughput", 9.4, 9.8)]),
])
def test_a_side_named_by_the_last_words_before_a_number(text: str, got: list) -> None:
    """"With 16 threads the patched kernel does 1.45M ops/s where mainline does 1.23M"
    gave nothing: the words before a number are read since the number before it ("16
    threads"), and five of them without a strong side word first name no side. Their last
    three do ("patched kernel does")."""
    assert [(c.metric, c.baseline.value, c.candidate.value) for c in ex(text).claims] == got


@pytest.mark.parametrize(("text", "got"), [
    ("This reduces the run time to 41s (from 58s).", [("run time", 58, 41, "lower")]),
    ("The patch cuts boot time to 1.1 s from 1.9 s.", [("boot time", 1.9, 1.1, "lower")]),
    ("It improves throughput to 9.8 Gbps from 9.4 Gbps.", [("throughput", 9.4, 9.8, "higher")]),
    ("This reduces the timeout to 5s (from 30s).", []),
    ("This reduces the number of queues to 4 from 8.", []),
])
def test_a_verb_its_object_then_to_and_from(text: str, got: list) -> None:
    """"This reduces the run time to 41s (from 58s)" gave nothing: the candidate-first
    template wanted the verb right before "to" ("dropped to 38 us from 45 us"). A change
    verb may have its object between (four words at most), which names the measure; a
    setting as the object ("the timeout") is no measure, as in the other templates."""
    assert named_pairs(text) == got


def test_counts_at_a_magnitude_whose_change_is_stated_are_a_pair() -> None:
    """" - XDP_DROP:  24.1M -> 26.3M (+9.1%)" under "Performance numbers (pps, higher is
    better):" gave only the stated +9.1%: an arrow between two numbers at a bare magnitude
    reads as a size set ("4K -> 16K entries") unless a measure's word stands near. The
    change stated after it, which agrees with the two numbers, says they are measured; a
    bare pair with no such change is still no claim."""
    text = ("Performance numbers (pps, higher is better):\n - XDP_DROP:      24.1M -> 26.3M (+9.1%)\n"
            " - XDP_TX:        12.2M -> 13.0M (+6.5%)\n")
    assert [(c.metric, c.baseline.value, c.candidate.value, c.claimed_change_pct) for c in ex(text).claims] == [
        ("XDP_DROP", 24.1, 26.3, 9.1), ("XDP_TX", 12.2, 13.0, 6.5)]
    assert not [c for c in ex("The ring grows 4K -> 16K (+300%) entries.\n").claims if c.baseline]
    assert not [c for c in ex("XDP_DROP: 24.1M -> 26.3M (+20%)\n").claims if c.baseline]


@pytest.mark.parametrize(("text", "got"), [
    ("I measured 5 runs each; the mean went from 1.834s (stddev 0.012) to 1.612s (stddev 0.015).",
     [(1.834, 1.612, "s")]),
    ("Throughput went from 10 Gbps (base) to 12 Gbps (patched).", [(10, 12, "Gbps")]),
])
def test_an_aside_after_the_first_number_of_from_to(text: str, got: list) -> None:
    """"from 1.834s (stddev 0.012) to 1.612s" gave nothing: the template wanted "to" right
    after the first number and its unit. An aside in parentheses may stand between."""
    assert [(c.baseline.value, c.candidate.value, c.unit) for c in ex(text).claims] == got


def test_a_release_with_a_change_added_in_words_names_a_side() -> None:
    """"v6.7-rc1: 412.3 MB/s" over "v6.7-rc1 + this patch: 455.8 MB/s" was named "v6.7-rc1 +
    this": what the labels share once their side words go is the metric, and a release is a
    side, but "+ this patch" with blanks around the "+" was not read as one."""
    text = "v6.7-rc1: 412.3 MB/s\nv6.7-rc1 + this patch: 455.8 MB/s\n"
    assert [(c.metric, c.baseline.value, c.candidate.value) for c in ex(text).claims] == [("throughput", 412.3, 455.8)]


@pytest.mark.parametrize(("text", "metrics"), [
    # the second pair's own words name it: not the measure of the pair before it
    ("Verification time drops from 1.2s to 0.3s, and peak memory from 512MB to 128MB.",
     [("Verification time", "lower"), ("peak memory", "lower")]),
    ("Latency went from 20us to 15us, while throughput improved from 9.1 Gbps to 9.4 Gbps.",
     [("Latency", "lower"), ("throughput", "higher")]),
    # no words of its own between: the first pair's measure again
    ("Throughput goes from 1 to 2 Gbps with 1 stream, and from 3 to 4 Gbps with 8 streams.",
     [("Throughput", "higher"), ("Throughput", "higher")]),
])
def test_each_from_to_pair_is_named_by_its_own_clause(text: str, metrics: list[tuple[str, str]]) -> None:
    assert [(c.metric, c.better) for c in from_to_claims(Line(text, 1))] == metrics


def test_a_measure_is_not_named_by_its_copula() -> None:
    """"cpu is 100%." on each side's row was the measure "cpu is" (four replies in the
    archive's virtio-net dim thread): a name does not end in "is"."""
    got = named_pairs("Hi,\n\n3. Result\ndim off: 1143277.00 rxpps, throughput 17.844 MBps, cpu is 100%.\n"
                      "dim on: 1124161.00 rxpps, throughput 17.610 MBps, cpu is 83.5%.\n")
    assert ("cpu", 100.0, 83.5, "lower") in got and not any(name.endswith(" is") for name, *_ in got)
