"""Web-archive adapters against pages served by a local HTTP server on loopback.

No test reaches the internet: each archive's pages are rebuilt here in the shape of its
real markup, and the adapter is chosen with `archive=` (what `verifier fetch --archive`
does for a mirror), since the local server's host is not the archive's own.

Where the shapes come from:
- lists.openwall.net: the seed pages in ../shared/seeds (saved from lists.openwall.net/netdev):
  title "netdev - <subject>", the list banner, navigation "[<prev] [next>] [<thread-prev]
  [thread-next>] [day] [month] [year] [list]" (thread links absent at the ends), a
  `<pre>` whose first lines are `Date:`/`From:`/`To:`/`CC:`/`Subject:` (tab after the
  colon, addresses shortened to `@...hat.com`), the body, then "Powered by blists".
- spinics.net and mail-archive.com: MHonArc output, as both sites' page sources show:
  `<!--X-Subject: -->`, `<!--X-Date: -->`, `<!--X-Message-Id: -->` and one
  `<!--X-Reference: -->` per References entry (with '-' written `&#45;`), the body between
  `<!--X-Body-of-Message-->` and `<!--X-Body-of-Message-End-->`; spinics lists
  `<li><em>From</em>: ..</li>` headers and Follow-Ups/References link lists, while
  "Prev/Next by thread" run on into neighbouring threads (so they are not followed);
  mail-archive.com shows `div.msgHead` spans (subject, sender, date) and a `tSliceList`
  of the thread's pages.
- marc.info: one `<pre>` with a `<b>[prev in list] [next in list] [prev in thread]
  [next in thread]</b>` line (links only where they exist), `List:`/`Subject:`/`From:`/
  `Date:`/`Message-ID:` lines with addresses as `user () host ! com`, a
  "[Download RAW message or body]" link, then the body.
"""
from __future__ import annotations

import contextlib
import html
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.httpkit import Answer, serving
from verifier.fetch import FetchError, fetch_thread
from verifier.fetch.mbox import read_messages
from verifier.thread import build_thread

ROOT_BODY = """Add a per device gro flush timer, so that GRO can hold packets a bit longer.

lpaa5:~# echo 2000 >/sys/class/net/eth0/gro_flush_timeout
lpaa5:~# netperf -H lpaa6 -t TCP_RR -l 20 -Cc -- -r 40000,40000
Throughput 9023.86 trans/s before, 8651.26 trans/s after.
"""
SUBJECT = "[PATCH net-next] net: gro: add a per device gro flush timer"
DATES = ["Wed, 05 Nov 2014 18:14:36 -0800", "Wed, 05 Nov 2014 18:39:36 -0800",
         "Thu, 06 Nov 2014 08:02:11 +0100"]
AUTHORS = [("Eric Dumazet", "edumazet", "google.com"), ("Rick Jones", "rick.jones2", "hp.com"),
           ("David Miller", "davem", "davemloft.net")]


def quote(text: str) -> str:
    return "\n".join(">" + (" " + ln if ln and not ln.startswith(">") else ln)
                     for ln in text.rstrip("\n").splitlines()) + "\n"


BODIES = [ROOT_BODY,
          "On 11/05/2014 06:14 PM, Eric Dumazet wrote:\n" + quote(ROOT_BODY) + "\nWhat about TCP_STREAM?\n",
          "From: Rick Jones\n" + quote(quote(ROOT_BODY) + "\nWhat about TCP_STREAM?\n") + "\nApplied, thanks.\n"]
SUBJECTS = [SUBJECT, "Re: " + SUBJECT, "Re: " + SUBJECT]
MIDS = ["1415239476.13896.37.camel@edumazet-glaptop2.roam.corp.google.com",
        "545AE8A8.2000604@hp.com", "20141106.020211.1163394410930434427.davem@davemloft.net"]


