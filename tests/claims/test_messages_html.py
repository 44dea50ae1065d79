"""HTML archive pages: lore.kernel.org, lists.openwall.net, marc.info, spinics.net, mail-archive.com.

Where each fixture's shape comes from (tests/fixtures/messages/html/):
- lore.html: rendered by a real public-inbox-httpd (Debian's public-inbox, the software
  behind lore.kernel.org) from seed 000 delivered with public-inbox-mda (tests/lore.py):
  headers and body in `<pre id=b>`, quotes in `<span class="q">`, tags broken over lines.
- openwall.html: blists markup of lists.openwall.net: title "netdev - <subject>", logo
  table, "[<prev] [next>]" links, then one `<pre style="white-space: pre-wrap">` with
  Date:/From:/To:/Cc:/Subject: lines, the body and the vger footer; "Powered by blists".
- marc.html: MARC's single `<pre>`: "[prev in list] ..." line, `<b>List:  </b>`,
  `<b>Subject:    </b>`..., obfuscated addresses ("a () b ! com"), "[Download RAW message
  or body]", the body.
- spinics.html: MHonArc 2.6 output as spinics.net serves it: `<!--X-Subject: -->` comments,
  `<li><em>From</em>: ...</li>` head, the body in `<pre>` between
  `<!--X-Body-of-Message-->` and `<!--X-Body-of-Message-End-->`.
- mail-archive.html: mail-archive.com's `msgHead` (span.subject, span.sender, span.date)
  and the MHonArc body markers inside `div.msgBody`.
The bodies are the seeds' bodies, so the expected depths and authors are known.
"""
from __future__ import annotations

import html

import pytest

from claims.sources import detect, iter_messages
from tests.paths import FIXTURES, SHARED

PAGES = FIXTURES / "messages" / "html"

EXPECTED = {  # page: (message_id, from_, date, subject, {(depth, author)})
    "lore.html": ("5333F3A4.8070909@redhat.com", "Daniel Borkmann <dborkman@redhat.com>",
                  "Thu, 27 Mar 2014 10:48:36 +0100",
                  "Re: [PATCH net-next] net: dummy: make use of multi-queues",
                  {(0, "Daniel Borkmann"), (1, "Eric Dumazet"), (2, "Daniel Borkmann")}),
    "openwall.html": (None, "Daniel Borkmann <dborkman@...hat.com>",
                      "Thu, 27 Mar 2014 10:48:36 +0100",
                      "Re: [PATCH net-next] net: dummy: make use of multi-queues",
                      {(0, "Daniel Borkmann"), (1, "Eric Dumazet"), (2, "Daniel Borkmann")}),
    "marc.html": ("1415241576.13896.62.camel@edumazet-glaptop2.roam.corp.google.com",
                  "Eric Dumazet <eric.dumazet@gmail.com>", "2014-11-06 2:39:36",
                  "Re: [PATCH net-next] net: gro: add a per device gro flush timer",
                  {(0, "Eric Dumazet"), (1, "Eric Dumazet"), (2, "Rick Jones")}),
    "spinics.html": ("20071001001135.75d2b984.billfink@mindspring.com",
                     "Bill Fink <billfink@xxxxxxxxxxxxxx>", "Mon, 1 Oct 2007 00:11:35 -0400",
                     "Re: [PATCH 2/3][NET_BATCH] net core use batching",
                     {(0, "Bill Fink"), (1, "jamal")}),
    "mail-archive.html": (None, "Nikolay Aleksandrov", "Wed, 31 Jul 2013 08:39:36 -0700",
                          "Re: [PATCH net-next 0/5] bonding: groundwork and initial conversion "
                          "to RCU", {(0, "Nikolay Aleksandrov"), (1, "Nikolay Aleksandrov")}),
}


