"""The state of a Jaipur match, kept compact (lists of small ints) for speed.

One object holds the whole match: the current round's cards and tokens, the
seals, and a public summary of every finished round. Cards are counted per
type (see ``cards``); only the deck keeps an order (top = end of the list).
"""

from __future__ import annotations

import random
from typing import Any

from bazaarbot.plugin import copied_rng

from .cards import (
    BONUS_TOKENS,
    CAMEL,
    CARD_COUNTS,
    DEAL,
    GOODS,
    MARKET_SIZE,
    N_TYPES,
    STARTING_MARKET_CAMELS,
)

#: the state's fields that are lists of numbers (copied and stored as such)
_LIST_FIELDS = (
    "deck",
    "market",
    "hands",
    "known",
    "herds",
    "discard",
    "taken",
    "bonus",
    "goods_points",
    "goods_count",
    "bonus_won",
    "seals",
)


class JaipurState:
    """Everything about a match; mutated in place by the rules."""

    __slots__ = (
        "players",
        "rng",
        *_LIST_FIELDS,
        "empty_piles",
        "turn",
        "starter",
        "round_no",
        "rounds",
        "over",
    )

    def __init__(self, players: list[str], rng: random.Random) -> None:
        self.players = list(players)
        self.rng = rng
        #: face-down draw pile, top card last
        self.deck: list[int] = []
        #: counts per card type (7 entries, camels last)
        self.market: list[int] = [0] * N_TYPES
        #: goods counts per seat (6 entries each)
        self.hands: list[list[int]] = [[0] * 6, [0] * 6]
        #: per seat, goods the opponent has seen go into that hand and not seen leave it
        #: (taken from the market face up); a lower bound of the hand, public knowledge
        self.known: list[list[int]] = [[0] * 6, [0] * 6]
        #: camels per seat
        self.herds: list[int] = [0, 0]
        #: goods sold this round, per type (public)
        self.discard: list[int] = [0] * 6
        #: goods tokens already handed out from each pile
        self.taken: list[int] = [0] * 6
        #: how many goods piles are empty (three end the round)
        self.empty_piles = 0
        #: the three face-down bonus piles, next token last
        self.bonus: list[list[int]] = [[], [], []]
        self.goods_points: list[int] = [0, 0]
        self.goods_count: list[int] = [0, 0]
        #: bonus token values won per seat, by pile
        self.bonus_won: list[list[list[int]]] = [[[], [], []], [[], [], []]]
        #: seat to act (-1 once the match is over)
        self.turn = 0
        #: who started the current round
        self.starter = 0
        self.round_no = 0
        self.seals: list[int] = [0, 0]
        #: public summaries of finished rounds (JSON-able dicts)
        self.rounds: list[dict[str, Any]] = []
        self.over = False

    def hand_size(self, seat: int) -> int:
        """Goods cards in ``seat``'s hand (camels never count)."""
        return sum(self.hands[seat])


def shuffle(items: list[int], rng: random.Random) -> None:
    """Fisher-Yates with ``rng.random()``: several times faster than ``Random.shuffle``."""
    rand = rng.random
    for i in range(len(items) - 1, 0, -1):
        j = int(rand() * (i + 1))
        items[i], items[j] = items[j], items[i]


def deal_round(state: JaipurState, starter: int) -> None:
    """Reset every component and deal a fresh round (rules §2) started by ``starter``."""
    rng = state.rng
    deck = []
    for card in GOODS:
        deck += [card] * CARD_COUNTS[card]
    deck += [CAMEL] * (CARD_COUNTS[CAMEL] - STARTING_MARKET_CAMELS)
    shuffle(deck, rng)
    hands = [[0] * 7, [0] * 7]
    for _ in range(DEAL):
        hands[0][deck.pop()] += 1
        hands[1][deck.pop()] += 1
    market = [0] * N_TYPES
    market[CAMEL] = STARTING_MARKET_CAMELS
    for _ in range(MARKET_SIZE - STARTING_MARKET_CAMELS):
        market[deck.pop()] += 1
    state.deck = deck
    state.market = market
    state.herds = [hands[0][CAMEL], hands[1][CAMEL]]
    state.hands = [hands[0][:6], hands[1][:6]]
    state.known = [[0] * 6, [0] * 6]
    state.discard = [0] * 6
    state.taken = [0] * 6
    state.empty_piles = 0
    bonus = [list(pile) for pile in BONUS_TOKENS]
    for pile in bonus:
        shuffle(pile, rng)
    state.bonus = bonus
    state.goods_points = [0, 0]
    state.goods_count = [0, 0]
    state.bonus_won = [[[], [], []], [[], [], []]]
    state.round_no += 1
    state.starter = starter
    state.turn = starter


def new_match(players: list[str], rng: random.Random) -> JaipurState:
    """A match whose first round is dealt, the starter drawn by lot from ``rng``."""
    state = JaipurState(players, rng)
    deal_round(state, rng.randrange(2))
    return state


def clone(state: JaipurState, rng: random.Random | None = None) -> JaipurState:
    """An independent copy, without going through JSON; ``rng`` replaces the copy of the generator."""
    new = JaipurState.__new__(JaipurState)
    new.players = list(state.players)
    new.rng = rng if rng is not None else copied_rng(state.rng)
    new.deck = state.deck[:]
    new.market = state.market[:]
    new.hands = [state.hands[0][:], state.hands[1][:]]
    new.known = [state.known[0][:], state.known[1][:]]
    new.herds = state.herds[:]
    new.discard = state.discard[:]
    new.taken = state.taken[:]
    new.empty_piles = state.empty_piles
    new.bonus = [pile[:] for pile in state.bonus]
    new.goods_points = state.goods_points[:]
    new.goods_count = state.goods_count[:]
    new.bonus_won = [[pile[:] for pile in won] for won in state.bonus_won]
    new.turn = state.turn
    new.starter = state.starter
    new.round_no = state.round_no
    new.seals = state.seals[:]
    new.rounds = list(state.rounds)
    new.over = state.over
    return new


def to_json(state: JaipurState) -> dict[str, Any]:
    """A lossless JSON-able snapshot, random generator included."""
    version, internal, gauss = state.rng.getstate()
    data: dict[str, Any] = {
        "players": list(state.players),
        "rng": [version, list(internal), gauss],
        "empty_piles": state.empty_piles,
        "turn": state.turn,
        "starter": state.starter,
        "round_no": state.round_no,
        "rounds": _deep_list(state.rounds),
        "over": state.over,
    }
    for key in _LIST_FIELDS:
        data[key] = _deep_list(getattr(state, key))
    return data


def from_json(data: dict[str, Any]) -> JaipurState:
    """The inverse of ``to_json``."""
    version, internal, gauss = data["rng"]
    rng = random.Random()
    rng.setstate((version, tuple(internal), gauss))
    state = JaipurState(data["players"], rng)
    for key in _LIST_FIELDS:
        setattr(state, key, _deep_list(data[key]))
    state.empty_piles = data["empty_piles"]
    state.turn = data["turn"]
    state.starter = data["starter"]
    state.round_no = data["round_no"]
    state.rounds = _deep_list(data["rounds"])
    state.over = data["over"]
    return state


def _deep_list(value: Any) -> Any:
    """Copy nested lists and dicts so a snapshot never shares them with the live state."""
    if isinstance(value, list | tuple):
        return [_deep_list(v) for v in value]
    if isinstance(value, dict):
        return {k: _deep_list(v) for k, v in value.items()}
    return value
