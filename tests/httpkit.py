"""A real HTTP server on loopback for the fetch tests: each test says what a path answers
(a function), and the status line, headers and body are written here once."""
from __future__ import annotations

import http.server
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from email.message import Message
from typing import NamedTuple


class Answer(NamedTuple):
    code: int
    body: bytes
    content_type: str | None = None


Reply = Callable[[str, Message], Answer]  # (path, request headers) -> answer


@contextmanager
def serving(reply: Reply) -> Iterator[str]:
    """`http://127.0.0.1:PORT` while the block runs; the server is shut down after it."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
            answer = reply(self.path, self.headers)
            self.send_response(answer.code)
            if answer.content_type:
                self.send_header("Content-Type", answer.content_type)
            self.send_header("Content-Length", str(len(answer.body)))
            self.end_headers()
            self.wfile.write(answer.body)

        def log_message(self, *args: object) -> None:
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}"
    finally:
        srv.shutdown()
        srv.server_close()
