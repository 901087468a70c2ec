"""Which queued line leaves next: per-target queues taken round-robin, bulk listings last.

One player's long answer must never hold up another table. So lines wait per
target (a channel, a nick, or ``""`` for lines to the server itself) and the
next line is taken from the next target in turn. Three classes, first served
first: control lines (``front``: JOIN, NICK, MODE, IDENTIFY), then game lines
(every channel line and every private line that is not a listing: moves,
boards, hands, prompts, clock warnings), then bulk private listings. The order
of lines to one target never changes: when a game line is queued behind a
listing for the same nick, that listing's queued lines are promoted to game
class so the game line is not starved. Listing lines may be dropped
(``drop_bulk``) when their player asks for something new; game lines are never
dropped except by ``limit``, the memory bound of a connection gone wild.

A private line may name its ``owner`` (the identity it is for); the lines of a
target follow a nick change (``rename``) and go when their reader quits or the
server says the nick is gone (``drop_target``).

Bulk lines in a channel (a board, a list somebody asked for) *yield*: a game
line queued later for the same channel goes before them, so a move's
announcement never waits behind a board. A board is state, not history: its
lines carry what they show (``Shows``), and before one leaves the queue asks
whether that is still current; if the table changed meanwhile, the board's
waiting lines are replaced by the same lines of its drawing as it is now (or
dropped), so no stale line leaves and no line is repeated.
"""

from __future__ import annotations

import collections
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol

log = logging.getLogger(__name__)


class Shows(Protocol):
    """What the lines of one drawing show (a channel's board), asked before each of them leaves."""

    def stale(self) -> bool:
        """Whether what was drawn has changed since."""

    def redraw(self, waiting: int) -> list[str]:
        """The lines to send in place of the ``waiting`` ones not sent yet, showing it as it is now.

        The lines of the drawing that already left are not repeated: the rest of it comes as it is
        now ([] when nothing is left to show); what the lines show is current again.
        """


@dataclass
class Queued:
    """One line waiting for its turn; ``bulk`` while it is part of a listing; ``owner`` it is for.

    A ``yields`` line lets game lines queued later for its target go first; ``shows``
    is what a board line shows, checked before it leaves.
    """

    line: str
    bulk: bool = False
    owner: str | None = None
    yields: bool = False
    shows: Shows | None = None


