"""Issue 15, fuzzing in the suite: hostile mail through the bot's pipeline in process (read,
extract, build and check specs).  About 3,000 examples in all, a few seconds each file;
bench/fuzz.py runs 100,000.  Inputs that ever failed are kept as fixtures under
tests/fixtures/hostile/ and replayed here first."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tests.mailfuzz as mailfuzz
from claims.clean import has_control
from claims.mime import decode_header_value, decode_text, message_from_bytes
from tests.paths import FIXTURES

HOSTILE = FIXTURES / "hostile"
SEEDS = mailfuzz.corpus_messages()


def fast(n: int) -> settings:
    return settings(max_examples=n, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("path", sorted(HOSTILE.glob("*.eml")), ids=lambda p: p.stem)
def test_saved_failures_stay_fixed(path: Path) -> None:
    mailfuzz.run_pipeline(path.read_bytes())


@fast(1200)
@given(st.integers(min_value=0, max_value=2**48))
def test_generated_and_mutated_mail(seed: int) -> None:
    mailfuzz.run_pipeline(mailfuzz.hostile_input(random.Random(seed), SEEDS), specs=False)


@fast(150)
@given(st.integers(min_value=0, max_value=2**48))
def test_generated_mail_specs_round_trip(seed: int) -> None:
    mailfuzz.run_pipeline(mailfuzz.hostile_input(random.Random(seed), SEEDS), specs=True)


@fast(600)
@given(st.sampled_from(mailfuzz.CHARSETS), st.binary(max_size=200), st.sampled_from("qQbB"),
       st.text(max_size=30))
def test_encoded_words_in_every_charset(charset: str, data: bytes, kind: str, text: str) -> None:
    import base64

    body = base64.b64encode(data).decode() if kind in "bB" else "".join(
        f"={b:02X}" for b in data)
    value = f"{text} =?{charset}?{kind}?{body}?= {text}".encode("utf-8", "surrogatepass")
    out = decode_header_value(value)
    assert not has_control(out)
    warnings: list[str] = []
    assert isinstance(decode_text(data, charset, warnings), str)


_LEAF = st.builds(lambda cs, cte, body: (
    f"Content-Type: text/plain; charset=\"{cs}\"\nContent-Transfer-Encoding: {cte}\n\n").encode(
        "utf-8", "replace") + body,
    st.sampled_from(mailfuzz.CHARSETS), st.sampled_from(mailfuzz.ENCODINGS),
    st.binary(max_size=300))


def _multipart(parts: list[bytes], boundary: str, close: bool) -> bytes:
    b = boundary.encode("utf-8", "replace")
    body = b"".join(b"--" + b + b"\n" + p + b"\n" for p in parts)
    return (f"Content-Type: multipart/mixed; boundary=\"{boundary}\"\n\n").encode(
        "utf-8", "replace") + body + (b"--" + b + b"--\n" if close else b"")


_ENTITY = st.recursive(_LEAF, lambda inner: st.builds(
    _multipart, st.lists(inner, max_size=4), st.sampled_from(["b", "=_x", "", "b\r", "a" * 70]),
    st.booleans()), max_leaves=12)


@fast(500)
@given(_ENTITY, st.text(max_size=40))
def test_nested_multipart_with_wrong_encodings(entity: bytes, subject: str) -> None:
    data = f"From: x <a@b>\nSubject: {subject}\n".encode("utf-8", "surrogatepass") + entity
    msg = message_from_bytes(data)
    assert msg.subject is None or not has_control(msg.subject)
    assert all(not has_control(ln.text) for ln in msg.lines)
    mailfuzz.run_pipeline(data, specs=False)


@fast(400)
@given(st.lists(st.one_of(st.sampled_from(mailfuzz.CLAIM_LINES), st.text(max_size=60)),
                max_size=40))
def test_claim_text(lines: list[str]) -> None:
    body = "\n".join(lines).encode("utf-8", "surrogatepass")
    mailfuzz.run_pipeline(b"From: a <a@b>\nSubject: claim\n\n" + body, specs=False)


@fast(200)
@given(st.lists(st.binary(max_size=400), min_size=1, max_size=5), st.sampled_from(
    [b"From x Mon Jan  1 00:00:00 2024\n", b"From \n", b"From x\r\n", b">From x\n"]))
def test_mbox_framing(bodies: list[bytes], sep: bytes) -> None:
    data = b"".join(sep + b"Subject: m\n\n" + body + b"\n" for body in bodies)
    mailfuzz.run_pipeline(data, specs=False)
