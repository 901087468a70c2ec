"""The 24 combinations of five stones for sale, dealt six to each of the four fields (§9.7)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations_with_replacement

from .colours import NCOL
from .exchange import Group

N_FIELDS = 4
PER_FIELD = 6
DECK_SIZE = N_FIELDS * PER_FIELD
COMBO_SIZE = 5
#: a combination with at least this many stones of one colour is a "valuable row"
VALUABLE_SAME = 4
#: accepted number of valuable combinations in a deck (inclusive)
VALUABLE_RANGE = (4, 8)
#: accepted number of the deck's 120 stone slots taken by each colour (inclusive)
COLOUR_SLOTS = (18, 30)
MAX_TRIES = 100_000


def _counts(colours: Sequence[int]) -> Group:
    counts = [0] * NCOL
    for c in colours:
        counts[c] += 1
    return (counts[0], counts[1], counts[2], counts[3], counts[4])


#: every 5-stone multiset over 5 colours (126 of them), in a fixed order
ALL_COMBOS: tuple[Group, ...] = tuple(
    sorted({_counts(c) for c in combinations_with_replacement(range(NCOL), COMBO_SIZE)}, reverse=True)
)


def is_valuable(combo: Sequence[int]) -> bool:
    """Four or five stones of one colour make a combination worth more."""
    return max(combo) >= VALUABLE_SAME


def deck_problems(deck: Sequence[Group]) -> list[str]:
    """What keeps ``deck`` from being an acceptable deck of combinations; empty when fine."""
    problems = []
    if len(deck) != DECK_SIZE or len(set(deck)) != len(deck):
        problems.append("not 24 distinct combinations")
    if any(sum(c) != COMBO_SIZE for c in deck):
        problems.append("a combination does not have five stones")
    valuable = sum(1 for c in deck if is_valuable(c))
    if not VALUABLE_RANGE[0] <= valuable <= VALUABLE_RANGE[1]:
        problems.append(f"{valuable} valuable combinations")
    for colour in range(NCOL):
        slots = sum(c[colour] for c in deck)
        if not COLOUR_SLOTS[0] <= slots <= COLOUR_SLOTS[1]:
            problems.append(f"colour {colour} fills {slots} slots")
    return problems


#: whether each of the 126 combinations is valuable (looked up, not recomputed, by the search)
VALUABLE: dict[Group, bool] = {c: is_valuable(c) for c in ALL_COMBOS}


class DeckCompletion:
    """Whether some more distinct combinations complete the ``seen`` ones into an acceptable deck.

    The same test as ``deck_problems`` for ``seen + more`` when ``more`` avoids ``seen`` (as a
    sample of the unseen ones does), with the seen part counted once: the search re-draws the
    hidden combinations on every iteration, and this is its inner loop.
    """

    def __init__(self, seen: Sequence[Group]) -> None:
        self.valuable = sum(VALUABLE[c] for c in seen)
        self.slots = [sum(c[colour] for c in seen) for colour in range(NCOL)]
        self.needed = DECK_SIZE - len(seen)

    def accepts(self, more: Sequence[Group]) -> bool:
        low, high = VALUABLE_RANGE
        if not low <= self.valuable + sum(map(VALUABLE.__getitem__, more)) <= high:
            return False
        least, most = COLOUR_SLOTS
        for taken, column in zip(self.slots, zip(*more, strict=True), strict=True):
            if not least <= taken + sum(column) <= most:
                return False
        return True


def generate_deck(rng: random.Random) -> list[Group]:
    """24 distinct combinations drawn uniformly from the 126, redrawn until the deck is acceptable."""
    for _i in range(MAX_TRIES):
        deck = rng.sample(ALL_COMBOS, DECK_SIZE)
        if not deck_problems(deck):
            return deck
    raise RuntimeError("no acceptable deck found")  # pragma: no cover - acceptance is about 75 %


def deal(deck: Sequence[Group]) -> list[list[Group]]:
    """Six combinations per field; the last one of each list is the face-up top."""
    return [list(deck[i * PER_FIELD : (i + 1) * PER_FIELD]) for i in range(N_FIELDS)]
