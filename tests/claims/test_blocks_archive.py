"""The block model on structures met in the list archive (../shared/data), which no rule
was shaped on: each input is invented text written in the structure of a real message
(a build robot's listing, testpmd's port statistics, a balloon test report, time(1)
output under two mount options), with its own words and numbers.
"""
from __future__ import annotations

from claims.extract import extract_message
from claims.message import message_from_text
from claims.numbers import tokenize
from tests.extractkit import ex, pairs


def _named(text: str, subject: str | None = None) -> list[tuple[str, float, float, str | None, str | None]]:
    msg = message_from_text(text)
    msg.subject = subject
    return [(c.metric, c.baseline.value, c.candidate.value, c.baseline.label, c.candidate.label)
            for c in extract_message(msg).claims if c.baseline and c.candidate]


def test_a_numbered_source_listing_is_not_output() -> None:
    # a build robot quotes the function around a warning, each line under its number;
    # a comment in it says "without", another line "fixed"
    text = ("vim +4410 lib/frob.c\n\n"
            "  4401\t/**\n  4402\t * frob_pages - hand the pages back\n"
            "  4403\t * Pages taken without the lock are\n  4404\t * counted again.\n  4405\t */\n"
            "  4406\tvoid frob_pages(struct page *p)\n\n"
            "fixed:\n\n"
            "  4418\t/*\n  4419\t * the pool is drained first\n  4420\t */\n")
    assert pairs(text) == []


def test_kernel_config_lines_are_not_results() -> None:
    text = ("# Default area size\nCONFIG_FROB_AREA_MBYTES=300\nCONFIG_FROB_SEL_MBYTES=y\n"
            "# CONFIG_FROB_SEL_MAX is not set\nCONFIG_FROB_ALIGNMENT=12\n")
    assert pairs(text) == []


def test_port_statistics_name_each_value_by_its_key() -> None:
    # "key: value" items three to a line, and a sub-heading printed under each variant
    side = ("    show port stats all\n\n"
            "      ########## NIC statistics for port 1 ##########\n"
            "      RX-packets: {0}   RX-missed: 0     RX-bytes:  {1}\n"
            "      TX-packets: {0}   TX-errors: 0     TX-bytes:  {1}\n\n"
            "      Throughput (since last show)\n"
            "      Rx-pps:      {2}          Rx-bps:   {3}\n"
            "      ###############################################\n\n")
    text = ("without this change:\n" + side.format(4100200, 262412800, 512400, 262348800)
            + "with this change:\n" + side.format(6100300, 390419200, 701100, 358963200))
    got = {(m, b, c) for m, b, c, *_ in _named(text)}
    # the rates are testpmd's results; the cumulative RX-/TX- counters grow with the run's
    # length: bookkeeping the tool description marks, never a claimed pair
    assert got == {("rx_pps", 512400, 701100), ("rx_bps", 262348800, 358963200)}


def test_a_sub_heading_under_variants_that_name_no_side() -> None:
    # the variants are named by what they run (the subject names the candidate); a
    # sub-heading printed under each is part of its variant's output
    side = ("### {0} PMD in guest\n\ntestpmd> show port stats all\n\n  rx-pps: {1}  tx-pps: {2}\n\n"
            "Rate (since last show)\n  rx-rate: {3}  tx-rate: {4}\n\n")
    text = side.format("vhost-user", 900100, 900050, 7.2, 7.1) + side.format("AF_XDP", 640200, 640300, 5.1, 5.2)
    got = {(m, b, c) for m, b, c, *_ in _named(text, "[PATCH net-next 00/12] foo: AF_XDP zero copy for the guest")}
    assert ("rx-pps", 900100, 640200) in got and ("rx-rate", 7.2, 5.1) in got


def test_a_label_every_variant_repeats_is_not_the_variant() -> None:
    side = "{0}\n\nstats:\n  p50: {1} us\n  p99: {2} us\n\n"
    text = side.format("Without the fix", 14, 90) + side.format("With the fix", 12, 41)
    got = _named(text)
    assert {(b, c) for _, b, c, *_ in got} == {(14, 12), (90, 41)}
    assert got[0][3] == "Without the fix"


