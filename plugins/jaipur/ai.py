"""Game knowledge for the AI: the fast action path, an evaluation, rollout and move priors.

The evaluation turns the round's expected rupee margin into a chance to win
the round (a logistic curve), then into a chance to win the match from the
seals (later rounds taken as coin flips). Cards in hand count for part of
what the next tokens of their pile are worth, and the camel token goes to
the bigger herd. Rollouts stop at the end of the round (``horizon``), where
the evaluation is exact up to those coin flips.
"""

from __future__ import annotations

import math
import random
from functools import cache

from . import random_play, render, rules
from .cards import (
    BONUS_TOKENS,
    CAMEL,
    CAMEL_TOKEN_VALUE,
    GOODS_PREFIX,
    HAND_LIMIT,
    MIN_SALE,
    PILE_SIZES,
    sale_rupees,
)
from .rules import CAMELS, EXCHANGE, SELL, TAKE, Action
from .state import JaipurState

#: mean value of a bonus token from the 3-, 4- and 5-card piles
BONUS_MEAN = tuple(sum(pile) / len(pile) for pile in BONUS_TOKENS)
#: share of the next tokens' value a card in hand is counted for (it still has to be sold)
HAND_WEIGHT = 0.55
#: rupees of margin that make winning the round about 73% likely (logistic scale)
MARGIN_SCALE = 7.0
#: rupees of value per camel in the herd beyond the camel token (camels pay for exchanges)
CAMEL_VALUE = 0.3
#: rollout: chance of a uniformly random action instead of the heuristic one
ROLLOUT_RANDOM = 0.15
#: priors: softmax temperature over the rough one-ply gain in rupees
PRIOR_TEMPERATURE = 2.0
SEALS_TO_WIN = rules.SEALS_TO_WIN


def actions(state: JaipurState, seat: int) -> list[Action]:
    if state.over or seat != state.turn:
        return []
    return rules.legal_actions(state)


def play(state: JaipurState, action: Action) -> None:
    rules.play(state, action)


def command(action: Action) -> str:
    return render.format_action(action)


@cache
def match_chance(mine: int, theirs: int) -> float:
    """Chance to win the match from these seals if every further round were a coin flip."""
    if mine >= SEALS_TO_WIN:
        return 1.0
    if theirs >= SEALS_TO_WIN:
        return 0.0
    return 0.5 * (match_chance(mine + 1, theirs) + match_chance(mine, theirs + 1))


def round_value(state: JaipurState, seat: int) -> float:
    """Rupees won this round plus part of what the hand will sell for."""
    value = float(state.goods_points[seat])
    for pile in state.bonus_won[seat]:
        value += sum(pile)
    hand = state.hands[seat]
    taken = state.taken
    for g in range(6):
        h = hand[g]
        if h:
            start = taken[g]
            end = min(PILE_SIZES[g], start + h)
            worth = GOODS_PREFIX[g][end] - GOODS_PREFIX[g][start]
            if h >= 3:
                worth += BONUS_MEAN[min(h, 5) - 3]
            value += HAND_WEIGHT * worth
    return value + CAMEL_VALUE * state.herds[seat]


def evaluate(state: JaipurState, seat: int) -> float:
    """The chance that ``seat`` wins the match, in [0, 1]."""
    mine, theirs = state.seals[seat], state.seals[1 - seat]
    if state.over:
        return 1.0 if mine > theirs else 0.0
    other = 1 - seat
    margin = round_value(state, seat) - round_value(state, other)
    herds = state.herds
    if herds[seat] != herds[other]:
        margin += CAMEL_TOKEN_VALUE if herds[seat] > herds[other] else -CAMEL_TOKEN_VALUE
    x = margin / MARGIN_SCALE
    p = 1.0 / (1.0 + math.exp(-x)) if x > -30 else 0.0
    return p * match_chance(mine + 1, theirs) + (1.0 - p) * match_chance(mine, theirs + 1)


def horizon(state: JaipurState) -> int:
    """The round number: rollouts end with the round."""
    return state.round_no


def _next_card(state: JaipurState, seat: int, good: int, extra: int = 0) -> int:
    """The token the next card of ``good`` would earn given what ``seat`` already holds."""
    index = state.taken[good] + state.hands[seat][good] + extra
    prefix = GOODS_PREFIX[good]
    if index >= PILE_SIZES[good]:
        return 0
    return prefix[index + 1] - prefix[index]


def gain(state: JaipurState, seat: int, action: Action) -> float:
    """A rough immediate gain in rupees (for priors; no copying, no lookahead)."""
    kind = action[0]
    if kind == SELL:
        good, n = action[1], action[2]
        value = sale_rupees(good, state.taken[good], n)
        if n >= 3:
            value += BONUS_MEAN[min(n, 5) - 3]
        return value * (1.0 - HAND_WEIGHT) + 1.0
    if kind == TAKE:
        return HAND_WEIGHT * _next_card(state, seat, action[1])
    if kind == CAMELS:
        camels = state.market[CAMEL]
        return CAMEL_VALUE * camels + (2.0 if state.herds[seat] + camels > state.herds[1 - seat] else 0.0)
    take, give = action[1], action[2]
    value = 0.0
    for g in range(6):
        for i in range(take[g]):
            value += HAND_WEIGHT * _next_card(state, seat, g, i)
        for i in range(give[g]):
            value -= HAND_WEIGHT * _next_card(state, seat, g, -1 - i)
    return value - CAMEL_VALUE * give[CAMEL] - 0.5


def priors(state: JaipurState, seat: int, actions_now: list[Action]) -> list[float]:
    gains = [gain(state, seat, a) for a in actions_now]
    top = max(gains)
    return [math.exp((g - top) / PRIOR_TEMPERATURE) for g in gains]


def rollout_action(state: JaipurState, rng: random.Random) -> Action:
    """Sell a good set, else take the most valuable card (or a big herd of camels); sometimes random."""
    if rng.random() < ROLLOUT_RANDOM:
        return random_play.random_action(state, rng)
    seat = state.turn
    hand = state.hands[seat]
    market = state.market
    taken = state.taken
    size = sum(hand)
    best_sale = None
    best_value = 0.0
    for g in range(6):
        h = hand[g]
        if h >= MIN_SALE[g] and (h >= 3 or g < 3 or size >= HAND_LIMIT - 1 or taken[g] + h >= PILE_SIZES[g]):
            start = taken[g]
            value = GOODS_PREFIX[g][min(PILE_SIZES[g], start + h)] - GOODS_PREFIX[g][start]
            if h >= 3:
                value += BONUS_MEAN[min(h, 5) - 3]
            if value > best_value:
                best_sale, best_value = (SELL, g, h), value
    if best_sale is not None and (best_value >= 6 or size >= HAND_LIMIT - 1):
        return best_sale
    if size < HAND_LIMIT:
        best_take = None
        take_value = -1
        for g in range(6):
            if market[g]:
                value = _next_card(state, seat, g)
                if value > take_value:
                    best_take, take_value = g, value
        if market[CAMEL] >= 3 and take_value < 5:
            return (CAMELS,)
        if best_take is not None:
            return (TAKE, best_take)
    if best_sale is not None:
        return best_sale
    if market[CAMEL]:
        return (CAMELS,)
    return random_play.random_action(state, rng)


__all__ = ["EXCHANGE", "actions", "command", "evaluate", "horizon", "play", "priors", "rollout_action"]
