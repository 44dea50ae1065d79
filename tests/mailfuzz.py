"""Hostile mail, generated: what an outsider can send a list the bot reads.

One generator, two users: the suite's hypothesis tests (tests/claims/test_hostile_fuzz.py draw a
seed and a shape) and bench/fuzz.py (100,000 inputs).  Every input is built from a seeded
`random.Random`, so a failure is reproduced from its seed alone and saved under
tests/fixtures/hostile/ as bytes.

Shapes: encoded words in every charset Python knows plus the codec names that are not
charsets (idna, punycode, NUL in the name); nested multipart with missing, repeated and
wrong boundaries; wrong transfer encodings; mbox framing (From_ lines, >From, no blank line,
CRLF, lone CR); HTML parts (nested divs, blockquotes, entities); claim text (commands,
before/after pairs, tables, arrows, Arabic-Indic digits); and mutations of real corpus
and archive messages (flips, splices, duplicated ranges, inserted words).
"""
from __future__ import annotations

import base64
import encodings.aliases
import lzma
import random
from collections.abc import Iterator

from tests.paths import SHARED

CORPUS = SHARED / "corpus"
ARCHIVE = SHARED / "data" / "virtualization-list.mbox.xz"

CODEC_NAMES = sorted(set(encodings.aliases.aliases.values()) | set(encodings.aliases.aliases))
HOSTILE_CHARSETS = ["idna", "punycode", "utf\x00-8", "undefined", "zlib", "base64_codec",
                    "rot13", "hex", "uu", "unicode_escape", "raw_unicode_escape", "utf-7",
                    "utf-16", "utf-32", "", " ", '"', "x" * 200, "utf-8\r\nBcc: x@y",
                    "\x1b[31m", "iso-2022-jp", "gb18030", "cp037", "mbcs", "charmap"]
CHARSETS = CODEC_NAMES + HOSTILE_CHARSETS
ENCODINGS = ["7bit", "8bit", "binary", "base64", "quoted-printable", "x-uuencode", "BASE64",
             " quoted-printable ", "gzip", "", "\x00", "base64; x=y"]
MIMES = ["text/plain", "text/html", "text/x-patch", "text/x-diff", "application/octet-stream",
         "message/rfc822", "multipart/mixed", "multipart/alternative", "multipart/related",
         "text/", "/", "multipart/", "TEXT/PLAIN", "text/csv"]

CLAIM_LINES = [
    "netperf -H 10.0.0.2 -l 30 -t TCP_STREAM", "iperf3 -c 192.168.1.1 -t 10 -P 4",
    "perf stat -r 100 -- netperf -H 8.8.8.8", "sysctl -w vm.swappiness=13",
    "ip netns exec ns1 touch /tmp/canary", "ethtool -K eth0 gro off", "tc qdisc add dev eth0 root fq",
    "before: 9.1 Gbps", "after: 9.5 Gbps", "Before: 1,234,567 pps  After: 1,345,678 pps",
    "throughput improved by 12.5% (from 100 to 112.5 Mbps)", "1.0 -> 2.0", "٣٫٥ -> ٤٫٢",
    "| test | before | after |", "|------|--------|-------|", "| tcp  | 9.1    | 9.5   |",
    "  1,234,567 instructions:k   #  0.55  insns per cycle   ( +-  0.09% )",
    "MIGRATED TCP STREAM TEST from 0.0.0.0 () port 0 AF_INET to 10.0.0.2 () port 0 AF_INET",
    "131072  16384  16384    10.00    9387.53", "[  5]   0.00-10.00  sec  10.9 GBytes  9.38 Gbits/sec",
    "$ netperf -H $peer -l 60 ; rm -rf /", "taskset -c 1 netperf -H `id`", "verifier: check",
    "> before: 5 ms", ">> after: 4 ms", "On Mon, 1 Jan 2024, Eric wrote:", "-- ", "",
    "\x1b[2J\x1b]0;owned\x07", "\t\t", "=" * 80, "before after before after", "+12.3%  -4.5%",
]


def encoded_word(rng: random.Random, text: str | None = None) -> str:
    """An RFC 2047 word in a random charset, sometimes broken on purpose."""
    cs = rng.choice(CHARSETS)
    raw = (text if text is not None else rng.choice(CLAIM_LINES + ["a\r\nb", "x\x00y"])).encode(
        "utf-8", "replace")
    if rng.random() < 0.3:
        raw = bytes(rng.getrandbits(8) for _ in range(rng.randrange(12)))
    if rng.random() < 0.5:
        body = base64.b64encode(raw).decode()
        if rng.random() < 0.2:
            body = body[: rng.randrange(len(body) + 1)] + rng.choice(["", "=", "!!", "===="])
        kind = rng.choice("bB")
    else:
        body = "".join(f"={b:02X}" if b < 33 or b > 126 or chr(b) in "=?_" else chr(b)
                       for b in raw)
        kind = rng.choice("qQ")
    return f"=?{cs}?{kind}?{body}?="


def header_value(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randrange(1, 4)):
        parts.append(encoded_word(rng) if rng.random() < 0.6 else rng.choice(CLAIM_LINES))
    return rng.choice([" ", "", "\r\n ", "\n\t"]).join(parts)


