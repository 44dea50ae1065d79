"""The command model (claims/commands.py over claims/shell.py): compound and wrapped lines,
wrappers and their option arities, the program found anywhere in argv, labels and prompts
dropped, and programs without a tool description judged by the evidence around them.

Real inputs are lines as the labelled corpus and the shared archive print them (quoted,
wrapped by the mail client); invented ones are marked as such.  A property test feeds
shell-like noise and checks that command finding neither crashes nor hangs."""
from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claims.commands import find_commands
from claims.message import message_from_text
from claims.shell import invocation, pieces, split_words
from tests.extractkit import ex


def found(text: str):
    return find_commands(message_from_text(text).lines)


def raws(text: str) -> list[str]:
    return [" ".join(c.raw.split()) for c in found(text).commands]


# -- lines of real mail ------------------------------------------------------------------

def test_a_command_soft_wrapped_onto_option_lines_is_joined() -> None:
    """d106: fio wrapped by the mail client at ~76 columns, quoted two deep, no `\\`."""
    text = (">> million IOPs by just running a simple\n>>\n"
            ">> fio --filename=/dev/sda --direct=1 --rw=randrw --bs=4k --ioengine=libaio\n"
            ">> --iodepth=128  --numjobs=8 --time_based --group_reporting --name=iops\n"
            ">> --runtime=60 --eta-newline=1\n>>\n")
    assert raws(text) == ["fio --filename=/dev/sda --direct=1 --rw=randrw --bs=4k --ioengine=libaio "
                          "--iodepth=128 --numjobs=8 --time_based --group_reporting --name=iops "
                          "--runtime=60 --eta-newline=1"]


def test_wrappers_with_valued_options_and_a_perf_header_not_repeated() -> None:
    """d131: `--log-fd 1` takes a value; the perf header names the command run inside."""
    text = ("I used `perf stat` to take some numbers, running this command:\n\n"
            "   taskset -c 2 perf stat -r 10 --log-fd 1 -- ./virtio_test --batch=64\n\n"
            "- Linux v5.16 without the patch applied\n\n"
            " Performance counter stats for './virtio_test --batch=64' (10 runs):\n\n"
            "          2,791.70 msec task-clock                #    0.996 CPUs utilized\n")
    f = found(text)
    (c,) = f.commands
    assert c.raw == "taskset -c 2 perf stat -r 10 --log-fd 1 -- ./virtio_test --batch=64"
    assert c.argv == ["./virtio_test", "--batch=64"] and c.wrappers == ["taskset", "perf stat"]
    assert [s.kind for s in f.setup] == ["taskset"]
    assert any(ev.named_by_output for ev in f.events)  # the header is still an event


def test_a_perf_header_wrapped_by_the_mail_client() -> None:
    """d143: the header's quote closes on the next line."""
    text = (" Performance counter stats for 'nice -n -20 ./vringh_test_patched\n"
            "--parallel --eventidx --fast-vringh --indirect --virtio-1' (20 runs):\n\n"
            "          3,028.05 msec task-clock                #    0.995 CPUs\n")
    (c,) = found(text).commands
    assert c.raw == "nice -n -20 ./vringh_test_patched --parallel --eventidx --fast-vringh --indirect --virtio-1"
    assert c.argv[0] == "./vringh_test_patched" and c.wrappers == ["nice"]


def test_trailing_comment_and_prompts_with_hosts() -> None:
    """d127: `l1_vm$ ` prompts, a `# comment` after the command, `ip netns exec` in front."""
    text = ("l1_vm$ ./iperf3 --vsock -s # connection from l0 or guests started\n"
            "                           # on default netns (init_net)\n"
            "l1_vm$ ip netns exec ns1 ./iperf3 --vsock -s\n\nl0_host$ ./iperf3 --vsock -c 3\n")
    f = found(text)
    assert [(c.raw, c.host) for c in f.commands] == [
        ("./iperf3 --vsock -s", "l1_vm"), ("ip netns exec ns1 ./iperf3 --vsock -s", "l1_vm"),
        ("./iperf3 --vsock -c 3", "l0_host")]
    assert f.commands[1].wrappers == ["ip netns exec"] and f.commands[1].argv[0] == "./iperf3"


