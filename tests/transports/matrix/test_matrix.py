"""The bot on Matrix, against a real Synapse homeserver and real matrix-nio clients."""

# ruff: noqa: F811  (the synapse_server fixture imported from synapse is used as a parameter)

from __future__ import annotations

import asyncio
import itertools
import random
import secrets
import time
from pathlib import Path
from typing import Any

import pytest
from support.botrun import bot_running
from support.synapse import Player, Seen, Synapse, synapse_server  # noqa: F401
from support.waits import next_turn, wait_until

from bazaarbot.config import AiSettings, BotSettings, MatrixAccount, RateLimit
from bazaarbot.hub.hub import Hub
from bazaarbot.messages import Say
from bazaarbot.store import Store

# one homeserver for the module: its tests stay together on one xdist worker
pytestmark = [pytest.mark.matrix, pytest.mark.xdist_group("synapse")]

NET = "matrix"


def make_hub(directory: Path, games: dict[str, Any], seed: int = 11, **kwargs: Any) -> Hub:
    settings = BotSettings(
        seed=seed,
        default_game=sorted(games)[0],
        rate_limit=RateLimit(commands=1000, per_seconds=1.0),  # scripted players type fast
    )
    return Hub(Store(directory / "bot.sqlite"), games=games, settings=settings, **kwargs)


def account(server: Synapse, bot: Any, rooms: tuple[str, ...] = ()) -> MatrixAccount:
    return MatrixAccount(
        name=NET, homeserver=server.url, user_id=bot.user_id, password=bot.password, rooms=rooms
    )


async def start_bot(hub: Hub, settings: MatrixAccount, **transport: Any) -> Any:
    from bazaarbot.transports.matrix import MatrixTransport

    transport = {"reconnect_min": 0.1, "reconnect_max": 0.5, "sync_timeout": 5.0, **transport}
    bot = MatrixTransport(settings, **transport)
    await bot.start(hub)
    await hub.start()
    await wait_until(bot.online.is_set, 15, "the bot to come online")
    return bot


def unique(name: str) -> str:
    return f"{name}-{secrets.token_hex(3)}"


class Cast:
    """A homeserver's people for one test: the bot's account, players, and everything to close after."""

    def __init__(self, server: Synapse) -> None:
        self.server = server
        self.players: list[Player] = []
        self.closing: list[Any] = []

    async def bot(
        self,
        hub: Hub,
        rooms: tuple[str, ...],
        per_second: int | None = None,
        burst: int = 2,
        **transport: Any,
    ) -> Any:
        """The bot on a new account, in ``rooms``; ``per_second`` lowers the homeserver's limit for it."""
        user = self.server.register(unique("bazaarbot"))
        if per_second is not None:
            self.server.limit_messages(user.user_id, per_second, burst)
        bot = await start_bot(hub, account(self.server, user, rooms=rooms), **transport)
        self.closing.append(bot)
        return bot

    async def player(self, name: str) -> Player:
        player = await Player(self.server, self.server.register(unique(name))).start()
        self.players.append(player)
        return player

    async def close(self) -> None:
        for thing in reversed(self.closing):
            if isinstance(thing, Hub):
                await thing.close()
            else:
                await thing.stop()
        for player in self.players:
            await player.close()


@pytest.fixture
async def cast(synapse_server: Synapse):
    made = Cast(synapse_server)
    yield made
    await made.close()


async def table_room(
    cast: Cast, hub: Hub, *names: str, **transport: Any
) -> tuple[Any, str, str, list[Player]]:
    """The bot and the named players in one new room (created by the first player, by alias)."""
    people = [await cast.player(name) for name in names]
    alias_local = unique("table")
    room_id = await people[0].create_room(alias_local)
    alias = f"#{alias_local}:localhost"
    bot = await cast.bot(hub, (alias,), **transport)
    for person in people[1:]:
        await person.join(alias)
    await wait_until(lambda: room_id in bot.channels, what="the bot in the room")
    return bot, room_id, alias, people


def names(seen: Any, person: Player) -> bool:
    """The bot's line names ``person`` as clients do: their display name, a pill to their ID."""
    shown = person.user_id[1:].split(":")[0]  # a new account's display name is its localpart
    return f'href="https://matrix.to/#/{person.user_id}"' in seen.content.get("formatted_body", "") and (
        shown in seen.body and person.user_id not in seen.body
    )


