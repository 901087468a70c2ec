"""Building exact positions by hand: for rule tests and for trying AI ideas on set situations."""

from __future__ import annotations

import random
from typing import Any

from bazaarbot.plugin import Outcome

from .board import FIELD_ALIASES, SHOP_INTERIOR, SOUK_INDEX, SOUK_SHOPS, SPACE_INDEX, SPACE_SHOPS
from .game import Yspahan
from .rules import _put, advance
from .state import P_ACTION, State

GAME = Yspahan()
NAMES = ("Ann", "Bob", "Cid", "Dee")


def new_game(n: int = 3, seed: int = 0, **options: Any) -> State:
    """A fresh game where seat 0 starts (unless options say otherwise), waiting for the roll."""
    opts = {"first_player": "first", **options}
    return GAME.setup(list(NAMES[:n]), random.Random(seed), opts)


def set_tower(st: State, groups: dict[str, tuple[int, ...]], seat: int | None = None) -> State:
    """Replace the tower by ``{"camels": (value, white[, yellow]), ...}`` and wait for ``seat``'s action."""
    for f in range(6):
        st.tower_v[f] = st.tower_w[f] = st.tower_y[f] = 0
    for word, spec in groups.items():
        f = FIELD_ALIASES[word]
        value, white, *rest = spec
        st.tower_v[f], st.tower_w[f], st.tower_y[f] = value, white, rest[0] if rest else 0
    st.phase = P_ACTION
    if seat is not None:
        st.cur = seat
        st.turn = st.order.index(seat)
    return st


#: a tower with every field filled: camels 3x1, sacks 2x2, barrels 1x3, chests 1x4, vases 1x5, gold 1x6
FULL_TOWER: dict[str, tuple[int, ...]] = {
    "camels": (1, 3),
    "sacks": (2, 2),
    "barrels": (3, 1),
    "chests": (4, 1),
    "vases": (5, 1),
    "gold": (6, 1),
}


def full_tower_game() -> State:
    """A 3-player game, the first seat to act on a tower with all six fields filled (``FULL_TOWER``)."""
    return set_tower(new_game(3), FULL_TOWER)


def shop_of(label: str) -> int:
    """A shop from 'sack5 W7' (the road shop by W7) or 'sack5' (its first inner shop, else its first)."""
    words = label.lower().split()
    shops = SOUK_SHOPS[SOUK_INDEX[words[0]]]
    if len(words) > 1:
        space = SPACE_INDEX[words[1]]
        return next(sh for sh in shops if sh in SPACE_SHOPS[space])
    return next((sh for sh in shops if SHOP_INTERIOR[sh]), shops[0])


def put(st: State, seat: int, *labels: str) -> None:
    """Put seat's cubes in the named shops (no rule checks: for building positions)."""
    for label in labels:
        _put(st, seat, shop_of(label))


def fill(st: State, seat: int, souk: str) -> None:
    """Fill every empty shop of a souk with seat's cubes."""
    for sh in SOUK_SHOPS[SOUK_INDEX[souk]]:
        if st.shop[sh] < 0:
            _put(st, seat, sh)


def play(st: State, text: str, seat: int | None = None) -> Outcome:
    """Parse and apply a typed command for the seat to act (or the given seat)."""
    if seat is None:
        seat = GAME.to_act(st)[0]
    return GAME.apply(st, seat, GAME.parse(st, seat, text))


def settle(st: State) -> State:
    """Play forced steps, as the table would after a change made by hand."""
    advance(st, None)
    return st
