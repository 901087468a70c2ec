"""Text views: the public city, the private hand, the status line and short move lists.

Lines stay well under 300 characters and read without a monospace font.
"""

from __future__ import annotations

from bazaarbot.i18n import _, language, ngettext

from .board import (
    ARM_SPACES,
    ARMS,
    CROSSING,
    FIELD_NAMES,
    NB_SOUKS,
    SHOP_INTERIOR,
    SHOP_SOUK,
    SHOP_SPACES,
    SOUK_NAMES,
    SOUK_POINTS,
    SOUK_SHOPS,
    SOUK_SIZE,
    SPACE_NAMES,
    SPACE_SHOPS,
    neighbourhood_name,
)
from .cards import BUILDING_COST, BUILDING_IDS, CARD_IDS, building_text, card_text
from .parse import discount_words, format_action
from .rules import (
    A_BUILD,
    A_DONE,
    A_DRAW,
    A_EXTRA,
    A_MOVE,
    A_PLACE,
    A_PLAY,
    A_STOP,
    A_TAKE,
    A_YELLOW,
    actor,
    caravan_scores,
    legal,
    tower_text,
)
from .state import P_ACTION, P_END, P_ORDER, P_PLACE, P_PROTECT, P_ROLL, State
from .words import building_word, card_word, said, souk_word, w


def _buildings(st: State, p: int) -> str:
    names = [building_word(b) for b in range(6) if st.built[p] >> b & 1]
    return ", ".join(names) if names else _("no buildings")


def affordable(st: State, p: int) -> bool:
    """Whether p can pay for a building still to build with camels and gold alone."""
    return any(
        not st.built[p] >> b & 1 and st.camels[p] >= c and st.gold[p] >= g
        for b, (c, g) in enumerate(BUILDING_COST)
    )


def status(st: State) -> str:
    """Whose decision it is and what they are deciding, in one short line."""
    if st.phase == P_END:
        return _("The game is over.")
    p = st.cur
    name = st.players[p]
    ph = st.phase
    if ph == P_ROLL:
        k = min(3, st.gold[p])
        choices = w("roll") if not k else _("roll or yellow {n}").format(n="1" if k == 1 else f"1-{k}")
        return _("{name}: buy yellow dice and roll ({choices}).").format(name=name, choices=choices)
    if ph == P_ACTION:
        if st.extra:
            return _("{name}: extra die ready - take camels, take gold or deliver.").format(name=name)
        if not any(st.tower_w[f] + (st.tower_y[f] if p == st.start else 0) for f in range(6)):
            return _("{name}: no dice left for you - draw.").format(name=name)
        if st.n == 2 and affordable(st, p):
            line = _("{name}: pick dice - take, deliver, move, draw or build with them (tower: {tower}).")
        else:
            line = _("{name}: pick dice - take, deliver, move or draw (tower: {tower}).")
        return line.format(name=name, tower=tower_text(st))
    if ph == P_PLACE:
        if st.place_done:
            line = ngettext(
                "{name}: place {k} more cube in a souk of {nb}, e.g. {example}.",
                "{name}: place {k} more cubes in souks of {nb}, one at a time, e.g. {example}.",
                st.place_left,
            )
        else:
            line = ngettext(
                "{name}: place {k} cube in a souk of {nb}, e.g. {example}.",
                "{name}: place {k} cubes in souks of {nb}, one at a time, e.g. {example}.",
                st.place_left,
            )
        places = [a for a in legal(st) if a[0] == A_PLACE]
        example = said(format_action(st, places[0])) if places else w("place")
        text = line.format(name=name, k=st.place_left, nb=neighbourhood_name(st.place_nb), example=example)
        if (A_STOP,) in legal(st):
            text += " " + _("Or stop.")
        return text
    if ph == P_ORDER:
        opts = _(" or ").join(said("first " + SOUK_NAMES[SHOP_SOUK[sh]]) for sh in st.queue)
        return _("{name}: which cube goes to the caravan first? {opts}.").format(name=name, opts=opts)
    if ph == P_PROTECT:
        sh = st.queue[0]
        owner = st.shop[sh]
        if st.camels[owner] > 0 and owner == st.cur and st.hands[owner]:
            line = _(
                "{owner}: pay 1 camel to keep your cube in {souk}? protect or let go (cards may go first)."
            )
        elif st.camels[owner] > 0:
            line = _("{owner}: pay 1 camel to keep your cube in {souk}? protect or let go.")
        else:
            line = _("{owner}: your cube in {souk} is leaving - play a card first, or let go.")
        return line.format(owner=st.players[owner], souk=souk_word(SHOP_SOUK[sh]))
    # from public facts only: the board must not hint at which cards a hand holds
    can_build = st.n > 2 and not st.built_turn and affordable(st, p)
    can_play = bool(st.hands[p])
    if can_build and can_play:
        line = _("{name}: build, play cards, or done.")
    elif can_build:
        line = _("{name}: build, or done.")
    elif can_play:
        line = _("{name}: play cards, or done.")
    else:
        line = _("{name}: nothing to build now - done.")
    return line.format(name=name)


