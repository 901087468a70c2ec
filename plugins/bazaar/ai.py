"""Game knowledge for the AI: an evaluation and the rollout policy.

A seat's value is its points plus part of what the nearest purchases would
score: each field's top combination is discounted by the stones still
missing from the hand and priced with the stones that would be left over.
Values become chances to win with a softmax over the seats.
"""

from __future__ import annotations

from bazaarbot.plugin import shared_among_the_best, win_chances

from . import rules
from .deck import COMBO_SIZE, VALUABLE
from .state import OVER, BazaarState

#: how much of a reachable purchase's points a seat's value counts
POTENTIAL_WEIGHT = 0.6
#: the discount per stone still missing from the hand
MISSING_DISCOUNT = 0.55
#: share of the second best purchase counted beside the best
SECOND_WEIGHT = 0.3
#: points of value difference that make a two-seat game about 73% / 27% (softmax temperature)
TEMPERATURE = 5.0


#: ``MISSING_DISCOUNT`` to the power of the stones missing (at most the five of a combination)
_DISCOUNTS = tuple(MISSING_DISCOUNT**missing for missing in range(COMBO_SIZE + 1))


def potential(state: BazaarState, seat: int) -> float:
    """What the hand is worth towards the purchases on offer (the best, and some of the second).

    Spelled out for the five colours: the evaluation asks it for every seat at every cut-off.
    """
    h0, h1, h2, h3, h4 = state.hands[seat]
    held = h0 + h1 + h2 + h3 + h4
    high = 0
    tops = []
    for stack in state.fields:
        if stack:
            tops.append(stack[-1])
        else:
            high = 1  # a sold-out field: every later purchase scores at the higher rates
    best = second = -1.0
    for combo in tops:
        c0, c1, c2, c3, c4 = combo
        missing = (
            (c0 - h0 if c0 > h0 else 0)
            + (c1 - h1 if c1 > h1 else 0)
            + (c2 - h2 if c2 > h2 else 0)
            + (c3 - h3 if c3 > h3 else 0)
            + (c4 - h4 if c4 > h4 else 0)
        )
        leftover = held + missing - COMBO_SIZE
        row = rules.POINTS[VALUABLE[combo] + high]
        value = row[(leftover if leftover < 3 else 3) if leftover > 0 else 0] * _DISCOUNTS[missing]
        if value > best:
            best, second = value, best
        elif value > second:
            second = value
    if best < 0:
        return 0.0
    return best + (SECOND_WEIGHT * second if second >= 0 else 0.0)


def seat_value(state: BazaarState, seat: int) -> float:
    return state.scores[seat] + POTENTIAL_WEIGHT * potential(state, seat)


def chances(state: BazaarState) -> list[float]:
    """Every seat's chance to win, in [0, 1]: a softmax share of the seats' values (exact when over)."""
    if state.phase == OVER:
        return shared_among_the_best(state.scores[: state.n])
    return win_chances([seat_value(state, s) for s in range(state.n)], TEMPERATURE)


def evaluate(state: BazaarState, seat: int) -> float:
    """``seat``'s chance to win, in [0, 1] (see ``chances``)."""
    return chances(state)[seat]
