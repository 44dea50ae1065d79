"""claims.hunks: patch hunks found on message lines (the extractor) and cut from a decoded
body (the pre-scan), wrapped hunk headers and quoted patches included; the cut never takes
a line the extractor reads."""
from __future__ import annotations

from collections import Counter

import pytest

from claims import hunks
from claims.hunks import cut_hunks, fragment_runs, hunk_lines
from claims.message import quote_depth
from claims.model import Line
from tests.paths import SHARED

TEXTS = sorted((SHARED / "corpus").glob("*.txt")) + sorted((SHARED / "shapes").glob("*.txt"))

# A reply from the shared archive (virtualization list, 2019, "compat_ioctl: move drivers to
# compat_ptr_ioctl"): the quoting client re-wrapped the hunk header, and its tail came back
# one quote level up; the hunk goes on below it.
WRAPPED_QUOTED = """\
> > --- a/drivers/char/ppdev.c
> > +++ b/drivers/char/ppdev.c
> > @@ -674,14 +674,6 @@ static long pp_ioctl(struct file *file, unsigned int
> cmd, unsigned long arg)
> >  	return ret;
> >  }
> >
> > -#ifdef CONFIG_COMPAT
> > -static long pp_compat_ioctl(struct file *file, unsigned int cmd,
> > -			    unsigned long arg)
> > -{
> > -	return pp_ioctl(file, cmd, (unsigned long)compat_ptr(arg));
> > -}
> > -#endif
> > -
> >  static int pp_open(struct inode *inode, struct file *file)  {
> >  	unsigned int minor = iminor(inode);
> > @@ -790,9 +782,7 @@ static const struct file_operations pp_fops = {
> >  	.write		= pp_write,
> >  	.poll		= pp_poll,

Looks fine to me: 58 lines fewer.
"""


def lines_of(text: str) -> list[Line]:
    out = []
    for k, raw in enumerate(text.split("\n")):
        depth, body = quote_depth(raw)
        out.append(Line(body, k + 1, depth))
    return out


def test_a_wrapped_quoted_header_does_not_end_the_hunk() -> None:
    lines = lines_of(WRAPPED_QUOTED)
    skip = hunk_lines(lines)
    last = next(i for i, ln in enumerate(lines) if ln.text.startswith("Looks fine"))
    assert set(range(last - 1)) <= skip  # every line of the patch, the wrapped tail too
    assert last not in skip
    kept = cut_hunks(WRAPPED_QUOTED)
    assert "CONFIG_COMPAT" not in kept and "cmd, unsigned long arg)" not in kept
    assert "Looks fine to me: 58 lines fewer." in kept


def test_a_code_line_wrapped_inside_a_hunk_is_skipped_while_the_counts_say_it_goes_on() -> None:
    text = ("@@ -1,3 +1,3 @@ int f(void)\n a();\n-b = 10;\n+b = 12; /* a comment the client\n"
            "wrapped here */\n c();\nSince then: 12 Mpps\n")
    lines = lines_of(text)
    skip = hunk_lines(lines)
    assert [ln.text for i, ln in enumerate(lines) if i not in skip and ln.text] == ["Since then: 12 Mpps"]
    # the gate tolerates only a wrapped header, so it keeps the wrapped code line: never more
    assert "wrapped here" in cut_hunks(text) and "Since then" in cut_hunks(text)


def test_after_the_counts_a_text_line_ends_the_hunk() -> None:
    text = "@@ -1 +1 @@\n-a\n+b\nThe patch:\n+5% rx\n"
    lines = lines_of(text)
    assert hunk_lines(lines) == {0, 1, 2}
    assert "+5% rx" in cut_hunks(text)


def test_an_empty_line_in_a_hunk_is_a_context_line_the_mail_stripped() -> None:
    # the shape of a real reply: a pasted diff whose blank context line lost its space,
    # then a separator, a sentence and a bullet that names the first build; counting the
    # blank line closes the hunk, so the sentence and the bullet are read, not skipped
    text = ("@@ -1,4 +1,4 @@ all: ring_test\n ring_test: ring.o\n\n-CFLAGS += -O2\n+CFLAGS += -O2 -mretpoline\n"
            " LDFLAGS += -pthread\n---\n\nAnd the results follow:\n\n- base with retpoline\n\n"
            "$ ./ring_test --fast\n")
    lines = lines_of(text)
    kept = [ln.text for i, ln in enumerate(lines) if i not in hunk_lines(lines) and ln.text]
    assert kept == ["And the results follow:", "- base with retpoline", "$ ./ring_test --fast"]
    assert all(k in cut_hunks(text) for k in kept)


