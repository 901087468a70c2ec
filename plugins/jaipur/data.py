"""Structured views of a Jaipur match for a drawn table: public data and a seat's private data.

The public part holds exactly what ``render.board`` shows (market, deck size,
token piles, bonus pile sizes, hand sizes, herds, seals, finished rounds);
hand contents and bonus token values are only in a seat's private part.
"""

from __future__ import annotations

from typing import Any

from bazaarbot.i18n import _, per_language

from .cards import CAMEL, CAMEL_TOKEN_VALUE, GOODS_TOKENS, HAND_LIMIT, N_TYPES, NAMES, bonus_label, name
from .render import round_result_text, turn_line
from .state import JaipurState

#: card types by index, as the commands spell them (singular)
KINDS = tuple(singular for singular, _plural in NAMES)


def _cards(counts: list[int]) -> list[str]:
    """Counts per type -> one entry per card, in type order (what a renderer draws)."""
    return [KINDS[t] for t in range(len(counts)) for _i in range(counts[t])]


@per_language
def labels() -> dict[str, str]:
    """The words the drawn table shows, translated."""
    return {
        "market": _("Market"),
        "deck": _("Deck"),
        "tokens": _("Goods tokens"),
        "bonus": _("Bonus tokens"),
        "camel_token": _("Camel token"),
        "seals": _("Seals"),
        "hand": _("hand"),
        "herd": _("herd"),
        "rupees": _("rupees"),
        "points_tokens": _("{points} rupees from {tokens} goods tokens"),
        "bonus_won": _("Bonus tokens won"),
        "round": _("Round"),
        "your_hand": _("Your hand"),
        "your_herd": _("Your herd"),
        "your_bonus": _("Your bonus tokens"),
        "none": _("none"),
        "diamond": _("diamond"),
        "gold": _("gold"),
        "silver": _("silver"),
        "cloth": _("cloth"),
        "spice": _("spice"),
        "leather": _("leather"),
        "camel": _("camel"),
    }


def public_data(state: JaipurState) -> dict[str, Any]:
    """Everything on the table that both players (and spectators) see."""
    players = []
    for seat in (0, 1):
        players.append(
            {
                "name": state.players[seat],
                "hand": sum(state.hands[seat]),
                "herd": state.herds[seat],
                "points": state.goods_points[seat],
                "tokens": state.goods_count[seat],
                "bonus": [len(state.bonus_won[seat][i]) for i in range(3)],
                "seals": state.seals[seat],
            }
        )
    return {
        "round": state.round_no,
        "over": state.over,
        "turn": None if state.over else state.turn,
        "status": turn_line(state),
        "market": _cards(state.market),
        "deck": len(state.deck),
        "piles": [{"good": KINDS[g], "left": list(GOODS_TOKENS[g][state.taken[g] :])} for g in range(6)],
        "bonus_piles": [{"label": bonus_label(i), "left": len(state.bonus[i])} for i in range(3)],
        "camel_token": CAMEL_TOKEN_VALUE,
        "discard": {KINDS[g]: state.discard[g] for g in range(6) if state.discard[g]},
        "players": players,
        "rounds": [
            {
                "round": r["round"],
                "winner": r["winner"],
                "totals": list(r["totals"]),
                "text": round_result_text(state, r),
            }
            for r in state.rounds
        ],
        "hand_limit": HAND_LIMIT,
        "labels": labels(),
    }


@per_language
def terms() -> dict[str, str]:
    """Each card kind's id -> its name for the reader (the view's ``terms``); ``<id>+`` -> the name of
    several (a button selling 2 spice reads ``2 Gewürze``), and the English plural a command spells
    (``sell 2 diamonds``) -> that name too."""
    named = {KINDS[k]: name(k) for k in range(len(KINDS))}
    named.update({KINDS[k] + "+": name(k, 2) for k in range(len(KINDS))})
    named.update({plural: name(k, 2) for k, (singular, plural) in enumerate(NAMES) if plural != singular})
    return named


def private_data(state: JaipurState, seat: int) -> dict[str, Any]:
    """A seat's hand as cards, its herd, and its own bonus token values."""
    won = state.bonus_won[seat]
    return {
        "hand": _cards(state.hands[seat]),
        "herd": state.herds[seat],
        "bonus": [{"label": bonus_label(i), "value": v} for i in range(3) for v in won[i]],
        "kinds": list(KINDS[:N_TYPES]),
        "camel": KINDS[CAMEL],
    }
