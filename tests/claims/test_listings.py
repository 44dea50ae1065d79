"""claims.listings: numbered source listings found on message lines (the extractor) and cut
from a decoded body (the gate); tables with row numbers and shell history stay text, and
the cut never takes a line the extractor reads."""
from __future__ import annotations

from collections import Counter

import pytest

from claims import listings
from claims.extract import extract_message
from claims.listings import cut_listings, listing_lines
from claims.message import message_from_text, quote_depth
from claims.model import Line
from tests.paths import SHARED

TEXTS = sorted((SHARED / "corpus").glob("*.txt")) + sorted((SHARED / "shapes").glob("*.txt"))

# From the shared archive (virtualization list, a 0-day build report on vhost): the code
# around a warning, each line after its number and a tab; the line the warning names is
# marked with "> ", which the message model reads as a quote.
ROBOT = """\
vim +1734 drivers//vhost/vhost.c

  1724\t
  1725\tstatic int log_write(void __user *log_base,
  1726\t\t\t     u64 write_address, u64 write_length)
  1727\t{
  1728\t\tu64 write_page = write_address / VHOST_PAGE_SIZE;
  1729\t\tint r;
  1730\t
  1731\t\tif (!write_length)
  1732\t\t\treturn 0;
  1733\t\twrite_length += write_address % VHOST_PAGE_SIZE;
> 1734\t\tlog_base = (void __user *)((u64)log_base & ~0x3ULL);
  1735\t\twrite_page += ((u64)log_base & 0x3ULL) * 8;
  1736\t\tfor (;;) {
  1737\t\t\tu32 __user *log = (u32 __user *)log_base + write_page / 32;
  1738\t\t\tint bit = write_page % 32;
  1739\t}

---
0-DAY kernel test infrastructure
"""

# From the same archive: the listing after `git blame`'s columns, "@51" the line it names.
BLAME = """\
vim +/hpage_shift +51 arch/ia64/include/asm/page.h

^1da177e4c3f41 include/asm-ia64/page.h      Linus Torvalds    2005-04-16   49  #ifdef CONFIG_HUGETLB_PAGE
0a41e250116058 include/asm-ia64/page.h      Peter Chubb       2005-08-16   50  # define HPAGE_REGION_BASE\tRGN_BASE(RGN_HPAGE)
^1da177e4c3f41 include/asm-ia64/page.h      Linus Torvalds    2005-04-16  @51  # define HPAGE_SHIFT\t\thpage_shift
^1da177e4c3f41 include/asm-ia64/page.h      Linus Torvalds    2005-04-16   52  # define HPAGE_SHIFT_DEFAULT\t28\t/* check ia64 SDM */
^1da177e4c3f41 include/asm-ia64/page.h      Linus Torvalds    2005-04-16   53

Thanks
"""


def lines_of(text: str) -> list[Line]:
    out = []
    for k, raw in enumerate(text.split("\n")):
        depth, body = quote_depth(raw)
        out.append(Line(body, k + 1, depth))
    return out


def _listed(text: str) -> list[str]:
    raws = text.split("\n")
    return [raws[i] for i in sorted(listing_lines(lines_of(text)))]


def test_a_robot_listing_is_skipped_around_the_line_it_marks() -> None:
    listed = _listed(ROBOT)
    assert len(listed) == 15 and all(r.startswith("  17") for r in listed)
    kept = cut_listings(ROBOT)
    assert "1725" not in kept and "1739" not in kept
    assert "> 1734" in kept  # one line at another depth is not a run
    assert kept.startswith("vim +1734") and kept.endswith("---\n0-DAY kernel test infrastructure\n")


def test_git_blame_columns_before_the_number_are_part_of_the_listing() -> None:
    assert len(_listed(BLAME)) == 5
    assert cut_listings(BLAME) == "vim +/hpage_shift +51 arch/ia64/include/asm/page.h\n\n\nThanks\n"


