"""A sharded bot against the testbed: two processes of one bot, each with a shard of its own.

The testbed sends every event on every gateway connection (Discord sends a
guild's only on its shard, DMs only on shard 0); the bot answers as on
Discord, so a guild is answered by its shard's process alone. The shard count
is chosen so the testbed's guild is on shard 0: the process of shard 0 serves
the guild's tables and reads DMs, the process of shard 1 serves no guild here.

The testbed takes the shard in IDENTIFY but leaves it out of READY, where
Discord names it (``"shard": [id, count]``) and discord.py's sharded client
reads it; the test fills it in as Discord would (each client runs one shard).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from support.discordbed import restart_gateway, until
from support.discordpeople import Person, bot_settings, make_hub, shown_text
from support.discordpeople import room as take_room

from bazaarbot.transports.discord.shards import shard_of

pytestmark = [pytest.mark.discord, pytest.mark.xdist_group("discord-a")]

POINTER = "Direct messages reach only part of this bot"


def _count_with_guild_on_shard_0(guild_id: int) -> int:
    """The smallest shard count of at least 2 that puts the guild on shard 0: the smallest factor of
    the guild id's timestamp (found by trial division up to its square root, so a timestamp that is
    prime or has only large factors costs a fraction of a second, not a walk up to itself)."""
    timestamp = guild_id >> 22
    found = next((n for n in range(2, math.isqrt(timestamp) + 1) if timestamp % n == 0), timestamp)
    assert shard_of(guild_id, found) == 0
    return found


@pytest.fixture
def ready_names_its_shard(monkeypatch: pytest.MonkeyPatch) -> None:
    import discord.state

    parse_ready = discord.state.AutoShardedConnectionState.parse_ready

    def parse(state: Any, data: dict[str, Any]) -> None:
        data.setdefault("shard", [state.shard_ids[0], state.shard_count])
        parse_ready(state, data)

    monkeypatch.setattr(discord.state.AutoShardedConnectionState, "parse_ready", parse)


async def _process(tmp_path: Path, info: dict[str, Any], shard: int, count: int, games: dict[str, Any]):
    from bazaarbot.transports.discord import DiscordTransport

    folder = tmp_path / f"shard-{shard}"
    folder.mkdir()
    hub = make_hub(folder, games)
    bot = DiscordTransport(
        bot_settings(info, shards=(shard,), shard_count=count), register_commands=shard == 0
    )
    await bot.start(hub)
    await hub.start()
    return hub, bot


async def test_a_process_answers_only_its_shards_guilds_and_a_dm_it_cannot_place_is_pointed_to_the_channel(
    tmp_path: Path, testbed: dict[str, Any], ready_names_its_shard: None
) -> None:
    from plugins.jaipur import GAME

    count = _count_with_guild_on_shard_0(int(testbed["guild_id"]))
    first = await _process(tmp_path, testbed, 0, count, {"jaipur": GAME})
    second = await _process(tmp_path, testbed, 1, count, {"jaipur": GAME})
    (hub, bot), (other_hub, other_bot) = first, second
    alice, bob, carol = [await Person.of(testbed, name) for name in ("alice", "bob", "carol")]
    try:
        await until(lambda: bot.online.is_set() and other_bot.online.is_set(), 30, "both shards online")
        await until(lambda: bot.commands_registered, 30, "the slash commands made")
        room = take_room(testbed)
        await alice.say(room, "!new jaipur")
        await alice.expect(lambda d: "Jaipur" in shown_text(d), room)
        await bob.say(room, "!join")
        await bob.expect(lambda d: "bob joins" in shown_text(d), room)
        mark = alice.mark()
        await alice.slash("tables", channel=room)
        await alice.ephemeral(lambda t: "jaipur" in t.lower(), since=mark)
        await alice.say_dm("!tables")
        listed = await alice.expect(
            lambda d: "jaipur" in shown_text(d).lower(), await alice.dm_channel(), mark
        )
        assert POINTER not in shown_text(listed), "her table is served by the process that reads DMs"
        await carol.say_dm("moves all")
        await carol.expect(lambda d: POINTER in shown_text(d), await carol.dm_channel())
        await carol.slash("hand", channel=await carol.dm_channel())
        await carol.ephemeral(lambda t: POINTER in t)
        for each in (bot, other_bot):
            await each.idle()
        assert set(hub.tables) == {("discord/0", f"#{room}")}, "the guild's tables are shard 0's network"
        seated = {seat.key for seat in hub.tables[("discord/0", f"#{room}")].seats}
        assert seated == {f"a:{alice.id}", f"a:{bob.id}"}
        assert not other_hub.tables, "the process of shard 1 keeps no table of a guild on shard 0"
        assert len([d for d in alice.seen(room) if "bob joins" in shown_text(d)]) == 1, "answered once"
        assert other_bot.sent_by_kind.total() == 0, "the process of shard 1 said nothing"
    finally:
        for each_hub, each_bot in (first, second):
            await each_bot.stop()
            await each_hub.close()
        for person in (alice, bob, carol):
            await person.close()


async def test_a_shard_cut_off_stops_only_its_own_clocks_and_starts_them_again_when_back(
    tmp_path: Path, testbed: dict[str, Any], ready_names_its_shard: None
) -> None:
    from plugins.jaipur import GAME

    count = _count_with_guild_on_shard_0(int(testbed["guild_id"]))
    first = await _process(tmp_path, testbed, 0, count, {"jaipur": GAME})
    second = await _process(tmp_path, testbed, 1, count, {"jaipur": GAME})
    told: dict[str, list[tuple[str, str]]] = {"first": [], "second": []}
    for name, (each_hub, _bot) in (("first", first), ("second", second)):
        for what in ("network_down", "network_up"):
            real = getattr(each_hub, what)

            async def record(network: str, real: Any = real, what: str = what, name: str = name) -> None:
                told[name].append((what, network))
                await real(network)

            setattr(each_hub, what, record)
    try:
        await until(lambda: first[1].online.is_set() and second[1].online.is_set(), 30, "both shards online")
        await until(lambda: told["first"] and told["second"], 30, "each shard up")
        assert told == {"first": [("network_up", "discord/0")], "second": [("network_up", "discord/1")]}
        told["first"].clear()
        told["second"].clear()
        restart_gateway(testbed)
        await until(
            lambda: (
                ("network_up", "discord/0") in told["first"] and ("network_up", "discord/1") in told["second"]
            ),
            90,
            "both shards back on the gateway",
        )
        assert {n for _, n in told["first"]} == {"discord/0"}, (
            "a process stops and starts its own shard's clocks"
        )
        assert {n for _, n in told["second"]} == {"discord/1"}
        assert ("network_down", "discord/0") in told["first"] and ("network_down", "discord/1") in told[
            "second"
        ]
        assert not first[0].autoplay.down and not second[0].autoplay.down, "every clock runs again"
    finally:
        for each_hub, each_bot in (first, second):
            await each_bot.stop()
            await each_hub.close()