def _souk(st: State, s: int) -> str:
    owner = st.souk_own[s]
    filled = st.souk_n[s]
    text = f"{souk_word(s)}({SOUK_POINTS[s]}) "
    if owner < 0:
        return text + f"0/{SOUK_SIZE[s]}"
    text += f"{st.players[owner]} {filled}/{SOUK_SIZE[s]}"
    exposed = [
        SPACE_NAMES[sp]
        for sh in SOUK_SHOPS[s]
        if st.shop[sh] >= 0 and not SHOP_INTERIOR[sh]
        for sp in SHOP_SPACES[sh]
    ]
    if filled == SOUK_SIZE[s]:
        text += _(" done")
    if exposed:
        text += " @" + "/".join(exposed)
    return text


def road_map(lang: str | None = None) -> list[str]:
    """Which souks each road space touches, arm by arm from the crossing outwards (in ``lang``).

    The rules text is built once, in English, whatever language the bot speaks:
    it is the catalogue's key, and the translation carries the map in its language.
    """
    with language(lang):
        return _road_map()


def _road_map() -> list[str]:
    lines = []
    for arm, (name, _letter, _length) in enumerate(ARMS):
        spaces = []
        for sp in ARM_SPACES[arm]:
            souks = "+".join(souk_word(SHOP_SOUK[sh]) for sh in SPACE_SHOPS[sp])
            spaces.append(f"{SPACE_NAMES[sp]} {souks}")
        lines.append(f"{w(name)}: " + ", ".join(spaces))
    return lines


def turn_order_line(st: State) -> str:
    """Today's turns in order, the one being played marked (two players: start, other, start)."""
    names = []
    for i, q in enumerate(st.order):
        name = st.players[q]
        names.append(f"[{name}]" if i == st.turn and st.phase != P_ROLL else name)
    return _("Turns today: {order}.").format(order=", ".join(names))


def cards_line(st: State) -> str:
    """The public side of the cards: how many are left to draw, and the face-up discard pile."""
    pile = ngettext("{n} card in the draw pile", "{n} cards in the draw pile", len(st.pile)).format(
        n=len(st.pile)
    )
    if not st.discard:
        return _("Cards: {pile}; no discards.").format(pile=pile)
    shown = ", ".join(card_word(k) for k in st.discard)
    return _("Cards: {pile}; discards, oldest first: {shown}.").format(pile=pile, shown=shown)