def test_a_tool_banner_repeated_by_two_runs_is_no_sub_heading_of_what_lies_between() -> None:
    # a bug report: nstat after a failing run, strace of a good run "with the patch in
    # place", nstat again; the banner "#kernel" under no side is nstat's own, so the second
    # nstat is not the strace block's sub-heading, and its counters no side's numbers
    nstat = "/ # nstat\n#kernel\nIpInReceives      {0}     0.0\nIpInDelivers      {0}     0.0\n" \
            "IpExtInOctets     {1}     0.0\n\n"
    text = ("Does that tell you anything?\n\n" + nstat.format(1, 576)
            + "The trace of the good case (same image, with the patch in place) is below.\n\n"
            + "".join(f"130   poll([{{fd=3, events=POLLIN}}], 2, 3000) = {k}\n" for k in range(1, 6))
            + "\nIn that case the counters read as follows.\n\n" + nstat.format(2, 1152))
    assert _named(text) == []
    # under two sides, the banner each run repeats is still part of its side's output
    side = "{0}\n\n#kernel\nIpInReceives      {1}     0.0\nIpInDelivers      {1}     0.0\n\n"
    got = _named(side.format("Without the patch:", 1) + side.format("With the patch:", 2))
    assert {(m, b, c) for m, b, c, *_ in got} == {("IpInReceives", 1, 2), ("IpInDelivers", 1, 2)}


def test_the_label_above_a_describing_paragraph_names_the_block() -> None:
    text = ("Without patch (kernel 6.1.0-3):\n"
            "The shrinker never caught up until we stopped the reader; the whole\n"
            "fill took 611 seconds. The longest stall was 290 seconds (see the\n"
            "plot).\n"
            "Counters from /proc/vmstat after the run:\n"
            "frob_inflate 2210481\nfrob_deflate 2210481\n\n"
            "With patch (kernel 6.7.0-rc2+):\n"
            "The whole fill took 71 seconds. No stall was seen while the\n"
            "page cache grew.\n"
            "Counters from /proc/vmstat after the run:\n"
            "frob_inflate 931120\nfrob_deflate 931120\n")
    got = _named(text)
    assert [(m, b, c) for m, b, c, *_ in got] == [("frob_inflate", 2210481, 931120), ("frob_deflate", 2210481, 931120)]
    assert got[0][3] == "Without patch (kernel 6.1.0-3)" and got[0][4] == "With patch (kernel 6.7.0-rc2+)"


def test_time_output_pairs_under_two_options() -> None:
    text = ("* Results:\nDefault:\nreal 0m21.410s\nuser 0m4.120s\nsys 0m9.902s\n\n"
            "With `-o lookup_cache=30`:\nreal 0m18.077s\nuser 0m4.001s\nsys 0m8.350s\n")
    assert pairs(text) == [(21.41, 18.077), (4.12, 4.001), (9.902, 8.35)]
    assert [t.value for t in tokenize("real 1m2.5s") if t.kind == "value"] == [62.5]


def test_values_listed_after_their_names() -> None:
    text = ("Before:\nGuest: kicked 2200431, woken 51200\nHost: kicked 51200, woken 1804411\n\n"
            "After:\nGuest: kicked 2200120, woken 50010\nHost: kicked 50010, woken 1799302\n")
    got = {(c.metric, c.baseline.value) for c in ex(text).claims if c.baseline}
    assert ("Guest kicked", 2200431) in got and ("Host woken", 1804411) in got


def test_the_unit_of_one_value_does_not_name_the_next() -> None:
    text = ("Without GSO:\nudp tx:  41 MB/s   4410 calls/s\nudp tx:  40 MB/s   4380 calls/s\n\n"
            "With GSO:\nudp tx:  133 MB/s   13100 calls/s\nudp tx:  131 MB/s   13020 calls/s\n")
    got = [(c.metric, c.baseline.value, c.candidate.value) for c in ex(text).claims if c.baseline]
    assert ("calls/s", 4410, 13100) in got and not any("MB/s calls" in m for m, *_ in got)


