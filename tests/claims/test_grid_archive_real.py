"""The grid model on real tables of the list archive (../shared/data), each excerpted
verbatim under tests/fixtures/archive/ with its Message-ID: a boxed table with notes
written past its closing border, a header cell spanning every value column over a line
naming each, a table introduced by a sentence, and two lookalikes that are no results
(a numbered macro listing, a chart that numbers its boxes)."""
from __future__ import annotations

from pathlib import Path

from claims.extract import extract_message
from claims.message import message_from_text

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "archive"


def _claims(name: str) -> list[tuple[str, str | None, float, float, str | None, str | None]]:
    msg = message_from_text((FIXTURES / name).read_text())
    return [(c.metric, c.unit, c.baseline.value, c.candidate.value, c.baseline.label, c.candidate.label)
            for c in extract_message(msg).claims if c.baseline and c.candidate]


def test_notes_past_a_boxes_closing_border_are_not_cells() -> None:
    # "| non-zerocopy | 13 | ... | 23.9 | 4000 mb": the box closes before "4000 mb", and a
    # rule with "process" written after it stays part of the box
    got = _claims("vsock-zerocopy-box.txt")
    assert [(b, c) for _, _, b, c, _, _ in got] == [(13, 24), (16.4, 10.6), (24.7, 12.2), (27.2, 23.6),
                                                    (23.9, 21)]
    assert {(bl, cl) for *_, bl, cl in got} == {("non-zerocopy", "zerocopy")}
    # the columns are values of the swept size: each metric carries the table's title
    assert got[0][0] == "size of rx/tx buffers in pages 8"


def test_a_header_cell_over_every_column_names_what_they_measure() -> None:
    got = _claims("virtio-mtu-features.txt")
    assert ("Bandwidth (Gbit/s) mtu off", "Gbit/s", 20.1, 20.2, "Before", "After") in got
    assert all(bl == "Before" and cl == "After" for *_, bl, cl in got)


def test_the_sentence_introducing_a_table_is_not_its_metric() -> None:
    got = _claims("vhost-smap-intro.txt")
    assert ("SMAP on", "Mpps", 5.0, 5.7, "base", "direct + spinlock()") in got
    assert not any("result" in m for m, *_ in got)


def test_a_numbered_macro_listing_is_no_table() -> None:
    # line numbers beside a macro's "\"-continued lines: 255, 256, 257 ... are not values
    assert _claims("vdpa-macro-listing.txt") == []


def test_a_chart_numbering_its_boxes_is_no_comparison() -> None:
    # "[ no warnings]  1  2" over "[ warnings ]  3  4": the numbers name the boxes
    assert _claims("smatch-chart.txt") == []


def test_a_title_naming_the_key_and_the_values_gives_the_values_unit() -> None:
    # "MTU(Bytes)/Bandwidth (Gbit/s)": the rows are MTUs in bytes, the cells Gbit/s
    got = _claims("virtio-mtu-bandwidth.txt")
    assert [(u, b, c) for _, u, b, c, _, _ in got] == [("Gbit/s", 22.5, 22.4), ("Gbit/s", 12.8, 25.9)]