async def notifications(server: Synapse, person: Player, sender: str) -> list[dict[str, Any]]:
    """What Synapse's shipped push rules made a notification of for ``person``, from ``sender``."""
    answer = await asyncio.to_thread(
        server.request, "GET", "/_matrix/client/v3/notifications?limit=1000", None, person.user.token
    )
    return [n for n in answer["notifications"] if n["event"]["sender"] == sender]


def moves_of(hub: Hub, channel: str) -> int:
    return hub.tables[(NET, channel.lower())].moves_made


_MARKS = itertools.count(1)


async def seen_through(bot: Any, person: Player, room: str, channel: str) -> list[Seen]:
    """Until everything the bot has sent so far is in ``person``'s view: what ``person`` saw before the
    marker that proves it.

    Once the hub's background work is done and the bot idle (the lines it read handled, its events
    sent), a line of the bot's own in ``room`` comes after all of them in the room's timeline, and a
    client's sync hands the timeline on in order.
    """
    await bot.hub.idle()
    await bot.idle()
    marker = f"(sync {next(_MARKS)})"
    await bot.send(Say(NET, channel, marker))
    await person.expect(lambda s: s.room_id == room and s.body == marker)
    return person.seen[: next(i for i, s in enumerate(person.seen) if s.room_id == room and s.body == marker)]


def edits(seen: list[Seen], room: str, sender: str) -> int:
    """How many of ``seen`` are ``sender``'s edits in ``room`` (a board message edited)."""
    return sum(1 for s in seen if s.room_id == room and s.sender == sender and s.is_edit)


class HeldBackoff:
    """The reconnect back-off's waits in the test's hand: each asked delay is kept; the first ``passing``
    go by at once (the time they stand for passes without the test waiting for it), the next one
    holds until the test ``release``s it, and then every wait goes by at once."""

    def __init__(self, passing: int) -> None:
        self.asked: list[float] = []
        self.passing = passing
        self.released = asyncio.Event()

    async def sleep(self, seconds: float) -> None:
        self.asked.append(seconds)
        if len(self.asked) > self.passing:
            await self.released.wait()
        await next_turn()

    def release(self) -> None:
        self.released.set()


async def test_two_players_play_a_whole_jaipur_match_in_a_room(tmp_path: Path, cast: Cast) -> None:
    from plugins.jaipur import GAME

    # the bot's seed deals a match that the moves chosen below end in 80 moves (98 under seed 29):
    # found by replaying these choices against the rules alone over thousands of seeds
    # nothing here reads the finished game's review: no background search for it once the match ends
    hub = make_hub(tmp_path, {"jaipur": GAME}, seed=7070, ai=AiSettings(review_after_game=0.0))
    cast.closing.append(hub)
    bot, room, channel, (alice, bob) = await table_room(cast, hub, "alice", "bob")
    me = bot.settings.user_id
    for hand in await start_jaipur(bot, room, alice, bob):
        assert hand.content.get("formatted_body", "").startswith("<pre>"), "a hand is a block"
    table = hub.tables[(NET, channel.lower())]
    players = {alice.user_id: alice, bob.user_id: bob}
    rng = random.Random(4)
    moves, trips = 0, []
    events_before = bot.sent
    while table.running:
        seat = GAME.to_act(table.state)[0]
        person = players[table.players[seat].nick]
        legal = GAME.legal_commands(table.state, seat)
        sells = [c for c in legal if c.startswith("sell")]
        command = rng.choice(sells if sells and rng.random() < 0.7 else legal)
        before, seen = table.moves_made, len(alice.seen)
        started = time.monotonic()
        # alternate between the room and the direct room
        target = room if moves % 2 == 0 else next(iter(person.direct))
        await person.say(target, command)
        if moves < 20:  # the round trip of a move: typed, played, its announcement seen in the room
            await alice.expect(lambda s: s.room_id == room and s.sender == me and not s.is_edit, start=seen)
            trips.append(time.monotonic() - started)
        await wait_until(lambda before=before: table.moves_made != before, 10, f"{command} played")
        moves += 1
        assert moves < 400
    trips.sort()
    await alice.expect(
        lambda s: s.room_id == room and any(x.startswith("Game over:") for x in s.body.split("\n"))
    )
    await wait_until(lambda: not bot.outbox.rooms, 10, "the bot's queue empty")
    events = bot.sent - events_before
    print(
        f"Jaipur over Matrix: {moves} moves, median round trip {trips[len(trips) // 2] * 1000:.0f} ms, "
        f"{events / moves:.1f} events per move"
    )
    posts = [s for s in alice.messages(room, me) if not s.is_edit]
    edits = [s for s in alice.messages(room, me) if s.is_edit]
    assert edits, "the board message is edited as the game goes on"
    board_id = edits[0].content["m.relates_to"]["event_id"]
    assert all(e.content["m.relates_to"]["event_id"] == board_id for e in edits), "one board message"
    board = next(p for p in posts if p.event_id == board_id)
    assert board.content["formatted_body"].startswith("<pre>") and "Goods tokens left" in board.body
    private = sum(len(p.private(me)) for p in (alice, bob))
    print(
        f"per move: {len(posts) / moves:.2f} room lines, {len(edits) / moves:.2f} board edits, "
        f"{private / moves:.2f} private lines"
    )
    shown = {e.content["m.new_content"]["body"] for e in edits}
    assert not any(p.body in shown for p in posts), "a board is never posted again, only edited"
    assert len(edits) <= moves
    for person in (alice, bob):
        public = person.messages(room, me)
        assert not any("Your hand" in s.body for s in public), "a private view reached the room"
        other = bob if person is alice else alice
        assert not any(s.room_id in other.direct for s in person.seen), "nobody reads another's direct room"


