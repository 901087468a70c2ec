"""After-commit work: a game that ended with a result is rated once that result is on disk; answers
read from the records (``Context.after_commit``) are read then too, off the event loop on a server."""

from __future__ import annotations

import logging

from bazaarbot.messages import Outgoing, Say
from bazaarbot.ratings import Ratings
from bazaarbot.store import Store
from bazaarbot.store.writer import Unit
from bazaarbot.table import Table

log = logging.getLogger(__name__)


class RateAfterCommit:
    """Subscribes to game-finished; says each rating line after the commit of the unit that ended it."""

    def __init__(self, store: Store, ratings: Ratings) -> None:
        self.store = store
        self.ratings = ratings

    def game_finished(self, table: Table, game_id: int) -> list[str]:
        """Kept with the line's unit, so it is rated after that unit's commit and never another's.

        Outside a line the result is already on disk: rated at once.
        """
        unit = self.store.writer.open
        if unit is None:
            return self.ratings.after_game(game_id)
        unit.after.append((table.network, table.channel, table.colors, game_id))
        return []

    def lines(self, unit: Unit) -> list[Outgoing]:
        """The ratings line of every game that ended in ``unit`` (just committed)."""
        pending, unit.after = unit.after, []
        return [
            Say(network, channel, text, colors=colors)
            for network, channel, colors, game_id in pending
            for text in self.ratings.after_game(game_id)
        ]


def read_answers(unit: Unit) -> list[Outgoing]:
    """The answers ``unit`` left to read from the records once on disk (a failed one: logged, none)."""
    reads, unit.reads = unit.reads, []
    out: list[Outgoing] = []
    for read in reads:
        try:
            out += read()
        except Exception:
            log.exception("an answer read from the store failed")
    return out