class FairQueue:
    """Lines per target, handed out round-robin between targets under one send order."""

    def __init__(self, limit: int = 10_000) -> None:
        self.limit = limit
        self.front: collections.deque[str] = collections.deque()
        self.targets: dict[str, collections.deque[Queued]] = {}
        #: targets with lines, in the order they get their next turn
        self.ring: collections.deque[str] = collections.deque()
        self.dropped = 0
        #: board lines taken out before they left because the table had changed (drawn again instead)
        self.stale = 0
        self._count = 0

    def __len__(self) -> int:
        return self._count + len(self.front)

    def __bool__(self) -> bool:
        return len(self) > 0

    def __iter__(self) -> Iterator[str]:
        """Every waiting line: control lines, then each target's lines (not the exact send order)."""
        yield from self.front
        for queue in self.targets.values():
            for item in queue:
                yield item.line

    def put(
        self,
        line: str,
        target: str = "",
        bulk: bool = False,
        front: bool = False,
        owner: str | None = None,
        yields: bool = False,
        shows: Shows | None = None,
    ) -> Queued | None:
        """Queue a line for ``target``; ``front`` lines (control) go before everything else.

        ``yields`` (bulk channel output) and ``shows`` (a board's drawing) make it a line that
        later game lines of the same target pass (between targets it takes its turn as they do).
        """
        if len(self) >= self.limit:
            self._shed()
        if front:
            self.front.appendleft(line)
            return None
        queue = self.targets.get(target)
        if queue is None:
            queue = self.targets[target] = collections.deque()
            self.ring.append(target)
        if yields or shows is not None:  # round-robin as game lines, yet yielding
            item = Queued(line, owner=owner, yields=True, shows=shows)
            queue.append(item)
        elif not bulk:
            ahead = next((i for i, item in enumerate(queue) if item.yields), len(queue))
            for index in range(ahead):
                queue[index].bulk = False  # a game line behind a listing: the listing goes at game pace
            item = Queued(line, owner=owner)
            queue.insert(ahead, item)  # ... but it passes a channel's boards and lists
        else:
            item = Queued(line, bulk, owner)
            queue.append(item)
        self._count += 1
        return item

    def holds(self, target: str, item: Queued) -> bool:
        """Whether ``item`` still waits for ``target`` (it may be changed until it leaves)."""
        return any(queued is item for queued in self.targets.get(target, ()))

    def peek(self) -> tuple[str | None, str]:
        """The target whose turn it is (None for a control line) and its next line; raises when empty.

        A board line whose table changed since it was drawn never shows: its drawing is replaced
        by the current one first (which may leave nothing at all; IndexError when nothing is left).
        """
        if self.front:
            return None, self.front[0]
        while True:
            target = self._next_target()
            if self._current(target):
                return target, self.targets[target][0].line

    def showing(self, target: str) -> bool:
        """Whether a board drawing waits for ``target`` (a new request for it can wait with it)."""
        return any(item.shows is not None for item in self.targets.get(target, ()))

    def _current(self, target: str) -> bool:
        """True when ``target``'s next line shows nothing stale; else its stale drawing is drawn again."""
        queue = self.targets[target]
        shows = queue[0].shows
        if shows is None or not shows.stale():
            return True
        kept = [item for item in queue if item.shows is not shows]
        try:
            lines = shows.redraw(len(queue) - len(kept))
        except Exception:
            log.exception("a board could not be drawn again; its stale lines are dropped")
            lines = []
        fresh = [Queued(line, yields=True, shows=shows) for line in lines]
        self._count += len(fresh) + len(kept) - len(queue)
        self.stale += len(queue) - len(kept)
        if fresh or kept:
            self.targets[target] = collections.deque(fresh + kept)
        else:
            del self.targets[target]
            self.ring.remove(target)
        return False

    def owner(self, target: str | None) -> str | None:
        """The identity the line ``peek`` showed is for (None: anybody under that target)."""
        return None if target is None else self.targets[target][0].owner

    def drop_target(self, target: str) -> int:
        """Forget every line still waiting for ``target`` (its reader quit, or the nick is gone)."""
        queue = self.targets.pop(target, None)
        if not queue:
            return 0
        self.ring.remove(target)
        self._count -= len(queue)
        self.dropped += len(queue)
        return len(queue)

    def rename(self, old: str, new: str, rewrite: Callable[[str], str], owners: dict[str, str]) -> None:
        """The lines for ``old`` follow its nick change to ``new`` (each line rewritten, owners mapped)."""
        queue = self.targets.pop(old, None)
        if queue is None:
            return
        self.ring.remove(old)
        for item in queue:
            item.line = rewrite(item.line)
            if item.owner is not None:
                item.owner = owners.get(item.owner, item.owner)
        moved = self.targets.get(new)
        if moved is None:
            self.targets[new] = queue
            self.ring.append(new)
        else:
            moved.extend(queue)

    def pop(self, target: str | None) -> str:
        """Take the line ``peek`` showed for ``target`` and give that target's turn to the next one."""
        if target is None:
            return self.front.popleft()
        queue = self.targets[target]
        item = queue.popleft()
        self._count -= 1
        self.ring.remove(target)
        if queue:
            self.ring.append(target)
        else:
            del self.targets[target]
        return item.line

    def discard(self, target: str | None) -> str:
        """Drop the line ``peek`` showed (it cannot be sent) without moving the turn."""
        self.dropped += 1
        if target is None:
            return self.front.popleft()
        queue = self.targets[target]
        item = queue.popleft()
        self._count -= 1
        if not queue:
            self.ring.remove(target)
            del self.targets[target]
        return item.line

    def drop_bulk(self, target: str) -> int:
        """Forget the unsent listing lines for ``target`` (its player asked again); game lines stay."""
        queue = self.targets.get(target)
        if not queue:
            return 0
        kept = collections.deque(item for item in queue if not item.bulk)
        gone = len(queue) - len(kept)
        self._count -= gone
        if kept:
            self.targets[target] = kept
        else:
            del self.targets[target]
            self.ring.remove(target)
        return gone

    def clear(self) -> None:
        self.front.clear()
        self.targets.clear()
        self.ring.clear()
        self._count = 0

    def _next_target(self) -> str:
        if not self.ring:
            raise IndexError("nothing is queued")
        for target in self.ring:
            if not self.targets[target][0].bulk:
                return target
        return self.ring[0]

    def _shed(self) -> None:
        """Full: drop the oldest listing line if there is one, else the oldest line of the longest target."""
        victim = next(
            (
                (target, index)
                for target in self.ring
                for index, item in enumerate(self.targets[target])
                if item.bulk
            ),
            None,
        )
        if victim is None and self.targets:
            victim = max(self.targets, key=lambda t: len(self.targets[t])), 0
        if victim is not None:
            target, index = victim
            del self.targets[target][index]
            self._count -= 1
            self._forget_if_empty(target)
            log.warning("send queue full: dropped a line for %s", target or "the server")
        elif self.front:
            self.front.pop()
            log.warning("send queue full: dropped a control line")
        else:
            return
        self.dropped += 1

    def _forget_if_empty(self, target: str) -> None:
        if not self.targets[target]:
            del self.targets[target]
            self.ring.remove(target)
