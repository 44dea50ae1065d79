"""The bot: watch public-inbox lists, verify what people ask for, reply once.

Each iteration: poll every list (new.atom, or a search query from the last position) and
record each new message with the decision it carries (`verifier: check` from an allowed
address, `verifier: no`/`stop` from the thread's author or a maintainer); extract the
claims of requested threads into the queue; run queued specs on the runner (one at a time
per host, every run record stored as it completes, so an interrupted run resumes where it
was); judge; reply through verifier.reply.  Every step is committed in verifier.state
before the next begins.  A reply is recorded as 'sending' with its Message-ID before the
SMTP call, and after a crash the inbox is asked for that Message-ID before sending again.
"""
from __future__ import annotations

import email
import fcntl
import hashlib
import json
import logging
import os
import re
import subprocess
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from email import policy
from email.message import EmailMessage
from email.utils import parseaddr
from functools import partial
from pathlib import Path
from typing import IO, Any
from urllib.parse import unquote

from claims.extract import extract_message, might_have_claims
from claims.model import Message
from claims.sources import InputError, iter_messages
from claims.spec import Spec
from claims.specbuild import build_specs
from runners.results import Results, RunRecord
from verifier import state as st
from verifier.fetch import FetchError
from verifier.fetch.lore import PublicInbox
from verifier.state import ClaimRow, State
from verifier.thread import attribute_claims, build_thread

log = logging.getLogger("verifier.bot")

_TRIGGER = re.compile(r"^\s*verifier:\s*(check|no|stop)\b", re.I)
_SERIES = re.compile(r"^\s*(re:\s*|\[[^\]]*\]\s*)*", re.I)
_VERSION = re.compile(r"\[[^\]]*\bv(\d+)\b[^\]]*\]", re.I)


class BotError(Exception):
    """The bot cannot start (bad configuration); one line for the operator."""


@dataclass
class BotConfig:
    """The [bot] table of the configuration file (docs/bot.md)."""

    lists: list[str]
    state: Path
    outbox: Path
    interval: float = 300.0
    watch: str = "atom"  # atom (new.atom) | search (query) | git (mirror the inbox's epochs)
    query: str | None = None  # the search query for watch = "search"
    allow: list[str] = field(default_factory=list)  # may ask: `verifier: check`
    maintainers: list[str] = field(default_factory=list)  # may ask and opt threads out
    verify_all: bool = False  # every patch thread with claims from allowed authors/lists
    all_authors: list[str] = field(default_factory=list)  # empty: any author
    all_lists: list[str] = field(default_factory=list)  # empty: every watched list
    replies_per_day: int = 20
    replies_per_thread: int = 1
    replies_per_author: int = 3  # per day, to threads started by one author
    claims_per_thread: int = 3
    runner: str = "netns"  # netns (this machine) | fleet (the lab's dask workers)
    netns_prefix: str = "pcvbot"
    scheduler: str | None = None  # fleet: tcp://ctl:8786 or tls://...
    tags: list[str] = field(default_factory=list)  # fleet: what a host must have
    tls_ca: str | None = None  # fleet: the files of a tls:// scheduler
    tls_cert: str | None = None
    tls_key: str | None = None
    duration: float = 5.0  # seconds per benchmark run (caps what the mail asked for)
    max_runs: int = 10  # runs per variant at most (sequential looks stop earlier)
    calibrate: bool = True  # A/A baseline runs set the noise band before the looks (cached)
    warmup: int = 1
    approve: bool = False  # setup steps off the allow-list never run unattended
    run: bool = True  # false: decide and queue claims only (a plan of what would run)
    dry_run: bool = False
    patchwork: str = ""  # a patchwork URL: post a perf-claim check per patch (token: env)

    @classmethod
    def from_section(cls, sec: dict[str, Any], base: Path | None = None) -> BotConfig:
        from verifier.config import config_errors

        problems = config_errors(sec, "bot")  # every value typed: "false" is not false
        if problems:
            raise BotError(problems[0] + (f" (and {len(problems) - 1} more)"
                                          if len(problems) > 1 else ""))
        lists = sec.get("lists") or ([sec["list"]] if sec.get("list") else [])
        if not lists or not all(isinstance(x, str) and x.startswith(("http://", "https://"))
                                for x in lists):
            raise BotError("[bot] lists must name one or more public-inbox http(s) URLs")
        if sec.get("watch", "atom") not in ("atom", "search", "git"):
            raise BotError("[bot] watch must be atom, search or git")
        if sec.get("watch") == "search" and not sec.get("query"):
            raise BotError("[bot] watch = \"search\" needs a query")
        root = base or Path.cwd()
        known = {f for f in cls.__dataclass_fields__ if f not in ("lists", "state", "outbox")}
        unknown = sorted(set(sec) - known - {"lists", "list", "state", "outbox"})
        if unknown:
            raise BotError(f"[bot] unknown setting(s): {', '.join(unknown)}")
        kw: dict[str, Any] = {}
        for k in known:
            if k in sec:
                want = type(getattr(cls, k, None)) if hasattr(cls, k) else None
                v = sec[k]
                if want in (int, float) and not isinstance(v, (int, float)):
                    raise BotError(f"[bot] {k} must be a number")
                kw[k] = v
        for k in ("allow", "maintainers", "all_authors"):
            kw[k] = [str(a).lower() for a in kw.get(k, [])]
        if kw.get("runner", "netns") not in ("netns", "fleet"):
            raise BotError("[bot] runner must be netns or fleet")
        if kw.get("runner") == "fleet" and not kw.get("scheduler"):
            raise BotError("[bot] runner = \"fleet\" needs scheduler = \"tcp://HOST:PORT\"")
        if "tags" in kw:
            from runners.fleet_host import FleetError, parse_tags

            tags = kw["tags"]
            try:
                kw["tags"] = parse_tags(tags if isinstance(tags, str) else ",".join(tags))
            except FleetError as e:
                raise BotError(f"[bot] tags: {e}") from None
        return cls(lists=[str(x).rstrip("/") for x in lists],
                   state=root / str(sec.get("state", "bot-state.sqlite")),
                   outbox=root / str(sec.get("outbox", "outbox")), **kw)


