"""The bot: watch public-inbox lists, verify what people ask for, reply once.

Each round (`iterate`) runs the stages in order, each a module around the shared state
(verifier.state), every step committed before the next begins:

    watch    verifier.bot_watch    new messages of every list, each with its decision
    decide   verifier.bot_decide   what a message asks (check, opt out) and who may ask
    plan     verifier.bot_plan     a requested thread's claims into the queue
    execute  verifier.bot_execute  queued claims run and judged (verifier.pipeline)
    reply    verifier.bot_reply    the reply written and mailed once (verifier.reply)

Settings are the [bot] table (verifier.bot_config).  One bot per state file.
"""
from __future__ import annotations

import fcntl
import logging
import os
import signal
import sys
import time
from pathlib import Path
from typing import IO, Any

from runners.results import Results
from verifier import bot_execute, bot_plan, bot_reply, bot_watch
from verifier import state as st
from verifier.bot_config import BotConfig, BotContext, BotError, load_bot_config
from verifier.bot_decide import address
from verifier.state import State, StateError

log = logging.getLogger("verifier.bot")


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
        from verifier.fetch.lore import PublicInbox
        from verifier.reply import SmtpSettings

        smtp = smtp or SmtpSettings()
        self._lock = lock_state(cfg.state)  # two bots on one state ran every claim twice
        try:
            state = State(cfg.state)
        except BaseException:
            self._lock.close()
            raise
        self.ctx = BotContext(cfg, smtp, state, {u: PublicInbox(u) for u in cfg.lists},
                              address(smtp.sender))
        self.pw_done: set[tuple[str, str]] = set()  # (thread, check state) posted

    @property
    def cfg(self) -> BotConfig:
        return self.ctx.cfg

    @property
    def state(self) -> State:
        return self.ctx.state

    def close(self) -> None:
        self.state.close()
        self._lock.close()

    def poll(self) -> int:
        """New messages of every list, each recorded with its decision; returns how many."""
        return bot_watch.poll(self.ctx)

    def enqueue(self, thread_id: str) -> int:
        """Claims of a requested thread into the queue, each once per spec version."""
        return bot_plan.enqueue(self.ctx, thread_id)

    def results(self, claim_id: int) -> Results | None:
        return bot_execute.results_of(self.ctx, claim_id)

    def iterate(self) -> None:
        """Poll, enqueue requested threads, run the queue, reply, retry unsent replies."""
        self.poll()
        for t in self.state.threads.threads(st.REQUESTED):
            self.enqueue(t.thread_id)
        if not self.cfg.run:
            return
        for claim in self.state.claims.claims(status=("running", "queued")):
            thread = self.state.threads.thread(claim.thread_id)
            if thread is not None and thread.status == st.OPTED_OUT:
                self.state.claims.set_claim(claim.id, "skipped", "thread opted out")
                log.info("skipped claim %d because the thread opted out", claim.id)
                continue
            bot_execute.judge_claim(self.ctx, claim)
        for claim in self.state.claims.claims(status=("judged",)):
            bot_reply.reply_claim(self.ctx, claim)
        if self.cfg.patchwork and not self.cfg.dry_run:
            from verifier.patchwork import bot_post
            bot_post(self.state, self.results, self.cfg.patchwork, self.ctx.smtp.public_url,
                     self.pw_done)

    def run_forever(self, once: bool = False) -> None:
        while True:
            self.iterate()
            if once:
                return
            time.sleep(self.cfg.interval)


def serve(config: str | None, once: bool = False, dry_run: bool = False) -> int:
    """`verifier bot`: run rounds until stopped; the exit status.  SIGTERM and SIGHUP stop
    it like Ctrl-C (the run in progress cleaned up, what finished stored: 128 + signal)."""
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s bot: %(message)s", datefmt="%Y-%m-%d %H:%M:%S")
    try:
        cfg, smtp = load_bot_config(config, dry_run)
        bot = Bot(cfg, smtp)
    except (BotError, StateError) as e:
        print(f"verifier bot: {e}", file=sys.stderr)
        return 2
    old = {s: signal.signal(s, _stop) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        bot.run_forever(once=once)
    except BotError as e:
        print(f"verifier bot: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as e:
        # The runner's cleanup has restored settings and deleted namespaces on the way out;
        # every finished run is already committed, so the next start resumes.
        from runners.process import kill_all

        kill_all()
        signum = e.args[0] if e.args and isinstance(e.args[0], int) else signal.SIGINT
        log.info("stopped by signal %d; the runs so far are stored, the next start resumes",
                 signum)
        return 128 + int(signum)
    finally:
        for s, h in old.items():
            signal.signal(s, h)
        bot.close()
    return 0


def _stop(signum: int, frame: object) -> None:
    """SIGTERM/SIGHUP: unwind like Ctrl-C (cleanup on every path), once: a second signal
    during the cleanup is ignored so it cannot stop the cleanup half-way."""
    for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(s, signal.SIG_IGN)
    raise KeyboardInterrupt(signum)
