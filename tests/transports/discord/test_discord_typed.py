"""Discord by typing: commands and moves as on IRC, hands by DM, the person to act mentioned."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from support.discordbed import until
from support.discordpeople import BARE_ID, Person, buttons, outside_blocks, present, running_bot, shown_text
from support.discordpeople import room as take_room

pytestmark = [pytest.mark.discord, pytest.mark.xdist_group("discord-a")]

NET = "discord"


async def test_two_people_play_a_jaipur_game_by_typing(tmp_path: Path, testbed: dict[str, Any]) -> None:
    from plugins.jaipur import GAME

    async with (
        running_bot(tmp_path, testbed, {"jaipur": GAME}, commands=False, seed=29) as (hub, bot),
        present(Person.of(testbed, "alice"), Person.of(testbed, "bob")) as (alice, bob),
    ):
        room = take_room(testbed)
        await alice.say(room, "!new jaipur")
        await alice.expect(lambda d: "Jaipur" in shown_text(d), room)
        await bob.say(room, "!join")
        await bob.expect(lambda d: "bob" in shown_text(d) and "joins" in shown_text(d), room)
        start = alice.mark()
        await alice.say(room, "!start")
        for person in (alice, bob):
            await person.expect(lambda d: "Your hand" in shown_text(d), await person.dm_channel())
            assert not any("Your hand" in shown_text(d) for d in person.seen(room)), "a hand in the room"
        table = hub.tables[(NET, f"#{room}")]
        people = {alice.id: alice, bob.id: bob}
        rng = random.Random(3)
        for _ in range(6):
            seat = GAME.to_act(table.state)[0]
            person = people[table.players[seat].key[2:]]
            mark = person.mark()
            await person.say_dm("moves all")
            listing = await person.expect(
                lambda d: len(outside_blocks(d["content"])) > 1, await person.dm_channel(), mark
            )
            command = rng.choice(outside_blocks(listing["content"]))
            before = table.moves_made
            await person.say(room, command)
            await until(lambda before=before: table.moves_made > before, 15, f"{command} played")
        await bot.idle()
        lines = alice.seen(room, start)
        assert any(bob.mention in d["content"] or alice.mention in d["content"] for d in lines)
        for data in lines:
            assert not BARE_ID.search(shown_text(data).replace(alice.mention, "").replace(bob.mention, ""))
        boards = [d for d in lines if d["content"].startswith("```")]
        assert len(boards) == 1, "one board message per game"
        assert {b["label"] for b in buttons(boards[0])} == {"Your hand", "Your moves"}
