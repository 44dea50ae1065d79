"""The results page: threads, claims, verdicts, reports with plots, runs and raw samples.

    verifier serve [--config bot.toml] [--state FILE] [--host 127.0.0.1] [--port 8000]

Reads the bot's state file (`[bot] state` of the config, or --state) and serves it over
HTTP, on loopback unless --host says otherwise.  Set `public_url` in [smtp] to the address
readers reach it at, and replies link to each claim's page.
"""
from __future__ import annotations

import argparse
import sys


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", default=None, help="bot config (default: $VERIFIER_CONFIG)")
    p.add_argument("--state", default=None, help="the bot's state file (default: the config's)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (loopback)")
    p.add_argument("--port", type=int, default=8000, help="port (0: any free one)")


def run(args: argparse.Namespace) -> int:
    from verifier.serve import serve

    state = args.state
    if state is None:
        from verifier.bot_config import BotError, load_bot_config
        try:
            cfg, _ = load_bot_config(args.config)
        except BotError as e:
            print(f"verifier serve: {e}", file=sys.stderr)
            return 2
        state = cfg.state
    if not 0 <= args.port <= 65535:
        print(f"verifier serve: bad --port {args.port}", file=sys.stderr)
        return 2
    try:
        serve(state, args.host, args.port)
    except OSError as e:
        print(f"verifier serve: cannot listen on {args.host}:{args.port}: {e.strerror}",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0
    return 0
