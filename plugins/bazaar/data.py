"""Structured views of a Bazaar game for a drawn table: exchange rows, fields, players, prices.

Everything in Bazaar is public except the order of the face-down combinations
under each field's top one, so a field shows its top combination and how
many remain, never what lies below.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bazaarbot.i18n import _, per_language

from . import colours as col
from .deck import PER_FIELD, is_valuable
from .render import status
from .rules import POINTS, TOTAL_PURCHASES
from .state import OVER, BazaarState


def _stones(counts: Sequence[int]) -> list[str]:
    """A group of stones, one entry per stone (canonical colour names, as commands spell them)."""
    return [col.NAMES[c] for c in range(col.NCOL) for _i in range(counts[c])]


@per_language
def labels() -> dict[str, str]:
    """The words the drawn table shows, translated (colour names included)."""
    words = {
        "exchange": _("Exchange"),
        "fields": _("Fields"),
        "left": _("left"),
        "sold_out": _("sold out"),
        "valuable": _("valuable"),
        "prices": _("Prices"),
        "normal_rates": _("normal prices (all fields stocked)"),
        "high_rates": _("higher prices (a field is sold out)"),
        "leftover": _("stones left after buying"),
        "normal": _("normal"),
        "pts": _("pts"),
        "bought": _("bought"),
        "stones": _("stones"),
        "sold": _("sold"),
        "bank": _("Bank"),
    }
    for c in range(col.NCOL):
        words[col.NAMES[c]] = col.name(c)
    return words


def public_data(s: BazaarState) -> dict[str, Any]:
    """The whole public table."""
    high = s.high_rates()
    fields = []
    for stack in s.fields:
        top = stack[-1] if stack else None
        fields.append(
            {
                "top": _stones(top) if top else None,
                "left": len(stack),
                "per_field": PER_FIELD,
                "valuable": bool(top and is_valuable(top)),
            }
        )
    players = [
        {
            "name": s.players[seat],
            "score": s.scores[seat],
            "stones": _stones(s.hands[seat]),
            "bought": len(s.purchases[seat]),
        }
        for seat in range(s.n)
    ]
    level = int(high)
    return {
        "over": s.phase == OVER,
        "turn": None if s.phase == OVER else s.turn,
        "phase": s.phase,
        "status": status(s),
        "rows": [{"left": _stones(a), "right": _stones(b)} for a, b in s.rows],
        "fields": fields,
        "players": players,
        "high_rates": high,
        "prices": {"normal": list(POINTS[level]), "valuable": list(POINTS[level + 1])},
        "sold": s.purchase_count(),
        "total": TOTAL_PURCHASES,
        "hand_limit": s.hand_limit,
        "bank": None if s.bank is None else _stones(s.bank),
        "colours": list(col.NAMES),
        "labels": labels(),
    }


@per_language
def terms() -> dict[str, str]:
    """Each colour's id -> its name for the reader (the view's ``terms``)."""
    return {col.NAMES[c]: col.name(c) for c in range(col.NCOL)}