def load_bot_config(path: str | None, dry_run: bool = False) -> tuple[BotConfig, Any]:
    """[bot] and [smtp] of the config file (relative paths from the file's directory)."""
    from verifier.config import ConfigError, load_config
    from verifier.reply import ReplyError, smtp_settings

    try:
        conf = load_config(path)
        if path is not None and not Path(path).exists():
            raise BotError(f"no config file {path}")
        cfg = BotConfig.from_section(conf.section("bot"),
                                     conf.path.parent if conf.path else None)
        smtp = smtp_settings(conf.section("smtp"))
    except (ConfigError, ReplyError) as e:
        raise BotError(str(e)) from None
    cfg.dry_run = cfg.dry_run or dry_run
    return cfg, smtp


def address(value: str | None) -> str:
    return parseaddr(value or "")[1].lower()


def series_of(subject: str | None) -> tuple[str, int]:
    """(series key, version): '[PATCH v2 net-next 1/3] foo' -> ('foo', 2)."""
    s = subject or ""
    m = _VERSION.search(s)
    return _SERIES.sub("", s).strip().lower(), int(m.group(1)) if m else 1


def spec_hash(spec: dict[str, Any]) -> str:
    """The spec version: what would run and be compared, not its seed or wording."""
    keep = {k: spec.get(k) for k in ("benchmark", "server", "variants", "metrics", "needs")}
    return hashlib.sha256(json.dumps(keep, sort_keys=True).encode()).hexdigest()[:16]


def triggers(msg: Message) -> list[str]:
    """'check' / 'no' / 'stop' lines the sender wrote (quoted lines do not count)."""
    return [m.group(1).lower() for ln in msg.lines
            if ln.depth == 0 and (m := _TRIGGER.match(ln.text))]


def parse_raw(raw: bytes, name: str = "message") -> Message | None:
    try:
        return next(iter_messages(name, data=raw), None)
    except (InputError, ValueError) as e:
        log.info("skipped %s because it cannot be read: %s", name, e)
        return None


