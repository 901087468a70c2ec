"""Config: the example file is valid (with its IRC block switched on too) and mistakes are named."""

from __future__ import annotations

import re
import tomllib

import pytest
from support.paths import REPO_ROOT

from bazaarbot.config import Config, ConfigError, load_config, parse_config

EXAMPLE = REPO_ROOT / "config.example.toml"


def test_no_config_means_web_chat_on_localhost_with_sqlite():
    config = load_config(None)
    assert config == Config()
    assert config.web.enabled and config.web.host == "127.0.0.1" and config.web.port == 8080
    assert config.bot.db.endswith(".sqlite") and config.irc == ()


def test_example_config_is_valid():
    config = load_config(EXAMPLE)
    assert config.bot.rate_limit.commands == 8


def test_web_compression_is_off_unless_the_operator_turns_it_on():
    assert not load_config(None).web.compress and not load_config(EXAMPLE).web.compress
    assert parse_config({"web": {"compress": True}}).web.compress
    with pytest.raises(ConfigError, match="web.compress must be a bool"):
        parse_config({"web": {"compress": "yes"}})


def test_example_irc_block_is_valid_when_uncommented():
    text = EXAMPLE.read_text()
    block = text[text.index("# [[irc.networks]]") :]
    uncommented = re.sub(r"^# ?", "", block, flags=re.M)
    config = parse_config(tomllib.loads(uncommented))
    network = config.irc[0]
    assert network.tls and network.tls_verify and network.port == 6697
    assert network.channels == ("#bazaar", "#jaipur") and network.admins.accounts == ("youraccount",)


def test_example_matrix_block_is_valid_when_uncommented():
    text = EXAMPLE.read_text()
    block = text[text.index("# [[matrix.accounts]]") : text.index("# One block per Discord bot")]
    config = parse_config(tomllib.loads(re.sub(r"^# ?", "", block, flags=re.M)))
    account = config.matrix[0]
    assert account.user_id == "@bazaarbot:example.org" and account.rooms == ("#bazaar:example.org",)
    assert account.admins.accounts == ("@you:example.org",) and account.auto_join
    assert config.channel_languages()[("matrix", "#bazaar-es:example.org")] == "es"


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"bot": {"nick": 5}}, "bot.nick must be a str"),
        ({"bot": {"speed": 1}}, "unknown setting 'speed'"),
        ({"web": {"port": 70000}}, "web.port"),
        ({"irc": {"networks": [{"name": "x"}]}}, "host is required"),
        ({"irc": {"networks": [{"name": "x", "host": "h", "channels": ["bazaar"]}]}}, "must start with #"),
        ({"bot": {"rate_limit": {"commands": 0}}}, "commands >= 1"),
        ({"matrix": {"accounts": [{"homeserver": "https://m.org"}]}}, "user_id is required"),
        ({"matrix": {"accounts": [{"homeserver": "m.org", "user_id": "@b:m.org"}]}}, "must be a URL"),
        ({"matrix": {"accounts": [{"homeserver": "https://m.org", "user_id": "@b:m.org"}]}}, "a password or"),
        (
            {"matrix": {"accounts": [{"homeserver": "https://m", "user_id": "bot", "password": "p"}]}},
            "full Matrix ID",
        ),
        (
            {
                "matrix": {
                    "accounts": [
                        {"homeserver": "https://m", "user_id": "@b:m", "password": "p", "admins": ["bob"]}
                    ]
                }
            },
            "must be a Matrix user ID",
        ),
        (
            {
                "web": {"network": "matrix"},
                "matrix": {"accounts": [{"homeserver": "https://m", "user_id": "@b:m", "password": "p"}]},
            },
            "used twice",
        ),
    ],
)
def test_config_mistakes_are_named(doc, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        parse_config(doc)


def test_missing_config_file_is_a_clear_error(tmp_path):
    with pytest.raises(ConfigError, match="not found"):
        load_config(tmp_path / "nope.toml")


def test_snapshot_every_is_read_and_a_negative_value_is_named():
    assert parse_config({"bot": {"snapshot_every": 20}}).bot.snapshot_every == 20
    assert load_config(EXAMPLE).bot.snapshot_every == 50
    with pytest.raises(ConfigError, match="bot.snapshot_every"):
        parse_config({"bot": {"snapshot_every": -1}})
    with pytest.raises(ConfigError, match="bot.snapshot_every must be a int"):
        parse_config({"bot": {"snapshot_every": "often"}})


def test_tables_defaults_pause_a_week_before_abandoning_and_the_example_shows_the_clock():
    tables = parse_config({}).tables
    assert (tables.turn_seconds, tables.takeover_level, tables.abandon_after) == (300, "medium", 7 * 86400)
    example = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))["tables"]
    assert {"turn_seconds", "takeover_level", "abandon_after"} <= set(example)
    assert parse_config({"tables": {"abandon_grace": 600}}).tables.abandon_after == 600  # the old name
    assert parse_config({"tables": {"turn_seconds": 14 * 86400}}).tables.turn_seconds == 14 * 86400
    with pytest.raises(ConfigError, match="turn_seconds"):
        parse_config({"tables": {"turn_seconds": 15 * 86400}})


