"""``rollout_plies``: a plugin's own loop plays and draws exactly as the contract's default, so the
same seed still gives the AI the same moves; and how deep the search's rollouts go at each table."""

from __future__ import annotations

import random
from typing import Any

import pytest
from support.ai_helpers import GAMES, random_position, sizes

from bazaarbot.ai.ismcts import Search, SearchBudget, rollout_depth
from bazaarbot.plugin import GamePlugin


@pytest.mark.parametrize(("name", "players"), sizes())
def test_a_plugins_rollout_plies_play_and_draw_as_the_default_does(name, players):
    game = GAMES[name]
    for seed in range(4):
        state = random_position(game, players, seed)
        own, default = game.clone(state), game.clone(state)
        own_rng, default_rng = random.Random(seed), random.Random(seed)
        game.rollout_plies(own, own_rng, 5 + 5 * seed)
        GamePlugin.rollout_plies(game, default, default_rng, 5 + 5 * seed)
        assert game.to_json(own) == game.to_json(default)
        assert own_rng.getstate() == default_rng.getstate()


@pytest.mark.parametrize(("name", "players"), sizes())
def test_the_rollout_is_shorter_at_bigger_tables(name, players):
    game = GAMES[name]
    state = random_position(game, players, 1)
    seat = game.to_act(state)[0]
    search = Search(game, state, seat, SearchBudget(iterations=1, depth=20), random.Random(1))
    assert search.depth == rollout_depth(20, players) == max(10, min(20, 40 // players))


@pytest.mark.parametrize(("name", "players"), [(name, GAMES[name].max_players) for name in sorted(GAMES)])
def test_the_search_rolls_out_through_the_games_rollout_for_the_seat_that_searches(name, players):
    game = GAMES[name]
    asked: list[tuple[int, int]] = []

    class Recording(type(game)):  # type: ignore[misc]
        def rollout_for(self, state: Any, seat: int, rng: random.Random, plies: int) -> None:
            asked.append((seat, plies))
            super().rollout_for(state, seat, rng, plies)

    recording = Recording()
    state = random_position(recording, players, 2)
    seat = recording.to_act(state)[0]
    search = Search(recording, state, seat, SearchBudget(iterations=60, depth=20), random.Random(1))
    search.run()
    assert asked and set(asked) == {(seat, search.depth)}