@pytest.mark.parametrize("page", sorted(EXPECTED))
def test_archive_page(page: str) -> None:
    path = PAGES / page
    assert detect(path.read_bytes()[:65536]) == "html"
    msgs = list(iter_messages(str(path)))
    assert len(msgs) == 1
    m = msgs[0]
    mid, from_, date, subject, authors = EXPECTED[page]
    assert (m.message_id, m.from_, m.date, m.subject) == (mid, from_, date, subject)
    assert {(ln.depth, ln.author) for ln in m.lines} == authors
    assert not m.warnings
    source = path.read_text().split("\n")
    for ln in m.lines:  # every line sits on the HTML source line it names
        if ln.text.strip():
            assert ln.text.strip() in html.unescape(source[ln.number - 1]), ln
    body = "\n".join(ln.text for ln in m.lines)
    for noise in ("unsubscribe", "majordomo", "Powered by", "Download RAW", "prev in list",
                  "thread overview", "public inbox for"):
        assert noise not in body


def test_page_without_known_markup_reads_visible_text_with_a_warning() -> None:
    page = (b"<html><head><title>Re: numbers</title></head><body><div><p>before: 1 Gbps</p>"
            b"<p>after: 2 Gbps</p><blockquote>old: 3 Gbps</blockquote></div></body></html>")
    (m,) = iter_messages("page.html", data=page)
    texts = [ln.text.strip() for ln in m.lines]
    assert "before: 1 Gbps" in texts and "after: 2 Gbps" in texts
    assert m.subject == "Re: numbers" and m.warnings
    assert next(ln for ln in m.lines if "old" in ln.text).depth == 1


def test_s000_claim_lines_in_lore_page_are_depth_two() -> None:
    (m,) = iter_messages(str(PAGES / "lore.html"))
    perf = [ln for ln in m.lines if "seconds time elapsed" in ln.text]
    assert len(perf) == 2 and all(ln.depth == 2 for ln in perf)
    assert all(ln.author == "Daniel Borkmann" for ln in perf)


def test_live_public_inbox_page_raw_and_thread_mbox_read_alike() -> None:
    """A real public-inbox-httpd on loopback (tests/lore.py) serves one message three ways:
    the HTML message page, /raw (an mboxrd message) and /t.mbox.gz (a gzipped thread mbox).
    All three must give the same body lines, depths and authors."""
    from email.message import EmailMessage

    import requests

    from tests.lore import LocalInbox, have_public_inbox

    if not have_public_inbox():
        pytest.skip("public-inbox not installed")
    seed = next((SHARED / "seeds").glob("000_*.txt"))
    text = seed.read_text()
    msg = EmailMessage()
    msg["From"] = "Daniel Borkmann <dborkman@redhat.com>"
    msg["To"] = "netdev@vger.kernel.org"
    msg["Subject"] = "Re: [PATCH net-next] net: dummy: make use of multi-queues"
    msg["Date"] = "Thu, 27 Mar 2014 10:48:36 +0100"
    msg["Message-ID"] = "<live.000@corpus.example>"
    msg.set_content(text[text.index("On 03/27/2014"):])
    inbox = LocalInbox()
    try:
        inbox.deliver(bytes(msg))
        inbox.start()
        base = f"{inbox.url}/live.000@corpus.example"
        got = {}
        for kind, url in (("page", base + "/"), ("raw", base + "/raw"),
                          ("mbox.gz", base + "/t.mbox.gz")):
            r = requests.get(url, timeout=30)
            assert r.status_code == 200, (url, r.status_code)
            (m,) = iter_messages(kind, data=r.content)
            assert m.message_id == "live.000@corpus.example", kind
            got[kind] = [(ln.text, ln.depth, ln.author) for ln in m.lines]
    finally:
        inbox.stop()
    assert got["page"] == got["raw"] == got["mbox.gz"]
    assert ("       12.080331543 seconds time elapsed                                          "
            "( +-  0.13% )", 2, "Daniel Borkmann") in got["raw"]
