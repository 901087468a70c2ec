"""PUCT's selection: an iteration that went on through an edge counts twice one that stopped there, as
when the descent counted inner edges twice: the search chooses as it did then."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.ai_helpers import GAMES, choice_position

from bazaarbot.ai.ismcts import PUCT_SCALE, STOP_WEIGHT, Search, SearchBudget
from bazaarbot.ai.node import Node
from bazaarbot.bench.previous import PREVIOUS_EXPLORATION, PreviousSearch

#: an edge: (prior, visits, summed reward, visits that went on through it)
Edge = tuple[float, int, float, int]


def _search_with_edges(edges: list[Edge], kind: type[Search] = Search, exploration: float = 1.0) -> Search:
    """A Jaipur search whose root holds one edge per (prior, visits, summed reward, passes)."""
    game = GAMES["jaipur"]
    state = choice_position(game, 2, 4)
    seat = game.to_act(state)[0]
    search = kind(game, state, seat, SearchBudget(iterations=1, exploration=exploration), random.Random(1))
    for i, (prior, visits, value, passes) in enumerate(edges):
        node = Node(prior)
        node.visits = visits
        node.value = value
        node.passes = passes
        search.root.children[f"edge {i}"] = node
    return search


def _pick(search: Search, count: int) -> str:
    actions = [f"edge {i}" for i in range(count)]
    return search._select_puct(search.root, search.state, search.seat, actions)[0]


def test_an_iteration_that_went_on_through_an_edge_counts_twice_one_that_stopped_there():
    assert STOP_WEIGHT == 0.5 and PUCT_SCALE == PREVIOUS_EXPLORATION
    # inner edges, tried once and three times, count 1 and 5; N 6, c = 0.7·√7 = 1.85: the once-tried
    # edge's 0.6 + 1.85·0.5/2 = 1.06 beats 2.7/5 + 1.85·0.5/6 = 0.69
    search = _search_with_edges([(0.5, 1, 0.6, 0), (0.5, 3, 2.7, 2)])
    assert _pick(search, 2) == "edge 0"


def test_a_game_ending_edge_counts_each_of_its_visits_once():
    # the game ended at edge 0 in each of its 4 visits (won 3): a count of 4, Q 0.75, against an inner
    # edge's 3.2 over a count of 7; N 11, c = 0.7·√12 = 2.42: 0.75 + 2.42·0.1/5 beats 0.46 + 2.42·0.4/8
    search = _search_with_edges([(0.1, 4, 3.0, 0), (0.4, 4, 3.2, 3)])
    assert _pick(search, 2) == "edge 0"


def test_the_previous_search_keeps_plain_puct():
    """The benchmark's earlier search chooses as it did, so new-against-old still means that."""
    # plain PUCT at the budget's constant: 0.6 + c·0.5·√5/2 = 1.16 against 0.9 + c·0.5·√5/4 = 1.18
    search = _search_with_edges([(0.5, 1, 0.6, 0), (0.5, 3, 2.7, 2)], PreviousSearch)
    assert _pick(search, 2) == "edge 1"


def test_an_untried_edge_is_valued_at_the_tried_ones_mean():
    # tried: 0.9 over a count of 3 = 0.3 + c·0.1/4 = 0.335 (c = 0.7·√4); untried: 0.3 + c·0.1 = 0.44
    search = _search_with_edges([(0.1, 2, 0.9, 1), (0.1, 0, 0.0, 0)])
    assert _pick(search, 2) == "edge 1"


edge = st.tuples(
    st.floats(min_value=0.01, max_value=1.0),
    st.integers(min_value=0, max_value=40),
    st.floats(min_value=0.0, max_value=1.0),
    st.booleans(),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(edge, min_size=2, max_size=6))
def test_single_counts_choose_as_the_double_count_did(edges: list[tuple[float, int, float, bool]]):
    """Single counts pick the edge the doubled counts picked, ties and rounding included.

    The old search added a visit to an edge each time the descent went on through it: an inner edge
    tried k times held 2k - 1 visits, a game-ending one k, with the same reward. Today's counts in
    units of a stopped iteration are those numbers, and its constant at the default level is the old
    one, so every score is the old one to the last digit.
    """
    singly = [(prior, n, share * n, 0 if ends or not n else n - 1) for prior, n, share, ends in edges]
    doubly = [(prior, n + passes, value, 0) for prior, n, value, passes in singly]
    new = _search_with_edges(singly)
    old = _search_with_edges(doubly, PreviousSearch, exploration=PREVIOUS_EXPLORATION)
    assert _pick(new, len(edges)) == _pick(old, len(edges))


@pytest.mark.parametrize("seed", range(4))
def test_with_the_same_random_numbers_the_search_grows_the_old_searchs_tree(seed: int):
    """From a Jaipur position, today's search and the previous one make the same selections all the
    way: every root edge's old count is today's visits plus the visits that went on through it."""
    game = GAMES["jaipur"]
    state = choice_position(game, 2, 10 + seed)
    seat = game.to_act(state)[0]
    budget = SearchBudget(iterations=300)
    new = Search(game, state, seat, budget, random.Random(seed))
    before_budget = replace(budget, exploration=PREVIOUS_EXPLORATION)
    old = PreviousSearch(game, state, seat, before_budget, random.Random(seed))
    new.run()
    old.run()
    assert set(new.root.children) == set(old.root.children)
    for action, edge in new.root.children.items():
        before = old.root.children[action]
        assert (before.visits, before.value) == (edge.visits + edge.passes, edge.value), action
    assert sum(edge.visits for edge in new.root.children.values()) == 300
