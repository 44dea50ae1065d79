"""A real public-inbox on loopback for tests (and demos).

`LocalInbox` creates a v2 inbox in a temporary directory (public-inbox-init -V2, spam
checking off), delivers RFC 822 mails with `public-inbox-mda --no-precheck`, indexes them
and serves them with `public-inbox-httpd -W0` on a free 127.0.0.1 port. `deliver()` works
before and while the server runs (the MDA indexes each mail as it lands), so a bot test can
post a reply and see it in new.atom. `stop()` ends the one server process it started.

`corpus_threads()` turns the shared corpus and seed texts (archive-page text or commit
messages) into small threads: the original as the root, then replies that quote it, with
Message-IDs `<STEM.N@corpus.example>`, In-Reply-To on the first reply and only References
on the second, so both ways of threading are exercised.
"""
from __future__ import annotations

import ctypes
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.header import Header
from email.utils import format_datetime, parsedate_to_datetime
from pathlib import Path

import requests

from tests.paths import SHARED

CORPUS_DIRS = (SHARED / "corpus", SHARED / "seeds")
ARCHIVE = SHARED / "data" / "virtualization-list.mbox.xz"  # the real list archive
DOMAIN = "corpus.example"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _die_with_parent() -> None:
    """In the server's child process: get SIGTERM when the test process dies, so a killed
    pytest run (timeout, ^C) leaves no public-inbox-httpd behind."""
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def have_public_inbox() -> bool:
    return all(shutil.which(t) for t in ("public-inbox-init", "public-inbox-mda",
                                         "public-inbox-index", "public-inbox-httpd"))


@dataclass
class LocalInbox:
    """One public-inbox named `name`, served at `url` once started."""

    root: Path | None = None
    name: str = "netdev"
    address: str = "netdev@vger.kernel.org"
    index_level: str = "full"  # "basic" skips Xapian: no search, ~10x faster to index
    port: int = 0
    _proc: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    _tmp: tempfile.TemporaryDirectory[str] | None = field(default=None, repr=False)
    delivered: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.root is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="localinbox-")
            self.root = Path(self._tmp.name)
        self.root = Path(self.root)
        self.port = self.port or free_port()
        self.env = dict(os.environ, PI_CONFIG=str(self.root / "config"), PI_DIR=str(self.root),
                        PI_EMERGENCY=str(self.root / "emergency"),
                        ORIGINAL_RECIPIENT=self.address)
        self._run(["public-inbox-init", "-V2", "-L", self.index_level, self.name,
                   str(self.root / self.name), self.url, self.address])
        self._run(["git", "config", "-f", str(self.root / "config"),
                   "publicinboxmda.spamcheck", "none"])

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        """The inbox's base URL, e.g. http://127.0.0.1:PORT/netdev."""
        return f"{self.base}/{self.name}"

    def _run(self, argv: list[str], data: bytes | None = None, timeout: float = 120) -> None:
        r = subprocess.run(argv, input=data, env=self.env, capture_output=True, timeout=timeout)
        if r.returncode != 0:
            raise RuntimeError(f"{argv[0]} failed ({r.returncode}): "
                               f"{r.stderr.decode(errors='replace').strip()[-500:]}")

    def deliver(self, msg: bytes | str) -> None:
        """Add one RFC 822 message (also while the server runs)."""
        raw = msg.encode() if isinstance(msg, str) else msg
        self._run(["public-inbox-mda", "--no-precheck"], raw)
        m = re.search(rb"(?im)^Message-ID:\s*<([^>]+)>", raw)
        if m:
            self.delivered.append(m.group(1).decode(errors="replace"))

    def import_mails(self, mails: list[bytes]) -> None:
        """Add many messages at once, before the server starts: one `git fast-import` into
        the v2 epoch (one commit with blob `m` per message, as public-inbox writes them) and
        one `public-inbox-index`. ~50x faster than an MDA run per mail."""
        git_dir = str(self.root / self.name / "git" / "0.git")  # type: ignore[operator]
        head = subprocess.run(["git", f"--git-dir={git_dir}", "rev-parse", "--verify", "-q",
                               "refs/heads/master"], capture_output=True, text=True).stdout.strip()
        stream = []
        for i, raw in enumerate(mails):
            note = b"import %d\n" % i
            stream += [b"commit refs/heads/master\n",
                       b"committer LocalInbox <localinbox@corpus.example> %d +0000\n"
                       % (1_500_000_000 + i),
                       b"data %d\n%s" % (len(note), note)]
            if i == 0 and head:
                stream.append(b"from %s\n" % head.encode())
            stream += [b"M 100644 inline m\n", b"data %d\n%s\n" % (len(raw), raw)]
            m = re.search(rb"(?im)^Message-ID:\s*<([^>]+)>", raw)
            if m:
                self.delivered.append(m.group(1).decode(errors="replace"))
        slack = 120 + len(mails) / 20  # indexing runs at a few hundred mails a second
        self._run(["git", f"--git-dir={git_dir}", "fast-import", "--quiet"], b"".join(stream),
                  timeout=slack)
        self._run(["public-inbox-index", str(self.root / self.name)], timeout=slack)

    def index(self) -> None:
        self._run(["public-inbox-index", str(self.root / self.name)])

    def start(self, timeout: float = 30.0) -> LocalInbox:
        """Index and serve on 127.0.0.1:port; returns once the server answers."""
        self.index()
        log = open(self.root / "httpd.log", "wb")  # noqa: SIM115 - lives as long as the server
        self._proc = subprocess.Popen(
            ["public-inbox-httpd", "-W0", "-l", f"http://127.0.0.1:{self.port}"],
            env=self.env, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
            preexec_fn=_die_with_parent)
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise RuntimeError(f"public-inbox-httpd exited: {self.log()[-500:]}")
            try:
                requests.get(f"{self.url}/", timeout=2)  # any answer: the server is up
                return self
            except requests.RequestException:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"public-inbox-httpd did not answer on {self.url}")

    def log(self) -> str:
        p = self.root / "httpd.log"  # type: ignore[operator]
        return p.read_text(errors="replace") if p.exists() else ""

    def stop(self) -> None:
        """Stop the server this object started and remove its temporary directory."""
        if self._proc is not None and self._proc.poll() is None:
            self._proc.send_signal(signal.SIGTERM)
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait(timeout=10)
        self._proc = None
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> LocalInbox:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


