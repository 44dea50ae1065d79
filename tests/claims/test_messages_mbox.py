"""mbox input: streamed, line numbers into the mbox file, mboxrd quoting, .xz/.gz, stdin."""
from __future__ import annotations

import gzip
import io
import itertools
import lzma
import subprocess
import sys
from pathlib import Path

import pytest

from claims.mbox import split_mbox
from claims.sources import iter_messages
from tests.paths import ROOT, SHARED

ARCHIVE = SHARED / "data" / "virtualization-list.mbox.xz"

MBOX = b"""From mboxrd@z Thu Jan  1 00:00:00 1970
From: Ann Bee <ann@example.org>
Subject: [PATCH 0/2] net: faster
Date: Mon, 02 Jan 2023 10:00:00 +0000
Message-ID: <cover@example.org>

Hi,
before: 10 Gbps
after: 12 Gbps
>From the results above, it is faster.
>>From here on, mboxrd quoting.
--\x20
2.39.0

From mboxrd@z Thu Jan  1 00:00:00 1970
From: Cy Dee <cy@example.org>
Subject: Re: [PATCH 0/2] net: faster
In-Reply-To: <cover@example.org>
Message-ID: <reply@example.org>

On Mon, 2 Jan 2023, Ann Bee wrote:
> after: 12 Gbps

From my side this looks fine (an unescaped From line in the body).
Thanks.

From nobody Tue Jan  3 11:22:33 2023
Subject: third
Message-ID: <third@example.org>
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: quoted-printable

caf=C3=A9 5 Mpps
"""


def where(data: bytes, text: str) -> int:
    """1-based line number of the first line of `data` that ends with `text`."""
    for i, line in enumerate(data.decode().split("\n"), 1):
        if line.endswith(text):
            return i
    raise AssertionError(text)


def check(msgs) -> None:
    assert [m.message_id for m in msgs] == ["cover@example.org", "reply@example.org",
                                           "third@example.org"]
    a, b, c = msgs
    by_text = {ln.text: ln for ln in a.lines}
    assert by_text["after: 12 Gbps"].number == where(MBOX, "after: 12 Gbps")
    assert "From the results above, it is faster." in by_text
    assert by_text["From here on, mboxrd quoting."].depth == 1  # '>>From' lost one '>'
    assert "2.39.0" not in by_text  # signature dropped
    quoted = next(ln for ln in b.lines if ln.depth == 1)
    assert (quoted.text, quoted.author, quoted.message_id) == ("after: 12 Gbps", "Ann Bee",
                                                               "cover@example.org")
    assert quoted.number == where(MBOX, "> after: 12 Gbps")
    assert any(ln.text.startswith("From my side") for ln in b.lines)
    assert c.lines[0].text == "café 5 Mpps" and c.lines[0].number == where(MBOX, "5 Mpps")


@pytest.mark.parametrize("pack", ["plain", "xz", "gz", "crlf"])
def test_mbox_messages_headers_and_line_numbers(tmp_path: Path, pack: str) -> None:
    data = {"plain": MBOX, "xz": lzma.compress(MBOX), "gz": gzip.compress(MBOX),
            "crlf": MBOX.replace(b"\n", b"\r\n")}[pack]
    path = tmp_path / f"t.{pack}"
    path.write_bytes(data)
    check(list(iter_messages(str(path))))


def test_mbox_from_data_argument() -> None:
    check(list(iter_messages("thread.mbox", data=MBOX)))


def test_splitter_handles_separators_across_read_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    import claims.mbox as mbox

    monkeypatch.setattr(mbox, "BLOCK", 7)  # every separator straddles a block boundary
    got = list(split_mbox(io.BytesIO(MBOX)))
    monkeypatch.undo()
    want = list(split_mbox(io.BytesIO(MBOX)))
    assert got == want and len(got) == 3


def test_mbox_is_streamed_not_loaded_whole() -> None:
    """The first message comes out after reading about one block, not the whole input."""

    class Counting(io.RawIOBase):
        def __init__(self) -> None:
            self.served = 0
            self.one = MBOX.split(b"\n\nFrom nobody")[0] + b"\n\n"

        def readable(self) -> bool:
            return True

        def readinto(self, buf) -> int:
            chunk = (self.one * (len(buf) // len(self.one) + 1))[: len(buf)]
            buf[: len(chunk)] = chunk
            self.served += len(chunk)
            return len(chunk)

    src = Counting()
    first = list(itertools.islice(split_mbox(io.BufferedReader(src)), 5))
    assert len(first) == 5 and src.served < 8 << 20  # an endless mbox: never read whole


def test_mbox_on_stdin() -> None:
    code = ("from claims.sources import iter_messages\n"
            "print([m.message_id for m in iter_messages('-')])\n")
    out = subprocess.run([sys.executable, "-c", code], input=lzma.compress(MBOX),
                         capture_output=True, timeout=60, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "third@example.org" in out.stdout.decode()


@pytest.mark.skipif(not ARCHIVE.exists(), reason="shared archive not present")
def test_first_2000_messages_of_the_real_archive_read_without_error() -> None:
    count = with_lines = 0
    with lzma.open(ARCHIVE) as f:
        head = f.read(64 << 20).split(b"\n")  # line numbers are checked against this text
    for msg in itertools.islice(iter_messages(str(ARCHIVE)), 2000):
        count += 1
        with_lines += bool(msg.lines)
        assert msg.message_id
        for ln in msg.lines[:50]:  # non-MIME bodies: the line sits at its number
            if not msg.warnings and "content-transfer-encoding" not in msg.headers and \
                    "multipart" not in msg.headers.get("content-type", "") and ln.number < len(head):
                raw = head[ln.number - 1].decode("utf-8", "replace")
                assert raw.rstrip().endswith(ln.text.rstrip()), (msg.message_id, ln)
    assert count == 2000 and with_lines > 1900
