"""What the bot still has to send on Matrix: per-room queues taken round-robin, paused by a 429.

The same fairness as the IRC send queue (``irc/fairqueue.py``): lines wait per
room (a channel, or a player's direct-message room) and the next event is
taken from the next room in turn, so one player's long listing never holds up
another table; bulk listings wait behind game lines. When the homeserver
answers ``429`` with ``retry_after_ms``, the bot sends nothing for that long:
a homeserver limits an account, not a room, so trying another room meanwhile
only earns another 429 (Synapse answers each one half a second late, which
held every room up). The event stays at the head of its room's queue and is
sent again, never dropped, and the room keeps its turn (rooms refused earlier
go first). A room can also be held alone, while its direct room is opened.
Consecutive plain lines for one room are merged into one event when they
leave (fewer events, fewer 429s), and an edit of a board that is still waiting
takes the newer text instead of queueing a second edit.
"""

from __future__ import annotations

import collections
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Board:
    """One room's board message: the event the bot edits as the game goes on (None until sent)."""

    room_id: str
    event_id: str | None = None
    text: str = ""
    #: the game it shows: the next game gets a new board message
    game_id: int | None = None


@dataclass
class Item:
    """One event waiting: plain text, a board (new or an edit of ``board``), or a reaction to ``reply_to``.

    ``txn`` stays the same over retries, so a send that reached the homeserver before the connection
    broke is not posted twice.
    """

    room_id: str
    text: str
    kind: str = "text"  # "text" | "pre" | "board" | "edit" | "reaction"
    bulk: bool = False
    board: Board | None = None
    reply_to: str | None = None
    #: whom a reaction points to their direct chat (one such mark waiting per person is enough)
    about: str | None = None
    #: user IDs the line alerts (``m.mentions``)
    mentions: tuple[str, ...] = ()
    #: sent so that it notifies (an ``m.text``, not a notice)
    notify: bool = False
    #: the table asked for colours (``/colors on``): goods words are tinted in the HTML version
    colors: bool = False
    #: a send was tried: nothing more is merged in (a retry must carry what the first try carried)
    tried: bool = False
    txn: str = field(default_factory=lambda: uuid.uuid4().hex)
    #: when it was queued (the outbox's clock): how long it waited is the transport's to report
    queued: float = 0.0
    #: how many events had left the outbox when it was queued
    sent_before: int = 0

    def mergeable(self, other: Item) -> bool:
        return self.kind == other.kind == "text" and (self.bulk, self.colors) == (other.bulk, other.colors)


