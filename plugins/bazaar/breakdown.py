"""A finished Bazaar game's score by purchase: how many each player bought and the points of each."""

from __future__ import annotations

from typing import Any

from bazaarbot.i18n import _

from .state import BazaarState


def breakdown(state: BazaarState) -> list[dict[str, Any]]:
    """Rows of the result table, one value per seat: purchases, their points one by one, the total."""
    bought = [len(p) for p in state.purchases]
    each = [" + ".join(str(pts) for *_rest, pts in p) or "–" for p in state.purchases]
    return [
        {"label": _("Purchases"), "values": bought},
        {"label": _("Points of each purchase"), "values": each},
        {"label": _("Total"), "values": list(state.scores), "total": True},
    ]
