"""Issue 15: every configuration setting is typed.  On main `approve = "false"` (a string)
counted as true and the bot ran a mail's `ip netns exec NS touch FILE`; 16 of 17 wrong-typed
values were accepted silently."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT
from verifier.bot_config import BotConfig, BotError, load_bot_config
from verifier.config import ConfigError, config_errors, load_config

LISTS = 'lists = ["http://127.0.0.1:9/netdev"]\n'

# (setting as written in bot.toml, a word the one-line error must carry)
WRONG_TYPED = [
    ('approve = "false"', "approve"), ('approve = 0', "approve"), ('dry_run = "no"', "dry_run"),
    ('run = "false"', "run"), ('verify_all = "false"', "verify_all"),
    ('interval = "5"', "interval"), ('duration = "inf"', "duration"), ("duration = inf", "duration"),
    ("duration = -1", "duration"), ('max_runs = "10"', "max_runs"), ("max_runs = -5", "max_runs"),
    ("max_runs = 2.5", "max_runs"), ("warmup = true", "warmup"), ("replies_per_day = 1e9", "replies"),
    ("tags = 5", "tags"), ('allow = "kuba@kernel.org"', "allow"), ("maintainers = [1, 2]", "maintainers"),
    ("state = 5", "state"), ('netns_prefix = "../../x"', "netns_prefix"),
    ('scheduler = "bogus://"', "scheduler"), ("claims_per_thread = -1", "claims_per_thread"),
]


@pytest.mark.parametrize("line,word", WRONG_TYPED)
def test_wrong_typed_bot_setting_is_refused(tmp_path: Path, line: str, word: str) -> None:
    cfg = tmp_path / "bot.toml"
    cfg.write_text(f"[bot]\n{LISTS}{line}\n")
    with pytest.raises(BotError) as e:
        load_bot_config(str(cfg))
    msg = str(e.value)
    assert word in msg and "\n" not in msg


def test_approve_string_is_refused_by_from_section_too() -> None:
    with pytest.raises(BotError, match="approve"):
        BotConfig.from_section({"lists": ["http://x/y"], "approve": "false"})
    cfg = BotConfig.from_section({"lists": ["http://x/y"], "approve": False})
    assert cfg.approve is False


@pytest.mark.parametrize("text,word", [
    ('[smtp]\nport = "25"\n', "port"), ('[smtp]\nstarttls = "false"\n', "starttls"),
    ('[smtp]\nhost = "a b"\n', "host"), ("[smtp]\nrate_per_hour = -1\n", "rate_per_hour"),
    ('[fetch]\nretries = "3"\n', "retries"), ("[fetch]\ndelay = -1\n", "delay"),
    ('inbox = "ftp://x"\n', "inbox"), ("inbox = 5\n", "inbox"), ("[unknown]\na = 1\n", "unknown"),
    ("bot = 5\n", "bot"), ('[smtp]\npasword = "x"\n', "pasword"),
])
def test_wrong_typed_setting_anywhere_is_one_line(tmp_path: Path, text: str, word: str) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text(text)
    with pytest.raises(ConfigError) as e:
        load_config(cfg)
    assert word in str(e.value) and "\n" not in str(e.value)


def test_documented_example_is_valid() -> None:
    """The example bot.toml of docs/bot.md stays valid under the schema."""
    doc = (ROOT / "docs" / "bot.md").read_text()
    example = doc.split("```toml\n", 1)[1].split("```", 1)[0]
    import tomllib

    assert config_errors(tomllib.loads(example)) == []


def test_cli_refuses_in_one_line(tmp_path: Path) -> None:
    cfg = tmp_path / "bot.toml"
    cfg.write_text(f'[bot]\n{LISTS}approve = "false"\n')
    r = subprocess.run([sys.executable, "-m", "verifier", "bot", "--config", str(cfg), "--once"],
                       capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "approve" in r.stderr, r.stderr


def test_every_bot_setting_is_in_the_schema() -> None:
    """A setting added to BotConfig but not to the schema would make the bot refuse every
    bot.toml that uses it (the schema refuses unknown keys)."""
    import dataclasses
    import json

    schema = json.loads((ROOT / "claims" / "schemas"
                         / "config.schema.json").read_text())
    known = set(schema["properties"]["bot"]["properties"])
    fields = {f.name for f in dataclasses.fields(BotConfig)}
    assert fields - known == set()
    for key in ("public_url", "from", "host", "port", "rate_per_hour"):
        assert key in schema["properties"]["smtp"]["properties"]