def openwall_pages() -> dict[str, str]:
    paths = ["/netdev/2014/11/05/3", "/netdev/2014/11/05/12", "/netdev/2014/11/06/1"]
    pages = {}
    for i, path in enumerate(paths):
        name, user, dom = AUTHORS[i]
        nav = ['<a href="2">[&lt;prev]</a>', '<a href="4">[next&gt;]</a>']
        if i > 0:
            nav.append(f'<a href="{paths[i - 1]}">[&lt;thread-prev]</a>')
        if i < 2:
            nav.append(f'<a href="{paths[i + 1]}">[thread-next&gt;]</a>')
        nav += ['<a href=".">[day]</a>', '<a href="..">[month]</a>', '<a href="../..">[year]</a>',
                '<a href="../../..">[list]</a>']
        pages[path] = f"""<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">
<html><head><meta name="viewport" content="width=device-width, initial-scale=1">
<title>netdev - {html.escape(SUBJECTS[i])}</title></head><body>
<table width="100%" cellpadding="0"><tr><td><a href="/"><img src="/logo.png" alt="lists.openwall.net"></a>
<td>lists / <a href="/announce/">announce</a> <a href="/owl-users/">owl-users</a> / <a href="/netdev/">linux-netdev</a>
</table>
<h2>Open Source and information security mailing list archives</h2>
{' '.join(nav)}
<pre style="white-space: pre-wrap">
Date:	{DATES[i]}
From:	{name} &lt;{user}@...{dom[-8:]}&gt;
To:	netdev@...r.kernel.org
CC:	davem@...emloft.net
Subject: {html.escape(SUBJECTS[i])}

{html.escape(BODIES[i])}
--
To unsubscribe from this list: send the line "unsubscribe netdev" in
the body of a message to majordomo@...r.kernel.org
</pre>
<p><a href="http://www.openwall.com/blists/">Powered by blists</a> - <a href="http://lists.openwall.net">more mailing lists</a>
</body></html>
"""
    return pages


def _x(value: str) -> str:
    return html.escape(value).replace("-", "&#45;")


def mhonarc_head(i: int) -> str:
    refs = "".join(f"<!--X-Reference: {_x(m)} -->\n" for m in MIDS[:i])
    return (f"<!-- MHonArc v2.6.19+ -->\n<!--X-Subject: {_x(SUBJECTS[i])} -->\n"
            f"<!--X-From-R13: {AUTHORS[i][0]} <ri@tbbtyr.pbz> -->\n<!--X-Date: {_x(DATES[i])} -->\n"
            f"<!--X-Message-Id: {_x(MIDS[i])} -->\n<!--X-Content-Type: text/plain -->\n{refs}"
            "<!--X-Head-End-->\n")


def spinics_pages() -> dict[str, str]:
    paths = [f"/lists/netdev/msg30{n}.html" for n in (1, 2, 3)]
    pages = {}
    for i, path in enumerate(paths):
        name, user, dom = AUTHORS[i]
        follow = "".join(f'<li><strong><a name="0{j}" href="msg30{j + 1}.html">{html.escape(SUBJECTS[j])}</a></strong>'
                         f"<ul><li><em>From:</em> {AUTHORS[j][0]}</li></ul></li>\n" for j in range(i + 1, min(i + 2, 3)))
        refs = "".join(f'<li><strong><a name="0{j}" href="msg30{j + 1}.html">{html.escape(SUBJECTS[j])}</a></strong></li>\n'
                       for j in range(i))
        pages[path] = mhonarc_head(i) + f"""<!doctype html>
<html><head><title>{html.escape(SUBJECTS[i])} &mdash; Linux Netdev</title></head><body>
<!--X-Body-Begin-->
<!--X-User-Header-->
<!--X-User-Header-End-->
<!--X-TopPNI-->
<!--X-TopPNI-End-->
<!--X-MsgBody-->
<!--X-Subject-Header-Begin-->
<h1>{html.escape(SUBJECTS[i])}</h1>
<!--X-Subject-Header-End-->
<!--X-Head-of-Message-->
<ul>
<li><em>Subject</em>: {html.escape(SUBJECTS[i])}</li>
<li><em>From</em>: {name} &lt;<a href="mailto:{user}@DOMAIN.HIDDEN">{user}@xxxxxxxxxx</a>&gt;</li>
<li><em>Date</em>: {DATES[i]}</li>
<li><em>Cc</em>: netdev &lt;<a href="mailto:netdev@DOMAIN.HIDDEN">netdev@xxxxxxxxxxxxxxx</a>&gt;</li>
</ul>
<!--X-Head-of-Message-End-->
<!--X-Head-Body-Sep-Begin-->
<hr>
<!--X-Head-Body-Sep-End-->
<!--X-Body-of-Message-->
<pre>{html.escape(BODIES[i])}</pre>
<!--X-Body-of-Message-End-->
<!--X-MsgBody-End-->
<!--X-Follow-Ups-->
<hr>{'<ul><li><strong>Follow-Ups</strong>:<ul>' + follow + '</ul></li></ul>' if follow else ''}
<!--X-Follow-Ups-End-->
<!--X-References-->
{'<ul><li><strong>References</strong>:<ul>' + refs + '</ul></li></ul>' if refs else ''}
<!--X-References-End-->
<!--X-BotPNI-->
<ul>
<li>Prev by Date:
<strong><a href="msg299.html">[PATCH] unrelated</a></strong></li>
<li>Next by Date:
<strong><a href="msg304.html">[PATCH] another unrelated</a></strong></li>
<li>Previous by thread:
<strong><a href="msg299.html">[PATCH] unrelated</a></strong></li>
<li>Next by thread:
<strong><a href="msg304.html">[PATCH] another unrelated</a></strong></li>
<li>Index(es):<ul><li><a href="maillist.html#30{i + 1}"><strong>Date</strong></a></li>
<li><a href="threads.html#30{i + 1}"><strong>Thread</strong></a></li></ul></li>
</ul>
<!--X-BotPNI-End-->
<!--X-User-Footer-->
<!--X-User-Footer-End-->
</body></html>
"""
    return pages


