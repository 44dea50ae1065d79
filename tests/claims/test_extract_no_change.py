"""Claims of no change: only the mail's words make one ("no regression", "no measurable
difference", "unchanged", "within noise"), in a sentence that names what was measured, in
a message that ran or measured something.  Read on real mail of the shared archive and on
invented sentences; a claim of no change carries no values, so it is never a pair."""
from __future__ import annotations

import lzma
import re

import pytest

from claims.model import Line
from claims.prose import no_change_claims
from claims.sources import iter_messages
from claims.specbuild import specs_for
from tests.extractkit import ex
from tests.paths import SHARED

ARCHIVE = SHARED / "data" / "virtualization-list.mbox.xz"
# real messages: a no-change result after a netperf script, one after fio, and mst likening
# two setups ("testpmd is the same as Tx"), which is no measurement
NO_IMPACT = "1623141265.8537853-1-xuanzhuo@linux.alibaba.com"
FIO = "20210901102623-mutt-send-email-mst@kernel.org"
LIKENED = "20200709133438-mutt-send-email-mst@kernel.org"


@pytest.fixture(scope="module")
def archive() -> dict[str, bytes]:
    if not ARCHIVE.exists():
        pytest.skip("shared archive not present")
    want = {NO_IMPACT, FIO, LIKENED}
    found: dict[str, bytes] = {}
    cur: list[bytes] = []

    def keep() -> None:
        mail = b"".join(cur)
        m = re.search(rb"(?im)^message-id:\s*<([^>]+)>", mail[:20000])
        if m is not None and m.group(1).decode() in want:
            found[m.group(1).decode()] = b"From a@b Mon Jan  1 00:00:00 2024\n" + mail

    with lzma.open(ARCHIVE, "rb") as f:
        for line in f:
            if line.startswith(b"From "):
                if cur:
                    keep()
                cur = []
                if len(found) == len(want):
                    break
                continue
            cur.append(line)
    assert set(found) == want
    return found


def _extract(raw: bytes):
    from claims.extract import extract_message

    (msg,) = list(iter_messages("m.mbox", data=raw))
    return extract_message(msg)


def test_a_real_no_impact_sentence_is_a_claim_of_no_change(archive: dict[str, bytes]) -> None:
    got = _extract(archive[NO_IMPACT])
    nc = [c for c in got.claims if c.no_change]
    assert [c.metric for c in nc] == ["performance"]
    assert nc[0].baseline is None and nc[0].candidate is None and nc[0].claimed_change_pct is None
    assert "no impact on performance" in (nc[0].context or "")
    assert any("netperf" in c.raw for c in got.commands)  # what the bot would re-run


def test_a_real_no_degradation_names_the_benchmark(archive: dict[str, bytes]) -> None:
    nc = [c for c in _extract(archive[FIO]).claims if c.no_change]
    assert nc and all("fio" in c.metric for c in nc)


def test_a_setup_likened_to_another_is_no_claim(archive: dict[str, bytes]) -> None:
    got = _extract(archive[LIKENED])
    assert not any("the same as Tx" in (c.context or "") for c in got.claims if c.no_change)


@pytest.mark.parametrize(("sentence", "metric"), [
    ("I see no measurable difference in TCP_RR with netperf.", "TCP_RR"),
    ("Throughput is unchanged and latency is within noise.", "throughput"),
    ("There is no regression in TCP_STREAM throughput.", "TCP_STREAM throughput"),
    ("I did not see any throughput regression with the series.", "throughput"),
])
def test_no_change_sentences(sentence: str, metric: str) -> None:
    assert [(c.metric, c.no_change) for c in no_change_claims(Line(sentence, 1))] == [(metric, True)]


@pytest.mark.parametrize("sentence", [
    "Please make sure there is no regression in throughput.",  # a wish
    "Is throughput the same with the patch?",  # a question
    "If there is no regression in TCP_RR, I will apply it.",  # a condition
    "We saw no regression.",  # names nothing measured
    "Throughput is unchanged at 9.41 vs 9.40 Gbps here.",  # its numbers say it, as a pair
    "Latency is within 2% noise.",  # a stated change: the number templates read it
])
def test_not_claims_of_no_change(sentence: str) -> None:
    assert no_change_claims(Line(sentence, 1)) == []


MAIL = """Subject: [PATCH net-next] virtio_net: foo
From: A <a@b>

I ran

  netperf -H 10.0.0.2 -t TCP_RR -l 30

on both kernels and see no measurable difference in TCP_RR transaction rate.
"""


def test_no_change_reaches_the_spec_and_is_never_a_pair() -> None:
    got = ex(MAIL)
    (claim,) = got.claims
    assert claim.no_change and claim.baseline is None and claim.claimed_change_pct is None
    (spec,) = specs_for(got)
    assert [m.no_change for m in spec.metrics] == [True]


def test_no_change_needs_a_run_or_a_measurement_in_the_message() -> None:
    assert ex("Subject: x\n\nThere is no regression in TCP_RR throughput.\n").claims == []


def test_no_change_with_the_same_number_on_both_sides_is_one() -> None:
    """"Latency is unchanged: 45us before and 45us after." had given nothing: a sentence
    with numbers of its own was left to the pair templates, which drop a pair of equal
    values. Equal numbers say what the words say; different ones still say more."""
    head = "Hi,\n\nThroughput went from 9.1 to 9.8 Gbps with this series.\n\n"
    got = ex(head + "Latency is unchanged: 45us before and 45us after.\n").claims
    assert [(c.metric, c.no_change) for c in got if c.no_change] == [("latency", True)]
    got = ex(head + "Latency is unchanged: 45us before and 46us after.\n").claims
    assert not any(c.no_change for c in got)