def test_the_output_file_a_command_line_ends_in_is_not_part_of_it() -> None:
    """d105: a quoted script's loop appends netperf's output to a file; the command reported
    (and re-run) is netperf's own, the `>> log` left out, as `2>&1` and `> /dev/null` are; a
    `<placeholder>` at the end stays."""
    text = ("> >      for s in $(seq 64 $inc $max)\n> >      do\n> >          echo >> log\n"
            "> >          netperf -H 192.168.122.202 -l 5 -t UDP_STREAM -- -m $s >> log\n"
            "> >      done\n\n"
            "$ sockperf ping-pong -i 10.0.0.2 -t 10 > out.txt 2>&1\n"
            "$ xdpsock -i eth0 -t -S -s <msg size>\n")
    assert raws(text) == ["netperf -H 192.168.122.202 -l 5 -t UDP_STREAM -- -m $s",
                          "sockperf ping-pong -i 10.0.0.2 -t 10", "xdpsock -i eth0 -t -S -s <msg size>"]


def test_own_program_with_placeholders_under_a_label_line() -> None:
    """d146: `./vsock_perf` has no tool description; `<buf size>` is one placeholder."""
    text = (">>> Sender:\n>>> ./vsock_perf --sender <CID> --buf-size <buf size> --bytes 60M [--zc]\n"
            ">>>\n>>> Receiver:\n>>> ./vsock_perf --vsk-size 256M\n")
    f = found(text)
    assert raws(text) == ["./vsock_perf --sender <CID> --buf-size <buf size> --bytes 60M [--zc]",
                          "./vsock_perf --vsk-size 256M"]
    assert "<buf size>" in f.commands[0].argv


def test_a_background_job_of_a_benchmark_named_program() -> None:
    """d121: `usemem ... &` in a narrated transcript; `cat | grep` beside it is an inspection."""
    text = ("> // After VM start, use usemem\n> usemem --punch-holes -s -1 800m &\n"
            "> // This is the THP number after this command in the host.\n"
            "> cat /proc/meminfo | grep AnonHugePages:\n> AnonHugePages:    911360 kB\n")
    assert raws(text) == ["usemem --punch-holes -s -1 800m"]


def test_a_label_before_the_command_on_the_same_line() -> None:
    """d145: "xmit command: sockperf tp ..."."""
    assert raws("xmit command: sockperf tp -i 10.0.3.1 -t 1000\n") == ["sockperf tp -i 10.0.3.1 -t 1000"]


def test_loops_keep_their_setup_and_their_benchmarks() -> None:
    """d018 (real): a sysfs loop is one setup step; an invented loop running netperf gives
    the netperf piece."""
    f = found("for i in /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor ; do echo performance > $i; done\n")
    assert [s.kind for s in f.setup] == ["sysfs"] and f.commands == []
    assert raws("for i in $(seq 1 8); do netperf -H peer -t TCP_RR -l 30 & done\n") == [
        "netperf -H peer -t TCP_RR -l 30"]


# -- invented shapes ---------------------------------------------------------------------

def test_readings_are_not_setup_steps() -> None:
    """Invented: `ethtool -S`, `tc -s qdisc show`, `ip -s link` read the system; the same
    tools with a setting or an action word set it up."""
    f = found("ethtool -S eth0 | grep drops\nethtool eth0\ntc -s qdisc show dev eth0\nip -s link show eth0\n"
              "ethtool -L eth0 combined 4\ntc qdisc replace dev eth0 root fq\nip link set eth0 up\n")
    assert [(s.kind, s.device) for s in f.setup] == [("ethtool", "eth0"), ("tc", "eth0"), ("ip", "eth0")]