def test_one_procedure_run_twice_pairs_reading_by_step() -> None:
    # a narrated transcript (comments, commands, monitor prompts, a reading after each
    # step) printed once per variant, the second run introduced by a sentence; the runs
    # differ in one setup line, which names the sides
    run = ("# reading before the guest starts\ncat /proc/meminfo | grep Shmem:\nShmem:   {0} kB\n"
           "# start the load, then read again\nstress-ng --vm 2 --vm-bytes 700m &\n"
           "cat /proc/meminfo | grep Shmem:\nShmem:   {1} kB\n"
           "(monitor) object_add memory-backend-ram,id=m0{2}\n(monitor) info memdev\n"
           "# reading after the device is added\ncat /proc/meminfo | grep Shmem:\nShmem:   {3} kB\n"
           "# stop the load\nkillall stress-ng\n"
           "cat /proc/meminfo | grep Shmem:\nShmem:   {4} kB\n")
    text = ("Here is a run with the defaults.\n\n" + run.format(1024, 716800, "", 204800, 51200)
            + "\nThe same steps again with shared pages on.\n\n"
            + run.format(1024, 716800, ",share=on", 655360, 610304))
    got = {(b, c): (bl, cl) for _, b, c, bl, cl in _named(text)}
    assert set(got) - {(1024, 1024), (716800, 716800)} == {(204800, 655360), (51200, 610304)}
    assert got[(204800, 655360)] == ("(monitor) object_add memory-backend-ram,id=m0",
                                      "(monitor) object_add memory-backend-ram,id=m0,share=on")


def test_one_procedure_run_twice_with_nothing_to_tell_the_sides_gives_no_pair() -> None:
    run = "# first reading\nfree -m\nMem: {0} used\n# second reading\nsync\nMem: {1} used\n# done\nMem: {2} used\n"
    text = "Run one.\n\n" + run.format(10, 20, 30) + "\nRun two.\n\n" + run.format(11, 25, 31)
    assert _named(text) == []


def test_a_debugger_dump_printed_per_variant_is_not_a_measurement() -> None:
    dump = ("(gdb) p *cfg\n$1 = {{\n  ring_mask = 255,\n  spare_slots = 0,\n  table = {{0 <repeats 64 times>}},\n"
            "  max_queues = {0},\n  key_len = 52 '4',\n  ...\n}}\n")
    text = ("Without this patch, in frob_commit(), gdb shows the field is 2:\n\n" + dump.format(2)
            + "\nWith this patch, in frob_commit(), gdb shows the field is 1:\n\n" + dump.format(1))
    assert _named(text) == []


def test_labelled_runs_that_repeat_their_steps_keep_their_labels_and_ports_stay_out() -> None:
    # two iperf3 runs under "Before:"/"After:" print the same banner lines: the block model
    # reads them (the labels name the sides), not the two-runs model; ports are settings
    side = ("{0}:\nConnecting to host 10.1.1.2, port {1}\n"
            "[  5] local 10.1.1.1 port {2} connected to 10.1.1.2 port {1}\n"
            "[ ID] Interval           Transfer     Bitrate         Retr\n"
            "[  5]   0.00-10.00  sec  {3} GBytes  {4} Gbits/sec    {5}             sender\n"
            "[  5]   0.00-10.04  sec  {3} GBytes  {6} Gbits/sec                  receiver\n\n")
    text = side.format("Before", 5201, 41234, 10.9, 9.38, 0, 9.34) + side.format("After", 5202, 41890, 12.1, 10.4, 3, 10.3)
    got = _named(text)
    assert {(m, b, c) for m, b, c, *_ in got} == {
        ("sender_transfer", 10.9, 12.1), ("sender_bitrate", 9.38, 10.4), ("sender_retransmits", 0, 3),
        ("receiver_transfer", 10.9, 12.1), ("receiver_bitrate", 9.34, 10.3)}
    assert {(bl, cl) for *_, bl, cl in got} == {("Before", "After")}


_HIST = ("     nsecs               : count     distribution\n"
         "         0 -> 1          : {a:<8} |{sa:<20}|\n"
         "         2 -> 3          : {b:<8} |{sb:<20}|\n"
         "         4 -> 7          : {c:<8} |{sc:<20}|\n"
         "\navg = {avg} nsecs, total: {tot} nsecs, count: {n}\n")


def test_a_histogram_per_variant_pairs_its_summary_not_its_buckets() -> None:
    """bcc funclatency as a vhost RFC printed it under each variant: the buckets are a
    distribution (their bars even change the lines' shapes); the summary line is the result,
    each value named by the word written before it."""
    text = ("stock:\n" + _HIST.format(a=3, sa="", b=900, sb="*" * 20, c=41, sc="*", avg=145, tot=1455980, n=9985)
            + "\nvmap:\n" + _HIST.format(a=700, sa="*" * 20, b=200, sb="*****", c=2, sc="", avg=122,
                                          tot=1286983, n=10478))
    assert [(m, b, c) for m, b, c, _, _ in _named(text)] == [
        ("avg", 145.0, 122.0), ("total", 1455980.0, 1286983.0), ("count", 9985.0, 10478.0)]


