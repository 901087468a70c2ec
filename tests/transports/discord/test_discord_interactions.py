"""Discord's own way: slash commands from the declarations, ephemeral answers, moves by buttons."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from support.discordbed import restart_gateway, until
from support.discordpeople import (
    CREATED,
    EDITED,
    Person,
    is_ephemeral,
    play_by_buttons,
    present,
    press_your_moves,
    pressable,
    running_bot,
    shown_text,
)
from support.discordpeople import room as take_room

pytestmark = [pytest.mark.discord, pytest.mark.xdist_group("discord-b")]

NET = "discord"


async def test_slash_commands_seat_and_start_and_the_hand_is_ephemeral(
    tmp_path: Path, testbed: dict[str, Any]
) -> None:
    from plugins.jaipur import GAME

    async with (
        running_bot(tmp_path, testbed, {"jaipur": GAME}, seed=5) as (hub, bot),
        present(Person.of(testbed, "alice"), Person.of(testbed, "bob")) as (alice, bob),
    ):
        room = take_room(testbed)
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


async def test_the_person_to_act_plays_a_move_by_pressing_buttons(
    tmp_path: Path, testbed: dict[str, Any]
) -> None:
    from plugins.jaipur import GAME

    async with (
        running_bot(tmp_path, testbed, {"jaipur": GAME}, seed=7) as (hub, bot),
        present(Person.of(testbed, "alice"), Person.of(testbed, "bob")) as (alice, bob),
    ):
        room = take_room(testbed)
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


def speaks_german(bot: Any, user_id: str) -> None:
    """Discord names the person's client language in every interaction (``locale``); the testbed leaves
    it out, so the interactions of ``user_id`` get the German client's locale as Discord would send it."""
    parsers = bot.client._connection.parsers
    parse = parsers["INTERACTION_CREATE"]

    def with_locale(data: dict[str, Any]) -> None:
        user = (data.get("member") or {}).get("user") or data.get("user") or {}
        parse({**data, "locale": "de"} if str(user.get("id")) == user_id else data)

    parsers["INTERACTION_CREATE"] = with_locale


async def test_a_german_client_reads_german_until_they_choose_a_language(
    tmp_path: Path, testbed: dict[str, Any]
) -> None:
    from plugins.jaipur import GAME

    async with (
        running_bot(tmp_path, testbed, {"jaipur": GAME}) as (hub, bot),
        present(Person.new(testbed, "dora")) as (dora,),
    ):
        room = take_room(testbed)
        await dora.rest.request("PATCH", "/users/@me/settings", {"locale": "de"})
        speaks_german(bot, dora.id)
        mark = dora.mark()
        await dora.slash("join", channel=room)
        seated = await dora.ephemeral(lambda t: "Platz 1" in t, since=mark)
        assert "Du sitzt" in shown_text(seated)
        mark = dora.mark()
        await dora.slash("join", channel=room)
        await dora.ephemeral(lambda t: "Du sitzt schon an diesem Tisch" in t, since=mark)
        await dora.slash("lang", "en", channel=room)  # the person's choice outweighs the client's
        mark = dora.mark()
        await dora.slash("join", channel=room)
        await dora.ephemeral(lambda t: "You already sit at this table" in t, since=mark)


async def test_a_person_named_everyone_pings_nobody(tmp_path: Path, testbed: dict[str, Any]) -> None:
    from plugins.jaipur import GAME

    async with (
        running_bot(tmp_path, testbed, {"jaipur": GAME}) as (hub, bot),
        present(Person.new(testbed, "evan"), Person.of(testbed, "alice")) as (everyone, alice),
    ):
        # the server display name: a guild nickname of the person's own choosing
        guild = testbed["guild_id"]
        await everyone.rest.request("PATCH", f"/guilds/{guild}/members/@me", {"nick": "@everyone"})
        room = take_room(testbed)
        start = alice.mark()
        await everyone.say(room, "!join")
        await alice.say(room, "!join")
        await alice.expect(lambda d: "alice joins" in shown_text(d), room, start)
        await everyone.say(room, "!start")
        table = hub.tables[(NET, f"#{room}")]
        await until(lambda: table.running, 15, "the game started")
        await bot.idle()
        said = alice.seen(room, start)
        assert any("everyone" in shown_text(d) for d in said), "the person is shown by their name"
        for data in said:
            assert not data.get("mention_everyone"), f"pinged everyone: {data['content'][:200]}"
            assert not data.get("mention_roles"), f"pinged a role: {data['content'][:200]}"
            assert "@everyone" not in data["content"].replace("\\", ""), data["content"][:200]
            pinged = {str(m["id"]) for m in data.get("mentions") or ()}
            assert pinged <= {alice.id, everyone.id}


