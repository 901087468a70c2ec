"""The search counts each iteration once per edge: means are chances, visits add up."""

from __future__ import annotations

import random

from support.ai_helpers import GAMES, choice_position
from support.countgame import GAME as COUNT

from bazaarbot.ai.ismcts import Search, SearchBudget
from bazaarbot.ai.node import Node


def _edges(node: Node):
    for child in node.children.values():
        yield child
        yield from _edges(child)


def test_a_game_ending_edge_has_its_reward_as_its_mean():
    state = COUNT.setup(["a", "b"], random.Random(1), {"target": 10})
    state.total = 7
    search = Search(COUNT, state, 0, SearchBudget(iterations=300), random.Random(3))
    children = search.run()
    winning = children["add 3"]
    assert winning.visits > 1 and not winning.children
    assert winning.mean() == 1.0
    # the siblings are inner edges: the opponent can answer them, so they are not worth a certain win
    assert all(children[a].mean() < 1.0 for a in ("add 1", "add 2"))
    assert search.best_action() == "add 3"


def test_an_inner_edge_counts_its_first_playout_and_its_childrens_visits():
    state = COUNT.setup(["a", "b"], random.Random(1), {"target": 15})
    search = Search(COUNT, state, 0, SearchBudget(iterations=500), random.Random(5))
    search.run()
    assert sum(c.visits for c in search.root.children.values()) == 500
    inner = [edge for edge in _edges(search.root) if edge.children]
    assert inner
    for edge in inner:
        assert edge.visits == 1 + sum(c.visits for c in edge.children.values())
        assert 0.0 <= edge.mean() <= 1.0


def test_every_games_root_edges_count_each_iteration_once():
    """With re-dealt hidden cards, with priors (Jaipur) or without, the root's visits are the iterations."""
    for name, game in sorted(GAMES.items()):
        state = choice_position(game, max(2, game.min_players), 3)
        seat = game.to_act(state)[0]
        budget = SearchBudget(iterations=60, time_cap=30.0, depth=6)
        search = Search(game, state, seat, budget, random.Random(2))
        search.run()
        visits = sum(c.visits for c in search.root.children.values())
        assert visits == search.iterations == 60, name
        for edge in _edges(search.root):
            assert 0.0 <= edge.mean() <= 1.0, name


def test_the_descent_counts_the_edges_it_goes_on_through():
    """``passes``: every visit of an inner edge but the one that expanded it; none of a game-ending one."""
    game = GAMES["jaipur"]
    state = choice_position(game, 2, 4)
    search = Search(game, state, game.to_act(state)[0], SearchBudget(iterations=200), random.Random(3))
    search.run()
    inner = [edge for edge in _edges(search.root) if edge.children and edge.visits]
    assert inner
    for edge in inner:
        assert edge.passes == edge.visits - 1
    state = COUNT.setup(["a", "b"], random.Random(1), {"target": 10})
    state.total = 7
    search = Search(COUNT, state, 0, SearchBudget(iterations=300), random.Random(3))
    winning = search.run()["add 3"]
    assert winning.visits > 1 and winning.passes == 0
