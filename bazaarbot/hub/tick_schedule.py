"""Which tables the turn clock's tick looks at: the ones that may have something due.

Between changes a table's tick has nothing to do until a time the table can
say (``Table.next_tick``): its clock's next reminder or timeout, its paused
game's abandon warning or end. A table whose tick said nothing sleeps until
then; whatever changes it (a line, an AI's move, a reload, its network going
down or up) wakes it. A tick looks only at the tables awake: the ones that
changed since their last tick and the ones whose time has come. Looking at
every table each second read each one's parts, and on a busy machine, whose
caches are cold a second later, that was about ten milliseconds of CPU per
second at 300 tables with nothing due.

Owns the awake and the sleeping tables; it reads nothing of a table but its identity.
"""

from __future__ import annotations

import heapq
import itertools
import math

from bazaarbot.table import Table

#: the heap is rebuilt when it holds more than this many times the tables asleep on a time (plus a few)
_STALE_FACTOR = 2


class TickSchedule:
    """The tables awake, and the ones asleep, each until the time its tick next has something to do."""

    def __init__(self) -> None:
        #: the tables awake, in the order they woke (a tick's lines come in that order)
        self._awake: dict[Table, None] = {}
        #: table -> the wall time before which its tick does nothing (``inf``: until it changes)
        self._until: dict[Table, float] = {}
        #: (until, order, table) of the tables asleep on a time; an entry whose table woke or went
        #: to sleep again since is stale and skipped
        self._heap: list[tuple[float, int, Table]] = []
        self._order = itertools.count()

    def wake(self, table: Table) -> None:
        """``table`` is new or changed: the next tick looks at it."""
        self._until.pop(table, None)
        self._awake[table] = None

    def sleep(self, table: Table, until: float | None) -> None:
        """``table``'s tick has nothing to do before ``until`` (None: before the table changes)."""
        self._awake.pop(table, None)
        until = math.inf if until is None else until
        self._until[table] = until
        if until != math.inf:
            heapq.heappush(self._heap, (until, next(self._order), table))
            if len(self._heap) > _STALE_FACTOR * len(self._until) + 64:
                self._rebuild()

    def due(self, now: float) -> list[Table]:
        """The tables to look at at ``now``: the ones awake and those whose time has come."""
        heap, until = self._heap, self._until
        while heap and heap[0][0] <= now:
            when, _order, table = heapq.heappop(heap)
            if until.get(table) == when:
                del until[table]
                self._awake[table] = None
        return list(self._awake)

    def _rebuild(self) -> None:
        """Only the live entries, once stale ones (tables that woke before their time) pile up."""
        self._heap = [
            (when, next(self._order), table) for table, when in self._until.items() if when != math.inf
        ]
        heapq.heapify(self._heap)
