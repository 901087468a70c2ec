"""Rewards per seat: exact at the end of a game, the plugin's heuristic at a cut-off."""

from __future__ import annotations

from typing import Any

from bazaarbot.plugin import GamePlugin, Result


def final_rewards(result: Result, seats: int) -> list[float]:
    """A win is worth 1, shared by the winners (a two-way tie is half a win each)."""
    rewards = [0.0] * seats
    if result.winners:
        share = 1.0 / len(result.winners)
        for seat in result.winners:
            rewards[seat] = share
    return rewards


def rewards(game: GamePlugin, state: Any, seats: int) -> list[float] | None:
    """Each seat's reward in ``state``: final when over, else the evaluation (None if there is none)."""
    result = game.result(state)
    if result is not None:
        return final_rewards(result, seats)
    return game.evaluate_all(state, seats)