async def against_the_ai(hub: Any, room: str, channel: str, alice: Player, level: str) -> Any:
    """alice, seated in ``room``, adds an AI of ``level`` and starts: the running table."""
    await alice.say(room, f"!addbot {level}")
    await alice.expect(lambda s: s.room_id == room and f"AI:{level}" in s.body)
    await alice.say(room, "!start")
    table = hub.tables[(NET, channel.lower())]
    await wait_until(lambda: table.running, what="the game started")
    return table


async def start_jaipur(bot: Any, room: str, alice: Player, bob: Player) -> list[Any]:
    """alice and bob sit down in ``room`` and alice starts Jaipur: the hand each was sent privately."""
    await alice.say(room, "!join")
    await alice.expect(lambda s: s.room_id == room and "joins Jaipur" in s.body)
    await bob.say(room, "!join")
    await bob.expect(lambda s: s.room_id == room and names(s, bob) and "joins" in s.body)
    await alice.say(room, "!start")
    # a first hand opens a direct chat (several homeserver round trips): slow while a run starts up
    return [
        await person.expect(lambda s, p=person: s.room_id in p.direct and "Your hand" in s.body, timeout=30)
        for person in (alice, bob)
    ]


def a_move(table: Any, people: dict[str, Player], rng: random.Random) -> tuple[Player, str]:
    """Whose turn it is and one legal command for them."""
    seat = table.plugin.to_act(table.state)[0]
    return people[table.players[seat].nick], rng.choice(table.plugin.legal_commands(table.state, seat))