@pytest.mark.parametrize(
    "room", ["#bazaar:example.org", "!abc:example.org", "!0PsNqDUd1ihoEN7SKbl8B_GGoHYWG0lAo-IsFhk4sXw"]
)
def test_matrix_rooms_of_every_room_version_are_accepted(room: str) -> None:
    account = {"homeserver": "https://m.org", "user_id": "@b:m.org", "password": "x", "rooms": [room]}
    assert parse_config({"matrix": {"accounts": [account]}}).matrix[0].rooms == (room,)


@pytest.mark.parametrize("room", ["bazaar", "#bazaar", "!", "! x"])
def test_a_matrix_room_that_is_neither_alias_nor_id_is_refused(room: str) -> None:
    account = {"homeserver": "https://m.org", "user_id": "@b:m.org", "password": "x", "rooms": [room]}
    with pytest.raises(ConfigError, match="must be a room alias"):
        parse_config({"matrix": {"accounts": [account]}})


def test_a_postgres_store_is_named_by_url_and_a_file_path_there_is_refused():
    store = parse_config({"store": {"url": "postgresql://bot@db/bazaarbot", "lease_seconds": 3}}).store
    assert (store.url, store.lease_seconds) == ("postgresql://bot@db/bazaarbot", 3.0)
    assert parse_config({}).store.url == "" and load_config(EXAMPLE).store.url == ""
    with pytest.raises(ConfigError, match="store.url must be a postgresql:// URL"):
        parse_config({"store": {"url": "bazaarbot.sqlite"}})
    with pytest.raises(ConfigError, match="store.lease_seconds"):
        parse_config({"store": {"lease_seconds": 0.1}})
    example = EXAMPLE.read_text(encoding="utf-8").replace("# [store]", "[store]").replace("# url =", "url =")
    assert parse_config(tomllib.loads(example)).store.url.startswith("postgresql://")


def test_example_discord_block_is_valid_when_uncommented():
    text = EXAMPLE.read_text()
    block = text[text.index("# [[discord.bots]]") : text.index("# One block per IRC network")]
    config = parse_config(tomllib.loads(re.sub(r"^# ?", "", block, flags=re.M)))
    bot = config.discord[0]
    assert bot.name == "discord" and bot.command_prefix == "!" and bot.api_url.startswith("https://")
    assert bot.admin_roles == ("234567890123456789",) and bot.shards == (0, 1, 2, 3) and bot.shard_count == 8
    assert bot.networks == ("discord/0", "discord/1", "discord/2", "discord/3"), "a network per shard served"
    assert {config.channel_languages()[(n, "#345678901234567890")] for n in bot.networks} == {"es"}


@pytest.mark.parametrize(
    ("bot", "message"),
    [
        ({}, "token is required"),
        ({"token": "t", "api_url": "discord.com"}, "api_url must be an http(s) URL"),
        ({"token": "t", "gateway_url": "https://x"}, "gateway_url must be a ws(s) URL"),
        ({"token": "t", "command_prefix": "/"}, "command_prefix must be one sign"),
        ({"token": "t", "admins": ["bob"]}, "must be a Discord ID"),
        ({"token": "t", "shards": "0-3"}, "shards needs shard_count"),
        ({"token": "t", "shards": "3-1", "shard_count": 4}, "runs backwards"),
        ({"token": "t", "shards": "0-4", "shard_count": 4}, "larger than every shard ID"),
    ],
)
def test_a_wrong_discord_block_names_the_setting(bot, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        parse_config({"discord": {"bots": [bot]}})