def test_an_unwrapped_header_then_prose_ends_the_hunk() -> None:
    # a header whose next line is prose at another depth (a reviewer's reply) is no wrap
    text = "> @@ -1,2 +1,2 @@\nWhy this?\n> +x\n"
    assert 1 not in hunk_lines(lines_of(text))
    assert "Why this?" in cut_hunks(text)


def test_headerless_code_runs_are_skipped_by_both() -> None:
    code = ["+\t\t\tj = (j + 1) % vq->split.vring.num;", "+\t\t/* move to next */", "+\t\tvq->next = j;"]
    text = "".join(f"> {t}\n" for t in code) + "\n+5.2% rx\n"
    lines = lines_of(text)
    assert fragment_runs(lines) == {0, 1, 2}
    assert "vq->next" not in cut_hunks(text) and "+5.2% rx" in cut_hunks(text)


@pytest.mark.skipif(not TEXTS, reason="shared corpus not present")
def test_the_cut_keeps_every_line_the_extractor_reads() -> None:
    """Over the corpus and the shapes, each as a text and quoted in a reply: every line
    the extractor reads (outside hunk_lines and fragment_runs) is still in the cut text."""
    checked = 0
    for path in TEXTS:
        raw = path.read_text(encoding="utf-8", errors="replace")
        for text in (raw, "".join(f"> {ln}\n" for ln in raw.split("\n"))):
            lines = lines_of(text)
            skipped = hunk_lines(lines) | fragment_runs(lines)
            raws = text.split("\n")
            want = Counter(raws[i] for i in range(len(raws)) if i not in skipped and raws[i].strip(" >"))
            got = Counter(ln for ln in cut_hunks(text).split("\n") if ln.strip(" >"))
            assert not want - got, f"{path.name}: {sorted(want - got)[:3]}"
            checked += 1
    assert checked == 2 * len(TEXTS)


@pytest.mark.skipif(not TEXTS, reason="shared corpus not present")
def test_cutting_at_marked_lines_is_the_whole_text_substitution() -> None:
    """cut_hunks tries its patterns only at the lines a mark finds: over the corpus and the
    shapes, each as a text and quoted in a reply, it cuts exactly what substituting the
    patterns over the whole text cuts."""
    def by_sub(text: str) -> str:
        if any(h in text for h in hunks.HINTS):
            text = hunks._QHUNK.sub("", hunks._HUNK.sub("", text))
        return hunks._QFRAGMENT.sub("", hunks._FRAGMENT.sub("", text))

    cut = 0
    for path in TEXTS:
        raw = path.read_text(encoding="utf-8", errors="replace")
        for text in (raw, "".join(f"> {ln}\n" for ln in raw.split("\n"))):
            assert cut_hunks(text) == by_sub(text), path.name
            cut += cut_hunks(text) != text
    assert cut > 10  # the corpus holds patches: the comparison is not of untouched texts


@pytest.mark.skipif(not TEXTS, reason="shared corpus not present")
def test_marks_looked_for_after_each_cut_give_the_same_cut() -> None:
    """cut_at_marks searches for the next marked line only past the last cut: over the
    corpus and the shapes, each as a text and quoted in a reply, each of cut_hunks' four
    patterns cuts what it cuts when tried at every marked line (line_marks)."""
    steps = ((hunks._HUNK, hunks._AT_HUNK), (hunks._QHUNK, hunks._AT_QHUNK),
             (hunks._FRAGMENT, hunks._AT_FRAGMENT), (hunks._QFRAGMENT, hunks._AT_QFRAGMENT))
    cut = 0
    for path in TEXTS:
        raw = path.read_text(encoding="utf-8", errors="replace")
        for text in (raw, "".join(f"> {ln}\n" for ln in raw.split("\n"))):
            for pattern, mark in steps:
                want = hunks.cut_matches(pattern, text, hunks.line_marks(mark, text))
                assert hunks.cut_at_marks(pattern, text, mark) == want, path.name
                cut += want != text
    assert cut > 10


def test_a_hunk_on_the_first_line_and_right_after_another_is_cut() -> None:
    text = "@@ -1 +1 @@\n-a\n+b\n\n@@ -5 +5 @@\n-c\n+d\nafter: 12 Mpps\n"
    assert cut_hunks(text) == "\nafter: 12 Mpps\n"
    assert hunks.cut_matches(hunks._HUNK, text, [0]) == hunks._HUNK.sub("", text, count=1)
