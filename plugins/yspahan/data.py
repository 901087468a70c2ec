"""Structured views of a Yspahan game for a drawn table: the city, tower, caravan and players.

Public: everything ``render.board`` shows (and the road it refers to); a
seat's cards are private, only their number is public.
"""

from __future__ import annotations

from typing import Any

from bazaarbot.i18n import _

from .board import (
    ARM_SPACES,
    ARMS,
    FIELD_NAMES,
    NB_SOUKS,
    NEIGHBOURHOOD_NAMES,
    SHOP_INTERIOR,
    SHOP_SPACES,
    SOUK_NAMES,
    SOUK_POINTS,
    SOUK_SHOPS,
    SOUK_SIZE,
    SPACE_NAMES,
    neighbourhood_name,
)
from .cards import BUILDING_IDS, CARD_IDS, building_text, card_text
from .render import status
from .rules import caravan_scores
from .state import P_END, P_ROLL, PHASE_NAMES, State
from .words import souk_word, w


def labels() -> dict[str, str]:
    """The words the drawn table shows, translated."""
    return {
        "week": _("Week"),
        "day": _("Day"),
        "start": _("start player"),
        "tower": _("Tower"),
        "not_rolled": _("not rolled yet"),
        "yellow": _("yellow"),
        "road": _("Road"),
        "supervisor": _("Supervisor"),
        "caravan": _("Caravan"),
        "row": _("row"),
        "score": _("pts"),
        "gold": _("gold"),
        "camels": _("camels"),
        "cards": _("cards"),
        "buildings": _("buildings"),
        "none": _("none"),
        "done": _("complete"),
        "your_cards": _("Your cards"),
        "to_build": _("Still to build"),
        "no_cards": _("no cards"),
    }


def terms() -> dict[str, str]:
    """Each game thing's id (souk, field, building, card, neighbourhood) -> its name for the reader."""
    names = {NEIGHBOURHOOD_NAMES[nb]: neighbourhood_name(nb) for nb in range(4)}
    for english in (*FIELD_NAMES, *SOUK_NAMES, *BUILDING_IDS, *CARD_IDS):
        names[english] = str(souk_word(SOUK_NAMES.index(english))) if english in SOUK_NAMES else w(english)
    return names


def _souk(st: State, s: int) -> dict[str, Any]:
    shops = []
    for sh in SOUK_SHOPS[s]:
        owner = st.shop[sh]
        space = None if SHOP_INTERIOR[sh] else "/".join(SPACE_NAMES[x] for x in SHOP_SPACES[sh])
        shops.append({"owner": owner if owner >= 0 else None, "space": space})
    owner = st.souk_own[s]
    return {
        "id": SOUK_NAMES[s],
        "points": SOUK_POINTS[s],
        "size": SOUK_SIZE[s],
        "owner": owner if owner >= 0 else None,
        "filled": st.souk_n[s],
        "complete": st.souk_n[s] == SOUK_SIZE[s],
        "shops": shops,
    }


def public_data(st: State) -> dict[str, Any]:
    """The city, the tower, the road and supervisor, the caravan, and each player's standing."""
    over = st.phase == P_END
    tower = []
    for f in range(6):
        tower.append(
            {
                "field": FIELD_NAMES[f],
                "value": st.tower_v[f],
                "white": st.tower_w[f],
                "yellow": st.tower_y[f],
            }
        )
    per = st.per_row
    rows = [list(st.caravan[r * per : (r + 1) * per]) for r in range(3)]
    worth = caravan_scores(st)
    players = []
    for p in range(st.n):
        players.append(
            {
                "name": st.players[p],
                "score": st.score[p],
                "gold": st.gold[p],
                "camels": st.camels[p],
                "cards": len(st.hands[p]),
                "buildings": [BUILDING_IDS[b] for b in range(6) if st.built[p] >> b & 1],
                "caravan_worth": worth[p],
            }
        )
    return {
        "over": over,
        "week": st.week,
        "day": st.day,
        "start": st.start,
        "current": None if over else st.cur,
        "phase": PHASE_NAMES[st.phase],
        "status": status(st),
        "rolled": st.phase != P_ROLL and not over,
        "tower": tower,
        "neighbourhoods": [
            {"name": NEIGHBOURHOOD_NAMES[nb], "souks": [_souk(st, s) for s in NB_SOUKS[nb]]}
            for nb in range(4)
        ],
        "road": [
            {"arm": name, "spaces": [SPACE_NAMES[sp] for sp in ARM_SPACES[arm]]}
            for arm, (name, _letter, _length) in enumerate(ARMS)
        ],
        "supervisor": SPACE_NAMES[st.sup],
        "caravan": {"cap": st.cap, "per_row": per, "rows": rows, "count": len(st.caravan)},
        "pile": len(st.pile),
        "players": players,
        "labels": labels(),
        "terms": terms(),
    }


def private_data(st: State, seat: int) -> dict[str, Any]:
    """The seat's cards (with what each does) and the buildings it has still to build."""
    hand = st.hands[seat]
    return {
        "cards": [{"id": CARD_IDS[k], "text": card_text(k)} for k in sorted(hand)],
        "to_build": [
            {"id": BUILDING_IDS[b], "text": building_text(b)} for b in range(6) if not st.built[seat] >> b & 1
        ],
    }
