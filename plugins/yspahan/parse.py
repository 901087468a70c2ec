"""Typed commands <-> action tuples.

Grammar (one verb first, then its words; case does not matter):

    roll | yellow N                      start player: buy N yellow dice and roll
    take camels | take gold              the field's own action
    deliver sacks|barrels|chests|vases   place that field's dice as cubes
    move V DIR [then DIR] [+K|-K]        the dice showing V move the supervisor V+K spaces
    move V to SPACE | move V -V          (by destination; -V stays put)
    draw V                               the dice showing V buy one card ("draw" alone: empty tower)
    place SOUK [SPACE]                   next cube; SPACE = the shop on that road space, else inner shop
    first SOUK                           which of two cubes goes to the caravan first
    protect | let go                     keep your cube for 1 camel, or let it go
    build NAME [with V]                  (two players: with the dice group you give up)
    play CARD [...]                      see cards.card_text
    extra CARD                           a card as an extra die for take/deliver
    done | stop                          end the turn | stop placing cubes (when allowed)

A dice group V may also be named by its field word (``move sacks west``).
"""

from __future__ import annotations

from bazaarbot.i18n import _
from bazaarbot.plugin import MoveError
from bazaarbot.text.digits import is_number, number, signed_number

from .board import (
    CROSSING,
    DIRECTION_ALIASES,
    DIRECTIONS,
    DIST,
    FIELD_ALIASES,
    FIELD_NAMES,
    GOLD,
    OPPOSITE,
    SHOP_INTERIOR,
    SHOP_SOUK,
    SHOP_SPACES,
    SOUK_INDEX,
    SOUK_NAMES,
    SOUK_SHOPS,
    SPACE_ARM,
    SPACE_INDEX,
    SPACE_NAMES,
    first_direction,
    shop_label,
    turn_at_crossing,
    walk,
)
from .cards import (
    BUILD_FREE,
    BUILD_NO_CAMELS,
    BUILD_NO_GOLD,
    BUILDING_ALIASES,
    BUILDING_IDS,
    CAMELS_FOR_VP,
    CARD_IDS,
    EXCHANGE,
    GOLD_FOR_VP,
    SOUK_CUBE,
)
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
)
from .state import State
from .words import FOREIGN_VERBS, card_word, field_word, said, souk_word, to_english
from .words import w as w_

VERBS = frozenset(
    {
        "roll",
        "yellow",
        "take",
        "deliver",
        "move",
        "draw",
        "card",
        "place",
        "first",
        "protect",
        "keep",
        "let",
        "build",
        "play",
        "extra",
        "done",
        "pass",
        "end",
        "stop",
    }
)
#: short verbs that are also everyday words count as moves only in these shapes
_SHORT_VERBS = frozenset({"done", "pass", "end", "stop", "keep", "protect", "roll"})


def looks_like_move(text: str) -> bool:
    """Whether a chat line is meant as a command (conservative for everyday words).

    A line starting with a German or Spanish verb counts only when every other
    word is one of the game's words too, so ``spiele heute abend`` stays chatter.
    """
    typed = text.lower().split()
    words = to_english(text).split()
    if not words or words[0] not in VERBS:
        return False
    if typed and _norm(typed[0]) in FOREIGN_VERBS and not all(_known(w) for w in words[1:]):
        return False
    verb = words[0]
    if verb in _SHORT_VERBS:
        return len(words) <= 2
    if verb == "let":
        return words[1:] == ["go"]
    if verb == "first":
        return len(words) == 2 and words[1] in SOUK_INDEX
    return True


_CARD_KEYS = {cid.replace("_", ""): i for i, cid in enumerate(CARD_IDS)}
#: words of a command besides verbs, names and numbers
_LINK_WORDS = frozenset({"with", "then", "to", "stay", "here", "go"})


def _known(word: str) -> bool:
    """A word a command may hold: a name of the game, a number, a direction or a linking word."""
    return (
        word in VERBS
        or word in _LINK_WORDS
        or word in FIELD_ALIASES
        or word in SOUK_INDEX
        or word in SPACE_INDEX
        or word in BUILDING_ALIASES
        or word in DIRECTION_ALIASES
        or _norm(word) in _CARD_KEYS
        or is_number(word.lstrip("+-"))
    )


def _norm(word: str) -> str:
    return word.replace("_", "").replace("-", "")


def card_of(word: str) -> int:
    """Card kind from its id (underscores and dashes optional)."""
    kind = _CARD_KEYS.get(_norm(word))
    if kind is None:
        raise MoveError(
            _("Unknown card '{w}'. Cards: {ids}.").format(w=word, ids=", ".join(w_(c) for c in CARD_IDS))
        )
    return kind