async def test_long_private_text_comes_in_messages_of_at_most_2000_characters(
    tmp_path: Path, testbed: dict[str, Any]
) -> None:
    from bazaarbot.messages import Tell
    from plugins.jaipur import GAME

    async with (
        running_bot(tmp_path, testbed, {"jaipur": GAME}) as (hub, bot),
        present(Person.of(testbed, "bob")) as (bob,),
    ):
        dm = await bob.dm_channel()
        lines = [f"line {n}: " + " ".join(["spice and silver"] * (n % 9 + 1)) for n in range(400)]
        mark = bob.mark()
        await bot.send(Tell(NET, bob.mention, "\n".join(lines), key=f"a:{bob.id}"))
        await bot.idle()
        got = bob.seen(dm, mark)
        assert len(got) > 1 and all(len(d["content"]) <= 2000 for d in got)
        assert "\n".join(d["content"] for d in got).split("\n") == lines, "split at line ends, nothing lost"


async def test_malformed_and_oversized_lines_get_a_short_answer_and_change_nothing(
    tmp_path: Path, testbed: dict[str, Any]
) -> None:
    from plugins.jaipur import GAME

    async with (
        running_bot(tmp_path, testbed, {"jaipur": GAME}, seed=3) as (hub, bot),
        present(Person.of(testbed, "alice"), Person.of(testbed, "bob")) as (alice, bob),
    ):
        room = take_room(testbed)
        for person in (alice, bob):
            await person.say(room, "!join")
        await alice.say(room, "!start")
        table = hub.tables[(NET, f"#{room}")]
        await until(lambda: table.running, 15, "the game started")
        seat = GAME.to_act(table.state)[0]
        person = {alice.id: alice, bob.id: bob}[table.players[seat].key[2:]]
        await bot.idle()
        state = GAME.to_json(table.state)
        dm = await person.dm_channel()
        for line in (
            "!" + "x" * 1990,
            "sell 1 \x07diamond <@!12> <#1> ```",
            "!kick <@!12> " + "y" * 500,
            "take 9 spice",
        ):
            mark = person.mark()
            await person.say(room, "take " + "x" * 1990)  # chatter that only looks like a move: no answer
            await person.say(room, "take 2 <#1> please")
            await person.say(room, line)
            answer = await person.expect(lambda d: bool(d["content"]), dm, mark)
            assert len(answer["content"]) < 300 and "Traceback" not in answer["content"], answer["content"]
            await bot.idle()
            assert len(person.seen(dm, mark)) == 1, "one short answer, to the line that asked for one"
        assert GAME.to_json(table.state) == state, "a refused line changed the game"
        assert not any("Traceback" in shown_text(d) for d in person.seen(room))


async def test_play_goes_on_after_the_gateway_restarts(tmp_path: Path, testbed: dict[str, Any]) -> None:
    from plugins.jaipur import GAME

    async with (
        running_bot(tmp_path, testbed, {"jaipur": GAME}, seed=9) as (hub, bot),
        present(Person.of(testbed, "alice"), Person.of(testbed, "bob")) as (alice, bob),
    ):
        room = take_room(testbed)
        for person in (alice, bob):
            await person.say(room, "!join")
        await alice.say(room, "!start")
        table = hub.tables[(NET, f"#{room}")]
        await until(lambda: table.running, 15, "the game started")
        await alice.close()
        await bob.close()
        restart_gateway(testbed)
        await until(lambda: bot.online.is_set(), 60, "the bot back on the gateway")
        async with present(Person.of(testbed, "alice"), Person.of(testbed, "bob")) as back:
            seat = GAME.to_act(table.state)[0]
            person = {each.id: each for each in back}[table.players[seat].key[2:]]
            before, move = table.moves_made, GAME.legal_commands(table.state, seat)[0]
            for _ in range(12):  # what is said while the bot is still away it never reads: say it again
                await person.say(room, move)
                try:
                    await until(lambda: table.moves_made > before, 5, "the move after the restart")
                    break
                except AssertionError:
                    continue
            assert table.moves_made == before + 1, "the move after the restart was played once"


async def seated_pair(hub: Any, room: str, alice: Person, bob: Person) -> Any:
    """Alice and Bob at a started Jaipur table in ``room``: the table."""
    for person in (alice, bob):
        mark = person.mark()
        await person.say(room, "!join")
        await person.expect(lambda d, p=person: f"{p.name} joins" in shown_text(d), room, mark)
    await alice.say(room, "!start")
    table = hub.tables[(NET, f"#{room}")]
    await until(lambda: table.running, 15, "the game started")
    return table


