"""Polite HTTP against a local server: User-Agent, pause between requests to one host,
retries with backoff on transient failures, and no retry on a 404."""
from __future__ import annotations

import time
from collections.abc import Iterator
from email.message import Message

import pytest

from tests.httpkit import Answer, serving
from verifier.fetch.errors import FetchError
from verifier.fetch.http import USER_AGENT, Http


class _Flaky:
    """/flaky answers 503 twice, then 200; /gone is 404; every request is logged."""

    def __init__(self) -> None:
        self.log: list[tuple[float, str, str]] = []
        self.failures_left = 2

    def __call__(self, path: str, headers: Message) -> Answer:
        self.log.append((time.monotonic(), path, headers.get("User-Agent", "")))
        if path == "/flaky" and self.failures_left > 0:
            self.failures_left -= 1
            return Answer(503, b"busy")
        if path in ("/flaky", "/ok"):
            return Answer(200, b"fine")
        return Answer(404, b"no")


@pytest.fixture
def flaky() -> Iterator[tuple[str, _Flaky]]:
    site = _Flaky()
    with serving(site) as base:
        yield base, site


def test_retries_with_backoff_then_succeeds(flaky: tuple[str, _Flaky]) -> None:
    base, h = flaky
    client = Http(retries=3, backoff=0.2, delay=0.0)
    assert client.get(base + "/flaky").text == "fine"
    times = [t for t, p, _ in h.log if p == "/flaky"]
    assert len(times) == 3
    assert times[1] - times[0] >= 0.2 and times[2] - times[1] >= 0.4  # 0.2 s, then 0.4 s
    assert all(ua == USER_AGENT and "perf-claim-verifier" in ua for _, _, ua in h.log)


def test_gives_up_after_retries_and_404_is_not_retried(flaky: tuple[str, _Flaky]) -> None:
    base, h = flaky
    with pytest.raises(FetchError, match="HTTP 503"):
        Http(retries=1, backoff=0.01, delay=0.0).get(base + "/flaky")
    with pytest.raises(FetchError, match="HTTP 404") as ei:
        Http(retries=3, backoff=0.01).get(base + "/gone")
    assert ei.value.not_found
    assert [p for _, p, _ in h.log].count("/gone") == 1


def test_pause_between_requests_to_one_host(flaky: tuple[str, _Flaky]) -> None:
    base, h = flaky
    client = Http(delay=0.3, delay_loopback=True)
    for _ in range(3):
        client.get(base + "/ok")
    times = [t for t, p, _ in h.log if p == "/ok"]
    assert all(b - a >= 0.29 for a, b in zip(times, times[1:], strict=False))
