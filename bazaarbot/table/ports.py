"""What one part of a table asks of the others: small interfaces the ``Table`` answers.

The parts are made in one order (core, game, presence, AI seats, clock, lobby, views), each
given the parts made before it. Where a part must reach one made after it, it is given the
table as one of these interfaces, which names exactly what it asks.
"""

from __future__ import annotations

from typing import Protocol

from bazaarbot.messages import Outgoing
from bazaarbot.table.seats import Actor


class Handing(Protocol):
    """Giving a game seat an AI played back to a person (the AI seats part does it)."""

    def take_back(self, index: int, actor: Actor) -> list[Outgoing]:
        """A person plays game seat ``index`` again; the lines that say so."""


class GameNeeds(Handing, Protocol):
    """What the running game asks of the other parts when it starts, moves and ends."""

    def game_began(self) -> None:
        """A game starts: nobody is offline or away, no AI turn, timeout or reset request is left over."""

    def game_ended(self) -> None:
        """The game ended: the same as at its start, and the turn clock stops."""

    def answered(self, seat: int) -> None:
        """The person of game seat ``seat`` made a move: their timeouts in a row count from zero."""


class PresenceNeeds(Handing, Protocol):
    """What the presence part asks of the others when the game pauses and goes on."""

    def pause_clock(self, now: float) -> None:
        """The turn clock stands still."""

    def resume_clock(self, now: float) -> None:
        """The turn clock runs again."""
