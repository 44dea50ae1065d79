"""The results page: threads, claims, verdicts, reports with plots, runs and raw samples.

    verifier serve [--config bot.toml] [--state FILE] [--host 127.0.0.1] [--port 8000]

Reads the bot's state file (`[bot] state` of the config, or --state) and serves it over
HTTP, on loopback unless --host says otherwise.  Set `public_url` in [smtp] to the address
readers reach it at, and replies link to each claim's page.
"""
from __future__ import annotations

import argparse

from verifier.options import add_config


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_config(p, "bot config")
    p.add_argument("--state", default=None, help="the bot's state file (default: the config's)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (loopback)")
    p.add_argument("--port", type=int, default=8000, help="port (0: any free one)")


def run(args: argparse.Namespace) -> int:
    from verifier.serve import serve_state

    return serve_state(args.state, args.config, args.host, args.port)
