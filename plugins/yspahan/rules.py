"""The rules engine: decision points, legal actions and their effects.

Actions are small tuples of ints (the first item is the kind), so the AI and
the benchmark can enumerate and play them without any text. ``legal`` lists
every action at the current decision point; ``step`` plays one without
checking it (callers check membership in ``legal``); ``advance`` plays the
forced steps (a single legal action) so a person is only asked real questions.
``ev`` is an Outcome collecting sentences, or None on the fast path.
"""

from __future__ import annotations

import random
from typing import Any

from bazaarbot.i18n import _, in_each_language, ngettext
from bazaarbot.plugin import Outcome

from .board import (
    CAMELS,
    CROSSING,
    DIST,
    GOLD,
    N_SPACES,
    NB_SOUKS,
    NEIGHBOURHOOD_OF_FIELD,
    REACH_STRAIGHT,
    REACH_TURN,
    SHOP_INTERIOR,
    SHOP_SOUK,
    SOUK_NAMES,
    SOUK_POINTS,
    SOUK_SHOPS,
    SOUK_SIZE,
    SPACE_NAMES,
    SPACE_SHOPS,
    neighbourhood_name,
)
from .cards import (
    BAZAAR,
    BAZAAR_BONUS,
    BUILD_FREE,
    BUILD_NO_CAMELS,
    BUILD_NO_GOLD,
    BUILDING_COST,
    BUILDING_IDS,
    BUILDING_POINTS,
    CAMELS3,
    CAMELS_FOR_VP,
    CAMELS_FOR_VP_MAX,
    CARAVAN_CUBE,
    CARAVANSERAI,
    CARD_IDS,
    CARDS_PER_DRAW,
    COPIES_PER_KIND,
    EXCHANGE,
    EXTRA_DICE_PER_ACTION,
    GOLD3,
    GOLD_FOR_VP,
    GOLD_FOR_VP_MAX,
    HAMMAM,
    HAMMAM_FREE_STEPS,
    HOIST,
    HOIST_BONUS,
    PADDOCK,
    PADDOCK_BONUS,
    SHOP,
    SHOP_BONUS,
    SOUK_CUBE,
    VP_PER_CAMEL,
)
from .state import P_ACTION, P_BUILD, P_END, P_ORDER, P_PLACE, P_PROTECT, P_ROLL, State
from .words import building_word, card_word, field_word, shop_word

# action kinds
A_YELLOW, A_TAKE, A_MOVE, A_DRAW, A_BUILD, A_PLACE = range(6)
A_STOP, A_FIRST, A_PROTECT, A_PLAY, A_EXTRA, A_DONE = range(6, 12)

WEEKS = 3
DAYS = 7
WHITE_DICE = {2: 8, 3: 9, 4: 9}
MAX_YELLOW = 3
YELLOW_PRICE = 1
START_GOLD = 2
ARRIVAL_POINTS = (2, 1, 0)  # bottom, middle, top row of the caravan
DONE = (A_DONE,)


def _move_table(reach: list[tuple[tuple[int, int], ...]]) -> list[list[list[tuple[tuple[int, ...], ...]]]]:
    """MOVES[field][from][distance] = the move actions of that length, built once."""
    longest = max(d for row in reach for _b, d in row)
    return [
        [
            [tuple((A_MOVE, f, b) for b, d in reach[a] if d == k) for k in range(longest + 1)]
            for a in range(N_SPACES)
        ]
        for f in range(6)
    ]


MOVES_TURN = _move_table(REACH_TURN)
MOVES_STRAIGHT = _move_table(REACH_STRAIGHT)

DEFAULT_OPTIONS: dict[str, Any] = {
    "must_place_all": True,
    "caravanserai_card": True,
    "reshuffle": True,
    "zero_move_sends": True,
    "turn_at_crossing": True,
    "first_player": "random",
    "combine_discounts": True,
    "hoist_optional": True,
}


# --- setup and the day cycle --------------------------------------------------------------
def setup(players: list[str], rng: random.Random, options: dict[str, Any]) -> State:
    """A fresh game: 2 gold each, shuffled cards, supervisor on the crossing, week 1 day 1."""
    n = len(players)
    opts = dict(DEFAULT_OPTIONS)
    opts.update({k: v for k, v in options.items() if k in DEFAULT_OPTIONS})
    st = State.__new__(State)
    st.players = list(players)
    st.opts = opts
    st.rng = rng
    st.n = n
    st.week = 1
    st.day = 1
    st.start = rng.randrange(n) if opts["first_player"] == "random" else 0
    st.order = []
    st.turn = 0
    st.cur = st.start
    st.phase = P_ROLL
    st.tower_v = [0] * 6
    st.tower_w = [0] * 6
    st.tower_y = [0] * 6
    st.shop = [-1] * len(SHOP_SOUK)
    st.souk_n = [0] * len(SOUK_NAMES)
    st.souk_own = [-1] * len(SOUK_NAMES)
    st.sup = CROSSING
    st.caravan = []
    st.per_row = {2: 2, 3: 3}.get(n, 4)
    st.cap = st.per_row * 3
    st.gold = [START_GOLD] * n
    st.camels = [0] * n
    st.built = [0] * n
    st.nbuilt = [0] * n
    st.score = [0] * n
    st.pile = [k for k in range(len(CARD_IDS)) for _c in range(COPIES_PER_KIND)]
    rng.shuffle(st.pile)
    st.discard = []
    st.hands = [[] for _p in range(n)]
    st.log = [[] for _p in range(n)]
    st.queue = []
    st.extra = 0
    st.built_turn = 0
    st.place_nb = -1
    st.place_left = 0
    st.place_done = 0
    st.place_free = 0
    st.mover = -1
    _start_day(st, None)
    return st


