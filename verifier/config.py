"""The user's configuration file, read by every command.

One TOML file: $VERIFIER_CONFIG, else ~/.config/verifier/config.toml. Top-level keys are
generic settings (`inbox`: the public-inbox to fetch threads from); each area of the
program keeps its own table (`[fetch]`, `[smtp]`, `[bot]`) and reads it with `section()`.
A missing file means defaults; a broken one is a one-line ConfigError.  Every setting is
typed by claims/schemas/config.schema.json: `approve = "false"` (a string, which Python
reads as true) or an unknown key is refused before anything reads it.
"""
from __future__ import annotations

import json
import os
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from claims.clean import one_line

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
    problems = config_errors(data)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise ConfigError(f"bad config {p}: {problems[0]}{more}")
    return Config(data=data, path=p)


SCHEMA_PATH = Path(__file__).resolve().parents[1] / "claims" / "schemas" / "config.schema.json"


@cache
def _validator() -> Any:
    import jsonschema

    return jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text()))


def config_errors(data: Any, table: str | None = None) -> list[str]:
    """Every setting checked against claims/schemas/config.schema.json: one readable line
    per problem ("[bot] approve must be true or false (not 'false')"), empty when valid.

    `table` checks one table's mapping alone (`BotConfig.from_section` in tests)."""
    doc = {table: data} if table is not None else data
    out = []
    for err in sorted(_validator().iter_errors(doc), key=lambda e: [str(p) for p in e.path]):
        out.append(_describe(err))
    return out


_TYPES = {"boolean": "true or false", "integer": "a whole number", "number": "a number",
          "string": "a string", "array": "a list", "object": "a table"}


def _describe(err: Any) -> str:
    """A jsonschema error as the person who wrote the TOML file reads it."""
    path = [str(p) for p in err.absolute_path]
    where = (f"[{path[0]}] " if len(path) > 1 else "") + ".".join(path[1:] if len(path) > 1
                                                               else path)
    shown = _short(repr(err.instance))
    if err.validator == "additionalProperties":
        extra = sorted(set(err.instance) - set(err.schema.get("properties", {})))
        table = f"[{path[0]}] " if path else ""
        return f"{table}unknown setting(s): {', '.join(_short(str(x)) for x in extra)}"
    if err.validator == "type":
        want = err.validator_value
        wants = [want] if isinstance(want, str) else list(want)
        return f"{where} must be {' or '.join(_TYPES.get(w, w) for w in wants)} (not {shown})"
    if err.validator == "enum":
        values = [str(v) for v in err.validator_value]
        listed = ", ".join(values[:-1]) + " or " + values[-1] if len(values) > 1 else values[0]
        return f"{where} must be {listed} (not {shown})"
    if err.validator == "pattern":
        key = path[-1] if path else ""
        what = ("an http(s) URL" if "https?" in err.validator_value else
                "tcp://HOST:PORT or tls://HOST:PORT" if key == "scheduler" else
                "at most 8 lowercase letters and digits" if key == "netns_prefix" else
                "one line of text")
        return f"{where} must be {what} (not {shown})"
    if err.validator == "oneOf":
        return f"{where} must be a string or a list of strings (not {shown})"
    return f"{where}: {_short(err.message)}"


def _short(text: str, limit: int = 80) -> str:
    text = one_line(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."
