"""The Matrix transport: one bot account on one homeserver, a network of its own, on matrix-nio.

A room is a channel; a player's private lines go to a direct room with them
that the bot opens (or reuses: ``state.py``) and marks ``m.direct``. Identity
is the Matrix user ID, which the homeserver vouches for: a seat is bound to
``@name:server`` (``User.account``); a display name is never used. ``start``
returns at once; a background task logs in, joins the configured rooms, and
syncs, with jittered exponential backoff after any loss (the hub's turn clocks
of this network stand still meanwhile). The sync token is kept in the bot's
store once a batch's lines are handled, so a restart replays nothing and
misses nothing. Sending goes through ``Outbox`` (fair per room; a ``429``
holds its room for ``retry_after_ms`` and the event is sent again). Boards and
hands go as ``<pre>`` blocks; each table has one board message that is edited
as the game goes on; a line in a room that is answered only privately gets a
reply there saying where its answer went.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import random
import time
import urllib.parse
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
from nio import (
    AsyncClient,
    AsyncClientConfig,
    InviteMemberEvent,
    JoinResponse,
    LoginResponse,
    RoomCreateResponse,
    RoomMemberEvent,
    RoomSendResponse,
    SyncResponse,
)
from nio.api import RoomPreset

from bazaarbot.config import MatrixAccount
from bazaarbot.messages import Incoming, Outgoing, Say, Tell, User
from bazaarbot.speaking import may_speak
from bazaarbot.text.commandmark import render
from bazaarbot.transports.base import HubPort
from bazaarbot.transports.hello import hello
from bazaarbot.transports.matrix import content
from bazaarbot.transports.matrix.outbox import Board, Item, Outbox
from bazaarbot.transports.matrix.state import MatrixState
from bazaarbot.transports.welcome_back import welcome_back

#: how commands are named in what the bot says: Matrix clients such as Element keep a leading ``/``
COMMAND_PREFIX = "!"

log = logging.getLogger(__name__)

#: what a sync asks for: no presence, room timelines long enough not to miss lines after a short outage
SYNC_FILTER: dict[str, Any] = {
    "presence": {"not_types": ["*"]},
    "account_data": {"types": ["m.direct"]},
    "room": {"timeline": {"limit": 100}, "ephemeral": {"not_types": ["*"]}},
}
#: the reaction on a room line whose answer went to the direct chat (a mark, not a line)
ANSWERED_PRIVATELY = "\u2709\ufe0f"
#: the longest wait between two tries to reach a lost homeserver: play resumes within it once it answers
RECONNECT_CAP = 4.0
#: the shortest wait after a 429 (seconds)
MIN_HOLD = 0.1
#: added to a 429's wait: the homeserver reckons it from when the request reached it, a little
#: after it was sent, and a retry that comes even a moment early is refused (half a second late)
RETRY_MARGIN = 0.1
#: a player's lines wait at most this long for their direct room to open (it is released at once when open)
OPENING_HOLD = 60.0
#: errors that mean "not connected now": the line waits for the reconnect
NETWORK_ERRORS = (aiohttp.ClientError, OSError, TimeoutError, asyncio.TimeoutError)


def reconnect_delay(attempt: int, low: float, high: float) -> float:
    """The wait before try ``attempt`` (1, 2, ...) to reach a lost homeserver: doubling from ``low``,
    never above ``high``, jittered (many bots of one homeserver do not come back at one instant)."""
    return min(high, low * 2 ** min(attempt - 1, 16)) * random.uniform(0.5, 1.0)


def is_user_id(text: str) -> bool:
    return text.startswith("@") and ":" in text and " " not in text


def user_of(user_id: str) -> User:
    """A Matrix sender: the homeserver vouches for the ID, so it is both the nick and the account."""
    return User(nick=user_id, account=user_id)


@dataclass
class _Watch:
    """What the hub answered to one room line: a line answered only privately gets a pointer there."""

    room_id: str
    event_id: str
    channel: str
    sender: str
    public: bool = False
    private: bool = False


class MatrixTransport:
    """One configured ``[[matrix.accounts]]`` entry, attached to the hub."""

    def __init__(
        self,
        settings: MatrixAccount,
        *,
        reconnect_min: float = 1.0,
        reconnect_max: float = RECONNECT_CAP,
        sync_timeout: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.settings = settings
        self.network = settings.name
        self.reconnect_min = reconnect_min
        self.reconnect_max = reconnect_max
        #: the wait between two tries to reach a lost homeserver (tests hold it in their hand)
        self.sleep = sleep
        self.sync_timeout = sync_timeout
        self.hub: HubPort | None = None
        self.state: MatrixState | None = None
        self.client: AsyncClient | None = None
        self.outbox = Outbox(clock)
        self.online = asyncio.Event()
        self.synced = asyncio.Event()
        #: room ID -> channel name, and the other way (lower-cased channel)
        self.channels: dict[str, str] = {}
        self.rooms: dict[str, str] = {}
        #: user ID -> their direct room, and the other way
        self.dms: dict[str, str] = {}
        self.dm_owner: dict[str, str] = {}
        self.boards: dict[str, Board] = {}
        self.sent = 0
        #: events sent, to rooms (public) and to direct chats (private), for the metrics
        self.sent_by_kind: collections.Counter[str] = collections.Counter()
        #: room (or player) -> how long its last event waited in the outbox before it was first sent
        self.waited: dict[str, float] = {}
        self.syncs = 0
        self.next_batch: str | None = None
        self._stopping = False
        self._watch: _Watch | None = None
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._inbox: asyncio.Queue[Callable[[], Awaitable[None]]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._opening: dict[str, asyncio.Task[None]] = {}
        self._handling = False
        #: rooms whose board may have changed with the lines just queued (room -> channel, colours)
        self._boards_due: dict[str, tuple[str, bool]] = {}

    # --- the Transport protocol ------------------------------------------------------------------
    async def start(self, hub: HubPort) -> None:
        """Load what the store keeps, then log in and sync in the background; returns at once."""
        self.hub = hub
        hub.attach(self)
        self._stopping = False
        self.state = MatrixState(hub.database, self.network)
        self.next_batch = self.state.next_batch()
        for room_id, channel in self.state.rooms().items():
            self._map(room_id, channel)
        for user_id, room_id in self.state.dms().items():
            self.dms[user_id], self.dm_owner[room_id] = room_id, user_id
        self.boards = {
            room: Board(room, event, text=text, game_id=game)
            for room, (event, game, text) in self.state.boards().items()
        }
        labels = {"network": self.network}
        hub.metrics.gauge(
            "bazaarbot_matrix_queued", "Matrix events waiting to be sent", self.outbox.__len__, labels
        )
        hub.metrics.gauge(
            "bazaarbot_matrix_429s", "Matrix 429 answers waited out", lambda: self.outbox.retries, labels
        )
        for kind in ("public", "private"):
            hub.metrics.counted(
                "bazaarbot_matrix_events_sent",
                "Matrix events sent to rooms (public) and direct chats (private)",
                lambda kind=kind: self.sent_by_kind[kind],
                {**labels, "kind": kind},
            )
        loop = asyncio.get_running_loop()
        for coro, name in ((self._run(), "sync"), (self._dispatch(), "dispatch"), (self._sender(), "send")):
            self._tasks.append(loop.create_task(coro, name=f"matrix-{self.network}-{name}"))

    async def stop(self, drain: float = 3.0) -> None:
        """Handle the lines read, send what is queued (for up to ``drain`` seconds), then disconnect.

        The sync token is kept only once its lines are handled, so a line read but not handled
        yet is read again after the restart, and none is handled twice.
        """
        if self.online.is_set() and drain > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.idle(), drain)
        self._stopping = True
        for task in [*self._tasks, *self._opening.values()]:
            task.cancel()
        for task in [*self._tasks, *self._opening.values()]:
            with contextlib.suppress(BaseException):
                await task
        self._tasks.clear()
        self.online.clear()
        if self.client is not None:
            await self.client.close()

    async def send(self, message: Outgoing) -> None:
        """Queue a Say for its room or a Tell for its player's direct room (never waits for the network)."""
        if isinstance(message, Say):
            if message.brief and self._board_posted(message.channel):
                return  # the game's board has a message of its own: one board at a start, not two
            room_id = self.rooms.get(message.channel.lower())
            if message.listing and room_id is not None and self.outbox.waiting(room_id, message.text):
                return  # the same answer (/status) asked again while the first still waits: said once
            self._say(message.channel, message.text, message.colors, message.mentions)
        elif isinstance(message, Tell):
            self._tell(message)

    def present(self, channel: str) -> list[User]:
        """The people joined to the channel's room now (``/notify`` calls only them)."""
        room_id = self.rooms.get(channel.lower())
        client = self.client
        room = client.rooms.get(room_id) if client is not None and room_id is not None else None
        if room is None:
            return []
        return [user_of(user_id) for user_id in room.users if user_id != self.settings.user_id]

    def backlog_seconds(self) -> float:
        """About how long the events waiting now take to leave (a turn clock starts once they left)."""
        waiting = len(self.outbox)
        held = self.outbox.wait() or 0.0
        return 0.0 if not waiting else held + waiting * 0.05

    # --- sending ----------------------------------------------------------------------------------
    def _board_posted(self, channel: str) -> bool:
        """Whether the running game of ``channel`` has its board message (posted, or queued to be)."""
        room_id = self.rooms.get(channel.lower())
        slot = self.boards.get(room_id) if room_id is not None else None
        hub = self.hub
        return slot is not None and hub is not None and slot.game_id == hub.game_id(self.network, channel)

    def _say(self, channel: str, text: str, colors: bool = False, mentions: tuple[str, ...] = ()) -> None:
        room_id = self.rooms.get(channel.lower())
        if room_id is None:
            log.warning("%s: no room for %r", self.network, channel)
            return
        watch = self._watch
        if watch is not None and watch.room_id == room_id:
            watch.public = True
        hub = self.hub
        board = hub.public_board(self.network, channel) if hub is not None else None
        game = hub.game_id(self.network, channel) if hub is not None else None
        if board is not None and text == board:
            slot = self.boards[room_id] = Board(room_id, text=text, game_id=game)  # edited from now on
            self._put(Item(room_id, text, kind="board", board=slot, colors=colors))
            return
        alerted = tuple(nick for nick in mentions if is_user_id(nick))
        kind = "pre" if "\n" in text else "text"
        self._put(Item(room_id, text, kind=kind, colors=colors, mentions=alerted, notify=bool(alerted)))
        slot = self.boards.get(room_id)
        if board is not None and (slot is None or slot.game_id != game):  # a game began (its start says
            slot = self.boards[room_id] = Board(room_id, text=board, game_id=game)  # the board in brief):
            self._put(Item(room_id, board, kind="board", board=slot, colors=colors))  # its own message
            return
        if slot is not None and board is not None:
            if not self._boards_due:
                asyncio.get_running_loop().call_soon(self._edit_boards)
            self._boards_due[room_id] = (channel, colors)

    def _edit_boards(self) -> None:
        """After the lines of one answer are queued: each changed board is edited once, behind them."""
        due, self._boards_due = self._boards_due, {}
        hub = self.hub
        for room_id, (channel, colors) in due.items():
            slot = self.boards.get(room_id)
            board = hub.public_board(self.network, channel) if hub is not None else None
            if board is not None and slot is not None and board != slot.text:
                slot.text = board
                self._put(Item(room_id, board, kind="edit", board=slot, colors=colors))

    def _tell(self, message: Tell) -> None:
        user_id = message.nick
        if not is_user_id(user_id):
            log.warning("%s: refusing a private line to %r (not a user ID)", self.network, user_id)
            return
        if message.key is not None and message.key != user_of(user_id).key:
            log.info("%s: a private line for %s withheld: not its owner's identity", self.network, user_id)
            return
        watch = self._watch
        if watch is not None and watch.sender == user_id:
            watch.private = True
        if message.listing:
            self.outbox.drop_bulk(user_id)
        kind = "pre" if "\n" in message.text or self._is_hand(message) else "text"
        alerted = (user_id,) if message.ping else ()
        self._put(
            Item(
                user_id,
                message.text,
                kind=kind,
                bulk=message.listing,
                mentions=alerted,
                notify=message.ping,
                colors=message.colors,
            )
        )

    def _is_hand(self, message: Tell) -> bool:
        """A seat's private view (a hand): sent as a block, like the board."""
        hub = self.hub
        if hub is None or message.key is None:
            return False
        return any(
            hub.private_view(self.network, channel, message.key) == message.text
            for channel in self.channels.values()
        )

    def _put(self, item: Item) -> None:
        self.outbox.put(item)
        self._idle.clear()
        self._wake.set()

    async def _sender(self) -> None:
        """Events leave one at a time, room after room; a 429 pauses them all; nothing is dropped."""
        while True:
            wait = self.outbox.wait()
            if wait is None:
                self._idle.set()
                self._wake.clear()
                await self._wake.wait()
                continue
            await self.online.wait()
            item = self.outbox.take()
            if item is None:
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), max(wait, 0.01))
                continue
            try:
                await self._deliver(item)
            except asyncio.CancelledError:
                raise
            except NETWORK_ERRORS as error:
                log.debug("%s: send failed (%s); waiting for the connection", self.network, error)
                self.online.clear()
            except Exception:
                log.exception("%s: dropped an event the homeserver refused", self.network)
                self.outbox.drop(item)

    async def _deliver(self, item: Item) -> None:
        client = self.client
        assert client is not None
        room_id = item.room_id
        if is_user_id(room_id):
            found = self._dm_room(room_id)
            if found is None:
                return  # its lines wait while the room is opened
            room_id = found
        body = self._content(item, room_id)
        if not item.tried:
            self.waited[item.room_id] = self.outbox.clock() - item.queued
        item.tried = True
        event_type = "m.reaction" if item.kind == "reaction" else "m.room.message"
        if not may_speak():  # past this process's lease: its lines stay unsent
            return
        asked = self.outbox.clock()
        answer = await client.room_send(room_id, event_type, body, tx_id=item.txn)
        if isinstance(answer, RoomSendResponse):
            self.outbox.done(item)
            self.sent += 1
            self.sent_by_kind["private" if is_user_id(item.room_id) else "public"] += 1
            board = item.board if item.kind in ("board", "edit") else None
            state = self.state
            if board is not None and state is not None:  # its text kept: no same edit after a restart
                if board.event_id is None:
                    board.event_id = event = answer.event_id
                    game = board.game_id
                    await self._keep(lambda: state.set_board(room_id, event, game, item.text))
                else:
                    event = board.event_id
                    await self._keep(lambda: state.set_board_text(room_id, event, item.text))
            elif board is not None and board.event_id is None:
                board.event_id = answer.event_id
            return
        self._refused(item, answer, asked)

    def _refused(self, item: Item, answer: Any, asked: float) -> None:
        """A 429 pauses sending for as long as the homeserver asks; any other refusal drops the event.

        The wait counts from when the event was sent (``asked``): Synapse reckons it then, and
        answers a refused request half a second late.
        """
        limited = getattr(answer, "status_code", None) == "M_LIMIT_EXCEEDED"
        if limited or getattr(answer, "retry_after_ms", None):
            seconds = self._retry_wait(answer, asked)
            log.info("%s: rate limited in %s for %.1f s", self.network, item.room_id, seconds)
            self.outbox.hold(item.room_id, seconds)
            return
        log.warning("%s: %s refused an event: %s", self.network, item.room_id, answer)
        self.outbox.drop(item)

    def _retry_wait(self, answer: Any, asked: float) -> float:
        """Seconds until a request refused by a 429 may be sent again, counted from ``asked``
        (when it was sent), at least a moment: "retry after 0 ms" must not become a busy loop."""
        retry = (getattr(answer, "retry_after_ms", None) or 1000) / 1000
        return max(MIN_HOLD, asked + retry + RETRY_MARGIN - self.outbox.clock())

    def _content(self, item: Item, room_id: str) -> dict[str, Any]:
        """The event for one queued item, its commands named with ``!`` (a Matrix client keeps ``/``)
        and its people by the names ``room_id`` shows them under."""
        if item.kind == "reaction" and item.reply_to:
            return content.reaction(item.reply_to, item.text)
        text = render(item.text, COMMAND_PREFIX)
        name_of = self._names_in(room_id)
        if item.kind == "edit" and item.board is not None and item.board.event_id is not None:
            return content.edit(item.board.event_id, text, item.colors, name_of)
        return content.message(
            text,
            block=item.kind in ("pre", "board", "edit"),
            colors=item.colors,
            name_of=name_of,
            mentions=item.mentions,
            notify=item.notify,
        )

    def _names_in(self, room_id: str) -> Callable[[str], str | None]:
        """A room's display name of a user ID (made unique with the ID where two people share it)."""
        client = self.client
        room = client.rooms.get(room_id) if client is not None else None

        def name_of(user_id: str) -> str | None:
            if room is not None and user_id in room.users:
                return room.user_name(user_id) or user_id
            return None

        return name_of

    # --- direct rooms -----------------------------------------------------------------------------
    def _dm_room(self, user_id: str) -> str | None:
        """The player's direct room while only they and the bot are in it; else one is opened meanwhile.

        Opening a room takes several requests; it runs beside the sender, and only this player's
        lines wait for it (``Outbox.hold``), never another room's.
        """
        room_id = self.dms.get(user_id)
        if room_id is not None and self._private_enough(room_id, user_id):
            return room_id
        if user_id not in self._opening:
            self.outbox.hold(user_id, OPENING_HOLD, limited=False)
            task = asyncio.get_running_loop().create_task(self._open_dm(user_id))
            self._opening[user_id] = task
        return None

    async def _open_dm(self, user_id: str) -> None:
        client = self.client
        assert client is not None
        wait, limited = 0.0, False
        try:
            paused = self.outbox.paused_until - self.outbox.clock()
            if paused > 0:  # a 429 holds the account: asking now would only earn another
                await asyncio.sleep(paused)
            asked = self.outbox.clock()
            answer = await client.room_create(
                is_direct=True, invite=[user_id], preset=RoomPreset.trusted_private_chat
            )
            if isinstance(answer, RoomCreateResponse):
                self._set_dm(user_id, answer.room_id)
                self.outbox.release(user_id)
                self._wake.set()
                await self._mark_direct(user_id, answer.room_id)
            elif getattr(answer, "status_code", None) == "M_LIMIT_EXCEEDED":
                wait = self._retry_wait(answer, asked)
                limited = True
            else:
                log.warning("%s: cannot open a direct room with %s: %s", self.network, user_id, answer)
                queue = self.outbox.rooms.get(user_id)
                while queue:
                    self.outbox.drop(queue[0])
        except NETWORK_ERRORS as error:
            log.debug("%s: opening a direct room failed (%s); trying again", self.network, error)
            wait = self.reconnect_min
        finally:
            self._opening.pop(user_id, None)
            if user_id not in self.dms or wait:
                self.outbox.release(user_id)
                if wait:
                    self.outbox.hold(user_id, wait, limited=limited)
            self._wake.set()

    def _private_enough(self, room_id: str, user_id: str) -> bool:
        """Nobody but the player and the bot may read a direct room (somebody invited a third: a new one)."""
        client = self.client
        room = client.rooms.get(room_id) if client is not None else None
        if room is None:
            return True  # not synced yet; the membership events will tell
        others = set(room.users) | set(room.invited_users)
        others.discard(self.settings.user_id)
        return others <= {user_id}

    def _set_dm(self, user_id: str, room_id: str) -> None:
        old = self.dms.get(user_id)
        if old is not None:
            self.dm_owner.pop(old, None)
        self.dms[user_id], self.dm_owner[room_id] = room_id, user_id
        if self.state is not None:
            self.state.set_dm(user_id, room_id)

    async def _mark_direct(self, user_id: str, room_id: str) -> None:
        """Add the room to the bot's ``m.direct`` account data, so clients list it as a direct chat."""
        client = self.client
        assert client is not None
        path = f"/_matrix/client/v3/user/{urllib.parse.quote(self.settings.user_id)}/account_data/m.direct"
        headers = {"Authorization": f"Bearer {client.access_token}", "Content-Type": "application/json"}
        direct: dict[str, list[str]] = {}
        answer = await client.send("GET", path, headers=headers)
        if answer.status == 200:
            found = await answer.json()
            if isinstance(found, dict):
                direct = {k: list(v) for k, v in found.items() if isinstance(v, list)}
        rooms = direct.setdefault(user_id, [])
        if room_id not in rooms:
            rooms.append(room_id)
        answer = await client.send("PUT", path, json.dumps(direct), headers=headers)
        if answer.status != 200:
            log.warning("%s: could not mark %s as direct: %s", self.network, room_id, answer.status)

    # --- the connection ---------------------------------------------------------------------------
    def _client(self) -> AsyncClient:
        config = AsyncClientConfig(
            max_limit_exceeded=0,  # the outbox waits per room; nio must not sleep on a 429 itself
            max_timeouts=0,  # a lost connection surfaces here, so the backoff and the turn clocks know
            store_sync_tokens=False,
            encryption_enabled=False,
            request_timeout=self.sync_timeout + 30,
        )
        settings = self.settings
        client = AsyncClient(settings.homeserver, settings.user_id, config=config)
        if settings.access_token:
            client.restore_login(settings.user_id, self._device_id() or "", settings.access_token)
        return client

    def _device_id(self) -> str | None:
        return self.state.device_id() if self.state is not None else None

    async def _login(self) -> None:
        client = self.client
        assert client is not None
        if client.access_token:
            return
        client.device_id = self._device_id() or client.device_id  # the same device after a restart
        answer = await client.login(self.settings.password or "", device_name=self.settings.device_name)
        if not isinstance(answer, LoginResponse):
            raise ConnectionError(f"login as {self.settings.user_id} failed: {answer}")
        if self.state is not None and self.next_batch is not None:
            self.state.save_sync(self.next_batch, answer.device_id)

    async def _join_configured(self) -> None:
        client = self.client
        assert client is not None
        for room in self.settings.rooms:
            answer = await client.join(room)
            if isinstance(answer, JoinResponse):
                if answer.room_id not in self.channels:
                    self._remember_room(answer.room_id, room if room.startswith("#") else None)
            else:
                log.warning("%s: cannot join %s: %s", self.network, room, answer)

    async def _run(self) -> None:
        attempt = 0
        joined = False
        first = True
        recovering = False
        while not self._stopping:
            try:
                if self.client is None:
                    self.client = self._client()
                await self._login()
                if not joined:
                    await self._join_configured()
                    joined = True
                answer = await self.client.sync(
                    # after a loss, the first sync answers at once: play resumes without a long poll first
                    timeout=0 if first or recovering else int(self.sync_timeout * 1000),
                    sync_filter=SYNC_FILTER,
                    since=self.next_batch,
                    full_state=first or None,
                )
                if not isinstance(answer, SyncResponse):
                    if getattr(answer, "status_code", None) == "M_UNKNOWN_TOKEN" and self.settings.password:
                        self.client.access_token = ""  # log in again
                    raise ConnectionError(f"sync failed: {answer}")
                self.syncs += 1
                attempt = 0
                recovering = False
                self._handle_sync(answer, replay=first and self.next_batch is None)
                first = False
                if not self.online.is_set():
                    self.online.set()
                    self._wake.set()
                    if self.hub is not None:
                        await self.hub.network_up(self.network)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning(
                    "%s: Matrix connection to %s failed: %s", self.network, self.settings.homeserver, error
                )
                if self.online.is_set():
                    self.online.clear()
                    if self.hub is not None:  # nobody here can answer now: the clocks stand still
                        await self.hub.network_down(self.network)
                if self._stopping:
                    return
                attempt += 1
                recovering = True
                delay = reconnect_delay(attempt, self.reconnect_min, self.reconnect_max)
                log.info("%s: reconnecting in %.1f s", self.network, delay)
                await self.sleep(delay)

    # --- reading ----------------------------------------------------------------------------------
    def _handle_sync(self, answer: SyncResponse, replay: bool) -> None:
        """Hand a batch's lines to the hub in order; keep its token once they are handled.

        ``replay`` is the very first sync of an account: its timeline is history, never played.
        """
        me = self.settings.user_id
        for room_id, info in answer.rooms.invite.items():
            self._invited(room_id, info.invite_state)
        for room_id, info in answer.rooms.join.items():
            if room_id not in self.channels and room_id not in self.dm_owner:
                self._remember_room(room_id, None)
            if replay:
                continue
            if info.timeline.limited:
                log.warning("%s: a gap in %s: lines said meanwhile were not read", self.network, room_id)
            for event in self._since_my_join(info.timeline.events):
                source = getattr(event, "source", {}) or {}
                sender = source.get("sender", "")
                if sender == me:
                    continue
                if isinstance(event, RoomMemberEvent):
                    self._membership(room_id, event)
                elif source.get("type") == "m.room.message":
                    text = content.incoming_text(source.get("content") or {})
                    if text is not None and is_user_id(sender):
                        self._line(room_id, source.get("event_id", ""), sender, text)
        for room_id in answer.rooms.leave:
            self._gone(room_id)
        token = answer.next_batch
        self.next_batch = token
        state = self.state
        if state is not None:
            device = self.client.device_id if self.client is not None else None
            self._hub(lambda: self._save_token(state, token, device))
        self.synced.set()

    def _since_my_join(self, events: list[Any]) -> list[Any]:
        """A room's new events: in a room the bot has just joined, what was said before is history."""
        me = self.settings.user_id
        start = 0
        for index, event in enumerate(events):
            if (
                isinstance(event, RoomMemberEvent)
                and event.state_key == me
                and event.membership == "join"
                and event.prev_membership != "join"
            ):
                start = index + 1
        return events[start:]

    async def _save_token(self, state: MatrixState, token: str, device: str | None) -> None:
        """After every sync."""
        await self._keep(lambda: state.save_sync(token, device))

    async def _keep(self, write: Callable[[], None]) -> None:
        """A write of the transport's own records, where the event loop does not wait for the store."""
        if self.hub is None:
            write()
        else:
            await self.hub.records(write)

    def _invited(self, room_id: str, events: list[Any]) -> None:
        me = self.settings.user_id
        invite = next(
            (
                e
                for e in events
                if isinstance(e, InviteMemberEvent) and e.state_key == me and e.membership == "invite"
            ),
            None,
        )
        if invite is None or not self.settings.auto_join:
            return
        direct = bool((invite.content or {}).get("is_direct"))
        inviter = invite.sender

        async def join() -> None:
            client = self.client
            if client is None:
                return
            answer = await client.join(room_id)
            if not isinstance(answer, JoinResponse):
                log.warning("%s: cannot join %s: %s", self.network, room_id, answer)
                return
            if direct and is_user_id(inviter):
                self._set_dm(inviter, room_id)
                return
            if room_id not in self.channels:
                self._remember_room(room_id, None)
            self._put(Item(room_id, hello()))  # a room new to the bot learns how to start

        self._hub(join)

    def _remember_room(self, room_id: str, alias: str | None) -> None:
        """A room's channel name, fixed at first sight: its alias then, else ``#`` and its ID."""
        if room_id in self.dm_owner:
            return
        client = self.client
        room = client.rooms.get(room_id) if client is not None else None
        channel = alias or (room.canonical_alias if room is not None else None) or "#" + room_id.lstrip("!")
        self._map(room_id, channel)
        if self.state is not None:
            self.state.add_room(room_id, channel)

    def _map(self, room_id: str, channel: str) -> None:
        self.channels[room_id] = channel
        self.rooms[channel.lower()] = room_id

    def _line(self, room_id: str, event_id: str, sender: str, text: str) -> None:
        hub = self.hub
        if hub is None:
            return
        user = user_of(sender)
        if room_id in self.dm_owner:
            incoming = Incoming(self.network, None, user, text)
            self._hub(lambda: hub.handle(incoming))
            return
        channel = self.channels[room_id]
        incoming = Incoming(self.network, channel, user, text)
        self._hub(lambda: self._answer_line(incoming, _Watch(room_id, event_id, channel, sender)))

    async def _answer_line(self, incoming: Incoming, watch: _Watch) -> None:
        """Hand a room line to the hub; when every answer went privately, say so next to the line.

        One such pointer waiting for a person is enough: a burst of lines gets one, not one each.
        """
        hub = self.hub
        assert hub is not None
        self._watch = watch
        try:
            await hub.handle(incoming)
        finally:
            self._watch = None
        if watch.private and not watch.public and not self.outbox.pointing(watch.room_id, watch.sender):
            self._put(
                Item(
                    watch.room_id,
                    ANSWERED_PRIVATELY,
                    kind="reaction",
                    reply_to=watch.event_id,
                    about=watch.sender,
                )
            )

    def _membership(self, room_id: str, event: RoomMemberEvent) -> None:
        hub, network = self.hub, self.network
        user_id = event.state_key
        if hub is None or not is_user_id(user_id):
            return
        if room_id in self.dm_owner:
            if user_id == self.dm_owner[room_id] and event.membership in ("leave", "ban"):
                self._forget_dm(room_id)
            return
        channel = self.channels.get(room_id)
        if channel is None:
            return
        user = user_of(user_id)
        if event.membership in ("leave", "ban") and event.prev_membership == "join":
            grace = self.settings.leave_grace
            self._hub(lambda: hub.user_left(network, channel, user, grace))
        elif event.membership == "join" and event.prev_membership != "join":
            self._hub(lambda: welcome_back(self.hub, network, channel, user, self.send))

    def _forget_dm(self, room_id: str) -> None:
        user_id = self.dm_owner.pop(room_id, None)
        if user_id is not None and self.dms.get(user_id) == room_id:
            del self.dms[user_id]
            if self.state is not None:
                self.state.forget_dm(user_id)

    def _gone(self, room_id: str) -> None:
        """The bot left or was removed from a room: a direct room is forgotten, a channel stays mapped."""
        if room_id in self.dm_owner:
            self._forget_dm(room_id)
        elif room_id in self.channels:
            log.warning("%s: no longer in %s", self.network, self.channels[room_id])

    # --- hub calls, in order ------------------------------------------------------------------------
    async def _dispatch(self) -> None:
        while True:
            call = await self._inbox.get()
            self._handling = True
            try:
                await call()
            except Exception:
                log.exception("%s: the hub failed on an event", self.network)
            finally:
                self._handling = False

    def _hub(self, call: Callable[[], Awaitable[None]]) -> None:
        self._inbox.put_nowait(call)

    async def idle(self) -> None:
        """Wait until the lines read so far are handled and every queued event has left (tests)."""
        while not self._inbox.empty() or self._handling:
            await asyncio.sleep(0.01)
        await self._idle.wait()
