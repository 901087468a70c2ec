"""One-ply policies: uniform random, greedy, and the beginner (greedy with mistakes)."""

from __future__ import annotations

import random
from typing import Any

from bazaarbot.plugin import GamePlugin


def random_action(game: GamePlugin, state: Any, seat: int, rng: random.Random) -> Any:
    """Uniformly random among the legal actions."""
    actions = game.ai_actions(state, seat)
    return actions[int(rng.random() * len(actions))]


def ranked_actions(game: GamePlugin, state: Any, seat: int) -> list[tuple[float, Any]] | None:
    """Every legal action with its one-ply value for ``seat``, best first; None without an evaluation."""
    ranked = []
    for index, action in enumerate(game.ai_actions(state, seat)):
        after = game.clone(state)
        game.ai_play(after, seat, action)
        result = game.result(after)
        value = (1.0 if seat in result.winners else 0.0) if result else game.evaluate(after, seat)
        if value is None:
            return None
        ranked.append((value, -index, action))
    ranked.sort(reverse=True, key=lambda item: (item[0], item[1]))
    return [(value, action) for value, _i, action in ranked]


def beginner_action(game: GamePlugin, state: Any, seat: int, rng: random.Random, mistakes: float) -> Any:
    """The greedy move, or with chance ``mistakes`` the second or third best one-ply move.

    A beginner sees what a move does at once but not what it sets up; without
    an evaluation to rank by, the plugin's greedy policy is played as it is.
    """
    if rng.random() >= mistakes:
        return game.greedy_action(state, seat, rng)
    ranked = ranked_actions(game, state, seat)
    if not ranked or len(ranked) == 1:
        return game.greedy_action(state, seat, rng)
    runners_up = ranked[1:3]
    return runners_up[int(rng.random() * len(runners_up))][1]
