"""The one sysctl policy: which keys a mail may set without a person's approval.

A sysctl is safe to set from a stranger's mail only when the change stays inside the
runner's own test hosts.  On the netns runner that means the key must be *per network
namespace*: the kernel keeps a copy per namespace and the runner deletes the namespace
afterwards.  Everything else is host-global and needs `--approve` on every runner:

- `vm.*`, `kernel.*`, `fs.*`, `dev.*`, `user.*`, ... are never per network namespace
  (`vm.swappiness` written "inside" a namespace is the host's);
- some `net.*` keys are global too: the kernel registers them for the initial namespace
  only (`net.core.netdev_budget`, `net.ipv4.tcp_mem`, ...).  `HOST_NET` lists them as
  measured on Linux 6.18 (the keys /proc/sys/net shows on the host but not in a fresh
  namespace); tests/runners/test_sysctl_policy.py re-measures the list on the running kernel.

A few keys name a program the kernel runs as root or stop the machine; no approval makes
them a benchmark setting (`NEVER`).  Used by claims.safety (the spec check) and by
runners.actions (right before the write), so the two can never disagree again.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Scope = Literal["netns", "host"]

PART = re.compile(r"^[A-Za-z0-9_@:\-]{1,64}$")

# net.* keys the kernel keeps once for the whole host (init_net only), Linux 6.18.
HOST_NET = frozenset("""
net.core.bpf_jit_enable net.core.bpf_jit_harden net.core.bpf_jit_kallsyms
net.core.bpf_jit_limit net.core.busy_poll net.core.busy_read net.core.default_qdisc
net.core.dev_weight net.core.dev_weight_rx_bias net.core.dev_weight_tx_bias
net.core.devconf_inherit_init_net net.core.fb_tunnels_only_for_init_net
net.core.flow_limit_cpu_bitmap net.core.flow_limit_table_len net.core.gro_normal_batch
net.core.high_order_alloc_disable net.core.max_skb_frags net.core.mem_pcpu_rsv
net.core.message_burst net.core.message_cost net.core.netdev_budget
net.core.netdev_budget_usecs net.core.netdev_max_backlog net.core.netdev_rss_key
net.core.netdev_tstamp_prequeue net.core.netdev_unregister_timeout_secs
net.core.rps_sock_flow_entries net.core.skb_defer_max net.core.warnings
net.ipv4.cipso_cache_bucket_size net.ipv4.cipso_cache_enable net.ipv4.cipso_rbm_optfmt
net.ipv4.cipso_rbm_strictvalid net.ipv4.fib_sync_mem net.ipv4.inet_peer_maxttl
net.ipv4.inet_peer_minttl net.ipv4.inet_peer_threshold net.ipv4.ipfrag_secret_interval
net.ipv4.tcp_available_ulp net.ipv4.tcp_low_latency net.ipv4.tcp_max_orphans
net.ipv4.tcp_mem net.ipv4.udp_mem net.ipv6.calipso_cache_bucket_size
net.ipv6.calipso_cache_enable net.ipv6.ip6frag_secret_interval net.ipv6.mld_max_msf
net.ipv6.mld_qrv net.netfilter.nf_log_all_netns net.nf_conntrack_max
net.ipv4.route.error_burst net.ipv4.route.error_cost net.ipv4.route.gc_elasticity
net.ipv4.route.gc_interval net.ipv4.route.gc_min_interval net.ipv4.route.gc_min_interval_ms
net.ipv4.route.gc_thresh net.ipv4.route.gc_timeout net.ipv4.route.max_size
net.ipv4.route.redirect_load net.ipv4.route.redirect_number net.ipv4.route.redirect_silence
""".split())

# Keys that make the kernel run a program, hand out privileges or stop the machine.
NEVER = re.compile(r"^(kernel\.(core_pattern|modprobe|poweroff_cmd|hotplug|usermodehelper\..*|"
                   r"panic.*|sysrq|kexec_load_disabled|ctrl-alt-del|cad_pid|"
                   r"unprivileged_bpf_disabled|kptr_restrict|dmesg_restrict|yama\..*|"
                   r"randomize_va_space|perf_event_paranoid|hung_task_panic|softlockup_panic|"
                   r"hardlockup_panic|unknown_nmi_panic)|"
                   r"vm\.(panic_on_oom|mmap_min_addr)|"
                   r"fs\.(suid_dumpable|protected_.*|binfmt_misc\..*))$")


@dataclass(frozen=True)
class Ruling:
    """What the policy says about one key: its scope and whether/why it is held back."""

    key: str  # dotted, as `sysctl -w` takes it
    scope: Scope
    level: Literal["ok", "needs-approval", "refused"]
    reason: str = ""


def normalize(key: str) -> str | None:
    """The dotted name of `key` (`net/ipv4/tcp_rmem` or `/proc/sys/net/...` too), or None
    when it is not a plain sysctl name (traversal, empty parts, odd characters)."""
    key = key.strip()
    if key.startswith("/proc/sys/"):
        key = key[len("/proc/sys/"):]
    parts = key.split("/") if "/" in key else key.split(".")
    if not all(PART.match(p) for p in parts) or not parts[0].islower():
        return None
    return ".".join(parts)


def scope(key: str) -> Scope:
    """"netns" when the kernel keeps `key` per network namespace, else "host"."""
    if not key.startswith("net."):
        return "host"
    if key in HOST_NET:
        return "host"
    return "netns"


def rule(key: str, runner: str | None = None) -> Ruling:
    """The policy's ruling for one sysctl key (dotted or a /proc/sys path).

    `runner` is the runner kind when known: on the local runner even a per-namespace key
    is set in this host's own namespace, so it needs approval there too (the spec check,
    which knows no runner, lets it through; the runner asks again before writing)."""
    name = normalize(key)
    if name is None:
        return Ruling(key, "host", "refused", f"{key!r} is not a sysctl name")
    where = scope(name)
    if NEVER.match(name):
        return Ruling(name, where, "refused",
                      f"sysctl {name} runs programs, changes privileges or stops the machine")
    if where == "host":
        return Ruling(name, where, "needs-approval",
                      f"sysctl {name} is host-global (not per network namespace)")
    if runner == "local":
        return Ruling(name, where, "needs-approval",
                      f"sysctl {name} would be set in this host's own namespace (local runner)")
    return Ruling(name, where, "ok")


def proc_path(key: str) -> str:
    """/proc/sys/... for a normalized dotted key (per-device parts are names, never dots)."""
    return "/proc/sys/" + key.replace(".", "/")
