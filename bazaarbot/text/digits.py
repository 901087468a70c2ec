"""Numbers people type and URLs carry: ASCII digits only, bounded, read one way everywhere.

``str.isdigit`` is true for ``²`` and ``①``, which ``int`` refuses; a check
with it followed by ``int`` turns a typo into a crash. ``int`` itself takes
``٣`` and ``𝟙`` (and ``re``'s ``\\d`` matches them), ``+3``, `` 3 ``, ``3_000``,
and refuses a string of more than 4,300 digits with an exception. Every seat
number, game id, count, clock value and page a person types or a URL names is
read with these instead: ASCII digits, at most ``MAX_DIGITS`` of them, and
anything else is no number (the caller answers with a plain refusal or 404).
"""

from __future__ import annotations

ASCII_DIGITS = frozenset("0123456789")

#: the most digits a number may have (a game id, a count, seconds); beyond it no number the bot knows
MAX_DIGITS = 12

#: ASCII digits in a regular expression (``\d`` also matches other scripts' digits)
DIGIT = "[0-9]"


def is_number(word: str, most: int = MAX_DIGITS) -> bool:
    """Whether ``word`` is one to ``most`` ASCII digits (and nothing else)."""
    return 0 < len(word) <= most and all(ch in ASCII_DIGITS for ch in word)


def number(word: str, most: int = MAX_DIGITS) -> int | None:
    """``word`` as a number when it is one to ``most`` ASCII digits, else None."""
    return int(word) if is_number(word, most) else None


def signed_number(word: str, most: int = MAX_DIGITS) -> int | None:
    """``3``, ``+3`` or ``-3`` as a number (one sign at most, then ASCII digits), else None."""
    sign = -1 if word[:1] == "-" else 1
    value = number(word[1:] if word[:1] in "+-" else word, most)
    return None if value is None else sign * value