def text_body(rng: random.Random, lines: int | None = None) -> str:
    n = lines if lines is not None else rng.randrange(0, 40)
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.7:
            out.append(rng.choice(CLAIM_LINES))
        elif r < 0.8:
            out.append(rng.choice(CLAIM_LINES) * rng.randrange(1, 30))
        elif r < 0.9:
            out.append("".join(chr(rng.randrange(0, 0x3000)) for _ in range(rng.randrange(40))))
        else:
            out.append(" ".join(f"{rng.uniform(-1e6, 1e6):.{rng.randrange(4)}f}"
                                for _ in range(rng.randrange(1, 12))))
    return "\n".join(out)


def html_body(rng: random.Random) -> str:
    depth = rng.randrange(0, 60)
    inner = text_body(rng, rng.randrange(0, 10)).replace("\n", rng.choice(["<br>", "\n", "</p><p>"]))
    tags = [rng.choice(["div", "blockquote", "p", "pre", "span", "table><tr><td", "li", "ul"])
            for _ in range(depth)]
    opened = "".join(f"<{t}>" for t in tags)
    closed = "".join(f"</{t.split('>')[0]}>" for t in reversed(tags)) if rng.random() < 0.7 else ""
    junk = rng.choice(["", "&#xZZ;", "&#99999999;", "<!--", "<![CDATA[", "<a\nhref=x>", "<"])
    return f"<html><body>{opened}{inner}{junk}{closed}</body></html>"


def encode_body(rng: random.Random, text: str, charset: str, cte: str) -> bytes:
    try:
        data = text.encode(charset if charset in CODEC_NAMES else "utf-8")
    except (LookupError, UnicodeError, ValueError, TypeError):
        data = text.encode("utf-8", "replace")
    if not isinstance(data, bytes):
        data = text.encode("utf-8", "replace")
    c = cte.strip().lower()
    if c == "base64" and rng.random() < 0.8:
        enc = base64.encodebytes(data)
        if rng.random() < 0.2:
            enc = enc[: rng.randrange(len(enc) + 1)] + b"!@#"
        return enc
    if c == "quoted-printable" and rng.random() < 0.8:
        import quopri
        return quopri.encodestring(data) + (b"=\n=ZZ=" if rng.random() < 0.2 else b"")
    return data


def entity(rng: random.Random, depth: int = 0) -> bytes:
    """Headers and body of one MIME entity (possibly multipart, nested)."""
    mime = rng.choice(MIMES) if depth < 6 else "text/plain"
    charset = rng.choice(CHARSETS)
    cte = rng.choice(ENCODINGS)
    head = [f"Content-Type: {mime}; charset=\"{charset}\""]
    if rng.random() < 0.7:
        head.append(f"Content-Transfer-Encoding: {cte}")
    if rng.random() < 0.2:
        head.append("Content-Disposition: " + rng.choice(["attachment", "inline", "attachment; x"]))
    if mime.startswith("multipart/"):
        boundary = rng.choice(["b1", "=_x", "", "a" * 80, "b1\r", "--", "b 1"])
        head[0] = f"Content-Type: {mime}; boundary=\"{boundary}\""
        parts = [entity(rng, depth + 1) for _ in range(rng.randrange(0, 4))]
        sep = rng.choice([boundary, boundary, "other"])
        body = b"".join(b"--" + sep.encode("utf-8", "replace") + b"\n" + p + b"\n" for p in parts)
        if rng.random() < 0.7:
            body += b"--" + boundary.encode("utf-8", "replace") + b"--\n"
    elif mime == "message/rfc822":
        body = message(rng, depth + 1)
    else:
        text = html_body(rng) if mime == "text/html" else text_body(rng)
        body = encode_body(rng, text, charset, cte)
    return ("\n".join(head) + "\n\n").encode("utf-8", "replace") + body


def message(rng: random.Random, depth: int = 0) -> bytes:
    """One whole mail: hostile headers over a random entity."""
    heads = [
        f"From: {header_value(rng)} <a{rng.randrange(99)}@example.org>",
        f"Subject: {header_value(rng)}",
        f"Message-ID: <{rng.randrange(1 << 30)}@fuzz{rng.choice(['', chr(0), '>', ' x'])}>",
        "Date: " + rng.choice(["Mon, 1 Jan 2024 00:00:00 +0000", "garbage", "", "\x00"]),
    ]
    if rng.random() < 0.4:
        heads.append(f"In-Reply-To: <{rng.randrange(1 << 30)}@fuzz>")
    if rng.random() < 0.3:
        heads.append("References: " + " ".join(f"<{rng.randrange(99)}@r>"
                                              for _ in range(rng.randrange(50))))
    if rng.random() < 0.2:
        heads.append(header_value(rng))  # a header without a name
    rng.shuffle(heads)
    return ("\n".join(heads) + "\nMIME-Version: 1.0\n").encode("utf-8", "replace") + entity(rng, depth)


