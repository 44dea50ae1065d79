"""`claims.mime._unbase64` hands a body padded only at its end straight to binascii (which
skips line breaks and junk itself) and mends the others: the same bytes, or the same
warning, as the mending reading of every body gives, on every body of up to 7 characters
over data, padding, line break and junk characters, and on real-looking bodies."""
from __future__ import annotations

import base64
import binascii
import itertools
import re

from claims.mime import _unbase64


def _mended(encoded: bytes) -> bytes | None:
    """Junk dropped, padding redone, a lone trailing character dropped, then decoded."""
    data = re.sub(rb"[^A-Za-z0-9+/=]", b"", encoded).rstrip(b"=")
    data = data[: len(data) - (len(data) % 4 == 1)]
    try:
        return binascii.a2b_base64(data + b"=" * (-len(data) % 4))
    except binascii.Error:
        return None


def _check(encoded: bytes) -> None:
    warnings: list[str] = []
    want = _mended(encoded)
    assert _unbase64(encoded, warnings) == want, encoded
    assert warnings == ([] if want is not None else ["broken base64 part skipped"]), encoded


def test_every_short_body_decodes_as_mended() -> None:
    for n in range(8):
        for chars in itertools.product(b"QA=\n \xff", repeat=n):
            _check(bytes(chars))


def test_real_looking_bodies_decode_as_mended() -> None:
    for size in range(40):
        body = base64.encodebytes(bytes(range(size)) * 3)
        for variant in (body, body.rstrip(b"=\n"), body.replace(b"\n", b"\r\n"), body + b"==",
                        body[:-3] + b"=\n=\n", b"==" + body, body + b"QUJD", body[:len(body) // 2]):
            _check(variant)
