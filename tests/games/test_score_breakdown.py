"""A finished game's score by source (``GamePlugin.breakdown``) adds up to its result, in every game."""

from __future__ import annotations

import random

import pytest

from bazaarbot.registry import discover

GAMES = discover()


def _finished(name: str, players: int, seed: int):
    game = GAMES[name]
    rng = random.Random(seed)
    state = game.setup([f"p{i}" for i in range(players)], rng, {})
    assert game.breakdown(state) is None  # nothing to break down while the game runs
    while game.result(state) is None:
        seat = game.to_act(state)[0]
        game.apply(state, seat, game.parse(state, seat, rng.choice(game.legal_commands(state, seat))))
    return game, state


@pytest.mark.parametrize("seed", [1, 2])
def test_jaipur_breakdown_rounds_add_up_to_their_rupees_and_ends_with_the_seals(seed: int) -> None:
    game, state = _finished("jaipur", 2, seed)
    rows = game.breakdown(state)
    assert rows[-1]["values"] == list(state.seals)
    for start in range(0, len(rows) - 1, 4):
        goods, bonus, camel, rupees = rows[start : start + 4]
        for seat in (0, 1):
            parts = goods["values"][seat] + bonus["values"][seat] + camel["values"][seat]
            assert parts == rupees["values"][seat]


@pytest.mark.parametrize("players", [2, 4])
def test_yspahan_breakdown_sources_add_up_to_each_score(players: int) -> None:
    game, state = _finished("yspahan", players, players)
    rows = game.breakdown(state)
    total = rows[-1]
    assert total["total"] and total["values"] == list(state.score)
    for seat in range(players):
        assert sum(row["values"][seat] for row in rows[:-1]) == state.score[seat]
    assert all(row["label"] and "_" not in row["label"] for row in rows)


def test_bazaar_breakdown_lists_each_purchase_and_they_add_up() -> None:
    game, state = _finished("bazaar", 3, 7)
    bought, each, total = game.breakdown(state)
    result = game.result(state)
    for seat in range(3):
        points = [int(x) for x in each["values"][seat].split(" + ")] if bought["values"][seat] else []
        assert len(points) == bought["values"][seat]
        assert sum(points) == total["values"][seat] == result.scores[seat]
