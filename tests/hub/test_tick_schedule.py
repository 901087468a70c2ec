"""The turn clock's tick looks only at tables that may have something due, and misses nothing.

A table whose tick said nothing sleeps until its next time (a reminder, a
timeout, an abandon warning) or until it changes. Time is a fake wall clock
moved by the tests; the AI is the real one, thinking in a thread.
"""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st
from support.botdriver import NETWORK
from support.clocked import clocked_driver, person_to_act, say, settle, table_of

from bazaarbot.config import MAX_TURN_SECONDS, MIN_TURN_SECONDS
from bazaarbot.hub.tick_schedule import TickSchedule
from bazaarbot.table.clock import TurnClock

DAY = 86400.0


def awake(bot) -> bool:
    return bot.table in bot.hub.autoplay.schedule.due(bot.hub.autoplay.wall_clock())


async def test_a_table_with_nothing_due_is_not_looked_at_until_it_changes(tmp_path):
    bot, _recorder, clock, _names = await table_of("jaipur", 2, tmp_path, turn_seconds=None)
    await settle(bot)
    await bot.hub.tick()
    assert not awake(bot)
    clock.now += 30 * DAY  # no clock, players present: nothing is ever due
    assert not awake(bot)
    seat = person_to_act(bot)
    table = bot.table
    await say(bot, table.players[seat].nick, table.plugin.legal_commands(table.state, seat)[0])
    assert awake(bot), "a move wakes the table"


async def test_a_sleeping_table_still_gets_its_reminders_and_its_timeout_on_time(tmp_path):
    bot, recorder, clock, _names = await table_of("jaipur", 2, tmp_path, turn_seconds=120)
    await settle(bot)
    seat = person_to_act(bot)
    nick = bot.table.players[seat].nick
    deadline = bot.table.turn_clock.deadline
    assert not awake(bot)
    assert bot.table.next_tick(bot.hub.autoplay.abandon_after) == deadline - 60  # half time
    clock.now = deadline - 61
    assert not awake(bot)
    clock.now = deadline - 59
    await bot.hub.tick()
    assert any("59s left" in line for line in recorder.private(nick))
    assert bot.table.next_tick(bot.hub.autoplay.abandon_after) == deadline - 30  # the last call
    clock.now = deadline - 29
    await bot.hub.tick()
    assert any("29s left" in line for line in recorder.private(nick))
    clock.now = deadline + 1
    await bot.hub.tick()  # the first timeout only reminds, and gives a whole new period
    granted = bot.table.turn_clock.deadline
    assert granted == clock.now + 120
    await bot.hub.tick()  # a tick that said something looks again; this one says nothing
    assert not awake(bot)
    assert bot.table.next_tick(bot.hub.autoplay.abandon_after) == granted - 60


async def test_a_paused_game_sleeps_until_its_abandon_warning_and_then_its_end(tmp_path):
    bot, clock = clocked_driver(tmp_path / "p.sqlite", "jaipur", 5, None, abandon_after=7 * DAY)
    for name in ("p1", "p2"):
        await say(bot, name, "/join")
    await say(bot, "p1", "/start")
    await say(bot, "p1", "/leave")
    await say(bot, "p2", "/leave")
    await settle(bot, until=lambda table: table.idle_since is not None)
    paused = bot.table.idle_since
    assert paused is not None
    await bot.hub.tick()
    after = bot.hub.autoplay.abandon_after
    assert bot.table.next_tick(after) == paused + 6 * DAY  # the warning, a day before
    clock.now = paused + 6 * DAY - 1
    assert not awake(bot)
    clock.now = paused + 6 * DAY
    await bot.hub.tick()
    assert bot.table.running and bot.table.settings.get("idle_warned")
    assert bot.table.next_tick(after) == paused + 7 * DAY
    clock.now = paused + 7 * DAY
    await bot.hub.tick()
    assert not bot.table.running


async def test_a_network_going_down_or_up_wakes_its_tables(tmp_path):
    bot, _recorder, clock, _names = await table_of("jaipur", 2, tmp_path, turn_seconds=60)
    await settle(bot)
    assert not awake(bot)
    await bot.hub.network_down(NETWORK)
    assert awake(bot)
    await bot.hub.tick()
    await bot.hub.network_up(NETWORK)
    assert awake(bot)


def test_a_table_that_woke_before_its_time_leaves_no_entry_that_piles_up():
    schedule = TickSchedule()
    table = object()
    for n in range(10_000):
        schedule.sleep(table, 1e9 + n)  # type: ignore[arg-type]
        schedule.wake(table)  # type: ignore[arg-type]
    assert len(schedule._heap) <= 2 * 1 + 64 + 1
    schedule.sleep(table, 5.0)  # type: ignore[arg-type]
    assert schedule.due(4.9) == [] and schedule.due(5.0) == [table]


@given(
    seconds=st.integers(MIN_TURN_SECONDS, MAX_TURN_SECONDS),
    steps=st.lists(st.floats(0.0, 1.0), min_size=1, max_size=6),
)
def test_a_turn_clock_gives_nothing_before_its_next_event(seconds, steps):
    """``next_event`` is never later than the first time ``due`` gives anything, and at that time it does."""
    clock = TurnClock(seconds)
    clock.follow((1, 0), 0.0)
    now = 0.0
    for fraction in steps:
        upcoming = clock.next_event()
        if upcoming is None:
            assert clock.due(now + 10 * seconds) == []
            return
        probe = now + (upcoming - now) * fraction  # a moment before the next event, or at it
        if probe < upcoming:
            assert clock.due(probe) == []
        now = max(now, upcoming)
        assert clock.due(now), "at its next event the clock gives one"
    assert clock.next_event() is None or clock.next_event() > now or math.isclose(clock.next_event(), now)


def test_a_clock_past_its_timeout_has_nothing_more_due_until_a_grace_restarts_it():
    clock = TurnClock(300)
    clock.follow((1, 0), 0.0)
    assert clock.due(400.0) == ["timeout"]  # the bot was away past both reminders
    assert clock.next_event() is None
    assert clock.grant_grace(400.0)
    assert clock.next_event() == 400.0 + 300 - 150  # half time of the new period
