"""Whole games of all three on Discord: typed moves, ``/play`` and buttons, two and three people."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from support.discordbed import until
from support.discordpeople import BARE_ID, Person, play_by_buttons, present, running_bot, shown_text
from support.discordpeople import room as take_room

from bazaarbot.config import AiSettings

pytestmark = [pytest.mark.discord, pytest.mark.xdist_group("discord-b")]

NET = "discord"
#: verbs that bring each game to its end sooner, tried in order (moves by buttons are any)
SOONER = {"jaipur": ("sell", "take"), "yspahan": (), "bazaar": ("buy", "draw")}
#: the bot's seed for each game: the one whose deal the moves chosen below end soonest (Jaipur in
#: 90 moves, Yspahan in 80, Bazaar in 181; 125, 96 and 222 under seed 13), found by replaying
#: this test's choices, buttons included, against the rules alone over thousands of seeds
SEEDS = {"jaipur": 8518, "yspahan": 673, "bazaar": 7010}
#: nothing here reads a finished game's review: no background search for it once the game ends
NO_REVIEW = AiSettings(review_after_game=0.0)


def games() -> dict[str, Any]:
    from plugins.bazaar import GAME as BAZAAR
    from plugins.jaipur import GAME as JAIPUR
    from plugins.yspahan import GAME as YSPAHAN

    return {"jaipur": JAIPUR, "yspahan": YSPAHAN, "bazaar": BAZAAR}


def chosen(commands: list[str], sooner: tuple[str, ...], rng: random.Random) -> str:
    for verb in sooner:
        found = [c for c in commands if c.startswith(verb + " ") or c == verb]
        found = [c for c in found if "camel" not in c] or found
        if found:
            return rng.choice(found)
    return rng.choice(commands)


def over(data: dict[str, Any]) -> bool:
    return any(line.startswith("Game over:") for line in shown_text(data).split("\n"))


@pytest.mark.parametrize(
    ("game", "names"),
    [
        ("jaipur", ("alice", "bob")),
        ("yspahan", ("alice", "bob", "carol")),
        ("bazaar", ("alice", "bob", "carol")),
    ],
)
async def test_a_whole_game_by_typing_by_slash_play_and_by_buttons(
    tmp_path: Path, testbed: dict[str, Any], game: str, names: tuple[str, ...]
) -> None:
    """Every person plays some moves each way: typed in the room, ``/play move:``, and buttons."""
    plugins = games()
    plugin = plugins[game]
    room = take_room(testbed)
    rng = random.Random(game)
    async with (
        running_bot(tmp_path, testbed, plugins, seed=SEEDS[game], ai=NO_REVIEW) as (hub, bot),
        present(*(Person.of(testbed, name) for name in names)) as people,
    ):
        by_id = {person.id: person for person in people}
        first = people[0]
        await first.slash("new", game, channel=room)
        await first.expect(lambda d: "joins" in shown_text(d), room)
        for person in people[1:]:
            await person.slash("join", channel=room)
            await person.expect(
                lambda d, p=person: p.name in shown_text(d) and "joins" in shown_text(d), room
            )
        start = first.mark()
        await first.slash("start", channel=room)
        table = hub.tables[(NET, f"#{room}")]
        await until(lambda: table.running, 15, "the game started")
        marks = {person.id: 0 for person in people}
        ways = {"typed": 0, "slash": 0, "buttons": 0}
        acted: str | None = None
        while table.running:
            seat = plugin.to_act(table.state)[0]
            person = by_id[table.players[seat].key[2:]]
            if person.id != acted:  # a new turn: Discord notified them
                await person.expect(lambda d, p=person: p.mention in d["content"], room, marks[person.id])
                acted = person.id
            before = table.moves_made
            marks = {each.id: each.mark() for each in people}
            way = ("typed", "slash", "typed", "buttons")[before % 4]
            ways[way] += 1
            if way == "buttons":
                await play_by_buttons(person, room, rng)
            else:
                command = chosen(plugin.legal_commands(table.state, seat), SOONER[game], rng)
                if way == "slash":
                    await person.slash("play", command, channel=room)
                else:
                    await person.say(room, command)
            await until(
                lambda before=before: table.moves_made > before or not table.running, 20, f"{way} move"
            )
        await first.expect(over, room, start)
        assert all(ways.values()), ways
        await bot.idle()
        for data in first.seen(room, start):
            shown = shown_text(data)
            for person in people:
                shown = shown.replace(person.mention, "")
            assert not BARE_ID.search(shown), f"a bare id in the room: {shown[:200]}"