async def test_a_restart_in_mid_game_loses_no_move_and_replays_no_line(tmp_path: Path, cast: Cast) -> None:
    from bazaarbot.transports.matrix import MatrixTransport
    from plugins.jaipur import GAME

    hub = make_hub(tmp_path, {"jaipur": GAME})
    bot, room, channel, (alice, bob) = await table_room(cast, hub, "alice", "bob")
    await start_jaipur(bot, room, alice, bob)
    table = hub.tables[(NET, channel.lower())]
    people = {alice.user_id: alice, bob.user_id: bob}
    rng = random.Random(2)
    for _ in range(3):
        person, command = a_move(table, people, rng)
        before = table.moves_made
        await person.say(room, command)
        await wait_until(lambda before=before: table.moves_made == before + 1, what=command)
    played = table.moves_made
    person, command = a_move(table, people, rng)
    board = bot.boards[room].event_id
    assert board is not None
    seen = len(alice.seen)
    await bot.stop()
    cast.closing.remove(bot)
    await hub.close()
    await person.say(room, command)  # said while the bot is away
    hub = make_hub(tmp_path, {"jaipur": GAME})
    cast.closing.append(hub)
    again = await start_bot(hub, bot.settings)
    assert isinstance(again, MatrixTransport)
    cast.closing.append(again)
    table = hub.tables[(NET, channel.lower())]
    await wait_until(lambda: table.moves_made == played + 1, what="the move said while the bot was away")
    # every line said before the restart came in the restart's first sync: once the one after it is
    # read and all is handled, a replayed line would have been played and answered
    await wait_until(lambda: again.syncs >= 2, what="the sync after the restart's first")
    seen_then = await seen_through(again, alice, room, channel)
    assert table.moves_made == played + 1
    me = bot.settings.user_id
    joins = [s for s in seen_then if s.room_id == room and s.sender == me and "joins Jaipur" in s.body]
    assert len(joins) == 2, "an old line was handled again"
    assert again.state is not None and again.state.next_batch() is not None
    assert again.dms == bot.dms, "the direct rooms are kept and reused"
    await alice.expect(lambda s: s.is_edit and s.content["m.relates_to"]["event_id"] == board, start=seen)
    for player in (alice, bob):
        assert {s.room_id for s in player.private(me)} == {bot.dms[player.user_id]}, "one direct room each"
    # the board message's text is kept with it: after another restart, no edit repeats the board
    edited = edits(await seen_through(again, alice, room, channel), room, me)
    for thing in (again, hub):
        cast.closing.remove(thing)
        await (thing.stop() if thing is again else thing.close())
    hub = make_hub(tmp_path, {"jaipur": GAME})
    cast.closing.append(hub)
    third = await start_bot(hub, bot.settings)
    cast.closing.append(third)
    assert third.boards[room].text == hub.public_board(NET, channel), "the board's last text is known"
    seen = len(alice.seen)
    await alice.say(room, "!status")
    await alice.expect(lambda s: s.room_id == room and s.sender == me and not s.is_edit, start=seen)
    assert edits(await seen_through(third, alice, room, channel), room, me) == edited, (
        "an unchanged board was edited"
    )


async def test_a_player_who_left_the_direct_chat_gets_a_new_one(tmp_path: Path, cast: Cast) -> None:
    from plugins.jaipur import GAME

    hub = make_hub(tmp_path, {"jaipur": GAME})
    cast.closing.append(hub)
    bot, room, channel, (alice,) = await table_room(cast, hub, "alice")
    await alice.say(room, "!join")
    first = await alice.expect(lambda s: s.room_id in alice.direct and "seat 1" in s.body)
    await alice.client.room_leave(first.room_id)
    await wait_until(lambda: alice.user_id not in bot.dms, what="the bot to forget the direct room")
    seen = len(alice.seen)
    await alice.say(room, "!hand")
    answer = await alice.expect(lambda s: s.room_id in alice.direct, start=seen)
    assert answer.room_id != first.room_id and bot.dms[alice.user_id] == answer.room_id


async def test_a_stranger_cannot_move_for_a_seated_player_even_with_the_same_display_name(
    tmp_path: Path, cast: Cast
) -> None:
    from plugins.jaipur import GAME

    hub = make_hub(tmp_path, {"jaipur": GAME})
    cast.closing.append(hub)
    bot, room, channel, (alice, bob, mallory) = await table_room(cast, hub, "alice", "bob", "mallory")
    await start_jaipur(bot, room, alice, bob)
    table = hub.tables[(NET, channel.lower())]
    people = {alice.user_id: alice, bob.user_id: bob}
    person, command = a_move(table, people, random.Random(3))
    name = await person.client.get_displayname()
    await mallory.client.set_displayname(name.displayname)
    await mallory.say(room, command)  # not a seated player: chatter, never a move
    other = bob if person is alice else alice
    seen = len(other.seen)
    typed = await other.say(room, command)  # seated, but not their turn: refused
    me = bot.settings.user_id
    refusal = await other.expect(lambda s: s.room_id in other.direct, start=seen)
    assert "not your turn" in refusal.body
    await wait_until(
        lambda: any(
            s.type == "m.reaction" and s.content["m.relates_to"]["event_id"] == typed
            for s in other.seen[seen:]
        ),
        what="the mark beside the line answered privately",
    )
    await bot.idle()
    assert not any(
        s.room_id == room for s in other.seen[seen:] if s.sender == me and s.type != "m.reaction"
    ), "a line answered privately adds no line to the room"

    assert table.moves_made == 0, "the stranger's line moved nothing"
    seen = len(mallory.seen)
    direct = await mallory.open_direct(bot.settings.user_id)
    await mallory.say(direct, command)
    # in the direct chat (the room may still get the pointer to the answer of mallory's room line)
    refusal = await mallory.expect(
        lambda s: s.sender == bot.settings.user_id and s.room_id == direct, start=seen
    )
    assert "table" in refusal.body and table.moves_made == 0
    seen = len(other.seen)
    await person.say(room, command)
    await wait_until(lambda: table.moves_made == 1, what="the seated player's own move")
    shared = f"{name.displayname} ({person.user_id})"  # two people of the room go by that name
    await other.expect(lambda s: s.room_id == room and shared in s.body, start=seen)


