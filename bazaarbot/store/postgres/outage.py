"""The store cannot be reached: said once when it starts, then a line a minute, and once when it ends.

A process waiting for the database (a standby, or a serving process that gave its
networks up when the database went away) tries again every fraction of a lease; a
log line per try would bury everything else, so the log hears of an outage at its
start, every minute it lasts, and at its end.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

log = logging.getLogger("bazaarbot.store")

#: seconds between two lines about the same outage
EVERY = 60.0


class Outage:
    """One process's view of whether the store answers, and what it has said about it."""

    def __init__(self, what: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.what = what
        self.clock = clock
        #: when the present outage began (None: the store answers)
        self.since: float | None = None
        self._said_at = 0.0

    def failed(self, error: BaseException) -> None:
        """A try failed: a line at the outage's start and then once a minute."""
        now = self.clock()
        reason = str(error).strip().splitlines()[0][:160] if str(error).strip() else type(error).__name__
        if self.since is None:
            self.since = self._said_at = now
            log.warning(
                "the database cannot be reached (%s): is the server of [store] url up? "
                "%s waits for it and tries again (a line a minute)",
                reason,
                self.what,
            )
        elif now - self._said_at >= EVERY:
            self._said_at = now
            log.warning(
                "the database still cannot be reached after %d s (%s); %s waits for it",
                round(now - self.since),
                reason,
                self.what,
            )

    def answered(self) -> None:
        """A try reached the store: the outage (if any) is over."""
        if self.since is not None:
            log.warning("the database answers again after %d s", round(self.clock() - self.since))
            self.since = None