def test_a_device_settings_line_is_configuration_not_a_result() -> None:
    """`vdpa dev config show` printed before and after a fix: the queue count it reports
    is the setting the patch corrects, not a measurement."""
    text = ("Before this change, the tool printed:\n"
            "$vdpa dev config show vdpa0\n"
            "vdpa0: mac 00:11:22:33:44:55 link up link_announce false max_vq_pairs 0\n"
            "mtu 1500\n\n"
            "After this change, the tool printed:\n"
            "$vdpa dev config show vdpa0\n"
            "vdpa0: mac 00:11:22:33:44:55 link up link_announce false max_vq_pairs 1\n"
            "mtu 1500\n")
    assert pairs(text) == []


def test_a_value_with_a_bare_size_unit_is_named_by_its_key() -> None:
    """/proc/meminfo lines under two labels: "kB" says nothing of what is counted."""
    text = ("Before:\n  MemFree:       1234567 kB\n  Slab:            45678 kB\n"
            "After:\n  MemFree:       1334567 kB\n  Slab:            35678 kB\n")
    assert [(m, b, c) for m, b, c, _, _ in _named(text)] == [
        ("MemFree", 1234567.0, 1334567.0), ("Slab", 45678.0, 35678.0)]


def test_a_reference_column_printed_alike_in_both_blocks_is_left_out() -> None:
    """UnixBench under two labels, with its closing Index Score line (one value, under
    another column): BASELINE is the tool's constant, RESULT and INDEX are results."""
    head = "System Benchmarks Index Values               BASELINE       RESULT    INDEX\n"
    rows = ("Dhrystone 2 using register variables         116700.0  {a}  {b}\n"
            "Double-Precision Whetstone                       55.0     {c}  {d}\n"
            "Execl Throughput                                 43.0      {e}  {f}\n"
            "                                                                    ========\n"
            "System Benchmarks Index Score                                        {s}\n")
    text = ("Before using the patch:\n" + head
            + rows.format(a="948326591.2", b="81261.9", c="211986.3", d="38543.0", e="43453.2", f="10105.4", s="7923.3")
            + "\nAfter using the patch:\n" + head
            + rows.format(a="947032915.5", b="81151.1", c="211971.2", d="38540.2", e="45054.8", f="10477.9", s="8248.8"))
    got = pairs(text)
    assert (7923.3, 8248.8) in got and (43453.2, 45054.8) in got
    assert not any(b in (116700.0, 55.0, 43.0) for b, _ in got)


def test_sockperf_summaries_under_headings_pair_in_any_order() -> None:
    """sockperf's own "====>" arrow is not code, so its summary line opens the block; the
    percentile a line names is part of the name, not a value of its own; the std-dev beside
    the average is the samples' spread, no result (91d5243)."""
    out = ("sockperf: ====> avg-latency={a} (std-dev={s})\n"
           "sockperf: ---> <MAX> observation =   {m}\n"
           "sockperf: ---> percentile 99.000 =   {p}\n")
    text = ("### With the patch\n\n" + out.format(a="10.512", s="1.201", m="52.101", p="15.003")
            + "\n### Without the patch\n\n" + out.format(a="12.034", s="1.455", m="61.880", p="17.440"))
    got = pairs(text)
    assert sorted(got) == [(12.034, 10.512), (17.44, 15.003), (61.88, 52.101)]


def test_fio_latency_lines_are_named_by_their_key_and_its_unit() -> None:
    """fio's "clat (usec): min=20, max=4100, avg=301.22": each value is the key's, in its
    unit (a "min" there is a minimum, not minutes)."""
    line = "    clat (usec): min={a}, max={b}, avg={c}, stdev={d}\n"
    text = ("without the patch:\n" + line.format(a=20, b=4100, c="301.22", d="50.11")
            + "\nwith the patch:\n" + line.format(a=18, b=3900, c="260.87", d="45.02"))
    got = {(c.metric, c.unit) for c in ex(text).claims}
    assert ("clat (usec) min", "usec") in got and ("clat (usec) avg", "usec") in got


