"""No game dies or stalls because of one person: AI takeover, coming back, sitting in, AI answers kept fresh.

Time is a fake wall clock moved by the tests; the AI is the real one with
small budgets, thinking in a thread.
"""

from __future__ import annotations

import random
from concurrent.futures import Executor, Future, ThreadPoolExecutor

import pytest
from support.botdriver import NETWORK, Driver, Recorder
from support.clocked import (
    CHANNEL,
    GAMES,
    default_clocked,
    person_to_act,
    recorded,
    say,
    settle,
    table_of,
)
from support.waits import next_turn

from bazaarbot.ai import AiPool
from bazaarbot.messages import Incoming, Say, User


async def play_to_the_end(bot: Driver, recorder: Recorder, rng: random.Random, removals: dict) -> None:
    """People play random legal moves; at decision ``k`` of ``removals`` the person to act is removed.

    Everybody removed but the last comes straight back (``/join``), so one game
    goes through every way of leaving and coming back; the last one's seat is
    played by the AI to the end.
    """
    decision = 0
    pending = dict(removals)
    returning: str | None = None
    for _ in range(5000):
        await settle(bot)
        table = bot.table
        if not table.running:
            break
        if returning is not None:
            await say(bot, returning, "/join")
            returning = None
            continue
        seat = person_to_act(bot)
        assert seat is not None
        if decision in pending:
            removal = pending.pop(decision)
            nick = table.players[seat].nick
            await removal(bot, nick, seat)
            assert table.players[seat].ai is not None or not table.running
            returning = nick if pending else None
            decision += 1
            continue
        command = rng.choice(table.plugin.legal_commands(table.state, seat))
        await say(bot, table.players[seat].nick, command)
        decision += 1
    assert any(line.startswith("Game over:") for line in recorder.channel()), recorder.channel()[-5:]


async def by_leave(bot: Driver, nick: str, seat: int) -> None:
    await say(bot, nick, "/leave")


async def by_kick(bot: Driver, nick: str, seat: int) -> None:
    await say(bot, "root", f"/kick {nick}", account="root")


async def by_disconnect(bot: Driver, nick: str, seat: int) -> None:
    await bot.hub.user_left(NETWORK, None, User(nick), grace=0)
    await bot.hub.idle()


async def by_timeout(bot: Driver, nick: str, seat: int) -> None:
    """The player never answers: the clock runs out until the player is marked away."""
    clock = bot.wall_clock
    for _ in range(200):
        table = bot.table
        if not table.running or table.players[seat].ai is not None:
            return
        if seat in table.plugin.to_act(table.state):
            clock.now += table.clock_seconds() + 1
            await bot.hub.tick()
        await settle(bot)
        if person_to_act(bot) not in (None, seat):  # someone else's turn: play for them
            other = person_to_act(bot)
            await say(bot, table.players[other].nick, table.plugin.legal_commands(table.state, other)[0])


#: every game at every table size where somebody is left to play on (a lone leaver: the abandon test)
CONFIGS = [
    (name, n)
    for name, game in sorted(GAMES.items())
    for n in range(max(2, game.min_players), game.max_players + 1)
]


@pytest.mark.parametrize(("game", "players"), CONFIGS)
async def test_a_seat_left_kicked_disconnected_and_timed_out_plays_on_to_game_over(tmp_path, game, players):
    rng = random.Random(f"{game}{players}")
    bot, recorder, _clock, _names = await table_of(game, players, tmp_path)
    points = sorted(rng.sample(range(1, 30), 4))
    ways = [by_leave, by_kick, by_disconnect, by_timeout]
    await play_to_the_end(bot, recorder, rng, dict(zip(points, ways, strict=True)))
    channel = recorder.channel()
    assert sum("now plays seat" in line for line in channel) >= 3
    assert sum("is back in seat" in line for line in channel) >= 3
    assert any("Time is up for" in line for line in channel)


async def test_a_returning_player_gets_seat_and_hand_back(tmp_path):
    bot, recorder, _clock, _names = await table_of("jaipur", 2, tmp_path, turn_seconds=None)
    await say(bot, "p2", "/leave")
    await settle(bot)
    assert bot.table.players[1].ai == "easy"
    recorder.sent.clear()
    await say(bot, "p2", "/join")
    assert bot.table.players[1].ai is None and bot.table.players[1].nick == "p2"
    assert any("is back in seat 2" in line for line in recorder.channel())
    assert any(line.startswith("Your hand") or "hand" in line.lower() for line in recorder.private("p2"))


async def test_playing_a_move_is_a_way_back_to_ones_seat(tmp_path):
    bot, recorder, _clock, _names = await table_of("jaipur", 2, tmp_path, turn_seconds=None)
    waiting = 1 - person_to_act(bot)
    nick = bot.table.players[waiting].nick
    await say(bot, nick, "/leave")
    assert bot.table.players[waiting].ai == "easy"
    await say(bot, nick, "take camels")
    assert bot.table.players[waiting].ai is None
    assert any(f"{nick} is back in seat" in line for line in recorder.channel())