class Outbox:
    """Per-room queues, handed out round-robin; nothing while a 429 pauses the account; a room
    held alone is skipped until its time."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, merge_chars: int = 4000) -> None:
        self.clock = clock
        self.merge_chars = merge_chars
        self.rooms: dict[str, collections.deque[Item]] = {}
        self.ring: collections.deque[str] = collections.deque()
        self.held: dict[str, float] = {}
        #: until when the homeserver's last 429 asked the account to wait
        self.paused_until = 0.0
        #: rooms refused by a 429 since their last event left, and since when
        self.refused: dict[str, float] = {}
        self.retries = 0
        #: events that left (sent, or refused for good)
        self.sent = 0
        #: room -> how many events of other rooms left while its last event waited: the measure of
        #: fairness that does not depend on how fast the homeserver answers
        self.overtaken: dict[str, int] = {}

    def __len__(self) -> int:
        return sum(len(queue) for queue in self.rooms.values())

    def put(self, item: Item) -> None:
        if not item.queued:
            item.queued, item.sent_before = self.clock(), self.sent
        queue = self.rooms.get(item.room_id)
        if queue is None:
            queue = self.rooms[item.room_id] = collections.deque()
            self.ring.append(item.room_id)
        if item.kind == "edit":
            for waiting in queue:
                if waiting.kind in ("edit", "board") and waiting.board is item.board:
                    waiting.text = item.text  # the newer board replaces the one not sent yet
                    return
        if not item.bulk:
            for waiting in queue:
                waiting.bulk = False  # a game line behind a listing: the listing goes at game pace
        queue.append(item)

    def waiting(self, room_id: str, text: str) -> bool:
        """Whether the same text already waits, unsent, for the room (an answer asked for twice while
        the homeserver was away is said once)."""
        return any(item.text == text and not item.tried for item in self.rooms.get(room_id, ()))

    def pointing(self, room_id: str, user_id: str) -> bool:
        """Whether a reaction pointing ``user_id`` to their direct chat already waits in the room."""
        return any(
            i.kind == "reaction" and i.about == user_id and not i.tried for i in self.rooms.get(room_id, ())
        )

    def drop_bulk(self, room_id: str) -> int:
        """Forget the listing lines still waiting for a room (their player asked for something new)."""
        queue = self.rooms.get(room_id)
        if not queue:
            return 0
        kept = collections.deque(item for item in queue if not item.bulk)
        gone = len(queue) - len(kept)
        self.rooms[room_id] = kept
        self._forget_if_empty(room_id)
        return gone

    def wait(self) -> float | None:
        """Seconds until some room may send (0: now), None when nothing waits."""
        if not self.rooms:
            return None
        now = self.clock()
        room_free = min(self.held.get(room, 0.0) for room in self.rooms)
        return max(0.0, self.paused_until - now, room_free - now)

    def take(self) -> Item | None:
        """The next event to send, merged with the plain lines after it; it stays queued until ``done``."""
        now = self.clock()
        if now < self.paused_until:
            return None
        ready = [room for room in self.ring if self.held.get(room, 0.0) <= now]
        if not ready:
            return None
        refused = [r for r in ready if r in self.refused]
        if refused:  # a room the homeserver refused keeps its turn: the first refused goes first
            room = min(refused, key=self.refused.__getitem__)
        else:
            room = next((r for r in ready if not self.rooms[r][0].bulk), ready[0])
        queue = self.rooms[room]
        head = queue[0]
        while not head.tried and len(queue) > 1 and head.mergeable(queue[1]):
            if len(head.text) + len(queue[1].text) + 1 > self.merge_chars:
                break
            following = queue[1]
            del queue[1]
            head.text = f"{head.text}\n{following.text}"
            head.mentions = tuple(dict.fromkeys(head.mentions + following.mentions))
            head.notify = head.notify or following.notify
        return head

    def done(self, item: Item) -> None:
        """The event was sent: take it off its room and give the turn to the next room."""
        queue = self.rooms.get(item.room_id)
        if queue and queue[0] is item:
            self.overtaken[item.room_id] = self.sent - item.sent_before
            self.sent += 1
            queue.popleft()
            self.ring.remove(item.room_id)
            if queue:
                self.ring.append(item.room_id)
            else:
                del self.rooms[item.room_id]
        self.held.pop(item.room_id, None)
        self.refused.pop(item.room_id, None)

    def hold(self, room_id: str, seconds: float, limited: bool = True) -> None:
        """The homeserver said 429 to an event for this room (``limited``): nothing is sent for
        ``seconds``, then this room goes first. Not ``limited``: this room alone waits."""
        until = self.clock() + seconds
        if limited:
            self.retries += 1
            self.refused.setdefault(room_id, self.clock())
            self.paused_until = max(self.paused_until, until)
        else:
            self.held[room_id] = until

    def release(self, room_id: str) -> None:
        """A room held for something else than a 429 (its direct room being opened) may send again."""
        self.held.pop(room_id, None)

    def drop(self, item: Item) -> None:
        """An event the homeserver refuses for good (not a 429): it must not block its room."""
        self.done(item)

    def _forget_if_empty(self, room_id: str) -> None:
        if not self.rooms.get(room_id):
            self.rooms.pop(room_id, None)
            if room_id in self.ring:
                self.ring.remove(room_id)