def test_a_word_that_introduces_the_next_item_does_not_name_the_value_before_it() -> None:
    """pktgen's "(622616400bps) errors: 7915231": "errors:" names the count after it."""
    text = ("Baseline: 1853025pps 622Mb/sec (622616400bps) errors: 7915231\n"
            "Batch: 1895412pps 635Mb/sec (635511744bps) errors: 4926093\n")
    got = {c.metric: (c.baseline.value, c.candidate.value) for c in ex(text).claims}
    assert got["errors"] == (7915231.0, 4926093.0)
    assert sum(1 for c in ex(text).claims if c.metric == "errors") == 1


def test_iperf3_interval_lines_under_labels_are_named_by_their_columns() -> None:
    # real excerpt (virtualization list, 2023-06, "virtio_net: ... page_pool"): iperf3 interval
    # lines, one per packet size, the candidate's block first, a Cwnd wrapped by the mail
    # client.  Each line names its numbers by iperf3's columns: Transfer (a size, not a time:
    # once read "sec GBytes", lower is better), Bitrate, Retr (lower is better) and Cwnd, the
    # sender's state, which is no claim (once paired 1.72 MBytes with 744 KBytes).
    text = ("Here is a list of iperf output,\n\n"
            "With PP and PP fragmenting:\n"
            "1K:       [  5]  30.00-35.00  sec  4.63 GBytes  7.95 Gbits/sec    0\n"
            "223 KBytes\n"
            "8K:       [  5]  50.00-55.00  sec  18.9 GBytes  32.4 Gbits/sec    0\n"
            "744 KBytes\n"
            "16K:     [  5]  25.00-30.00  sec  24.6 GBytes  42.3 Gbits/sec    0    963 KBytes\n"
            "128K:   [  5]  45.00-50.00  sec  36.7 GBytes  63.1 Gbits/sec    0   4.26 MBytes\n\n"
            "Without PP:\n"
            "1K:      [  5]  75.00-80.00  sec  5.47 GBytes  9.40 Gbits/sec    0    730 KBytes\n"
            "8K:      [  5]  45.00-50.00  sec  19.9 GBytes  34.1 Gbits/sec    0   1.72 MBytes\n"
            "16K:    [  5]   5.00-10.00  sec  23.8 GBytes  40.9 Gbits/sec    0   2.90 MBytes\n"
            "128K:  [  5]  45.00-50.00  sec  33.0 GBytes  56.6 Gbits/sec    1   3.03 MBytes\n")
    msg = message_from_text(text)
    got = {(c.metric, c.better, c.baseline.value, c.candidate.value)
           for c in extract_message(msg).claims if c.baseline and c.candidate}
    assert got == {("transfer", "higher", 5.47, 4.63), ("bitrate", "higher", 9.40, 7.95),
                   ("transfer", "higher", 19.9, 18.9), ("bitrate", "higher", 34.1, 32.4),
                   ("transfer", "higher", 23.8, 24.6), ("bitrate", "higher", 40.9, 42.3),
                   ("transfer", "higher", 33.0, 36.7), ("bitrate", "higher", 56.6, 63.1),
                   ("retransmits", "lower", 1.0, 0.0)}


def test_a_procedure_run_twice_that_repeats_its_steps_within_each_run() -> None:
    # real excerpt (virtualization list, 2020-03, "virtio_balloon: Add
    # VIRTIO_BALLOON_F_THP_ORDER"): one transcript per variant, without comments, so the
    # reading command ("cat /proc/meminfo ...") is printed three times in each run and the
    # monitor's "info balloon" twice; the k-th copy in one run pairs with the k-th in the
    # other.  The device_add lines the runs write differently name the variants.
    run = ("This is an example in a VM with 1G memory 1CPU:\n"
           "cat /proc/meminfo | grep AnonHugePages:\nAnonHugePages:         0 kB\n\n"
           "usemem --punch-holes -s -1 800m &\n\n"
           "cat /proc/meminfo | grep AnonHugePages:\nAnonHugePages:    976896 kB\n\n"
           "(qemu) device_add virtio-balloon-pci,id=balloon1{0}\n(qemu) info balloon\nballoon: actual=1024\n"
           "(qemu) balloon 624\n(qemu) info balloon\nballoon: actual=624\n\n"
           "cat /proc/meminfo | grep AnonHugePages:\nAnonHugePages:    {1} kB\n\n")
    text = (run.format("", 153600) + "THP number decreased more than 800M.\n\n"
            "This commit tries to handle this with add a new flag VIRTIO_BALLOON_F_THP_ORDER.\n"
            + run.format(",thp-order=on", 583680) + "The THP number decreases 384M.\n")
    got = [(m, b, c, bl.endswith("id=balloon1"), cl.endswith("thp-order=on")) for m, b, c, bl, cl in _named(text)]
    assert got == [("AnonHugePages", 153600, 583680, True, True)]


