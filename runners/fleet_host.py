"""The test-host side of the fleet: what a host advertises, and how it runs one repetition.

A fleet worker is a dask worker on a test machine.  It advertises its tags (NIC, driver,
CPU, kernel, tools present, plus the operator's own) as dask resources, so the scheduler
only sends a run to hosts that have what the spec needs, and it holds a `bench=1`
resource every run consumes, so a host never runs two benchmarks at once.

A run arrives as a serialised spec: the host trusts nothing the controller says, so it
re-validates the spec with the same checks as the local runner before anything starts.
"""
from __future__ import annotations

import os
import platform
import re
import shutil
import socket
import time
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from claims import spec as spec_mod
from claims.tools import Refused, tool_for_program, tool_programs
from runners.results import RunRecord

BENCH = "bench"  # every host has 1; every run takes 1: one benchmark per host at a time
_TAG_RE = re.compile(r"^[A-Za-z0-9_.:+\-]+(=[A-Za-z0-9_.:+\-/]+)?$")


def known_programs() -> list[str]:
    """The programs a host advertises when they are on its PATH (`tool:netperf`): every one
    a tool description names, servers included, so a spec of any described tool finds a
    host that has its program."""
    return sorted({prog for prog, _, _ in tool_programs()})


class FleetError(Exception):
    """A fleet problem the user can act on; the CLI prints it as one line."""


def host_resource(name: str) -> str:
    """The resource only host `name` has: runs pinned to one host require it."""
    return f"host-{name}"


def parse_tags(text: str | None) -> list[str]:
    """`nic=mlx5,cpu=icelake,pair` -> ['nic=mlx5', 'cpu=icelake', 'pair'] (checked)."""
    tags = [t.strip() for t in (text or "").split(",") if t.strip()]
    for t in tags:
        if not _TAG_RE.match(t):
            raise FleetError(f"bad tag {t!r}: use key=value or a word of letters, digits, _.:+-")
    return tags


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9.+]+", "-", text.lower()).strip("-")[:60]


def probe_tags() -> list[str]:
    """What this machine has, found rather than typed: kernel, arch, CPU model, NIC drivers,
    benchmark tools on PATH."""
    tags = [f"kernel={platform.release()}", f"arch={platform.machine()}",
            f"cpus={os.cpu_count() or 1}"]
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                tags.append("cpu-model=" + _slug(line.split(":", 1)[1]))
                break
    except OSError:
        pass
    drivers: set[str] = set()
    for dev in sorted(Path("/sys/class/net").glob("*")):
        drv = dev / "device" / "driver"
        if drv.exists():
            drivers.add(os.path.basename(os.path.realpath(drv)))
    tags += [f"driver={d}" for d in sorted(drivers)]
    tags += [f"tool:{p}" for p in known_programs() if shutil.which(p)]
    return [t for t in tags if _TAG_RE.match(t)]


def worker_resources(host_name: str, tags: list[str]) -> dict[str, float]:
    """Tags as dask resources (each 1): a run requiring them can only go where they are."""
    res = {t: 1.0 for t in tags}
    res[BENCH] = 1.0
    res[host_resource(host_name)] = 1.0
    return res


def security_from(ca: str | None, cert: str | None, key: str | None, role: str) -> Any:
    """A dask Security requiring encryption when TLS files are given, else None;
    `role` is "worker" or "client" (the parts of Security that hold the certificate)."""
    if not (ca or cert or key):
        return None
    if not (ca and cert and key):
        raise FleetError("TLS needs all of --tls-ca, --tls-cert and --tls-key")
    for path in (ca, cert, key):
        try:
            open(path).close()
        except OSError as e:
            raise FleetError(f"cannot read {path}: {e.strerror}") from None
    from distributed.security import Security

    return Security(require_encryption=True, tls_ca_file=ca,
                    **{f"tls_{role}_cert": cert, f"tls_{role}_key": key})


# ---------------------------------------------------------------------------------------
# Specs travel as dicts; the host rebuilds and re-checks them.

def spec_from_dict(data: Any) -> spec_mod.Spec:
    """Rebuild the spec through its schema: the host checks what it was sent."""
    if not isinstance(data, dict):
        raise FleetError("the spec sent to this host is not a mapping")
    try:
        return spec_mod.Spec.from_dict(data, "fleet spec")
    except spec_mod.SpecError as e:
        raise FleetError(e.problems[0] if e.problems else "invalid spec") from None