def mail_archive_pages() -> dict[str, str]:
    paths = [f"/netdev@vger.kernel.org/msg0{n}.html" for n in (1001, 1002, 1003)]
    pages = {}
    for i, path in enumerate(paths):
        name = AUTHORS[i][0]
        slice_items = "".join(
            f'<li class="icons-email{" tSliceCur" if j == i else ""}"><span class="subject">'
            + (html.escape(SUBJECTS[j]) if j == i else f'<a href="msg0{1001 + j}.html">{html.escape(SUBJECTS[j])}</a>')
            + f'</span> <span class="sender">{AUTHORS[j][0]}</span></li>' for j in range(3))
        pages[path] = mhonarc_head(i) + f"""<!DOCTYPE html>
<html lang="en"><head><title>{html.escape(SUBJECTS[i])}</title>
<link rel="prev" href="msg01000.html"><link rel="next" href="msg01004.html"></head>
<body id="msg">
<div class="msgHead">
<h1><span class="subject"><a href="/search?l=netdev@vger.kernel.org&amp;q=subject:%22net%22" rel="nofollow"><span itemprop="name">{html.escape(SUBJECTS[i])}</span></a></span></h1>
<p class="darkgray font13"><span class="sender pipe"><a href="/search?l=netdev@vger.kernel.org&amp;q=from:%22{name}%22" rel="nofollow"><span itemprop="author" itemscope itemtype="http://schema.org/Person"><span itemprop="name">{name}</span></span></a></span> <span class="date"><a href="/search?l=netdev@vger.kernel.org&amp;q=date:20141105" rel="nofollow">{DATES[i]}</a></span></p>
</div>
<div itemprop="articleBody" class="msgBody">
<!--X-Body-of-Message-->
<pre>{html.escape(BODIES[i])}</pre>
<!--X-Body-of-Message-End-->
</div>
<div class="tSliceList"><ul class="icons monospace">{slice_items}</ul></div>
<ul><li><a href="msg01000.html" title="p">Previous message</a></li><li><a href="msg01004.html" title="n">Next message</a></li></ul>
</body></html>
"""
    return pages


def marc_pages() -> dict[str, str]:
    keys = ["/?l=linux-netdev&m=141523947621001&w=2", "/?l=linux-netdev&m=141524157621002&w=2",
            "/?l=linux-netdev&m=141526573121003&w=2"]
    pages = {}
    for i, key in enumerate(keys):
        name, user, dom = AUTHORS[i]
        prev_t = (f'<a href="{html.escape(keys[i - 1])}">prev in thread</a>' if i > 0
                  else '<font color="#c0c0c0">prev in thread</font>')
        next_t = (f'<a href="{html.escape(keys[i + 1])}">next in thread</a>' if i < 2
                  else '<font color="#c0c0c0">next in thread</font>')
        mid = MIDS[i].replace("@", " () ").replace(".", " ! ")
        pages[key] = f"""<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN">
<html><head><title>'{html.escape(SUBJECTS[i])}' - MARC</title></head>
<body bgcolor="#ffffff" text="#000000">
<pre><b>[<a href="?l=linux-netdev&amp;m=1&amp;w=2">prev in list</a>] [<a href="?l=linux-netdev&amp;m=2&amp;w=2">next in list</a>] [{prev_t}] [{next_t}] </b>
<b><font size="+1">
List:       <a href="?l=linux-netdev&amp;r=1&amp;w=2">linux-netdev</a>
Subject:    <a href="?t=141523954000001&amp;r=1&amp;w=2">{html.escape(SUBJECTS[i])}</a>
From:       <a href="?a=1&amp;r=1&amp;w=2">{name} &lt;{user} () {dom.replace('.', ' ! ')}&gt;</a>
Date:       <a href="?l=linux-netdev&amp;r=1&amp;w=2&amp;b=201411">{DATES[i]}</a>
Message-ID: <a href="?i={html.escape(mid)}">{html.escape(mid)}</a></font>
[<a href="?l=linux-netdev&amp;m=1&amp;q=raw">Download RAW message or body</a>]</b>

{html.escape(BODIES[i])}
</pre>
<br><center><a href="?q=configure">Configure</a> | <a href="?q=about">About</a> | <a href="?q=news">News</a> | <a href="mailto:webguy@marc.info?subject=Add%20a%20list%20to%20MARC">Add a list</a> | Sponsored by <a href="http://www.korelogic.com/">KoreLogic</a></center>
</body></html>
"""
    return pages


