"""Helpers for the web transport tests: a served hub on a free port, and a websocket client."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import aiohttp

from bazaarbot.config import AiSettings, BotSettings, RateLimit, WebLimits, WebSettings
from bazaarbot.hub.hub import Hub
from bazaarbot.plugin import GamePlugin
from bazaarbot.store import Store
from bazaarbot.transports.web import WebTransport
from support.botdriver import TEST_LEVELS, thread_ai_pool
from support.countgame import GAME as COUNT
from support.waits import TIMEOUT


@dataclass
class Served:
    hub: Hub
    transport: WebTransport
    clients: list[WsClient] = field(default_factory=list)

    async def connect(self, headers: dict[str, str] | None = None, source: str | None = None) -> WsClient:
        """A new tab on this server (from the loopback address ``source``), closed when the server is."""
        client = await WsClient.open(self.ws_url, headers, source)
        self.clients.append(client)
        return client

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.transport.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.transport.port}/ws"


@asynccontextmanager
async def serve(
    db: Path,
    games: dict[str, GamePlugin] | None = None,
    port: int = 0,
    default_game: str = "count",
    leave_grace: float = 60.0,
    rate_limit: RateLimit | None = None,
    limits: WebLimits | None = None,
    web: dict[str, Any] | None = None,
    review_after_game: float = 0.0,
    wall_clock: Callable[[], float] = time.time,
    seed: int = 11,
    **transport_options: Any,
) -> AsyncIterator[Served]:
    """A hub on the sqlite file ``db`` with the web transport on 127.0.0.1 (port 0: any free one);
    ``wall_clock`` is the hub's (a test's fake one moves the turn clocks by hand); ``seed`` the bot's,
    from which each game's deal follows (a test may pick one whose game is short)."""
    settings = BotSettings(default_game=default_game, seed=seed, leave_grace=leave_grace)
    if rate_limit is not None:
        settings = replace(settings, rate_limit=rate_limit)
    hub = Hub(
        Store(db),
        games=games or {"count": COUNT},
        settings=settings,
        ai=AiSettings(
            workers=1, move_delay=0.0, levels=TEST_LEVELS, review_after_game=review_after_game, ponder=False
        ),
        ai_pool=thread_ai_pool(),
        wall_clock=wall_clock,
    )
    web_settings = WebSettings(host="127.0.0.1", port=port, limits=limits or WebLimits(), **(web or {}))
    transport = WebTransport(web_settings, **transport_options)
    hub.attach(transport)
    await transport.start(hub)
    served = Served(hub, transport)
    try:
        yield served
    finally:
        for client in served.clients:
            await client.close()
        await transport.stop()
        await hub.close()


def frames_in(data: str) -> list[dict[str, Any]]:
    """The frames one websocket message carries: one object, or an array of those sent together."""
    decoded = json.loads(data)
    return decoded if isinstance(decoded, list) else [decoded]


def whole_views(frames: list[dict[str, Any]], views: dict[str, Any]) -> list[dict[str, Any]]:
    """The frames with each partial ``view`` merged into the room's view before it, as the page does.

    ``views`` holds the latest whole view per room (from ``joined``, ``watching`` and ``view``).
    """
    for frame in frames:
        if frame.get("t") in ("joined", "watching", "view") and "room" in frame and "view" in frame:
            if frame.get("t") == "view" and frame.get("partial"):
                frame["view"] = {**(views.get(frame["room"]) or {}), **frame["view"]}
            views[frame["room"]] = frame["view"]
    return frames


