"""The whole game state (everything is public except the order of the face-down combinations
and the future draws), with a fast clone and a lossless JSON form."""

from __future__ import annotations

import random
from typing import Any

from bazaarbot.plugin import copied_rng

from .exchange import Group, Row

# phases of the turn of ``state.turn``
ACTION = "action"  # must draw or trade
JOKER = "joker"  # drew a joker: must name a colour first
BUY = "buy"  # acted: may buy one combination, or pass
DISCARD = "discard"  # hand limit option: must give back stones down to the limit
OVER = "over"


class BazaarState:
    """One game. Hands and sides are 5-lists of stone counts in colour order."""

    __slots__ = (
        "players",
        "rng",
        "table_kind",
        "quality_gate",
        "hand_limit",
        "bank",
        "auto_pass",
        "rows",
        "fields",
        "hands",
        "scores",
        "purchases",
        "drawn",
        "received",
        "given",
        "spent",
        "returned",
        "has_acted",
        "turn",
        "phase",
        "stuck_passes",
        "blocked",
        "turn_number",
        "left",
    )

    def __init__(self) -> None:
        self.players: list[str] = []
        self.rng = random.Random(0)
        self.table_kind = "generated"
        self.quality_gate = False
        #: 0 = no limit, else the most stones a hand may keep at the end of a turn
        self.hand_limit = 0
        #: None = unlimited supply, else stones left in the bank per colour
        self.bank: list[int] | None = None
        #: the turn ends by itself when only 'pass' is left (table option ``auto_pass``)
        self.auto_pass = True
        self.rows: tuple[Row, ...] = ()
        #: per field, the combinations still there; the last one is the face-up top
        self.fields: list[list[Group]] = []
        self.hands: list[list[int]] = []
        self.scores: list[int] = []
        #: per seat, (field index, combination, leftover, level, points) of every purchase
        self.purchases: list[list[tuple[int, Group, int, int, int]]] = []
        # stone book-keeping per seat: drawn + received - given - spent - returned = held
        self.drawn: list[int] = []
        self.received: list[int] = []
        self.given: list[int] = []
        self.spent: list[int] = []
        self.returned: list[int] = []
        self.has_acted: list[bool] = []
        self.turn = 0
        self.phase = ACTION
        #: consecutive passes by players who could neither draw nor trade (finite bank only)
        self.stuck_passes = 0
        self.blocked = False
        self.turn_number = 1
        #: per seat, whether its player left under ``leavers=skip`` (§9.9: skipped from then on)
        self.left: list[bool] = []

    @property
    def n(self) -> int:
        return len(self.players)

    def purchase_count(self) -> int:
        return sum(len(p) for p in self.purchases)

    def high_rates(self) -> bool:
        """Whether at least one field is sold out (every later purchase scores higher)."""
        return any(not f for f in self.fields)

    def clone(self, rng: random.Random | None = None) -> BazaarState:
        """An independent copy; ``rng`` replaces the copy of the generator (copying it costs more
        than the rest of the copy)."""
        new = BazaarState.__new__(BazaarState)
        new.players = list(self.players)
        new.rng = rng if rng is not None else copied_rng(self.rng)
        new.table_kind = self.table_kind
        new.quality_gate = self.quality_gate
        new.hand_limit = self.hand_limit
        new.bank = None if self.bank is None else list(self.bank)
        new.auto_pass = self.auto_pass
        new.rows = self.rows
        new.fields = [list(f) for f in self.fields]
        new.hands = [list(h) for h in self.hands]
        new.scores = list(self.scores)
        new.purchases = [list(p) for p in self.purchases]
        new.drawn = list(self.drawn)
        new.received = list(self.received)
        new.given = list(self.given)
        new.spent = list(self.spent)
        new.returned = list(self.returned)
        new.has_acted = list(self.has_acted)
        new.turn = self.turn
        new.phase = self.phase
        new.stuck_passes = self.stuck_passes
        new.blocked = self.blocked
        new.turn_number = self.turn_number
        new.left = list(self.left)
        return new

    def to_json(self) -> dict[str, Any]:
        version, internal, gauss = self.rng.getstate()
        return {
            "players": list(self.players),
            "rng": [version, list(internal), gauss],
            "table_kind": self.table_kind,
            "quality_gate": self.quality_gate,
            "hand_limit": self.hand_limit,
            "bank": None if self.bank is None else list(self.bank),
            "auto_pass": self.auto_pass,
            "rows": [[list(a), list(b)] for a, b in self.rows],
            "fields": [[list(c) for c in f] for f in self.fields],
            "hands": [list(h) for h in self.hands],
            "scores": list(self.scores),
            "purchases": [
                [[f, list(c), left, level, pts] for f, c, left, level, pts in p] for p in self.purchases
            ],
            "drawn": list(self.drawn),
            "received": list(self.received),
            "given": list(self.given),
            "spent": list(self.spent),
            "returned": list(self.returned),
            "has_acted": list(self.has_acted),
            "turn": self.turn,
            "phase": self.phase,
            "stuck_passes": self.stuck_passes,
            "blocked": self.blocked,
            "turn_number": self.turn_number,
            "left": list(self.left),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BazaarState:
        s = cls()
        s.players = list(data["players"])
        version, internal, gauss = data["rng"]
        s.rng.setstate((version, tuple(internal), gauss))
        s.table_kind = data["table_kind"]
        s.quality_gate = bool(data["quality_gate"])
        s.hand_limit = int(data["hand_limit"])
        s.bank = None if data["bank"] is None else list(data["bank"])
        s.auto_pass = bool(data.get("auto_pass", True))
        s.rows = tuple((tuple(a), tuple(b)) for a, b in data["rows"])  # type: ignore[misc]
        s.fields = [[tuple(c) for c in f] for f in data["fields"]]  # type: ignore[misc]
        s.hands = [list(h) for h in data["hands"]]
        s.scores = list(data["scores"])
        s.purchases = [
            [(f, tuple(c), left, level, pts) for f, c, left, level, pts in p] for p in data["purchases"]
        ]  # type: ignore[misc]
        s.drawn = list(data["drawn"])
        s.received = list(data["received"])
        s.given = list(data["given"])
        s.spent = list(data["spent"])
        s.returned = list(data["returned"])
        s.has_acted = list(data["has_acted"])
        s.turn = data["turn"]
        s.phase = data["phase"]
        s.stuck_passes = data["stuck_passes"]
        s.blocked = data["blocked"]
        s.turn_number = data["turn_number"]
        s.left = [bool(x) for x in data.get("left", [False] * len(s.players))]
        return s
