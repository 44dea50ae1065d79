"""claims.clean's fast path: `str.isprintable` is checked before the control regex, which
is exact only if every character the regex changes is unprintable."""
from __future__ import annotations

import sys

from claims.clean import _CONTROL, clean_line, has_control, one_line


def test_every_control_character_is_unprintable() -> None:
    printable = [hex(c) for c in range(sys.maxunicode + 1)
                 if _CONTROL.match(chr(c)) and chr(c).isprintable()]
    assert printable == []


def test_printable_unicode_is_kept_and_controls_are_not() -> None:
    assert not has_control("été 10\u00a0Gbps → 12 Gbps ١٢")  # NBSP is unprintable, not a control
    assert clean_line("a\x1b[31mred\x1b[0m\u202eb") == "ared\ufffdb"
    assert one_line(" Subject:\r\n injected ") == "Subject:  injected"


def test_tabs_do_not_hide_controls() -> None:
    """The TAB shortcut (a body printable but for its TABs has no control) agrees with the
    regex on every character beside TABs, spaces and NBSPs."""
    for c in range(0x3000):
        for text in (f"\t{chr(c)}", f"a\tb{chr(c)}\t", f"{chr(c)}\u00a0\t"):
            assert has_control(text) == (_CONTROL.search(text) is not None), hex(c)
