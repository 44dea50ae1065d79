"""The command model on lines of the shared archive it was not shaped on (read by hand in an
archive sweep), and on invented lines in the shapes other lists write: prompts with a
working directory, loop headers run into their body, values wrapped before a shell tail,
versioned program names, and the sentences, patch titles and code lines that name a tool
without running it.  A property test feeds sentences and code and checks that command
finding neither crashes nor hangs."""
from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claims.commands import find_commands, unversioned
from claims.extract import extract_message
from claims.message import message_from_text


def commands(text: str) -> list[tuple[str | None, str]]:
    return [(c.tool, " ".join(c.raw.split())) for c in find_commands(message_from_text(text).lines).commands]


# -- lines of the shared archive ----------------------------------------------------------

def test_a_loop_header_run_into_its_body_gives_the_benchmark() -> None:
    """Host side of a sockperf flood: no `;` between `for ((...))` and `do`."""
    text = "Host:\n\tfor ((i=0; i < 10; ++i)) do sockperf tp -i 192.168.122.100 -t 1000  -m 64000& done\n"
    assert commands(text) == [("sockperf", "sockperf tp -i 192.168.122.100 -t 1000 -m 64000")]


def test_a_value_wrapped_before_the_lines_shell_tail_is_joined() -> None:
    """The mail client broke the loop after `-t`; its value and `& done` went below."""
    text = ("Test command:\n   for ((i=0;i<5;++i)); do sockperf tp --ip 192.168.122.64 -m 1000 -t \n"
            "150& done\n")
    assert commands(text) == [("sockperf", "sockperf tp --ip 192.168.122.64 -m 1000 -t 150")]


def test_a_prompt_with_a_working_directory_and_branch_after_a_host_label() -> None:
    """`t460s: ~/git/linux memory_holes $ git grep ...`: the path is the prompt's, not a program."""
    text = ("t460s: ~/git/linux memory_holes $ git grep -C3 adjust_man drivers/virtio/virtio_balloon.c\n"
            "drivers/virtio/virtio_balloon.c-                vb->num_pages += VIRTIO_BALLOON_PAGES_PER_PAGE;\n")
    assert commands(text) == []
    assert commands("~/src/neper (main) $ ./tcp_rr -c -H 10.0.0.2 -T 4\n") == [
        ("neper", "./tcp_rr -c -H 10.0.0.2 -T 4")]  # invented


def test_a_sentence_naming_an_option_gives_no_command() -> None:
    """'iperf -c in the guest': `-c` needs a host, and 'in the' is the sentence going on."""
    assert commands("iperf server is on host, iperf -c in the guest.\n") == []
    # invented: a flag the sentence goes on from is still given
    assert commands("Running iperf3 -R in the guest shows it.\n") == [("iperf3", "iperf3 -R")]


def test_a_sentence_about_an_option_or_after_a_flag_is_no_command_line() -> None:
    """Invented: the sentence names the option, or goes on after a flag that takes no value
    (iperf3's description says `-R` is a flag, so 'shows a drop' is prose, not its value)."""
    assert commands("the iperf3 -R option reverses the direction\n") == []
    got = find_commands(message_from_text("iperf3 -R shows a drop here\n").lines).commands
    assert [(c.raw, c.in_prose) for c in got] == [("iperf3 -R", True)]  # only the prose reading
    assert commands("iperf3 -c 10.0.0.1 -R -t 30\n") == [("iperf3", "iperf3 -c 10.0.0.1 -R -t 30")]


def test_patch_titles_in_a_shortlog_name_no_run() -> None:
    text = ("Rong Tao (2):\n      tools/virtio: virtio_test: Fix indentation\n"
            "      tools/virtio: virtio_test -h,--help should return directly\n\n"
            "  tools/virtio: Reset index in virtio_test --reset.\n")
    assert commands(text) == []


def test_a_code_line_is_not_a_program_of_a_known_family() -> None:
    text = ("\t\txdp_prepare_buff(&xdp, data - VIRTIO_XDP_HEADROOM + vi->hdr_len,\n"
            "\t\t\t\t VIRTIO_XDP_HEADROOM, len - vi->hdr_len, true);\n")
    assert commands(text) == []