def validate_spec(spec: spec_mod.Spec, approve: bool = False) -> None:
    """The local runner's checks: claims.safety, and the benchmark argv
    through its tool description (runners.execute.prepare checks the rest, setup steps
    and the rewritten argv, on the host).  Raises Refused with the reason."""
    from claims.safety import check_spec

    problems = check_spec(spec, approve=approve)
    if problems:
        raise Refused(str(problems[0]))
    bench = spec.benchmark
    tool = tool_for_program(bench.argv[0]) if bench.argv else None
    if tool is None:
        raise Refused(f"no tool description accepts {bench.argv[:1]}")
    tool.parse_args(bench.argv)


# ---------------------------------------------------------------------------------------
# Running one repetition on this host

@dataclass
class HostConfig:
    """How this worker runs things, set once by `verifier worker`."""

    name: str = field(default_factory=socket.gethostname)
    runner: str = "local"  # local | netns | ssh
    ssh_hosts: dict[str, str] = field(default_factory=dict)  # role -> ssh destination
    ssh_config: str | None = None

    def pair_tags(self) -> list[str]:
        """A two-machine pair is this one worker: say which server host it holds."""
        server = self.ssh_hosts.get("server")
        if self.runner == "ssh" and server and server != self.ssh_hosts.get("client"):
            return [f"pair={server}"]
        return []


CONFIG = HostConfig()


def _record_fields(rec: dict[str, Any]) -> dict[str, Any]:
    names = {f.name for f in fields(RunRecord)}
    return {k: v for k, v in rec.items() if k in names}


def _make_runner() -> Any:
    """This host's runner, as `verifier worker` configured it (namespaces prefixed "flt")."""
    from runners.factory import make_runner

    return make_runner(CONFIG.runner, prefix="flt", hosts=CONFIG.ssh_hosts,
                       ssh_config=CONFIG.ssh_config)


def run_here(spec: spec_mod.Spec, variant: str, index: int, warmup: bool,
             batch: int, approve: bool = False) -> RunRecord:
    """One repetition on this host's own runner, exactly as `verifier run` would do it:
    a fresh runner per run, so every setting is undone and every server stopped after it."""
    from runners.execute import NotRunnable, prepare, run_once

    by_name = {v.name: v for v in spec.variants}
    with _make_runner() as runner:
        try:
            prep = prepare(spec, runner, approve=approve)
        except NotRunnable as e:
            raise Refused(str(e).removeprefix("refused: ")) from None
        return run_once(spec, runner, prep, by_name[variant], index, warmup, batch)


def execute_run(spec_data: dict[str, Any], variant: str, index: int, warmup: bool,
                batch: int, host: str, approve: bool = False) -> dict[str, Any]:
    """Re-validate and run one repetition here; always returns a RunRecord dict.

    `approve` is a person's `--approve` given on the controller (TLS authenticates it in
    the lab); the spec's own `approved` flags are not trusted, as on the local runner."""
    started = time.time()
    try:
        spec = spec_from_dict(spec_data)
        if variant not in {v.name for v in spec.variants}:
            raise Refused(f"no variant {variant!r} in spec {spec.id}")
        validate_spec(spec, approve)
        rec = run_here(spec, variant, index, warmup, batch, approve)
    except (Refused, FleetError) as e:
        rec = RunRecord(variant=variant, index=index, warmup=warmup, ok=False,
                        error=f"refused on {host}: {e}", started=started, ended=time.time())
    except Exception as e:  # a host fault is a failed run, recorded, never a lost sample
        rec = RunRecord(variant=variant, index=index, warmup=warmup, ok=False,
                        error=f"{type(e).__name__} on {host}: {e}", started=started,
                        ended=time.time())
    rec.host, rec.batch = host, batch
    return _record_fields(asdict(rec))


def scheduler_host(address: str) -> str:
    """'tcp://10.0.0.1:8786' -> '10.0.0.1'; FleetError for anything but tcp:// or tls://
    HOST:PORT (`bogus://` was a traceback)."""
    m = re.fullmatch(r"(tcp|tls)://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})/?", address)
    if not m or not 0 < int(m.group(3)) < 65536:
        raise FleetError(f"bad scheduler address {address[:80]!r} (want tcp://HOST:PORT or "
                         "tls://HOST:PORT)")
    return m.group(2).strip("[]")
