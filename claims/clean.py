"""What text from a mail may carry into the program: no line breaks in a header value, no
control or escape characters anywhere.

A Subject encoded-word can decode to CR LF (a header injection in the reply, and
`EmailMessage` refuses it with an exception); an ESC sequence in a body line repaints the
terminal of whoever runs `verifier extract`.  Every decoding path ends here, so the rest of
the program can treat message text as plain printable lines.
"""
from __future__ import annotations

import re

# CSI / OSC / other ESC sequences, removed whole so no half-sequence is left to print.
_ESCAPE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]{0,512}(?:\x07|\x1b\\)?|[@-_]?)"
                     r"|\x9b[0-?]*[ -/]*[@-~]")
# C0 controls except TAB, DEL, C1 controls, and the Unicode line/paragraph separators and
# bidirectional overrides that make a terminal or mail reader show other text than is there.
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_HEADER_BREAK = re.compile(r"[\r\n\t\x0b\x0c\u2028\u2029\x85]+")
REPLACEMENT = "\ufffd"


def has_control(text: str) -> bool:
    """True when `text` holds a character `clean_line` would change. Every such character
    is unprintable to `str.isprintable` (categories Cc, Cf, Zl, Zp), which is checked
    first: it runs in C without the regex machinery, and almost every line is printable.
    So is nearly every body but for its TABs (kept), and that is checked in C too."""
    if text.isprintable():
        return False
    if "\t" in text and text.replace("\t", " ").isprintable():
        return False
    return _CONTROL.search(text) is not None


def clean_line(text: str) -> str:
    """One body line with escape sequences removed and other control characters replaced
    by U+FFFD (TAB is kept: it is layout in pasted tool output)."""
    if not has_control(text):
        return text
    return _CONTROL.sub(REPLACEMENT, _ESCAPE.sub("", text))


def one_line(value: str) -> str:
    """A header value as one line: CR, LF, TAB and other breaks become a space, other control
    characters and escape sequences are dropped."""
    if not has_control(value):
        return value.strip()
    value = _HEADER_BREAK.sub(" ", _ESCAPE.sub("", value))
    return _CONTROL.sub("", value).strip()


def printable(text: str) -> str:
    """Text safe to write to a terminal: newlines and TABs kept, every other control
    character and escape sequence shown as U+FFFD or removed."""
    if not has_control(text.replace("\n", "")):
        return text
    return "\n".join(clean_line(part) for part in text.split("\n"))