@pytest.mark.parametrize("game", ["yspahan", "bazaar"])
async def test_a_person_against_addbot_hard(tmp_path: Path, cast: Cast, game: str) -> None:
    from bazaarbot.ai.levels import DEFAULT_LEVELS, Level
    from bazaarbot.config import AiSettings
    from bazaarbot.registry import discover

    levels = {**DEFAULT_LEVELS, "hard": Level("hard", iterations=30, time_cap=0.5, depth=4)}
    hub = make_hub(
        tmp_path,
        {game: discover()[game]},
        ai=AiSettings(workers=1, move_delay=0.0, levels=levels, review_after_game=0.0, ponder=False),
    )
    cast.closing.append(hub)
    bot, room, channel, (alice,) = await table_room(cast, hub, "alice")
    await alice.say(room, "!join")
    await alice.expect(lambda s: s.room_id == room and "joins" in s.body)
    table = await against_the_ai(hub, room, channel, alice, "hard")
    rng = random.Random(5)
    mine = ai_moves = 0

    def alice_to_act() -> bool:
        return not table.running or 0 in table.plugin.to_act(table.state)

    while (ai_moves < 2 or mine < 3) and table.running and mine < 40:
        await wait_until(alice_to_act, 30, "alice's turn")
        if not table.running:
            break
        before = table.moves_made
        await alice.say(room, rng.choice(table.plugin.legal_commands(table.state, 0)))
        await wait_until(lambda before=before: table.moves_made > before, what="alice's move")
        mine += 1
        await wait_until(alice_to_act, 30, "the AI's moves")
        ai_moves += table.moves_made - before - 1
    assert ai_moves >= 2, [s.body[:100] for s in alice.messages()[-12:]]
    assert any("AI:hard" in s.body for s in alice.messages(room, bot.settings.user_id)[-20:])


async def test_a_flood_in_one_room_does_not_delay_another_rooms_answer(tmp_path: Path, cast: Cast) -> None:
    from plugins.jaipur import GAME

    hub = make_hub(tmp_path, {"jaipur": GAME})
    cast.closing.append(hub)
    fred, carol = await cast.player("fred"), await cast.player("carol")
    names = unique("flood"), unique("calm")
    flood_room = await fred.create_room(names[0])
    calm_room = await carol.create_room(names[1])
    bot = await cast.bot(hub, tuple(f"#{n}:localhost" for n in names))
    await wait_until(lambda: flood_room in bot.channels and calm_room in bot.channels, what="both rooms")
    cast.server.limit_messages(bot.settings.user_id, 1, 1)  # now the homeserver lets one event a second
    lines = 12
    # each !hand answered privately, each !status in the room: more than the homeserver lets through
    await asyncio.gather(*(fred.say(flood_room, word) for _ in range(lines) for word in ("!hand", "!status")))
    await carol.say(calm_room, "!join")
    started = time.monotonic()  # the homeserver has her line
    await carol.expect(lambda s: s.room_id == calm_room and "joins Jaipur" in s.body, 60)
    seen = time.monotonic() - started
    queued, overtaken = bot.waited[calm_room], bot.outbox.overtaken[calm_room]
    print(
        f"an answer in a quiet room while another floods: {queued:.2f} s queued, {seen:.2f} s seen, "
        f"{overtaken} events of other rooms sent meanwhile"
    )
    # at most one event of each other room with lines waiting (the flood's room, fred's and carol's
    # direct rooms) left before it, however slowly the homeserver answered
    assert overtaken <= 3, "the flood held up another room's answer"
    me = bot.settings.user_id

    def answered() -> int:  # lines waiting together for one room leave as one event
        return sum(s.body.count("You are not playing") for s in fred.private(me))

    await wait_until(
        lambda: answered() >= lines, 120, f"every flooded line answered (none lost to a 429): {answered()}"
    )
    assert answered() == lines

    def pointers() -> int:  # the room's mark may reach fred's sync after the direct answers
        return sum(
            1 for s in fred.seen if s.room_id == flood_room and s.sender == me and s.type == "m.reaction"
        )

    await wait_until(lambda: pointers() >= 1, 60, "a mark beside a line answered in the direct chat")
    assert pointers() < lines, "a burst gets a mark, not one per line"
    assert not any("direct chat" in s.body for s in fred.messages(flood_room, me)), "a mark, not a line"
    assert bot.outbox.retries > 0, "the homeserver said 429"


