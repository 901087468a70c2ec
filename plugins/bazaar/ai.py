"""Game knowledge for the AI: an evaluation and the rollout policy.

A seat's value is its points plus part of what the nearest purchases would
score: each field's top combination is discounted by the stones still
missing from the hand and priced with the stones that would be left over.
Values become chances to win with a softmax over the seats.
"""

from __future__ import annotations

import math

from . import rules
from .colours import NCOL
from .deck import is_valuable
from .state import OVER, BazaarState

#: how much of a reachable purchase's points a seat's value counts
POTENTIAL_WEIGHT = 0.6
#: the discount per stone still missing from the hand
MISSING_DISCOUNT = 0.55
#: share of the second best purchase counted beside the best
SECOND_WEIGHT = 0.3
#: points of value difference that make a two-seat game about 73% / 27% (softmax temperature)
TEMPERATURE = 5.0


def potential(state: BazaarState, seat: int) -> float:
    """What the hand is worth towards the purchases on offer (the best, and some of the second)."""
    hand = state.hands[seat]
    held = sum(hand)
    high = state.high_rates()
    values = []
    for stack in state.fields:
        if not stack:
            continue
        combo = stack[-1]
        missing = 0
        for c in range(NCOL):
            if combo[c] > hand[c]:
                missing += combo[c] - hand[c]
        leftover = held + missing - 5
        _level, points = rules.points_for(is_valuable(combo), high, leftover if leftover > 0 else 0)
        values.append(points * MISSING_DISCOUNT**missing)
    if not values:
        return 0.0
    values.sort(reverse=True)
    return values[0] + (SECOND_WEIGHT * values[1] if len(values) > 1 else 0.0)


def seat_value(state: BazaarState, seat: int) -> float:
    return state.scores[seat] + POTENTIAL_WEIGHT * potential(state, seat)


def evaluate(state: BazaarState, seat: int) -> float:
    """A softmax share of the seats' values: ``seat``'s chance to win, in [0, 1]."""
    if state.phase == OVER:
        top = max(state.scores)
        winners = [s for s in range(state.n) if state.scores[s] == top]
        return 1.0 / len(winners) if seat in winners else 0.0
    values = [seat_value(state, s) for s in range(state.n)]
    top = max(values)
    weights = [math.exp((v - top) / TEMPERATURE) for v in values]
    return weights[seat] / sum(weights)
