"""Why a parsed command is refused, in the player's terms, with what would work."""

from __future__ import annotations

from bazaarbot.i18n import _, ngettext
from bazaarbot.plugin import MoveError

from .board import (
    DIST,
    NB_SOUKS,
    NEIGHBOURHOOD_OF_FIELD,
    REACH_STRAIGHT,
    SHOP_SOUK,
    SOUK_NB,
    SOUK_SIZE,
    neighbourhood_name,
)
from .cards import (
    BUILD_FREE,
    CAMELS_FOR_VP,
    CAMELS_FOR_VP_MAX,
    EXCHANGE,
    GOLD_FOR_VP,
    GOLD_FOR_VP_MAX,
    HAMMAM,
    SOUK_CUBE,
)
from .parse import discount_words, parse_command
from .render import brief, status
from .rules import (
    A_BUILD,
    A_DONE,
    A_DRAW,
    A_EXTRA,
    A_FIRST,
    A_MOVE,
    A_PLACE,
    A_PLAY,
    A_PROTECT,
    A_STOP,
    A_TAKE,
    A_YELLOW,
    actor,
    discount_cards,
    field_actions,
    group_size,
    move_cost,
    price,
)
from .state import P_ACTION, P_BUILD, P_END, P_ORDER, P_PLACE, P_PROTECT, P_ROLL, State
from .words import building_word, card_word, field_word, said, souk_word

MAIN = (A_TAKE, A_MOVE, A_DRAW)


def _shop_reason(st: State, p: int, sh: int, nb: int | None) -> str:
    s = SHOP_SOUK[sh]
    if nb is not None and SOUK_NB[s] != nb:
        return _("These cubes go to the {nb} neighbourhood.").format(nb=neighbourhood_name(nb))
    if st.shop[sh] >= 0:
        return _("That shop already holds a cube.")
    owner = st.souk_own[s]
    if owner >= 0 and owner != p:
        return _("{souk} holds {owner}'s cubes, so it is closed to you.").format(
            souk=souk_word(s), owner=st.players[owner]
        )
    for t in NB_SOUKS[SOUK_NB[s]]:
        if t != s and st.souk_own[t] == p and st.souk_n[t] < SOUK_SIZE[t]:
            return _("Finish your souk {souk} before opening another one there.").format(souk=souk_word(t))
    return _("You cannot put a cube there now.")


def move_note(st: State, p: int, command: str) -> str | None:
    """``move 4 west -1`` in words: ``3 steps, paying 1 gold`` (None for any other command)."""
    words = command.split()
    if words[:1] != ["move"] or not any(w[:1] in "+-" for w in words[2:]):
        return None
    try:
        move = parse_command(st, p, command)
    except MoveError:
        return None
    if move[0] != A_MOVE:
        return None
    dest = move[2]
    steps = DIST[st.sup][dest]
    cost = move_cost(st, p, st.tower_v[move[1]], dest)
    if steps == 0:
        walked = _("the supervisor stays")
    else:
        walked = ngettext("the supervisor goes {n} step", "the supervisor goes {n} steps", steps).format(
            n=steps
        )
    if cost:
        return _("{steps}, paying {gold} gold").format(steps=walked, gold=cost)
    return _("{steps}, at no cost").format(steps=walked)


def goods_text(camels: int, gold: int) -> str:
    """'4 camels and 2 gold', '1 camel', '3 gold' or 'nothing'."""
    parts = []
    if camels:
        parts.append(ngettext("{n} camel", "{n} camels", camels).format(n=camels))
    if gold:
        parts.append(_("{n} gold").format(n=gold))
    return _(" and ").join(parts) if parts else _("nothing")


