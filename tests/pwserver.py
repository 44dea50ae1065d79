"""A stand-in for a patchwork server, which cannot be installed here (it is a Django site
with its own database): a small HTTP server on loopback implementing the documented REST
endpoints the check poster uses, and validating what is posted as patchwork does.

    GET  /api/1.2/patches/?msgid=M    GET /api/1.2/covers/?msgid=M    GET /api/1.2/series/N/
    GET  /api/1.2/patches/N/checks/   POST /api/1.2/patches/N/checks/  (Token auth)

A check must have `state` in pending/success/warning/fail, a slug `context`, a string
`description` and an http(s) or empty `target_url`; anything else is a 400, a missing or
wrong token a 403, an unknown patch a 404 (as patchwork answers).  The series it serves
is a real one read from the shared list archive (tests/verifier/test_patchwork_checks.py).
"""
from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

SLUG = re.compile(r"^[-a-zA-Z0-9_]+$")
STATES = ("pending", "success", "warning", "fail")


@dataclass
class Store:
    token: str
    patches: dict[int, dict[str, Any]] = field(default_factory=dict)
    covers: dict[int, dict[str, Any]] = field(default_factory=dict)
    series: dict[int, dict[str, Any]] = field(default_factory=dict)
    checks: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    posted: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    rejected: list[tuple[int, str]] = field(default_factory=list)

    def add_series(self, cover: tuple[str, str] | None, patches: list[tuple[str, str]],
                   base: str) -> int:
        sid = len(self.series) + 1
        ref = {"id": sid, "url": f"{base}/api/1.2/series/{sid}/"}
        plist = []
        for mid, name in patches:
            pid = len(self.patches) + 1
            p = {"id": pid, "url": f"{base}/api/1.2/patches/{pid}/", "msgid": f"<{mid}>",
                 "name": name, "series": [ref], "checks": f"{base}/api/1.2/patches/{pid}/checks/"}
            self.patches[pid] = p
            self.checks[pid] = []
            plist.append({k: p[k] for k in ("id", "url", "msgid", "name")})
        cov = None
        if cover:
            cid = len(self.covers) + 1
            cov = {"id": cid, "msgid": f"<{cover[0]}>", "name": cover[1], "series": [ref]}
            self.covers[cid] = cov
        self.series[sid] = {**ref, "name": cover[1] if cover else plist[0]["name"],
                            "patches": plist, "cover_letter": cov}
        return sid


class _Handler(BaseHTTPRequestHandler):
    store: Store

    def log_message(self, *args: object) -> None:  # quiet
        pass

    def _send(self, code: int, body: Any) -> None:
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:  # noqa: N802 (http.server API)
        u = urlparse(self.path)
        q = {k: v[0] for k, v in parse_qs(u.query).items()}
        parts = [p for p in u.path.split("/") if p]
        if parts[:2] != ["api", "1.2"]:
            return self._send(404, {"detail": "Not found."})
        rest = parts[2:]
        st = self.store
        if rest in (["patches"], ["covers"]):
            items = st.patches if rest == ["patches"] else st.covers
            want = unquote(q.get("msgid", "")).strip("<>")
            return self._send(200, [x for x in items.values()
                                    if not want or x["msgid"].strip("<>") == want])
        if len(rest) == 2 and rest[0] == "series" and rest[1].isdigit():
            s = st.series.get(int(rest[1]))
            return self._send(200, s) if s else self._send(404, {"detail": "Not found."})
        if len(rest) == 3 and rest[0] == "patches" and rest[2] == "checks":
            pid = int(rest[1]) if rest[1].isdigit() else -1
            if pid not in st.patches:
                return self._send(404, {"detail": "Not found."})
            return self._send(200, st.checks[pid])
        return self._send(404, {"detail": "Not found."})

    def do_POST(self) -> None:  # noqa: N802
        parts = [p for p in urlparse(self.path).path.split("/") if p]
        st = self.store
        if not (len(parts) == 5 and parts[:3] == ["api", "1.2", "patches"]
                and parts[4] == "checks" and parts[3].isdigit()):
            return self._send(404, {"detail": "Not found."})
        pid = int(parts[3])
        if self.headers.get("Authorization") != f"Token {st.token}":
            st.rejected.append((pid, "auth"))
            return self._send(403, {"detail": "Authentication credentials were not provided."})
        if pid not in st.patches:
            return self._send(404, {"detail": "Not found."})
        try:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        except (ValueError, json.JSONDecodeError):
            return self._send(400, {"detail": "JSON parse error"})
        errors = {}
        if body.get("state") not in STATES:
            errors["state"] = [f'"{body.get("state")}" is not a valid choice.']
        if not isinstance(body.get("context"), str) or not SLUG.match(body["context"]):
            errors["context"] = ["Enter a valid slug."]
        if not isinstance(body.get("description", ""), str):
            errors["description"] = ["Not a valid string."]
        url = body.get("target_url", "")
        if not isinstance(url, str) or (url and not re.match(r"^https?://[^\s/]+", url)):
            errors["target_url"] = ["Enter a valid URL."]
        if set(body) - {"state", "context", "description", "target_url"}:
            errors["unknown"] = sorted(set(body) - {"state", "context", "description",
                                                    "target_url"})
        if errors:
            st.rejected.append((pid, json.dumps(errors)))
            return self._send(400, errors)
        check = {"id": sum(len(c) for c in st.checks.values()) + 1,
                 "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f"),
                 "user": {"id": 1, "username": "perf-bot"}, **body}
        st.checks[pid].append(check)
        st.posted.append((pid, body))
        return self._send(201, check)


class PatchworkServer:
    """The stand-in on 127.0.0.1, on a free port, in a thread."""

    def __init__(self, token: str = "s3cret-token") -> None:
        self.store = Store(token)
        handler = type("Handler", (_Handler,), {"store": self.store})
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> PatchworkServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
