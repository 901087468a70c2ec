"""A running game is reset only by the agreement of every person playing it."""

from __future__ import annotations

from support.clocked import (
    say,
    table_of,
)


async def test_reset_by_agreement_of_four_people(tmp_path):
    bot, recorder, clock, names = await table_of("yspahan", 4, tmp_path, turn_seconds=None)
    await say(bot, "p1", "/reset")
    clock.now += 200  # p1's request is too old by the time the others agree
    for name in names[1:]:
        await say(bot, name, "/reset")
        assert bot.table.running
    await say(bot, "p1", "/reset")
    assert not bot.table.running and [s.nick for s in bot.table.seats] == names