# --- corpus texts -> RFC 822 threads ------------------------------------------------

_HEADER = re.compile(r"^(Date|From|To|CC|Cc|Subject|Message-ID):\s*(.*)$", re.I)
_BANNER_END = re.compile(r"^\s*(Powered by blists|To unsubscribe from this list)", re.I)
BASE_DATE = datetime(2020, 1, 1, tzinfo=UTC)


@dataclass
class Case:
    """A corpus text read as a message: headers it shows and its body, banners stripped."""

    stem: str
    subject: str
    author: str
    date: datetime
    body: str


def _encode(value: str) -> str:
    return value if value.isascii() else Header(value, "utf-8").encode()


def _header_block(lines: list[str], i: int) -> tuple[dict[str, str], int]:
    """Headers shown from line i on (continuation lines joined) and the line after them."""
    headers: dict[str, str] = {}
    last = None
    while i < len(lines):
        ln = lines[i]
        h = _HEADER.match(ln)
        if h and len(h.group(2)) > 200:  # a collapsed page: prose, not a header
            break
        if h:
            last = h.group(1).lower()
            headers[last] = h.group(2).strip()
        elif last and ln[:1] in (" ", "\t") and ln.strip():
            headers[last] += " " + ln.strip()
        else:
            break
        i += 1
    return headers, i


def read_case(path: Path, n: int = 0) -> Case:
    """Strip the archive banner and navigation; keep the shown headers and the body."""
    lines = path.read_text(errors="replace").splitlines()
    title = next((ln.strip() for ln in lines if ln.strip()), path.stem)
    headers: dict[str, str] = {}
    body = lines[1:] or lines  # a commit message: the first line is the subject
    for i, ln in enumerate(lines[:40]):
        if re.match(r"^(Date|From):", ln):
            found, end = _header_block(lines, i)
            if found:
                headers, body = found, lines[end:]
            break
    for k, ln in enumerate(body):
        if _BANNER_END.match(ln):
            body = body[:k]
            if body and body[-1].strip() == "--":
                body = body[:-1]
            break
    subject = headers.get("subject") or title
    author = headers.get("from") or "Corpus Author <author@corpus.example>"
    author = re.sub(r"@(\.\.\.|x{3,})\.?", "@", author)
    try:
        date = parsedate_to_datetime(headers["date"])
    except (KeyError, TypeError, ValueError, IndexError):
        date = BASE_DATE + timedelta(days=n)
    if date.tzinfo is None:
        date = date.replace(tzinfo=UTC)
    return Case(path.stem, subject[:200], author, date, "\n".join(body).strip("\n") + "\n")