def road_drawing(st: State) -> str:
    """The cross-shaped road in one line, the supervisor a ``*`` on his space: west to east through the
    crossing ``X``, then the north and south arms from the crossing outwards (a space is a ``-``)."""

    def arm(index: int, outwards: bool = True) -> str:
        spaces = ARM_SPACES[index] if outwards else list(reversed(ARM_SPACES[index]))
        return "".join("*" if space == st.sup else "-" for space in spaces)

    crossing = "*" if st.sup == CROSSING else "X"
    (_w, west, west_length), (_e, east, east_length), (_n, north, north_length), (_s, south, south_length) = (
        ARMS
    )
    return _("Road {west}-{east}: {across}; {north}: X{north_arm}; {south}: X{south_arm}.").format(
        west=f"{west}{west_length}",
        east=f"{east}{east_length}",
        across=arm(0, outwards=False) + crossing + arm(1),
        north=f"{north}1-{north}{north_length}",
        north_arm=arm(2),
        south=f"{south}1-{south}{south_length}",
        south_arm=arm(3),
    )


def board(st: State) -> str:
    """The whole city in six lines at most: time, tower and turns; the souks in two lines; the road
    drawn with the supervisor, the caravan and the cards; the players; whose turn it is."""
    lines = []
    if st.phase == P_END:
        lines.append(_("Yspahan - game over after week {w}.").format(w=st.week))
    else:
        start = st.players[st.start]
        head = _("Yspahan - week {w}/3, day {d}/7, start player {s}.").format(w=st.week, d=st.day, s=start)
        tower = _("not rolled yet") if st.phase == P_ROLL else tower_text(st)
        lines.append(" ".join([head, _("Tower: {t}.").format(t=tower), turn_order_line(st)]))
    neighbourhoods = [
        f"{neighbourhood_name(nb)}: " + " | ".join(_souk(st, s) for s in NB_SOUKS[nb]) for nb in range(4)
    ]
    lines += [" \u00b7 ".join(neighbourhoods[0:2]), " \u00b7 ".join(neighbourhoods[2:4])]
    near = [souk_word(SHOP_SOUK[sh]) for sh in SPACE_SHOPS[st.sup]]
    supervisor = _("Supervisor at {space}{near}.").format(
        space=SPACE_NAMES[st.sup], near=" (" + ", ".join(near) + ")" if near else ""
    )
    if st.caravan:
        per = st.per_row
        rows = []
        for r in range(3):
            cubes = st.caravan[r * per : (r + 1) * per]
            if cubes:
                rows.append(_("row {r}: {who}").format(r=r + 1, who=" ".join(st.players[q] for q in cubes)))
        pts = caravan_scores(st)
        worth = ", ".join(f"{st.players[q]} {pts[q]}" for q in range(st.n) if pts[q])
        caravan = _("Caravan {k}/{cap}: {rows} (worth now: {worth}).").format(
            k=len(st.caravan), cap=st.cap, rows="; ".join(rows), worth=worth
        )
    else:
        caravan = _("Caravan 0/{cap}: empty.").format(cap=st.cap)
    lines.append(" ".join([road_drawing(st), supervisor, caravan, cards_line(st)]))
    players = [
        _("{name}: {score}, {gold} gold, {camels}, {cards}, {b}.").format(
            name=st.players[p],
            score=ngettext("{n} point", "{n} points", st.score[p]).format(n=st.score[p]),
            gold=st.gold[p],
            camels=ngettext("{n} camel", "{n} camels", st.camels[p]).format(n=st.camels[p]),
            cards=ngettext("{n} card", "{n} cards", len(st.hands[p])).format(n=len(st.hands[p])),
            b=_buildings(st, p),
        )
        for p in range(st.n)
    ]
    lines.append(" | ".join(players))
    if st.phase != P_END:
        lines.append(_("Now: {s}").format(s=status(st)))
    return "\n".join(lines)


