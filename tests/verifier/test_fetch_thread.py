"""The thread model: reply tree from headers (subject/date fallback), claims attributed once."""
from __future__ import annotations

from pathlib import Path

from claims.model import Claim, Extraction, Line, Message, Value
from tests.paths import SHARED
from verifier.thread import attribute_claims, build_thread, claim_key, normalize_subject


def msg(mid: str, date: str, subject: str = "[PATCH] x", irt: str | None = None,
        refs: list[str] | None = None, lines: list[tuple[int, str]] | None = None,
        frm: str = "A <a@x>") -> Message:
    m = Message(message_id=mid, subject=subject, date=date, from_=frm, in_reply_to=irt,
                references=refs or [])
    m.lines = [Line(text=t, number=i + 1, depth=d) for i, (d, t) in enumerate(lines or [])]
    return m


def claim(base: float, cand: float, lines: tuple[int, int], depth: int = 0) -> Claim:
    return Claim(metric="throughput", unit="Mbit/s", baseline=Value(base), candidate=Value(cand),
                 lines=lines, depth=depth)


D = "Thu, 27 Mar 2014 10:{:02d}:00 +0100"


def test_tree_from_in_reply_to_references_and_subject() -> None:
    ms = [
        msg("r2@x", D.format(30), "Re: [PATCH] x", refs=["root@x", "r1@x"]),  # references only
        msg("root@x", D.format(0)),
        msg("r1@x", D.format(10), "Re: [PATCH] x", irt="root@x"),
        msg("late@x", D.format(40), "RE: Re: [PATCH]   X"),  # no headers: subject fallback
        msg("other@x", D.format(5), "[PATCH] unrelated"),
        msg("root@x", D.format(0)),  # duplicate
    ]
    t = build_thread(ms)
    assert len(t) == 5
    assert [n.key for n in t.roots] == ["root@x", "other@x"]
    assert [(n.key, n.depth, n.linked_by) for n in t.walk()] == [
        ("root@x", 0, "root"), ("r1@x", 1, "in-reply-to"), ("r2@x", 2, "references"),
        ("late@x", 1, "subject"), ("other@x", 0, "root")]
    assert normalize_subject("Re: AW: [PATCH]  Foo") == "[patch] foo"


def test_cycles_and_missing_parents_do_not_loop() -> None:
    t = build_thread([msg("a@x", D.format(1), irt="b@x"), msg("b@x", D.format(2), irt="a@x"),
                      msg("c@x", "garbage date", irt="gone@x")])
    assert len(list(t.walk())) == 3
    assert {n.key for n in t.roots} >= {"c@x"}


def test_quoted_claim_is_attributed_once_with_its_discussion() -> None:
    root = msg("root@x", D.format(0), lines=[(0, "netperf -t TCP_STREAM"),
                                              (0, "before: 9400 Mbit/s after: 9900 Mbit/s")],
               frm="Eric <e@x>")
    r1 = msg("r1@x", D.format(10), "Re: [PATCH] x", irt="root@x",
             lines=[(1, "before: 9400 Mbit/s after: 9900 Mbit/s"), (0, "Did you try more flows?")])
    r2 = msg("r2@x", D.format(20), "Re: [PATCH] x", irt="r1@x",
             lines=[(2, "before: 9400 Mbit/s after: 9900 Mbit/s"), (1, "Did you try more flows?"),
                    (0, "Yes: 4 flows give before: 20000 after: 21000")])
    unrelated = msg("u@x", D.format(30), "Re: [PATCH] x", irt="root@x",
                    lines=[(1, "netperf -t TCP_STREAM"), (0, "nit: typo in the changelog")])
    exs = [Extraction(root, claims=[claim(9400, 9900, (2, 2))]),
           Extraction(r1, claims=[claim(9400, 9900, (1, 1), depth=1)]),
           Extraction(r2, claims=[claim(9400, 9900, (1, 1), depth=2), claim(20000, 21000, (3, 3))]),
           Extraction(unrelated)]
    tcs = attribute_claims(build_thread([root, r1, r2, unrelated]), exs)
    assert [(tc.origin, tc.author) for tc in tcs] == [("root@x", "Eric <e@x>"), ("r2@x", "A <a@x>")]
    assert tcs[0].discussion == ["r1@x", "r2@x"]  # 'u@x' quotes the command, not the numbers
    assert tcs[1].discussion == []
    assert tcs[0].to_dict()["claim"]["baseline"]["value"] == 9400


def test_equal_numbers_in_two_rows_stay_two_claims() -> None:
    rows = [(0, "TCP_RR 64B: 100 -> 110"), (0, "UDP_RR 64B: 100 -> 110")]
    root = msg("root@x", D.format(0), lines=rows)
    reply = msg("re@x", D.format(5), "Re: [PATCH] x", irt="root@x", lines=[(1, t) for _, t in rows])
    exs = [Extraction(root, claims=[claim(100, 110, (1, 1)), claim(100, 110, (2, 2))]),
           Extraction(reply, claims=[claim(100, 110, (1, 1), 1), claim(100, 110, (2, 2), 1)])]
    tcs = attribute_claims(build_thread([root, reply]), exs)
    assert [(tc.origin, tc.discussion) for tc in tcs] == [("root@x", ["re@x"])] * 2


def test_reply_quoting_claim_lines_is_discussion_even_without_reextraction() -> None:
    root = msg("root@x", D.format(0), lines=[(0, "Results: 1.2 Mpps -> 1.5 Mpps with the patch")])
    reply = msg("re@x", D.format(5), "Re: [PATCH] x", irt="root@x",
                lines=[(1, "Results: 1.2 Mpps -> 1.5 Mpps with the patch"), (0, "Which NIC?")])
    c = Claim(metric="packet rate", unit="Mpps", baseline=Value(1.2), candidate=Value(1.5), lines=(1, 1))
    tcs = attribute_claims(build_thread([root, reply]), {"root@x": Extraction(root, claims=[c])})
    assert len(tcs) == 1 and tcs[0].discussion == ["re@x"]
    assert claim_key(c) == claim_key(Claim(metric="Packet rate ", unit="mpps", baseline=Value(1.2),
                                           candidate=Value(1.5)))


def test_real_seed_thread_file(tmp_path: Path) -> None:
    """The mbox reader (claims.sources) and the tree agree on a real mbox the fixture writes."""
    import mailbox

    from tests.lore import case_thread, read_case
    from verifier.fetch.mbox import read_messages

    case = read_case(SHARED / "seeds" / "000_69ea504253f8f9df.txt")
    path = tmp_path / "t.mbox"
    box = mailbox.mbox(path)
    for raw in reversed(case_thread(case)):
        box.add(raw)
    box.close()
    t = build_thread(read_messages(path))
    assert [n.depth for n in t.walk()] == [0, 1, 2]
    assert "trafgen" in t.roots[0].message.body
