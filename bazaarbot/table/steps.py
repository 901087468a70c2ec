"""A finished game's move log replayed step by step, an ``/undo`` taking its step back out.

The review and the web replay both walk a game this way: from the seed and
options recorded with the game, each logged command in order. A step that
was undone never happened; a seat taken out of the game (``/skip``) is a step
without a decision.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from bazaarbot.i18n import _
from bazaarbot.plugin import GamePlugin

#: the move-log entry of an ``/undo`` (no game's command starts with a slash; ``table/game.py``)
UNDO_RECORD = "/undo"
#: the move-log entry of a seat taken out of the game under ``leavers=skip``
SKIP_RECORD = "/skip"


@dataclass
class Step:
    """One command that stands in the game: who, what, by whom, the announcement, the state before it."""

    n: int
    seat: int
    text: str
    author: str
    lines: list[str]
    before: dict[str, Any]


def play_step(game: GamePlugin, state: Any, seat: int, text: str) -> list[str]:
    """One logged step that stands, on ``state``: a command, or a seat taken out; its public lines."""
    if text == SKIP_RECORD:
        outcome = game.remove_seat(state, seat)
        return list(outcome.public) if outcome else []
    return list(game.apply(state, seat, game.parse(state, seat, text)).public)


def taken_back(nick: str, move: str) -> str:
    """The line that says an ``/undo`` took ``move`` back."""
    return _("{nick} takes back {move}.").format(nick=nick, move=move)


def replay(
    game: GamePlugin, seed: int, nicks: list[str], options: dict[str, Any], moves: list[dict[str, Any]]
) -> tuple[list[Step], Any]:
    """Every step that stands (undone ones removed) and the final state."""
    state = game.setup(list(nicks), random.Random(seed), options)
    steps: list[Step] = []
    for record in moves:
        seat, text = int(record["seat"]), str(record["text"])
        if text == UNDO_RECORD:
            if steps:
                state = game.from_json(steps.pop().before)
            continue
        before = game.to_json(state)
        lines = play_step(game, state, seat, text)
        steps.append(Step(int(record["n"]), seat, text, str(record.get("author", "")), lines, before))
    return steps, state
