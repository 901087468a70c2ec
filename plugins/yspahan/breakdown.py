"""A finished Yspahan game's score by source: souks, the bazaar's bonus, the caravan, buildings, cards."""

from __future__ import annotations

from typing import Any

from bazaarbot.i18n import _

from .state import State


def _sources() -> dict[str, str]:
    """The first word of a scoring event's reason (``rules._score``) -> the row it counts in."""
    return {
        "souk": _("Souks"),
        "bazaar": _("Bazaar bonus"),
        "caravan": _("Caravan"),
        "building": _("Buildings"),
        "card": _("Cards"),
    }


def breakdown(state: State) -> list[dict[str, Any]]:
    """Rows of the result table, one value per seat, in the order the sources first scored."""
    sources = _sources()
    rows: dict[str, list[int]] = {}
    for seat, events in enumerate(state.log):
        for points, reason in events:
            label = sources.get(str(reason).split(" ", 1)[0], _("Other"))
            rows.setdefault(label, [0] * state.n)[seat] += int(points)
    table: list[dict[str, Any]] = [{"label": k, "values": v} for k, v in rows.items()]
    table.append({"label": _("Total"), "values": list(state.score), "total": True})
    return table
