"""The results page: what the bot has seen, been asked, run and judged, one page per thread.

`verifier serve` reads the bot's SQLite state (verifier/state.py; opened per request, WAL
lets the bot keep writing; nothing shown is changed) and shows the
threads seen and requested, their claims and verdicts, and for each claim the report with
its plots, every run and its raw samples and output.  A reply links here
(`<public_url>/m/<Message-ID>#<spec id>`) so the mail can stay short.  Flask, on loopback
unless told otherwise; nothing from a mail is trusted as markup (jinja2 autoescaping).
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask, abort, redirect, render_template, request, url_for

from runners.results import Results, Verdict
from verifier.state import ClaimRow, State, ThreadRow


@dataclass
class ClaimView:
    """A claim as the page shows it: its row, verdicts, report context and plots."""

    claim: ClaimRow
    results: Results | None
    verdicts: list[Verdict]
    summary: str | None
    report: dict[str, Any] | None
    plots: list[dict[str, str]]


def _results(state: State, c: ClaimRow) -> Results | None:
    head = state.claims.results_of(c.id)
    if head is None:
        return None
    try:
        res = Results.from_dict(head)
    except (TypeError, KeyError, ValueError):
        return None
    runs = state.runs.runs(c.id)
    if runs:  # the newest attempt of each position, as the bot judged them
        latest = {}
        for r in runs:
            latest[(r.variant, r.index)] = r
        res.runs = sorted(latest.values(), key=lambda r: r.index)
    return res


def claim_view(state: State, c: ClaimRow, with_plots: bool = True) -> ClaimView:
    from verifier.report import context, plots

    res = _results(state, c)
    stored = state.runs.verdicts(c.id)
    verdicts, summary = (stored if stored else ([], None))
    report = plot_list = None
    if res is not None:
        if verdicts:
            res.verdicts = verdicts
        try:
            report = context(res)
            plot_list = plots(res, report["verdicts"]) if with_plots else []
        except (ValueError, KeyError, TypeError, ZeroDivisionError):
            report, plot_list = None, []
    return ClaimView(c, res, verdicts, summary, report, plot_list or [])


def create_app(state_path: str | Path) -> Flask:
    """The app over one state file (opened per request: the bot keeps writing it)."""
    app = Flask(__name__, template_folder=str(Path(__file__).parent / "templates" / "serve"))
    path = Path(state_path)

    def open_state() -> State:
        if not path.exists():
            abort(503, f"no state file {path} yet")
        try:
            return State(path)
        except Exception as e:  # noqa: BLE001 - one line on the page, never a traceback
            abort(503, f"cannot read {path}: {e}")

    @app.get("/")
    def index() -> str:
        with open_state() as st:
            threads = st.threads.threads()
            claims = st.claims.claims()
            counts = st.counts()
            verdicts = {c.id: st.runs.verdicts(c.id) for c in claims}
        by_thread: dict[str, list[ClaimRow]] = {}
        for c in claims:
            by_thread.setdefault(c.thread_id, []).append(c)
        return render_template("index.html", threads=threads[::-1], counts=counts,
                               by_thread=by_thread, verdicts=verdicts)

    @app.get("/search")
    def search() -> Any:
        q = (request.args.get("q") or "").strip().strip("<>")
        if not q:
            return redirect(url_for("index"))
        return redirect(url_for("message", mid=q))

    @app.get("/m/<path:mid>")
    def message(mid: str) -> Any:
        mid = mid.strip().strip("<>")
        with open_state() as st:
            thread_id = st.threads.thread_of([mid])
            if thread_id is None:
                # a claim's own message, or a thread id the bot was asked for
                row = st.db.execute("SELECT thread_id FROM claims WHERE message_id=?",
                                    (mid,)).fetchone()
                thread_id = row[0] if row else (mid if st.threads.thread(mid) else None)
            if thread_id is None:
                return render_template("missing.html", mid=mid), 404
            thread = st.threads.thread(thread_id) or ThreadRow(thread_id)
            views = [claim_view(st, c) for c in st.claims.claims(thread_id)]
            replies = {c.id: st.replies.reply(c.id) for c in st.claims.claims(thread_id)}
        return render_template("thread.html", thread=thread, views=views, mid=mid,
                               replies=replies)

    @app.get("/claim/<int:claim_id>")
    def claim(claim_id: int) -> Any:
        with open_state() as st:
            c = st.claims.claim(claim_id)
            if c is None:
                abort(404)
        return redirect(url_for("message", mid=c.message_id) + f"#{c.spec_id}")

    @app.get("/claim/<int:claim_id>/results.json")
    def results_json(claim_id: int) -> Any:
        with open_state() as st:
            c = st.claims.claim(claim_id)
            res = _results(st, c) if c else None
            if res is None:
                abort(404)
            v = st.runs.verdicts(claim_id)
        if v:
            res.verdicts = v[0]
        return app.response_class(json.dumps(res.to_dict(), indent=1, default=str),
                                  mimetype="application/json")

    @app.errorhandler(sqlite3.Error)
    def db_error(e: sqlite3.Error) -> Any:
        return f"state database error: {e}", 503

    return app


def serve(state_path: str | Path, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Serve until interrupted (werkzeug's threaded server, no debugger)."""
    import socket

    from werkzeug.serving import make_server

    # Bound here, not by werkzeug: on a taken port it prints two lines and exits 1; an
    # OSError lets the command say so in one line.
    family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    with socket.create_server((host, port), family=family) as sock:
        srv = make_server(host, port, create_app(state_path), threaded=True,
                          fd=sock.fileno())
    print(f"verifier serve: http://{host}:{srv.port}/ (state {state_path})",
          flush=True)
    try:
        srv.serve_forever()
    finally:
        srv.server_close()


def serve_state(state: str | Path | None, config: str | None = None,
                host: str = "127.0.0.1", port: int = 8000) -> int:
    """`verifier serve`: the page of `state` (default: the config's [bot] state) until
    Ctrl-C; 0, or 2 with a one-line error."""
    import sys

    if state is None:
        from verifier.bot_config import BotError, load_bot_config
        try:
            cfg, _ = load_bot_config(config)
        except BotError as e:
            print(f"verifier serve: {e}", file=sys.stderr)
            return 2
        state = cfg.state
    if not 0 <= port <= 65535:
        print(f"verifier serve: bad --port {port}", file=sys.stderr)
        return 2
    try:
        serve(state, host, port)
    except OSError as e:
        print(f"verifier serve: cannot listen on {host}:{port}: {e.strerror}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0
    return 0