async def test_a_lost_homeserver_stops_the_turn_clocks_and_play_resumes_within_seconds_of_its_return(
    tmp_path: Path, cast: Cast
) -> None:
    from bazaarbot.transports.matrix.transport import RECONNECT_CAP
    from plugins.jaipur import GAME

    hub = make_hub(tmp_path, {"jaipur": GAME})
    cast.closing.append(hub)
    # the back-off as shipped (only the long poll is shorter, so the test ends sooner); its waits in the
    # test's hand: six go by at once, long past where an uncapped back-off (1, 2, 4, 8 ... s) outgrows
    # the cap, and the seventh lasts until the homeserver is back
    backoff = HeldBackoff(passing=6)
    bot, room, channel, (alice,) = await table_room(
        cast, hub, "alice", reconnect_min=1.0, reconnect_max=RECONNECT_CAP, sleep=backoff.sleep
    )
    await alice.say(room, "!join")
    await alice.expect(lambda s: s.room_id == room and "joins" in s.body)
    server = cast.server
    server.kill()
    try:
        await wait_until(lambda: NET in hub.autoplay.down, 20, "the network reported down")
        assert not bot.online.is_set()
        await wait_until(lambda: len(backoff.asked) > backoff.passing, 20, "the back-off to reach its cap")
        assert all(delay <= RECONNECT_CAP for delay in backoff.asked), backoff.asked
        assert backoff.asked[-1] >= RECONNECT_CAP / 2, backoff.asked  # at the cap, jittered down
    finally:
        server.start()
    answered = time.monotonic()  # the homeserver answers again: at worst just as the held wait began
    backoff.release()
    await wait_until(lambda: NET not in hub.autoplay.down, 20, "the network back up")
    back = backoff.asked[backoff.passing] + time.monotonic() - answered
    seen = len(alice.seen)
    await alice.say(room, "!status")
    await alice.expect(lambda s: s.room_id == room and "Jaipur lobby" in s.body, start=seen)
    print(f"Matrix: play resumed {back:.1f} s after the homeserver answered again")
    assert back < 5.0, "play resumes within 5 s of the homeserver's return"
    joins = [s for s in alice.messages(room, bot.settings.user_id) if "joins" in s.body]
    assert len(joins) == 1, "what was delivered before the outage is not sent again"


