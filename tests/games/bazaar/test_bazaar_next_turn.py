"""The search's rollout at five and six seats: on to the searching seat's next turn, planned."""

from __future__ import annotations

import random

import pytest
from support.ai_helpers import random_position

from plugins.bazaar import GAME
from plugins.bazaar import next_turn as NT
from plugins.bazaar.ai import seat_value
from plugins.bazaar.scenario import build_state, stones_of
from plugins.bazaar.state import ACTION, BUY, OVER


def _acted(state, seat: int) -> int:
    """How many stones the seat drew and gave in trades so far: any action raises it."""
    return state.drawn[seat] + state.given[seat]


@pytest.mark.parametrize("players", [NT.NEXT_TURN_SEATS, 6])
def test_at_five_and_six_seats_a_rollout_plays_on_through_the_searching_seats_next_turn(players):
    reached = 0
    for seed in range(12):
        state = random_position(GAME, players, seed)
        seat = (state.turn - 1) % players  # the seat that acts last from here
        before = _acted(state, seat)
        GAME.rollout_for(state, seat, random.Random(seed), plies=1)  # the plies do not cut it short
        if state.phase == OVER:
            continue
        reached += 1
        assert _acted(state, seat) > before
        assert (state.turn, state.phase) == ((seat + 1) % players, ACTION)
    assert reached >= 8


@pytest.mark.parametrize("players", range(2, NT.NEXT_TURN_SEATS))
def test_below_five_seats_a_rollout_is_the_searchs_random_plies(players):
    for seed in range(4):
        state = random_position(GAME, players, seed)
        seat = state.turn
        own, plain = GAME.clone(state), GAME.clone(state)
        own_rng, plain_rng = random.Random(seed), random.Random(seed)
        GAME.rollout_for(own, seat, own_rng, 6)
        GAME.rollout_plies(plain, plain_rng, 6)
        assert GAME.to_json(own) == GAME.to_json(plain)
        assert own_rng.getstate() == plain_rng.getstate()


def test_the_planned_turn_trades_into_a_purchase_and_buys_it():
    # one red for two green (row 1 of the fixed table) makes five green: valuable, nothing left over
    state = build_state(hands=("3 green red", "", "", "", ""), tops=("5 green",))
    NT.play_turn(state, 0, random.Random(1))
    assert state.purchases[0] == [(0, stones_of("5 green"), 0, 1, 8)]
    assert state.turn == 1 and state.phase == ACTION


def test_the_planned_turn_buys_the_purchase_worth_most():
    state = build_state(hands=("4 red 2 blue", "", "", "", ""), tops=("3 red 2 blue", "4 red blue"))
    state.phase = BUY
    assert NT._best_purchase(state, 0) == ("buy", 1)  # valuable, 5 points with one stone left


def test_a_planned_draw_is_worth_the_die_on_average_and_the_joker_as_the_best_colour():
    state = build_state(hands=("2 red blue", "", "", "", ""), tops=("3 red 2 blue", "4 red blue"))
    hand = state.hands[0]
    after = []
    for colour in range(5):
        hand[colour] += 1
        after.append(seat_value(state, 0))
        hand[colour] -= 1
    assert NT._draw_value(state, 0) == pytest.approx((sum(after) + max(after)) / 6)
    assert min(after) < NT._draw_value(state, 0) < max(after)
