"""Normalising: a body a page flattened onto one line is cut back into lines, and read."""
from __future__ import annotations

from claims.normalise import FLAT_MIN, normalise_line, unflatten
from tests.extractkit import pairs

_BANNER = ("MIGRATED UDP REQUEST/RESPONSE TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 192.168.7.2 "
           "(192.168.7.2) port 0 AF_INET Local /Remote Socket Size Request Resp. Elapsed Trans. "
           "Send Recv Size Size Time Rate bytes Bytes bytes bytes secs. per sec")
FLAT = ("Move the ring index update out of the loop so the cache line stays put. "
        "Signed-off-by: Some One <some at example.org> --- Measured with UDP_RR between two hosts. "
        f"Without the change: {_BANNER} 212992 212992 1 1 30.00 41302.77 "
        f"With the change: {_BANNER} 212992 212992 1 1 30.00 45118.06 "
        "net/core/ring.c | 12 ++++++------ 1 file changed, 6 insertions(+), 6 deletions(-)")


def test_a_flattened_body_is_cut_where_its_lines_ended() -> None:
    got = unflatten(FLAT)
    assert "Without the change:" in got and "With the change:" in got
    assert "212992 212992 1 1 30.00 41302.77" in got and "212992 212992 1 1 30.00 45118.06" in got
    assert got[-1].startswith("1 file changed")
    assert " ".join(got).split() == FLAT.split()  # nothing lost, nothing added


def test_the_pair_of_a_flattened_page_is_read() -> None:
    text = "From: Some One <some@example.org>\nSubject: [PATCH] ring: update the index once\n\n" + FLAT + "\n"
    assert pairs(text) == [(41302.77, 45118.06)]


def test_short_lines_and_long_lines_without_structure_stay_whole() -> None:
    line = "Before: 12.5 Gbit/s, after: 14.1 Gbit/s"
    assert unflatten(line) == [line]
    boot = " ".join(f"opt{k}=value{k}" for k in range(60))  # a long kernel command line
    assert len(boot) >= FLAT_MIN and unflatten(boot) == [boot]


def test_a_flattened_kernel_command_line_gives_no_pair() -> None:
    text = ("From: robot <lkp@example.org>\nSubject: boot failure\n\n"
            "Command line: ip=::::vm-host-7::dhcp root=/dev/ram0 user=lkp job=/lkp/jobs/boot-1.yaml "
            "ARCH=x86_64 kconfig=x86_64-lkp branch=devel-hourly-2020050609 commit=e5a6f186afc353e44 "
            "BOOT_IMAGE=/pkg/linux/vmlinuz-5.7.0-rc2-00092 max_uptime=600 RESULT_ROOT=/result/boot/1 "
            "LKP_SERVER=inn selinux=0 debug apic=debug sysrq_always_enabled rcu_cpu_stall_timeout=100 "
            "net.ifnames=0 printk.devkmsg=on panic=-1 softlockup_panic=1 nmi_watchdog=panic "
            "oops=panic load_ramdisk=2 prompt_ramdisk=0 drbd.minor_count=8 Kernel panic - not syncing: 1 2 3\n")
    assert pairs(text) == []


def test_box_drawing_maps_one_character_for_one() -> None:
    row = "│ 64   │ 1.25 ┼ 2.50 │"
    assert normalise_line(row) == "| 64   | 1.25 + 2.50 |"