def _building(word: str) -> int:
    b = BUILDING_ALIASES.get(word)
    if b is None:
        raise MoveError(
            _("Unknown building '{w}'. Buildings: {ids}.").format(
                w=word, ids=", ".join(w_(b) for b in BUILDING_IDS)
            )
        )
    return b


def _group(st: State, word: str) -> int:
    """A dice group named by its value (1-6) or its field word; returns the field."""
    v = number(word)
    if v is not None:
        for f in range(6):
            if st.tower_v[f] == v:
                return f
        values = sorted(v for v in st.tower_v if v)
        shown = ", ".join(str(v) for v in values) or _("none")
        raise MoveError(_("No dice showing {v} on the tower (values: {shown}).").format(v=v, shown=shown))
    f = FIELD_ALIASES.get(word)
    if f is None:
        raise MoveError(
            _("'{w}' is not a dice group: give its value (e.g. 4) or field ({fields}).").format(
                w=word, fields=", ".join(w_(f) for f in FIELD_NAMES)
            )
        )
    if not st.tower_v[f]:
        raise MoveError(_("The {field} field has no dice.").format(field=field_word(f)))
    return f


class Typed(tuple):  # type: ignore[type-arg]
    """An action as typed: equal to the plain action tuple, plus the road space the player named.

    The space only chooses the words of the answer (a corner shop touches two
    road spaces and is named by the one typed); the rules never look at it.
    """

    space: int

    def __new__(cls, action: tuple[int, ...], space: int) -> Typed:
        new = super().__new__(cls, action)
        new.space = space
        return new


def named_space(move: tuple[int, ...]) -> int:
    """The road space typed with a shop, or -1."""
    return getattr(move, "space", -1)


def _shop_named(st: State, words: list[str], verb: str) -> tuple[int, int]:
    """A shop from 'SOUK [SPACE]' and the space typed (-1 if none).

    SPACE picks the shop beside that road space, else an inner one.
    """
    if not words:
        raise MoveError(_("Say which souk, e.g. {verb} sack5 or {verb} sack5 W7.").format(verb=said(verb)))
    s = SOUK_INDEX.get(words[0])
    if s is None:
        raise MoveError(
            _("Unknown souk '{w}'. Souks: {ids}.").format(
                w=words[0], ids=", ".join(w_(x) for x in SOUK_NAMES)
            )
        )
    shops = SOUK_SHOPS[s]
    if len(words) > 1:
        sp = SPACE_INDEX.get(words[1])
        for sh in shops:
            if sp is not None and sp in SHOP_SPACES[sh]:
                return sh, sp
        road = ", ".join(
            "/".join(SPACE_NAMES[sp] for sp in SHOP_SPACES[sh]) for sh in shops if not SHOP_INTERIOR[sh]
        )
        raise MoveError(
            _("{souk} has no shop beside '{w}'; its road shops are at {road}.").format(
                souk=souk_word(s), w=words[1], road=road or _("none")
            )
        )
    for sh in shops:
        if SHOP_INTERIOR[sh] and st.shop[sh] < 0:
            return sh, -1
    free = [sh for sh in shops if st.shop[sh] < 0]
    if len(free) == 1:
        return free[0], -1
    if not free:
        raise MoveError(_("{souk} is full.").format(souk=souk_word(s)))
    raise MoveError(
        _("{souk} has no free inner shop; name the road space: {opts}.").format(
            souk=souk_word(s), opts=_(" or ").join(said(f"{verb} {shop_label(sh)}") for sh in free)
        )
    )


def _number(word: str, what: str) -> int:
    value = signed_number(word)
    if value is None:
        raise MoveError(_("'{w}' is not a number ({what}).").format(w=word, what=what))
    return value