def test_a_step_in_a_list_in_prose_or_annotated_ends_where_the_prose_starts() -> None:
    """Archive shapes, invented words: a step that is one item of a list in prose ends at
    its comma ("..., or"); a step the mail annotates ("// ...") ends before the note; and a
    sysctl line the mail client wrapped into prose ("sysctl -n a.b=1, ..) that assumes") is no
    step: sysctl reads keys and sets key=value, and other words are not its arguments."""
    f = found("To change only rx coalescing one runs\n    ethtool -C eth0 rx-usecs 10, or\n"
              "    ethtool -Q eth0 queue_mask 0x1 -C rx-usecs 12,\nand both fail.\n\n"
              "ethtool -C eth1 tx-frames 0 // turns tx interrupts off\n\n"
              "a separate path turns it off (bond enslave, xdp install,\n"
              "sysctl -n net.ipv4.ip_forward=1, ..) that assumes it can.\n\n"
              "sysctl -w net.core.busy_poll=50 net.core.busy_read=50\n")
    assert [(s.raw, s.device, s.value) for s in f.setup] == [
        ("ethtool -C eth0 rx-usecs 10", "eth0", "rx-usecs 10"),
        ("ethtool -Q eth0 queue_mask 0x1 -C rx-usecs 12", "eth0", "queue_mask 0x1 rx-usecs 12"),
        ("ethtool -C eth1 tx-frames 0", "eth1", "tx-frames 0"),
        ("sysctl -w net.core.busy_poll=50 net.core.busy_read=50", None, "50")]


def test_setup_behind_sudo_and_through_tee_stays_setup() -> None:
    """Invented: `echo 1 | sudo tee /sys/...` is one sysfs step (not split at the pipe);
    `sudo sysctl`/`sudo ethtool` are typed steps; `sudo ip ...` stays untyped (no step)."""
    f = found("echo 1 | sudo tee /sys/module/vhost_net/parameters/x\nsudo sysctl -w net.core.busy_poll=50\n"
              "$ sudo ethtool -K eth0 gro off; sudo netperf -H x -t TCP_RR\nsudo ip link set dev eth0 mtu 9000\n")
    assert [(s.kind, s.key, s.value) for s in f.setup] == [
        ("sysfs", "/sys/module/vhost_net/parameters/x", "1"), ("sysctl", "net.core.busy_poll", "50"),
        ("ethtool", "-K", "gro off")]
    assert [c.raw for c in f.commands] == ["sudo netperf -H x -t TCP_RR"]


def test_compound_lines_give_the_benchmark_pieces() -> None:
    """Invented: `a; b; c | d`, `setup && bench | tee`, redirections out of argv."""
    assert raws("$ nstat -n; ./super_netperf 300 -H peer2 -l 15; nstat | grep TcpInSegs\n") == [
        "./super_netperf 300 -H peer2 -l 15"]
    f = found("ethtool -K eth0 gro off && iperf3 -c peer -t 10 2>&1 | tee log.txt\n")
    assert [s.kind for s in f.setup] == ["ethtool"]
    (c,) = f.commands
    assert c.raw == "iperf3 -c peer -t 10" and c.argv == ["iperf3", "-c", "peer", "-t", "10"]


def test_two_commands_side_by_side_and_results_after_a_gap() -> None:
    """Invented: a tab gap before another program splits; before a number it ends the
    command (the number is its result)."""
    assert raws("./udp_rr -c -H $PEER -T2 -l20\t\t\t./udp_stream -c -H $PEER -T4 -l20\n") == [
        "./udp_rr -c -H $PEER -T2 -l20", "./udp_stream -c -H $PEER -T4 -l20"]
    f = found("sockperf pp -i 10.0.0.1 -t 10 -m 64\t\t12.345 usec\n")
    assert raws("sockperf pp -i 10.0.0.1 -t 10 -m 64\t\t12.345 usec\n") == ["sockperf pp -i 10.0.0.1 -t 10 -m 64"]
    assert f.events[0].prose_after  # the line's numbers stay readable as a claim


