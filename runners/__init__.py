"""runners: where a spec runs, and what a run records.  It reads specs from claims and
never reads mail.

The face of the package, what verifier/ may call: the runners (`LocalRunner`,
`NetnsRunner` with its `Netem`, `SshRunner`, `VmRunner`, `FleetRunner`), their base
(`Runner`, `RunnerError`), making one (`make_runner`, `KINDS`, `check_options`: runners.factory is the only place a
host runner is built), running a spec (`run_batch`, `new_results`, `settle_failed`; `execute` is
runners.execute.execute, the name of its module) into `Results` of `RunRecord`s (and `Verdict` rows with their `MeasuredEffect` and
`ArithProblem`s), the fleet host's side (`probe_tags`, `worker_resources`, ...),
and clean-up (`kill_all`, `sweep`).  The modules behind these names stay importable.

Layers import one way: verifier -> runners -> claims (tests/test_layers.py): runners
imports claims, never verifier.  Each name is imported on first use (claims.lazy), so
`import runners` starts no dask, ssh or VM tooling.
"""
from __future__ import annotations

from claims.lazy import TYPE_CHECKING, face

__all__ = [
    "Runner", "RunnerError", "LocalRunner", "Netem", "NetnsRunner", "SshRunner", "VmRunner",
    "parse_kernels", "FleetRunner", "FleetError", "parse_tags", "probe_tags",
    "scheduler_host", "security_from", "worker_resources", "new_results", "run_batch", "settle_failed",
    "KINDS", "check_options", "make_runner", "Results", "RunRecord", "Verdict", "VerdictKind",
    "MeasuredEffect", "ArithProblem", "RunStatus", "FailureKind", "RESULTS_VERSION", "kill_all", "sweep",
]
__getattr__ = face(__name__, __file__)

if TYPE_CHECKING:  # what the face offers; imported on first use (claims.lazy)
    from runners.base import Runner, RunnerError
    from runners.execute import new_results, run_batch, settle_failed
    from runners.factory import KINDS, check_options, make_runner
    from runners.fleet import FleetRunner
    from runners.fleet_host import (
        FleetError,
        parse_tags,
        probe_tags,
        scheduler_host,
        security_from,
        worker_resources,
    )
    from runners.hygiene import sweep
    from runners.local import LocalRunner
    from runners.netns import Netem, NetnsRunner
    from runners.process import kill_all
    from runners.results import (
        RESULTS_VERSION,
        ArithProblem,
        FailureKind,
        MeasuredEffect,
        Results,
        RunRecord,
        RunStatus,
        Verdict,
        VerdictKind,
    )
    from runners.ssh import SshRunner
    from runners.vm import VmRunner, parse_kernels