def test_a_wrapped_sar_record_names_each_value_by_its_own_header_line() -> None:
    # archive: "sar -n DEV" averages pasted by a mail client that wrapped each record
    # (header and row alike) after txkB/s; each variant run four times.  The second
    # header line names the numbers under the row, not the row's own: stacked, they made
    # "Average rxpck/s rxmcst/s %ifutil" and read it lower-is-better
    rec = ("Average:        IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s\n"
           "rxcmp/s   txcmp/s  rxmcst/s   %ifutil\n"
           "Average:       enp8s0 {}      {}  {}      0.0{}\n"
           "0.00      0.00      0.00      0.00\n")
    text = ("with page pool:\n1.\n" + rec.format("655092.27", "0.35", "27508.77", 3)
            + "2.\n" + rec.format("654749.87", "0.63", "27494.42", 5) + "\n\n"
            "without page pool:\n1.\n" + rec.format("646515.20", "0.47", "27148.60", 4)
            + "2.\n" + rec.format("653874.13", "0.18", "27457.61", 2) + "\n")
    claims = [c for c in ex("Subject: t\n\n" + text).claims if c.baseline and c.candidate]
    got = {(c.metric, c.baseline.value, c.candidate.value, c.better) for c in claims}
    assert ("Average rxpck/s", 646515.2, 655092.27, "higher") in got
    assert ("Average rxpck/s", 653874.13, 654749.87, "higher") in got
    assert all("%ifutil" not in c.metric and "rxmcst" not in c.metric for c in claims)

def test_perf_stat_wrapped_by_the_mail_client_keeps_results_and_drops_per_time_annotations() -> None:
    # the shape of a real reply: every counter line cut inside its "#" comment or before
    # its spread; the per-second rates, GHz and "CPUs utilized" divide a counter by the
    # run's time (both already reported), while insn per cycle is a ratio a reader cites
    side = ("* for {name} code\n"
            " Performance counter stats for './ring_test' (10 runs):\n\n"
            "          {tc} msec task-clock                #    {cpus} CPUs\n"
            "utilized            ( +-  0.12% )\n"
            "            {cs}      context-switches          #   {ksec} K/sec\n"
            "               ( +-  0.00% )\n"
            "     {cyc}      cycles                    #    {ghz} GHz\n"
            "               ( +-  0.13% )\n"
            "     {ins}      instructions              #    {ipc}  insn per\n"
            "cycle           ( +-  0.04% )\n\n"
            "           {el} +- 0.00378 seconds time elapsed  ( +-  0.12% )\n\n")
    text = ("results:\n"
            + side.format(name="upstream", tc="3,058.41", cpus="0.999", cs="78,149", ksec="25.545",
                          cyc="6,988,713,963", ghz="2.284", ins="8,512,533,269", ipc="1.22", el="3.06085")
            + side.format(name="patched", tc="3,028.05", cpus="0.995", cs="78,150", ksec="25.691",
                          cyc="6,919,025,222", ghz="2.275", ins="8,990,220,160", ipc="1.29", el="3.04359"))
    got = {(m, b, c) for m, b, c, *_ in _named(text)}
    assert {("task-clock", 3058.41, 3028.05), ("cycles", 6988713963, 6919025222),
            ("insns_per_cycle", 1.22, 1.29), ("time_elapsed", 3.06085, 3.04359)} <= got
    values = {(b, c) for _, b, c in got}
    assert not values & {(0.999, 0.995), (25.545, 25.691), (2.284, 2.275)}


def test_a_structure_dumped_field_by_field_is_state_not_a_result() -> None:
    # the shape of a real bug report: what a ring's fields should hold after an operation
    # and what they hold; the two dumps differ, but no one measured anything
    text = ("Assume the ring starts as:\n"
            "ring->desc.size=8\nring->head_idx: 3\nring->wrap_flag: 0\n\n"
            "Then the driver posts a chain of 8 entries.\n\n"
            "We expect the following state with the flag flipped:\n"
            "ring->head_idx: 3\nring->wrap_flag: 1\n\n"
            "But the current code leaves:\n"
            "ring->head_idx: 3\nring->wrap_flag: 0\n")
    assert pairs(text) == []