@dataclass
class WsClient:
    """A scripted browser tab speaking the JSON protocol; keeps every frame it received."""

    session: aiohttp.ClientSession
    ws: aiohttp.ClientWebSocketResponse
    seen: list[dict[str, Any]] = field(default_factory=list)
    _cursor: int = 0
    #: the latest whole view of each room (partial ``view`` frames are merged into it)
    views: dict[str, Any] = field(default_factory=dict)

    @classmethod
    async def open(
        cls, url: str, headers: dict[str, str] | None = None, source: str | None = None
    ) -> WsClient:
        connector = aiohttp.TCPConnector(local_addr=(source, 0)) if source else None
        session = aiohttp.ClientSession(connector=connector)
        try:
            ws = await session.ws_connect(url, headers=headers)
        except BaseException:
            await session.close()
            raise
        return cls(session, ws)

    async def close(self) -> None:
        await self.ws.close()
        await self.session.close()

    async def closed(self, timeout: float = TIMEOUT) -> aiohttp.WSMessage:
        """Read on until the server ends the connection; the closing message."""
        while True:
            msg = await self.ws.receive(timeout=timeout)
            if msg.type != aiohttp.WSMsgType.TEXT:
                return msg
            self.seen += whole_views(frames_in(msg.data), self.views)

    async def send(self, **frame: Any) -> None:
        await self.ws.send_str(json.dumps(frame))

    async def _next(self, timeout: float) -> dict[str, Any]:
        msg = await self.ws.receive(timeout=timeout)
        if msg.type != aiohttp.WSMsgType.TEXT:
            raise ConnectionError(f"websocket ended: {msg.type} {msg.data!r} {msg.extra!r}")
        frames = whole_views(frames_in(msg.data), self.views)
        self.seen += frames
        return frames[-1]

    async def expect(
        self,
        kind: str | tuple[str, ...],
        where: Callable[[dict[str, Any]], bool] | None = None,
        timeout: float = TIMEOUT,
    ) -> dict[str, Any]:
        """The next frame of ``kind`` (matching ``where``) not yet consumed, waiting for it if needed."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            while self._cursor < len(self.seen):
                frame = self.seen[self._cursor]
                self._cursor += 1
                kinds = (kind,) if isinstance(kind, str) else kind
                if frame.get("t") in kinds and (where is None or where(frame)):
                    return frame
            left = deadline - loop.time()
            if left <= 0:
                raise TimeoutError(f"no {kind} frame; saw {self.seen[-8:]}")
            await self._next(left)

    async def sync(self) -> None:
        """Wait until every frame the server queued for this tab so far has arrived."""
        await self.send(t="ping")
        await self.expect("pong")

    async def commands(self, room: str, view: dict[str, Any]) -> list[str]:
        """Every legal command a view offers, as the page gathers them: the view's own, and each
        long verb's asked for with a ``moves`` frame, in the view's order of verbs."""
        you = view.get("you") or {}
        inline = list(you.get("commands") or [])
        found: list[str] = []
        for verb in you.get("verbs") or []:
            own = [c for c in inline if c.split(" ", 1)[0] == verb["verb"]]
            if not verb["carried"]:
                await self.send(t="moves", room=room, verb=verb["verb"])
                answer = await self.expect("moves", lambda f, v=verb["verb"]: f["verb"] == v)
                assert (answer["game_id"], answer["moves"]) == (view["game_id"], view["moves"])
                assert answer["lang"] == view.get("lang")  # said in the words the view is drawn in
                own = answer["commands"]
            found += own
        return found

    def texts(self, kind: str) -> list[str]:
        return [str(f.get("text")) for f in self.seen if f.get("t") == kind]

    async def hello(self, token: str | None = None) -> dict[str, Any]:
        await self.send(t="hello", token=token)
        return await self.expect("welcome")

    async def claim(self, nick: str) -> dict[str, Any]:
        await self.send(t="claim", nick=nick)
        return await self.expect(("claimed", "error"))

    async def join(self, room: str, history: bool = False) -> dict[str, Any]:
        await self.send(t="join", room=room, history=history)
        return await self.expect("joined", lambda f: f["room"] == room.lower())

    async def say(self, room: str | None, text: str) -> None:
        await self.send(t="say", room=room, text=text)


async def player(served: Served, nick: str, room: str | None = "#bazaar") -> tuple[WsClient, str]:
    """A tab that claimed ``nick`` (and joined ``room``); returns it with its token."""
    client = await served.connect()
    await client.hello()
    claimed = await client.claim(nick)
    assert claimed["t"] == "claimed", claimed
    if room:
        await client.join(room)
    return client, claimed["token"]


async def two_seated(served: Served) -> tuple[WsClient, WsClient]:
    """alice and bob, each in a tab, both seated at #bazaar's table."""
    alice, _ = await player(served, "alice")
    bob, _ = await player(served, "bob")
    await alice.say("#bazaar", "/join")
    await alice.expect("bot", lambda f: "alice joins" in f["text"])
    await bob.say("#bazaar", "/join")
    await bob.expect("bot", lambda f: "bob joins" in f["text"])
    return alice, bob
