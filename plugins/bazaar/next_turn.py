"""The search's rollout at big tables: on to the searching seat's next turn, and that turn planned.

At six seats a random rollout of the search's depth ends about where the
searching seat's next turn begins, so nothing in it judges what the seat's
move now sets up for that turn (a trade towards a purchase). This rollout plays
the other seats by the random policy up to the seat's next turn, then plays the
seat's turn as a one-ply planner would: the action whose hand the evaluation
values most (a draw valued over the die's faces, not one roll of it), then the
best purchase if it beats keeping the hand. The evaluation then judges the
position after it (docs/ai.md has what it won).
"""

from __future__ import annotations

import random

from . import rules
from .ai import seat_value
from .bench import play_policy_move
from .colours import NCOL
from .deck import VALUABLE
from .state import ACTION, BUY, DISCARD, JOKER, OVER, BazaarState

#: tables of at least this many seats roll out to the searching seat's next turn (fewer: the plies)
NEXT_TURN_SEATS = 5
#: the most random plies played while waiting for the seat's turn: three per seat covers a round
#: with a joker in every turn
PLIES_PER_SEAT = 3


def rollout(state: BazaarState, seat: int, rng: random.Random) -> None:
    """Random play up to ``seat``'s next turn, then that turn planned (``play_turn``), in place.

    A rollout that starts inside the seat's own turn plays the rest of it at random first: the
    tree above decides that turn.
    """
    cap = PLIES_PER_SEAT * state.n
    for _ply in range(cap + 1):
        if state.phase == OVER:
            return
        if state.turn == seat and state.phase == ACTION:
            break
        play_policy_move(state, rng)
    else:
        return
    play_turn(state, seat, rng)


def play_turn(state: BazaarState, seat: int, rng: random.Random) -> None:
    """``seat``'s whole turn as a one-ply planner plays it, in place (``seat`` is to act)."""
    hand = state.hands[seat]
    best: tuple | None = None
    best_value = -1.0
    if rules.can_draw(state):
        best, best_value = ("draw",), _draw_value(state, seat)
    for row, back in rules.possible_trades(state, seat):
        give, get = rules.trade_sides(state, row, back)
        for c in range(NCOL):
            hand[c] += get[c] - give[c]
        value = seat_value(state, seat)
        for c in range(NCOL):
            hand[c] -= get[c] - give[c]
        if value > best_value:
            best, best_value = ("trade", row, back), value
    if best is None:  # stuck with an empty bank
        rules.apply_move(state, ("pass",))
        return
    rules.apply_move(state, best)
    if state.phase == JOKER:
        rules.apply_move(state, ("joker", _best_colour(state, seat, rules.joker_colours(state))))
    if state.phase == BUY:
        rules.apply_move(state, _best_purchase(state, seat))
    while state.phase == DISCARD:  # the hand limit option: give back at random, as the policy does
        play_policy_move(state, rng)


def _values_with_one_more(state: BazaarState, seat: int, colours: list[int]) -> list[float]:
    """The seat's value with one more stone of each of ``colours``."""
    hand = state.hands[seat]
    values = []
    for c in colours:
        hand[c] += 1
        values.append(seat_value(state, seat))
        hand[c] -= 1
    return values


def _best_colour(state: BazaarState, seat: int, colours: list[int]) -> int:
    """The colour whose stone the hand gains most from (the first such colour on a tie)."""
    values = _values_with_one_more(state, seat, colours)
    return colours[values.index(max(values))]


def _draw_value(state: BazaarState, seat: int) -> float:
    """The hand's value after a draw, averaged over the die: each colour the bank has, and the
    joker as the best of them (an empty colour is rolled again)."""
    values = _values_with_one_more(state, seat, rules.joker_colours(state))
    return (sum(values) + max(values)) / (len(values) + 1)


def _best_purchase(state: BazaarState, seat: int) -> tuple:
    """The purchase that leaves the seat worth most, or a pass when none beats keeping the hand."""
    hand = state.hands[seat]
    high = state.high_rates()
    best: tuple = ("pass",)
    best_value = seat_value(state, seat)
    for field in rules.buyable_fields(state, seat):
        stack = state.fields[field]
        combo = stack.pop()
        for c in range(NCOL):
            hand[c] -= combo[c]
        _level, points = rules.points_for(VALUABLE[combo], high, sum(hand))
        value = points + seat_value(state, seat)
        for c in range(NCOL):
            hand[c] += combo[c]
        stack.append(combo)
        if value > best_value:
            best, best_value = ("buy", field), value
    return best
