"""`verifier check` from a thread to files: each claim verified through verifier.pipeline,
its results, report and reply draft written under one folder, the report printed.

The bot verifies the same way (verifier.bot_execute); what is particular here is the
input (a file, Message-ID or URL), the kernels built from a tree for `--runner vm`, and
the folder of output files.
"""
from __future__ import annotations

import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from claims.model import Message
from claims.spec import Spec
from verifier.pipeline import RunSettings, backend_for, thread_specs, verify
from verifier.report import render

_SUFFIX = {"email": "txt", "markdown": "md"}


class CheckError(Exception):
    """Bad input or options: one line, exit status 2."""


@dataclass
class Check:
    """What `verifier check` was asked to do."""

    target: str
    settings: RunSettings
    out: Path
    format: str = "email"
    inbox: str | None = None
    spec_id: str | None = None
    tree: str | None = None  # vm: build the base and base + the series from this repo
    base: str | None = None
    jobs: int | None = None


def thread_of(target: str, inbox: str | None) -> tuple[str, list[Message]]:
    """(where the thread is on disk, "-" for stdin; its messages)."""
    from claims.sources import InputError, iter_messages
    from verifier.fetch import FetchError, fetch_thread, is_remote

    path = target
    if is_remote(target):
        try:
            path = str(fetch_thread(target, inbox=inbox))
        except FetchError as e:
            raise CheckError(str(e)) from None
    elif target != "-" and not Path(target).exists():
        raise CheckError(f"{target}: no such file (and not a Message-ID or URL)")
    try:
        return path, list(iter_messages(path))
    except (InputError, OSError) as e:
        raise CheckError(str(e)) from None


def _kernels(job: Check, source: str, messages: list[Message], specs: list[Spec]
             ) -> tuple[Any, str | None]:
    """(Kernels, None) built from the tree for the thread's series, or (None, "does not
    apply to <base>: <reason>") when git am refuses it; KernelError for anything else."""
    from verifier.kernel import (
        KernelError,
        NotApplicable,
        as_mbox,
        kernels_for,
        midmask_for,
        series_target,
    )

    root = next((m.message_id for m in messages if m.message_id), None)
    target = series_target(specs, root)
    if not target:
        raise KernelError("--tree: no Message-ID in the thread names its series")
    mbox = None if source == "-" else as_mbox(Path(source), job.out / "thread.mbox")
    subject = next((m.subject for m in messages if m.subject), None)
    print(f"verifier check: building the base and <{target}> applied from {job.tree} "
          f"(vng --build; cached by commit and config)...", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="verifier-kernels-") as work:
        try:
            return kernels_for(target, Path(str(job.tree)).expanduser(), Path(work),
                               mbox=mbox, midmask=midmask_for(job.inbox), subject=subject,
                               base=job.base, jobs=job.jobs), None
        except NotApplicable as e:
            return None, str(e)


def _write(job: Check, spec: Spec, res: Any, messages: list[Message]) -> None:
    """results-<spec>.json, the report (printed too) and the reply draft in the outbox."""
    from verifier.reply import ReplyError, reply

    path = job.out / f"results-{spec.id}.json"
    res.save(path)
    text = render(res, job.format)
    (job.out / f"report-{spec.id}.{_SUFFIX.get(job.format, 'html')}").write_text(text)
    sys.stdout.write(text + "\n")
    try:
        r = reply(res, job.out / "outbox", send=False, thread=messages)
        print(f"reply: {r.path}" + (f" {r.message[r.message.find('(undeliverable'):]}"
                                     if "undeliverable" in r.message else ""))
    except ReplyError as e:
        print(f"reply: not written: {e}")
    print(f"results: {path}")


def check_main(target: str, settings: RunSettings, out: str, format: str = "email",
               inbox: str | None = None, spec_id: str | None = None, tree: str | None = None,
               base: str | None = None, jobs: int | None = None) -> int:
    """`verifier check` as given on the command line: the exit status of `check`, or 2 with
    a one-line error for bad options or input."""
    try:
        return check(Check(target, settings, Path(out), format, inbox, spec_id, tree, base,
                           jobs))
    except CheckError as e:
        print(f"verifier check: {e}", file=sys.stderr)
        return 2


def check(job: Check) -> int:
    """Verify every claim of the thread; the exit status of the worst outcome."""
    from verifier import exitcodes
    from verifier.kernel import KernelError, variant_images
    from verifier.pipeline import BackendError

    if job.tree and job.settings.runner != "vm":
        raise CheckError("--tree builds kernels for --runner vm")
    try:
        backend_for(job.settings).close()  # bad options say so before the thread is fetched
    except ValueError as e:
        raise CheckError(str(e)) from None
    source, messages = thread_of(job.target, job.inbox)
    try:
        specs = [s for s in thread_specs(messages) if not job.spec_id or s.id == job.spec_id]
    except ValueError as e:  # a message the extractor cannot read
        raise CheckError(str(e)) from None
    if not specs:
        print(f"verifier check: no performance claim to check in {job.target}",
              file=sys.stderr)
        return exitcodes.OK
    try:
        job.out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CheckError(f"cannot use {job.out}: {e.strerror}") from None
    built, blocked = None, None
    if job.tree:
        try:
            built, blocked = _kernels(job, source, messages, specs)
        except (KernelError, OSError) as e:
            raise CheckError(str(e)) from None
    codes = []
    for spec in specs:
        print(f"verifier check: {spec.id} on {job.settings.runner}...", file=sys.stderr)
        settings = job.settings
        if built is not None:
            images = variant_images(spec, built)
            settings = replace(settings, kernels=[f"{v}={p}" for v, p in images.items()])
        try:
            with backend_for(settings) as backend:
                res = verify(spec, backend, blocked=blocked)
        except (ValueError, BackendError) as e:  # bad --hosts, the lab unreachable, ...
            raise CheckError(str(e)) from None
        if built is not None:
            res.environment["series"] = built.summary()
        _write(job, spec, res, messages)
        codes.append(exitcodes.for_results(res.status, res.verdicts))
    return exitcodes.worst(codes)