def frame(rng: random.Random, mails: list[bytes]) -> bytes:
    """Several mails as one mbox, with the framing mistakes archives really contain."""
    out = []
    for m in mails:
        sep = rng.choice([b"From fuzz@x Mon Jan  1 00:00:00 2024\n", b"From x\n", b"From \n", b""])
        if rng.random() < 0.2:
            m = m.replace(b"\n", b"\r\n")
        if rng.random() < 0.05:
            m = m.replace(b"\n", b"\r")
        if rng.random() < 0.1:
            m += b"\nFrom the start of a body line\n>From quoted\n"
        out.append(sep + m + rng.choice([b"\n", b"", b"\n\n"]))
    return b"".join(out)


def mutate(rng: random.Random, data: bytes, others: list[bytes] | None = None) -> bytes:
    """Byte-level damage to a real message: flips, deletions, duplicated and spliced ranges,
    encoded words and control characters dropped in."""
    b = bytearray(data)
    for _ in range(rng.randrange(1, 8)):
        if not b:
            b.extend(message(rng))
        op = rng.randrange(7)
        i = rng.randrange(len(b))
        j = min(len(b), i + rng.randrange(1, 200))
        if op == 0:
            b[i] = rng.getrandbits(8)
        elif op == 1:
            del b[i:j]
        elif op == 2:
            b[i:i] = b[i:j] * rng.randrange(1, 20)
        elif op == 3 and others:
            o = rng.choice(others)
            k = rng.randrange(len(o) or 1)
            b[i:i] = o[k:k + rng.randrange(1, 400)]
        elif op == 4:
            b[i:i] = encoded_word(rng).encode("utf-8", "replace")
        elif op == 5:
            b[i:i] = bytes([rng.choice([0, 7, 8, 11, 12, 13, 27, 127, 0x9b, 0xff])]) * rng.randrange(1, 5)
        else:
            b[i:i] = rng.choice(CLAIM_LINES).encode() + b"\n"
    return bytes(b)


def corpus_messages() -> list[bytes]:
    """The labelled corpus's texts (real mails as archive pages and .eml)."""
    if not CORPUS.is_dir():
        return []
    return [p.read_bytes() for p in sorted(CORPUS.glob("d*.txt"))]


def archive_messages(limit: int = 2000) -> list[bytes]:
    """The first `limit` messages of the real list archive, split on From_ lines."""
    if not ARCHIVE.exists():
        return []
    out: list[bytes] = []
    cur: list[bytes] = []
    with lzma.open(ARCHIVE) as f:
        for line in f:
            if line.startswith(b"From ") and cur:
                out.append(b"".join(cur))
                cur = []
                if len(out) >= limit:
                    break
            cur.append(line)
    return out


def hostile_input(rng: random.Random, seeds: list[bytes]) -> bytes:
    """One input of any shape: a generated mail, an mbox of them, or a mutated real one."""
    r = rng.random()
    if r < 0.35:
        return message(rng)
    if r < 0.5:
        return frame(rng, [message(rng) for _ in range(rng.randrange(1, 5))])
    if r < 0.6:
        return b"Subject: html\nContent-Type: text/html\n\n" + html_body(rng).encode()
    if r < 0.7:
        return b"Subject: claim\n\n" + text_body(rng, rng.randrange(1, 200)).encode()
    if seeds:
        return mutate(rng, rng.choice(seeds), seeds)
    return mutate(rng, message(rng))


def inputs(seed: int, count: int, seeds: list[bytes]) -> Iterator[tuple[int, bytes]]:
    """(input seed, bytes) pairs: input i is reproduced by hostile_input(Random(seed))."""
    for i in range(count):
        s = seed * 1_000_003 + i
        yield s, hostile_input(random.Random(s), seeds)


class Broken(AssertionError):
    """The pipeline accepted an input but left something it promises never to leave."""


def run_pipeline(data: bytes, specs: bool = True) -> int:
    """What the bot does with a mail, in process: read, extract, build and check specs.

    Returns the number of messages read.  A one-line InputError is a correct answer; any
    other exception, a reader-error warning, a multi-line header or a control character in
    a body line is a failure."""
    from claims.clean import has_control
    from claims.extract import extract_message
    from claims.mime import UNREADABLE
    from claims.safety import check_spec
    from claims.sources import InputError, iter_messages
    from claims.spec import Spec
    from claims.specbuild import build_specs

    try:
        msgs = list(iter_messages("fuzz", data=data))
    except InputError as e:
        if "\n" in str(e):
            raise Broken(f"InputError of several lines: {str(e)[:200]!r}") from None
        return 0
    for m in msgs:
        bad = [w for w in m.warnings if w.startswith(UNREADABLE)]
        if bad:
            raise Broken(bad[0])
        for name, v in [("subject", m.subject), ("from", m.from_), *m.headers.items()]:
            if v is not None and has_control(v):
                raise Broken(f"header {name} keeps a control character: {v[:80]!r}")
        for ln in m.lines:
            if has_control(ln.text):
                raise Broken(f"body line keeps a control character: {ln.text[:80]!r}")
        ex = extract_message(m)
        if specs:
            for s in build_specs([ex]):
                check_spec(s)
                Spec.from_yaml(s.to_yaml())
    return len(msgs)