@pytest.fixture
def serve() -> Iterator[callable]:  # type: ignore[valid-type]
    """start(pages) -> (base URL, the paths asked for): a site of archive pages."""
    with contextlib.ExitStack() as servers:

        def start(pages: dict[str, str]) -> tuple[str, list[str]]:
            hits: list[str] = []

            def reply(path: str, _headers: object) -> Answer:
                hits.append(path)
                page = pages.get(path)
                body = (page or "<html><body>404 Not Found</body></html>").encode()
                return Answer(200 if page is not None else 404, body, "text/html; charset=utf-8")

            return servers.enter_context(serving(reply)), hits

        yield start


CASES = {
    "openwall": (openwall_pages, 1, "subject"),
    "spinics": (spinics_pages, 1, "in-reply-to"),
    "mail-archive": (mail_archive_pages, 1, "in-reply-to"),
    "marc": (marc_pages, 1, "subject"),
}


@pytest.mark.parametrize("archive", sorted(CASES))
def test_archive_thread_from_middle_page(archive: str, serve, fetch_env: Path) -> None:  # type: ignore[no-untyped-def]
    build, start_at, linked = CASES[archive]
    pages = build()
    base, hits = serve(pages)
    start = base + list(pages)[start_at]
    msgs = read_messages(fetch_thread(start, archive=archive))
    assert [m.subject for m in msgs] == SUBJECTS  # whole thread, in date order
    assert "netperf -H lpaa6 -t TCP_RR -l 20 -Cc -- -r 40000,40000" in msgs[0].body
    assert any(ln.depth == 1 and "9023.86" in ln.text for ln in msgs[1].lines)
    assert msgs[0].headers["archived-at"].strip("<>") == base + list(pages)[0]
    assert not any("msg299" in h or "msg304" in h or "msg01000" in h for h in hits)
    if archive != "openwall":
        assert [m.message_id for m in msgs] == MIDS
    thread = build_thread(msgs)
    assert len(thread.roots) == 1 and thread.roots[0].message.subject == SUBJECT
    assert {n.linked_by for n in thread.walk() if n.parent} == {linked}
    assert "Eric Dumazet" in (msgs[0].from_ or "")


def test_page_of_another_shape_is_one_error_and_not_cached(serve, fetch_env: Path) -> None:  # type: ignore[no-untyped-def]
    pages = openwall_pages()
    broken = dict(pages)
    broken["/netdev/2014/11/06/1"] = "<html><body><p>Service temporarily unavailable</p></body></html>"
    base, _ = serve(broken)
    with pytest.raises(FetchError, match="not a lists.openwall.net message page"):
        fetch_thread(base + "/netdev/2014/11/05/3", archive="openwall")
    missing = dict(pages)
    del missing["/netdev/2014/11/05/12"]
    base, _ = serve(missing)
    with pytest.raises(FetchError, match="HTTP 404"):
        fetch_thread(base + "/netdev/2014/11/05/3", archive="openwall")
    base, _ = serve(marc_pages())
    with pytest.raises(FetchError, match="MHonArc"):
        fetch_thread(base + "/?l=linux-netdev&m=141523947621001&w=2", archive="spinics")
    with pytest.raises(FetchError, match="unknown archive"):
        fetch_thread(base + "/x", archive="gmane")
    assert not (fetch_env / "cache").exists() or not any((fetch_env / "cache").rglob("*.mbox"))
