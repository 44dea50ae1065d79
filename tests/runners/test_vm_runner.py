"""The vm runner with real virtme-ng and qemu.

Debian's own kernel (linux-image-amd64) is booted; on this machine KVM does not work, so
the guest runs under TCG (VERIFIER_VM_ACCEL=tcg skips the KVM probe boot): these tests
check plumbing (boot, the two namespaces inside the guest, iperf3 from the host's root file
system, results and cleanup), not speed.  A boot takes 1-4 minutes under TCG, so the end
to end run is marked slow; the failure paths (an image that is not a kernel, the boot
watchdog) are quick.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from runners.base import RunnerError
from runners.vm import VmRunner, host_image, parse_kernels

IMAGE = sorted(Path("/boot").glob("vmlinuz-*"))
pytestmark = pytest.mark.skipif(not IMAGE or shutil.which("vng") is None
                                or shutil.which("qemu-system-x86_64") is None,
                                reason="needs vng, qemu and a /boot/vmlinuz-*")


@pytest.fixture(autouse=True)
def _tcg(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFIER_VM_ACCEL", "tcg")


def test_parse_kernels(tmp_path: Path) -> None:
    img = tmp_path / "bzImage"
    img.write_bytes(b"x")
    assert parse_kernels([f"candidate={img}"]) == {"candidate": str(img)}
    with pytest.raises(ValueError, match="not VARIANT=IMAGE"):
        parse_kernels(["candidate"])
    with pytest.raises(ValueError, match="no kernel image"):
        parse_kernels([f"baseline={tmp_path / 'missing'}"])
    assert host_image() is not None


def test_an_image_that_is_not_a_kernel_fails_with_the_console_tail(tmp_path: Path) -> None:
    bogus = tmp_path / "vmlinuz-bogus"
    bogus.write_bytes(b"not a kernel\n" * 512)
    r = VmRunner({"baseline": str(bogus)}, boot_timeout=120)
    with pytest.raises(RunnerError, match="did not boot") as e:
        with r:
            pass
    assert "vng exited" in str(e.value) and "console tail:" in str(e.value)
    g = next(iter(r.guests.values()))
    assert g.proc is not None and g.proc.poll() is not None and not g.dir.exists()


def test_boot_watchdog_kills_the_guest(tmp_path: Path) -> None:
    r = VmRunner(default_image=str(IMAGE[-1]), boot_timeout=8)
    with pytest.raises(RunnerError, match=r"no answer after 8 s \(watchdog\)"):
        r.setup()
    g = next(iter(r.guests.values()))
    assert g.proc is not None and g.proc.poll() is not None  # vng and qemu are gone
    r.close()
    assert not g.dir.exists()


def test_a_variant_that_needs_a_build_is_refused_clearly() -> None:
    from claims.spec import Kernel, Variant

    r = VmRunner(default_image=str(IMAGE[-1]))
    with pytest.raises(RunnerError, match="needs the series"):
        r.image_for(Variant("candidate", kernel=Kernel(base="net-next", series="x@y")))
    assert r.image_for(Variant("baseline")) == str(IMAGE[-1])


def test_cli_bad_kernel_is_a_one_line_error(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("not: a spec\n")
    r = subprocess.run([sys.executable, "-m", "verifier", "run", str(spec), "--runner", "vm",
                        "--kernel", "baseline"], capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_iperf3_between_two_namespaces_inside_a_tcg_guest() -> None:
    """End to end: the d007 iperf3 spec through runners.execute on the vm runner, both
    variants on Debian's kernel (one boot), 1-second runs; then the guest is crashed."""
    from runners.execute import execute
    from tests.runner_specs import iperf3_d007

    image = str(IMAGE[-1])
    spec = iperf3_d007(duration=1, reps=1)
    spec.run.warmup = 0
    runner = VmRunner({"baseline": image, "candidate": image})
    with runner:
        res = execute(spec, runner)
        guest = next(iter(runner.guests.values()))
        # A kernel panic in the guest (sysrq crash; test code, not a mail's command) is a
        # RunnerError naming the panic with the console tail, not a hang.
        with pytest.raises(RunnerError, match="kernel panic") as crash:
            runner.run("client", ["sh", "-c", "echo c > /proc/sysrq-trigger"], 30)
        assert "sysrq" in str(crash.value) and "console tail" in str(crash.value)
    assert res.status == "complete", res.reason
    counted = [r for r in res.runs if not r.warmup]
    assert len(counted) == 2 and all(r.ok for r in counted), [r.error for r in counted]
    assert all(r.samples.get("sender_bitrate", 0) > 0 for r in counted)
    assert all("10.231.0.2" in r.argv for r in counted)
    env = res.environment
    assert env["runner"] == "vm" and env["emulated"] is True and env["accelerator"] == "tcg"
    assert "not valid for performance" in env["note"]
    assert env["kernels"] == {"baseline": image, "candidate": image}
    assert env["guests"][image]["kernel"] == Path(image).name.removeprefix("vmlinuz-")
    assert env["hosts"]["client"]["kernel"].startswith(env["guests"][image]["kernel"])
    assert guest.proc is not None and guest.proc.poll() is not None  # powered off
    assert not guest.dir.exists()


