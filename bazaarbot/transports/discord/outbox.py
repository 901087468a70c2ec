"""Lines wait per destination and leave gathered: what queued while a message was on its way leaves as one.

Each room and each person's DM has its own queue and its own sender, so a
room that Discord rate-limits (discord.py waits its 429s out) never holds up
another. While one message is being sent, the next lines for the same place
gather, and leave together as few messages as Discord's 2,000 characters
allow: a run of AI turns in a busy channel costs one message, not one each.
Order within a destination is kept; a send that fails for want of a
connection is tried again, with a pause, a few times.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bazaarbot.transports.discord.picker import Button

log = logging.getLogger(__name__)

#: ("room", channel ID) or ("dm", user ID)
Destination = tuple[str, int]


@dataclass
class Piece:
    """One hub line (or a board) waiting for its destination."""

    text: str
    #: ``line`` (said as it is), ``block`` (a code block: a hand), ``board`` (the room's board message)
    kind: str = "line"
    #: the people this line alerts (mentioned, so Discord notifies them)
    pinged: frozenset[int] = frozenset()
    #: buttons the message carrying this line offers
    buttons: tuple[Button, ...] = ()
    #: a board message that starts anew at the bottom (a new game, or the board asked for again)
    fresh: bool = False
    #: the game a board piece shows
    game_id: int | None = None
    #: the language the buttons' words are in
    lang: str | None = None
    extra: dict[str, object] = field(default_factory=dict)


Sender = Callable[[Destination, list[Piece]], Awaitable[None]]


class Outbox:
    """Per-destination queues, each drained by its own task while it has lines."""

    def __init__(self, send: Sender) -> None:
        self._send = send
        self.queues: dict[Destination, collections.deque[Piece]] = {}
        self.tasks: dict[Destination, asyncio.Task[None]] = {}
        self.sent_batches = 0

    def __len__(self) -> int:
        return sum(len(queue) for queue in self.queues.values())

    def put(self, where: Destination, piece: Piece) -> None:
        self.queues.setdefault(where, collections.deque()).append(piece)
        if where not in self.tasks:
            self.tasks[where] = asyncio.get_running_loop().create_task(
                self._drain(where), name=f"discord-send-{where[0]}-{where[1]}"
            )

    async def _drain(self, where: Destination) -> None:
        queue = self.queues[where]
        try:
            while queue:
                batch = list(queue)
                queue.clear()
                try:
                    await self._send(where, batch)
                    self.sent_batches += 1
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("Discord: lines for %s %s could not be sent", *where)
        finally:
            self.tasks.pop(where, None)
            if not queue:
                self.queues.pop(where, None)

    async def idle(self) -> None:
        """Until nothing waits and nothing is being sent."""
        while self.tasks:
            await asyncio.gather(*list(self.tasks.values()), return_exceptions=True)

    async def close(self) -> None:
        for task in list(self.tasks.values()):
            task.cancel()
        for task in list(self.tasks.values()):
            with contextlib.suppress(BaseException):
                await task
        self.tasks.clear()
        self.queues.clear()
