"""A finished Jaipur match's score by source: each round's goods, bonus and camel tokens, then the seals."""

from __future__ import annotations

from typing import Any

from bazaarbot.i18n import _

from .cards import CAMEL_TOKEN_VALUE
from .state import JaipurState


def breakdown(state: JaipurState) -> list[dict[str, Any]]:
    """Rows of the result table, one value per seat."""
    rows: list[dict[str, Any]] = []
    for summary in state.rounds:
        n = summary["round"]
        token = summary["camel_token"]
        rows += [
            {"label": _("Round {n}: goods tokens").format(n=n), "values": list(summary["goods_points"])},
            {"label": _("Round {n}: bonus tokens").format(n=n), "values": list(summary["bonus_sum"])},
            {
                "label": _("Round {n}: camel token").format(n=n),
                "values": [CAMEL_TOKEN_VALUE if token == s else 0 for s in (0, 1)],
            },
            {"label": _("Round {n}: rupees").format(n=n), "values": list(summary["totals"]), "total": True},
        ]
    rows.append({"label": _("Seals"), "values": list(state.seals), "total": True})
    return rows
