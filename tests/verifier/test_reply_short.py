"""The reply to seed 001's claim, 0-day style: short, the LKP-like table, the spec and
results attached (the YAML parses), preformatted lines kept as written, and nothing a
hostile mail puts in its headers (encoded commas, escape sequences) reaches the reply.

The spec is built from the real seed mail; the runs' samples are drawn here (a rendering
test: the real netns run of the same seed is in test_report_check.py)."""
from __future__ import annotations

import email
import json
from dataclasses import replace
from email import policy

import pytest
import yaml

from claims.sources import iter_messages
from tests.replykit import SEED, seed_results
from verifier.reply import MAX_RECIPIENTS, build_reply, clean, mailboxes
from verifier.report import parse_footer, render, table
from verifier.verdict import judge

pytestmark = pytest.mark.skipif(SEED is None, reason="shared seeds not present")


def parsed(msg) -> email.message.EmailMessage:
    return email.message_from_bytes(bytes(msg), policy=policy.default)


def test_seed001_reply_is_short_with_the_table_and_attachments():
    res, msgs = seed_results()
    msg = parsed(build_reply(res, msgs, deliverable=False, requested_by="maint@example.org",
                             public_url="https://pcv.example.org/"))
    body = msg.get_body(("plain",)).get_content()
    lines = body.splitlines()
    assert len(lines) <= 60, body
    # the verdict sentence comes right after the quote, the table after it
    first = next(i for i, x in enumerate(lines) if x and not x.startswith((">", "On ")))
    assert lines[first].startswith("transaction_rate: ")
    tab = table(res, res.verdicts)
    at = lines.index(tab[0])
    assert lines[at:at + len(tab)] == tab  # the table exactly as built: never re-wrapped
    assert tab[0].split() == ["baseline", "%change", "candidate", "claimed", "verdict"]
    assert "netperf.transaction_rate (trans/s, higher is better, n=10+10)" in tab[2]
    # quoted lines are the mail's own lines, whole (75 columns stay 75)
    src = res.spec.source.quote.splitlines()
    quoted = [x[2:] for x in lines if x.startswith("> ")]
    assert quoted and all(q in src or q == "[...]" for q in quoted)
    assert any(len(x) > 72 for x in lines if x.startswith(">"))
    assert max(len(x) for x in lines if not x.startswith((">", "verifier-result:",
                                                            "Details"))) <= 72
    # who asked, how to opt out, the link, the separator, the trailer
    assert "maint@example.org asked" in body and '"verifier: no"' in body
    assert "https://pcv.example.org/m/1415241576.13896.62.camel@" in body
    assert "-- " in lines
    assert [r["metric"] for r in parse_footer(body)][0] == "transaction_rate"
    assert "version: 1" not in body and "argv:" not in body  # the spec is not inline
    parts = {p.get_filename(): p.get_content() for p in msg.iter_attachments()}
    sid = res.spec.id
    spec = yaml.safe_load(parts[f"spec-{sid}.yaml"])
    assert spec == json.loads(json.dumps(res.spec.to_dict()))
    full = json.loads(parts[f"results-{sid}.json"])
    assert len(full["runs"]) == 20 and full["runs"][0]["samples"]["transaction_rate"] > 0


def test_a_verdict_reason_is_rendered():
    res, msgs = seed_results()
    res.verdicts[0].reason = "outliers drove the spread"
    body = parsed(build_reply(res, msgs, deliverable=False)).get_body(("plain",)).get_content()
    assert "transaction_rate: outliers drove the spread" in " ".join(body.split())


def _hostile_thread(extra_cc: str = "") -> list:
    raw = ("From: =?utf-8?q?Eve=2C_a1=40evil=2Eexample=2C_a2=40evil=2Eexample=2C?=\n"
           " <eve@example.org>\n"
           "To: netdev@vger.kernel.org\n"
           f"Cc: Bob <bob@example.org>{extra_cc}\n"
           "Subject: =?utf-8?q?=1B[31mred=1B[0m_faster=07?=\n"
           "Message-ID: <hostile@example.org>\n"
           "Date: Mon, 1 Jan 2024 00:00:00 +0000\n\n"
           "Before: 100 tps\x1b]0;title\x07 After: 110 tps\n").encode()
    return list(iter_messages("m.eml", data=raw))


def test_encoded_commas_in_a_name_add_no_recipient_and_escapes_are_dropped():
    [m] = _hostile_thread()
    res, _ = seed_results()
    res.spec.source = replace(res.spec.source, message_id="hostile@example.org",
                              author=m.from_,
                              quote="Before: 100 tps\x1b]0;title\x07 After: 110 tps\x1b[2J")
    msg = build_reply(res, [m], sender="Bot <bot@example.org>")
    to = [a for _, a in mailboxes(msg["To"])]
    cc = [a for _, a in mailboxes(msg["Cc"])]
    assert to == ["eve@example.org"]
    assert sorted(cc) == ["bob@example.org", "netdev@vger.kernel.org"]
    assert not [a for a in to + cc if "evil" in a]
    text = parsed(msg).get_body(("plain",)).get_content()
    assert msg["Subject"] == "Re: red faster"
    for bad in ("\x1b", "\x07"):
        assert bad not in text
    assert "> Before: 100 tps After: 110 tps" in text


def test_recipients_are_capped():
    many = "".join(f",\n P{i} <p{i}@example.org>" for i in range(60))
    [m] = _hostile_thread(many)
    res, _ = seed_results()
    res.spec.source = replace(res.spec.source, message_id="hostile@example.org",
                              author=m.from_)
    msg = build_reply(res, [m], sender="Bot <bot@example.org>")
    n = len(mailboxes(msg["To"])) + len(mailboxes(msg["Cc"]))
    assert n == MAX_RECIPIENTS


def test_clean_keeps_text_and_drops_controls():
    assert clean("a\x1b[1mb\x1b[0m\tc\r\nd\x00e\u202ef") == "ab\tc\nde" + "f"
    assert clean("x\ny\rz", one_line=True) == "x y z"


def test_many_rows_stay_short():
    res, msgs = seed_results()
    extra = [replace(res.spec.metrics[0], name=f"m{i}", sample="transaction_rate")
             for i in range(12)]
    res.spec.metrics += extra
    res.verdicts = judge(res)
    body = parsed(build_reply(res, msgs, deliverable=False)).get_body(("plain",)).get_content()
    lines = body.splitlines()
    # 70 lines before the headline said why its row is INCONCLUSIVE (the runner's noise,
    # 2 lines) and the reply said what the rows compared (2 lines)
    assert len(lines) <= 76 and "... 11 more row(s)" in body
    assert len(parse_footer(body)) == 17  # every row is still in the trailer


def test_one_finding_is_said_once_naming_its_rows():
    """Local and remote CPU of one machine are one finding (the verdicts' `same_as`): the
    reply says it once, naming the rows, without 'cpu_local: ... cpu_local:'; the method
    line names the estimator the rows used; the markdown points the later rows at it."""
    res, msgs = seed_results()
    body = parsed(build_reply(res, msgs, deliverable=False)).get_body(("plain",)).get_content()
    flat = " ".join(body.split())
    assert flat.count("they share its CPUs") == 1
    assert ("cpu_local, cpu_remote, service_demand_local, service_demand_remote: "
            "no information here: on this runner client and server are one machine") in flat
    # on the ABBA pairs or the two variants' runs, whichever verifier.verdict chose
    assert "trimmed mean of the" in flat and "Welch" not in flat
    md = render(res, "markdown")
    assert md.count("they share its CPUs") == 1
    assert "the same measurement as cpu_local" in md
