"""Patchwork checks: one check per patch of the series, where netdev maintainers look first.

Patchwork's REST API (`/api/1.x/`): a series is found from a patch's or the cover letter's
Message-ID (`GET patches/?msgid=`, `covers/?msgid=`, then `series/{id}/`), and a check is
`POST patches/{id}/checks/` with `state` (pending, success, warning, fail), `context` (a
slug), `description` and `target_url`, authenticated by `Authorization: Token ...`.  The
newest check per context is the one patchwork shows, so posting is idempotent here: the
patch's newest `perf-claim` check is read first and the same state is never posted twice.

States follow NIPA's etiquette (blame only what is attributable): success when the claim
was confirmed, fail only when it was contradicted, warning for everything in between (not
reproduced, partly confirmed, inconclusive, invalid, not runnable here).

Plain `requests`: git-pw posts one check per invocation from a configured git repository
and cannot read the existing checks first, pwclient speaks XML-RPC; neither makes the
read-then-post step this needs.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any
from urllib.parse import quote

import requests

from runners.results import Results, VerdictKind

CONTEXT = "perf-claim"
API = "/api/1.2"
STATES = ("pending", "success", "warning", "fail")
_BY_VERDICT: dict[str, str] = {VerdictKind.CONFIRMED: "success",
                               VerdictKind.CONTRADICTED: "fail"}
_RANK = {"success": 0, "pending": 1, "warning": 2, "fail": 3}
MAX_DESCRIPTION = 200


class PatchworkError(Exception):
    """Patchwork cannot be reached or refused a request; the message is one line."""


@dataclass
class Check:
    state: str
    description: str
    target_url: str = ""
    context: str = CONTEXT

    def to_dict(self) -> dict[str, str]:
        return asdict(self)


def state_of(verdict: str | None) -> str:
    return _BY_VERDICT.get(str(verdict), "warning")


def check_for(results: Iterable[Results], target_url: str = "") -> Check:
    """The series' one check from the results of its claims: the worst row decides the
    state; the description names the headline row and how many others there are."""
    rows = [v for res in results for v in res.verdicts]
    if not rows:
        return Check("warning", "perf claim: nothing was judged", target_url)
    worst = max(rows, key=lambda v: _RANK[state_of(v.verdict)])
    state = state_of(worst.verdict)
    e = worst.effect
    measured = f" {e.measured_pct:+.1f}%" if e is not None else ""
    claimed = (f" (claimed {worst.claimed_pct:+.1f}%)"
               if worst.claimed_pct is not None else "")
    more = f"; {len(rows) - 1} more row(s)" if len(rows) > 1 else ""
    text = f"{worst.metric or 'claim'}: {worst.verdict}{measured}{claimed}{more}"
    text = " ".join(text.split())
    return Check(state, text[:MAX_DESCRIPTION], target_url)


class Patchwork:
    """A patchwork server's REST API: what a check poster needs and nothing more."""

    def __init__(self, url: str, token: str | None = None, timeout: float = 30.0,
                 session: requests.Session | None = None) -> None:
        base = url.rstrip("/")
        self.api = base if re.search(r"/api/\d+\.\d+$", base) else base + API
        self.token = token
        self.timeout = timeout
        self.http = session or requests.Session()

    def _request(self, method: str, path: str, **kw: Any) -> Any:
        headers = {"Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        url = path if path.startswith("http") else f"{self.api}/{path.lstrip('/')}"
        try:
            r = self.http.request(method, url, headers=headers, timeout=self.timeout, **kw)
        except requests.RequestException as e:
            raise PatchworkError(f"patchwork {self.api}: {type(e).__name__}: {e}") from None
        if r.status_code >= 400:
            detail = " ".join(r.text.split())[:200]
            raise PatchworkError(f"patchwork {method} {url}: HTTP {r.status_code} {detail}")
        try:
            return r.json()
        except ValueError:
            raise PatchworkError(f"patchwork {url}: not JSON") from None

    def series_patches(self, msgid: str) -> list[dict[str, Any]]:
        """The patches of the series a patch or cover letter (by Message-ID) belongs to."""
        mid = msgid.strip().strip("<>")
        found, kind = None, ""
        for kind in ("patches", "covers"):
            items = self._request("GET", f"{kind}/?msgid={quote(mid, safe='@')}")
            if isinstance(items, list) and items:
                found = items[0]
                break
        if found is None:
            raise PatchworkError(f"patchwork has no patch or cover letter <{mid}>")
        series = found.get("series") or []
        if not series:  # a patch outside any series is checked alone
            return [found] if kind == "patches" else []
        s = series[0]
        full = self._request("GET", s.get("url") or f"series/{s['id']}/")
        return list(full.get("patches") or [])

    def checks(self, patch_id: int) -> list[dict[str, Any]]:
        got = self._request("GET", f"patches/{patch_id}/checks/")
        return got if isinstance(got, list) else []

    def post_check(self, patch_id: int, check: Check) -> dict[str, Any]:
        if not self.token:
            raise PatchworkError("posting a check needs a token: set [patchwork] token or "
                                 "VERIFIER_PATCHWORK_TOKEN")
        return self._request("POST", f"patches/{patch_id}/checks/", json=check.to_dict())


def newest(checks: list[dict[str, Any]], context: str = CONTEXT) -> dict[str, Any] | None:
    """The check patchwork shows for `context`: the newest (by date, then id)."""
    mine = [c for c in checks if c.get("context") == context]
    return max(mine, key=lambda c: (str(c.get("date") or ""), int(c.get("id") or 0)),
               default=None)


@dataclass
class Posted:
    patch_id: int
    name: str
    state: str
    posted: bool  # False: the newest check already had this state


def post_series(pw: Patchwork, msgid: str, check: Check,
                dry_run: bool = False) -> list[Posted]:
    """One check per patch of the series; a patch whose newest check of this context
    already has the state gets nothing new."""
    out = []
    for p in pw.series_patches(msgid):
        pid = int(p["id"])
        cur = newest(pw.checks(pid), check.context)
        same = cur is not None and cur.get("state") == check.state
        if not same and not dry_run:
            pw.post_check(pid, check)
        out.append(Posted(pid, str(p.get("name") or ""), check.state, not same))
    return out


def target_url(results: Results, public_url: str | None) -> str:
    """The results page of the claim, when a public base URL is configured."""
    from verifier.reply import page_url

    return page_url(results, public_url) or ""


def bot_post(state: Any, results_of: Any, url: str, public_url: str | None,
             done: set[tuple[str, str]], token: str | None = None) -> list[Posted]:
    """The bot's step: for every thread with judged claims, one check per patch of its
    series from all its claims' results.  `done` remembers (thread, state) already posted
    by this process, so a round asks patchwork nothing when nothing changed; after a
    restart the server's newest check keeps it from posting twice.  A patchwork error is
    logged and tried again next round; it never stops the bot."""
    import logging
    import os

    log = logging.getLogger("verifier.bot")
    token = token or os.environ.get("VERIFIER_PATCHWORK_TOKEN")
    pw = Patchwork(url, token)
    by_thread: dict[str, list[Any]] = {}
    for c in state.claims.claims(status=("judged",)):
        by_thread.setdefault(c.thread_id, []).append(c)
    out: list[Posted] = []
    for thread_id, claims in by_thread.items():
        results = [r for c in claims if (r := results_of(c.id)) is not None]
        for r, c in zip(results, claims, strict=False):
            stored = state.runs.verdicts(c.id)
            if stored:
                r.verdicts = stored[0]
        if not results:
            continue
        check = check_for(results, target_url(results[0], public_url))
        if (thread_id, check.state) in done:
            continue
        try:
            posted = post_series(pw, claims[0].message_id, check)
        except PatchworkError as e:
            log.warning("patchwork check for <%s> not posted: %s", thread_id, e)
            continue
        done.add((thread_id, check.state))
        for p in posted:
            log.info("patchwork patch %d: %s %s (%s)", p.patch_id, check.state,
                     "posted" if p.posted else "unchanged", check.description)
        out += posted
    return out