def test_wrappers_in_any_order_before_a_program_in_a_directory() -> None:
    """Invented: sudo, an env assignment, taskset, onload, then ./neper/tcp_rr; numactl's
    `-N 1` takes a value; a role label in front."""
    text = ("client:  taskset -c 1 sockperf tp -p 7000 -i $SRV -t 20 -m 64B\n"
            "numactl -N 1 ./xdp-bench redirect-cpu -c 7 -s eth2\n"
            "sudo LD_FOO=1 taskset -c 2-5 onload ./neper/tcp_rr -T 2 -F 20 -l 15\n"
            "timeout 60 chrt -f 50 netperf -H peer -t TCP_RR\n")
    f = found(text)
    assert [c.argv[0] for c in f.commands] == ["sockperf", "./xdp-bench", "./neper/tcp_rr", "netperf"]
    assert [c.tool for c in f.commands] == ["sockperf", "xdp-bench", "neper", "netperf"]
    assert f.commands[2].wrappers == ["sudo", "taskset", "onload"]
    assert f.commands[0].raw.startswith("taskset -c 1 sockperf")


def test_scripts_name_programs_by_variables_and_run_them_through_sh() -> None:
    """Invented: `$NETPERF -H ...` (the variable names the tool), `bash -c "..."`, and
    `sudo sh -c "echo ... > /sys/..."` as a setup step."""
    f = found('$NETPERF -H $host -t TCP_RR -l 60\n$PEER is the host\nbash -c "iperf3 -c peer -t 10"\n'
              'sudo sh -c "echo 1 > /sys/class/net/eth0/threaded"\n')
    assert [(c.raw, c.tool) for c in f.commands] == [("$NETPERF -H $host -t TCP_RR -l 60", "netperf"),
                                                     ('bash -c "iperf3 -c peer -t 10"', "iperf3")]
    assert [(s.kind, s.key, s.value) for s in f.setup] == [("sysfs", "/sys/class/net/eth0/threaded", "1")]


def test_ssh_runs_the_quoted_benchmark() -> None:
    """Invented: `ssh HOST "cmd"`: the benchmark is the quoted command."""
    (c,) = found('ssh -p 22 root@peer "netperf -H 10.0.0.1 -t TCP_STREAM -l 30"\n').commands
    assert c.argv == ["netperf", "-H", "10.0.0.1", "-t", "TCP_STREAM", "-l", "30"]
    assert c.wrappers == ["ssh"]


def test_a_bare_server_after_a_role_label_is_a_run_a_bare_tool_name_is_not() -> None:
    """Invented: `host A: netserver` runs the server the descriptions name; `Tool: netperf`
    only names a tool."""
    assert raws("host A: netserver\nhost B: netperf -H A -t TCP_RR\nTool: netperf\n") == [
        "netserver", "netperf -H A -t TCP_RR"]


def test_a_script_whose_line_introduces_its_output() -> None:
    """Invented: `zc_selftest.sh 6 udp:` then the output."""
    assert raws("zc_selftest.sh 6 udp:\n  tx=1234 rx=1200\n") == ["zc_selftest.sh 6 udp"]


def test_a_script_or_own_benchmark_alone_on_its_line() -> None:
    """Invented: a path to a script after a label, or a benchmark-named program, with no
    argument; a bare tool name or a build step alone is not a run."""
    assert raws("Tested with: ./tools/testing/selftests/net/udpgso_bench.sh\n./vsock_test\n") == [
        "./tools/testing/selftests/net/udpgso_bench.sh", "./vsock_test"]
    assert raws("netperf\n./configure\nTo test, run ./gro.sh.\n") == []