def explain(st: State, seat: int, a: tuple[int, ...]) -> str:
    """A refusal message for an action that is not in ``legal(st)``."""
    who = actor(st)
    if st.phase == P_END:
        return _("The game is over.")
    if who != seat:
        return _("Not your decision now - {status}").format(status=status(st))
    kind, ph, p = a[0], st.phase, seat
    moves = brief(st, seat)
    if len(moves) > 200:
        moves = moves[:200].rsplit(";", 1)[0] + "; ... (/moves)"
    hint = _(" You can: {moves}").format(moves=moves)
    if ph == P_PROTECT and kind in (A_PLAY, A_EXTRA, A_BUILD) and seat != st.cur:
        return _("Cards are played only in your own turn: protect (1 camel) or let go.")
    if ph == P_PROTECT and kind == A_PROTECT and a[1] and not st.camels[p]:
        return _("You have no camel to pay; play a card for one first, or let go.")
    if ph == P_PROTECT and kind not in (A_PROTECT, A_PLAY):
        return _("First decide about your cube: protect (1 camel) or let go.")
    if ph == P_ORDER and kind != A_FIRST:
        return _("First choose which cube goes to the caravan first.") + hint
    if ph == P_PLACE and kind not in (A_PLACE, A_STOP):
        left = ngettext(
            "Finish placing your cubes first: {k} cube left.",
            "Finish placing your cubes first: {k} cubes left.",
            st.place_left,
        )
        return left.format(k=st.place_left) + hint
    if kind == A_YELLOW:
        if ph != P_ROLL:
            return _("The dice are already rolled today.")
        if a[1] > 3 or a[1] < 0:
            return _("You may buy 0 to 3 yellow dice.")
        return _("Yellow dice cost 1 gold each; you have {g} gold.").format(g=st.gold[p])
    if ph == P_ROLL and kind in (*MAIN, A_DONE, A_EXTRA, A_BUILD):
        return _("Roll the dice first: roll, or yellow N to add N yellow dice.")
    if kind in MAIN:
        if ph == P_BUILD:
            return _("You have already used your dice this turn.") + hint
        f = a[1]
        if st.extra and kind != A_TAKE:
            return _("Your extra die only works with take camels, take gold or deliver.")
        if f >= 0 and not group_size(st, p, f):
            if st.tower_y[f]:
                return _("Those dice are yellow: only the start player may use them.")
            return _("The {field} field has no dice.").format(field=field_word(f))
        if f < 0:
            return _("Say which dice you give up for the card, e.g. draw 4.") + hint
        if kind == A_TAKE:
            nb = NEIGHBOURHOOD_OF_FIELD[f]
            msg = _("No shop in {nb} is open to you (full or held by others); move or draw with these dice.")
            return msg.format(nb=neighbourhood_name(nb))
        if kind == A_MOVE:
            dest = a[2]
            if not st.opts["turn_at_crossing"] and dest not in [d for d, _x in REACH_STRAIGHT[st.sup]]:
                return _("At this table the supervisor may not turn at the crossing.")
            cost = move_cost(st, p, st.tower_v[f], dest)
            free = _(" (the hammam changes 3 for free)") if st.built[p] >> HAMMAM & 1 else ""
            return _("That changes the distance from {v} to {d}: {c} gold{free}, and you have {g}.").format(
                v=st.tower_v[f], d=DIST[st.sup][dest], c=cost, free=free, g=st.gold[p]
            )
        return _("That is not possible now.") + hint
    if kind == A_BUILD:
        _k, b, f, card = a
        if st.n == 2 and ph != P_ACTION:
            return _("With two players building is your action: build NAME with V instead of taking dice.")
        if st.n > 2 and ph == P_ACTION:
            return _("Build after your main action (take, deliver, move or draw first).")
        if st.n > 2 and st.built_turn:
            return _("Only one building per turn.")
        if st.built[p] >> b & 1:
            return _("You already have the {b}.").format(b=building_word(b))
        for used in discount_cards(card):
            if used not in st.hands[p]:
                return _("You do not hold {card}.").format(card=card_word(used))
        if card == BUILD_FREE and not st.opts["combine_discounts"]:
            return _("At this table only one discount card goes on a building (combine_discounts is off).")
        if f >= 0 and not group_size(st, p, f):
            return _("Those dice are not yours to take.")
        c, g = price(b, card)
        have = goods_text(st.camels[p], st.gold[p])
        if card >= 0:
            return _("With {cards} the {b} still costs {due}; you have {have}.").format(
                cards=said(discount_words(card)).split(" ", 1)[1],
                b=building_word(b),
                due=goods_text(c, g),
                have=have,
            )
        return _("The {b} costs {due}; you have {have}.").format(
            b=building_word(b), due=goods_text(c, g), have=have
        )
    if kind in (A_PLAY, A_EXTRA):
        k = a[1]
        if k not in st.hands[p]:
            return _("You do not hold {card}.").format(card=card_word(k))
        if ph not in (P_ROLL, P_ACTION, P_BUILD, P_PROTECT):
            return _("Not while placing cubes or choosing their order: play the card before or after.")
        if st.extra:
            return _("Take your boosted action first: take camels, take gold or deliver.")
        if kind == A_EXTRA:
            if ph != P_ACTION:
                return _("An extra die goes with taking dice: use it before take or deliver.")
            if not field_actions(st, p):
                return _("No take or deliver is possible now, so an extra die would be wasted.")
            return _("That is not possible now.") + hint
        x = a[2]
        if k == GOLD_FOR_VP:
            if not st.gold[p]:
                return _("You have no gold to pay.")
            return _("Pay 1 to {m} gold (at most {cap}, and you have {g} gold).").format(
                m=min(GOLD_FOR_VP_MAX, st.gold[p]), cap=GOLD_FOR_VP_MAX, g=st.gold[p]
            )
        if k == CAMELS_FOR_VP:
            if not st.camels[p]:
                return _("You have no camels to pay.")
            return _("Pay 1 to {m} camels (at most {cap}, and you have {c}).").format(
                m=min(CAMELS_FOR_VP_MAX, st.camels[p]),
                cap=CAMELS_FOR_VP_MAX,
                c=ngettext("{n} camel", "{n} camels", st.camels[p]).format(n=st.camels[p]),
            )
        if k == EXCHANGE:
            have = st.gold[p] if a[3] == 0 else st.camels[p]
            if not have:
                return _("You have none of those to give.")
            return _("You can give 1 to {h} of those.").format(h=have)
        if k == SOUK_CUBE:
            return _shop_reason(st, p, x, None)
        return _("That is not possible now.") + hint
    if kind == A_PLACE:
        return _shop_reason(st, p, a[1], st.place_nb if ph == P_PLACE else None)
    if kind == A_DONE:
        if ph == P_ACTION:
            return _("Take a dice group first (or draw when the tower is empty).") + hint
        return _("That is not possible now.") + hint
    if kind == A_STOP:
        return _("You must place every cube you legally can.")
    return _("That is not possible now.") + hint
