"""PUCT's selection: an iteration that stopped at an edge weighs half, as when inner edges counted twice."""

from __future__ import annotations

import math
import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from support.ai_helpers import GAMES, choice_position

from bazaarbot.ai.ismcts import STOP_WEIGHT, Search, SearchBudget
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


def test_an_iteration_that_stopped_at_an_edge_weighs_half():
    assert STOP_WEIGHT == 0.5
    # inner edges, tried once and three times, read as 0.5 and 2.5 visits, the bonus over 1 and 3: the
    # once-tried edge's 0.6 is a mean of 1.2, and 1.2 + c·0.5·√3.5/1 beats 2.7/2.5 + c·0.5·√3.5/3
    search = _search_with_edges([(0.5, 1, 0.6, 0), (0.5, 3, 2.7, 2)])
    assert _pick(search, 2) == "edge 0"


def test_a_game_ending_edge_reads_each_of_its_visits_at_half():
    # the game ended at edge 0 in each of its 4 visits (won 3): 2 visits read, Q 1.5, against an inner
    # edge's 3.2 over 3.5 visits; N 5.5, c·√6 = 2.45: 1.5 + 2.45·0.1/2.5 beats 0.91 + 2.45·0.4/4
    search = _search_with_edges([(0.1, 4, 3.0, 0), (0.4, 4, 3.2, 3)])
    assert _pick(search, 2) == "edge 0"


def test_the_previous_search_keeps_plain_puct():
    """The benchmark's earlier search chooses as it did, so new-against-old still means that."""
    # plain PUCT: 0.6 + c·0.5·√5/2 = 1.16 against 0.9 + c·0.5·√5/4 = 1.18
    search = _search_with_edges([(0.5, 1, 0.6, 0), (0.5, 3, 2.7, 2)], PreviousSearch)
    assert _pick(search, 2) == "edge 1"


def test_an_untried_edge_is_valued_at_the_tried_ones_mean():
    # tried: 0.9 over 1.5 visits = 0.6 + c·0.1·√2/2 = 0.67; untried: 0.6 + c·0.1·√2/0.5 = 0.88
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
    """With the stopped iterations at one half, single counts pick the edge the doubled counts picked.

    The old search added a visit to an edge each time the descent went on through it: an inner edge
    tried k times held 2k - 1 visits, a game-ending one k, with the same reward; at the old constant
    times √2 the scores are the old ones doubled.
    """
    singly = [(prior, n, share * n, 0 if ends or not n else n - 1) for prior, n, share, ends in edges]
    doubly = [(prior, n + passes, value, 0) for prior, n, value, passes in singly]
    scores = sorted(_plain_puct_scores(doubly), reverse=True)
    assume(scores[0] - scores[1] > 1e-9)  # a tie is broken by the order, whatever the rounding
    new = _search_with_edges(singly, exploration=PREVIOUS_EXPLORATION * math.sqrt(2))
    old = _search_with_edges(doubly, PreviousSearch, exploration=PREVIOUS_EXPLORATION)
    assert _pick(new, len(edges)) == _pick(old, len(edges))


def _plain_puct_scores(edges: list[Edge]) -> list[float]:
    """Plain PUCT at the previous constant, as the old search scored its (doubled) counts."""
    counted = sum(n for _, n, _, _ in edges)
    won = sum(value for _, n, value, _ in edges if n)
    fpu = won / counted if counted else 0.5
    c = PREVIOUS_EXPLORATION * math.sqrt(counted + 1)
    return [(value / n if n else fpu) + c * prior / (1 + n) for prior, n, value, _ in edges]
