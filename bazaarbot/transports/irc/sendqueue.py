"""Outgoing pacing: one token bucket and one asyncio sender task per connection, fair between targets.

Servers throttle or kill a client that sends too fast (ngircd delays a client
that sends more than 3 commands per read or 256 bytes within a second; InspIRCd's
default class allows a burst of about 9 and then 1 command per second and kills a
client whose backlog grows). The bucket lets ``burst`` lines go at once, then
``rate`` lines per second. The sender awaits; nothing ever sleeps on the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from bazaarbot.transports.irc.fairqueue import FairQueue, Queued, Shows

log = logging.getLogger(__name__)


class TokenBucket:
    """``burst`` tokens, refilled at ``rate`` per second; a line costs one token."""

    def __init__(self, burst: int, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        if burst < 1 or rate <= 0:
            raise ValueError("a token bucket needs burst >= 1 and rate > 0")
        self.burst = float(burst)
        self.rate = rate
        self.clock = clock
        self.tokens = float(burst)
        self.stamp = clock()

    def _refill(self) -> None:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def delay(self) -> float:
        """Seconds until one token is there (0 when it is there now)."""
        self._refill()
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate

    def take(self, cost: float = 1.0) -> None:
        """Spend ``cost`` tokens; the level may go below zero (a line that had to go at once)."""
        self._refill()
        self.tokens -= cost


class SendQueue:
    """Lines wait here (fairly, per target: ``FairQueue``) and leave through ``write`` as the bucket allows.

    ``clock`` and ``sleep`` are injectable so pacing can be tested against a fake clock with the
    real default settings, never with long sleeps.
    """

    def __init__(
        self,
        write: Callable[[str], None],
        burst: int,
        rate: float,
        limit: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        may_send: Callable[[str, str], bool] = lambda target, owner: True,
    ) -> None:
        self.write = write
        #: asked at the moment of sending whether ``owner`` still holds ``target`` (a nick can change hands)
        self.may_send = may_send
        self.bucket = TokenBucket(burst, rate, clock)
        self.waiting = FairQueue(limit)
        self.sleep = sleep
        self.sent = 0
        self._wake = asyncio.Event()
        self._open = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._task: asyncio.Task[None] | None = None

    @property
    def lines(self) -> list[str]:
        """Every line still waiting (control lines first, then per target)."""
        return list(self.waiting)

    @property
    def dropped(self) -> int:
        return self.waiting.dropped

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="irc-sender")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def put(
        self,
        line: str,
        front: bool = False,
        target: str = "",
        bulk: bool = False,
        owner: str | None = None,
        yields: bool = False,
        shows: Shows | None = None,
    ) -> Queued | None:
        """Queue one line (already cleaned and within the length limit) for ``target``; returns it queued.

        ``front`` (control lines) jumps every queue; ``bulk`` marks a line of a private listing,
        which waits behind game lines and may be dropped by ``drop_bulk``; a line with an ``owner``
        leaves only while ``may_send(target, owner)`` says so when its turn comes, else it is dropped;
        ``yields`` (a channel's bulk output) and ``shows`` (a board, drawn again if stale when its
        turn comes) let later game lines of the same target pass.
        """
        item = self.waiting.put(line, target, bulk=bulk, front=front, owner=owner, yields=yields, shows=shows)
        self._idle.clear()
        self._wake.set()
        return item

    def drop_bulk(self, target: str) -> int:
        """Forget the listing lines still waiting for ``target``; game lines stay queued."""
        gone = self.waiting.drop_bulk(target)
        if not self.waiting:
            self._idle.set()
        return gone

    def drop_target(self, target: str) -> int:
        """Forget every line waiting for ``target``: its reader is gone."""
        gone = self.waiting.drop_target(target)
        if not self.waiting:
            self._idle.set()
        return gone

    def send_now(self, line: str) -> None:
        """Write a control line (PONG, CAP, registration) at once; it still counts against the bucket."""
        self.bucket.take()
        self.write(line)

    def pause(self) -> None:
        """Hold queued lines (not connected, or not yet registered)."""
        self._open.clear()

    def resume(self) -> None:
        self._open.set()

    def clear(self) -> None:
        self.waiting.clear()
        self._idle.set()

    def backlog_seconds(self) -> float:
        """About how long the lines waiting now take to leave at the paced rate (0 when empty)."""
        return len(self.waiting) / self.bucket.rate if self.waiting else 0.0

    async def drained(self) -> None:
        """Wait until every queued line has been written."""
        await self._idle.wait()

    async def _run(self) -> None:
        while True:
            if not self.waiting:
                self._idle.set()
                self._wake.clear()
                await self._wake.wait()
                continue
            await self._open.wait()
            wait = self.bucket.delay()
            if wait > 0:
                await self.sleep(wait)
                continue
            if not self._open.is_set() or not self.waiting:
                continue
            try:
                target, line = self.waiting.peek()
            except IndexError:  # all that waited was a stale board, and there is nothing to show now
                continue
            owner = self.waiting.owner(target)
            if target is not None and owner is not None and not self.may_send(target, owner):
                self.waiting.discard(target)  # the nick changed hands since the line was queued
                log.info("a private line withheld: its nick is not its owner's now")
                continue
            try:
                self.write(line)
            except (ConnectionError, OSError) as error:
                # not connected after all: keep the line for after the reconnect
                log.debug("write failed (%s); holding %d lines", error, len(self.waiting))
                self._open.clear()
                continue
            except Exception:
                # a line the connection refuses (too long, bad characters) must not block the rest
                log.exception("dropped an unsendable line")
                self.waiting.discard(target)
                continue
            self.waiting.pop(target)
            self.bucket.take()
            self.sent += 1
