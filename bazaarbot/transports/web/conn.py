"""One browser websocket: its identity, its rooms, its frame budget and its outgoing queue.

Everything sent to a browser goes through a bounded queue (a deque: pushing a
frame costs an append). The first frame of a change asks the transport's
``Outbox`` to write the tab, which it does once the change is complete: what
waits leaves as one message, written at once where the socket takes it (no
task wakes for it). Only a send the socket cannot take at once (its buffer
full) goes on in a task, and what is queued meanwhile waits for it, so the hub
never waits on a slow browser; a browser that falls far behind (more frames,
or more bytes, waiting than its bound, see ``budget.py``) is cut off at once
(it reconnects and re-joins by itself).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from bazaarbot.speaking import may_speak
from bazaarbot.transports.web.budget import SendBudget
from bazaarbot.transports.web.encoding import BATCH_BYTES, batch, encode
from bazaarbot.transports.web.outbox import Outbox
from bazaarbot.transports.web.viewframe import SentView

log = logging.getLogger(__name__)

#: frames queued for one browser before it counts as stuck
QUEUE_LIMIT = 2000


@dataclass
class TokenBucket:
    """``burst`` frames at once, refilled at ``rate`` per second."""

    rate: float
    burst: float
    clock: Callable[[], float] = time.monotonic
    tokens: float = field(init=False)
    stamp: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = self.burst
        self.stamp = self.clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Conn:
    """A websocket from one browser tab (a player's, or a spectator's)."""

    def __init__(
        self,
        ws: web.WebSocketResponse,
        bucket: TokenBucket,
        address: str = "",
        now: float = 0.0,
        budget: SendBudget | None = None,
        transport: asyncio.BaseTransport | None = None,
        outbox: Outbox | None = None,
    ) -> None:
        self.ws = ws
        #: what writes this tab once a change is complete (the transport's, shared by its tabs)
        self.outbox = outbox if outbox is not None else Outbox()
        #: the byte bound of what waits to be sent (None: frames are counted only)
        self.budget = budget
        #: the TCP connection, aborted when the tab stops reading (a close frame would wait forever)
        self.transport = transport
        #: bytes of the frames queued and not yet written
        self.queued_bytes = 0
        self.bucket = bucket
        #: the remote address the per-address limits count it under
        self.address = address
        #: when the browser last sent a frame (the idle limits count from here)
        self.last_frame = now
        #: malformed frames received so far
        self.bad_frames = 0
        #: the admin name bound to this browser's claim, if it proved an admin token
        self.admin: str | None = None
        self.nick: str | None = None
        self.token: str | None = None
        self.greeted = False
        #: the language the browser says it shows (``hello {locales}``): "" none the bot speaks,
        #: None when the hello named none (a script, not a page)
        self.locale: str | None = None
        self.watching: str | None = None
        self.rooms: set[str] = set()
        #: rooms whose text board this tab shows though their game is drawn ("board as text" open)
        self.board_rooms: set[str] = set()
        #: per room, the table view last sent (``viewframe.SentView``, or ``NO_TABLE``), so a change
        #: sends only what differs and an unchanged table nothing
        self.views: dict[str, SentView | str] = {}
        #: per room, the long verbs this tab asked for (``moves``): its views carry their commands
        self.wanted: dict[str, set[str]] = {}
        #: the list of the nick's tables last sent (``tables`` frame), as JSON
        self.tables = ""
        #: the list object that JSON was made from (the same list again is the same JSON)
        self.tables_made: object = None
        #: per room, (game id, language, last move number) of the game log entries already sent
        self.logged: dict[str, tuple[int | None, str | None, int]] = {}
        self.warned = False
        self.dropped = 0
        self.dead = False
        self._closing: asyncio.Task[None] | None = None
        #: lines of this tab being handled: what they queue leaves together once they are done
        self.held = 0
        #: (frame, its size in bytes) waiting to be written, oldest first
        self.queue: deque[tuple[str, int]] = deque()
        #: the send the socket could not take at once, going on in a task (None: no send waits)
        self.sending: asyncio.Task[None] | None = None

    def push(self, frame: str) -> None:
        """Queue one frame; never waits."""
        if self.dead or self.ws.closed:
            return
        # its bytes in UTF-8: an ASCII frame (English lines, the page's data) is counted without encoding it
        size = len(frame) if frame.isascii() else len(frame.encode())
        budget = self.budget
        if budget is not None and not budget.fits(self.address, self.queued_bytes, size):
            self._cut_off("bytes")
            return
        queue = self.queue
        if len(queue) >= QUEUE_LIMIT:
            self._cut_off("frames")
            return
        queue.append((frame, size))
        if len(queue) == 1 and self.sending is None and not self.held:
            self.outbox.want(self)
        self.queued_bytes += size
        if budget is not None:
            budget.charge(self.address, size)

    def _cut_off(self, what: str) -> None:
        """Too much waits for a tab that does not read: drop what waits and disconnect it now."""
        log.warning("web client %s fell behind (%s waiting); disconnecting it", self.nick or "?", what)
        self.dead = True
        self._release_queue()
        if self.transport is not None:
            self.transport.abort()  # a close frame would wait behind what the tab does not read
        self._closing = asyncio.get_running_loop().create_task(self.close(1013, b"too slow"))

    def _release_queue(self) -> None:
        self.queue.clear()
        if self.budget is not None and self.queued_bytes:
            self.budget.refund(self.address, self.queued_bytes)
        self.queued_bytes = 0

    @contextlib.contextmanager
    def holding(self) -> Iterator[None]:
        """While a line of this tab is handled, its echo waits for the answers and the view it
        sets off, so the tab gets them in one message."""
        self.held += 1
        try:
            yield
        finally:
            self.held -= 1
            if not self.held and self.queue and self.sending is None and not self.dead:
                self.outbox.want(self)

    def send(self, kind: str, **fields: Any) -> None:
        self.push(encode(kind, **fields))

    def error(self, code: str, text: str) -> None:
        self.send("error", code=code, text=text)

    def write_waiting(self) -> None:
        """Write what waits, as one message (``batch``) per ``BATCH_BYTES``: a move costs a tab one
        write. A send the socket cannot take at once goes on in a task; the rest waits for it."""
        while self.queue and self.sending is None and not self.held and not self.dead:
            frames, sizes = self._next_batch()
            if not may_speak():  # past this process's lease: nothing more leaves
                self.dead = True
                self._release_queue()
                return
            if self.ws.closed:
                self._sent(sizes)
                return
            message = self.ws.send_str(batch(frames))
            try:
                awaited = message.send(None)
            except StopIteration:
                self._sent(sizes)
                continue
            except Exception:  # the socket refused it (closed, reset): the tab reconnects by itself
                self._sent(sizes)
                self._stop_writing()
                return
            self.sending = asyncio.get_running_loop().create_task(self._go_on(message, awaited, sizes))

    def _next_batch(self) -> tuple[list[str], int]:
        """The oldest frames waiting, up to ``BATCH_BYTES`` (one at least), and their size."""
        queue = self.queue
        frame, sizes = queue.popleft()
        frames = [frame]
        while queue and sizes < BATCH_BYTES:
            frame, size = queue.popleft()
            frames.append(frame)
            sizes += size
        return frames, sizes

    async def _go_on(self, message: Coroutine[Any, Any, None], awaited: Any, sizes: int) -> None:
        """Drive a send that waits (for the socket to drain) to its end, then write what queued."""
        stopped = False
        try:
            while True:
                try:
                    if awaited is None:  # a bare yield: the send gives the loop a turn
                        await asyncio.sleep(0)
                    else:  # a future the send yielded, taken over as a task takes it over
                        awaited._asyncio_future_blocking = False
                        await awaited
                except asyncio.CancelledError:
                    message.close()
                    raise
                except Exception:
                    pass  # the send reads the outcome of what it awaited itself
                try:
                    awaited = message.send(None)
                except StopIteration:
                    break
        except Exception:  # the socket refused it (closed, reset): the tab reconnects by itself
            stopped = True
        finally:
            self._sent(sizes)
            self.sending = None
        if stopped:
            self._stop_writing()
        else:
            self.write_waiting()

    def _sent(self, sizes: int) -> None:
        """The bytes of a message written (or given up) leave the tab's bound."""
        if not self.dead:  # once dead, _release_queue gives back everything, these frames too
            self.queued_bytes -= sizes
            if self.budget is not None:
                self.budget.refund(self.address, sizes)

    def _stop_writing(self) -> None:
        """The socket refused a message: nothing more is written to it (the tab reconnects)."""
        self.dead = True
        self._release_queue()

    async def close(self, code: int = 1001, message: bytes = b"", drain: float = 0.0) -> None:
        """Stop writing and close the socket (idempotent); with ``drain``, send what is queued first."""
        if drain > 0 and not self.dead:
            with contextlib.suppress(TimeoutError, asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._drained(), drain)
        self.dead = True
        sending = self.sending
        if sending is not None:
            sending.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sending
        self._release_queue()
        if not self.ws.closed:
            with contextlib.suppress(Exception):
                await self.ws.close(code=code, message=message)

    async def _drained(self) -> None:
        """Until everything queued is written (a line still being handled no longer holds it back)."""
        while (self.queue or self.sending is not None) and not self.dead and not self.ws.closed:
            if self.sending is None:
                held, self.held = self.held, 0
                try:
                    self.write_waiting()
                finally:
                    self.held = held
            if self.sending is not None:
                await asyncio.shield(self.sending)
