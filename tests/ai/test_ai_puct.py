"""PUCT's exploration bonus: c·P·√N/n, an untried edge counted as half a visit."""

from __future__ import annotations

import random

from support.ai_helpers import GAMES, choice_position

from bazaarbot.ai.ismcts import UNTRIED_VISITS, Search, SearchBudget
from bazaarbot.ai.node import Node
from bazaarbot.bench.previous import PreviousSearch


def _search_with_edges(
    edges: list[tuple[float, int, float]], kind: type[Search] = Search
) -> tuple[Search, list[object]]:
    """A Jaipur search whose root holds one edge per (prior, visits, summed reward)."""
    game = GAMES["jaipur"]
    state = choice_position(game, 2, 4)
    seat = game.to_act(state)[0]
    search = kind(game, state, seat, SearchBudget(iterations=1, exploration=1.0), random.Random(1))
    actions: list[object] = [f"edge {i}" for i in range(len(edges))]
    for action, (prior, visits, value) in zip(actions, edges, strict=True):
        node = Node(prior)
        node.visits, node.value = visits, value
        search.root.children[action] = node
    return search, actions


def _pick(search: Search, actions: list[object]) -> object:
    action, _child, _expanded = search._select_puct(search.root, search.state, search.seat, actions)
    return action


def test_the_bonus_falls_as_one_over_the_visits():
    # N = 4, c·√(N+1) = √5: a once-tried edge at 0.6 scores 0.6 + √5·0.5/1 = 1.72, one tried three
    # times at 0.9 scores 0.9 + √5·0.5/3 = 1.27 (with 1/(1+n) it would be 1.16 against 1.18)
    search, actions = _search_with_edges([(0.5, 1, 0.6), (0.5, 3, 2.7)])
    assert _pick(search, actions) == actions[0]


def test_the_previous_search_keeps_its_one_over_one_plus_the_visits():
    """The benchmark's earlier search explores as it did, so new-against-old still means that."""
    search, actions = _search_with_edges([(0.5, 1, 0.6), (0.5, 3, 2.7)], PreviousSearch)
    assert _pick(search, actions) == actions[1]


def test_an_untried_edge_explores_twice_as_hard_as_a_once_tried_one():
    assert UNTRIED_VISITS == 0.5
    # N = 4, c·√5 = 2.24; the untried edge's Q is the mean of the tried ones, 3.0/4 = 0.75:
    # untried, prior 0.2: 0.75 + 2.24·0.2/0.5 = 1.64; once tried, prior 0.4, won: 1.0 + 2.24·0.4/1 = 1.89;
    # tried three times, prior 0.4, 2 of 3: 0.67 + 2.24·0.4/3 = 0.96
    search, actions = _search_with_edges([(0.2, 0, 0.0), (0.4, 1, 1.0), (0.4, 3, 2.0)])
    assert _pick(search, actions) == actions[1]
    # with a prior as large as the once-tried edge's, the untried one goes first: 0.75 + 2.24·0.4/0.5 = 2.54
    search, actions = _search_with_edges([(0.4, 0, 0.0), (0.4, 1, 1.0), (0.2, 3, 2.0)])
    assert _pick(search, actions) == actions[0]
