"""The turn clock: reminders, timeouts the AI plays, a player marked away, pauses, restarts, send queues.

Time is a fake wall clock moved by the tests; the AI is the real one with
small budgets, thinking in a thread.
"""

from __future__ import annotations

import pytest
from support.botdriver import NETWORK, Recorder
from support.clocked import (
    clocked_driver,
    person_to_act,
    say,
    settle,
    table_of,
)

from bazaarbot.table.clock import AWAY_AFTER, TurnClock


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


class QueuedRecorder(Recorder):
    """A transport whose lines wait in a paced queue for ``backlog`` seconds."""

    backlog = 12.0

    def backlog_seconds(self) -> float:
        return self.backlog


async def test_the_clock_starts_when_the_prompt_has_left_the_send_queue(tmp_path):
    bot, clock = clocked_driver(tmp_path / "q.sqlite", "jaipur", 2, turn_seconds=60)
    recorder = QueuedRecorder()
    await recorder.start(bot.hub)
    for nick in ("p1", "p2"):
        await say(bot, nick, "/join")
    await say(bot, "p1", "/start")
    await bot.hub.tick()
    assert bot.table.turn_clock.left(clock.now) == pytest.approx(72)