def private_view(st: State, seat: int) -> str:
    """The seat's hand with what each card does."""
    hand = st.hands[seat]
    if not hand:
        lines = [_("Your hand: no cards.")]
    else:
        lines = [ngettext("Your hand ({k} card):", "Your hand ({k} cards):", len(hand)).format(k=len(hand))]
        for k in sorted(set(hand)):
            count = hand.count(k)
            times = f" x{count}" if count > 1 else ""
            lines.append(f"{card_word(k)}{times} - {card_text(k)}")
        lines.append(_("Any card can also be discarded as an extra die: extra CARD."))
    missing = [f"{building_word(b)} ({building_text(b)})" for b in range(6) if not st.built[seat] >> b & 1]
    if missing:
        lines.append(_("Still to build: {b}.").format(b="; ".join(missing[:3])))
        if len(missing) > 3:
            lines.append("; ".join(missing[3:]) + ".")
    return "\n".join(lines)


def brief(st: State, seat: int) -> str:
    """One short line summing up the legal commands (details shrink when the line gets long)."""
    if actor(st) != seat:
        return _("(not your decision now)") if st.phase != P_END else _("(game over)")
    head: list[str] = []
    tail: list[str] = []
    takes: list[str] = []
    delivers: list[str] = []
    moves: list[str] = []
    draws: list[str] = []
    yellows: list[int] = []
    plays: dict[int, list[tuple[int, ...]]] = {}
    extras: list[str] = []
    builds_by: dict[str, list[str]] = {}
    for a in legal(st):
        kind = a[0]
        if kind == A_MOVE:
            v = str(st.tower_v[a[1]])
            if v not in moves:
                moves.append(v)
        elif kind == A_TAKE:
            (takes if a[1] in (0, 5) else delivers).append(w(FIELD_NAMES[a[1]]))
        elif kind == A_DRAW:
            draws.append(str(st.tower_v[a[1]]) if a[1] >= 0 else "")
        elif kind == A_YELLOW:
            yellows.append(a[1])
        elif kind == A_PLAY:
            plays.setdefault(a[1], []).append(a)
        elif kind == A_EXTRA:
            extras.append(w(CARD_IDS[a[1]]))
        elif kind == A_BUILD:
            key = w("build") if a[3] < 0 else said(discount_words(a[3]))
            names = builds_by.setdefault(key, [])
            if w(BUILDING_IDS[a[1]]) not in names:
                names.append(w(BUILDING_IDS[a[1]]))
        elif kind == A_DONE:
            tail.append(said(format_action(st, a)))
        else:
            head.append(said(format_action(st, a)))
    if yellows:
        top = max(yellows)
        head.append(
            w("roll") + ("" if not top else f" | {w('yellow')} 1-{top}" if top > 1 else f" | {w('yellow')} 1")
        )
    if takes:
        head.append(w("take") + " " + "|".join(takes))
    if delivers:
        head.append(w("deliver") + " " + "|".join(delivers))
    if moves:
        head.append(_("move {vs} DIR [+K/-K]").format(vs="|".join(moves)))
    if draws:
        head.append((w("draw") + " " + "|".join(draws)).strip())
    for key, names in builds_by.items():
        shown = "|".join(names) if key == w("build") else _("NAME")
        head.append(f"{key} {shown}" + (f" {w('with')} V" if st.n == 2 else ""))
    cards: list[str] = []
    for k, items in plays.items():
        if len(items) == 1:
            cards.append(said(format_action(st, items[0])))
        elif k == 5:
            cards.append(f"{said('play souk_cube')} " + _("SOUK [SPACE]"))
        elif k == 8:
            cards.append(f"{said('play exchange')} N {w('gold')}|{w('camels')}")
        else:
            cards.append(f"{said('play ' + CARD_IDS[k])} 1-{max(x[2] for x in items)}")
    extra = [w("extra") + " " + "|".join(extras)] if extras else []
    text = "; ".join(head + cards + extra + tail)
    if len(text) > 280 and extra:
        extra = [w("extra") + " " + _("CARD")]
        text = "; ".join(head + cards + extra + tail)
    if len(text) > 280 and cards:
        cards = [_("play CARD (see /hand)")]
        text = "; ".join(head + cards + extra + tail)
    return text
