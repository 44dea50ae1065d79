"""`claims.mime.parse_header_block(block, names)` (the two-level reader's summary of a
message it turns away) gives exactly the headers of those names the full parse gives, in
their order: on the header blocks of real archive messages (every transfer encoding and
multipart kind the sample holds), on those blocks damaged, and on the odd blocks a
one-regex reading could get wrong (names with spaces or 8-bit bytes, folded first lines,
duplicates, upper case, encoded words, a block that runs into the body)."""
from __future__ import annotations

import random

import pytest

from claims.mime import SUMMARY_HEADERS, parse_header_block
from tests.claims.test_sources_gated import ARCHIVE, archive_sample, broken

NAMES = (SUMMARY_HEADERS, frozenset({"subject"}), frozenset({"to", "cc", "references"}))


def assert_summary(block: bytes) -> None:
    full = parse_header_block(block)
    for names in NAMES:
        want = None if full is None else [h for h in full if h[0] in names]
        assert parse_header_block(block, names) == want, (block[:200], names)


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
                  b"Subject: x\n\rFrom: y", b"Subject: \x1b[31mred\x1b[0m\nFrom: \xff\xfe"]:
        assert_summary(block)
