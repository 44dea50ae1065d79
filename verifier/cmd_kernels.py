"""Build the base and the patched kernel of a patch thread, for `verifier run --runner vm`.

    verifier kernels MSGID --tree ~/linux [--mbox series.mbox | --inbox URL] [--base REF]

The base is the series' base-commit, else the tree its subject names (net, net-next), else
--base; the series is applied with b4 + git am in a git worktree (your checkout is never
touched) and both kernels are built with `vng --build` and cached by commit and config.
Prints the `--kernel VARIANT=IMAGE` arguments; exit 4 with "not runnable: does not apply
to <base>: <reason>" when the series does not apply, 2 on any other failure.
"""
from __future__ import annotations

import argparse

from verifier.options import add_inbox


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("msgid", help="Message-ID of the series (its cover letter or a patch)")
    p.add_argument("--tree", required=True, help="your kernel git repository (read only)")
    p.add_argument("--mbox", default=None, help="read the series from this mbox (b4 am -m)")
    add_inbox(p, "public-inbox URL to fetch from (b4.midmask URL/%%s), e.g. a local one")
    p.add_argument("--base", default=None, help="base commit or branch, overriding the thread")
    p.add_argument("--subject", default=None, help="the thread's subject (names the tree)")
    p.add_argument("--config", default=None, help="extra kernel config fragment file")
    p.add_argument("--jobs", type=int, default=None, help="make -j for the builds")
    p.add_argument("--format", choices=("args", "json"), default="args")


def run(args: argparse.Namespace) -> int:
    from verifier.kernels_run import KernelsJob, kernels

    return kernels(KernelsJob(args.msgid, args.tree, args.mbox, args.inbox, args.base,
                              args.subject, args.config, args.jobs, args.format))