def test_cli_makes_a_vm_runner_from_kernel_arguments() -> None:
    from verifier.pipeline import RunSettings, backend_for

    backend = backend_for(RunSettings(runner="vm", kernels=[f"baseline={IMAGE[-1]}",
                                                            f"candidate={IMAGE[-1]}"]))
    r = backend.prepare_runner()
    assert isinstance(r, VmRunner) and r.kind == "vm" and "kernel" in r.offers
    assert r.kernels == {"baseline": str(IMAGE[-1].resolve()),
                         "candidate": str(IMAGE[-1].resolve())}
    r.close()  # never set up: nothing booted, nothing to remove
    assert not r.guests


def test_guest_agent_protocol_on_the_host() -> None:
    """The agent the guest runs, run on this host instead (a random namespace prefix keeps
    it apart): requests and answers through the channel, iperf3 between its namespaces,
    refused requests answered as errors, namespaces gone after shutdown."""
    import secrets
    import time

    from runners.vm import REPO, Guest, VmHandle

    prefix = f"vt{secrets.token_hex(3)}"
    g = Guest(str(IMAGE[-1]), "tcg", 1, "1G", 30, "host-agent")
    g.proc = subprocess.Popen([sys.executable, "-S", "-m", "runners.guest", str(g.chan), prefix],
                              cwd=REPO, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while not (g.chan / "ready.json").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert (g.chan / "ready.json").exists()
        out = g.request({"op": "run", "role": "client", "argv": ["ip", "-br", "addr"],
                         "timeout": 10}, 20)
        assert out["returncode"] == 0 and "10.231.0.1/24" in out["stdout"]
        srv = VmHandle(g, g.request({"op": "start", "role": "server",
                                     "argv": ["iperf3", "-s", "-p", "5399"]}, 20)["id"])
        time.sleep(0.5)
        assert srv.alive()
        out = g.request({"op": "run", "role": "client", "timeout": 20,
                         "argv": ["iperf3", "-c", "10.231.0.2", "-p", "5399", "-t", "1"]}, 30)
        assert out["returncode"] == 0 and "sender" in out["stdout"]
        srv.stop()
        assert not srv.alive()
        with pytest.raises(RunnerError, match="guest agent: ValueError"):
            g.request({"op": "run", "role": "client", "argv": "ls /", "timeout": 5}, 10)
        with pytest.raises(RunnerError, match="no role"):
            g.request({"op": "run", "role": "router", "argv": ["true"], "timeout": 5}, 10)
    finally:
        g.shutdown()
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    assert prefix not in listed
    assert g.proc.poll() is not None and not g.dir.exists()
