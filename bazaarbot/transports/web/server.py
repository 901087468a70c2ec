"""The web chat transport: an aiohttp server, a static page, and a small JSON websocket protocol.

Browsers claim a nick (held by a token, see ``web_claims``), join rooms
(``#name``) and type the same lines as on IRC. A line typed in a room is
shown to everybody in that room and handed to the hub as a channel line;
the hub's ``Say`` goes to everybody in the room (and its spectators), its
``Tell`` only to the connections that own the nick. Nothing outside this
module knows that the players are on the web.

Client frames (JSON objects, ``t`` says which)::

    hello {token, locales?}  -> welcome {nick|null, bot, max, lang|null} (then tables {tables}: a known nick)
    claim {nick}             -> claimed {nick, token} | error {code: "nick"}
    join {room, history}     -> joined {room, board, view, members, history}
    part {room}              -> parted {room}
    say {room|null, text, said?} -> chat lines to the room / the line to the bot privately (``said``: a
                             button's command in its reader's words, what the author's tabs echo)
    watch {room}             -> watching {room, board, view, members, history} (read-only; never a tell)
    ping {}                  -> pong {}
    admin {token}            -> admin {name} | error {code: "admin"} (also typed as /admin TOKEN)
    board {room, on}         -> board {room, text|null}, and again after each change while on

``GET /ratings/<room>`` answers the ratings beside the room's table as JSON (``HubPort.ratings_view``).
``GET /replay/<game-id>`` is a finished game's replay page, ``/replay/<game-id>/data`` its JSON
(``HubPort.replay_view``, see ``web/replay.py``).

``locales`` (``navigator.languages``): the first the bot speaks is the reader's until they ``/lang``.

Server frames: chat {room, nick, text, at}, bot {room, nick, text, at}, board {room, text|null},
view {room, view|null}, log {room, game, entries, reset}, echo {room, text}, members {room, nicks},
tell {text, role, room, lang|null} (lang: the reader's own choice, for a tab with no table yet),
mine {text}, error {code, text}, tables {tables} (the nick's tables, ``/tables``:
each {channel, game, running, your_move, turn, left, paused, text}, their move first; sent when
the page opens and again when it changes). One websocket message carries one server frame,
or a JSON array of the frames that left together. A game with a drawn table sends its text
``board`` only to the tabs that asked for it (``board {room, on: true}``); a game without one
sends it to every tab of the room after each change. A tell's ``role`` is ``answer`` (to a line its reader
typed in ``room``), ``hand`` (the private view of ``room``'s game again) or ``private``; a bot
line answering a command names it in ``asked {nick, text}``. A claim that renames a browser sends
claimed {nick, token} to every tab of it.

A line the hub takes as a command or a move is not chat: it is not shown to the room (only
``echo`` back to its author's tabs); the room sees the bot's answer. ``view`` is the table as
data (``HubPort.room_views``: public data, whose turn, the result, and for a seated player
their private data and legal commands, with ``said``: each command the reader's words say
otherwise, the others being typed as they are); it is
built in the reader's language and says which in ``lang`` (null: the browser's); it is sent after
every change, once per change and only when it differs, and a spectator's never carries private
parts. The game log (accepted moves and the bot's announcements of them) comes apart in ``log``
frames, each entry once per tab; ``reset`` says a new game began. A game's drawn table is served
from its plugin folder at ``/games/<game>/<file>``.

Bounds per client (``[web.limits]``): open websockets per remote address,
nick claims per address per minute, rooms per nick; a silent websocket is
closed (soon when it never claimed a nick, much later when it did); claims
that never sat at a table are forgotten; a frame too big or too deeply
nested is refused before it is decoded, and a tab that keeps sending bad
frames is disconnected. Every refusal is a short line naming the limit.
What waits to be sent is bounded in bytes per tab and per address
(``budget.py``); plain HTTP connections per address and the time to send a
request's headers are bounded (``guard.py``), and a malformed request is one short
log line, at most one a second per address (``requestlog.py``); the global websocket cap keeps
room for players and closes the least useful socket for a newcomer, never a
seated player's, and each network prefix has its own bound (``admission.py``).
Every per-address bound takes the address from ``WebTransport.client``: the socket's peer
(``address.client_address``), or behind a trusted reverse proxy the client it names (``proxies.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
import sqlite3
import time
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from bazaarbot.config import WebSettings
from bazaarbot.i18n import _
from bazaarbot.messages import Incoming, Outgoing, Say, Tell, User
from bazaarbot.metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from bazaarbot.metrics import allowed as metrics_allowed
from bazaarbot.speaking import may_speak
from bazaarbot.text.sanitize import sanitize
from bazaarbot.transports.base import HubPort
from bazaarbot.transports.web.address import client_address, network_prefix
from bazaarbot.transports.web.admins import AdminTokenError, AdminTokens
from bazaarbot.transports.web.admission import make_room
from bazaarbot.transports.web.budget import SendBudget, limit_kernel_buffer
from bazaarbot.transports.web.claims import ClaimError, Claims, valid_room
from bazaarbot.transports.web.conn import Conn, TokenBucket
from bazaarbot.transports.web.encoding import dumps, encode, render_marks
from bazaarbot.transports.web.frames import BadFrame, decode_frame
from bazaarbot.transports.web.guard import ConnectionGuard, GuardedSite, quiet_accept_failures
from bazaarbot.transports.web.history import History
from bazaarbot.transports.web.locale import browser_language
from bazaarbot.transports.web.outbox import Outbox
from bazaarbot.transports.web.proxies import Client, ProxyPolicy, is_loopback
from bazaarbot.transports.web.publiclines import (
    TabLanguage,
    by_language,
    chooses_language,
    line_for,
    renders_again,
)
from bazaarbot.transports.web.recent import add_recent_games_routes
from bazaarbot.transports.web.replay import add_replay_routes
from bazaarbot.transports.web.requestlog import RequestLog
from bazaarbot.transports.web.tells import answering, asked_here, sort_tell
from bazaarbot.transports.web.viewframe import NO_TABLE, EncodedPublic, SentView, encode_you

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
#: frames beyond this size close the connection (aiohttp's own limit); smaller oversize ones are dropped
HARD_FRAME_LIMIT = 64 * 1024
#: public lines a newcomer or spectator sees of a room's recent past
HISTORY = 100
#: seconds between two sweeps for idle websockets and stale claims
SWEEP_EVERY = 10.0
#: frames dropped by the flood limit before the connection is closed
MAX_DROPPED = 400

#: the longest verb a ``moves`` request may name (the games' verbs are short words)
MAX_VERB = 40
#: the long verbs one tab's views of a room carry after it asked for them
MAX_WANTED = 16

#: the files a game's ``web/`` folder may serve
GAME_FILE = re.compile(r"^[a-z0-9_-]{1,40}\.(js|css|svg|png)$")

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "connect-src 'self' ws: wss:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-cache",
}


class WebTransport:
    """Serves the page at ``/``, spectators at ``/watch/<room>``, ``/ws`` and ``/healthz``."""

    #: the bot's pages are open (the hub's lines may point people to them)
    serves_page = True

    def __init__(
        self,
        settings: WebSettings | None = None,
        *,
        frame_rate: float | None = None,
        frame_burst: int | None = None,
        leave_grace: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings or WebSettings()
        self.limits = self.settings.limits
        #: the clock of the idle limits and the claim rate (injected by tests)
        self.clock = clock
        self.network = self.settings.network
        self.host = self.settings.host
        #: the port actually bound (settings.port 0 means any free port)
        self.port = self.settings.port
        #: frames a tab may send per second after a burst (``[web.limits]``, or a test's own)
        self.frame_rate = frame_rate if frame_rate is not None else self.limits.frames_per_second
        self.frame_burst = frame_burst if frame_burst is not None else self.limits.frame_burst
        #: seconds a disconnected player keeps their seats (None: the hub's setting)
        self.leave_grace = leave_grace
        self.hub: HubPort | None = None
        self.claims: Claims | None = None
        self.started = time.time()
        self.conns: set[Conn] = set()
        self.rooms: dict[str, set[Conn]] = {}
        self.watchers: dict[str, set[Conn]] = {}
        self.nicks: dict[str, set[Conn]] = {}
        self.boards: dict[str, str | None] = {}
        #: the table's change count when its board was last rendered, per room
        self.board_versions: dict[str, object] = {}
        self.history: History | None = None
        #: room -> the languages its players' tabs read (as the hub was last told)
        self.read_languages: dict[str, frozenset[str]] = {}
        #: room -> each player's tab there -> the language it reads the room's lines in
        self.tab_languages: dict[str, dict[Conn, str | None]] = {}
        #: rooms whose table may have changed since views were last sent
        self._dirty: set[str] = set()
        #: per room, what its views were last built from (``HubPort.view_version``): a room whose
        #: table and readers are as they were gets no views built (a ``/moves all`` changes nothing)
        self._built: dict[str, Hashable] = {}
        self._flush_scheduled = False
        #: the tabs with frames waiting, written once the views of the change are out (``_flush_views``)
        self.outbox = Outbox(ready=lambda: not self._flush_scheduled)
        self.admin_tokens: AdminTokens | None = None
        #: open websockets per remote address, and per network prefix
        self.per_address: dict[str, int] = {}
        self.per_prefix: dict[str, int] = {}
        self.budget = SendBudget(self.limits.send_buffer_bytes, self.limits.address_buffer_bytes)
        #: the reverse proxies whose forwarding headers name the real client
        self.proxies = ProxyPolicy(self.settings.trusted_proxies, self.settings.forwarded_header)
        self.guard = ConnectionGuard(
            self.limits.http_per_address, self.limits.header_timeout, self.proxies.is_trusted_address
        )
        #: malformed HTTP requests as one short line, at most one a second per address
        self.request_log = RequestLog(clock)
        #: when each address claimed a nick within the last minute
        self.claim_times: dict[str, deque[float]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._runner: web.AppRunner | None = None
        self._stopping = False
        #: the path prefix of every route ("" or e.g. "/bazaar")
        self.base_path = self.settings.base_path
        self._pages: dict[str, bytes] = {}

    # --- life cycle ------------------------------------------------------------------
    @property
    def frame_limit(self) -> int:
        """The largest frame handled: a full-length line, JSON-escaped, plus room for the envelope."""
        return self.settings.max_message * 6 + 512

    def app(self) -> web.Application:
        """The routes; under ``[web] base_path`` they all live below that prefix (behind a proxy)."""
        app = web.Application(
            client_max_size=16 * 1024, middlewares=[self._lease_gate, self.guard.middleware]
        )
        app.router.add_get("/", self._index)
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/watch/{room}", self._watch_page)
        app.router.add_get("/ws", self._ws)
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/games/{game}/{file}", self._game_file)
        app.router.add_get("/ratings/{room}", self._ratings)
        add_replay_routes(app, lambda: self.hub, lambda: self.network, self._page)
        add_recent_games_routes(app, lambda: self.hub, lambda: self.network, self._page)
        app.router.add_static("/static/", STATIC, show_index=False, follow_symlinks=False)
        app.on_response_prepare.append(self._headers)
        app.on_shutdown.append(self._close_all)
        if not self.base_path:
            return app
        root = web.Application(client_max_size=16 * 1024)
        root.router.add_get(self.base_path, self._to_base)
        root.add_subapp(self.base_path + "/", app)
        root.on_response_prepare.append(self._headers)
        return root

    @web.middleware
    async def _lease_gate(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Past this process's lease (it woke from a freeze, another process serves): 503 to all."""
        if not may_speak():
            return web.json_response(
                {"status": "stopping", "detail": "another process serves these networks"}, status=503
            )
        return await handler(request)

    async def _to_base(self, _request: web.Request) -> web.Response:
        raise web.HTTPPermanentRedirect(self.base_path + "/")

    def client(self, request: web.Request) -> Client:
        """The real client of a request: the socket's peer, or behind a trusted proxy the one it names.

        Every per-address bound counts this address, never a header an untrusted peer sent.
        """
        return self.proxies.client(client_address(request), request)

    async def start(self, hub: HubPort) -> None:
        self.hub = hub
        hub.attach(self)
        self.claims = Claims(hub.database, hub.bot_nick)
        self.history = await hub.records(lambda: History(hub.database, HISTORY))
        self.admin_tokens = AdminTokens(hub.database)
        self._stopping = False
        self._runner = web.AppRunner(
            self.app(), access_log=None, shutdown_timeout=2.0, logger=self.request_log
        )
        await self._runner.setup()
        quiet_accept_failures(asyncio.get_running_loop())
        site = GuardedSite(self._runner, self.host, self.settings.port, self.guard)
        await site.start()
        addresses = self._runner.addresses
        if addresses:
            self.port = int(addresses[0][1])
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop(), name="web-sweep")
        metrics = hub.metrics
        labels = {"network": self.network}
        metrics.gauge("bazaarbot_websockets", "Open websockets", lambda: len(self.conns), labels)
        metrics.gauge(
            "bazaarbot_web_spectators",
            "Websockets watching a room",
            lambda: sum(len(w) for w in self.watchers.values()),
            labels,
        )
        await self._expect_returns()

    async def _expect_returns(self) -> None:
        """After a restart every seated web player is away until their browser reconnects.

        Browsers reconnect within seconds; one that does not is treated like a
        closed tab, so a seat never stays taken by somebody who is gone.
        """
        assert self.hub is not None
        seen: set[str] = set()
        for seat in self.hub.seated(self.network):
            if seat.key in seen or seat.key != _key_of(seat.nick):
                continue
            seen.add(seat.key)
            await self.hub.user_left(self.network, None, self._user(seat.nick), self.leave_grace)

    async def stop(self) -> None:
        """Close every websocket (browsers reconnect by themselves) and stop serving."""
        self._stopping = True
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(BaseException):
                await self._sweeper
            self._sweeper = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.history is not None and self.hub is not None:
            history, rows = self.history, self.history.rows()  # the lines as they are now, taken here
            try:  # written where the event loop does not wait for the store: other networks go on
                await self.hub.records(lambda: history.write(rows))
            except Exception as error:  # a full disk: the rooms' recent lines are lost, nothing else
                log.error("web: the rooms' recent lines could not be saved: %s", error)

    async def _close_all(self, _app: web.Application) -> None:
        self._stopping = True
        await asyncio.gather(*(c.close(1001, b"server restarting") for c in list(self.conns)))

    # --- http --------------------------------------------------------------------------
    async def _headers(self, _request: web.Request, response: web.StreamResponse) -> None:
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)

    def _page(self, name: str) -> web.Response:
        """A page of ``static/``, its own links under the base path (the page's scripts read it too)."""
        body = self._pages.get(name)
        if body is None:
            text = (STATIC / name).read_text(encoding="utf-8")
            base = self.base_path
            if base:
                text = re.sub(r'((?:href|src)=")/', lambda m: m.group(1) + base + "/", text)
            meta = f'<meta name="bazaarbot-base" content="{base}">'
            text = text.replace("<head>", "<head>\n  " + meta, 1)
            body = self._pages[name] = text.encode("utf-8")
        return web.Response(body=body, content_type="text/html", charset="utf-8")

    async def _index(self, _request: web.Request) -> web.Response:
        return self._page("index.html")

    async def _watch_page(self, request: web.Request) -> web.Response:
        if not valid_room("#" + request.match_info["room"]):
            raise web.HTTPNotFound(text="No such room: a room name is 1 to 30 letters, digits, - or _.")
        return self._page("watch.html")

    async def _metrics(self, request: web.Request) -> web.Response:
        """The Prometheus figures, to whom ``[web] metrics`` allows (others see no such page)."""
        assert self.hub is not None
        client = self.client(request)
        local = client.direct and is_loopback(client.address)
        if not metrics_allowed(self.settings.metrics, local, client.forwarded):
            raise web.HTTPNotFound(text="Not found.")
        return web.Response(body=self.hub.metrics.render(), headers={"Content-Type": METRICS_CONTENT_TYPE})

    async def _game_file(self, request: web.Request) -> web.FileResponse:
        """A game's drawn-table files, from its own plugin folder (adding a game touches no core file)."""
        assert self.hub is not None
        name, file = request.match_info["game"], request.match_info["file"]
        folder = self.hub.game_assets(name) if re.fullmatch(r"[a-z0-9_]{1,40}", name) else None
        if folder is None or not GAME_FILE.match(file) or not (folder / file).is_file():
            raise web.HTTPNotFound(text="No such file.")
        return web.FileResponse(folder / file)

    async def _healthz(self, _request: web.Request) -> web.Response:
        assert self.hub is not None
        body: dict[str, Any] = {"status": "ok", **self.hub.snapshot()}
        body.update(
            websockets=len(self.conns),
            players_online=len(self.nicks),
            spectators=sum(len(w) for w in self.watchers.values()),
            rooms=len(self.rooms),
            web_uptime=round(time.time() - self.started, 1),
        )
        return web.json_response(body)

    async def _ratings(self, request: web.Request) -> web.Response:
        """The ratings beside a room's table (public facts only), for ``static/ratings.js``."""
        assert self.hub is not None
        room = "#" + request.match_info["room"]
        if not valid_room(room):
            raise web.HTTPNotFound(text="No such room: a room name is 1 to 30 letters, digits, - or _.")
        return web.json_response(await self.hub.ratings_view(self.network, room))

    def _origin_ok(self, request: web.Request) -> bool:
        """Refuse websockets opened by pages of other sites (cross-site websocket hijacking)."""
        origin = request.headers.get("Origin")
        if not origin:
            return True  # not a browser page (a script or a test client)
        return urlsplit(origin).netloc.lower() == request.host.lower()

    # --- websocket ------------------------------------------------------------------------
    async def _ws(self, request: web.Request) -> web.WebSocketResponse:
        if not self._origin_ok(request):
            raise web.HTTPForbidden(text="websocket from another site refused")
        if self._stopping:
            raise web.HTTPServiceUnavailable(text="restarting")
        address = self.client(request).address
        limit = self.limits.connections_per_address
        if self.per_address.get(address, 0) >= limit:
            raise web.HTTPTooManyRequests(
                text=_("Too many connections from your address (at most {n}); close some tabs.").format(
                    n=limit
                )
            )
        prefix = network_prefix(address)
        if self.per_prefix.get(prefix, 0) >= self.limits.connections_per_prefix:
            raise web.HTTPTooManyRequests(text=_("Too many connections from your network; try again later."))
        if len(self.conns) >= self.limits.max_connections and not await self._make_room():
            raise web.HTTPServiceUnavailable(text="too many connections; try again later")
        ws = web.WebSocketResponse(
            heartbeat=30.0, max_msg_size=HARD_FRAME_LIMIT, compress=self.settings.compress
        )
        self.per_address[address] = self.per_address.get(address, 0) + 1
        self.per_prefix[prefix] = self.per_prefix.get(prefix, 0) + 1
        try:
            await ws.prepare(request)
        except BaseException:
            self._release(address)
            raise
        limit_kernel_buffer(request.transport)
        bucket = TokenBucket(self.frame_rate, self.frame_burst)
        conn = Conn(ws, bucket, address, self.clock(), self.budget, request.transport, self.outbox)
        self.conns.add(conn)
        try:
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._frame(conn, msg.data)
                elif msg.type == WSMsgType.BINARY:
                    conn.last_frame = self.clock()
                    await self._bad_frame(conn, "frame", "Send text frames (JSON), not binary ones.")
                elif msg.type == WSMsgType.ERROR:
                    break
                if conn.dead:
                    break
        finally:
            await self._drop(conn)
        return ws

    def _release(self, address: str) -> None:
        for counts, key in ((self.per_address, address), (self.per_prefix, network_prefix(address))):
            left = counts.get(key, 0) - 1
            if left > 0:
                counts[key] = left
            else:
                counts.pop(key, None)

    async def _make_room(self) -> bool:
        """The cap is reached: close the least useful socket for a newcomer; False when none may go."""
        assert self.hub is not None
        seated = {seat.nick.lower() for seat in self.hub.seated(self.network)}
        victim = make_room(self.conns, seated)
        if victim is None:
            return False
        log.info("web: full; closing an idle socket of %s for a newcomer", victim.address)
        victim.dead = True
        self.conns.discard(victim)  # its place is the newcomer's now; _drop releases its address
        self._release(victim.address)
        await victim.close(1013, b"server full; closed the longest idle")
        return True

    async def _bad_frame(self, conn: Conn, code: str, text: str) -> None:
        """One error answer per malformed frame; a tab that keeps sending them is disconnected."""
        conn.bad_frames += 1
        if conn.bad_frames > self.limits.bad_frames:
            await conn.close(1008, b"too many malformed messages", drain=1.0)
            return
        conn.error(code, text)

    async def _frame(self, conn: Conn, data: str) -> None:
        conn.last_frame = self.clock()
        if not conn.bucket.take():
            conn.dropped += 1
            if conn.dropped > MAX_DROPPED:
                await conn.close(1008, b"flooding")
            elif not conn.warned:
                conn.warned = True
                conn.error("flood", "Slow down: too many messages. Some were dropped.")
            return
        conn.warned = False
        try:
            frame = decode_frame(data, self.frame_limit)
        except BadFrame as error:
            if str(error) == "too_big":
                await self._bad_frame(
                    conn,
                    "too_big",
                    f"That message is too long (at most {self.settings.max_message} characters).",
                )
            elif str(error) == "too_deep":
                await self._bad_frame(conn, "frame", _("That message is nested too deeply."))
            else:
                await self._bad_frame(conn, "frame", "Not a message this server understands.")
            return
        kind = frame["t"]
        if conn.watching is not None and kind not in ("ping", "board"):
            return  # a spectator's connection is read-only (it may ask for the text board)
        handler = {
            "hello": self._hello,
            "claim": self._claim,
            "join": self._join,
            "part": self._part,
            "say": self._say,
            "watch": self._watch,
            "ping": self._ping,
            "admin": self._admin,
            "board": self._board_request,
            "moves": self._moves_request,
        }.get(kind)
        if handler is None:
            await self._bad_frame(conn, "frame", f"Unknown message type {kind[:20]!r}.")
            return
        await handler(conn, frame)

    def _user(self, nick: str, conn: Conn | None = None) -> User:
        # the nick is held by a token no other browser has: the transport vouches for it like an account;
        # admin rights come only from an admin token this browser proved (never from the nick), looked
        # up again for every line, so a token revoked by ``bazaarbot admin-token`` stops working at once
        # (a browser bound to no admin is remembered as such until one redeems a token here)
        if conn is not None and self.admin_tokens is not None:
            conn.admin = self.admin_tokens.admin_of(conn.token)
        return User(nick=nick, account=nick, is_admin=conn is not None and conn.admin is not None)

    async def _admin(self, conn: Conn, frame: dict[str, Any]) -> None:
        """``admin {token}``: bind an operator-made admin token to this browser's claim, once."""
        assert self.admin_tokens is not None
        if conn.nick is None or conn.token is None:
            conn.error("admin", _("Choose a nick first; the admin right is bound to it."))
            return
        try:
            name = self.admin_tokens.redeem(frame.get("token"), conn.token)  # type: ignore[arg-type]
        except AdminTokenError as error:
            log.warning("web: a refused admin token from %s (%s)", conn.address, conn.nick)
            conn.error("admin", str(error))
            return
        log.warning("web: %s is now the admin %s", conn.nick, name)
        for tab in self.nicks.get(conn.nick.lower(), ()):
            tab.admin = name
            tab.send("admin", name=name)
            tab.send("tell", text=_("You are the admin {name} now, in this browser.").format(name=name))

    async def _ping(self, conn: Conn, _frame: dict[str, Any]) -> None:
        """``ping``: ``pong``, with the time on the tables' clock, so a page whose view came late
        (and so reads the server's clock as behind) counts a turn clock down from a truer reading."""
        conn.send("pong", now=self.hub.time_now() if self.hub is not None else time.time())

    async def _hello(self, conn: Conn, frame: dict[str, Any]) -> None:
        assert self.claims is not None and self.hub is not None
        if conn.greeted:
            conn.error("frame", "Already greeted.")
            return
        conn.greeted = True
        if "locales" in frame:
            conn.locale = browser_language(frame) or ""
        token = frame.get("token")
        claims, admins = self.claims, self.admin_tokens
        assert admins is not None

        def held() -> tuple[str | None, str | None]:
            nick = claims.nick_for(token) if isinstance(token, str) else None
            return nick, admins.admin_of(token) if nick is not None else None

        nick, admin = await self.hub.records(held)
        if nick is not None:
            conn.token = token
            self._bind(conn, nick)
            conn.admin = admin
            self._browser_says(conn)
            await self.hub.user_returned(self.network, self._user(nick))
        key = _key_of(nick) if nick is not None else None
        lang = self.hub.page_language(self.network, None, key)
        conn.send(
            "welcome",
            nick=nick,
            bot=self.hub.bot_nick,
            max=self.settings.max_message,
            lang=lang,
            games=self.hub.game_titles(),
        )
        self._send_tables(conn)

    def _send_tables(self, conn: Conn) -> None:
        """The nick's tables (``/tables``), when they differ from what this tab was sent last."""
        if self.hub is None or conn.nick is None or conn.watching is not None:
            return
        tables = self.hub.my_tables(self.network, _key_of(conn.nick))
        if tables is conn.tables_made:
            return  # the very list sent last (the hub makes a list again only when it changed)
        conn.tables_made = tables
        plain = dumps(tables, sort_keys=True)
        if plain != conn.tables:
            conn.tables = plain
            conn.push(render_marks(f'{{"t":"tables","tables":{plain}}}'))  # the JSON just compared

    def _browser_says(self, conn: Conn) -> None:
        """The language the tab's browser shows is its reader's until they choose with ``/lang``
        (as ``/lang`` would: the page, the room's lines, the game's and their own); the rooms
        the nick reads may read anew."""
        if self.hub is None or conn.nick is None or conn.locale is None:
            return
        self.hub.client_language(self.network, _key_of(conn.nick), conn.locale or None)
        for room in self._rooms_of(conn.nick):
            self._read_in(room)

    def _bind(self, conn: Conn, nick: str) -> None:
        conn.nick = nick
        self.nicks.setdefault(nick.lower(), set()).add(conn)

    def _unbind(self, conn: Conn) -> None:
        if conn.nick is None:
            return
        tabs = self.nicks.get(conn.nick.lower())
        if tabs is not None:
            tabs.discard(conn)
            if not tabs:
                del self.nicks[conn.nick.lower()]
        conn.nick = None

    async def _claim(self, conn: Conn, frame: dict[str, Any]) -> None:
        assert self.claims is not None and self.hub is not None
        nick = frame.get("nick")
        if conn.nick is not None and isinstance(nick, str) and nick == conn.nick:
            conn.send("claimed", nick=nick, token=conn.token)
            return
        if not self._claim_allowed(conn.address):
            per = self.limits.claims_per_minute
            refusal = _("Too many nick claims from your address (at most {n} a minute); wait.")
            conn.error("limit", refusal.format(n=per))
            return
        claims, admins, held = self.claims, self.admin_tokens, conn.token
        assert admins is not None

        def claimed() -> tuple[str, str | None, str | None]:
            token, old = claims.claim(held, nick)  # type: ignore[arg-type]
            return token, old, admins.admin_of(token)

        try:
            token, old, admin = await self.hub.records(claimed)
        except ClaimError as error:
            conn.error("nick", str(error))
            return
        assert isinstance(nick, str)
        if old is None or conn.nick is None:
            if conn.nick is not None:  # the old claim had expired and was taken: start afresh
                self._unbind(conn)
            conn.token = token
            self._bind(conn, nick)
            conn.admin = admin
            self._browser_says(conn)
            conn.send("claimed", nick=nick, token=token)
            await self.hub.user_returned(self.network, self._user(nick))
            self._send_tables(conn)
            return
        await self._rename(old, nick, token)

    def _claim_allowed(self, address: str) -> bool:
        """At most ``claims_per_minute`` claims from one address in any minute."""
        now = self.clock()
        times = self.claim_times.setdefault(address, deque())
        while times and now - times[0] >= 60.0:
            times.popleft()
        if len(times) >= self.limits.claims_per_minute:
            return False
        times.append(now)
        return True

    async def _rename(self, old: str, new: str, token: str) -> None:
        """Every tab of the browser takes the new nick; seats follow it."""
        assert self.hub is not None
        tabs = self.nicks.pop(old.lower(), set())
        rooms: set[str] = set()
        for tab in tabs:
            tab.nick = new
            tab.token = token
            rooms |= tab.rooms
            tab.send("claimed", nick=new, token=token)
        self.nicks.setdefault(new.lower(), set()).update(tabs)
        for room in sorted(rooms):
            self._public(room, "chat", nick="*", text=f"{old} is now known as {new}.")
            self._members(room)
            self._changed(room)
        await self.hub.user_renamed(self.network, self._user(old), self._user(new))
        for tab in tabs:
            self._browser_says(tab)
        for room in rooms:  # the new name may read another language
            self._read_in(room)

    async def _join(self, conn: Conn, frame: dict[str, Any]) -> None:
        assert self.hub is not None
        if conn.nick is None:
            conn.error("nick", "Choose a nick first.")
            return
        room = self._room_named(conn, frame)
        if room is None:
            return
        limit = self.limits.rooms_per_nick
        if room not in self._rooms_of(conn.nick) and len(self._rooms_of(conn.nick)) >= limit:
            conn.error("room", _("You can be in at most {n} rooms at once; /part one first.").format(n=limit))
            return
        conn.rooms.add(room)
        self.rooms.setdefault(room, set()).add(conn)
        self._send_room(conn, "joined", room, bool(frame.get("history")))
        self._members(room)
        self._read_in(room)
        user = self._user(conn.nick)
        await self.hub.user_returned(self.network, user)
        self._resend_hand(conn, room, user)

    @staticmethod
    def _room_named(conn: Conn, frame: dict[str, Any]) -> str | None:
        """The room a frame names, in lower case; None (and the tab told why) when it is no room name."""
        room = frame.get("room")
        if not valid_room(room):
            conn.error("room", "A room name is # and 1 to 30 letters, digits, - or _ (e.g. #bazaar).")
            return None
        assert isinstance(room, str)
        return room.lower()

    def _send_room(self, conn: Conn, kind: str, room: str, history: bool) -> None:
        """Everything a tab that joins (``kind`` "joined") or watches ("watching") ``room`` draws it
        from: board, view, members, and with ``history`` the room's last lines."""
        view = self._view_for(conn, room)
        lines = self.history.lines(room) if self.history and history else []
        if lines and self.hub is not None:  # each in the language this tab reads
            lang = self._reading(room)(conn)
            lines = [line_for(line, lang, self.hub.public_line) for line in lines]
        conn.send(
            kind,
            room=room,
            board=self._board(room),
            view=view,
            members=self._nicks_in(room),
            history=lines,
        )

    def _resend_hand(self, conn: Conn, room: str, user: User) -> None:
        """A player who (re)joins the room of their running game gets their private view again."""
        assert self.hub is not None
        view = self.hub.private_view(self.network, room, user.key)
        if view:
            conn.send("tell", text=view, role="hand", room=room)

    async def _part(self, conn: Conn, frame: dict[str, Any]) -> None:
        assert self.hub is not None
        room = frame.get("room")
        if not isinstance(room, str) or room.lower() not in conn.rooms:
            conn.error("room", "You are not in that room.")
            return
        room = room.lower()
        self._leave_room(conn, room)
        conn.send("parted", room=room)
        if conn.nick is not None and room not in self._rooms_of(conn.nick):
            await self.hub.user_left(self.network, room, self._user(conn.nick), self.leave_grace)

    def _leave_room(self, conn: Conn, room: str) -> None:
        conn.rooms.discard(room)
        conn.views.pop(room, None)
        conn.wanted.pop(room, None)
        conn.board_rooms.discard(room)
        members = self.rooms.get(room)
        if members is not None:
            members.discard(conn)
            if not members:
                del self.rooms[room]
        self._members(room)
        self._read_in(room)
        self._forget(room)

    def _forget(self, room: str) -> None:
        if room not in self.rooms and room not in self.watchers:
            self.boards.pop(room, None)
            self.board_versions.pop(room, None)
            self._built.pop(room, None)

    def _rooms_of(self, nick: str) -> set[str]:
        rooms: set[str] = set()
        for tab in self.nicks.get(nick.lower(), ()):
            rooms |= tab.rooms
        return rooms

    async def _say(self, conn: Conn, frame: dict[str, Any]) -> None:
        assert self.hub is not None
        if conn.nick is None:
            conn.error("nick", "Choose a nick first.")
            return
        text = frame.get("text")
        room = frame.get("room")
        if not isinstance(text, str):
            conn.error("frame", "A line needs text.")
            return
        if len(text) > self.settings.max_message:
            conn.error(
                "too_big",
                f"That line is too long ({len(text)} characters; at most {self.settings.max_message}).",
            )
            return
        clean = sanitize(text)
        if not clean:
            return
        if clean.split(" ", 1)[0].lower() in ("/admin", "!admin"):
            # a secret: never echoed, never shown to the room, never handed to the hub
            await self._admin(conn, {"token": clean.split(" ", 1)[1] if " " in clean else ""})
            return
        if self.admin_tokens is not None and self.admin_tokens.holds_token(clean):
            # an admin token pasted as chat: never shown to anybody nor kept in the history
            log.warning("web: %s typed an admin token as chat; it was not shown", conn.nick)
            conn.send(
                "tell", text=_("That is an admin token: it was not shown. Type /admin TOKEN to use it.")
            )
            return
        user = self._user(conn.nick, conn)
        if room is None:
            mine = _said_of(frame, self.settings.max_message) or clean  # as its author would have typed it
            for tab in self.nicks.get(conn.nick.lower(), ()):
                tab.send("mine", text=mine)
            await self.hub.handle(Incoming(self.network, None, user, clean))
            if chooses_language(clean):
                for changed in self._rooms_of(conn.nick):
                    self._read_in(changed)
            return
        if not isinstance(room, str) or room.lower() not in conn.rooms:
            conn.error("room", "Join that room first.")
            return
        room = room.lower()
        if self.hub.is_addressed(self.network, room, user, clean):
            # a command or a move is not chat: only its author's tabs see it, as its author would have
            # typed it (a button sends the English command and says its words); the room sees the answer
            echoed = _said_of(frame, self.settings.max_message) or clean
            for tab in self.nicks.get(conn.nick.lower(), ()):
                if room in tab.rooms:
                    tab.send("echo", room=room, text=echoed)
        else:
            self._public(room, "chat", nick=conn.nick, text=clean)
        with answering(conn.nick, room, clean), conn.holding():
            await self.hub.handle(Incoming(self.network, room, user, clean))
        if chooses_language(clean):  # the rooms of this reader (or of this room) may read anew
            for changed in {room, *self._rooms_of(conn.nick)}:
                self._read_in(changed)

    async def _watch(self, conn: Conn, frame: dict[str, Any]) -> None:
        if conn.nick is not None or conn.rooms:
            conn.error("frame", "A player's connection cannot watch; open /watch/<room>.")
            return
        room = self._room_named(conn, frame)
        if room is None:
            return
        spectators = sum(len(w) for w in self.watchers.values())
        if spectators >= self.limits.max_connections - self.limits.player_reserve:
            conn.error("limit", _("Too many spectators right now; try again later."))
            await conn.close(1013, b"too many spectators", drain=1.0)
            return
        conn.watching = room
        self.watchers.setdefault(room, set()).add(conn)
        self._send_room(conn, "watching", room, True)

    async def _drop(self, conn: Conn) -> None:
        """A tab went away: forget it; when a nick has no tab left, the hub's leave grace starts."""
        if conn in self.conns:
            self._release(conn.address)
        self.conns.discard(conn)
        if conn.watching is not None:
            watchers = self.watchers.get(conn.watching)
            if watchers is not None:
                watchers.discard(conn)
                if not watchers:
                    del self.watchers[conn.watching]
            self._forget(conn.watching)
        for room in list(conn.rooms):
            self._leave_room(conn, room)
        nick = conn.nick
        if nick is not None:
            self._unbind(conn)
            if nick.lower() not in self.nicks and not self._stopping and self.hub is not None:
                with contextlib.suppress(RuntimeError):
                    await self.hub.user_left(self.network, None, self._user(nick), self.leave_grace)
        await conn.close()

    # --- idle websockets and stale claims --------------------------------------------------
    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(min(SWEEP_EVERY, self.limits.idle_unclaimed / 4))
            try:
                await self.sweep()
            except sqlite3.Error as error:  # a full or read-only disk: the claims are swept next time
                log.warning("web: the claims could not be swept: %s", error)
            except Exception:
                log.exception("web: the idle sweep failed")

    async def sweep(self) -> None:
        """Close websockets silent for longer than their idle limit; forget stale claims."""
        now = self.clock()
        idle: list[Conn] = []
        for conn in list(self.conns):
            claimed = conn.nick is not None or conn.watching is not None
            limit = self.limits.idle_claimed if claimed else self.limits.idle_unclaimed
            if now - conn.last_frame > limit and not conn.dead:
                idle.append(conn)
        for conn in idle:
            conn.dead = True
        await asyncio.gather(*(c.close(1000, b"idle for too long") for c in idle))
        if self.claims is not None and self.hub is not None:
            claims, seated = self.claims, [seat.nick for seat in self.hub.seated(self.network)]
            stale, online = self.limits.stale_claim, set(self.nicks)

            def swept() -> None:
                claims.mark_sat(seated)
                claims.expire_stale(stale, online)

            await self.hub.records(swept)

    # --- fan-out ---------------------------------------------------------------------------
    def present(self, channel: str) -> list[User]:
        """The people with a tab in the room now (spectators have no nick): ``/notify`` calls only them."""
        return [self._user(nick) for nick in self._nicks_in(channel.lower())]

    def _nicks_in(self, room: str) -> list[str]:
        return sorted({c.nick for c in self.rooms.get(room, ()) if c.nick}, key=str.lower)

    def _members(self, room: str) -> None:
        frame = encode("members", room=room, nicks=self._nicks_in(room))
        for tab in (*self.rooms.get(room, ()), *self.watchers.get(room, ())):
            tab.push(frame)

    def _public(self, room: str, kind: str, **fields: Any) -> None:
        """A public line of a room: to its players and spectators, each in the language it reads
        (one frame per language), and into its recent history as it can be rendered again."""
        fields["at"] = int(time.time())
        if self.history is not None:
            self.history.add(room, {"t": kind, "room": room, **fields})
        tabs = (*self.rooms.get(room, ()), *self.watchers.get(room, ()))
        text = fields.get("text")
        if self.hub is None or not renders_again(text):
            frame = encode(kind, room=room, **fields)
            for tab in tabs:
                tab.push(frame)
            return
        for lang, group in by_language(tabs, self._known_reading(room)).items():
            said = text if lang is None else self.hub.public_line(text, lang)
            frame = encode(kind, room=room, **(fields | {"text": said}))
            for tab in group:
                tab.push(frame)

    def _read_in(self, room: str) -> None:
        """Tell the hub the languages ``room``'s players read, when they changed: its table builds
        a game's plain lines in each of them too."""
        assert self.hub is not None
        language_of = self._reading(room)
        read = {tab: language_of(tab) for tab in self.rooms.get(room, ())}
        if read:
            self.tab_languages[room] = read
        else:
            self.tab_languages.pop(room, None)
        languages = frozenset(lang for lang in read.values() if lang)
        if languages != self.read_languages.get(room, frozenset()):
            if languages:
                self.read_languages[room] = languages
            else:
                self.read_languages.pop(room, None)
            self.hub.reader_languages(self.network, room, languages)

    def _known_reading(self, room: str) -> TabLanguage:
        """Each tab's language for ``room``'s lines as last looked up (at a join, a part, a
        ``/lang``), so a line costs no look-up per tab; a tab not seen yet is looked up."""
        known = self.tab_languages.get(room, {})
        look_up = self._reading(room)
        return lambda tab: known[tab] if tab in known else look_up(tab)

    def _reading(self, room: str) -> TabLanguage:
        """Each tab's language for ``room``'s lines (None: the room's own), asked once per nick: a
        player's page language; a spectator reads the room's."""
        assert self.hub is not None
        hub, known = self.hub, {}

        def language_of(tab: Conn) -> str | None:
            nick = tab.nick if tab.watching is None else None
            if nick not in known:
                known[nick] = hub.page_language(self.network, room, _key_of(nick)) if nick else None
            return known[nick]

        return language_of

    def _board(self, room: str) -> str | None:
        assert self.hub is not None
        self.board_versions[room] = self.hub.board_version(self.network, room)
        board = self.hub.public_board(self.network, room)
        self.boards[room] = board
        return board

    def _board_readers(self, room: str) -> list[Conn]:
        """The room's tabs that show its text board: all of them where the game is not drawn, else
        those that opened their "board as text" (a drawn table needs no text board re-rendered)."""
        assert self.hub is not None
        tabs = [*self.rooms.get(room, ()), *self.watchers.get(room, ())]
        if not tabs or not self.hub.drawn_table(self.network, room):
            return tabs
        return [tab for tab in tabs if room in tab.board_rooms]

    async def _board_request(self, conn: Conn, frame: dict[str, Any]) -> None:
        """``board {room, on}``: this tab shows (or no longer shows) the room's text board."""
        room = frame.get("room")
        if not isinstance(room, str) or not (room.lower() in conn.rooms or room.lower() == conn.watching):
            conn.error("frame", _("Join the room first."))
            return
        room = room.lower()
        if frame.get("on", True) is False:
            conn.board_rooms.discard(room)
            return
        conn.board_rooms.add(room)
        conn.send("board", room=room, text=self._board(room))

    async def _moves_request(self, conn: Conn, frame: dict[str, Any]) -> None:
        """``moves {room, verb}``: the tab's legal commands of one verb (all without one), which the
        view leaves out when a verb has many; answered for this moment of the game (``moves``)."""
        assert self.hub is not None
        room, verb = frame.get("room"), frame.get("verb")
        if not isinstance(room, str) or room.lower() not in conn.rooms or conn.nick is None:
            conn.error("frame", _("Join the room first."))
            return
        if verb is not None and not (isinstance(verb, str) and 0 < len(verb) <= MAX_VERB):
            conn.error("frame", _("That is not a verb of the game."))
            return
        room = room.lower()
        answer = self.hub.verb_commands(self.network, room, _key_of(conn.nick), verb)
        empty = {"game_id": None, "moves": None, "commands": [], "said": {}}
        conn.send("moves", room=room, verb=verb, **(answer or empty))
        if verb is not None and answer and answer["commands"]:
            # the page draws this verb at every turn: from now on its views carry its commands
            wanted = conn.wanted.setdefault(room, set())
            if len(wanted) < MAX_WANTED:
                wanted.add(verb)

    def _refresh_board(self, room: str) -> None:
        """After a public line: re-render the board only if the table changed since the last render
        and somebody shows it."""
        assert self.hub is not None
        readers = self._board_readers(room)
        if not readers:
            return
        version = self.hub.board_version(self.network, room)
        if room in self.boards and self.board_versions.get(room) == version:
            return
        self.board_versions[room] = version
        board = self.hub.public_board(self.network, room)
        if room in self.boards and self.boards[room] == board:
            return
        self.boards[room] = board
        frame = encode("board", room=room, text=board)
        for tab in readers:
            tab.push(frame)

    async def send(self, message: Outgoing) -> None:
        """Say: to the room's tabs and spectators (then its board); Tell: only to the nick's own tabs."""
        if isinstance(message, Say):
            room = message.channel.lower()
            asked = asked_here(room)  # a command's public answer names the line it answers
            extra: dict[str, Any] = {"asked": {"nick": asked[0], "text": asked[1]}} if asked else {}
            if message.about:
                extra["about"] = message.about
            if message.invites:
                extra["invites"] = list(message.mentions)
            bot = self.hub.bot_nick if self.hub else "bot"
            self._public(room, "bot", nick=bot, text=message.text, **extra)
            self._refresh_board(room)
            self._changed(room)
        elif isinstance(message, Tell):
            tabs = self.nicks.get(message.nick.lower(), ())
            if not tabs:
                log.debug("private line for %s, who has no tab open, dropped", message.nick)
            key = message.key or _key_of(message.nick)
            lang = self.hub.page_language(self.network, None, key) if tabs else None
            rooms = self._rooms_of(message.nick)
            kind, where = sort_tell(
                self.hub, self.network, message.nick, key, message.text, rooms, message.hand_of
            )
            urgent = {"urgent": True} if message.urgent else {}
            # in the reader's words (the pipeline said it in their language; an AI named there too)
            text = (
                self.hub.public_line(message.text, lang)
                if lang and renders_again(message.text)
                else message.text
            )
            for tab in tabs:
                tab.send("tell", text=text, role=kind, room=where, lang=lang, **urgent)
                for room in tab.rooms:
                    self._changed(room)

    # --- table views ---------------------------------------------------------------------------
    def _view_for(self, conn: Conn, room: str) -> dict[str, Any] | None:
        """The table view this tab may see (a spectator's: public parts only); remembered as sent.

        Its game log goes out as a ``log`` frame right after the frame that carries the view.
        """
        assert self.hub is not None
        key = self._view_key(conn)
        parts = self.hub.room_views(self.network, room, [key], {key: conn.wanted.get(room, set())})
        if parts is None:
            conn.views[room] = NO_TABLE
            return None
        lang, public, you = parts[key]
        encoded = EncodedPublic.of(public)
        # the frame that carries this view carries it whole
        conn.views[room] = encoded.frame(dumps(room), encode_you(you), None)[1]
        conn.logged.pop(room, None)
        view = {k: v for k, v in public.items() if k != "log"} | {"you": you}
        asyncio.get_running_loop().call_soon(self._send_log, conn, room, view, encoded.entries, lang)
        return view

    def _view_key(self, conn: Conn) -> str | None:
        """Whose private parts a tab's view carries: none for a spectator or a tab without a nick."""
        return None if conn.watching is not None or conn.nick is None else _key_of(conn.nick)

    def _send_log(
        self,
        conn: Conn,
        room: str,
        view: dict[str, Any] | None,
        entries: list[dict[str, Any]],
        lang: str | None,
    ) -> None:
        """The log entries this tab has not had yet: all of them, read in ``lang``, when the game
        or the reader's language changed (the moves listed since a turn are then in the new words)."""
        game = view.get("game_id") if view else None
        seen_game, seen_lang, seen_n = conn.logged.get(room, (None, None, -1))
        reset = seen_game != game or seen_lang != lang
        start = len(entries)
        if reset:
            start = 0
        else:  # the log is in move order: the entries not sent yet are its last ones
            while start and entries[start - 1]["n"] > seen_n:
                start -= 1
        fresh = entries[start:]
        if not fresh and not reset:
            return
        conn.logged[room] = (game, lang, fresh[-1]["n"] if fresh else -1)
        conn.send("log", room=room, game=game, entries=fresh, reset=reset)

    def views_changed(self, channel: str) -> None:
        """A table changed outside a line (its game log was read): its tabs get its view again."""
        self._built.pop(channel.lower(), None)
        self._changed(channel.lower())

    def _changed(self, room: str) -> None:
        """The room's table may have changed: send its views once the current line is handled."""
        self._dirty.add(room)
        if not self._flush_scheduled:
            self._flush_scheduled = True
            asyncio.get_running_loop().call_soon(self._flush_views)

    def _flush_views(self) -> None:
        """One view per tab of every changed room, only where it differs from the last one sent.

        The room's public part is encoded once per language, member by member, each reader's own
        part once per reader; a tab that has the room's view gets only the members that changed.
        """
        self._flush_scheduled = False
        rooms, self._dirty = self._dirty, set()
        try:
            if self.hub is not None and not self._stopping:
                self._build_views(rooms)
        finally:
            # the change is complete: every tab it queued frames for gets them now, as one message
            self.outbox.drain()

    def _build_views(self, rooms: set[str]) -> None:
        """Each changed room's views, queued for its tabs (see ``_flush_views``)."""
        for room in rooms:
            tabs = [*self.rooms.get(room, ()), *self.watchers.get(room, ())]
            keys = {tab: self._view_key(tab) for tab in tabs}
            wanted: dict[str | None, set[str]] = {}
            for tab, key in keys.items():
                if room in tab.wanted:
                    wanted.setdefault(key, set()).update(tab.wanted[room])
            readers = set(keys.values())
            version = self.hub.view_version(self.network, room, readers, wanted)
            if version is not None and self._built.get(room) == version:
                continue  # the views would be the ones the tabs have
            parts = self.hub.room_views(self.network, room, readers, wanted)
            if version is None:
                self._built.pop(room, None)
            else:
                self._built[room] = version
            room_json = dumps(room)
            if parts is None:
                frame = encode("view", room=room, view=None)
                for tab in tabs:
                    if tab.views.get(room) != NO_TABLE:
                        tab.views[room] = NO_TABLE
                        tab.push(frame)
                continue
            publics: dict[int, EncodedPublic] = {}
            yours: dict[str | None, str] = {}
            for tab in tabs:
                key = keys[tab]
                lang, public, you = parts[key]
                encoded = publics.get(id(public))
                if encoded is None:
                    encoded = publics[id(public)] = EncodedPublic.of(public)
                if key not in yours:
                    yours[key] = encode_you(you)
                sent = tab.views.get(room)
                frame, tab.views[room] = encoded.frame(
                    room_json, yours[key], sent if isinstance(sent, SentView) else None
                )
                if frame is not None:
                    tab.push(frame)
                    self._send_log(tab, room, encoded.view, encoded.entries, lang)
                    self._send_tables(tab)


@functools.lru_cache(maxsize=4096)
def _key_of(nick: str) -> str:
    """The identity a web nick's lines come from (as ``_user`` makes it): looked up for every view,
    tables list and private line, so made once per nick."""
    return User(nick=nick, account=nick).key


def _said_of(frame: dict[str, Any], longest: int) -> str | None:
    """The words a ``say`` frame's button says its command in (``said``), cleaned; None without."""
    said = frame.get("said")
    if not isinstance(said, str) or len(said) > longest:
        return None
    return sanitize(said) or None
