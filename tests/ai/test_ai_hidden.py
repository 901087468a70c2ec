"""The AI never reads what its seat cannot see: change only hidden things, and its choice stays the same.

The other world is the plugin's own ``determinize`` for the AI's seat: it
re-deals exactly what that seat cannot see (the opponent's hand, the deck
order, face-down tokens and combinations, future dice) and nothing else.
"""

from __future__ import annotations

import random

import pytest
from support.ai_helpers import GAMES, POLICIES, SMALL_LEVELS, choice_position, sizes

from bazaarbot.ai import choose


def _hidden_changed(game, state, seat, seed):
    """A copy that differs from ``state`` only in what ``seat`` cannot see (and truly differs)."""
    for attempt in range(20):
        other = game.determinize(state, seat, random.Random(seed * 31 + attempt))
        if game.to_json(other) != game.to_json(state):
            assert game.private_view(other, seat) == game.private_view(state, seat)
            assert game.board(other) == game.board(state)
            return other
    raise AssertionError("determinize changed nothing")


@pytest.mark.parametrize(("name", "players"), [s for s in sizes() if s[1] >= 2])
def test_the_ai_never_reads_hidden_information(name, players):
    game = GAMES[name]
    for seed in range(3):
        state = choice_position(game, players, seed)
        seat = game.to_act(state)[0]
        other = _hidden_changed(game, state, seat, seed)
        for level in POLICIES:
            mine = choose(name, game.to_json(state), seat, level, 1234 + seed, SMALL_LEVELS)
            theirs = choose(name, game.to_json(other), seat, level, 1234 + seed, SMALL_LEVELS)
            assert mine == theirs, f"{level} changed its move when only hidden information changed"


def test_jaipur_opponent_hand_and_deck_edited_by_hand_change_nothing():
    """The same check without determinize: swap a card of the opponent's unseen hand with one in the deck."""
    game = GAMES["jaipur"]
    for seed in range(6):
        state = choice_position(game, 2, seed)
        seat = state.turn
        other = game.clone(state)
        opponent = 1 - seat
        hand, known = other.hands[opponent], other.known[opponent]
        unseen = [g for g in range(6) if hand[g] > known[g]]
        swap = next((i for i, card in enumerate(other.deck) if card < 6 and card not in unseen), None)
        if not unseen or swap is None:
            continue
        out, into = unseen[0], other.deck[swap]
        hand[out] -= 1
        hand[into] += 1
        other.deck[swap] = out
        other.deck.reverse()
        for level in POLICIES:
            mine = choose("jaipur", game.to_json(state), seat, level, 99, SMALL_LEVELS)
            theirs = choose("jaipur", game.to_json(other), seat, level, 99, SMALL_LEVELS)
            assert mine == theirs