def _parse_move(st: State, words: list[str]) -> tuple[int, ...]:
    usage = _("move V DIR [then DIR] [+K|-K], e.g. move 4 west, move 5 north +1, move 6 west then north.")
    if not words:
        raise MoveError(usage)
    f = _group(st, words[0])
    value = st.tower_v[f]
    direction = turn = -1
    adjust: int | None = None
    dest: int | None = None
    rest = words[1:]
    i = 0
    while i < len(rest):
        w = rest[i]
        if w in DIRECTION_ALIASES and direction < 0:
            direction = DIRECTION_ALIASES[w]
        elif w == "then" and i + 1 < len(rest) and rest[i + 1] in DIRECTION_ALIASES:
            i += 1
            turn = DIRECTION_ALIASES[rest[i]]
        elif w[0] in "+-" and signed_number(w) is not None:
            adjust = signed_number(w)
        elif w == "to" and i + 1 < len(rest) and rest[i + 1] in SPACE_INDEX:
            i += 1
            dest = SPACE_INDEX[rest[i]]
        elif w in ("stay", "here"):
            adjust = -value if adjust is None else adjust
        else:
            raise MoveError(_("I do not understand '{w}' in that move. ").format(w=w) + usage)
        i += 1
    here = st.sup
    if dest is not None:
        if adjust is not None and DIST[here][dest] != value + adjust:
            raise MoveError(
                _("{space} is {d} spaces away, not {x}.").format(
                    space=SPACE_NAMES[dest], d=DIST[here][dest], x=value + adjust
                )
            )
        return (A_MOVE, f, dest)
    distance = value + (adjust or 0)
    if distance < 0:
        raise MoveError(_("The distance cannot go below 0 (the dice show {v}).").format(v=value))
    if distance == 0:
        return (A_MOVE, f, here)
    if direction < 0:
        raise MoveError(_("Give a direction (west, east, north, south). ") + usage)
    arm = SPACE_ARM[here]
    if arm >= 0 and direction not in (arm, OPPOSITE[arm]):
        raise MoveError(
            _("From {space} the road runs only {a} or {b}.").format(
                space=SPACE_NAMES[here], a=w_(DIRECTIONS[arm]), b=w_(DIRECTIONS[OPPOSITE[arm]])
            )
        )
    passes = arm >= 0 and direction == OPPOSITE[arm] and distance > DIST[here][CROSSING]
    if turn >= 0 and arm < 0:
        raise MoveError(
            _("The supervisor starts on the crossing: give just one direction, e.g. move 4 north.")
        )
    if turn >= 0 and not passes:
        raise MoveError(_("That move does not pass the crossing, so there is nowhere to turn."))
    if passes and turn == arm:
        raise MoveError(_("The supervisor may not turn back at the crossing."))
    end = walk(here, direction, distance, turn)
    if end is None:
        msg = _("The road ends before {d} steps that way; pick another direction or change the distance.")
        raise MoveError(msg.format(d=distance))
    return (A_MOVE, f, end)


def parse_command(st: State, seat: int, text: str) -> tuple[int, ...]:
    """Turn one typed line into an action tuple (legality is checked separately)."""
    words = to_english(text).split()
    if not words:
        raise MoveError(_("Type a command, e.g. take camels, move 4 west, done."))
    verb, args = words[0], words[1:]
    if verb == "roll":
        return (A_YELLOW, _number(args[0], _("yellow dice")) if args else 0)
    if verb == "yellow":
        if not args:
            raise MoveError(_("Say how many yellow dice to buy (0-3), e.g. yellow 2."))
        return (A_YELLOW, _number(args[0], _("yellow dice")))
    if verb in ("take", "deliver"):
        if not args:
            raise MoveError(_("Say which field, e.g. take camels, take gold, deliver sacks."))
        return (A_TAKE, _group(st, args[0]))
    if verb == "move":
        return _parse_move(st, args)
    if verb in ("draw", "card"):
        if not args:
            return (A_DRAW, -1)
        return (A_DRAW, _group(st, args[0]))
    if verb == "place":
        sh, sp = _shop_named(st, args, "place")
        return Typed((A_PLACE, sh), sp)
    if verb == "first":
        if not args or args[0] not in SOUK_INDEX:
            opts = _(" or ").join(said("first " + SOUK_NAMES[SHOP_SOUK[sh]]) for sh in st.queue)
            raise MoveError(
                _("Say which souk's cube goes first: {opts}.").format(
                    opts=opts or w_("first") + " " + _("SOUK")
                )
            )
        s = SOUK_INDEX[args[0]]
        for sh in st.queue:
            if SHOP_SOUK[sh] == s:
                return (A_FIRST, sh)
        raise MoveError(_("No cube of {souk} is waiting to leave.").format(souk=args[0]))
    if verb in ("protect", "keep"):
        return (A_PROTECT, 1)
    if verb == "let":
        if args[:1] != ["go"]:
            raise MoveError(_("Type 'let go' to let your cube leave, or 'protect' to keep it for 1 camel."))
        return (A_PROTECT, 0)
    if verb == "build":
        if not args:
            raise MoveError(_("Say what to build: {ids}.").format(ids=", ".join(w_(b) for b in BUILDING_IDS)))
        return (A_BUILD, _building(args[0]), _with_group(st, args[1:]), -1)
    if verb == "play":
        return _parse_play(st, args)
    if verb == "extra":
        if not args:
            raise MoveError(_("Say which card to discard as an extra die, e.g. extra gold3."))
        return (A_EXTRA, card_of(args[0]))
    if verb in ("done", "pass", "end"):
        return (A_DONE,)
    if verb == "stop":
        return (A_STOP,)
    raise MoveError(_("Unknown command '{verb}'. Try /moves.").format(verb=verb))


