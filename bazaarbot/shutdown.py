"""Stopping the bot in an order that keeps the most: snapshots first, then every step, each guarded.

Every accepted move is already in the move log, so a shutdown can lose
nothing that was answered; what it adds is convenience (snapshots for a fast
restart, the web rooms' recent lines). On a full disk each of those writes
may fail. Snapshots go first, as the most useful; each later step runs
whatever happened before it, and a step that fails is logged once, in one
line, never as a traceback that skips the steps after it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

log = logging.getLogger(__name__)


async def _step(what: str, action: Callable[[], Awaitable[object] | object]) -> bool:
    """Run one shutdown step; log its failure once and carry on."""
    try:
        result = action()
        if isinstance(result, Awaitable):
            await result
    except Exception as error:
        log.error("shutdown: %s failed: %s", what, error)
        return False
    return True


async def shut_down(hub: Any, transports: Sequence[Any]) -> bool:
    """Snapshots, then each transport stops (the web saves its rooms' lines), then the store closes.

    True when every step succeeded.
    """
    ok = await _step("writing the games' snapshots", hub.snapshot_all)
    for transport in transports:
        network = getattr(transport, "network", "?")
        ok = await _step(f"stopping {network}", transport.stop) and ok
    ok = await _step("closing the store", lambda: hub.close(snapshot=False)) and ok
    return ok
