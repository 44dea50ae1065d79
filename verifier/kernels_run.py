"""`verifier kernels`: build the base and the patched kernel of a series (verifier.kernel)
in a scratch worktree and print them as `--kernel VARIANT=IMAGE` arguments or JSON."""
from __future__ import annotations

import json
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path


@dataclass
class KernelsJob:
    """What `verifier kernels` was asked to do."""

    msgid: str
    tree: str  # the person's kernel git repository (read only)
    mbox: str | None = None  # the series from this mbox instead of the inbox
    inbox: str | None = None
    base: str | None = None  # overrides the thread's base
    subject: str | None = None  # names the tree (net, net-next)
    config: str | None = None  # an extra kernel config fragment file
    jobs: int | None = None
    format: str = "args"  # args | json


def kernels(job: KernelsJob) -> int:
    """0 with the images printed; 4 when the series does not apply, 2 on other failures."""
    from verifier.kernel import (
        CONFIG_FRAGMENT,
        KernelError,
        NotApplicable,
        kernels_for,
        midmask_for,
    )

    try:
        config = CONFIG_FRAGMENT
        if job.config:
            config += Path(job.config).read_text()
        with tempfile.TemporaryDirectory(prefix="verifier-kernels-") as work:
            k = kernels_for(job.msgid, Path(job.tree).expanduser(), Path(work),
                            mbox=Path(job.mbox) if job.mbox else None,
                            midmask=midmask_for(job.inbox), subject=job.subject,
                            base=job.base, config=config, jobs=job.jobs)
    except NotApplicable as e:
        print(f"verifier kernels: not runnable: {e}", file=sys.stderr)
        return 4
    except (KernelError, OSError) as e:
        print(f"verifier kernels: {e}", file=sys.stderr)
        return 2
    if job.format == "json":
        print(json.dumps({"base": k.base_sha, "base_why": k.base_why,
                          "images": {v: str(p) for v, p in k.images.items()}}))
    else:
        print(" ".join(k.kernel_args()))
    return 0
