"""Structured views of a Yspahan game for a drawn table: the city, tower, caravan and players.

Public: everything ``render.board`` shows (and the road it refers to); a
seat's cards are private, only their number is public.
"""

from __future__ import annotations

from typing import Any

from bazaarbot.i18n import _, per_language

from .board import (
    ARM_SPACES,
    ARMS,
    DIST,
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
from .board import SPACE_NAMES as _SPACES
from .cards import BUILDING_IDS, CARD_IDS, building_name, building_text, card_name, card_summary, card_text
from .parse import format_action
from .render import status
from .rules import A_MOVE, actor, caravan_scores, legal, move_cost
from .state import P_END, P_ROLL, PHASE_NAMES, State
from .words import souk_word, w


def road_moves(st: State, seat: int) -> list[dict[str, Any]]:
    """Where the seat may move the supervisor now: each destination with its command, dice and gold."""
    if st.phase == P_END or actor(st) != seat:
        return []
    moves = []
    for a in legal(st):
        if a[0] != A_MOVE:
            continue
        _kind, field, dest = a
        value = st.tower_v[field]
        moves.append(
            {
                "command": format_action(st, a),
                "to": _SPACES[dest],
                "dice": value,
                "field": FIELD_NAMES[field],
                "steps": DIST[st.sup][dest],
                "gold": move_cost(st, seat, value, dest),
            }
        )
    return moves


@per_language
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


@per_language
def terms() -> dict[str, str]:
    """Each game thing's id -> its name for the reader (the view's ``terms``): cards and
    buildings by their human names, souks and tower fields as the reader types them."""
    names = {NEIGHBOURHOOD_NAMES[nb]: neighbourhood_name(nb) for nb in range(4)}
    names.update({english: w(english) for english in FIELD_NAMES})
    names.update({english: souk_word(s) for s, english in enumerate(SOUK_NAMES)})
    names.update({cid: card_name(k) for k, cid in enumerate(CARD_IDS)})
    names.update({bid: building_name(b) for b, bid in enumerate(BUILDING_IDS)})
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
    }


def private_data(st: State, seat: int) -> dict[str, Any]:
    """The seat's cards (with what each does) and the buildings it has still to build."""
    hand = st.hands[seat]
    return {
        "cards": [
            {"id": CARD_IDS[k], "name": card_name(k), "summary": card_summary(k), "text": card_text(k)}
            for k in sorted(hand)
        ],
        "road_moves": road_moves(st, seat),
        "to_build": [
            {"id": BUILDING_IDS[b], "name": building_name(b), "text": building_text(b)}
            for b in range(6)
            if not st.built[seat] >> b & 1
        ],
    }
