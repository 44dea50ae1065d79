"""Options several `verifier` commands take, defined once: the config file, the inbox, the
fleet's scheduler and TLS files, the host runners' options and a run's limits.

Each `add_*` adds one group to a sub-command's parser; the commands then hand the parsed
values on as typed settings or plain arguments, never the argparse namespace.  The runner
options become `RunSettings.from_text` (verifier.pipeline), which reads --hosts and --tags
so that a bad one is its own one-line error.
"""
from __future__ import annotations

import argparse


def add_config(p: argparse.ArgumentParser, what: str = "config file") -> None:
    p.add_argument("--config", default=None, help=f"{what} (default: $VERIFIER_CONFIG)")


def add_inbox(p: argparse.ArgumentParser,
              help: str = "public-inbox base URL (default: config `inbox`, b4.midmask, "
                          "https://lore.kernel.org/all)") -> None:
    p.add_argument("--inbox", default=None, help=help)


def add_fleet(p: argparse.ArgumentParser, *, required: bool,
              tags: str = "what a host must have: nic=mlx5,cpu=icelake") -> None:
    """The lab's scheduler, the tags a host must have (or offers) and the TLS files."""
    p.add_argument("--scheduler", required=required, default=None,
                   help="the lab's dask scheduler, tcp://ctl:8786 or tls://...")
    p.add_argument("--tags", default="", help=tags)
    p.add_argument("--tls-ca", default=None, help="CA certificate (tls:// schedulers)")
    p.add_argument("--tls-cert", default=None, help="this host's certificate")
    p.add_argument("--tls-key", default=None, help="this host's private key")


def add_host_runner(p: argparse.ArgumentParser) -> None:
    """Where a spec runs on hosts this machine drives: ssh pairs, netns shaping, vm kernels."""
    p.add_argument("--hosts", default=None,
                   help="ssh: roles to hosts, e.g. client=lab1,server=lab2")
    add_ssh_config(p)
    p.add_argument("--netem", default=None, help="netns: shaping, e.g. delay=1ms,rate=1gbit")
    p.add_argument("--kernel", action="append", default=[], metavar="VARIANT=IMAGE",
                   help="vm: the kernel image a variant boots (repeat per variant)")


def add_ssh_config(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ssh-config", default=None, help="ssh: an ssh_config file (ssh -F)")


def add_run_limits(p: argparse.ArgumentParser, *, repetitions: bool = True) -> None:
    """Which spec of a file, how long each run, (how many runs) and the approval."""
    from verifier.argtypes import runs, seconds

    p.add_argument("--spec-id", default=None, help="which spec of a multi-spec file to run")
    if repetitions:
        p.add_argument("--runs", type=runs, default=None,
                       help="runs per variant (default: spec)")
    p.add_argument("--duration", type=seconds, default=None,
                   help="seconds per run, replacing the mail's own (capped by the spec)")
    p.add_argument("--approve", action="store_true",
                   help="a person approves the spec's setup steps that need approval")