def _start_day(st: State, ev: Outcome | None) -> None:
    n = st.n
    last = st.week == WEEKS and st.day == DAYS
    if last and n == 4:
        day6 = (st.start - 1) % n
        st.order = sorted(range(n), key=lambda q: (st.score[q], -((q - day6) % n)))
        st.start = st.order[0]
    else:
        if last and n == 2 and st.score[0] != st.score[1]:
            st.start = 0 if st.score[0] < st.score[1] else 1
        s = st.start
        st.order = [s, 1 - s, s] if n == 2 else [(s + i) % n for i in range(n)]
    st.turn = 0
    st.cur = st.start
    st.phase = P_ROLL
    if ev is not None:
        line = _("Week {week}, day {day}: {name} is start player.").format(
            week=st.week, day=st.day, name=st.players[st.start]
        )
        if last and n == 4:
            line += " " + _("Last day, lowest score first: {order}.").format(
                order=", ".join(st.players[q] for q in st.order)
            )
        ev.public.append(line)


def _end_turn(st: State, ev: Outcome | None) -> None:
    st.extra = 0
    st.built_turn = 0
    st.turn += 1
    if st.turn >= len(st.order):
        _end_day(st, ev)
    else:
        st.cur = st.order[st.turn]
        st.phase = P_ACTION


def _end_day(st: State, ev: Outcome | None) -> None:
    for f in range(6):
        st.tower_v[f] = st.tower_w[f] = st.tower_y[f] = 0
    if st.day == DAYS:
        _end_week(st, ev)
        if st.phase == P_END:
            return
        st.day = 1
    else:
        st.day += 1
    st.start = (st.start + 1) % st.n
    _start_day(st, ev)


def _end_week(st: State, ev: Outcome | None) -> None:
    gains = [0] * st.n
    for s in range(len(SOUK_NAMES)):
        owner = st.souk_own[s]
        if owner >= 0 and st.souk_n[s] == SOUK_SIZE[s]:
            _score(st, owner, SOUK_POINTS[s], "souk " + SOUK_NAMES[s])
            gains[owner] += SOUK_POINTS[s]
            if st.built[owner] >> BAZAAR & 1:
                _score(st, owner, BAZAAR_BONUS, "bazaar " + SOUK_NAMES[s])
                gains[owner] += BAZAAR_BONUS
    for sh in range(len(st.shop)):
        st.shop[sh] = -1
    for s in range(len(SOUK_NAMES)):
        st.souk_n[s] = 0
        st.souk_own[s] = -1
    if ev is not None:
        parts = [f"{st.players[p]} +{gains[p]}" for p in range(st.n) if gains[p]]
        ev.public.append(
            _("End of week {week}. Souks: {parts}.").format(week=st.week, parts=", ".join(parts) or _("none"))
        )
    _score_caravan(st, ev, "caravan week")
    st.sup = CROSSING
    if st.week == WEEKS:
        st.phase = P_END
        st.order = []
        st.cur = -1
        if ev is not None:
            ev.public.append(
                _("Final scores: {scores}.").format(
                    scores=", ".join(f"{st.players[p]} {st.score[p]}" for p in range(st.n))
                )
            )
        return
    st.week += 1


# --- scoring, cards, caravan ----------------------------------------------------------
def _score(st: State, p: int, points: int, reason: str) -> None:
    if points:
        st.score[p] += points
        st.log[p].append([points, reason])


def _draw(st: State, p: int, ev: Outcome | None) -> bool:
    """Draw the top card into p's hand; reshuffle the discards when the pile is empty."""
    if not st.pile and st.discard and st.opts["reshuffle"]:
        st.pile = st.discard
        st.discard = []
        st.rng.shuffle(st.pile)
        if ev is not None:
            ev.public.append(_("The discards are shuffled into a new draw pile."))
    if not st.pile:
        if ev is not None:
            ev.public.append(_("{name} would draw a card, but none is left.").format(name=st.players[p]))
        return False
    card = st.pile.pop()
    st.hands[p].append(card)
    if ev is not None:
        ev.private.setdefault(p, []).append(_("You drew {card}.").format(card=card_word(card)))
    return True


def caravan_scores(st: State) -> list[int]:
    """What every player would score for the caravan now: own cubes x highest own row."""
    counts = [0] * st.n
    rows = [0] * st.n
    per = st.per_row
    for i, p in enumerate(st.caravan):
        counts[p] += 1
        rows[p] = i // per + 1
    return [counts[p] * rows[p] for p in range(st.n)]


