"""Numbers typed by players: ASCII digits only.

``str.isdigit`` is true for ``²`` and ``①``, which ``int`` refuses; a check
with it followed by ``int`` turns a typo into a crash. Every seat number,
count and value a player types is read with these instead.
"""

from __future__ import annotations

ASCII_DIGITS = frozenset("0123456789")


def is_number(word: str) -> bool:
    """Whether ``word`` is one or more ASCII digits (and nothing else)."""
    return bool(word) and all(ch in ASCII_DIGITS for ch in word)


def number(word: str) -> int | None:
    """``word`` as a number when it is ASCII digits, else None."""
    return int(word) if is_number(word) else None
