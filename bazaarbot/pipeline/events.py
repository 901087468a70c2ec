"""The events after-commit work subscribes to: a game finished, a table changed.

The hub raises them and knows nothing of what listens: ratings, snapshots and
the seat index each subscribe once when the hub is built.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum

from bazaarbot.table import Table


class Change(Enum):
    """How a table came to change."""

    #: the work of a unit used or wrote it; the unit is closing, so writes made now join it
    UNIT = "unit"
    #: changed outside any unit (a test or a start-up step using the table directly)
    OUTSIDE = "outside"
    #: read back from disk after a failed line or commit
    RELOADED = "reloaded"


#: (table, id of the game that ended with a result) -> lines for the table's channel
GameFinished = Callable[[Table, int], list[str]]
TableChanged = Callable[[Table, Change], None]


class TableEvents:
    """Subscribers per event, called in the order they subscribed."""

    def __init__(self) -> None:
        self._finished: list[GameFinished] = []
        self._changed: list[TableChanged] = []

    def on_game_finished(self, subscriber: GameFinished) -> None:
        self._finished.append(subscriber)

    def on_table_changed(self, subscriber: TableChanged) -> None:
        self._changed.append(subscriber)

    def game_finished(self, table: Table, game_id: int) -> list[str]:
        """A game at ``table`` ended with a result; what its subscribers say at once."""
        return [text for subscriber in self._finished for text in subscriber(table, game_id)]

    def table_changed(self, table: Table, how: Change) -> None:
        for subscriber in self._changed:
            subscriber(table, how)
