"""Garbage collection for a bot that runs for weeks: young objects seldom, the whole heap on a timer.

A running bot holds a large heap that lives long (every live table's state,
the rooms' recent lines, the game-log replays) and turns a little of it over
with each move. CPython's default policy rescans the whole heap whenever a
quarter of its long-lived part has turned over; at 200 live Jaipur tables on
the web path that was about 40% of the bot's CPU, and its pauses were the
slowest moves players waited for (p99 207 ms paced, 24 ms without them).

So, for ``bazaarbot run`` (and the load benchmark, which measures the same
bot): what is alive once the tables are restored is frozen out of
collection; the young generations are collected at a much higher threshold;
and a full collection runs on a timer (``FULL_EVERY``), not by the default
trigger, so cyclic garbage cannot pile up. Objects freed by reference
counting (nearly all of a table's) go at once, as always.

The young threshold is high because a young collection of this bot finds
next to nothing to free: at 1,000 saturated web tables, 15 seconds of young
and middle collections at 20,000 found no unreachable object at all, yet cost
about 2 s of the event loop's CPU (13%). What they scan is what a move adds
and keeps (log entries, history lines, the views last sent), each object once
however often they run, plus what dies a little later; the rarer they run,
the more of that has died first. At ``YOUNG_THRESHOLDS`` the same load spent
about 0.5 s, in pauses of under 0.2 s every few seconds; the middle
generation's collection, about 0.35 s every 15 s before, now comes about as
rarely as the timed sweep.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

#: allocations between young collections; the first survivors' collections between middle ones
YOUNG_THRESHOLDS = (200_000, 50)
#: the third threshold, out of reach: full collections come from the timer instead
NO_AUTOMATIC_FULL = 1_000_000_000
#: seconds between two full collections
FULL_EVERY = 300.0


@dataclass
class CollectorPolicy:
    """Installs the bot's collection policy, runs its timed full collections, and puts things back."""

    full_every: float = FULL_EVERY
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    collect: Callable[[], int] = gc.collect
    #: full collections run so far, and the seconds they took
    sweeps: int = 0
    sweep_seconds: float = 0.0
    _before: tuple[int, int, int] | None = field(default=None, init=False)

    def install(self) -> None:
        """Freeze what is alive now (the restored tables) and move full collections to the timer."""
        if self._before is not None:
            return
        self._before = gc.get_threshold()
        gc.collect()  # what start-up left behind goes now, before the rest is frozen
        gc.freeze()
        gc.set_threshold(*YOUNG_THRESHOLDS, NO_AUTOMATIC_FULL)

    def uninstall(self) -> None:
        """CPython's own policy again, and the frozen objects collectable again."""
        if self._before is None:
            return
        gc.set_threshold(*self._before)
        gc.unfreeze()
        self._before = None

    @property
    def installed(self) -> bool:
        return self._before is not None

    def sweep(self) -> int:
        """One full collection of what is not frozen; the unreachable objects it found."""
        started = time.perf_counter()
        found = self.collect()
        self.sweeps += 1
        self.sweep_seconds += time.perf_counter() - started
        return found

    async def run(self) -> None:
        """A full collection every ``full_every`` seconds, until cancelled."""
        while True:
            await self.sleep(self.full_every)
            try:
                self.sweep()
            except Exception:  # a collector failure must not stop the bot
                log.exception("the timed garbage collection failed")
