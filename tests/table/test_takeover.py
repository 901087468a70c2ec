"""No game dies or stalls because of one person: AI takeover, coming back, sitting in, the turn clock.

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
    FakeClock,
    clocked_driver,
    person_to_act,
    recorded,
    say,
    settle,
    table_of,
)
from support.waits import next_turn

from bazaarbot.ai import AiPool
from bazaarbot.config import BotSettings, RateLimit, TableSettings
from bazaarbot.messages import Incoming, Say, User
from bazaarbot.table.clock import AWAY_AFTER, TurnClock


def _driver(db, game: str, seed: int) -> tuple[Driver, FakeClock]:
    """A bot with the tables' default settings whose wall clock the test moves by hand."""
    return clocked_driver(db, game, seed, turn_seconds=300, level="medium", abandon_after=7 * 86400.0)


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
    bot, _clock = _driver(tmp_path / "a.sqlite", "jaipur", 5)
    await recorded(bot)  # the lines go out to a network, as they do in play
    await say(bot, "alice", "/join")
    await say(bot, "alice", "/addbot easy")
    await say(bot, "alice", "/start")
    await say(bot, "carol", "/join 2")
    assert bot.table.players[1].nick == "AI:easy"


async def test_three_timeouts_in_a_row_mark_the_player_away_until_they_speak(tmp_path):
    bot, recorder, clock, _names = await table_of("jaipur", 2, tmp_path, turn_seconds=60)
    await settle(bot)
    sleeper = person_to_act(bot)
    nick = bot.table.players[sleeper].nick
    timeouts = 0
    while bot.table.players[sleeper].ai is None:
        seat = person_to_act(bot)
        if seat == sleeper:
            clock.now += 61
            await bot.hub.tick()
            timeouts += 1
        else:
            other = bot.table.players[seat]
            await say(bot, other.nick, bot.table.plugin.legal_commands(bot.table.state, seat)[0])
        await settle(bot)
    assert timeouts == AWAY_AFTER + 1 and bot.table.players[sleeper].away  # the first one only reminds
    assert sum(f"Time is up for {nick}" in line for line in recorder.channel()) == AWAY_AFTER
    await say(bot, nick, "sorry, I was away")
    assert bot.table.players[sleeper].ai is None and not bot.table.players[sleeper].away


async def test_the_clock_reminds_privately_at_half_time_and_with_30_seconds_left(tmp_path):
    """Before a player's first step a timeout only reminds them, and the reminders say so."""
    bot, recorder, clock, _names = await table_of("jaipur", 2, tmp_path, turn_seconds=120)
    await settle(bot)
    nick = bot.table.players[person_to_act(bot)].nick
    public = len(recorder.channel())
    clock.now += 61
    await bot.hub.tick()
    first = "59s left; then I remind you once more, and at the end of one more turn's time the AI plays it"
    assert any(first in line for line in recorder.private(nick))
    assert not any("then the AI plays it for you" in line for line in recorder.private(nick))
    clock.now += 30
    await bot.hub.tick()
    assert any("29s left; then I remind you once more" in line for line in recorder.private(nick))
    assert len(recorder.channel()) == public, "a reminder never goes to the channel"


async def test_the_reminder_of_a_player_who_has_moved_says_the_ai_plays_at_the_timeout(tmp_path):
    bot, recorder, clock, _names = await table_of("jaipur", 2, tmp_path, turn_seconds=120)
    await settle(bot)
    mover = person_to_act(bot)
    nick = bot.table.players[mover].nick
    for _ in range(6):  # until the same person decides again, having moved once
        seat = person_to_act(bot)
        await say(
            bot, bot.table.players[seat].nick, bot.table.plugin.legal_commands(bot.table.state, seat)[0]
        )
        await settle(bot)
        if person_to_act(bot) == mover:
            break
    assert person_to_act(bot) == mover
    clock.now += 61
    await bot.hub.tick()
    assert any("59s left, then the AI plays it for you." in line for line in recorder.private(nick))


async def test_a_timed_out_decision_adds_one_public_line_beside_its_move(tmp_path):
    bot, recorder, clock, _names = await table_of("jaipur", 2, tmp_path, turn_seconds=120)
    await settle(bot)
    before = len(recorder.channel())
    for _ in range(2):  # a player who has not moved yet is only reminded at the first timeout
        clock.now += 121
        await bot.hub.tick()
        await settle(bot)
    added = recorder.channel()[before:]
    clock_lines = [line for line in added if "left" in line or "Time is up" in line]
    assert len(clock_lines) == 1 and clock_lines[0].startswith("Time is up for")
    # the rest is the move the AI played, as an AI's turn is announced: one line
    assert len(added) == 1 + 1, added


