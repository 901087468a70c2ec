"""What people type, in English or German, turned into move tuples (deterministic, state-light)."""

from __future__ import annotations

from bazaarbot.i18n import _
from bazaarbot.plugin import MoveError
from bazaarbot.text.digits import is_number, number

from . import colours as col
from .colours import NCOL
from .rules import buyable_fields
from .state import JOKER, BazaarState

DRAW_WORDS = frozenset({"draw", "zieh", "ziehen", "ziehe", "roll", "roba", "robar", "saca", "sacar"})
JOKER_WORDS = frozenset({"joker", "wahl", "wähle", "choose", "pick", "comodín", "comodin", "elige"})
TRADE_WORDS = frozenset(
    {"trade", "tausch", "tausche", "tauschen", "swap", "exchange", "cambia", "cambiar", "intercambia"}
)
BUY_WORDS = frozenset({"buy", "kauf", "kaufe", "kaufen", "compra", "comprar"})
PASS_WORDS = frozenset({"pass", "weiter", "done", "fertig", "paso", "pasa", "pasar"})
DISCARD_WORDS = frozenset(
    {
        "discard",
        "return",
        "abwerfen",
        "ablegen",
        "zurückgeben",
        "zurueckgeben",
        "devuelve",
        "devolver",
        "descarta",
    }
)
#: direction words after "trade N": give the right side and receive the left one
BACK_WORDS = frozenset(
    {"back", "reverse", "rev", "zurück", "zurueck", "rück", "rueck", "<", "<-", "atrás", "atras", "vuelta"}
)
#: accepted (and ignored) for the default direction: give the left side, receive the right one
FORTH_WORDS = frozenset({"forth", "forward", "fwd", "vor", "hin", ">", "->", "adelante"})

VERBS = DRAW_WORDS | JOKER_WORDS | TRADE_WORDS | BUY_WORDS | PASS_WORDS | DISCARD_WORDS


def _clean(text: str) -> str:
    """Lower case, without a leading command sign ("!draw" and "/draw" work like "draw")."""
    return text.strip().lower().lstrip("!/").strip()


def first_word(text: str) -> str:
    words = _clean(text).split()
    return words[0].rstrip(".,!:;") if words else ""


#: the English verbs; a line starting with another verb or a colour must hold only game words
ENGLISH_VERBS = frozenset({"draw", "roll", "joker", "choose", "pick", "trade", "swap", "exchange", "buy"})
ENGLISH_VERBS |= {"pass", "done", "discard", "return"}


def _game_word(word: str) -> bool:
    return is_number(word.lstrip("#")) or word in BACK_WORDS or word in FORTH_WORDS or word in col.FULL_WORDS


def is_move(text: str) -> bool:
    """A line counts as a move attempt when its first word is a verb or a full colour name.

    After a German or Spanish verb, or a colour, every word must be a game word
    (a number, a colour, a direction), so ``rot ist schön`` stays chatter.
    """
    word = first_word(text)
    if word not in VERBS and word not in col.FULL_WORDS:
        return False
    if word in ENGLISH_VERBS:
        return True
    rest = [w.rstrip(".,!:;") for w in _clean(text).replace("+", " ").split()[1:]]
    return all(not w or _game_word(w) for w in rest)


def _number(word: str | None, what: str, example: str) -> int:
    value = number(word.lstrip("#")) if word is not None else None
    if value is None:
        raise MoveError(_("Say which {what}, e.g. '{example}'.").format(what=what, example=example))
    return value - 1


def _colour(word: str) -> int:
    if word in col.AMBIGUOUS:
        raise MoveError(_("'{word}' could be green or gelb (yellow): type 'gr' or 'ge'.").format(word=word))
    c = col.colour_of(word)
    if c is None:
        raise MoveError(
            _("'{word}' is not a colour; the colours are blue, green, red, white, yellow.").format(word=word)
        )
    return c


def _colours(words: list[str]) -> tuple[int, int, int, int, int]:
    """'red red blue' or '2 red 1 blue' as counts."""
    counts = [0] * NCOL
    times = 1
    for w in words:
        if (given := number(w)) is not None:
            times = given
            continue
        counts[_colour(w)] += times
        times = 1
    return (counts[0], counts[1], counts[2], counts[3], counts[4])


def parse(state: BazaarState, seat: int, text: str) -> tuple:
    """The move a line of text asks for; MoveError when it is not a well-formed Bazaar command."""
    words = [w.rstrip(".,!:;") for w in _clean(text).replace("+", " ").split()]
    words = [w for w in words if w]
    if not words:
        raise MoveError(_("Type a move: draw, trade <row>, buy <field>, pass."))
    verb, args = words[0], words[1:]
    if verb in DRAW_WORDS:
        return ("draw",)
    if verb in PASS_WORDS:
        return ("pass",)
    if verb in JOKER_WORDS or (verb in col.FULL_WORDS and state.phase == JOKER):
        if verb in col.FULL_WORDS:
            args = [verb]
        if len(args) != 1:
            raise MoveError(_("Name one colour for the joker, e.g. 'joker red'."))
        return ("joker", _colour(args[0]))
    if verb in col.FULL_WORDS:
        raise MoveError(
            _("A colour on its own only answers a joker. Moves: draw, trade <row>, buy <field>, pass.")
        )
    if verb in TRADE_WORDS:
        # "trade 3", "trade 3 back", also "trade 3back" and "trade back 3"
        joined = " ".join(args).replace("<-", " < ").replace("->", " > ")
        tokens = joined.split()
        digits = [t for t in tokens if is_number(t.lstrip("#"))]
        if not digits and tokens and is_number(tokens[0][:1]):
            head = tokens[0]
            num = head[: len(head) - len(head.lstrip("0123456789"))]
            tokens = [num, head[len(num) :]] + tokens[1:]
            digits = [num]
        row = number(digits[0].lstrip("#")) if len(digits) == 1 else None
        if row is None:
            raise MoveError(
                _("Say which row, e.g. 'trade 3' (give the left side) or 'trade 3 back' (give the right).")
            )
        rest = [t for t in tokens if t != digits[0]]
        back = False
        for t in rest:
            if t in BACK_WORDS:
                back = True
            elif t not in FORTH_WORDS:
                raise MoveError(
                    _(
                        "'{word}' is not a direction: 'trade {row}' gives the left side, "
                        "'trade {row} back' gives the right side."
                    ).format(word=t, row=digits[0].lstrip("#"))
                )
        return ("trade", row - 1, back)
    if verb in BUY_WORDS:
        if not args:
            fields = buyable_fields(state, seat)
            if len(fields) == 1:
                return ("buy", fields[0])
        return ("buy", _number(args[0] if args else None, _("field (1-4)"), "buy 2"))
    if verb in DISCARD_WORDS:
        if not args:
            raise MoveError(_("Say which stones to give back, e.g. 'discard red' or 'discard 2 blue'."))
        return ("discard", _colours(args))
    raise MoveError(_("Moves: draw, trade <row> [back], buy <field>, pass."))
