"""Polite HTTP against a local server: User-Agent, pause between requests to one host,
retries with backoff on transient failures, and no retry on a 404."""
from __future__ import annotations

import http.server
import threading
import time
from collections.abc import Iterator

import pytest

from verifier.fetch.errors import FetchError
from verifier.fetch.http import USER_AGENT, Http


class _Flaky(http.server.BaseHTTPRequestHandler):
    """/flaky answers 503 twice, then 200; /gone is 404; every request is logged."""

    log: list[tuple[float, str, str]] = []
    failures_left = 2

    def do_GET(self) -> None:  # noqa: N802
        type(self).log.append((time.monotonic(), self.path, self.headers.get("User-Agent", "")))
        if self.path == "/flaky" and type(self).failures_left > 0:
            type(self).failures_left -= 1
            code, body = 503, b"busy"
        elif self.path in ("/flaky", "/ok"):
            code, body = 200, b"fine"
        else:
            code, body = 404, b"no"
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def flaky() -> Iterator[tuple[str, type[_Flaky]]]:
    handler = type("H", (_Flaky,), {"log": [], "failures_left": 2})
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}", handler
    finally:
        srv.shutdown()
        srv.server_close()


def test_retries_with_backoff_then_succeeds(flaky: tuple[str, type[_Flaky]]) -> None:
    base, h = flaky
    client = Http(retries=3, backoff=0.2, delay=0.0)
    assert client.get(base + "/flaky").text == "fine"
    times = [t for t, p, _ in h.log if p == "/flaky"]
    assert len(times) == 3
    assert times[1] - times[0] >= 0.2 and times[2] - times[1] >= 0.4  # 0.2 s, then 0.4 s
    assert all(ua == USER_AGENT and "perf-claim-verifier" in ua for _, _, ua in h.log)


def test_gives_up_after_retries_and_404_is_not_retried(flaky: tuple[str, type[_Flaky]]) -> None:
    base, h = flaky
    with pytest.raises(FetchError, match="HTTP 503"):
        Http(retries=1, backoff=0.01, delay=0.0).get(base + "/flaky")
    with pytest.raises(FetchError, match="HTTP 404") as ei:
        Http(retries=3, backoff=0.01).get(base + "/gone")
    assert ei.value.not_found
    assert [p for _, p, _ in h.log].count("/gone") == 1


def test_pause_between_requests_to_one_host(flaky: tuple[str, type[_Flaky]]) -> None:
    base, h = flaky
    client = Http(delay=0.3, delay_loopback=True)
    for _ in range(3):
        client.get(base + "/ok")
    times = [t for t, p, _ in h.log if p == "/ok"]
    assert all(b - a >= 0.29 for a, b in zip(times, times[1:], strict=False))
