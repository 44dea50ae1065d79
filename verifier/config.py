"""The user's configuration file, read by every command.

One TOML file: $VERIFIER_CONFIG, else ~/.config/verifier/config.toml. Top-level keys are
generic settings (`inbox`: the public-inbox to fetch threads from); each area of the
program keeps its own table (`[fetch]`, `[smtp]`, `[bot]`, ...) and reads it with
`section()`. A missing file means defaults; a broken one is a one-line ConfigError.
"""
from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_INBOX = "https://lore.kernel.org/all"


class ConfigError(Exception):
    """The configuration file exists but cannot be used."""


def config_path() -> Path:
    env = os.environ.get("VERIFIER_CONFIG")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "verifier" / "config.toml"


@dataclass
class Config:
    """Parsed configuration; `data` is the whole TOML document."""

    data: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None

    @property
    def inbox(self) -> str:
        return str(self.data.get("inbox") or DEFAULT_INBOX)

    @property
    def inbox_is_set(self) -> bool:
        """True when the file names an inbox (so it beats b4's own midmask)."""
        return bool(self.data.get("inbox"))

    def section(self, name: str) -> dict[str, Any]:
        value = self.data.get(name, {})
        if not isinstance(value, dict):
            raise ConfigError(f"{self.path}: [{name}] must be a table")
        return value


def load_config(path: str | os.PathLike[str] | None = None) -> Config:
    """Read the configuration file; defaults when it does not exist."""
    p = Path(path) if path is not None else config_path()
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        return Config(path=p)
    except OSError as e:
        raise ConfigError(f"cannot read config {p}: {e.strerror}") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise ConfigError(f"bad config {p}: {e}") from None
    inbox = data.get("inbox")
    if inbox is not None and not (isinstance(inbox, str) and inbox.startswith(("http://", "https://"))):
        raise ConfigError(f"bad config {p}: inbox must be an http(s) URL")
    return Config(data=data, path=p)
