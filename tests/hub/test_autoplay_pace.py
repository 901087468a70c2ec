"""The pause before an AI plays comes once per AI turn, not once per decision of that turn.

The pace lets people follow the game; the decisions of one AI turn are said as
one line, so pausing before each of them only made people wait. The time is
an injected clock: the pauses are counted, not waited for.
"""

from __future__ import annotations

import asyncio
import random

from support.clocked import clocked_driver, recorded, say, settle

from bazaarbot.table.seats import AI_KEY_PREFIX


class PaceClock:
    """A monotonic clock that moves only when the pace pauses; it keeps every pause asked for."""

    def __init__(self) -> None:
        self.now = 100.0
        self.pauses: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.pauses.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)


async def test_ai_turns_are_paced_once_per_turn_not_per_decision(tmp_path):
    bot, _wall = clocked_driver(tmp_path / "t.sqlite", "yspahan", 5, None)
    pace = PaceClock()
    autoplay = bot.hub.autoplay
    autoplay.move_delay, autoplay.monotonic, autoplay.sleep = 1.0, pace, pace.sleep
    recorder = await recorded(bot)
    await say(bot, "ann", "/join")
    for _ in range(3):
        await say(bot, "ann", "/addbot easy")
    await say(bot, "ann", "/start")
    rng = random.Random(2)
    for _ in range(12):
        await settle(bot)
        table = bot.table
        if not table.running:
            break
        seat = table.plugin.to_act(table.state)[0]
        await say(bot, "ann", rng.choice(table.plugin.legal_commands(table.state, seat)))
    await settle(bot)
    moves = bot.hub.store.moves(bot.table.game_id)
    ai_decisions = sum(1 for move in moves if str(move["author"]).startswith(AI_KEY_PREFIX))
    ai_turn_lines = [line for line in recorder.channel() if line.startswith("AI:") and "joins" not in line]
    assert pace.pauses and all(0 < pause <= 1.0 for pause in pace.pauses)
    # every AI turn waited once, and was said on one line; the decisions within a turn followed at once
    assert len(pace.pauses) == len(ai_turn_lines)
    assert ai_decisions > len(ai_turn_lines) * 1.3, (ai_decisions, len(ai_turn_lines))
