"""Shared helpers for the AI tests: small budgets and random positions of every game."""

from __future__ import annotations

import random
from typing import Any

from bazaarbot.ai.levels import DEFAULT_LEVELS, Level
from bazaarbot.plugin import GamePlugin
from bazaarbot.registry import discover

GAMES = discover()

#: the levels with budgets small enough for tests (easy keeps its real settings)
SMALL_LEVELS: dict[str, Level] = {
    "easy": DEFAULT_LEVELS["easy"],
    "medium": Level("medium", iterations=24, time_cap=5.0, depth=8),
    "hard": Level("hard", iterations=48, time_cap=5.0, depth=12),
}
POLICIES = ("random", "greedy", *SMALL_LEVELS)


def sizes() -> list[tuple[str, int]]:
    return [(name, n) for name, g in sorted(GAMES.items()) for n in range(g.min_players, g.max_players + 1)]


def random_position(game: GamePlugin, players: int, seed: int) -> Any:
    """A position reached by random legal commands (through the typed path), still running."""
    rng = random.Random(seed)
    defaults = {o.name: o.default for o in game.options}
    state = game.setup([f"p{i + 1}" for i in range(players)], random.Random(seed), defaults)
    for _ in range(rng.randrange(1, 120)):
        seat = game.to_act(state)[0]
        commands = game.legal_commands(state, seat)
        after = game.clone(state)
        command = rng.choice(commands)
        game.apply(after, seat, game.parse(after, seat, command))
        if game.result(after) is not None:
            break
        state = after
    return state


def choice_position(game: GamePlugin, players: int, seed: int) -> Any:
    """A random position where the seat to act has at least two legal commands."""
    for attempt in range(50):
        state = random_position(game, players, seed * 100 + attempt)
        if len(game.legal_commands(state, game.to_act(state)[0])) > 1:
            return state
    raise AssertionError("no position with a choice found")