async def test_someone_not_seated_sits_in_for_an_ai_and_the_former_player_cannot_reclaim(tmp_path):
    bot, recorder, _clock, _names = await table_of("jaipur", 2, tmp_path, turn_seconds=None)
    await say(bot, "p2", "/leave")
    await settle(bot)
    await say(bot, "carol", "/join 2")
    assert bot.table.players[1].nick == "carol" and bot.table.players[1].ai is None
    assert any("carol sits in for p2" in line for line in recorder.channel())
    await say(bot, "p2", "/join")
    assert bot.table.players[1].nick == "carol"


async def test_an_addbot_seat_cannot_be_taken_by_sitting_in(tmp_path):
    bot, _clock = default_clocked(tmp_path / "a.sqlite", "jaipur", 5)
    await recorded(bot)  # the lines go out to a network, as they do in play
    await say(bot, "alice", "/join")
    await say(bot, "alice", "/addbot easy")
    await say(bot, "alice", "/start")
    await say(bot, "carol", "/join 2")
    assert bot.table.players[1].nick == "AI:easy"


class HeldExecutor(Executor):
    """Runs nothing until ``release``: a think that is still going when the table changes."""

    def __init__(self) -> None:
        self.held: list[tuple[Future, object, tuple]] = []

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[override]
        future: Future = Future()
        self.held.append((future, fn, args))
        return future

    def release(self) -> None:
        for future, fn, args in self.held:
            if not future.cancelled():
                future.set_result(fn(*args))  # type: ignore[operator]
        self.held.clear()


async def addbot_table(bot: Driver, channel: str) -> None:
    for nick, text in [("ann", "/new jaipur"), ("ann", "/addbot easy"), ("ann", "/start")]:
        await bot.hub.handle(Incoming(NETWORK, channel, User(nick), text))


async def test_an_ai_answer_that_comes_back_after_a_reset_is_dropped(tmp_path):
    bot, _clock = default_clocked(tmp_path / "h.sqlite", "jaipur", 4)
    held = HeldExecutor()
    bot.hub.autoplay._pool = AiPool(1, executor=held)
    recorder = await recorded(bot)
    admin = User("root", account="root")
    for _ in range(10):  # until the AI is to act
        await addbot_table(bot, CHANNEL)
        for _ in range(3):
            await next_turn()  # the think task hands its search to the executor
        if held.held:
            break
        await bot.hub.handle(Incoming(NETWORK, CHANNEL, admin, "/reset"))
    assert held.held, "the AI never had to think"
    await bot.hub.handle(Incoming(NETWORK, CHANNEL, admin, "/reset"))
    recorder.sent.clear()
    held.release()
    await bot.hub.idle()
    assert not any(line.startswith("AI:easy") for line in recorder.channel())


async def test_two_tables_whose_ais_think_at_once_both_move(tmp_path):
    bot, _clock = default_clocked(tmp_path / "two.sqlite", "jaipur", 9)
    bot.hub.autoplay._pool = AiPool(2, executor=ThreadPoolExecutor(2))
    recorder = await recorded(bot)
    for channel in ("#one", "#two"):
        await addbot_table(bot, channel)
    await bot.hub.idle()
    tables = [bot.hub.tables[(NETWORK, channel)] for channel in ("#one", "#two")]
    for _ in range(4):
        for table in tables:  # a move at each table: both AIs think at the same time
            assert table.plugin.to_act(table.state) == [0], "the AI seat did not move"
            command = table.plugin.legal_commands(table.state, 0)[0]
            await bot.hub.handle(Incoming(NETWORK, table.channel, User("ann"), command))
        await bot.hub.idle()
    assert all(table.moves_made >= 7 for table in tables)
    played = {m.channel for m in recorder.sent if isinstance(m, Say) and m.text.startswith("AI:easy")}
    assert played == {"#one", "#two"}


async def test_bazaar_leavers_skip_takes_the_seat_and_its_stones_out_of_the_game(tmp_path):
    bot, clock = default_clocked(tmp_path / "s.sqlite", "bazaar", 3)
    recorder = await recorded(bot)
    await say(bot, "p1", "/new bazaar leavers=skip")
    for nick in ("p2", "p3"):
        await say(bot, nick, "/join")
    await say(bot, "p1", "/start")
    await say(bot, "p2", "/leave")
    state = bot.table.state
    assert state.left == [False, True, False] and sum(state.hands[1]) == 0
    assert any("the seat is skipped from now on" in line for line in recorder.channel())
    rng = random.Random(2)
    for _ in range(30):  # the turn never comes to seat 2 again
        seat = bot.table.plugin.to_act(bot.table.state)[0]
        assert seat != 1
        await say(
            bot,
            bot.table.players[seat].nick,
            rng.choice(bot.table.plugin.legal_commands(bot.table.state, seat)),
        )
    table = bot.table
    replay = bot.hub.views.game_logs.latest(
        table.id, (table.game_id, table.moves_made)
    )  # the web table's log
    assert replay is not None and "/skip" in [e.text for e in replay.entries]
    replayed, played = table.plugin.to_json(replay.settled_state()), table.plugin.to_json(table.state)
    assert {**replayed, "players": None} == {**played, "players": None}  # the table names the seat "(left)"
    before = bot.table.plugin.to_json(bot.table.state)
    again = bot.restart()
    assert again.table.plugin.to_json(again.table.state) == before