def test_tools_that_inspect_or_configure_are_not_benchmarks() -> None:
    """Archive lines: inspections, builds, key tools; also config dumps under `#`."""
    for line in ("vdpa dev -jp show vdpa0", "driverctl -b vdpa set-override dev1 vhost_vdpa",
                 "openssl x509 -in cert.pem -inform PEM -outform DER -out cert.der",
                 "cc -lpthread virtio_test.o virtio_ring.o -o virtio_test",
                 "scripts/config --disable DEBUG_INFO", "# Hardware I/O ports",
                 "COMPILER_INSTALL_PATH=$HOME/0day COMPILER=clang ~/bin/make.cross W=1 ARCH=s390",
                 "/mnt/ld-linux-aarch64.so.1 /mnt/ls.coreutils /", "with qemu-system-x86_64 -enable-kvm -device",
                 "cat /proc/meminfo | grep AnonHugePages:", "baseline 2.7 N/A Mpps",
                 "./configure --enable-kvm --target-list=x86_64-softmmu", "sudo bin/lkp install job.yaml"):
        assert raws(line + "\n") == [], line


def test_a_tool_named_in_a_sentence_about_a_later_run_is_not_a_command() -> None:
    """Invented: a prose mention of a run still to come; one that was done is kept, with
    the wrappers written in front of it."""
    assert raws("I'll rerun with neper -T4 -F8 once the box is back.\n") == []
    assert raws("Perf recording while doing iperf -P 4\n") == ["iperf -P 4"]
    assert raws("The client ran taskset -c 3 netperf -H peer -l 30 on each host.\n") == [
        "taskset -c 3 netperf -H peer -l 30"]


def test_a_program_of_ones_own_run_inside_a_sentence() -> None:
    """Invented: a path or a benchmark-named program with options in prose is a run; an
    ordinary word before an option is not."""
    assert raws("Running ./virtio_test --batch=64 gives the numbers below.\n") == ["./virtio_test --batch=64"]
    assert raws("We used vsock_perf --sender 2 --bytes 1G here.\n") == ["vsock_perf --sender 2 --bytes 1G"]
    assert raws("the test -d option is wrong, and x86_64 -O2 builds too\n") == []
    # archive lines: a VM launch, a kernel image, a usage string in code
    assert raws("I start it with ./qemu-system-x86_64 -cpu EPYC and then\n"
                "booted /home/u/arch/x86/boot/bzImage -append from here\n"
                'printf("vsock_uring_test --mode=server --peer-cid=3\\n");\n') == []
    # d158: a path among a VM launch's arguments is not a program run
    assert raws("qemu-system-x86_64 -m 4G --netdev stream,id=n0,addr.path=/run/passt_1.socket -device "
                "virtio-net,netdev=n0\n") == []


def test_a_tools_own_options_after_a_double_dash_in_a_sentence() -> None:
    """Invented, in the shape of s001's netperf line: in a sentence, or after a prompt the
    line grammar does not know (`vm # `), netperf's test-specific options after `--` are
    part of the run (once cut to `netperf -H ... -t TCP_RR`, a different test); a `--`
    that a sentence goes on from is not."""
    assert raws("I ran netperf -t TCP_RR -H lpaa6 -l 20 -- -r 40000,40000 a few times.\n") == [
        "netperf -t TCP_RR -H lpaa6 -l 20 -- -r 40000,40000"]
    assert raws("vm # netperf -H 192.168.1.1 -t TCP_RR -- -r 1,1\n") == ["netperf -H 192.168.1.1 -t TCP_RR -- -r 1,1"]
    assert raws("while running netperf -- and nothing else on the box\n") == []


def test_backticked_commands_in_a_sentence() -> None:
    """Invented: a quoted run is a command; a quoted tool name without options is not."""
    assert raws("I then ran `./vsock_perf --sender 2 --bytes 1G` on the guest and `perf stat` "
                "on the host.\n") == ["./vsock_perf --sender 2 --bytes 1G"]
    assert raws("If needed, run `./vsock_perf --sender 2` again.\n") == []
    assert raws("On the receiver: `netserver -4`\n") == ["netserver -4"]


