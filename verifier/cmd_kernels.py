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
import json
import sys
import tempfile
from pathlib import Path


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("msgid", help="Message-ID of the series (its cover letter or a patch)")
    p.add_argument("--tree", required=True, help="your kernel git repository (read only)")
    p.add_argument("--mbox", default=None, help="read the series from this mbox (b4 am -m)")
    p.add_argument("--inbox", default=None,
                   help="public-inbox URL to fetch from (b4.midmask URL/%%s), e.g. a local one")
    p.add_argument("--base", default=None, help="base commit or branch, overriding the thread")
    p.add_argument("--subject", default=None, help="the thread's subject (names the tree)")
    p.add_argument("--config", default=None, help="extra kernel config fragment file")
    p.add_argument("--jobs", type=int, default=None, help="make -j for the builds")
    p.add_argument("--format", choices=("args", "json"), default="args")


def run(args: argparse.Namespace) -> int:
    from verifier.kernel import (
        CONFIG_FRAGMENT,
        KernelError,
        NotApplicable,
        kernels_for,
        midmask_for,
    )

    try:
        config = CONFIG_FRAGMENT
        if args.config:
            config += Path(args.config).read_text()
        with tempfile.TemporaryDirectory(prefix="verifier-kernels-") as work:
            k = kernels_for(args.msgid, Path(args.tree).expanduser(), Path(work),
                            mbox=Path(args.mbox) if args.mbox else None,
                            midmask=midmask_for(args.inbox), subject=args.subject,
                            base=args.base, config=config, jobs=args.jobs)
    except NotApplicable as e:
        print(f"verifier kernels: not runnable: {e}", file=sys.stderr)
        return 4
    except (KernelError, OSError) as e:
        print(f"verifier kernels: {e}", file=sys.stderr)
        return 2
    if args.format == "json":
        print(json.dumps({"base": k.base_sha, "base_why": k.base_why,
                          "images": {v: str(p) for v, p in k.images.items()}}))
    else:
        print(" ".join(k.kernel_args()))
    return 0
