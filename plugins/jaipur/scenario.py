"""Build a state from explicit parts: for rule tests, puzzles and reproducing reports.

Cards are written the way players type them (``"2 spice, leather, 3 camels"``).
Whatever is not placed explicitly goes to the deck (in a seeded random order),
so a built state holds all 55 cards unless a short ``deck`` is asked for.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from bazaarbot.text.digits import number

from .cards import BONUS_TOKENS, CAMEL, CARD_ALIASES, CARD_COUNTS, GOODS_TOKENS
from .state import JaipurState


def _written(text: str) -> list[tuple[int, int]]:
    """``"2 spice leather camel"`` -> (card type, how many) in the written order; a number counts
    the card after it."""
    found: list[tuple[int, int]] = []
    count = None
    for word in re.split(r"[\s,]+", text.strip().lower()):
        if not word:
            continue
        if (given := number(word)) is not None:
            count = given
            continue
        found.append((CARD_ALIASES[word], 1 if count is None else count))
        count = None
    return found


def cards(text: str) -> list[int]:
    """``"2 spice leather camel"`` -> counts per type (7 entries, camels last)."""
    counts = [0] * 7
    for card, n in _written(text):
        counts[card] += n
    return counts


def deck_from(text: str) -> list[int]:
    """A deck in the written order, first card on top (drawn first)."""
    order: list[int] = []
    for card, n in _written(text):
        order += [card] * n
    return order[::-1]


def build_state(
    market: str,
    hands: Sequence[str] = ("", ""),
    herds: Sequence[int] = (0, 0),
    *,
    deck: str | None = None,
    turn: int = 0,
    starter: int | None = None,
    players: Sequence[str] = ("alice", "bob"),
    taken: Sequence[int] | None = None,
    bonus: Sequence[Sequence[int]] | None = None,
    seed: int = 0,
) -> JaipurState:
    """A round in progress with exactly these cards in view.

    ``taken`` says how many goods tokens each pile has already handed out (to
    nobody in particular: they are dropped from the game); ``bonus`` replaces the
    three bonus piles (next token last). ``deck`` fixes the deck, top card first.
    """
    rng = random.Random(seed)
    state = JaipurState(list(players), rng)
    state.market = cards(market)
    hands = list(hands) + [""] * (2 - len(hands))
    state.hands = [cards(h)[:6] for h in hands]
    for h in hands:
        if cards(h)[CAMEL]:
            raise ValueError("camels belong in the herd, not the hand")
    state.herds = list(herds)
    if deck is None:
        rest = []
        for card in range(7):
            held = sum(state.herds) if card == CAMEL else sum(hand[card] for hand in state.hands)
            left = CARD_COUNTS[card] - state.market[card] - held
            if left < 0:
                raise ValueError(f"too many cards of type {card}")
            rest += [card] * left
        rng.shuffle(rest)
        state.deck = rest
    else:
        state.deck = deck_from(deck)
    state.taken = list(taken) if taken is not None else [0] * 6
    state.empty_piles = sum(1 for g in range(6) if state.taken[g] >= len(GOODS_TOKENS[g]))
    state.bonus = [list(p) for p in bonus] if bonus is not None else [list(p) for p in BONUS_TOKENS]
    state.turn = turn
    state.starter = turn if starter is None else starter
    state.round_no = 1
    return state