def test_a_command_wrapped_inside_an_option_and_more_prompts_and_bullets() -> None:
    """Invented: `-m` at the end of a line, its value on the next; `user@host ~ $`,
    `(1)` and `a)` in front."""
    assert raws("./pktgen_sample03_burst_single_flow.sh -i eth2 -d 198.18.0.2 -m\n"
                "00:11:22:33:44:55 -t 4 -b 32\n") == [
        "./pktgen_sample03_burst_single_flow.sh -i eth2 -d 198.18.0.2 -m 00:11:22:33:44:55 -t 4 -b 32"]
    f = found("joe@box ~ $ iperf3 -c peer -t 10\n(1) netperf -H peer -t TCP_RR\na) iperf3 -s\n")
    assert [(c.raw, c.host) for c in f.commands] == [
        ("iperf3 -c peer -t 10", "box"), ("netperf -H peer -t TCP_RR", None), ("iperf3 -s", None)]


def test_extract_reports_commands_with_the_json_fields() -> None:
    """Through the extractor: the command keeps raw/tool/argv/wrappers/host."""
    e = ex("Before: 10 Gbit/s\nAfter: 12 Gbit/s\n\n$ sudo numactl -C 2 iperf3 -c peer -t 30\n")
    (c,) = e.commands
    d = c.to_dict()
    assert d["raw"] == "sudo numactl -C 2 iperf3 -c peer -t 30" and d["tool"] == "iperf3"
    assert d["argv"] == ["iperf3", "-c", "peer", "-t", "30"] and d["wrappers"] == ["sudo", "numactl"]


# -- the shell model on its own ----------------------------------------------------------

def test_pieces_respect_quotes_and_subshells() -> None:
    assert [p.text for p in pieces("a 'x; y' | b \"$(c; d)\" && e 2>&1 & f # g; h")] == [
        "a 'x; y'", "b \"$(c; d)\"", "e 2>&1", "f"]
    assert pieces("a &")[0].background


def test_invocation_walks_perf_as_wrapper_or_tool() -> None:
    inv = invocation(split_words("perf stat -e cycles -a -- sleep 10"))
    assert inv.program == "perf" and inv.wrappers == []
    inv = invocation(split_words("perf record -g -F 999 -- ./bench --x"))
    assert inv.program == "bench" and inv.wrapper_names == ["perf record"]


# -- never crash, never hang -------------------------------------------------------------

_WORDS = st.sampled_from(["netperf", "-H", "sudo", "taskset", "-c", "2", "perf", "stat", "--", "|",
                          ";", "&&", "&", "'", '"', "$(", ")", "\\", "#", "$ ", "client:", "<a b>",
                          "ip", "netns", "exec", "ssh", "FOO=1", "./x", "fio", "--bs=4k", "\t\t",
                          "12.5", "Performance counter stats for '", "for", "do", "done", "\n",
                          "> ", "echo", ">", "/sys/x", "nice", "-n", "env", "timeout", "chrt"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(_WORDS, st.text(max_size=12)), max_size=60))
def test_command_finding_never_crashes_or_hangs(words: list[str]) -> None:
    text = " ".join(words)
    t0 = time.monotonic()
    f = found(text)
    assert time.monotonic() - t0 < 2.0
    for c in f.commands:
        assert isinstance(c.raw, str) and isinstance(c.argv, list)


def test_a_long_line_of_wrappers_is_read_quickly() -> None:
    text = ("sudo " * 400 + "taskset -c 1 " * 200 + "netperf -H x\n") + "ssh h '" * 100 + "\n"
    t0 = time.monotonic()
    found(text)
    assert time.monotonic() - t0 < 2.0


def test_a_program_run_before_is_run_again_with_bare_arguments() -> None:
    """A narrated transcript runs its own tool twice; the second time with a size alone."""
    from claims.commands import find_commands
    from claims.model import Line

    lines = [Line(t, n) for n, t in enumerate([
        "// punch-holes function generates 400m fragmentation pages",
        "usemem --punch-holes -s -1 800m &",
        "cat /proc/meminfo | grep AnonHugePages:",
        "killall usemem",
        "usemem 800m",
        "usemem is the tool used here",  # a sentence naming it is no run
    ], 1)]
    assert [c.raw for c in find_commands(lines).commands] == ["usemem --punch-holes -s -1 800m", "usemem 800m"]
    alone = [Line("usemem 800m", 1)]  # never run as a benchmark before: no evidence it is one
    assert find_commands(alone).commands == []


