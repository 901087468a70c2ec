"""One person's bulk output in a channel, bounded: boards and lists they ask for, per channel and time.

At one line a second a six-line board costs a channel six seconds; four
``!board`` in a row used to cost it half a minute. So a board asked for again by
the same person while nothing changed is sent once (``repeated``), and what one
person's requests put in a channel is bounded: past ``lines`` lines within
``window`` seconds the answer goes to them privately, with a line saying so
(``public``). The first answer in a window always goes where it was asked.
"""

from __future__ import annotations

import collections
import time
from collections.abc import Callable

#: a board asked for again within this many seconds, unchanged, is not sent again
REPEAT_SECONDS = 30.0
#: one person's bulk lines in one channel within ``WINDOW_SECONDS`` before the rest goes privately
PUBLIC_LINES = 12
WINDOW_SECONDS = 60.0
#: past this many (channel, person) records the expired ones are forgotten (the memory bound)
PRUNE_ABOVE = 2000


class PublicBulk:
    """Who put how many bulk lines in which channel lately, and which board each was last shown."""

    def __init__(
        self,
        lines: int = PUBLIC_LINES,
        window: float = WINDOW_SECONDS,
        repeat: float = REPEAT_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.lines = lines
        self.window = window
        self.repeat = repeat
        self.clock = clock
        self.sent: dict[tuple[str, str], collections.deque[tuple[float, int]]] = {}
        self.boards: dict[tuple[str, str], tuple[object, float]] = {}

    def repeated(self, channel: str, who: str, version: object) -> bool:
        """True when ``who`` was shown this very board in ``channel`` moments ago (else it is noted now)."""
        now = self.clock()
        last = self.boards.get((channel, who))
        if last is not None and last[0] == version and now - last[1] < self.repeat:
            return True
        self.boards[(channel, who)] = (version, now)
        if len(self.boards) > PRUNE_ABOVE:
            self.boards = {k: v for k, v in self.boards.items() if now - v[1] < self.repeat}
        return False

    def public(self, channel: str, who: str, count: int) -> bool:
        """Whether ``count`` more bulk lines of ``who`` may go to ``channel`` now (counted when they may)."""
        now = self.clock()
        key = (channel, who)
        recent = self.sent.get(key)
        if recent is None:
            if len(self.sent) > PRUNE_ABOVE:
                self._prune(now)
            recent = self.sent[key] = collections.deque()
        while recent and now - recent[0][0] >= self.window:
            recent.popleft()
        if sum(n for _at, n in recent) >= self.lines:
            return False
        recent.append((now, count))
        return True

    def _prune(self, now: float) -> None:
        self.sent = {k: q for k, q in self.sent.items() if q and now - q[-1][0] < self.window}
