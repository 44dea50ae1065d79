"""Turn the claims in a thread into executable specs (YAML a maintainer can review and edit).

    verifier spec thread.mbox -o gro.yaml     # all specs in one multi-document file
    verifier spec page.txt -o specs/          # one file per spec
    verifier extract msg.eml --format json | verifier spec -

Input is anything `verifier extract` reads, or its JSON output.  Specs that cannot run
here are written anyway and say why (`needs`, `notes`, actions with a `reason`).
"""
from __future__ import annotations

import argparse


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", help="mbox, .eml, archive page or text, extraction JSON, or - for stdin")
    p.add_argument("-o", "--output", help="a .yaml file (all specs) or a directory "
                   "(one file per spec); default: YAML on stdout")


def run(args: argparse.Namespace) -> int:
    from verifier.spec_run import spec

    return spec(args.input, args.output)