def _with_group(st: State, words: list[str]) -> int:
    if not words:
        if st.n == 2:
            raise MoveError(
                _("With two players building costs a dice group: add 'with V', e.g. build hoist with 4.")
            )
        return -1
    if words[0] == "with":
        words = words[1:]
    if not words:
        raise MoveError(_("Say which dice group, e.g. with 4."))
    return _group(st, words[0])


def _parse_play(st: State, args: list[str]) -> tuple[int, ...]:
    if not args:
        raise MoveError(_("Say which card to play, e.g. play gold3."))
    k = card_of(args[0])
    rest = args[1:]
    if k in (BUILD_NO_CAMELS, BUILD_NO_GOLD):
        other = BUILD_NO_GOLD if k == BUILD_NO_CAMELS else BUILD_NO_CAMELS
        if rest and _CARD_KEYS.get(_norm(rest[0])) == other:
            k, rest = BUILD_FREE, rest[1:]
        if not rest:
            raise MoveError(
                _("Say what to build with it, e.g. {play} hoist.").format(play=said(discount_words(k)))
            )
        return (A_BUILD, _building(rest[0]), _with_group(st, rest[1:]), k)
    if k == SOUK_CUBE:
        sh, sp = _shop_named(st, rest, "play souk_cube")
        return Typed((A_PLAY, k, sh, 0), sp)
    if k in (GOLD_FOR_VP, CAMELS_FOR_VP):
        if not rest:
            raise MoveError(_("Say how many, e.g. play {card} 3.").format(card=card_word(k)))
        return (A_PLAY, k, _number(rest[0], _("how many")), 0)
    if k == EXCHANGE:
        amount = None
        give = -1
        for w in rest:
            if number(w) is not None and amount is None:
                amount = number(w)
            elif w in ("gold", "camels", "camel") and give < 0:
                give = 0 if w == "gold" else 1
        if amount is None or give < 0:
            raise MoveError(
                _("Say how many and what you give: play exchange 3 gold (3 gold for 3 camels), or 2 camels.")
            )
        return (A_PLAY, k, amount, give)
    return (A_PLAY, k, 0, 0)


def discount_words(card: int) -> str:
    """How a build with discount cards starts: 'play build_no_gold', or both cards named."""
    if card == BUILD_FREE:
        return f"play {CARD_IDS[BUILD_NO_CAMELS]} {CARD_IDS[BUILD_NO_GOLD]}"
    return f"play {CARD_IDS[card]}"


def format_action(st: State, a: tuple[int, ...]) -> str:
    """The canonical typed form of an action (parse_command gives it back)."""
    kind = a[0]
    if kind == A_MOVE:
        _k, f, dest = a
        v = st.tower_v[f]
        d = DIST[st.sup][dest]
        if d == 0:
            return f"move {v} {-v:+d}" if v else "move 0"
        text = f"move {v} {DIRECTIONS[first_direction(st.sup, dest)]}"
        turn = turn_at_crossing(st.sup, dest)
        if turn >= 0 and turn != OPPOSITE[SPACE_ARM[st.sup]]:
            text += f" then {DIRECTIONS[turn]}"
        if d != v:
            text += f" {d - v:+d}"
        return text
    if kind == A_TAKE:
        f = a[1]
        return f"take {FIELD_NAMES[f]}" if f in (0, GOLD) else f"deliver {FIELD_NAMES[f]}"
    if kind == A_DRAW:
        return f"draw {st.tower_v[a[1]]}" if a[1] >= 0 else "draw"
    if kind == A_PLACE:
        return "place " + shop_label(a[1])
    if kind == A_PLAY:
        _k, k, x, y = a
        cid = CARD_IDS[k]
        if k == SOUK_CUBE:
            return f"play {cid} {shop_label(x)}"
        if k in (GOLD_FOR_VP, CAMELS_FOR_VP):
            return f"play {cid} {x}"
        if k == EXCHANGE:
            return f"play {cid} {x} {'gold' if y == 0 else 'camels'}"
        return f"play {cid}"
    if kind == A_BUILD:
        _k, b, f, card = a
        text = f"build {BUILDING_IDS[b]}" if card < 0 else f"{discount_words(card)} {BUILDING_IDS[b]}"
        if f >= 0:
            text += f" with {st.tower_v[f]}"
        return text
    if kind == A_YELLOW:
        return f"yellow {a[1]}" if a[1] else "roll"
    if kind == A_FIRST:
        return "first " + SOUK_NAMES[SHOP_SOUK[a[1]]]
    if kind == A_PROTECT:
        return "protect" if a[1] else "let go"
    if kind == A_EXTRA:
        return "extra " + CARD_IDS[a[1]]
    if kind == A_STOP:
        return "stop"
    return "done"