def test_items_of_a_list_written_name_first_are_named_by_their_own_names() -> None:
    # the shape of a real fio report: "name = value," items, the comma ending each one;
    # the words after "72K," name the next item (once "avg latency", lower is better)
    text = ("Test result:\n\n"
            "- fio randread without the poll queues\n"
            "\t-- numjobs=1 : IOPS = 72K, avg latency = 54.20us\n"
            "\t-- numjobs=2 : IOPS = 95K, avg latency = 81.75us\n\n"
            "- fio randread with the poll queues\n"
            "\t-- numjobs=1 : IOPS = 80K, avg latency = 49.02us\n"
            "\t-- numjobs=2 : IOPS = 104K, avg latency = 75.10us\n")
    msg = message_from_text(text)
    got = {(c.metric, c.better, c.baseline.value, c.candidate.value)
           for c in extract_message(msg).claims if c.baseline and c.candidate}
    assert {("IOPS", "higher", 72, 80), ("IOPS", "higher", 95, 104)} <= got
    assert ("avg latency", "lower", 54.20, 49.02) in got


def test_a_name_of_several_words_before_its_equals_sign_is_kept_whole() -> None:
    # the shape of a real lock benchmark: "Total Rate" and "Percpu Rate" on one line, after
    # the thread count (once all three were named by a neighbour's word)
    run = "Running bench with mutex [load = 1]\nThreads = {n}, Total Rate = {t} op/s; Percpu Rate = {p} op/s\n\n"
    text = ("v6.1\n====\n\n" + run.format(n=64, t="1,200,000", p="18,750") + run.format(n=32, t="900,000", p="28,125")
            + "v6.1-fast+\n==========\n\n" + run.format(n=64, t="1,500,000", p="23,437")
            + run.format(n=32, t="1,000,000", p="31,250"))
    got = {(m, b, c) for m, b, c, *_ in _named(text)}
    assert {("Total Rate", 1200000, 1500000), ("Percpu Rate", 18750, 23437),
            ("Total Rate", 900000, 1000000)} <= got


def test_the_reverse_direction_counters_of_sar_under_a_receive_test_are_no_claim() -> None:
    """Trimmed from the archive's CAKhg4tJ-=R6Us5hqDOLG2evnvjcFmhunVO1aXtFAvEe3qzH+EQ@mail.gmail.com
    (virtio_net page_pool, UDP_STREAM into the guest, `sar -n DEV` Average lines wrapped
    by the mail client): txpck/s and txkB/s read 0.63 / 0.05 beside 654749.87 rxpck/s.
    Less than one packet a second, where the same rows count thousands, is no traffic:
    the received packets and kB are the results; the idle direction is no claim."""
    def run(n: int, rx: str, tx: str, rkb: str, tkb: str) -> str:
        return (f"{n}.\nAverage:        IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s\n"
                "rxcmp/s   txcmp/s  rxmcst/s   %ifutil\n"
                f"Average:       enp8s0 {rx}      {tx}  {rkb}      {tkb}\n"
                "0.00      0.00      0.00      0.00\n")
    text = ("netperf -H 192.168.124.197 -p 4444 -t UDP_STREAM -l 0 -- -m $((1))\n\n"
            "with page pool:\n" + run(1, "655092.27", "0.35", "27508.77", "0.03")
            + run(2, "654749.87", "0.63", "27494.42", "0.05") + "\n\n"
            "without page pool:\n" + run(1, "646515.20", "0.47", "27148.60", "0.04")
            + run(2, "653874.13", "0.18", "27457.61", "0.02") + "\n")
    got = {(b, c) for _, b, c, *_ in _named(text)}
    assert got == {(646515.2, 655092.27), (27148.6, 27508.77), (653874.13, 654749.87), (27457.61, 27494.42)}


def test_a_rate_below_one_per_second_is_kept_when_no_counter_of_its_rows_is_busy() -> None:
    # errors per second going from 0.8 to 0.1 is a result of its own: nothing in the rows
    # counts thousands, so nothing marks it as the idle side of the traffic
    text = ("before:\n  errors/s 0.80   drops/s 0.50\n\nafter:\n  errors/s 0.10   drops/s 0.20\n")
    got = {(b, c) for _, b, c, *_ in _named(text)}
    assert (0.8, 0.1) in got
