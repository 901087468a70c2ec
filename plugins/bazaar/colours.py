"""The five stone colours, their names in English and German, and how stones are written.

A group of stones (a hand, a side of an exchange row, a combination) is a
5-tuple or 5-list of counts in the fixed colour order below.
"""

from __future__ import annotations

from collections.abc import Sequence

from bazaarbot.i18n import _

BLUE, GREEN, RED, WHITE, YELLOW = range(5)
COLOURS = (BLUE, GREEN, RED, WHITE, YELLOW)
NCOL = 5

#: a group of stones (a hand, one side of an exchange row, a combination): a count per colour
Group = tuple[int, int, int, int, int]
#: an exchange row: side A = side B
Row = tuple[Group, Group]


def N_(message: str) -> str:
    """Mark a sentence for the message catalogue without translating it yet."""
    return message


#: canonical (English) names, as typed in the commands the bot lists; shown translated by ``name``
NAMES = (N_("blue"), N_("green"), N_("red"), N_("white"), N_("yellow"))

#: every spelling a player may type for a colour (full words, German, ASCII fallbacks, letters)
_WORDS: dict[str, int] = {
    "blue": BLUE,
    "blau": BLUE,
    "green": GREEN,
    "grün": GREEN,
    "gruen": GREEN,
    "grun": GREEN,
    "red": RED,
    "rot": RED,
    "white": WHITE,
    "weiß": WHITE,
    "weiss": WHITE,
    "weis": WHITE,
    "yellow": YELLOW,
    "gelb": YELLOW,
    # English one-letter short forms; "g" is left out on purpose (green or gelb?)
    "b": BLUE,
    "r": RED,
    "w": WHITE,
    "y": YELLOW,
}

#: Spanish names, read only whole (a prefix such as "bl" stays blue, not blanco)
_WHOLE_WORDS: dict[str, int] = {
    "azul": BLUE,
    "verde": GREEN,
    "rojo": RED,
    "blanco": WHITE,
    "amarillo": YELLOW,
}

#: full colour words (every language) that count as a move on their own while a joker is pending
FULL_WORDS = frozenset(w for w in _WORDS if len(w) > 1) | frozenset(_WHOLE_WORDS)

#: the words that look like a colour but cannot be told apart
AMBIGUOUS = frozenset({"g"})


def colour_of(word: str) -> int | None:
    """The colour a typed word names: a full name, a short form, or an unambiguous prefix (2+ letters)."""
    word = word.strip().lower().rstrip(".,!;:")
    if word in _WORDS:
        return _WORDS[word]
    if word in _WHOLE_WORDS:
        return _WHOLE_WORDS[word]
    if len(word) < 2:
        return None
    found = {c for w, c in _WORDS.items() if len(w) > 1 and w.startswith(word)}
    if len(found) == 1:
        return found.pop()
    return None


def name(colour: int) -> str:
    """The colour's display name in the current language."""
    return _(NAMES[colour])


def stones(counts: Sequence[int], joiner: str = " + ") -> str:
    """A group of stones as "2 green + 1 red" (or "no stones")."""
    parts = [f"{n} {name(c)}" for c, n in enumerate(counts) if n]
    return joiner.join(parts) if parts else _("no stones")


def spelled(counts: Sequence[int]) -> str:
    """A group spelled stone by stone, "green green red", as a player would type it."""
    return " ".join(NAMES[c] for c, n in enumerate(counts) for _i in range(n))
