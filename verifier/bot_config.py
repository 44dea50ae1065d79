"""The bot's settings: the [bot] table of the configuration file (docs/bot.md), checked
once at start, and what its stages share while it runs (the state, the inboxes)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from verifier.pipeline import RunSettings


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

    def run_settings(self) -> RunSettings:
        """How the bot's claims run (verifier.pipeline): one benchmark at a time per host
        across bot processes, the namespaces a killed bot left removed first."""
        lock = self.state.parent / f"host-{self.runner}-{self.netns_prefix}.lock"
        return RunSettings(runner=self.runner, duration=self.duration, max_runs=self.max_runs,
                           warmup=self.warmup, approve=self.approve, calibrate=self.calibrate,
                           netns_prefix=self.netns_prefix, exclusive=lock,
                           scheduler=self.scheduler, tags=list(self.tags), tls_ca=self.tls_ca,
                           tls_cert=self.tls_cert, tls_key=self.tls_key)

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


@dataclass
class BotContext:
    """What every stage of a round shares: the settings, the open state, the inboxes."""

    cfg: BotConfig
    smtp: Any  # verifier.reply.SmtpSettings
    state: Any  # verifier.state.State
    inboxes: dict[str, Any]  # list URL -> verifier.fetch.lore.PublicInbox
    me: str  # the bot's own address: its replies are never read as requests

    def inbox(self, url: str) -> Any:
        from verifier.fetch.lore import PublicInbox

        return self.inboxes.get(url) or PublicInbox(url)

    def list_of(self, thread_id: str) -> str:
        """The list a thread was seen on (the first watched list when unknown)."""
        thread = self.state.threads.thread(thread_id)
        return (thread.list if thread else None) or self.cfg.lists[0]