def atom_ids(feed: bytes) -> list[str]:
    """Message-IDs in a public-inbox new.atom feed, oldest first."""
    try:
        root = ET.fromstring(feed)
    except ET.ParseError as e:
        raise FetchError(f"new.atom is not a feed: {e}") from None
    ns = {"a": "http://www.w3.org/2005/Atom"}
    out = []
    for entry in root.findall("a:entry", ns):
        link = entry.find("a:link", ns)
        href = link.get("href", "") if link is not None else ""
        parts = [p for p in href.split("/") if p]
        if parts:
            out.append(unquote(parts[-1]))
    return out[::-1]


@contextmanager
def host_lock(path: Path) -> Iterator[None]:
    """One benchmark at a time per host, across bot processes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def remove_stale_namespaces(prefix: str) -> list[str]:
    """Namespaces a killed bot left behind (only the bot's own prefix, under the host lock)."""
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, timeout=30)
    gone = []
    for line in out.stdout.splitlines():
        name = line.split()[0] if line.split() else ""
        if re.fullmatch(re.escape(prefix) + r"-[0-9a-f]{6}-[cs]", name):
            pids = subprocess.run(["ip", "netns", "pids", name], capture_output=True,
                                  text=True, timeout=30).stdout.split()
            for pid in pids:
                subprocess.run(["kill", "-KILL", pid], capture_output=True, timeout=30)
            subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=30)
            gone.append(name)
    return gone


def lock_state(state: Path) -> IO[str]:
    """Hold `<state>.bot.lock` for this process's life (released when it exits, however it
    exits); raise BotError when another bot holds it."""
    path = state.with_name(state.name + ".bot.lock")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        f = open(path, "a+")  # noqa: SIM115 - held until close()
    except OSError as e:
        raise BotError(f"cannot lock {path}: {e.strerror or e}") from None
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.seek(0)
        pid = f.read(20).strip()
        f.close()
        raise BotError(f"another bot (pid {pid or '?'}) is running on {state}; "
                       "one bot per state file") from None
    f.seek(0)
    f.truncate()
    f.write(f"{os.getpid()}\n")
    f.flush()
    return f


