"""Typing a command for a seat of a plugin game, in the tests of every game."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from bazaarbot.plugin import GamePlugin, MoveError, Outcome


class Moves:
    """``play`` and ``refused`` for one game; the seat defaults to the first one to act."""

    def __init__(self, game: GamePlugin) -> None:
        self.game = game

    def seat(self, state: Any, seat: int | None) -> int:
        if seat is not None:
            return seat
        to_act = self.game.to_act(state)
        return to_act[0] if to_act else 0

    def play(self, state: Any, text: str, seat: int | None = None) -> Outcome:
        """Parse and apply a typed command."""
        seat = self.seat(state, seat)
        return self.game.apply(state, seat, self.game.parse(state, seat, text))

    def refused(self, state: Any, text: str, seat: int | None = None) -> str:
        """The refusal message for a typed command; the state must be untouched."""
        seat = self.seat(state, seat)
        before = self.game.to_json(state)
        with pytest.raises(MoveError) as err:
            self.game.apply(state, seat, self.game.parse(state, seat, text))
        assert self.game.to_json(state) == before, "a refused move must change nothing"
        return err.value.message


def random_play(
    game: GamePlugin, state: Any, rng: random.Random, limit: int
) -> Iterator[tuple[int, Outcome]]:
    """Random legal commands, typed by whoever is to act, until the game is over or ``limit`` moves:
    after each, the seat that moved and what the move said."""
    for _ in range(limit):
        if game.result(state) is not None:
            return
        seat = game.to_act(state)[0]
        yield (
            seat,
            game.apply(state, seat, game.parse(state, seat, rng.choice(game.legal_commands(state, seat)))),
        )
