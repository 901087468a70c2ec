"""The tabs with frames waiting, written once the change that queued them is complete.

A move queues frames for every tab at its table: its lines first, then (a
moment later, once the views are built) the table's view. Each tab should get
them as one websocket message, and without a task of its own waking for it.
So a tab with frames waiting asks the outbox to be written (``want``); the
outbox writes every such tab in one pass on the event loop, after the pending
views are out (``ready`` is False while a flush of views is due: the flush
drains the outbox when it is done).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Protocol


class Writable(Protocol):
    """A tab whose waiting frames can be written now (``Conn``)."""

    def write_waiting(self) -> None: ...


def _always() -> bool:
    return True


class Outbox:
    """The tabs to write, in the order they asked, and the one pass that writes them."""

    def __init__(self, ready: Callable[[], bool] = _always) -> None:
        #: whether the change is complete (no flush of views due, which drains the outbox itself)
        self.ready = ready
        self._waiting: dict[Writable, None] = {}
        self._scheduled = False

    def want(self, tab: Writable) -> None:
        """``tab`` has frames waiting: write it in the next pass (one pass for all of them)."""
        self._waiting[tab] = None
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._pass)

    def _pass(self) -> None:
        self._scheduled = False
        if self.ready():
            self.drain()

    def drain(self) -> None:
        """Write every tab that asked; a tab that asks meanwhile is written in another pass."""
        tabs, self._waiting = self._waiting, {}
        for tab in tabs:
            tab.write_waiting()