class Bot:
    """One bot over one state file; `iterate()` is one poll-work-reply round."""

    def __init__(self, cfg: BotConfig, smtp: Any = None) -> None:
        from verifier.reply import SmtpSettings

        self.cfg = cfg
        self.smtp = smtp or SmtpSettings()
        self.me = address(self.smtp.sender)
        self._lock = lock_state(cfg.state)  # two bots on one state ran every claim twice
        try:
            self.state = State(cfg.state)
        except BaseException:
            self._lock.close()
            raise
        self.inboxes = {u: PublicInbox(u) for u in cfg.lists}
        self.pw_done: set[tuple[str, str]] = set()  # (thread, check state) posted

    def close(self) -> None:
        self.state.close()
        self._lock.close()

    # --- watching -------------------------------------------------------------------

    def poll(self) -> int:
        """New messages of every list, each recorded with its decision; returns how many."""
        n = 0
        for url, inbox in self.inboxes.items():
            try:
                for mid, msg in self._new_messages(url, inbox):
                    n += self.see_message(url, msg) if msg else self.see(url, mid)
            except FetchError as e:
                log.warning("poll %s failed: %s", url, e)
        return n

    def _new_messages(self, url: str,
                      inbox: PublicInbox) -> Iterator[tuple[str, Message | None]]:
        if self.cfg.watch == "git":
            yield from self._git_messages(url)
            return
        if self.cfg.watch == "search":
            yield from self._search_messages(url, inbox)
            return
        ids = atom_ids(inbox.new_atom())
        fresh = [i for i in ids if not self.state.seen(i)]
        if ids and len(fresh) == len(ids) and self.state.position(url):
            log.warning("poll %s: all %d feed entries are new; messages may have been "
                        "missed (poll more often or set a query)", url, len(ids))
        for mid in fresh:
            yield mid, None
        if ids:
            self.state.set_position(url, ids[-1])

    def _search_messages(self, url: str,
                         inbox: PublicInbox) -> Iterator[tuple[str, Message | None]]:
        """Search hits dated from two days before the last poll on (Date headers lie a
        little; the messages table drops what was already seen)."""
        started = time.time()
        since = self.state.position(url)
        q = self.cfg.query or ""
        if since:
            q += time.strftime(" d:%Y%m%d..", time.gmtime(float(since) - 2 * 86400))
        data = inbox.search_mbox(q)
        for m in iter_messages("search.mbox", data=data) if data else []:
            if m.message_id and not self.state.seen(m.message_id):
                yield m.message_id, m
        self.state.set_position(url, str(int(started)))

    def _git_messages(self, url: str) -> Iterator[tuple[str, Message | None]]:
        """Every message of the inbox's git epochs (a mirror kept next to the state), in
        the order the list archived them, from the last commit read on."""
        from verifier.inbox_git import GitError, epoch_messages

        mirrors = self.cfg.state.parent / "mirrors" / hashlib.sha1(url.encode()).hexdigest()[:12]
        pos = json.loads(self.state.position(url) or "{}")
        epoch = int(pos.get("epoch", 0))
        while True:
            last = pos.get("commit") if int(pos.get("epoch", 0)) == epoch else None
            try:
                n = 0
                for oid, raw in epoch_messages(f"{url}/{epoch}", mirrors / f"{epoch}.git",
                                               last):
                    msg = parse_raw(raw, f"{url}/{epoch}:{oid[:12]}")
                    if msg is not None and msg.message_id:
                        yield msg.message_id, msg
                    n += 1
                    if n % 200 == 0:
                        self.state.set_position(url, json.dumps({"epoch": epoch, "commit": oid}))
                    last = oid
            except GitError as e:
                if epoch == 0:
                    raise FetchError(str(e)) from None
                return  # no further epoch
            if last:
                self.state.set_position(url, json.dumps({"epoch": epoch, "commit": last}))
            pos = {"epoch": epoch, "commit": last}
            epoch += 1

    def see(self, url: str, mid: str) -> int:
        """Fetch, record one message and what it asks for; 1 if it was new."""
        if self.state.seen(mid):
            return 0
        try:
            raw = self.inboxes[url].raw(mid)
        except FetchError as e:
            log.warning("fetch <%s> failed, will retry: %s", mid, e)
            return 0
        msg = parse_raw(raw, f"<{mid}>")
        if msg is None:
            self.state.add_message(mid, url, mid, "", "", "")
            return 1
        return self.see_message(url, msg)

    def see_message(self, url: str, msg: Message) -> int:
        mid = (msg.message_id or "").strip("<>")
        if not mid or self.state.seen(mid):
            return 0
        refs = [r.strip("<>") for r in [*msg.references, msg.in_reply_to or ""] if r]
        thread_id = self.state.thread_of(refs) or (refs[0] if refs else mid)
        who = address(msg.from_)
        try:
            status, reason, by = self._decide(url, msg, thread_id, who)
        except Exception as e:  # noqa: BLE001 - one bad mail must not stop the bot
            status, reason, by = None, f"skipped because reading it failed: {e!r}"[:300], None
        self.state.add_message(mid, url, thread_id, who, msg.subject or "", msg.date or "",
                               status, reason, by)
        log.info("seen <%s> in %s from %s: %s", mid, url, who or "?",
                 reason or "nothing asked")
        return 1

    def _decide(self, url: str, msg: Message, thread_id: str,
                who: str) -> tuple[str | None, str | None, str | None]:
        if who and who == self.me:
            return None, "our own reply", None
        words = triggers(msg)
        thread = self.state.thread(thread_id)
        author = thread["author"] if thread else who
        if "no" in words or "stop" in words:
            if who == author or who in self.cfg.maintainers:
                return st.OPTED_OUT, f"opt-out by {who}", who
            return None, f"skipped because opt-out from {who} (not the author or a maintainer)", None
        if "check" in words:
            if who in self.cfg.allow or who in self.cfg.maintainers:
                return st.REQUESTED, f"asked by {who}", who
            return None, f"skipped because {who} is not on the allow-list", None
        if self.cfg.verify_all and self._wanted_patch(url, msg, who):
            return st.REQUESTED, "verify-all: patch with claims", "verify_all"
        return None, None, None

    def _wanted_patch(self, url: str, msg: Message, who: str) -> bool:
        if not re.search(r"\[[^\]]*PATCH", msg.subject or "", re.I):
            return False
        if self.cfg.all_lists and url not in self.cfg.all_lists:
            return False
        if self.cfg.all_authors and who not in self.cfg.all_authors:
            return False
        return might_have_claims(msg.body) and bool(extract_message(msg).claims)

    def request(self, thread_id: str, by: str = "operator") -> None:
        """`verifier queue <msgid>`: a maintainer's request, as if they had asked on list."""
        self.state.set_thread(thread_id, st.REQUESTED, f"queued by {by}", by)

    # --- claims ---------------------------------------------------------------------

    def thread_messages(self, thread_id: str) -> tuple[str, list[Message]]:
        """The thread as the list has it now (the bot's own replies left out)."""
        t = self.state.thread(thread_id)
        url = (t or {}).get("list") or self.cfg.lists[0]
        inbox = self.inboxes.get(url, PublicInbox(url))
        try:
            data = inbox.thread_mbox(thread_id)
        except FetchError as e:
            # the root may never have reached this list: ask for a message that did
            known = [m for m in self.state.messages_of(thread_id) if m != thread_id]
            if not (e.not_found and known):
                raise
            data = inbox.thread_mbox(known[0])
        msgs = list(iter_messages("thread.mbox", data=data))
        return url, [m for m in msgs if address(m.from_) != self.me]

    def enqueue(self, thread_id: str) -> int:
        """Claims of a requested thread into the queue, each once per spec version."""
        try:
            _, msgs = self.thread_messages(thread_id)
        except FetchError as e:
            if e.not_found:
                self.state.set_thread(thread_id, "extracted", f"not in the inbox: {e}")
                log.info("skipped <%s> because it is not in the inbox", thread_id)
            else:
                log.warning("thread <%s> not fetched, will retry: %s", thread_id, e)
            return 0
        try:
            specs = self._thread_specs(msgs)
        except Exception as e:  # noqa: BLE001 - recorded, the loop goes on
            self.state.set_thread(thread_id, "extracted", f"extraction failed: {e!r}"[:300])
            log.warning("skipped <%s> because extraction failed: %r", thread_id, e)
            return 0
        added = 0
        for spec in specs[: self.cfg.claims_per_thread]:
            d = spec.to_dict()
            src = d.get("source") or {}
            series, version = series_of(src.get("subject"))
            cid, new = self.state.add_claim(thread_id, src.get("message_id") or thread_id, d,
                                            spec_hash(d), series, version)
            if not new:
                continue
            added += 1
            if not spec.benchmark.argv:
                self.state.set_claim(cid, "not-runnable", "no benchmark command in the thread")
                log.info("skipped claim %d (%s) because the thread gives no command to run",
                         cid, d["id"])
                continue
            log.info("queued claim %d (%s) from <%s>", cid, d["id"], src.get("message_id"))
        if len(specs) > self.cfg.claims_per_thread:
            log.info("skipped %d claims of <%s> because claims_per_thread is %d",
                     len(specs) - self.cfg.claims_per_thread, thread_id,
                     self.cfg.claims_per_thread)
        n = len(specs)
        self.state.set_thread(thread_id, "extracted", f"{n} claim(s), {added} new",
                              (self.state.thread(thread_id) or {}).get("requested_by"))
        if not specs:
            log.info("skipped <%s> because no runnable claim was found", thread_id)
        return added

    @staticmethod
    def _thread_specs(msgs: list[Message]) -> list[Spec]:
        """Specs of the thread's claims, each claim credited to the message that made it."""
        exs = {m.message_id or "": extract_message(m) for m in msgs}
        origins: dict[str, list[Any]] = {}
        for tc in attribute_claims(build_thread(msgs), exs):
            origins.setdefault(tc.origin, []).append(tc.claim)
        return [s for mid, claims in origins.items()
                for s in build_specs([replace(exs[mid], claims=claims)])]

    # --- running --------------------------------------------------------------------

    def run_claim(self, claim: ClaimRow) -> Results:
        """Run (or resume) one claim's spec; each RunRecord is stored as it completes."""
        from runners.execute import execute, new_results
        from runners.netns import NetnsRunner
        from verifier.sequential import run_sequential

        spec = Spec.from_dict(claim.spec)
        spec.run.max_repetitions = min(spec.run.max_repetitions or self.cfg.max_runs,
                                       self.cfg.max_runs)
        every = self.state.runs(claim.id)
        stored = _latest_attempts(every)
        if self.cfg.runner == "fleet":
            spec.run.warmup = self.cfg.warmup
            self.state.set_claim(claim.id, "running")
            return self._run_on_fleet(claim, spec, every, stored)
        if stored:
            spec.run.warmup = 0 if any(r.warmup for r in stored) else self.cfg.warmup
            log.info("resuming claim %d with %d stored runs", claim.id, len(stored))
        else:
            spec.run.warmup = self.cfg.warmup
        self.state.set_claim(claim.id, "running")
        lock = self.cfg.state.parent / f"host-{self.cfg.runner}-{self.cfg.netns_prefix}.lock"
        with host_lock(lock):
            gone = remove_stale_namespaces(self.cfg.netns_prefix)
            if gone:
                log.info("removed namespaces a stopped run left: %s", ", ".join(gone))
            with NetnsRunner(prefix=self.cfg.netns_prefix) as runner:
                results = new_results(spec, runner)
                results.runs = list(stored)

                def keep(_: dict[str, Any]) -> None:
                    self.state.add_run(claim.id, results.runs[-1])

                calibrate = None
                if self.cfg.calibrate:
                    from verifier.calibration import calibrate_on

                    def calibrate() -> dict[str, Any]:
                        return calibrate_on(spec, runner, results, self.cfg.duration)

                results = execute(spec, runner, duration=self.cfg.duration,
                                  approve=self.cfg.approve, progress=keep,
                                  results=results,
                                  stopping=partial(run_sequential, calibrate=calibrate))
        return results

    def _run_on_fleet(self, claim: ClaimRow, spec: Spec, every: list[RunRecord],
                      latest: list[RunRecord]) -> Results:
        """The spec's fixed plan on the lab (the hosts serialise themselves; no look-by-look
        stopping across hosts).  A resumed claim dispatches only the plan positions with no
        finished record; a position whose last attempt was lost or cut gets a new attempt.
        `every` is each stored attempt, `latest` the last attempt of each position."""
        from runners.fleet import CUT, LOST, FleetRunner
        from runners.fleet_host import FleetError, security_from

        spec.run.repetitions = spec.run.max_repetitions
        spec.run.duration = min(self.cfg.duration, spec.run.duration_cap)
        unfinished = (LOST, *CUT)
        done = {r.index for r in latest if not (r.error or "").startswith(unfinished)}
        next_attempt = {r.index: r.attempt + 1 for r in latest}
        if latest:
            log.info("resuming claim %d on the fleet: %d of its runs are stored",
                     claim.id, len(done))

        def keep(rec: RunRecord) -> None:
            rec.attempt += next_attempt.get(rec.index, 0)
            self.state.add_run(claim.id, rec)

        try:
            security = security_from(self.cfg.tls_ca, self.cfg.tls_cert, self.cfg.tls_key,
                                     "client")
            with FleetRunner(str(self.cfg.scheduler), self.cfg.tags, security=security,
                             approve=self.cfg.approve) as fleet:
                results = fleet.run(spec, keep, skip=done)
        except FleetError as e:
            raise RuntimeError(str(e)) from None
        results.runs = _latest_attempts([*every, *results.runs])
        if results.status == "complete" and results.runs and not any(
                r.ok for r in results.runs):
            results.status, results.reason = "failed", results.runs[-1].error
        return results

    def judge_claim(self, claim: ClaimRow) -> None:
        """Run, judge and record one queued (or interrupted) claim."""
        from verifier.verdict import judge, summarize

        try:
            results = self.run_claim(claim)
        except BotError:
            raise
        except Exception as e:  # noqa: BLE001 - a recorded failure, never a dead bot
            self.state.set_claim(claim.id, "failed", f"{type(e).__name__}: {e}")
            log.warning("ran claim %d: failed: %s", claim.id, e)
            return
        ok = sum(1 for r in results.runs if r.ok and not r.warmup)
        log.info("ran claim %d: %d runs (%d counted ok), %s%s", claim.id, len(results.runs),
                 ok, results.status, f": {results.reason}" if results.reason else "")
        if results.status != "complete":
            status = "not-runnable" if results.status == "not-runnable" else "failed"
            self.state.set_claim(claim.id, status, results.reason,
                                 _results_head(results))
            return
        verdicts = results.verdicts or judge(results)
        results.verdicts = verdicts
        head = summarize(verdicts)
        text = head.get("verdict") or (verdicts[0]["verdict"] if verdicts else "none")
        self.state.set_verdicts(claim.id, verdicts, str(text))
        self.state.set_claim(claim.id, "judged", None, _results_head(results))
        log.info("verdict claim %d: %s", claim.id, text)

    def results(self, claim_id: int) -> Results | None:
        head = self.state.results_of(claim_id)
        if head is None:
            return None
        res = Results.from_dict(head)
        res.runs = _latest_attempts(self.state.runs(claim_id))
        return res

    # --- replying -------------------------------------------------------------------

    def reply_claim(self, claim: ClaimRow) -> None:
        """Write the reply to the outbox and (unless dry run) send it, once."""
        from verifier.reply import ReplyError, build_reply, reply_key

        done = self.state.reply(claim.id)
        if done and done["status"] in (st.REPLY_SENT, st.REPLY_DRY):
            return
        if done and done["status"] == st.REPLY_SENDING:
            return self._finish_sending(claim, done)
        thread = self.state.thread(claim.thread_id) or {}
        if thread.get("status") == st.OPTED_OUT:
            log.info("skipped reply to claim %d because the thread opted out", claim.id)
            return None
        author = thread.get("author") or ""
        why = self._limited(claim.thread_id, author)
        mid_hint = (done or {}).get("message_id") or ""
        if why:
            if not done or done.get("error") != why:
                self.state.set_reply(claim.id, claim.thread_id, author, mid_hint,
                                     st.REPLY_PENDING, error=why)
                log.info("skipped reply to claim %d because %s (kept queued)", claim.id, why)
            return None
        results = self.results(claim.id)
        if results is None:
            return None
        try:
            url, msgs = self.thread_messages(claim.thread_id)
            msg = build_reply(results, msgs, self.smtp.sender, deliverable=not self.cfg.dry_run,
                              requested_by=thread.get("requested_by"),
                              public_url=self.smtp.public_url)
        except (FetchError, ReplyError) as e:
            self.state.set_reply(claim.id, claim.thread_id, author, mid_hint, st.REPLY_FAILED,
                                 error=str(e))
            log.warning("reply to claim %d not built: %s", claim.id, e)
            return None
        key = reply_key(results)
        domain = self.me.rpartition("@")[2] or "localhost"
        del msg["Message-ID"]
        msg["Message-ID"] = f"<verifier.{claim.id}.{key}@{domain}>"
        path = self.cfg.outbox / f"reply-{claim.id}-{key}.eml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(bytes(msg))
        mid = msg["Message-ID"].strip("<>")
        if self.cfg.dry_run:
            self.state.set_reply(claim.id, claim.thread_id, author, mid, st.REPLY_DRY,
                                 str(path))
            log.info("replied claim %d (dry run): %s", claim.id, path)
            return None
        self.state.set_reply(claim.id, claim.thread_id, author, mid, st.REPLY_SENDING,
                             str(path))
        self._send(claim, msg, mid, author)
        return None

    def _send(self, claim: ClaimRow, msg: EmailMessage, mid: str, author: str) -> None:
        from verifier.reply import ReplyError, deliver

        try:
            deliver(msg, self.smtp)
        except ReplyError as e:
            self.state.set_reply(claim.id, claim.thread_id, author, mid, st.REPLY_FAILED,
                                 error=str(e))
            log.warning("reply to claim %d not sent, kept queued: %s", claim.id, e)
            return
        self.state.set_reply(claim.id, claim.thread_id, author, mid, st.REPLY_SENT)
        log.info("replied claim %d as <%s>", claim.id, mid)

    def _finish_sending(self, claim: ClaimRow, rec: dict[str, Any]) -> None:
        """A crash between 'sending' and 'sent': look in the inbox before sending again."""
        mid = rec["message_id"]
        url = (self.state.thread(claim.thread_id) or {}).get("list") or self.cfg.lists[0]
        try:
            self.inboxes.get(url, PublicInbox(url)).raw(mid)
            self.state.set_reply(claim.id, claim.thread_id, rec["author"], mid, st.REPLY_SENT)
            log.info("replied claim %d: <%s> already reached %s", claim.id, mid, url)
            return
        except FetchError as e:
            if not e.not_found:
                log.warning("cannot tell whether <%s> was sent, will retry: %s", mid, e)
                return
        try:
            raw = Path(rec["path"]).read_bytes()
        except (OSError, TypeError) as e:
            self.state.set_reply(claim.id, claim.thread_id, rec["author"], mid,
                                 st.REPLY_FAILED, error=f"outbox copy lost: {e}")
            return
        msg = email.message_from_bytes(raw, policy=policy.SMTP)
        self.state.set_reply(claim.id, claim.thread_id, rec["author"], mid, st.REPLY_SENDING)
        self._send(claim, msg, mid, rec["author"])  # type: ignore[arg-type]

    def _limited(self, thread_id: str, author: str) -> str | None:
        day = time.time() - 86400
        if self.state.replies_since(day) >= self.cfg.replies_per_day:
            return f"rate limit: {self.cfg.replies_per_day} replies per day"
        if self.state.replies_since(0, thread_id=thread_id) >= self.cfg.replies_per_thread:
            return f"rate limit: {self.cfg.replies_per_thread} replies per thread"
        if author and self.state.replies_since(day, author=author) >= self.cfg.replies_per_author:
            return f"rate limit: {self.cfg.replies_per_author} replies per author per day"
        return None

    # --- the loop -------------------------------------------------------------------

    def iterate(self) -> None:
        """Poll, enqueue requested threads, run the queue, reply, retry unsent replies."""
        self.poll()
        for t in self.state.threads(st.REQUESTED):
            self.enqueue(t["thread_id"])
        if not self.cfg.run:
            return
        for claim in self.state.claims(status=("running", "queued")):
            t = self.state.thread(claim.thread_id) or {}
            if t.get("status") == st.OPTED_OUT:
                self.state.set_claim(claim.id, "skipped", "thread opted out")
                log.info("skipped claim %d because the thread opted out", claim.id)
                continue
            self.judge_claim(claim)
        for claim in self.state.claims(status=("judged",)):
            self.reply_claim(claim)
        if self.cfg.patchwork and not self.cfg.dry_run:
            from verifier.patchwork import bot_post
            bot_post(self.state, self.results, self.cfg.patchwork, self.smtp.public_url,
                     self.pw_done)

    def run_forever(self, once: bool = False) -> None:
        while True:
            self.iterate()
            if once:
                return
            time.sleep(self.cfg.interval)


def _latest_attempts(records: list[RunRecord]) -> list[RunRecord]:
    """One record per run position: the last attempt wins."""
    by_idx: dict[int, RunRecord] = {}
    for r in records:
        if r.index not in by_idx or r.attempt >= by_idx[r.index].attempt:
            by_idx[r.index] = r
    return [by_idx[i] for i in sorted(by_idx)]


def _results_head(results: Results) -> dict[str, Any]:
    """The results file without its runs (those live in the runs table)."""
    d = results.to_dict()
    d["runs"] = []
    return d