def rfc822(subject: str, author: str, date: datetime, msgid: str, body: str,
           in_reply_to: str | None = None, references: list[str] | None = None,
           to: str = "netdev@vger.kernel.org") -> bytes:
    head = [f"From: {_encode(author)}", f"To: {to}", f"Subject: {_encode(subject)}",
            f"Date: {format_datetime(date)}", f"Message-ID: <{msgid}>"]
    if in_reply_to:
        head.append(f"In-Reply-To: <{in_reply_to}>")
    if references:
        head.append("References: " + " ".join(f"<{r}>" for r in references))
    head += ["MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8",
             "Content-Transfer-Encoding: 8bit"]
    return ("\n".join(head) + "\n\n" + body).encode()


def quote(body: str) -> str:
    return "\n".join(">" + (" " + ln if ln and not ln.startswith(">") else ln)
                     for ln in body.rstrip("\n").splitlines()) + "\n"


def case_thread(case: Case) -> list[bytes]:
    """Root (the corpus text) + a reply quoting it + a reply quoting the reply."""
    root = f"{case.stem}.0@{DOMAIN}"
    r1 = f"{case.stem}.1@{DOMAIN}"
    r2 = f"{case.stem}.2@{DOMAIN}"
    re_subject = "Re: " + re.sub(r"^(Re:\s*)+", "", case.subject, flags=re.I)
    name = case.author.split("<")[0].strip() or "the author"
    reply1 = (f"On {format_datetime(case.date)}, {name} wrote:\n{quote(case.body)}\n"
              "Thanks, these numbers look good to me.\n\n-- \nReviewer One\n")
    reply2 = ("On " + format_datetime(case.date + timedelta(hours=1)) +
              ", Reviewer One wrote:\n" + quote(reply1.split("\n-- \n")[0]) +
              "\nAgreed, please respin with the results in the changelog.\n")
    return [
        rfc822(case.subject, case.author, case.date, root, case.body),
        rfc822(re_subject, "Reviewer One <reviewer1@corpus.example>",
               case.date + timedelta(hours=1), r1, reply1, in_reply_to=root, references=[root]),
        rfc822(re_subject, "Reviewer Two <reviewer2@corpus.example>",
               case.date + timedelta(hours=2), r2, reply2, references=[root, r1]),
    ]


def corpus_cases(dirs: tuple[Path, ...] = CORPUS_DIRS) -> list[Case]:
    """Every corpus and seed text, once (seeds duplicate corpus sNNN)."""
    seen: set[str] = set()
    cases = []
    for d in dirs:
        for n, p in enumerate(sorted(d.glob("*.txt"))):
            text = p.read_text(errors="replace")
            if text in seen:
                continue
            seen.add(text)
            cases.append(read_case(p, n))
    return cases


def archive_mails(path: Path = ARCHIVE,
                  limit: int | None = None) -> list[bytes]:
    """The first `limit` messages of a (xz-compressed) mboxrd archive, as RFC 822 bytes."""
    import lzma

    opener = lzma.open if path.suffix == ".xz" else open
    mails: list[bytes] = []
    cur: list[bytes] = []
    with opener(path, "rb") as f:
        for line in f:
            if line.startswith(b"From "):
                if cur:
                    mails.append(b"".join(cur))
                    if limit is not None and len(mails) >= limit:
                        return mails
                cur = []
                continue
            cur.append(line[1:] if re.match(rb">+From ", line) else line)
    if cur:
        mails.append(b"".join(cur))
    return mails


@contextmanager
def archive_inbox(default_limit: int) -> Iterator[tuple[LocalInbox, list[bytes]]]:
    """The shared archive's first messages served by a local public-inbox (a slow test's
    setup): $VERIFIER_ARCHIVE_LIMIT of them, else `default_limit` (0: all). Skips the test
    when public-inbox or the archive is missing; the inbox is stopped on every path."""
    import pytest

    if not have_public_inbox() or not ARCHIVE.exists():
        pytest.skip("public-inbox or the shared archive is missing")
    limit = int(os.environ.get("VERIFIER_ARCHIVE_LIMIT", str(default_limit))) or None
    mails = archive_mails(ARCHIVE, limit)
    inbox = LocalInbox(name="virtualization", address="virtualization@lists.linux-foundation.org",
                       index_level="basic")
    try:
        inbox.import_mails(mails)
        inbox.start()
        yield inbox, mails
    finally:
        inbox.stop()


def corpus_threads(dirs: tuple[Path, ...] = CORPUS_DIRS) -> dict[str, list[bytes]]:
    """stem -> the RFC 822 mails of its thread (root first)."""
    return {c.stem: case_thread(c) for c in corpus_cases(dirs)}
