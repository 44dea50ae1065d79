"""Specs the runner tests share: seed 001 (netperf TCP_RR, gro_flush_timeout 0 vs 2000 on
both hosts) and the corpus iperf3 claim d007, built directly as Spec objects."""
from __future__ import annotations

import os
import subprocess
import time

from claims.spec import Action, Command, Metric, RunPlan, Spec, Variant

SEED001_CMD = "./netperf -H lpaa6 -t TCP_RR -l 20 -Cc -- -r 40000,40000"


def gro(value: str, attr: str = "gro_flush_timeout") -> list[Action]:
    return [Action(kind="sysfs", key=f"/sys/class/net/eth0/{attr}", value=value,
                   device="eth0", raw=f"echo {value} >/sys/class/net/eth0/{attr}")]


def seed001(duration: float = 1, reps: int = 2, values: tuple[str, str] = ("0", "2000"),
            attr: str = "gro_flush_timeout") -> Spec:
    """Seed 001's command and variants; `attr` swaps the knob for tests of the runner's
    mechanics (kill, restore), since gro_flush_timeout cannot act on lo or in TCP_RR on
    veth (runners.effect) and such a run ends NOT RUNNABLE HERE after the warm-up."""
    argv = SEED001_CMD.split()
    argv[0] = "netperf"
    return Spec(
        id="seed001-gro-flush", benchmark=Command(tool="netperf", argv=argv,
                                                  original=SEED001_CMD),
        variants=[Variant("baseline", f"{attr}={values[0]}", gro(values[0], attr)),
                  Variant("candidate", f"{attr}={values[1]}", gro(values[1], attr))],
        metrics=[Metric("transaction_rate", unit="trans/s", better="higher",
                        baseline=9023.86, candidate=8651.26)],
        run=RunPlan(repetitions=reps, duration=duration, seed=7))


def seed001_paced(duration: float = 1, reps: int = 2) -> Spec:
    """Seed 001 on a paced link (tbf 1gbit, GSO off, in both variants): segments arrive one
    per NAPI poll and GRO holds them, so gro_flush_timeout acts (runners.effect sees its
    timer armed in the candidate's runs)."""
    spec = seed001(duration=duration, reps=reps, values=("0", "2000"))
    for v in spec.variants:
        v.setup[:0] = [Action(kind="tc", device="eth0", args=["qdisc", "replace", "dev", "eth0",
                                                              "root", "tbf", "rate", "1gbit",
                                                              "burst", "16k", "latency", "10ms"]),
                       Action(kind="ethtool", key="features", device="eth0",
                              settings={"gso": "off"})]
    return spec


def iperf3_d007(duration: float = 1, reps: int = 1) -> Spec:
    return Spec(
        id="d007-iperf3", benchmark=Command(tool="iperf3", argv=["iperf3", "-c", "192.168.1.2"]),
        variants=[Variant("baseline"), Variant("candidate")],
        metrics=[Metric("sender_bitrate", unit="Mbits/sec", better="higher",
                        baseline=153, candidate=778)],
        run=RunPlan(repetitions=reps, duration=duration, seed=3))


def iperf2(duration: float = 1, reps: int = 1) -> Spec:
    return Spec(
        id="iperf2-p4", benchmark=Command(tool="iperf2", argv=["iperf", "-c", "server", "-P", "4"],
                                          original="iperf -c $peer -P 4",
                                          bindings={"$peer": "server"}),
        variants=[Variant("baseline"), Variant("candidate")],
        metrics=[Metric("bandwidth", better="higher")],
        run=RunPlan(repetitions=reps, duration=duration, seed=5))


def netns_names() -> set[str]:
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    return {ln.split()[0] for ln in out.splitlines() if ln.strip()}


def pid_alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


def children(ppid: int) -> list[int]:
    """Direct children of `ppid` (the servers and clients `verifier run` spawned)."""
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == ppid:
                out.append(int(d))
    return out


def wait_for(cond, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = cond()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError("condition not reached")


def stop(proc: subprocess.Popen) -> None:
    """A failed test must not leak: SIGTERM lets the run clean up; SIGKILL only after."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def descendants(root: int) -> list[int]:
    """Every live process below `root` (sshd's sessions and what they started)."""
    out, todo = [], [root]
    while todo:
        kids = children(todo.pop())
        out += kids
        todo += kids
    return out


def comm(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return ""