async def test_a_button_the_game_has_moved_past_plays_nothing(
    tmp_path: Path, testbed: dict[str, Any]
) -> None:
    from plugins.jaipur import GAME

    async with (
        running_bot(tmp_path, testbed, {"jaipur": GAME}, seed=4) as (hub, bot),
        present(Person.of(testbed, "alice"), Person.of(testbed, "bob")) as (alice, bob),
    ):
        room = take_room(testbed)
        table = await seated_pair(hub, room, alice, bob)
        seat = GAME.to_act(table.state)[0]
        person = {alice.id: alice, bob.id: bob}[table.players[seat].key[2:]]
        mark = await press_your_moves(person, room)  # the board's newest message (an older one moves down)
        picker = await person.expect(
            lambda d: is_ephemeral(d) and bool(pressable(d, "play") or pressable(d, "verb")),
            None,
            mark,
            (CREATED, EDITED),
        )
        while not pressable(picker, "play"):
            mark = person.mark()
            await person.press(picker, str(pressable(picker, "verb")["custom_id"]))  # type: ignore[index]
            picker = await person.expect(
                lambda d, was=picker["id"]: d["id"] == was and bool(pressable(d, "play")),
                None,
                mark,
                (EDITED,),
            )
        stale = pressable(picker, "play")
        before = table.moves_made
        await person.say(room, GAME.legal_commands(table.state, seat)[0])  # the game moves on by typing
        await until(lambda: table.moves_made == before + 1, 15, "the typed move")
        await bot.idle()
        mark = person.mark()
        await person.press(picker, str(stale["custom_id"]))  # type: ignore[index]
        answer = await person.expect(
            lambda d: is_ephemeral(d) and bool(d["content"]), None, mark, (CREATED, EDITED)
        )
        await bot.idle()
        assert table.moves_made == before + 1, "a stale button played a move"
        assert "not your turn" in shown_text(answer) or "moved on" in shown_text(answer), shown_text(answer)


async def test_an_answer_after_the_interaction_expired_comes_by_dm(
    tmp_path: Path, testbed: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    import datetime

    from bazaarbot.transports.discord import transport
    from plugins.jaipur import GAME

    # every interaction counts as older than its token's 15 minutes: the clock, not a wait
    monkeypatch.setattr(transport, "INTERACTION_LIFETIME", datetime.timedelta(seconds=-1))
    async with (
        running_bot(tmp_path, testbed, {"jaipur": GAME}, seed=6) as (hub, bot),
        present(Person.of(testbed, "alice"), Person.of(testbed, "bob")) as (alice, bob),
    ):
        room = take_room(testbed)
        await seated_pair(hub, room, alice, bob)
        dm = await alice.dm_channel()
        await bot.idle()
        mark = alice.mark()
        await alice.slash("hand", channel=room)
        hand = await alice.expect(lambda d: "Your hand" in shown_text(d), dm, mark)
        assert not is_ephemeral(hand)
        await bot.idle()
        late = [d for d in alice.seen(None, mark, (CREATED, EDITED)) if is_ephemeral(d) and d["content"]]
        assert not late, "an answer went through an expired interaction"


async def test_a_configured_admin_resets_at_once_and_a_player_asks_the_others(
    tmp_path: Path, testbed: dict[str, Any]
) -> None:
    from bazaarbot.config import AdminPolicy
    from plugins.jaipur import GAME

    async with present(Person.of(testbed, "carol")) as (carol,):
        policy = AdminPolicy(accounts=(carol.id,), ops_are_admins=True)  # as the config's admins = [ID]
        async with (
            running_bot(
                tmp_path, testbed, {"jaipur": GAME}, settings={"admins": policy}, seed=7, admins={NET: policy}
            ) as (hub, bot),
            present(Person.of(testbed, "alice"), Person.of(testbed, "bob")) as (alice, bob),
        ):
            room = take_room(testbed)
            table = await seated_pair(hub, room, alice, bob)
            mark = alice.mark()
            await bob.say(room, "!reset")
            asked = await alice.expect(lambda d: "wants to reset" in shown_text(d), room, mark)
            assert alice.mention in asked["content"], "the player asked to agree is mentioned"
            assert table.running
            mark = alice.mark()
            await carol.say(room, "!reset")
            await alice.expect(lambda d: "abandoned" in shown_text(d), room, mark)
            assert not table.running
