"""A sharded Discord bot: each shard is a network of its own, a guild's lines go to its shard's."""

from __future__ import annotations

import pytest

from bazaarbot.cli import network_admins
from bazaarbot.config import ConfigError, parse_config
from bazaarbot.transports.discord.shards import Shards, shard_of


def _config(**bot: object) -> dict[str, object]:
    return {"discord": {"bots": [{"name": "discord", "token": "t", **bot}]}}


def _guild_on(shard: int, count: int, low: int = 12345) -> int:
    """A guild ID Discord puts on ``shard`` of ``count`` (the shard is read from the ID's timestamp)."""
    return ((1000 * count + shard) << 22) | low


def test_a_guild_is_on_the_shard_discords_formula_names():
    assert shard_of(81384788765712384, 8) == 2  # (id >> 22) % count, Discord's documented formula
    assert shard_of(175928847299117063, 16) == 4
    assert [shard_of(_guild_on(shard, 8), 8) for shard in range(8)] == list(range(8))
    assert shard_of(_guild_on(5, 8), 1) == 0


def test_shards_0_to_3_of_8_serve_four_networks_named_after_the_bot():
    config = parse_config(_config(shards="0-3", shard_count=8))
    bot = config.discord[0]
    assert bot.shards == (0, 1, 2, 3) and bot.shard_count == 8
    assert bot.networks == ("discord/0", "discord/1", "discord/2", "discord/3")
    assert config.served_networks() == {"web", "discord/0", "discord/1", "discord/2", "discord/3"}


def test_an_unsharded_bot_keeps_its_plain_network():
    config = parse_config(_config())
    assert config.discord[0].networks == ("discord",)
    assert "discord" in config.served_networks()
    shards = Shards(config.discord[0])
    assert not shards.sharded and shards.serves_direct_messages
    assert shards.network_of_guild(_guild_on(3, 8)) == "discord"


def test_shard_count_alone_serves_every_shard():
    bot = parse_config(_config(shard_count=2)).discord[0]
    assert bot.shards == (0, 1) and bot.networks == ("discord/0", "discord/1")


def test_a_list_of_shards_serves_those_shards():
    assert parse_config(_config(shards=[5, 2], shard_count=8)).discord[0].networks == (
        "discord/2",
        "discord/5",
    )


def test_a_guild_of_another_process_shard_is_not_served_here():
    shards = Shards(parse_config(_config(shards="4-7", shard_count=8)).discord[0])
    assert shards.network_of_guild(_guild_on(6, 8)) == "discord/6"
    assert shards.network_of_guild(_guild_on(2, 8)) is None


def test_direct_messages_are_read_only_by_the_process_of_shard_0():
    """Discord sends DMs on shard 0 alone."""
    assert Shards(parse_config(_config(shards="0-3", shard_count=8)).discord[0]).serves_direct_messages
    assert not Shards(parse_config(_config(shards="4-7", shard_count=8)).discord[0]).serves_direct_messages


@pytest.mark.parametrize(
    ("bot", "says"),
    [
        ({"shards": "0-3"}, "needs shard_count"),
        ({"shards": "0-8", "shard_count": 8}, "larger than every shard ID"),
        ({"shards": "3-1", "shard_count": 8}, "runs backwards"),
        ({"shards": "two", "shard_count": 8}, 'a range such as "0-3"'),
        ({"shard_count": 0}, "at least 1"),
    ],
)
def test_a_wrong_shard_setting_is_named(bot, says):
    with pytest.raises(ConfigError, match=says):
        parse_config(_config(**bot))


def test_a_shard_network_may_not_take_another_networks_name():
    data = _config(shards="0-3", shard_count=8)
    data["irc"] = {"networks": [{"name": "discord/2", "host": "irc.example.org", "channels": ["#j"]}]}
    with pytest.raises(ConfigError, match="'discord/2' is another network's name"):
        parse_config(data)


def test_every_shard_network_has_the_bots_admins_clock_and_languages():
    config = parse_config(
        _config(
            shards="1-2",
            shard_count=4,
            admins=["42"],
            turn_seconds=90,
            language="de",
            channel_languages={"#777": "es"},
        )
    )
    admins = network_admins(config)
    assert admins["discord/1"].accounts == ("42",) and admins["discord/2"] is admins["discord/1"]
    assert "discord" not in admins
    assert config.turn_seconds()["discord/2"] == 90
    assert config.network_languages()["discord/1"] == "de"
    assert config.channel_languages()[("discord/2", "#777")] == "es"
