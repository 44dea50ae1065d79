"""Archive-page text (the seeds and corpus .txt files) and drafts with no headers."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from claims.message import attribution, message_from_text, quote_depth
from claims.sources import iter_messages
from tests.paths import ROOT, SHARED

CORPUS = SHARED / "corpus"
SEEDS = SHARED / "seeds"
CASES = sorted(CORPUS.glob("*.txt"))

# headers as the page shows them (None: the case is a commit message with no header lines)
EXPECTED = {
    "s000": ("Daniel Borkmann <dborkman@...hat.com>", "Thu, 27 Mar 2014 10:48:36 +0100",
             "Re: [PATCH net-next] net: dummy: make use of multi-queues", None),
    "s001": ("Eric Dumazet <eric.dumazet@...il.com>", "Wed, 05 Nov 2014 18:39:36 -0800",
             "Re: [PATCH net-next] net: gro: add a per device gro flush timer",
             "1415241576.13896.62.camel@edumazet-glaptop2.roam.corp.google.com"),
    "s002": ("Nikolay Aleksandrov <nikolay@...hat.com>", "Wed, 31 Jul 2013 17:39:36 +0200",
             "Re: [PATCH net-next 0/5] bonding: groundwork and initial conversion to RCU", None),
    "s003": ("Eddy Tao <taoyuan_eddy@...mail.com>", "Mon, 20 Feb 2023 11:04:01 +0800",
             "Re: [PATCH net-next v1 1/1] net: openvswitch: ovs_packet_cmd_execute put sw_flow "
             "mainbody in stack", None),
    "s004": ("Bill Fink <billfink@...dspring.com>", "Mon, 1 Oct 2007 00:11:35 -0400",
             "Re: [PATCH 2/3][NET_BATCH] net core use batching",
             "20071001001135.75d2b984.billfink@mindspring.com"),
    "d008": ("Alexander Lobakin", "Wed Jan 15 2025 - 10:19:55 EST",
             "[PATCH net-next v3 0/8] bpf: cpumap: enable GRO for XDP_PASS frames", None),
    "d020": ("Liam R. Howlett", "Mon Dec 04 2023 - 11:51:40 EST",
             "Re: [linux-next:master] [fork] 6e553c6bcb: will-it-scale.per_process_ops 94.7% "
             "improvement", None),
}


def _header_block(lines: list[str]) -> dict[str, str]:
    """The 'Name: value' lines a case file opens with, up to the first blank line."""
    heads: dict[str, str] = {}
    for ln in lines:
        name, sep, value = ln.partition(": ")
        if not ln.strip() or not sep or not name.replace("-", "").isalpha():
            break
        heads[name.lower()] = value.strip()
    return heads if {"from", "subject"} <= heads.keys() else {}


def read(path: Path):
    msgs = list(iter_messages(str(path)))
    assert len(msgs) == 1
    return msgs[0]


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_corpus_case_reads_with_headers_and_true_line_numbers(path: Path) -> None:
    msg = read(path)
    original = path.read_text().split("\n")
    want = EXPECTED.get(path.stem)
    heads = _header_block(original)
    if want is not None:
        assert (msg.from_, msg.date, msg.subject, msg.message_id) == want
    elif heads:  # a message written out with its headers: they are read, not body
        assert msg.from_ == heads.get("from") and msg.subject == heads.get("subject")
        assert msg.lines[0].number > len(heads)
    else:  # a commit message: no header lines, the whole text is the body
        assert msg.from_ is None and msg.lines[0].number == 1
    assert msg.lines, "body must not be empty"
    for line in msg.lines:  # each line points at its own text in the original
        depth, text = quote_depth(original[line.number - 1])
        # an Outlook-style "----- Original Message -----" quotes what follows it unmarked
        assert text == line.text and line.depth >= depth
    bodies = "\n".join(ln.text for ln in msg.lines)
    assert "To unsubscribe" not in bodies and "majordomo" not in bodies
    assert "lists.openwall.net" not in bodies and "[<prev]" not in bodies


def test_corpus_files_and_seeds_are_the_same_reading() -> None:
    for seed in sorted(SEEDS.glob("*.txt")):
        case = CORPUS / f"s{seed.name[:3]}.txt"
        a, b = read(seed), read(case)
        assert [(ln.text, ln.depth, ln.author) for ln in a.lines] == \
               [(ln.text, ln.depth, ln.author) for ln in b.lines]


def test_s000_claim_is_depth_two_and_credited_to_daniel_via_nested_attributions() -> None:
    msg = read(CORPUS / "s000.txt")
    perf = [ln for ln in msg.lines if "seconds time elapsed" in ln.text]
    assert len(perf) == 2
    assert all(ln.depth == 2 and ln.author == "Daniel Borkmann" for ln in perf)
    eric = [ln for ln in msg.lines if "LLTX device" in ln.text]
    assert eric[0].depth == 1 and eric[0].author == "Eric Dumazet"
    own = [ln for ln in msg.lines if "fix this up differently" in ln.text]
    assert own[0].depth == 0 and own[0].author == "Daniel Borkmann"


def test_signature_and_quoted_footer_are_dropped() -> None:
    text = ("Hi,\n\nnumbers below\n> On Mon, Jan 1, 2024, Ann Bee wrote:\n> 10 -> 20 Gbps\n"
            "> -- \n> Ann, quoted sig\n> \nback to me\n-- \nMy Sig\n2.39.0\n")
    msg = message_from_text(text)
    texts = [ln.text for ln in msg.lines]
    assert "Ann, quoted sig" not in texts and "My Sig" not in texts and "2.39.0" not in texts
    assert "back to me" in texts and "10 -> 20 Gbps" in texts


def test_mailman_footer_is_dropped() -> None:
    text = ("result: 5 Mpps\n_______________________________________________\n"
            "Virtualization mailing list\nVirtualization@lists.linux-foundation.org\n"
            "https://lists.linuxfoundation.org/mailman/listinfo/virtualization\n")
    msg = message_from_text(text)
    assert [ln.text for ln in msg.lines] == ["result: 5 Mpps"]


@pytest.mark.parametrize("line, who", [
    ("On 03/27/2014 03:51 AM, Eric Dumazet wrote:", "Eric Dumazet"),
    ("On Thu, 2014-03-27 at 01:37 +0100, Daniel Borkmann wrote:", "Daniel Borkmann"),
    ("On Wed, Nov 05, 2014 at 06:14:00PM -0800, Eric Dumazet <e@x.com> wrote:", "Eric Dumazet"),
    ("Eric W. Biederman <ebiederm@xmission.com> writes:", "Eric W. Biederman"),
    ("* Peng Zhang <zhangpeng.00@xxxxxxxxxxxxx> [231204 02:15]:", "Peng Zhang"),
    ("在 2023/11/28 21:55, kernel test robot 写道:", "kernel test robot"),
    ("On Mon, 1 Oct 2007, jamal wrote:", "jamal"),
    ("Am 06.05.19 um 14:22 schrieb Gerd Hoffmann:", "Gerd Hoffmann"),
    ("Den 03.07.2019 10.33, skrev Thomas Zimmermann:", "Thomas Zimmermann"),
    ("I tested with:", None),
    ("Here is what I wrote:", None),
])
def test_attribution_names(line: str, who: str | None) -> None:
    assert attribution(line) == who


def test_attribution_wrapped_on_two_lines_credits_the_quote() -> None:
    text = "On Tue, 3 Jan 2023 10:00:00 +0100\nJane Roe <jr@example.org> wrote:\n> 1.5 Mpps\n"
    msg = message_from_text(text)
    assert msg.lines[-1].depth == 1 and msg.lines[-1].author == "Jane Roe"


def test_draft_without_headers_keeps_every_line() -> None:
    text = "net: speed up foo\n\nThis makes foo 2x faster:\nbefore: 10 Gbps\nafter: 20 Gbps\n"
    msg = message_from_text(text)
    assert msg.subject is None and msg.from_ is None
    assert [ln.number for ln in msg.lines] == [1, 2, 3, 4, 5]


def test_stdin_dash_reads_a_draft() -> None:
    code = ("from claims.sources import iter_messages\n"
            "m = list(iter_messages('-'))\n"
            "print(len(m), m[0].subject, [l.number for l in m[0].lines if 'after' in l.text])\n")
    draft = b"Subject: [PATCH] foo\nFrom: A <a@b.c>\n\nbefore: 1 Gbps\nafter: 2 Gbps\n"
    out = subprocess.run([sys.executable, "-c", code], input=draft, capture_output=True,
                         timeout=60, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.decode().strip() == "1 [PATCH] foo [5]"


def test_outlook_original_message_is_quoted_and_credited() -> None:
    text = ("Looks good to me.\n\n-----Original Message-----\n"
            "From: Winkler, Tomas <tomas.winkler@intel.com>\nSent: Saturday, April 20, 2019\n"
            "Subject: RE: numbers\n\nbefore: 1 Gbps\n> older: 3 Gbps\n")
    msg = message_from_text(text)
    assert msg.from_ is None  # the inner From: line is not this message's header
    before = next(ln for ln in msg.lines if ln.text == "before: 1 Gbps")
    assert (before.depth, before.author) == (1, "Winkler, Tomas")
    assert next(ln for ln in msg.lines if "older" in ln.text).depth == 2


def test_lore_page_copied_as_text() -> None:
    """What a browser copies from a lore.kernel.org message page (public-inbox layout)."""
    text = ("public inbox for netdev@vger.kernel.org\n help / color / mirror / Atom feed\n"
            "From: Eric Dumazet <edumazet@google.com>\nTo: David Miller <davem@davemloft.net>\n"
            "Subject: [PATCH net-next] tcp: faster\n"
            "Date: Mon, 6 Feb 2023 10:00:00 +0000\t[thread overview]\n"
            "Message-ID: <20230206100000.1-1-edumazet@google.com> (raw)\n\n"
            "Before: 10 Gbps\nAfter: 12 Gbps\n-- \n2.39.1\n\n\n"
            "next prev parent reply\tother threads:[~2023-02-06 10:00 UTC|newest]\n\n"
            "Thread overview: 3+ messages\n")
    msg = message_from_text(text)
    assert msg.message_id == "20230206100000.1-1-edumazet@google.com"
    assert msg.date == "Mon, 6 Feb 2023 10:00:00 +0000"
    assert [(ln.text, ln.number) for ln in msg.lines] == [("Before: 10 Gbps", 9),
                                                          ("After: 12 Gbps", 10)]


def test_text_starting_with_from_sentence_is_not_an_mbox() -> None:
    (msg,) = iter_messages("draft", data=b"From my tests, this is faster:\nbefore: 1 Gbps\n")
    assert [ln.text for ln in msg.lines][0] == "From my tests, this is faster:"


def test_utf16_draft() -> None:
    (msg,) = iter_messages("draft", data="Subject: x\n\nbefore: 1 Gbps ✓\n".encode("utf-16"))
    assert msg.subject == "x" and msg.lines[0].text == "before: 1 Gbps ✓"
