"""Hand-built positions for tests and examples: a fixed exchange table and chosen hands and fields."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .exchange import Group
from .parse import _colours
from .rules import new_game
from .state import ACTION, BazaarState


def stones_of(text: str) -> Group:
    """'2 red blue' -> counts."""
    return _colours(text.lower().replace(",", " ").split()) if text.strip() else (0, 0, 0, 0, 0)


def build_state(
    hands: Sequence[str] = ("", ""),
    tops: Sequence[str] | None = None,
    turn: int = 0,
    phase: str = ACTION,
    acted: bool = True,
    seed: int = 1,
    hand_limit: bool = False,
    bank: bool = False,
    auto_pass: bool = False,
) -> BazaarState:
    """A game on the fixed table with these hands (counted as drawn) and, if given, these field tops.

    ``auto_pass`` is off unless asked for, so a position shows each step a player takes.
    """
    players = ["alice", "bob", "carol", "dave", "erin", "frank"][: len(hands)]
    s = new_game(
        players, random.Random(seed), table="fixed", hand_limit=hand_limit, bank=bank, auto_pass=auto_pass
    )
    for seat, text in enumerate(hands):
        counts = stones_of(text)
        s.hands[seat] = list(counts)
        s.drawn[seat] = sum(counts)
        if s.bank is not None:
            for c in range(5):
                s.bank[c] -= counts[c]
    if tops is not None:
        for field, text in enumerate(tops):
            wanted = stones_of(text)
            stack = s.fields[field]
            if wanted in stack:
                stack.remove(wanted)
            else:  # keep the deck distinct: swap out whichever field holds it
                for other in s.fields:
                    if wanted in other:
                        other[other.index(wanted)] = stack[-1]
                        break
                stack.pop()
            stack.append(wanted)
    s.has_acted = [acted] * len(hands)
    s.turn = turn
    s.phase = phase
    return s