def _score_caravan(st: State, ev: Outcome | None, reason: str) -> None:
    pts = caravan_scores(st)
    for p in range(st.n):
        _score(st, p, pts[p], reason)
    if ev is not None:
        parts = [f"{st.players[p]} +{pts[p]}" for p in range(st.n) if pts[p]]
        what = _("Caravan full") if reason == "caravan full" else _("Caravan scoring")
        ev.public.append(f"{what}: {', '.join(parts) or _('nobody scores')}.")


def _to_caravan(st: State, p: int, ev: Outcome | None, by_card: bool = False) -> None:
    pos = len(st.caravan)
    st.caravan.append(p)
    _score(st, p, ARRIVAL_POINTS[pos // st.per_row], "caravan arrival")
    if st.built[p] >> CARAVANSERAI & 1 and (not by_card or st.opts["caravanserai_card"]):
        for _i in range(CARDS_PER_DRAW):
            _draw(st, p, ev)
    if len(st.caravan) == st.cap:
        _score_caravan(st, ev, "caravan full")
        st.caravan.clear()


# --- the tower ------------------------------------------------------------------------------
def assign_tower(values: list[int], yellow: list[bool]) -> tuple[list[int], list[int], list[int]]:
    """Sort rolled dice onto the six fields (rules 4.2): lowest on camels, highest on gold."""
    cw = [0] * 7
    cy = [0] * 7
    for v, y in zip(values, yellow, strict=True):
        if y:
            cy[v] += 1
        else:
            cw[v] += 1
    return _tower(cw, cy)


def _tower(cw: list[int], cy: list[int]) -> tuple[list[int], list[int], list[int]]:
    """The tower from the count of white and yellow dice of each value (index 1-6)."""
    present = [v for v in range(1, 7) if cw[v] or cy[v]]
    tv, tw, ty = [0] * 6, [0] * 6, [0] * 6
    fields = [CAMELS] if len(present) == 1 else [CAMELS, *range(1, len(present) - 1), GOLD]
    for f, v in zip(fields, present, strict=True):
        tv[f], tw[f], ty[f] = v, cw[v], cy[v]
    return tv, tw, ty


def _roll(st: State, k: int, ev: Outcome | None) -> None:
    p = st.cur
    st.gold[p] -= k * YELLOW_PRICE
    rnd = st.rng.random
    white = WHITE_DICE[st.n]
    # counted as rolled, white dice first (as ``assign_tower`` takes them), without a list of values
    cw = [0] * 7
    cy = [0] * 7
    for _i in range(white):
        cw[int(rnd() * 6) + 1] += 1
    for _i in range(k):
        cy[int(rnd() * 6) + 1] += 1
    st.tower_v, st.tower_w, st.tower_y = _tower(cw, cy)
    st.phase = P_ACTION
    if ev is not None:
        if k:
            line = ngettext(
                "{name} buys {k} yellow die and rolls.", "{name} buys {k} yellow dice and rolls.", k
            )
        else:
            line = _("{name} rolls.")
        ev.public.append(line.format(name=st.players[p], k=k))


def tower_text(st: State) -> str:
    """The dice on the tower, e.g. 'camels 3x1, sacks 2x2 (1 yellow), gold 1x6', said in every
    language: a line quoting it (a public prompt) re-renders its field names for each reader."""
    return in_each_language(lambda: _tower_text_now(st))


def _tower_text_now(st: State) -> str:
    parts = []
    for f in range(6):
        c = st.tower_w[f] + st.tower_y[f]
        if c:
            text = f"{field_word(f)} {c}x{st.tower_v[f]}"
            if st.tower_y[f]:
                text += _(" ({y} yellow)").format(y=st.tower_y[f])
            parts.append(text)
    return ", ".join(parts) or _("no dice left")


def group_size(st: State, p: int, f: int) -> int:
    """How many dice of field f count for player p (yellow dice only for the start player)."""
    return st.tower_w[f] + (st.tower_y[f] if p == st.start else 0)


def _take_group(st: State, p: int, f: int) -> tuple[int, int]:
    count = group_size(st, p, f)
    value = st.tower_v[f]
    st.tower_v[f] = st.tower_w[f] = st.tower_y[f] = 0
    if st.n > 2 and p == st.start:
        # yellow dice leave the tower once the start player has acted; no re-sorting
        for g in range(6):
            if st.tower_y[g]:
                st.tower_y[g] = 0
                if not st.tower_w[g]:
                    st.tower_v[g] = 0
    return count, value


# --- souks --------------------------------------------------------------------------------------
def place_options(st: State, p: int, nb: int) -> list[int]:
    """Shops p may put the next cube in, one per distinct choice (inner shops of a souk are alike).

    A souk holding another player's cube is closed; an own unfinished souk in the
    neighbourhood must be filled before another is opened.
    """
    souks = NB_SOUKS[nb]
    own = st.souk_own
    cnt = st.souk_n
    mine = [s for s in souks if own[s] == p and cnt[s] < SOUK_SIZE[s]]
    if not mine:
        mine = [s for s in souks if own[s] < 0]
    shop = st.shop
    res = []
    for s in mine:
        inner = False
        for sh in SOUK_SHOPS[s]:
            if shop[sh] < 0:
                if SHOP_INTERIOR[sh]:
                    if inner:
                        continue
                    inner = True
                res.append(sh)
    return res


def can_deliver(st: State, p: int, nb: int) -> bool:
    """Whether at least one cube could go into neighbourhood nb."""
    return _deliverable(st.souk_own, st.souk_n, p, nb)


def _put(st: State, p: int, sh: int) -> None:
    st.shop[sh] = p
    s = SHOP_SOUK[sh]
    st.souk_n[s] += 1
    st.souk_own[s] = p


def _remove(st: State, sh: int) -> None:
    st.shop[sh] = -1
    s = SHOP_SOUK[sh]
    st.souk_n[s] -= 1
    if not st.souk_n[s]:
        st.souk_own[s] = -1


def _continue_place(st: State, ev: Outcome | None) -> None:
    """Place cubes while there is no real choice; stop at a choice or when done."""
    p = st.cur
    placed: list[str] = []
    chosen_before = st.place_done
    while st.place_left > 0:
        opts = place_options(st, p, st.place_nb)
        if not opts:
            break
        forced = st.place_left - st.place_free
        if not st.opts["must_place_all"] or forced <= 0:
            st.phase = P_PLACE
            break
        if len(opts) == 1:
            _put(st, p, opts[0])
            st.place_left -= 1
            st.place_done += 1
            placed.append(shop_word(opts[0]))
            continue
        s = SHOP_SOUK[opts[0]]
        if all(SHOP_SOUK[o] == s for o in opts) and forced >= SOUK_SIZE[s] - st.souk_n[s]:
            for sh in SOUK_SHOPS[s]:
                if st.shop[sh] < 0:
                    _put(st, p, sh)
                    st.place_left -= 1
                    st.place_done += 1
                    placed.append(shop_word(sh))
            continue
        st.phase = P_PLACE
        break
    if ev is not None and placed:
        ev.public.append(placed_line(st.players[p], placed, chosen_before > 0))
    if st.phase == P_PLACE and st.place_left > 0 and place_options(st, p, st.place_nb):
        return
    _finish_place(st, ev)


def placed_line(name: str, shops: list[str], after_choices: bool) -> str:
    """The cubes that had only one place to go, said as the rest of the player's placing, in one sentence."""
    where = ", ".join(shops)
    if after_choices:
        return ngettext(
            "{name} places the last cube in {shops}.", "{name} places the other cubes in {shops}.", len(shops)
        ).format(name=name, shops=where)
    return ngettext(
        "{name} places the cube in {shops}.", "{name} places the cubes in {shops}.", len(shops)
    ).format(name=name, shops=where)


def _finish_place(st: State, ev: Outcome | None, chosen: bool = False) -> None:
    """End a delivery; ``chosen`` when the player stopped by choice rather than for want of shops."""
    if ev is not None and st.place_left:
        if chosen:
            line = ngettext(
                "{name} stops placing: {k} cube goes back to the supply by choice.",
                "{name} stops placing: {k} cubes go back to the supply by choice.",
                st.place_left,
            )
        else:
            line = ngettext(
                "{k} cube cannot be placed and goes back to {name}'s supply.",
                "{k} cubes cannot be placed and go back to {name}'s supply.",
                st.place_left,
            )
        ev.public.append(line.format(k=st.place_left, name=st.players[st.cur]))
    st.place_left = 0
    st.place_done = 0
    st.place_free = 0
    st.place_nb = -1
    _after_main(st, ev)


def _after_main(st: State, ev: Outcome | None) -> None:
    st.phase = P_BUILD


# --- the supervisor ------------------------------------------------------------------------
def move_cost(st: State, p: int, value: int, dest: int) -> int:
    """Gold p pays to move the supervisor from its place to dest with dice of this value."""
    change = abs(DIST[st.sup][dest] - value)
    if st.built[p] >> HAMMAM & 1:
        change -= HAMMAM_FREE_STEPS
    return change if change > 0 else 0


def _continue_queue(st: State, ev: Outcome | None) -> None:
    """Send the cubes next to the supervisor to the caravan, asking owners who could protect."""
    while st.queue:
        sh = st.queue[0]
        owner = st.shop[sh]
        # the mover may play a card first; asked whenever he holds any (a public count, so no leak)
        if st.camels[owner] > 0 or (owner == st.cur and st.hands[owner]):
            st.phase = P_PROTECT
            return
        _remove(st, sh)
        st.queue.pop(0)
        if ev is not None:
            ev.public.append(
                _("{owner}'s cube from {shop} goes to the caravan.").format(
                    owner=st.players[owner], shop=shop_word(sh, st.sup)
                )
            )
        _to_caravan(st, owner, ev)
    st.mover = -1
    _after_main(st, ev)


# --- legal actions ------------------------------------------------------------------------------
#: the card plays that need nothing but the card, and those counted out by an amount, longest first
#: (a slice gives the plays up to what the player holds)
SIMPLE_PLAYS = {k: (A_PLAY, k, 0, 0) for k in (CAMELS3, GOLD3, CARAVAN_CUBE)}
PLAY_AMOUNTS = 64
GOLD_FOR_VP_PLAYS = tuple((A_PLAY, GOLD_FOR_VP, x, 0) for x in range(1, GOLD_FOR_VP_MAX + 1))
CAMELS_FOR_VP_PLAYS = tuple((A_PLAY, CAMELS_FOR_VP, x, 0) for x in range(1, CAMELS_FOR_VP_MAX + 1))
EXCHANGE_GOLD_PLAYS = tuple((A_PLAY, EXCHANGE, x, 0) for x in range(1, PLAY_AMOUNTS + 1))
EXCHANGE_CAMEL_PLAYS = tuple((A_PLAY, EXCHANGE, x, 1) for x in range(1, PLAY_AMOUNTS + 1))


def _counted(plays: tuple[tuple[int, ...], ...], amount: int) -> tuple[tuple[int, ...], ...] | list:
    """The first ``amount`` of ``plays`` (made up when a hoard outgrows the table)."""
    if amount <= 0:
        return ()
    if amount <= len(plays):
        return plays[:amount]
    _a, k, _x, y = plays[0]
    return [(A_PLAY, k, x, y) for x in range(1, amount + 1)]


Plays = tuple[tuple[int, ...], ...]
HandPlays = tuple[Plays, bool, Plays]
#: the card plays of a hand that take nothing from the board, by (kinds held, gold, camels): those
#: of the kinds before the souk cube card, whether that one is held, those after it (the search
#: lists a hand's plays at most of its steps, and the same few hands come back again and again)
_HAND_PLAYS: dict[tuple[frozenset[int], int, int], HandPlays] = {}
#: more keys than this and the table is started afresh (a long game never grows it without end)
HAND_PLAYS_KEPT = 65536


def _hand_plays(kinds: frozenset[int], gold: int, camels: int) -> HandPlays:
    before: list[tuple[int, ...]] = []
    after: list[tuple[int, ...]] = []
    souk_cube = False
    for k in sorted(kinds):
        plays = after if souk_cube else before
        simple = SIMPLE_PLAYS.get(k)
        if simple is not None:
            plays.append(simple)
        elif k == SOUK_CUBE:
            souk_cube = True
        elif k == GOLD_FOR_VP:
            plays.extend(_counted(GOLD_FOR_VP_PLAYS, min(GOLD_FOR_VP_MAX, gold)))
        elif k == CAMELS_FOR_VP:
            plays.extend(_counted(CAMELS_FOR_VP_PLAYS, min(CAMELS_FOR_VP_MAX, camels)))
        elif k == EXCHANGE:
            plays.extend(_counted(EXCHANGE_GOLD_PLAYS, gold))
            plays.extend(_counted(EXCHANGE_CAMEL_PLAYS, camels))
    return tuple(before), souk_cube, tuple(after)


def _card_plays(st: State, p: int, acts: list[tuple[int, ...]]) -> None:
    """The cards ``p`` may play now, kind by kind in order of kind."""
    hand = st.hands[p]
    if not hand:
        return
    key = (frozenset(hand), st.gold[p], st.camels[p])
    plays = _HAND_PLAYS.get(key)
    if plays is None:
        if len(_HAND_PLAYS) >= HAND_PLAYS_KEPT:
            _HAND_PLAYS.clear()
        plays = _HAND_PLAYS[key] = _hand_plays(*key)
    before, souk_cube, after = plays
    acts.extend(before)
    if souk_cube:
        for nb in range(4):
            for sh in place_options(st, p, nb):
                acts.append((A_PLAY, SOUK_CUBE, sh, 0))
    acts.extend(after)


#: the build actions open to a player, by what decides them (see ``_build_options``), worked out once
_BUILD_OPTIONS: dict[tuple[int, int, int, int, bool, bool, bool], tuple[tuple[int, ...], ...]] = {}
#: no building costs more than this many camels or gold
MOST_COST = max(max(cost) for cost in BUILDING_COST)


def _build_options(
    built: int, camels: int, gold: int, f: int, no_camels: bool, no_gold: bool, both: bool
) -> tuple[tuple[int, ...], ...]:
    acts = []
    for b in range(6):
        if built >> b & 1:
            continue
        c, g = BUILDING_COST[b]
        if camels >= c and gold >= g:
            acts.append((A_BUILD, b, f, -1))
        if no_camels and gold >= g:
            acts.append((A_BUILD, b, f, BUILD_NO_CAMELS))
        if no_gold and camels >= c:
            acts.append((A_BUILD, b, f, BUILD_NO_GOLD))
        if both:
            acts.append((A_BUILD, b, f, BUILD_FREE))
    return tuple(acts)


def _builds(st: State, p: int, f: int, acts: list[tuple[int, ...]]) -> None:
    hand = st.hands[p]
    no_camels = BUILD_NO_CAMELS in hand
    no_gold = BUILD_NO_GOLD in hand
    both = no_camels and no_gold and st.opts["combine_discounts"]
    # beyond the dearest building more camels or gold change nothing
    camels = st.camels[p]
    gold = st.gold[p]
    key = (
        st.built[p],
        camels if camels < MOST_COST else MOST_COST,
        gold if gold < MOST_COST else MOST_COST,
        f,
        no_camels,
        no_gold,
        both,
    )
    options = _BUILD_OPTIONS.get(key)
    if options is None:
        options = _BUILD_OPTIONS[key] = _build_options(*key)
    acts.extend(options)


#: the action tuples that take no argument from the state, built once (the search lists them often)
TAKES = tuple((A_TAKE, f) for f in range(6))
DRAWS = tuple((A_DRAW, f) for f in range(6))
DRAW_BLIND = (A_DRAW, -1)
EXTRAS = tuple((A_EXTRA, k) for k in range(len(CARD_IDS)))
#: the neighbourhood of each field, None for camels and gold
NB_OF_FIELD = tuple(NEIGHBOURHOOD_OF_FIELD.get(f) for f in range(6))


#: a hand's extra-die actions (one per kind of card held, in order of kind), by the kinds held
_EXTRAS_OF: dict[frozenset[int], tuple[tuple[int, ...], ...]] = {}


def _extras_of(hand: list[int]) -> tuple[tuple[int, ...], ...]:
    kinds = frozenset(hand)
    extras = _EXTRAS_OF.get(kinds)
    if extras is None:  # at most one entry per set of kinds: a few hundred
        extras = _EXTRAS_OF[kinds] = tuple(EXTRAS[k] for k in sorted(kinds))
    return extras


def _flat_moves(table: list[list[list[tuple[tuple[int, ...], ...]]]]) -> list[list[tuple[tuple, list[int]]]]:
    """Per field and supervisor space: every move nearest first, and where each distance begins."""
    flat = []
    for by_space in table:
        row = []
        for by_dist in by_space:
            moves: list[tuple[int, ...]] = []
            begins = []
            for group in by_dist:
                begins.append(len(moves))
                moves.extend(group)
            begins.append(len(moves))
            row.append((tuple(moves), begins))
        flat.append(row)
    return flat


FLAT_TURN = _flat_moves(MOVES_TURN)
FLAT_STRAIGHT = _flat_moves(MOVES_STRAIGHT)


def _deliverable(own: list[int], count: list[int], p: int, nb: int) -> bool:
    """``can_deliver`` on the lists themselves (the search's hot path)."""
    for s in NB_SOUKS[nb]:
        owner = own[s]
        if owner < 0 or owner == p and count[s] < SOUK_SIZE[s]:
            return True
    return False


def field_actions(st: State, p: int) -> list[tuple[int, ...]]:
    """take camels / take gold / deliver: the actions an extra die can boost."""
    tw = st.tower_w
    ty = st.tower_y if p == st.start else None
    acts = []
    for f in range(6):
        if tw[f] or (ty is not None and ty[f]):
            nb = NB_OF_FIELD[f]
            if nb is None or _deliverable(st.souk_own, st.souk_n, p, nb):
                acts.append(TAKES[f])
    return acts


def legal(st: State) -> list[tuple[int, ...]]:
    """Every legal action at the current decision point (for the seat(s) in ``to_act``)."""
    ph = st.phase
    p = st.cur
    if ph == P_ACTION:
        hand = st.hands[p]
        if st.extra:
            # a pending extra die binds the action to take camels / take gold / deliver
            fa = field_actions(st, p)
            if st.extra < EXTRA_DICE_PER_ACTION:
                fa.extend(_extras_of(hand))
            return fa
        # one pass over the tower: the field actions (``field_actions``) first, then each
        # group's moves, draw and (two players) builds
        takes: list[tuple[int, ...]] = []
        acts = []
        flat = FLAT_TURN if st.opts["turn_at_crossing"] else FLAT_STRAIGHT
        sup = st.sup
        span = (HAMMAM_FREE_STEPS if st.built[p] >> HAMMAM & 1 else 0) + st.gold[p]
        any_group = False
        tw = st.tower_w
        ty = st.tower_y if p == st.start else None
        own = st.souk_own
        count = st.souk_n
        for f in range(6):
            if not (tw[f] or (ty is not None and ty[f])):
                continue
            any_group = True
            nb = NB_OF_FIELD[f]
            if nb is None or _deliverable(own, count, p, nb):
                takes.append(TAKES[f])
            v = st.tower_v[f]
            moves, begins = flat[f][sup]
            lo = v - span
            hi = v + span + 1
            last = len(begins) - 1
            acts.extend(moves[begins[lo if lo > 0 else 0] : begins[hi if hi < last else last]])
            acts.append(DRAWS[f])
            if st.n == 2:
                _builds(st, p, f, acts)
        if not any_group:
            acts.append(DRAW_BLIND)
        if hand:
            _card_plays(st, p, acts)
            if takes:
                acts.extend(_extras_of(hand))
        if takes:
            takes.extend(acts)
            return takes
        return acts
    if ph == P_PLACE:
        acts = [(A_PLACE, sh) for sh in place_options(st, p, st.place_nb)]
        if not st.opts["must_place_all"] or st.place_left <= st.place_free:
            acts.append((A_STOP,))
        return acts
    if ph == P_BUILD:
        acts = []
        if st.n > 2 and not st.built_turn:
            _builds(st, p, -1, acts)
        _card_plays(st, p, acts)
        acts.append(DONE)
        return acts
    if ph == P_ROLL:
        acts = [(A_YELLOW, k) for k in range(min(MAX_YELLOW, st.gold[p] // YELLOW_PRICE) + 1)]
        _card_plays(st, p, acts)
        return acts
    if ph == P_PROTECT:
        owner = st.shop[st.queue[0]]
        acts = [(A_PROTECT, 1)] if st.camels[owner] > 0 else []
        acts.append((A_PROTECT, 0))
        if owner == p:
            # section 8.3: cards any time in one's own turn, e.g. one the caravanserai just gave
            _card_plays(st, p, acts)
        return acts
    if ph == P_ORDER:
        return [(A_FIRST, sh) for sh in st.queue]
    return []


def actor(st: State) -> int:
    """The seat whose decision is awaited (the cube's owner for a protection choice), -1 at the end."""
    if st.phase == P_PROTECT:
        return st.shop[st.queue[0]]
    if st.phase == P_END:
        return -1
    return st.cur


def discount_cards(card: int) -> tuple[int, ...]:
    """The cards a build action discards: none, one discount card, or both (``BUILD_FREE``)."""
    if card == BUILD_FREE:
        return (BUILD_NO_CAMELS, BUILD_NO_GOLD)
    return (card,) if card >= 0 else ()


def price(b: int, card: int) -> tuple[int, int]:
    """(camels, gold) still due for building b with the given discount."""
    c, g = BUILDING_COST[b]
    if card in (BUILD_NO_CAMELS, BUILD_FREE):
        c = 0
    if card in (BUILD_NO_GOLD, BUILD_FREE):
        g = 0
    return c, g


# --- playing an action ----------------------------------------------------------------------------
def step(st: State, a: tuple[int, ...], ev: Outcome | None, space: int = -1) -> None:
    """Play one legal action in place (no checks); ``space`` is the road space typed with a shop."""
    kind = a[0]
    p = st.cur
    name = st.players[p] if ev is not None else ""
    if kind == A_MOVE:
        _k, f, dest = a
        count, value = _take_group(st, p, f)
        cost = move_cost(st, p, value, dest)
        dist = DIST[st.sup][dest]
        st.gold[p] -= cost
        st.sup = dest
        shops = [] if dist == 0 and not st.opts["zero_move_sends"] else SPACE_SHOPS[dest]
        st.queue = [sh for sh in shops if st.shop[sh] >= 0]
        st.mover = p
        if ev is not None:
            paid = _(" paying {g} gold").format(g=cost) if cost else ""
            dice = ngettext(
                "{name} takes the die showing {v}", "{name} takes the {count} dice showing {v}", count
            ).format(name=name, v=value, count=count)
            if dist == 0:
                moved = _("and keeps the supervisor on {space}{paid}.")
            else:
                moved = ngettext(
                    "and moves the supervisor {d} space to {space}{paid}.",
                    "and moves the supervisor {d} spaces to {space}{paid}.",
                    dist,
                )
            ev.public.append(dice + " " + moved.format(d=dist, space=SPACE_NAMES[dest], paid=paid))
        if len(st.queue) == 2 and st.shop[st.queue[0]] != st.shop[st.queue[1]]:
            st.phase = P_ORDER
            return
        _continue_queue(st, ev)
    elif kind == A_TAKE:
        f = a[1]
        count, value = _take_group(st, p, f)
        extra = st.extra
        st.extra = 0
        if f in (CAMELS, GOLD):
            bonus = 0
            if f == CAMELS and st.built[p] >> PADDOCK & 1:
                bonus = PADDOCK_BONUS
            elif f == GOLD and st.built[p] >> SHOP & 1:
                bonus = SHOP_BONUS
            gain = count + extra + bonus
            if f == CAMELS:
                st.camels[p] += gain
            else:
                st.gold[p] += gain
            if ev is not None:
                if f == CAMELS:
                    line = ngettext("{name} takes {n} camel.", "{name} takes {n} camels.", gain)
                else:
                    line = _("{name} takes {n} gold.")
                ev.public.append(line.format(name=name, n=gain))
            _after_main(st, ev)
        else:
            nb = NEIGHBOURHOOD_OF_FIELD[f]
            hoist = HOIST_BONUS if st.built[p] >> HOIST & 1 else 0
            cubes = count + extra + hoist
            if ev is not None:
                line = ngettext(
                    "{name} delivers {n} cube to {nb}.", "{name} delivers {n} cubes to {nb}.", cubes
                ).format(name=name, n=cubes, nb=neighbourhood_name(nb))
                if hoist and st.opts["hoist_optional"]:
                    line += " " + _("(The hoist's extra cube may be left out: stop.)")
                ev.public.append(line)
            st.place_nb = nb
            st.place_left = cubes
            st.place_done = 0
            st.place_free = hoist if st.opts["hoist_optional"] else 0
            st.phase = P_PLACE
            _continue_place(st, ev)
    elif kind == A_PLACE:
        _put(st, p, a[1])
        st.place_left -= 1
        st.place_done += 1
        if ev is not None:
            ev.public.append(
                _("{name} places a cube in {shop}.").format(name=name, shop=shop_word(a[1], space))
            )
        _continue_place(st, ev)
    elif kind == A_PROTECT:
        sh = st.queue.pop(0)
        owner = st.shop[sh]
        if a[1]:
            st.camels[owner] -= 1
            if ev is not None:
                ev.public.append(
                    _(
                        "{owner} pays a camel: the cube stays in {shop}, a supply cube joins the caravan."
                    ).format(owner=st.players[owner], shop=shop_word(sh, st.sup))
                )
        else:
            _remove(st, sh)
            if ev is not None:
                ev.public.append(
                    _("{owner}'s cube from {shop} goes to the caravan.").format(
                        owner=st.players[owner], shop=shop_word(sh, st.sup)
                    )
                )
        _to_caravan(st, owner, ev)
        _continue_queue(st, ev)
    elif kind == A_FIRST:
        sh = a[1]
        st.queue.remove(sh)
        st.queue.insert(0, sh)
        _continue_queue(st, ev)
    elif kind == A_DRAW:
        f = a[1]
        if f >= 0:
            _take_group(st, p, f)
        if ev is not None:
            ev.public.append(_("{name} draws a card.").format(name=name))
        for _i in range(CARDS_PER_DRAW):
            _draw(st, p, ev)
        _after_main(st, ev)
    elif kind == A_BUILD:
        _k, b, f, card = a
        if f >= 0:
            _take_group(st, p, f)
        for used in discount_cards(card):
            st.hands[p].remove(used)
            st.discard.append(used)
        c, g = price(b, card)
        st.camels[p] -= c
        st.gold[p] -= g
        st.built[p] |= 1 << b
        points = BUILDING_POINTS[st.nbuilt[p]]
        st.nbuilt[p] += 1
        _score(st, p, points, "building " + BUILDING_IDS[b])
        if ev is not None:
            gained = ngettext("{pts} point", "{pts} points", points).format(pts=points)
            ev.public.append(
                _("{name} builds the {b} (building {n} of 6): {gained}.").format(
                    name=name, b=building_word(b), n=st.nbuilt[p], gained=gained
                )
            )
        if st.n == 2:
            _after_main(st, ev)
        else:
            st.built_turn = 1
    elif kind == A_PLAY:
        _play(st, p, a, ev, space)
    elif kind == A_EXTRA:
        st.hands[p].remove(a[1])
        st.discard.append(a[1])
        st.extra += 1
        if ev is not None:
            ev.public.append(
                _("{name} discards {card} as an extra die.").format(name=name, card=card_word(a[1]))
            )
    elif kind == A_DONE:
        _end_turn(st, ev)
    elif kind == A_STOP:
        _finish_place(st, ev, chosen=True)
    elif kind == A_YELLOW:
        _roll(st, a[1], ev)


def _play(st: State, p: int, a: tuple[int, ...], ev: Outcome | None, space: int = -1) -> None:
    _k, k, x, y = a
    st.hands[p].remove(k)
    st.discard.append(k)
    if k == CAMELS3:
        st.camels[p] += 3
    elif k == GOLD3:
        st.gold[p] += 3
    elif k == GOLD_FOR_VP:
        st.gold[p] -= x
        _score(st, p, x, "card gold_for_vp")
    elif k == CAMELS_FOR_VP:
        st.camels[p] -= x
        _score(st, p, x * VP_PER_CAMEL, "card camels_for_vp")
    elif k == EXCHANGE:
        if y == 0:
            st.gold[p] -= x
            st.camels[p] += x
        else:
            st.camels[p] -= x
            st.gold[p] += x
    elif k == SOUK_CUBE:
        _put(st, p, x)
    if ev is not None:  # the words only for the table, never in the search's playouts
        line = _("{name} plays {card}: {text}.")
        ev.public.append(line.format(name=st.players[p], card=card_word(k), text=_card_text(k, x, y, space)))
    if k == CARAVAN_CUBE:
        _to_caravan(st, p, ev, by_card=True)


def _card_text(k: int, x: int, y: int, space: int) -> str:
    """What playing card ``k`` (with its numbers ``x``, ``y``) did, in words."""
    if k == CAMELS3:
        return _("takes 3 camels")
    if k == GOLD3:
        return _("takes 3 gold")
    if k == GOLD_FOR_VP:
        return ngettext("pays {x} gold for {x} point", "pays {x} gold for {x} points", x).format(x=x)
    if k == CAMELS_FOR_VP:
        return ngettext("pays {x} camel for {v} points", "pays {x} camels for {v} points", x).format(
            x=x, v=x * VP_PER_CAMEL
        )
    if k == EXCHANGE:
        if y == 0:
            return ngettext("swaps {x} gold for {x} camel", "swaps {x} gold for {x} camels", x).format(x=x)
        return ngettext("swaps {x} camel for {x} gold", "swaps {x} camels for {x} gold", x).format(x=x)
    if k == SOUK_CUBE:
        return _("puts a cube in {shop}").format(shop=shop_word(x, space))
    if k == CARAVAN_CUBE:
        return _("sends a cube to the caravan")
    return ""


def advance(st: State, ev: Outcome | None) -> None:
    """Play forced steps (exactly one legal action) until someone has a real choice."""
    while st.phase != P_END:
        acts = legal(st)
        if len(acts) != 1:
            return
        step(st, acts[0], ev)


def game_over(st: State) -> bool:
    """Whether week 3 has been scored."""
    return st.phase == P_END