def test_a_placeholder_of_words_in_a_sentence_is_one_value() -> None:
    text = "Sure.   iperf3 -c <IP> -i 5 -f g -t 0 -l <packet size>\n"
    assert commands(text) == [("iperf3", "iperf3 -c <IP> -i 5 -f g -t 0 -l <packet size>")]


def test_a_commit_title_quoted_after_its_id_names_no_run() -> None:
    """A review names the fixes it depends on by their titles, in `("...")`."""
    text = ('("vhost: Fix bad order in vhost_test_set_backend at enable") is\n'
            "actually a fix, the test does not work properly without it. And\n"
            '("tools/virtio: Reset index in virtio_test --reset.") Makes the test\n'
            "work more similar than the actual VM does in a reset.\n")
    assert commands(text) == []


def test_a_ping_repro_is_read_by_pings_options() -> None:
    """ping's option table says what a mail's `ping ...` is: a flood run before a reboot
    (archive) is a command; a sentence that starts with ping's name and a flag (invented:
    `-f` takes no value, so two plain words follow it) is not."""
    assert commands("I do the following in the guest:\nping -c 200 -f somevalidip; reboot\n") == [
        ("ping", "ping -c 200 -f somevalidip")]
    assert commands("ping -f requires root\n") == []
    assert commands('When sending packets through "ping -s 5000", if the peer router does not\n') == []


def test_a_perf_sub_command_that_inspects_is_no_benchmark() -> None:
    """Invented prompts (the archive names `perf top` only in sentences): perf's description
    lists the sub-commands that run a measurement; top and report are not among them."""
    assert commands("# perf top -g\n$ sudo perf report --stdio\n") == []
    assert commands("tested it in an SEV-ES guest with 'perf top' running for a little more\n") == []
    assert commands("# perf bench sched pipe -l 100\n") == [("perf", "perf bench sched pipe -l 100")]


def _extracted_commands(text: str) -> list[str]:
    return [c.raw for c in extract_message(message_from_text(text)).commands]


def test_a_program_of_ones_own_in_a_mail_that_measures_nothing_is_no_benchmark() -> None:
    """A C test program run at a prompt (a review about integer conversion), a daemon's
    invocation in a bug report: no tool or list names them, their names say nothing of a
    benchmark, and the mail reports no measurement."""
    text = ("And I got this:\n\n$ echo 4294967295 1 1 | ./a.out\n0\n1\n\n"
            "So the conversion is fine.\n")
    assert _extracted_commands(text) == []
    text = ("virtiofsd invocation:\n"
            '  RUST_LOG="debug" ./virtiofsd --seccomp=none --sandbox=none \\\n'
            '    --socket-path "fs.sock0" --shared-dir $PWD/share-dir/ --cache=never\n')
    assert _extracted_commands(text) == []
    # a benchmark's name, or a measurement in the mail, keeps it (invented)
    assert _extracted_commands("$ ./vsock_perf --vsk-size 256M\n") == ["./vsock_perf --vsk-size 256M"]
    assert _extracted_commands("$ ./a.out --loops 100\nBefore: 1000 ops/s\nAfter: 1300 ops/s\n") == [
        "./a.out --loops 100"]


# -- invented lines in the shapes other lists write ----------------------------------------

def test_versioned_program_names_are_their_tool() -> None:
    assert unversioned("iperf3.16") == "iperf3" and unversioned("fio-3.35") == "fio"
    assert unversioned("iperf3") is None and unversioned("netperf") is None
    assert commands("iperf3.16 -c 10.0.0.1 -t 30\n") == [("iperf3", "iperf3.16 -c 10.0.0.1 -t 30")]
    assert commands("netperf-2.7.0/src/netperf -H 10.0.0.1 -t TCP_RR\n") == [
        ("netperf", "netperf-2.7.0/src/netperf -H 10.0.0.1 -t TCP_RR")]