async def test_the_clock_pauses_while_the_network_is_down(tmp_path):
    bot, recorder, clock, _names = await table_of("jaipur", 2, tmp_path, turn_seconds=60)
    await settle(bot)
    clock.now += 40
    await bot.hub.network_down(NETWORK)
    clock.now += 600
    await bot.hub.tick()
    assert not any("Time is up" in line for line in recorder.channel())
    await bot.hub.network_up(NETWORK)
    assert bot.table.turn_clock.left(clock.now) == pytest.approx(20)


async def test_the_clock_survives_a_restart_with_its_time_left(tmp_path):
    bot, recorder, clock, _names = await table_of("jaipur", 2, tmp_path, turn_seconds=300)
    await settle(bot)
    clock.now += 100
    await bot.hub.tick()
    await bot.hub.close()
    again = bot.restart()
    await again.hub.tick()
    assert again.table.turn_clock.left(clock.now) == pytest.approx(200)


def test_a_stored_clock_whose_deadline_passed_gets_a_grace():
    clock = TurnClock(60, (1, 3), deadline=100.0)
    again = TurnClock.from_json(clock.to_json(), now=500.0)
    assert again.left(500.0) == pytest.approx(30.0)


async def test_clock_command_sets_the_time_per_decision(tmp_path):
    bot, recorder, clock, _names = await table_of("jaipur", 2, tmp_path, turn_seconds=60)
    await say(bot, "p1", "/clock 90s")
    assert bot.table.clock_seconds() == 90
    await say(bot, "p1", "/clock off")
    assert bot.table.clock_seconds() is None
    await say(bot, "p1", "/clock 2s")
    assert any("from 5s to 14 days" in line for line in recorder.private("p1"))
    await say(bot, "p2", "/clock 5m")
    assert bot.table.clock_seconds() is None  # only the host or an admin


async def test_reset_by_agreement_of_four_people(tmp_path):
    bot, recorder, clock, names = await table_of("yspahan", 4, tmp_path, turn_seconds=None)
    await say(bot, "p1", "/reset")
    clock.now += 200  # p1's request is too old by the time the others agree
    for name in names[1:]:
        await say(bot, name, "/reset")
        assert bot.table.running
    await say(bot, "p1", "/reset")
    assert not bot.table.running and [s.nick for s in bot.table.seats] == names


async def test_a_game_with_no_person_left_pauses_and_is_abandoned_only_after_a_warning(tmp_path):
    bot, recorder, clock, names = await table_of("jaipur", 2, tmp_path, turn_seconds=None)
    await say(bot, "p1", "/leave")
    await say(bot, "p2", "/leave")
    await bot.hub.tick()
    assert bot.table.running and any("the game is paused" in line for line in recorder.channel())
    clock.now += 601  # abandon_after is over, but nobody was warned yet
    await bot.hub.tick()
    assert bot.table.running and any("is abandoned in 5m" in line for line in recorder.channel())
    clock.now += 300
    await bot.hub.tick()
    assert not bot.table.running and any("abandoned (paused for" in line for line in recorder.channel())


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
    bot, _clock = _driver(tmp_path / "h.sqlite", "jaipur", 4)
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
    bot, _clock = _driver(tmp_path / "two.sqlite", "jaipur", 9)
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
    bot, clock = _driver(tmp_path / "s.sqlite", "bazaar", 3)
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


class QueuedRecorder(Recorder):
    """A transport whose lines wait in a paced queue for ``backlog`` seconds."""

    backlog = 12.0

    def backlog_seconds(self) -> float:
        return self.backlog


async def test_the_clock_starts_when_the_prompt_has_left_the_send_queue(tmp_path):
    clock = FakeClock()
    settings = BotSettings(
        default_game="jaipur", seed=2, rate_limit=RateLimit(commands=10_000, per_seconds=5)
    )
    bot = Driver(
        tmp_path / "q.sqlite", games=GAMES, settings=settings, wall_clock=clock, tables=TableSettings(60)
    )
    recorder = QueuedRecorder()
    await recorder.start(bot.hub)
    for nick in ("p1", "p2"):
        await say(bot, nick, "/join")
    await say(bot, "p1", "/start")
    await bot.hub.tick()
    assert bot.table.turn_clock.left(clock.now) == pytest.approx(72)