def test_a_quoted_listing_is_cut_at_its_own_prefix_only() -> None:
    quoted = "".join(f"> {ln}\n" for ln in ROBOT.split("\n")[2:8])
    assert len(listing_lines(lines_of(quoted))) == 6 and cut_listings(quoted) == ""
    mixed = "> 10\tint a;\n>> 11\tint b;\n> 12\tint c;\n"  # the depth changes: no run
    assert listing_lines(lines_of(mixed)) == set() and cut_listings(mixed) == mixed


@pytest.mark.parametrize("text", [
    # a table whose rows are numbered: values follow the row number
    "  1  tcp_rr   1200  1350\n  2  tcp_crr   800   910\n  3  udp_rr   1500  1620\n",
    "1\t10.2 Gbps\n2\t11.0 Gbps\n3\t12.1 Gbps {best}\n",
    # shell history and numbered steps: nothing reads as C
    "  501  netperf -H 10.0.0.2 -t TCP_RR\n  502  ethtool -K eth0 gro off\n  503  netperf -H 10.0.0.2\n",
    "1  apply the patch\n2  reboot\n3  run the test\n",
    # numbers that do not count up by one, and a run of two
    "  10\tint a;\n  12\tint b;\n  14\tint c;\n",
    "  10\tint a;\n  11\tint b;\n",
])
def test_what_is_not_a_listing_stays(text: str) -> None:
    assert listing_lines(lines_of(text)) == set()
    assert cut_listings(text) == text


def test_a_claim_after_a_listing_is_still_found() -> None:
    text = BLAME + "\nWith the patch: 12.5 Gbps\nWithout the patch: 10.1 Gbps\n"
    claims = extract_message(message_from_text(text)).claims
    assert [(c.baseline.value, c.candidate.value) for c in claims if c.baseline and c.candidate] == [(10.1, 12.5)]
    assert "12.5 Gbps" in cut_listings(text)


@pytest.mark.skipif(not TEXTS, reason="shared corpus not present")
def test_the_cut_keeps_every_line_the_extractor_reads() -> None:
    """Over the corpus, the shapes and the two archive listings, each as a text and quoted
    in a reply: every line outside listing_lines is still in the cut text, and the cut
    takes every listing line whose run has one quote prefix."""
    checked = cut = 0
    raws = [p.read_text(encoding="utf-8", errors="replace") for p in TEXTS] + [ROBOT, BLAME]
    for raw in raws:
        for text in (raw, "".join(f"> {ln}\n" for ln in raw.split("\n"))):
            lines = lines_of(text)
            skipped = listing_lines(lines)
            split = text.split("\n")
            want = Counter(split[i] for i in range(len(split)) if i not in skipped and split[i].strip(" >"))
            got = Counter(ln for ln in cut_listings(text).split("\n") if ln.strip(" >"))
            assert not want - got, f"{sorted(want - got)[:3]}"
            listed = Counter(split[i] for i in skipped if split[i].strip(" >"))
            assert not got & listed, f"{sorted(got & listed)[:3]}"
            checked += 1
            cut += bool(skipped)
    assert checked == 2 * len(raws) and cut >= 4


@pytest.mark.skipif(not TEXTS, reason="shared corpus not present")
def test_the_marked_lines_are_those_of_the_one_mark_pattern() -> None:
    """marked_lines finds _MARK from the tab or the two blanks after the digit: over the
    corpus, the shapes and the archive listings, each as a text and quoted, the same lines."""
    found = 0
    raws = [p.read_text(encoding="utf-8", errors="replace") for p in TEXTS] + [ROBOT, BLAME]
    for raw in raws:
        for text in (raw, "".join(f"> {ln}\n" for ln in raw.split("\n"))):
            want = sorted({text.rfind("\n", 0, m.start()) + 1 for m in listings._MARK.finditer(text)})
            assert listings.marked_lines(text) == want
            found += len(want)
    assert found > 100  # digits before a tab or a column gap: not a comparison of nothing
