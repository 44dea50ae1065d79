"""The variant lexicon: one scored cue per label, and the relations between labels."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claims.lexicon import cue, rank, subject_words
from claims.variants import names_both_sides, pick_baseline, role


@pytest.mark.parametrize("label", [
    "Before:", "before the change", "Before using the patch", "without prefetch", "w/o GRO",
    "No HW csum patch", "Prior", "net-next (unpatched)", "baseline", "vanilla 6.8", "old bonding",
    "tip-jun28 (w/o the series)",
])
def test_baseline_labels(label: str) -> None:
    assert role(label) == "baseline"


@pytest.mark.parametrize("label", [
    "After:", "after #3", "with the patch", "HW csum patch", "patched kernel (this series)",
    "+patch-set avg (stdev)", "with this series applied", "new bonding", "v2 (proposed)",
])
def test_candidate_labels(label: str) -> None:
    assert role(label) == "candidate"


@pytest.mark.parametrize("label", ["Tested on arm64", "Run 0 (cpu at 1.2 GHz)", "ipv4 single", "", None])
def test_labels_that_say_nothing(label: str | None) -> None:
    assert role(label) is None


def test_a_head_governs_the_words_after_it() -> None:
    # "patch" alone names the candidate; after "before" / "no" it is the head's object
    assert cue("patch").role == "candidate"
    assert cue("before the patch").score < 0 and cue("no csum offload patch").score < 0


def test_states_tell_two_labels_apart_without_naming_a_side_alone() -> None:
    # "GRO off" alone is weak (a table column of states beside rows named "baseline",
    # "patch 3" must not outweigh them), but between two labels the state decides
    assert role("GRO off") is None
    assert pick_baseline(["coalescing on", "coalescing off"]) == 1
    assert pick_baseline(["adaptive enabled", "adaptive disabled"]) == 1
    assert pick_baseline(["rx-gro-hw on, gro on", "rx-gro-hw off, gro off"]) == 1
    # a bare "with X" is weak alone ("running with spinlock"), decisive against "without X"
    assert role("Running locktest with spinlock") is None
    assert pick_baseline(["with prefetch", "without prefetch"]) == 1


def test_relations_between_labels() -> None:
    assert pick_baseline(["udp gso", "udp"]) == 1  # the label that extends the other is the addition
    assert pick_baseline(["buf size", "copy", "zerocopy"]) == 1
    assert pick_baseline(["5.8.0-rc4-qlock+", "5.8.0-rc4"]) == 1
    assert pick_baseline(["v3", "v1"]) == 1
    assert pick_baseline(["patched (this series)", "net-next"]) == 1  # candidate printed first
    assert pick_baseline(["spinlock", "rcu"], "[PATCH net-next 1/2] foo: convert the table to RCU") == 0
    assert pick_baseline(["rcu", "spinlock"], "[PATCH net-next 1/2] foo: convert the table to RCU") == 1
    assert pick_baseline(["a", "b"]) == 0  # nothing said: the first printed


def test_subject_words_drop_tags_and_subsystem() -> None:
    assert subject_words("Re: [PATCH net-next v2 0/3] foo: batch datagrams in sendmsg") == \
        {"batch", "datagram", "sendmsg"}


def test_header_naming_both_sides() -> None:
    assert names_both_sides("Before    After")
    assert names_both_sides("base | patched")
    assert not names_both_sides("before the patch")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=300), min_size=0, max_size=6), st.text(max_size=300))
def test_lexicon_never_crashes(labels: list[str], subject: str) -> None:
    scores = rank(labels, subject)
    assert len(scores) == len(labels)
    assert 0 <= pick_baseline(labels, subject) < max(1, len(labels))
    for lab in labels:
        role(lab)


_LEXICON_WORDS = ["before", "after", "without", "w/o", "with", "no", "not", "patch", "patched", "unpatched",
                  "net-next", "next-20240101", "off", "on", "old", "new", "base", "+", "disabled", "enabled",
                  "non-gso", "before-patch", "un-patched", "vanilla", "series", "revert", "fix", "the", "GRO",
                  "kernel", "(", ")", ",", "sans", "minus", "previously", "=", "v2"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_LEXICON_WORDS), min_size=1, max_size=12), st.sampled_from(["", ".", ":", ","]))
def test_a_label_scoring_below_zero_holds_a_baseline_word(ws: list[str], end: str) -> None:
    """lexicon.baseline_word_pattern finds a word in every label `cue` scores below zero:
    the pre-scan scores a sentence's head only where it finds one."""
    from claims.lexicon import baseline_word_pattern

    label = " ".join(ws) + end
    if cue(label).score < 0:
        assert baseline_word_pattern().search(label) is not None, label


def test_the_baseline_words_pass_the_corpus_labels() -> None:
    """Every line of the corpus and the shapes that `cue` scores below zero holds a word of
    lexicon.baseline_word_pattern."""
    from claims.lexicon import baseline_word_pattern
    from tests.paths import SHARED

    pattern, negative = baseline_word_pattern(), 0
    for path in sorted((SHARED / "corpus").glob("*.txt")) + sorted((SHARED / "shapes").glob("*.txt")):
        for line in path.read_text(errors="replace").splitlines():
            if cue(line).score < 0:
                negative += 1
                assert pattern.search(line) is not None, (path.name, line)
    assert negative > 200


def test_what_is_added_to_a_tree_names_the_side() -> None:
    """"net-next + this series" scored below zero (-0.29: the tree's word outweighed the
    series'), so "9.41 Gbits/sec for net-next and 9.89 Gbits/sec for net-next + this
    series" gave no pair. What a "+" adds names the side; a baseline plus something the
    lexicon does not call a change stays the baseline."""
    assert role("net-next + this series") == "candidate" and role("v6.8 + patch") == "candidate"
    assert role("baseline + tuning") == "baseline"
    from tests.extractkit import pairs

    assert pairs("I get 9.41 Gbits/sec for net-next and 9.89 Gbits/sec for net-next + this series.\n") == [
        (9.41, 9.89)]