def test_a_kernel_config_and_lone_assignments_run_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A build report attaches its .config: thousands of "CONFIG_X=y" and "# CONFIG_X is
    not set" lines (the "#" reads as a root prompt). The reader turns them away before its
    argv parse, with the same answer the parse gives (checked with the shortcut off), while
    an assignment in front of a program still runs it."""
    import claims.commands as commands

    text = ("CONFIG_NLS_CODEPAGE_950=m\n# CONFIG_PSI is not set\n#\n$ NETPERF=/usr/bin/netperf\n"
            "FOO=1 netperf -H 192.0.2.1 -t TCP_RR\n")
    short = [e.index for e in found(text).events]
    parsed: list[str] = []
    real = commands._line_events
    monkeypatch.setattr(commands, "_worth_parsing", lambda rest, ctx: bool(rest.strip()))
    monkeypatch.setattr(commands, "_line_events", lambda rest, ctx, ln: parsed.append(rest) or real(rest, ctx, ln))
    full = [e.index for e in found(text).events]
    assert len(parsed) >= 4  # every line was parsed the long way
    assert short == full == [4]
    assert raws(text) == ["FOO=1 netperf -H 192.0.2.1 -t TCP_RR"]


def test_words_in_parentheses_after_a_command_are_the_sentences() -> None:
    """"netperf -H 192.0.2.1 -t TCP_STREAM (five runs)": the aside says how it was run, it
    is no argument. In argv, netperf's grammar would have refused "(five" and the spec
    could not have run; a shell's own "((" stays."""
    for line, raw in (("netperf -H 192.0.2.1 -t TCP_STREAM (five runs)", "netperf -H 192.0.2.1 -t TCP_STREAM"),
                      ("iperf3 -c 192.0.2.1 -t 30 (on the 100G link)", "iperf3 -c 192.0.2.1 -t 30"),
                      ("for ((i=0;i<3;i++)); do netperf -H 192.0.2.1; done", "netperf -H 192.0.2.1")):
        got = ex("Hi,\n\n" + line + "\n\nbase: 1234 trans/s\npatched: 1300 trans/s\n").commands
        assert [c.raw for c in got] == [raw], line


@pytest.mark.parametrize("line", [
    "perf bench sched messaging -g 20 -l 1000, before:",
    "perf bench sched messaging -g 20 -l 1000, which gives:",
])
def test_a_clause_after_a_commands_comma_is_prose(line: str) -> None:
    """A command line that goes on as a sentence after a comma: "before" had been an
    argument of perf bench, whose grammar takes bare words (netperf's refused them)."""
    (cmd,) = ex("Hi,\n\n" + line + "\n").commands
    assert cmd.raw == "perf bench sched messaging -g 20 -l 1000"


@pytest.mark.parametrize(("text", "raw"), [
    ("perf stat -r 10 ./hackbench 10\n", ["perf stat -r 10 ./hackbench 10"]),
    ("$ hackbench 10\n", ["hackbench 10"]),
    ("./hackbench 10\n", ["./hackbench 10"]),
    ("taskset -c 2 hackbench 10 process 1000\n", ["taskset -c 2 hackbench 10 process 1000"]),
    ("hackbench 10\n", []),
    ("I ran hackbench 10 times.\n", []),
    ("nice ping :-)\n", []),
])
def test_a_known_program_run_as_a_command_may_open_with_a_count(text: str, raw: list) -> None:
    """"perf stat -r 10 ./hackbench 10" gave no command: a program the reader knows needs
    option-like words after it, and a count is none ("hackbench 10 groups" may be prose).
    At a prompt, by its path or under a wrapper that measures or shapes a run, a count
    may open its arguments; a line that only names it, or a sentence, is still no command."""
    assert [c.raw for c in ex(text).commands] == raw
