"""Game knowledge for the AI: the action-tuple fast path and an evaluation.

A seat's value is its score plus what it holds towards future points:
cubes in souks it leads (completed souks score in full at the week's end),
its caravan cubes, and gold, camels and cards, which are worth less as the
game runs out. Values become chances to win with a softmax over the seats.
"""

from __future__ import annotations

import random
from typing import Any

from bazaarbot.plugin import shared_among_the_best, win_chances

from .board import SOUK_POINTS, SOUK_SIZE
from .parse import format_action
from .rules import DAYS, WEEKS, actor, caravan_scores, legal, step
from .state import P_END, State

#: share of a partly filled souk's points counted (a full one counts whole)
PARTIAL_SOUK = 0.45
#: share of the caravan's current scoring counted
CARAVAN_SHARE = 0.6
#: value of one gold, camel or card at the start of the game (falls to a tenth by the end)
GOLD_VALUE = 0.45
CAMEL_VALUE = 0.45
CARD_VALUE = 1.2
#: softmax temperature in points
TEMPERATURE = 6.0


def actions(state: State, seat: int) -> list[tuple[int, ...]]:
    return legal(state) if actor(state) == seat else []


def play(state: State, action: Any) -> None:
    """One step, without ``advance``: a forced step is just a one-action decision to the search."""
    step(state, action if type(action) is tuple else tuple(action), None)


def rollout_plies(state: State, rng: random.Random, plies: int) -> None:
    """Up to ``plies`` uniformly random steps, fewer when the game ends (the search's cut-off rollout)."""
    rnd = rng.random
    for _ply in range(plies):
        if state.phase == P_END:
            return
        acts = legal(state)
        step(state, acts[int(rnd() * len(acts))], None)


def command(state: State, action: Any) -> str:
    return format_action(state, tuple(action))


def seat_values(state: State, caravan: list[int]) -> list[float]:
    """Every seat's value, the souks read once for all seats (each seat's sum in the same order:
    score, its souks in order, caravan, resources)."""
    n = state.n
    values = [float(points) for points in state.score[:n]]
    souk_n = state.souk_n
    for s, owner in enumerate(state.souk_own):
        count = souk_n[s]
        if owner >= 0 and count:
            size = SOUK_SIZE[s]
            share = 1.0 if count >= size else PARTIAL_SOUK * count / size
            values[owner] += SOUK_POINTS[s] * share
    days_left = (WEEKS - state.week) * DAYS + (DAYS - state.day) + 1
    time_left = 0.1 + 0.9 * days_left / (WEEKS * DAYS)
    gold, camels, hands = state.gold, state.camels, state.hands
    for p in range(n):
        resources = GOLD_VALUE * gold[p] + CAMEL_VALUE * camels[p]
        resources += CARD_VALUE * len(hands[p])
        values[p] = values[p] + CARAVAN_SHARE * caravan[p] + time_left * resources
    return values


def chances(state: State) -> list[float]:
    """Every seat's chance to win, in [0, 1]: a softmax share of the seats' values (exact at the end)."""
    if state.phase == P_END:
        return shared_among_the_best(state.score[: state.n])
    caravan = caravan_scores(state)
    return win_chances(seat_values(state, caravan), TEMPERATURE)


def evaluate(state: State, seat: int) -> float:
    """``seat``'s chance to win, in [0, 1] (see ``chances``)."""
    return chances(state)[seat]
