"""A move with its first word mistyped: find the one-letter slip that makes it a legal move.

Only a correction that the game accepts is ever suggested, so chatter that
merely looks like a verb is never answered.
"""

from __future__ import annotations

from typing import Any

from bazaarbot.plugin import GamePlugin, MoveError
from bazaarbot.words.moves import verbs_in_every_language


def one_slip_apart(a: str, b: str) -> bool:
    """True when ``a`` becomes ``b`` by one insertion, deletion, substitution or swap of neighbours."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


#: a first word shorter than this is never corrected (one letter off a two-letter word is anything)
MIN_TYPO_LENGTH = 3


def corrected_move(game: GamePlugin, state: Any, seat: int, text: str) -> str | None:
    """The legal move ``text`` would be with its first word corrected by one slip, else None."""
    first, _sep, rest = text.strip().partition(" ")
    first = first.lower()
    if len(first) < MIN_TYPO_LENGTH or seat not in game.to_act(state):
        return None
    verbs = sorted(verbs_in_every_language(game, state, seat, game.legal_commands(state, seat)))
    for verb in verbs:
        if not one_slip_apart(first, verb):
            continue
        candidate = f"{verb} {rest}".strip()
        trial = game.clone(state)
        try:
            game.apply(trial, seat, game.parse(trial, seat, candidate))
        except MoveError:
            continue
        return candidate
    return None