async def test_the_bot_joins_a_room_it_is_invited_to_unless_auto_join_is_off(
    tmp_path: Path, cast: Cast
) -> None:
    from dataclasses import replace

    from plugins.jaipur import GAME

    hub = make_hub(tmp_path, {"jaipur": GAME})
    cast.closing.append(hub)
    bot = await cast.bot(hub, ())
    shy_user = cast.server.register(unique("shybot"))
    (tmp_path / "shy").mkdir()
    shy = await start_bot(
        make_hub(tmp_path / "shy", {"jaipur": GAME}, seed=3),
        # this one logs in with an access token instead of a password
        replace(
            account(cast.server, shy_user),
            name="shy",
            auto_join=False,
            password=None,
            access_token=shy_user.token,
        ),
    )
    cast.closing += [shy.hub, shy]
    carol = await cast.player("carol")
    room = await carol.create_room(unique("invited"))
    await carol.say(room, "!join")  # history, said before the bot came: never played
    for user_id in (bot.settings.user_id, shy_user.user_id):
        await carol.client.room_invite(room, user_id)
    synced = shy.syncs
    await wait_until(lambda: room in bot.channels, what="the bot in the room it was invited to")
    await carol.say(room, "!join")
    await carol.expect(lambda s: s.room_id == room and "joins Jaipur" in s.body)
    await bot.idle()
    said = [s.body for s in carol.messages(room, bot.settings.user_id)]
    assert said[0].startswith("Hello!") and "!new <game>" in said[0], "the bot says how to start"
    assert len(said) == 2, "a line from before the bot came was played"
    await wait_until(lambda: shy.syncs > synced, what="the shy bot to read its invite")
    assert room not in shy.channels and room not in shy.client.rooms


RUN_CONFIG = """
[bot]
seed = 3

[web]
enabled = true
port = 0

[[matrix.accounts]]
name = "hs"
homeserver = "{url}"
user_id = "{user_id}"
password = "{password}"
rooms = ["{room}"]
"""


async def test_run_command_plays_on_matrix_beside_the_web_chat(tmp_path: Path, cast: Cast) -> None:
    server = cast.server
    alice = await cast.player("alice")
    local = unique("run")
    room = await alice.create_room(local)
    bot = server.register(unique("bazaarbot"))
    config = tmp_path / "config.toml"
    text = RUN_CONFIG.format(
        url=server.url, user_id=bot.user_id, password=bot.password, room=f"#{local}:localhost"
    )
    config.write_text(text)
    async with bot_running(config, tmp_path / "bot.sqlite") as ended:
        await wait_until(
            lambda: any(s.sender == bot.user_id for s in alice.seen if s.room_id == room),
            30,
            "the bot to join",
        )
        await alice.say(room, "!join")
        await alice.expect(lambda s: s.room_id == room and "joins Jaipur" in s.body, 15)
    assert ended.returncode == 0, ended.err.decode()
    assert f"connecting to hs as {bot.user_id}".encode() in ended.out and b"serving the web chat" in ended.out


async def test_the_player_to_move_is_notified_for_each_of_their_turns(tmp_path: Path, cast: Cast) -> None:
    """Synapse's shipped push rules notify for the bot's turn lines: ``m.text`` with ``m.mentions``."""
    from bazaarbot.config import AiSettings
    from bazaarbot.messages import Tell
    from plugins.jaipur import GAME

    hub = make_hub(tmp_path, {"jaipur": GAME}, seed=7, ai=AiSettings(workers=1, move_delay=0.0, ponder=False))
    cast.closing.append(hub)
    bot, room, channel, (alice,) = await table_room(cast, hub, "alice")
    me = bot.settings.user_id
    await alice.say(room, "!join")
    joined = await alice.expect(lambda s: s.room_id == room and "joins" in s.body)
    assert names(joined, alice), "a person is shown by display name, a pill to their ID"
    table = await against_the_ai(hub, room, channel, alice, "easy")
    rng = random.Random(3)
    turns, counts = 0, []
    heard = 0
    while table.running and turns < 6:
        await wait_until(lambda: not table.running or 0 in GAME.to_act(table.state), 30, "alice's turn")
        if not table.running:
            break
        turns += 1

        async def notified(heard: int = heard) -> bool:
            return len(await notifications(cast.server, alice, me)) > heard

        await wait_until(notified, 10, f"a notification for alice's turn {turns}", 0.05)
        found = await notifications(cast.server, alice, me)
        counts.append(len(found) - heard)
        heard = len(found)
        before = table.moves_made
        await alice.say(room, rng.choice(GAME.legal_commands(table.state, 0)))
        await wait_until(lambda before=before: table.moves_made > before, what="alice's move")
    assert turns >= 3
    last = found[0]["event"]["content"]
    assert last["msgtype"] == "m.text" and last["m.mentions"] == {"user_ids": [alice.user_id]}
    assert f"https://matrix.to/#/{alice.user_id}" in last["formatted_body"]
    quiet = [s for s in alice.messages(room, me) if s.content.get("msgtype") == "m.notice"]
    assert quiet, "lines that are nobody's turn stay notices"
    edited = edits(await seen_through(bot, alice, room, channel), room, me)
    seen = len(alice.seen)
    await alice.say(room, "!status")
    await alice.expect(lambda s: s.room_id == room and s.sender == me, start=seen)
    assert edits(await seen_through(bot, alice, room, channel), room, me) == edited, (
        "!status edits no unchanged board"
    )
    first_board = bot.boards[room].event_id
    await alice.say(room, "!reset")
    await wait_until(lambda: not table.running, what="the game reset")
    await alice.say(room, "!start")
    await wait_until(
        lambda: bot.boards[room].event_id not in (None, first_board),
        what="a new board message for the new game",
    )
    # a clock reminder in the direct chat notifies too
    await bot.send(Tell(NET, alice.user_id, "Your move: 1m left.", key=f"a:{alice.user_id}", ping=True))
    await bot.idle()

    async def reminded() -> bool:
        return any(n["room_id"] in alice.direct for n in await notifications(cast.server, alice, me))

    await wait_until(reminded, 10, "the reminder in the direct chat to notify", 0.05)
    print(f"Matrix notifications for alice per turn of hers: {counts}")


