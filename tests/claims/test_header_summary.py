"""`claims.mime.parse_header_block(block, names)` (the two-level reader's summary of a
message it turns away) gives exactly the headers of those names the full parse gives, in
their order, and the full parse of a block of plain lines (by regular expressions) is the
line-by-line parse: on the header blocks of real archive messages (every transfer encoding
and multipart kind the sample holds), on those blocks damaged, and on the odd blocks a
one-regex reading could get wrong (names with spaces or 8-bit bytes, folded first lines,
duplicates, upper case, encoded words, a block that runs into the body, skipped trace
headers). The reader on message bytes (`plain_header_end`, `plain_headers`) finds the same
block end and headers."""
from __future__ import annotations

import random

import pytest

from claims.mime import (
    _NAME_FIRST,
    _NOT_A_HEADER_LINE,
    SUMMARY_HEADERS,
    _parse_block_lines,
    parse_header_block,
    plain_header_end,
    plain_headers,
)
from tests.claims.test_sources_gated import ARCHIVE, archive_sample, broken

NAMES = (SUMMARY_HEADERS, frozenset({"subject"}), frozenset({"to", "cc", "references"}))


def assert_summary(block: bytes) -> None:
    full = parse_header_block(block)
    assert full == _parse_block_lines(block), block[:200]
    for names in NAMES:
        want = None if full is None else [h for h in full if h[0] in names]
        assert parse_header_block(block, names) == want, (block[:200], names)
    assert_message_head(block + b"\n\nbody\nFrom: not a header\n")
    assert_message_head(block + b"\nSubject: no blank line")


def assert_message_head(data: bytes) -> None:
    """`plain_header_end` is where the blank line is when the block before it is plain
    (a `name:` line, then only such lines and continuations), else -1; and the headers
    read there are the block's."""
    end = data.find(b"\n\n")
    block = data[:end]
    plain = end >= 0 and _NAME_FIRST.match(block) is not None \
        and _NOT_A_HEADER_LINE.search(block) is None
    assert plain_header_end(data) == (end if plain else -1), data[:200]
    if plain:
        for names in (*NAMES, None):
            assert plain_headers(data, end, names) == parse_header_block(block, names), data[:200]


@pytest.mark.skipif(not ARCHIVE.exists(), reason="shared archive not present")
def test_archive_header_blocks_summarised_as_parsed() -> None:
    rng = random.Random(7)
    sample = [raw for _, raw in archive_sample(per_kind=40)]
    assert len(sample) > 100
    for raw in sample:
        block = raw.split(b"\n\n", 1)[0]
        assert_summary(block)
        assert_summary(broken(block, rng))
        assert_summary(block.replace(b"\n", b"\r\n"))
    got = parse_header_block(sample[0].split(b"\n\n", 1)[0], SUMMARY_HEADERS)
    assert got and {k for k, _ in got} <= SUMMARY_HEADERS and any(k == "subject" for k, _ in got)


def test_odd_header_blocks_summarised_as_parsed() -> None:
    for block in [b"", b"\n", b" \nSubject: x", b"Subject: x\n", b"Subject : x", b"Sub ject: x",
                  b"\tSubject: x", b"Subject: a\n  b\n\tc\nFrom: A <a@b>", b"SUBJECT: Up\nFrom: a",
                  b"Subject: one\nSubject: two", b"From: x\nno header here", b":empty name",
                  b"Subj\xe9ct: x\nFrom: y", b"Subject: =?utf-8?q?caf=C3=A9?=\nFrom: a",
                  b"Received: from x\n by y\nX-Subject: no\nSubject-Extra: no\nSubject:yes",
                  b"In-Reply-To: <a@b>\n <c@d>\nDate: Mon, 2 Jan 2023", b"\rSubject: x",
                  b"Subject: x\n\rFrom: y", b"Subject: \x1b[31mred\x1b[0m\nFrom: \xff\xfe",
                  b"Received: a\nRECEIVED: b\nReceived-SPF: c\nReceived-X: kept\nX-: no\nx-y: no\n"
                  b"ARC-Seal: no\nArc: kept\nList-Id: no\nListId: kept\nDKIM-Signature: no\n"
                  b"Subject: x\n \n\t\nTo: a\n\tb", b"Subject: x\nSubject:", b"A:b\n\t \nB:c"]:
        assert_summary(block)
