"""The fast random policy used by rollouts and the bench.

It never enumerates the (possibly hundreds of) exchanges: it picks an action
kind first, uniformly among the kinds possible now, then samples one action of
that kind directly from the counts. Every action it returns is legal (the
conformance tests check each one against ``legal_actions``).
"""

from __future__ import annotations

import random
from typing import Any

from .cards import CAMEL, HAND_LIMIT, MIN_SALE
from .rules import (
    CAMELS,
    DECK_EMPTIED_EXACTLY_ENDS_ROUND,
    DECK_EMPTY,
    DECK_SHORT,
    EXCHANGE,
    PILES_EMPTY,
    SELL,
    TAKE,
    Action,
    apply_action,
    exact_multisets,
    exchange_goods,
    finish_round,
    sell_goods,
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


def play_random_round_reference(state: JaipurState, rng: random.Random) -> int:
    """The plain form of ``play_random_round``: ``random_action`` + ``apply_action``.

    Kept as the definition the fast loop must match action for action (tested).
    """
    if state.over:
        return 0
    actions = 0
    while True:
        reason = apply_action(state, random_action(state, rng))
        actions += 1
        if reason:
            finish_round(state, reason)
            return actions


def play_random_round(state: JaipurState, rng: random.Random) -> int:
    """Play random legal actions until the current round ends (scored, next one dealt).

    The same choices and effects as ``random_action`` + ``apply_action`` (same rng
    draws, same resulting state), inlined into one loop over local variables:
    this is the hot path of rollouts and of the bench. Returns the actions played.
    """
    if state.over:
        return 0
    rand = rng.random
    hands = state.hands
    knowns = state.known
    market = state.market
    deck = state.deck
    herds = state.herds
    seat = state.turn
    actions = 0
    while True:
        actions += 1
        hand = hands[seat]
        h0, h1, h2, h3, h4, h5 = hand
        size = h0 + h1 + h2 + h3 + h4 + h5
        m0, m1, m2, m3, m4, m5, camels = market
        in_market = m0 + m1 + m2 + m3 + m4 + m5
        take_ok = size < HAND_LIMIT and in_market > 0
        sell_ok = h0 > 1 or h1 > 1 or h2 > 1 or h3 > 0 or h4 > 0 or h5 > 0
        herd = herds[seat]
        exchange_ok = in_market >= 2 and size + herd >= 2
        while True:
            n = (camels > 0) + take_ok + sell_ok + exchange_ok
            if not n:
                raise RuntimeError("no legal action: the state is inconsistent")
            r = int(rand() * n)
            if camels:
                if r == 0:
                    kind = CAMELS
                    break
                r -= 1
            if take_ok:
                if r == 0:
                    kind = TAKE
                    break
                r -= 1
            if sell_ok:
                if r == 0:
                    kind = SELL
                    break
                r -= 1
            exchange = _random_exchange(hand, market, herd, size, in_market, rand)
            if exchange is not None:
                kind = EXCHANGE
                break
            exchange_ok = False
        if kind == CAMELS:
            missing = camels
            market[CAMEL] = 0
            herds[seat] = herd + camels
        elif kind == TAKE:
            pick = int(rand() * in_market)
            for g in _SIX:
                pick -= market[g]
                if pick < 0:
                    break
            market[g] -= 1
            hand[g] += 1
            knowns[seat][g] += 1
            missing = 1
        elif kind == SELL:
            options = [g for g in _SIX if hand[g] >= MIN_SALE[g]]
            good = options[int(rand() * len(options))]
            low = MIN_SALE[good]
            if sell_goods(state, seat, good, low + int(rand() * (hand[good] - low + 1))):
                state.turn = seat
                finish_round(state, PILES_EMPTY)
                return actions
            seat = 1 - seat
            continue
        else:
            exchange_goods(state, seat, exchange[1], exchange[2])
            seat = 1 - seat
            continue
        while missing and deck:
            market[deck.pop()] += 1
            missing -= 1
        if missing or (DECK_EMPTIED_EXACTLY_ENDS_ROUND and not deck):
            state.turn = seat
            finish_round(state, DECK_SHORT if missing else DECK_EMPTY)
            return actions
        seat = 1 - seat


def rollout(state: JaipurState, rng: random.Random) -> None:
    """Random legal actions until the match ends."""
    while not state.over:
        play_random_round(state, rng)


__all__ = ["play_random_round", "play_random_round_reference", "random_action", "rollout"]
