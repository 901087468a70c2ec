"""The whole game state as flat lists of ints, cheap to copy and lossless as JSON."""

from __future__ import annotations

import random
from typing import Any

from bazaarbot.plugin import copied_rng

# decision points
P_ROLL, P_ACTION, P_PLACE, P_ORDER, P_PROTECT, P_BUILD, P_END = range(7)
PHASE_NAMES = ("roll", "action", "place", "order", "protect", "build", "end")

#: list-of-int fields copied shallowly; lists of lists copied one level deeper
_FLAT = (
    "order",
    "tower_v",
    "tower_w",
    "tower_y",
    "shop",
    "souk_n",
    "souk_own",
    "caravan",
    "gold",
    "camels",
    "built",
    "nbuilt",
    "score",
    "pile",
    "discard",
    "queue",
)
_NESTED = ("hands", "log")
_SCALAR = (
    "n",
    "week",
    "day",
    "start",
    "turn",
    "cur",
    "phase",
    "extra",
    "built_turn",
    "place_nb",
    "place_left",
    "place_done",
    "place_free",
    "mover",
    "per_row",
    "cap",
    "sup",
)


class State:
    """One game of Yspahan.

    ``log[seat]`` is the list of scoring events ``[points, reason]`` whose sum
    is ``score[seat]``; ``built[seat]`` is a bitmask of the six buildings.
    """

    __slots__ = ("players", "opts", "rng", *_FLAT, *_NESTED, *_SCALAR)

    players: list[str]
    opts: dict[str, Any]
    rng: random.Random
    order: list[int]
    tower_v: list[int]
    tower_w: list[int]
    tower_y: list[int]
    shop: list[int]
    souk_n: list[int]
    souk_own: list[int]
    caravan: list[int]
    gold: list[int]
    camels: list[int]
    built: list[int]
    nbuilt: list[int]
    score: list[int]
    pile: list[int]
    discard: list[int]
    queue: list[int]
    hands: list[list[int]]
    log: list[list[list[Any]]]
    n: int
    week: int
    day: int
    start: int
    turn: int
    cur: int
    phase: int
    extra: int
    built_turn: int
    place_nb: int
    place_left: int
    #: cubes placed so far in this delivery, and how many of those left may be declined (the hoist's)
    place_done: int
    place_free: int
    mover: int
    per_row: int
    cap: int
    sup: int

    def clone(self, rng: random.Random | None = None) -> State:
        """An independent copy; the random generator is copied too, unless ``rng`` replaces it
        (copying a generator's state costs more than the rest of the copy)."""
        new = State.__new__(State)
        new.players = list(self.players)
        new.opts = dict(self.opts)
        new.rng = rng if rng is not None else copied_rng(self.rng)
        # spelled out, not looped over _FLAT and _SCALAR: the search copies a state every iteration
        new.order = self.order[:]
        new.tower_v = self.tower_v[:]
        new.tower_w = self.tower_w[:]
        new.tower_y = self.tower_y[:]
        new.shop = self.shop[:]
        new.souk_n = self.souk_n[:]
        new.souk_own = self.souk_own[:]
        new.caravan = self.caravan[:]
        new.gold = self.gold[:]
        new.camels = self.camels[:]
        new.built = self.built[:]
        new.nbuilt = self.nbuilt[:]
        new.score = self.score[:]
        new.pile = self.pile[:]
        new.discard = self.discard[:]
        new.queue = self.queue[:]
        new.hands = [hand[:] for hand in self.hands]
        # a scoring event is never changed once logged, so the copies share them
        new.log = [events[:] for events in self.log]
        new.n = self.n
        new.week = self.week
        new.day = self.day
        new.start = self.start
        new.turn = self.turn
        new.cur = self.cur
        new.phase = self.phase
        new.extra = self.extra
        new.built_turn = self.built_turn
        new.place_nb = self.place_nb
        new.place_left = self.place_left
        new.place_done = self.place_done
        new.place_free = self.place_free
        new.mover = self.mover
        new.per_row = self.per_row
        new.cap = self.cap
        new.sup = self.sup
        return new

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data, including the generator state."""
        data: dict[str, Any] = {"players": list(self.players), "opts": dict(self.opts)}
        version, internal, gauss = self.rng.getstate()
        data["rng"] = [version, list(internal), gauss]
        for name in _FLAT:
            data[name] = list(getattr(self, name))
        data["hands"] = [list(h) for h in self.hands]
        data["log"] = [[list(e) for e in events] for events in self.log]
        for name in _SCALAR:
            data[name] = getattr(self, name)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        """The inverse of ``to_json``."""
        st = cls.__new__(cls)
        st.players = list(data["players"])
        st.opts = dict(data["opts"])
        version, internal, gauss = data["rng"]
        rng = random.Random()
        rng.setstate((version, tuple(internal), gauss))
        st.rng = rng
        for name in _FLAT:
            setattr(st, name, list(data[name]))
        st.hands = [list(h) for h in data["hands"]]
        st.log = [[list(e) for e in events] for events in data["log"]]
        for name in _SCALAR:
            setattr(st, name, data.get(name, 0))
        return st
