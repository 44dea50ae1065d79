"""Polite HTTP for archives: one session, timeouts, retries with backoff, a User-Agent
naming the project, and a pause between requests to the same host.

Every failure (network, HTTP status, too big) becomes a one-line FetchError.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import requests

from verifier.fetch.errors import FetchError

USER_AGENT = "perf-claim-verifier/0.1 (+kernel performance-claim bot; python-requests)"
LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}
RETRY_STATUS = {429, 500, 502, 503, 504}


@dataclass
class Http:
    """An HTTP client with manners. `delay` seconds separate requests to one host
    (loopback excepted unless `delay_loopback`); transient failures are retried
    `retries` times with exponential backoff starting at `backoff` seconds."""

    timeout: tuple[float, float] = (10.0, 60.0)
    retries: int = 3
    backoff: float = 1.0
    delay: float = 1.0
    delay_loopback: bool = False
    max_bytes: int = 200 * 1024 * 1024
    session: requests.Session = field(default_factory=requests.Session)
    _last: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.session.headers["User-Agent"] = USER_AGENT

    def _wait_turn(self, host: str) -> None:
        if host in LOOPBACK and not self.delay_loopback:
            return
        last = self._last.get(host)
        if last is not None:
            pause = self.delay - (time.monotonic() - last)
            if pause > 0:
                time.sleep(pause)
        self._last[host] = time.monotonic()

    def request(self, method: str, url: str, **kw: object) -> requests.Response:
        """The response of a successful request (2xx), or FetchError."""
        host = urlsplit(url).hostname or ""
        err = "no attempt made"
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(self.backoff * 2 ** (attempt - 1))
            self._wait_turn(host)
            try:
                r = self.session.request(method, url, timeout=self.timeout, stream=True, **kw)  # type: ignore[arg-type]
            except requests.Timeout:
                err = f"timed out fetching {url}"
                continue
            except requests.ConnectionError:
                err = f"cannot connect to {host} for {url}"
                continue
            except requests.RequestException as e:
                raise FetchError(f"cannot fetch {url}: {type(e).__name__}") from None
            if r.status_code in RETRY_STATUS:
                err = f"HTTP {r.status_code} from {url}"
                continue
            if r.status_code == 404:
                raise FetchError(f"not found (HTTP 404): {url}", not_found=True)
            if r.status_code >= 400:
                raise FetchError(f"HTTP {r.status_code} from {url}")
            self._read_capped(r, url)
            return r
        raise FetchError(err)

    def _read_capped(self, r: requests.Response, url: str) -> None:
        """Read the body (decoded, as `r.content` gives it) but never more than max_bytes:
        a server's gzip bomb ends here instead of in memory."""
        chunks: list[bytes] = []
        size = 0
        try:
            for chunk in r.iter_content(1 << 16):
                size += len(chunk)
                if size > self.max_bytes:
                    raise FetchError(f"response too large from {url} (over {self.max_bytes >> 20} MB)")
                chunks.append(chunk)
        except requests.RequestException as e:
            raise FetchError(f"cannot read the response from {url}: {type(e).__name__}") from None
        finally:
            r.close()
        r._content = b"".join(chunks)  # what requests itself caches after reading

    def get(self, url: str, **kw: object) -> requests.Response:
        return self.request("GET", url, **kw)

    def post(self, url: str, **kw: object) -> requests.Response:
        return self.request("POST", url, **kw)