async def test_a_table_opening_notifies_the_listed_people_in_the_room(tmp_path: Path, cast: Cast) -> None:
    """``!notify on``: Synapse's shipped push rules notify bob when alice opens a table where he is."""
    from plugins.jaipur import GAME

    hub = make_hub(tmp_path, {"jaipur": GAME})
    cast.closing.append(hub)
    bot, room, channel, (alice, bob, carol) = await table_room(cast, hub, "alice", "bob", "carol")
    me = bot.settings.user_id
    everybody = {p.user_id for p in (alice, bob, carol)}
    await wait_until(lambda: everybody <= {u.nick for u in bot.present(channel)}, what="all in the room")
    await bob.say(room, "!notify on")
    await bob.expect(lambda s: s.room_id in bob.direct and "You are called" in s.body)
    await alice.say(room, "!new jaipur")
    call = await carol.expect(lambda s: s.room_id == room and "opened a table" in s.body)
    assert names(call, bob) and names(call, alice), "people by display name, pills to their IDs"
    assert call.content["msgtype"] == "m.text" and call.content["m.mentions"] == {"user_ids": [bob.user_id]}

    async def called(person: Player) -> list[dict[str, Any]]:
        """The notifications that single ``person`` out (a highlight: the mention rule), not the room's
        unread count every ``m.text`` adds to."""
        found = await notifications(cast.server, person, me)
        return [n for n in found if "opened a table" in n["event"]["content"].get("body", "") and highlit(n)]

    await wait_until(lambda: called(bob), 10, "bob to be notified of the table opening", 0.05)
    assert await called(carol) == [], "carol did not ask to be called"


def highlit(notification: dict[str, Any]) -> bool:
    """Whether the push rules that matched made the event a highlight for its reader."""
    tweaks = [a for a in notification["actions"] if isinstance(a, dict) and a.get("set_tweak") == "highlight"]
    return any(t.get("value", True) for t in tweaks)


async def test_a_game_start_posts_one_board_and_a_reset_request_mentions_whom_it_asks(
    tmp_path: Path, cast: Cast
) -> None:
    from plugins.jaipur import GAME

    hub = make_hub(tmp_path, {"jaipur": GAME}, seed=31)
    cast.closing.append(hub)
    bot, room, channel, (alice, bob) = await table_room(cast, hub, "alice", "bob")
    me = bot.settings.user_id
    await start_jaipur(bot, room, alice, bob)
    before = await seen_through(bot, alice, room, channel)  # everything the start sent has reached alice
    boards = [
        s for s in before if s.room_id == room and s.sender == me and not s.is_edit and "Market:" in s.body
    ]
    assert len(boards) == 1, [s.body for s in boards]  # the whole board, edited from now on
    assert boards[0].event_id == bot.boards[room].event_id
    seen = len(bob.seen)
    await alice.say(room, "!reset")
    asked = await bob.expect(lambda s: s.room_id == room and "wants to reset" in s.body, start=seen)
    assert asked.content["m.mentions"] == {"user_ids": [bob.user_id]}