def test_wrappers_prompts_and_labels_in_front_of_the_program() -> None:
    text = ("[root@h ~]# sudo ip netns exec ns0 taskset -c 3 ./neper/tcp_rr -c -H 10.0.0.2 -T 1\n"
            "server: timeout -s INT 60s stdbuf -oL sockperf sr --tcp\n"
            "root@host:~# perf record -g -a -- chrt -f 50 netperf -H 1.2.3.4 -t TCP_RR\n")
    got = find_commands(message_from_text(text).lines).commands
    assert [(c.tool, c.argv[0], c.wrappers) for c in got] == [
        ("neper", "./neper/tcp_rr", ["sudo", "ip netns exec", "taskset"]),
        ("sockperf", "sockperf", ["timeout", "stdbuf"]),
        ("netperf", "netperf", ["perf record", "chrt"]),
    ]


def test_a_server_started_bare_in_the_background_or_by_a_wrapper_is_a_run() -> None:
    """Invented (the archive starts netserver only by its path): with no argument, netserver
    is a run when a wrapper starts it or it is put in the background; alone on a line or
    in a sentence it is only named."""
    assert commands("nohup netserver &\nssh root@192.168.122.202 netserver\n") == [
        ("netserver", "nohup netserver"), ("netserver", "ssh root@192.168.122.202 netserver")]
    assert commands("netserver\nStart netserver on the peer.\n") == []


def test_a_container_exec_is_a_wrapper() -> None:
    """Invented: `docker exec -it c1` runs the benchmark in container c1; what it runs
    decides, as for any wrapper."""
    got = find_commands(message_from_text("docker exec -it c1 iperf3 -c 10.0.0.1 -t 30\n"
                                          "podman exec c1 cat /proc/meminfo\n").lines).commands
    assert [(c.tool, c.raw, c.wrappers, c.in_prose) for c in got] == [
        ("iperf3", "docker exec -it c1 iperf3 -c 10.0.0.1 -t 30", ["docker exec"], False)]


def test_each_piece_of_a_compound_line_may_carry_its_role_label() -> None:
    assert commands("server: iperf3 -s; client: iperf3 -c 10.0.0.1 -t 30\n") == [
        ("iperf3", "iperf3 -s"), ("iperf3", "iperf3 -c 10.0.0.1 -t 30")]


def test_a_role_word_before_the_prompt() -> None:
    got = find_commands(message_from_text("guest $ iperf3 -c 10.0.0.2 -t 30\n(vm1)$ sockperf sr --tcp\n")
                        .lines).commands
    assert [(c.raw, c.host, c.in_prose) for c in got] == [
        ("iperf3 -c 10.0.0.2 -t 30", "guest", False), ("sockperf sr --tcp", "vm1", False)]


def test_subcommand_words_and_a_device_before_the_first_option() -> None:
    assert commands("perf bench sched pipe -l 1000000\nmausezahn eth0 -c 0 -t udp -d 0\n") == [
        ("perf", "perf bench sched pipe -l 1000000"), ("mausezahn", "mausezahn eth0 -c 0 -t udp -d 0")]


def test_continuations_run_into_one_line_and_arrows_in_front() -> None:
    """An archive page that collapsed whitespace keeps the `\\` of each continuation."""
    assert commands("iperf3 -c 10.0.0.1 \\ -t 30 \\ -P 8\n  -> netperf -H 10.0.0.1 -t TCP_RR\n") == [
        ("iperf3", "iperf3 -c 10.0.0.1 -t 30 -P 8"), ("netperf", "netperf -H 10.0.0.1 -t TCP_RR")]
    assert all(not c.in_prose for c in find_commands(message_from_text("=> iperf3 -c 10.0.0.1\n").lines).commands)


_PIECES = st.sampled_from([
    "iperf", "-c", "in", "the", "guest", "tools/virtio:", "virtio_test", "--reset.", "<packet",
    "size>", "for", "((i=0;", "i", "<", "10;", "++i))", "do", "done", "&", "-t", "\n", "150&",
    "~/git/linux", "master", "$", "#", "t460s:", "xdp_x(&y,", "iperf3.16", "fio-3.35", "(", ")",
    "\\", "->", "=>", "server:", "client:", ";", "guest", "(vm1)$", "perf", "bench", "eth0",
])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(_PIECES, st.text(max_size=10)), max_size=50))
def test_sentences_and_code_never_crash_or_hang_the_reader(words: list[str]) -> None:
    t0 = time.monotonic()
    got = find_commands(message_from_text(" ".join(words)).lines).commands
    assert time.monotonic() - t0 < 2.0
    assert all(c.raw and c.argv for c in got)
