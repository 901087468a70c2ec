"""``choose``: the one entry point that turns a position into the AI's command."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from bazaarbot.plugin import GamePlugin
from bazaarbot.registry import discover

from .greedy import beginner_action, random_action
from .ismcts import Search
from .levels import DEFAULT_LEVELS, Level


@cache
def game_named(name: str) -> GamePlugin:
    """The installed plugin called ``name`` (looked up once per process)."""
    games = discover()
    if name not in games:
        raise KeyError(f"no game {name!r}; installed: {', '.join(sorted(games))}")
    return games[name]


def resolve_level(level: str | Level, levels: dict[str, Level] | None = None) -> Level | str:
    """A Level by name from ``levels`` (default: the built-in ones); the baselines stay names."""
    if isinstance(level, Level):
        return level
    if level in ("random", "greedy"):
        return level
    table = levels if levels is not None else DEFAULT_LEVELS
    if level not in table:
        raise KeyError(f"no AI level {level!r}; known: {', '.join(table)}")
    return table[level]


def choose_action(
    game: GamePlugin,
    state: Any,
    seat: int,
    level: str | Level,
    rng: random.Random,
    levels: dict[str, Level] | None = None,
) -> Any:
    """The action (in the plugin's ``ai_actions`` form) the policy ``level`` plays for ``seat``."""
    policy = resolve_level(level, levels)
    actions = game.ai_actions(state, seat)
    if not actions:
        raise ValueError(f"seat {seat} has no decision to take now")
    if len(actions) == 1:
        return actions[0]
    if isinstance(policy, Level) and policy.iterations > 0:
        return Search(game, state, seat, policy.budget(), rng).best_action()
    # the one-ply policies judge one consistent guess at what the seat cannot see, never the truth
    view = game.determinize(state, seat, rng)
    if policy == "random":
        return random_action(game, view, seat, rng)
    if policy == "greedy":
        return game.greedy_action(view, seat, rng)
    assert isinstance(policy, Level)
    return beginner_action(game, view, seat, rng, policy.mistakes)


def choose(
    game_name: str | GamePlugin,
    state_json: dict[str, Any],
    seat: int,
    level: str,
    seed: int,
    levels: dict[str, Level] | None = None,
) -> str:
    """The command the AI of ``level`` types for ``seat`` in this position (one of ``legal_commands``).

    ``game_name`` names an installed game, or is the plugin itself (a game the caller holds).

    Deterministic for the same arguments (unless a level's time cap cuts a search short).
    """
    game = game_name if isinstance(game_name, GamePlugin) else game_named(game_name)
    state = game.from_json(state_json)
    action = choose_action(game, state, seat, level, random.Random(seed), levels)
    return game.ai_command(state, seat, action)
