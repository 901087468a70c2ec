"""The fast random policy used by rollouts and the bench.

It never enumerates the (possibly hundreds of) exchanges: it picks an action
kind first, uniformly among the kinds possible now, then samples one action of
that kind directly from the counts. Every action it returns is legal (the
conformance tests check each one against ``legal_actions``).
"""

from __future__ import annotations

import random
from typing import Any

from .cards import HAND_LIMIT, MIN_SALE
from .rules import (
    CAMELS,
    EXCHANGE,
    SELL,
    TAKE,
    Action,
    apply_action,
    exact_multisets,
    finish_round,
    sub_multisets,
)
from .state import JaipurState

_CAMELS: Action = (CAMELS,)
_TAKES: tuple[Action, ...] = tuple((TAKE, g) for g in range(6))
_SELLS: tuple[tuple[Action, ...], ...] = tuple(tuple((SELL, g, n) for n in range(8)) for g in range(6))
_SIX = range(6)


def random_action(state: JaipurState, rng: random.Random) -> Action:
    """A random legal action for the seat to act."""
    seat = state.turn
    hand = state.hands[seat]
    market = state.market
    rand = rng.random
    h0, h1, h2, h3, h4, h5 = hand
    size = h0 + h1 + h2 + h3 + h4 + h5
    m0, m1, m2, m3, m4, m5, camels = market
    in_market = m0 + m1 + m2 + m3 + m4 + m5
    take_ok = size < HAND_LIMIT and in_market > 0
    sell_ok = h0 > 1 or h1 > 1 or h2 > 1 or h3 > 0 or h4 > 0 or h5 > 0
    herd = state.herds[seat]
    exchange_ok = in_market >= 2 and size + herd >= 2
    while True:
        n = (camels > 0) + take_ok + sell_ok + exchange_ok
        if not n:
            raise RuntimeError("no legal action: the state is inconsistent")
        r = int(rand() * n)
        if camels:
            if r == 0:
                return _CAMELS
            r -= 1
        if take_ok:
            if r == 0:
                pick = int(rand() * in_market)
                for g in _SIX:
                    pick -= market[g]
                    if pick < 0:
                        return _TAKES[g]
            r -= 1
        if sell_ok:
            if r == 0:
                options = [g for g in _SIX if hand[g] >= MIN_SALE[g]]
                good = options[int(rand() * len(options))]
                low = MIN_SALE[good]
                return _SELLS[good][low + int(rand() * (hand[good] - low + 1))]
            r -= 1
        action = _random_exchange(hand, market, herd, size, in_market, rand)
        if action is not None:
            return action
        exchange_ok = False


def _random_exchange(
    hand: list[int], market: list[int], herd: int, size: int, in_market: int, rand: Any
) -> Action | None:
    """A random legal exchange, or None when the sampled goods leave nothing to give back.

    The goods taken are drawn uniformly among the distinct multisets of 2+ market
    goods, the cards given uniformly among the multisets that fit; both lists come
    from the same memoised enumeration ``legal_actions`` uses.
    """
    camel_room = HAND_LIMIT - size
    if camel_room > herd:
        camel_room = herd
    takes = sub_multisets(tuple(market[:6]), 2, in_market)
    for _attempt in (0, 1):
        take = takes[int(rand() * len(takes))]
        bounds = (
            0 if take[0] else hand[0],
            0 if take[1] else hand[1],
            0 if take[2] else hand[2],
            0 if take[3] else hand[3],
            0 if take[4] else hand[4],
            0 if take[5] else hand[5],
            camel_room,
        )
        gives = exact_multisets(bounds, sum(take))
        if gives:
            return (EXCHANGE, take, gives[int(rand() * len(gives))])
    return None


def play_random_round(state: JaipurState, rng: random.Random) -> int:
    """Play random legal actions until the current round ends (scored, next one dealt).

    Returns the number of actions played.
    """
    if state.over:
        return 0
    choose = random_action
    apply = apply_action
    actions = 0
    while True:
        reason = apply(state, choose(state, rng))
        actions += 1
        if reason:
            finish_round(state, reason)
            return actions


def rollout(state: JaipurState, rng: random.Random) -> None:
    """Random legal actions until the match ends."""
    while not state.over:
        play_random_round(state, rng)


__all__ = ["play_random_round", "random_action", "rollout"]
