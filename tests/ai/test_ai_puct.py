"""PUCT's first-play urgency: an untried edge starts below the mean of the tried ones."""

from __future__ import annotations

import random

from support.ai_helpers import GAMES, choice_position

from bazaarbot.ai.ismcts import FPU_REDUCTION, Search, SearchBudget
from bazaarbot.ai.node import Node
from bazaarbot.bench.previous import PreviousSearch

#: a once-tried move (prior 0.6, reward 0.6) and an untried one (prior 0.4)
TRIED_AND_UNTRIED = [(0.6, 1, 0.6), (0.4, 0, 0.0)]


def _search_with_edges(
    edges: list[tuple[float, int, float]], kind: type[Search] = Search
) -> tuple[Search, list[str]]:
    """A Jaipur search whose root holds one edge per (prior, visits, summed reward)."""
    game = GAMES["jaipur"]
    state = choice_position(game, 2, 4)
    seat = game.to_act(state)[0]
    search = kind(game, state, seat, SearchBudget(iterations=1, exploration=1.0), random.Random(1))
    actions = [f"edge {i}" for i in range(len(edges))]
    for action, (prior, visits, value) in zip(actions, edges, strict=True):
        node = Node(prior)
        node.visits, node.value = visits, value
        search.root.children[action] = node
    return search, actions


def _pick(search: Search, actions: list[str]) -> str:
    action, _child, _expanded = search._select_puct(search.root, search.state, search.seat, actions)
    return action


def test_a_move_that_did_well_once_is_looked_at_again_before_a_long_shot_is_opened():
    assert FPU_REDUCTION == 0.25
    # N = 1, c·√2 = 1.41: the tried move scores 0.6 + 1.41·0.6/2 = 1.02; the untried one is worth
    # 0.6 - 0.25·√0.6 = 0.41 and scores 0.41 + 1.41·0.4 = 0.97
    search, actions = _search_with_edges(TRIED_AND_UNTRIED)
    assert _pick(search, actions) == actions[0]


def test_the_previous_search_valued_an_untried_move_at_the_tried_ones_mean():
    """The benchmark's earlier search explores as it did, so new-against-old still means that."""
    # the untried move at 0.6 scores 0.6 + 1.41·0.4 = 1.17, above the tried one's 1.02
    search, actions = _search_with_edges(TRIED_AND_UNTRIED, PreviousSearch)
    assert _pick(search, actions) == actions[1]


def test_the_first_move_of_a_node_follows_the_priors():
    """With nothing tried, every edge is worth one half and the prior alone decides."""
    search, actions = _search_with_edges([(0.3, 0, 0.0), (0.7, 0, 0.0)])
    assert _pick(search, actions) == actions[1]
