"""Discord's own way: slash commands from the declarations, ephemeral answers, moves by buttons."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from support.discordbed import until
from support.discordpeople import Person, bot_settings, make_hub, play_by_buttons, shown_text
from support.discordpeople import room as take_room

pytestmark = [pytest.mark.discord, pytest.mark.xdist_group("discord-interactions")]

NET = "discord"


async def started(tmp_path: Path, info: dict[str, Any], games: dict[str, Any], **hub: Any) -> tuple[Any, Any]:
    from bazaarbot.transports.discord import DiscordTransport

    made = make_hub(tmp_path, games, **hub)
    bot = DiscordTransport(bot_settings(info))
    await bot.start(made)
    await made.start()
    await until(lambda: bot.online.is_set() and bot.commands_registered, 30, "the bot online, commands made")
    return made, bot


async def test_slash_commands_seat_and_start_and_the_hand_is_ephemeral(
    tmp_path: Path, testbed: dict[str, Any]
) -> None:
    from plugins.jaipur import GAME

    hub, bot = await started(tmp_path, testbed, {"jaipur": GAME}, seed=5)
    alice, bob = await Person.of(testbed, "alice"), await Person.of(testbed, "bob")
    room = take_room(testbed)
    try:
        await alice.slash("join", channel=room)
        await alice.expect(lambda d: "alice joins" in shown_text(d), room)
        await bob.slash("join", channel=room)
        await bob.expect(lambda d: "bob joins" in shown_text(d), room)
        await alice.slash("start", channel=room)
        table = hub.tables[(NET, f"#{room}")]
        await until(lambda: table.running, 15, "the game started")
        mark_bob = bob.mark()
        mark_alice = alice.mark()
        await alice.slash("hand", channel=room)
        hand = await alice.ephemeral(lambda t: "Your hand" in t, since=mark_alice)
        await bot.idle()
        assert not bob.gw.events_about(hand["id"]), "bob received alice's ephemeral hand"
        reached_bob = bob.seen(since=mark_bob, events=("MESSAGE_CREATE", "MESSAGE_UPDATE"))
        assert not any(d.get("content") == hand["content"] for d in reached_bob), "bob read alice's hand"
        assert not any(m["id"] == hand["id"] for m in await bob.rest.messages(room)), "ephemeral in history"
    finally:
        await bot.stop()
        await hub.close()
        await alice.close()
        await bob.close()


async def test_the_person_to_act_plays_a_move_by_pressing_buttons(
    tmp_path: Path, testbed: dict[str, Any]
) -> None:
    from plugins.jaipur import GAME

    hub, bot = await started(tmp_path, testbed, {"jaipur": GAME}, seed=7)
    alice, bob = await Person.of(testbed, "alice"), await Person.of(testbed, "bob")
    room = take_room(testbed)
    try:
        for person in (alice, bob):
            await person.slash("join", channel=room)
        await alice.slash("start", channel=room)
        table = hub.tables[(NET, f"#{room}")]
        await until(lambda: table.running, 15, "the game started")
        people = {alice.id: alice, bob.id: bob}
        rng = random.Random(7)
        marks = {alice.id: 0, bob.id: 0}  # where each person's own gateway stood before the last move
        for turn in range(3):
            seat = GAME.to_act(table.state)[0]
            person = people[table.players[seat].key[2:]]
            before = table.moves_made
            since = marks[person.id]
            called = await person.expect(lambda d, p=person: p.mention in d["content"], room, since)
            pinged = {str(m["id"]) for m in called["mentions"]}
            # the game's start calls both players; every later turn only the one to act
            assert pinged == ({alice.id, bob.id} if turn == 0 else {person.id}), called["content"]
            marks = {key: each.mark() for key, each in people.items()}
            await play_by_buttons(person, room, rng)
            await until(lambda before=before: table.moves_made > before, 15, "the pressed move played")
    finally:
        await bot.stop()
        await hub.close()
        await alice.close()
        await bob.close()
