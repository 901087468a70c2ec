"""Plain HTTP connections under bounds: a header-read deadline, a cap per address, no EMFILE tracebacks.

aiohttp waits for a request's headers as long as the client likes, so a
client that sends one header line every few seconds (slowloris) holds a
socket, and a file descriptor, for ever; enough of them and nobody gets in.
Every TCP connection passes through ``GuardedProtocol``: one address holds at
most ``per_address`` of them (more are closed at once), and a connection whose
first request (or, kept alive, its next one) has not begun within
``header_timeout`` seconds of connecting (or of the last answer) is closed. When
the process runs out of file descriptors anyway, asyncio's accept loop pauses
and the warning is logged once per episode, without a traceback.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, cast

from aiohttp import web

from bazaarbot.transports.web.address import peer_address

log = logging.getLogger(__name__)

#: asyncio's context message when accept() fails for lack of descriptors or memory
ACCEPT_FAILED = "socket.accept() out of system resource"
#: seconds between two warnings about running out of file descriptors
EMFILE_QUIET = 60.0


class ConnectionGuard:
    """Counts TCP connections per address and closes those that send no request in time."""

    def __init__(
        self, per_address: int, header_timeout: float, exempt: Callable[[str], bool] = lambda _a: False
    ) -> None:
        self.per_address = per_address
        self.header_timeout = header_timeout
        #: peers the per-address count does not apply to (trusted reverse proxies carry every browser);
        #: the header deadline still does
        self.exempt = exempt
        self.open: dict[str, int] = {}
        self.refused = 0
        self.timed_out = 0
        self._warned: dict[str, float] = {}
        self._by_transport: dict[int, GuardedProtocol] = {}

    def factory(self, inner: Callable[[], asyncio.Protocol]) -> Callable[[], asyncio.Protocol]:
        """A protocol factory for ``loop.create_server`` that wraps aiohttp's own."""
        return lambda: GuardedProtocol(self, inner())

    @web.middleware
    async def middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """A request arrived whole: its connection met the header deadline (the next one has its own)."""
        guarded = self._by_transport.get(id(request.transport))
        if guarded is not None:
            guarded.started = True
        try:
            return await handler(request)
        finally:
            if guarded is not None:
                guarded.answered()

    def admit(self, guarded: GuardedProtocol) -> bool:
        address = guarded.address
        if self.open.get(address, 0) >= self.per_address and not self.exempt(address):
            self.refused += 1
            self._warn_once(address, "too many HTTP connections from %s (at most %d); refusing more")
            return False
        self.open[address] = self.open.get(address, 0) + 1
        self._by_transport[id(guarded.transport)] = guarded
        return True

    def release(self, guarded: GuardedProtocol) -> None:
        self._by_transport.pop(id(guarded.transport), None)
        left = self.open.get(guarded.address, 0) - 1
        if left > 0:
            self.open[guarded.address] = left
        else:
            self.open.pop(guarded.address, None)

    def _warn_once(self, address: str, message: str) -> None:
        now = time.monotonic()
        if now - self._warned.get(address, -EMFILE_QUIET) >= EMFILE_QUIET:
            self._warned[address] = now
            log.warning(message, address, self.per_address)
            while len(self._warned) > 1000:
                del self._warned[next(iter(self._warned))]


class GuardedProtocol(asyncio.Protocol):
    """aiohttp's request handler for one connection, behind the guard's bounds."""

    def __init__(self, guard: ConnectionGuard, inner: asyncio.Protocol) -> None:
        self.guard = guard
        self.inner = inner
        self.transport: asyncio.Transport | None = None
        self.address = "?"
        self.admitted = False
        #: whether a whole request (its headers) arrived on this connection
        self.started = False
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # a stream transport, though not always asyncio's class: uvloop's are its own
        self.transport = cast(asyncio.Transport, transport)
        self.address = peer_address(transport)
        if not self.guard.admit(self):
            transport.abort()
            return
        self.admitted = True
        self._arm()
        self.inner.connection_made(transport)

    def answered(self) -> None:
        """A request was handled: a kept-alive connection has ``header_timeout`` for its next one."""
        self.started = False
        self._arm()

    def _arm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        loop = asyncio.get_running_loop()
        self._deadline = loop.call_later(self.guard.header_timeout, self._check_started)

    def _check_started(self) -> None:
        transport = self.transport
        if self.started or transport is None or transport.is_closing():
            return
        if transport.get_write_buffer_size() > 0:
            self._arm()  # an answer is still on its way to a slow reader: that is no idle connection
            return
        self.guard.timed_out += 1
        log.info("web: no request from %s within %.0f s; closed", self.address, self.guard.header_timeout)
        transport.abort()

    def data_received(self, data: bytes) -> None:
        if self.admitted:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.admitted else None

    def pause_writing(self) -> None:
        if self.admitted:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.admitted:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        if self.admitted:
            self.guard.release(self)
            self.inner.connection_lost(exc)


def quiet_accept_failures(loop: asyncio.AbstractEventLoop) -> None:
    """Out of file descriptors: asyncio pauses accepting by itself; say so once, without a traceback."""
    previous = loop.get_exception_handler()
    last = [-EMFILE_QUIET]

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") == ACCEPT_FAILED:
            now = time.monotonic()
            if now - last[0] >= EMFILE_QUIET:
                last[0] = now
                log.warning(
                    "web: cannot accept connections (%s); refusing them for now", context.get("exception")
                )
            return
        if previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handler)


class GuardedSite(web.TCPSite):
    """A TCP site whose every connection goes through a ``ConnectionGuard``."""

    def __init__(self, runner: web.BaseRunner, host: str, port: int, guard: ConnectionGuard) -> None:
        super().__init__(runner, host, port)
        self.guard = guard

    async def start(self) -> None:
        await web.BaseSite.start(self)
        loop = asyncio.get_running_loop()
        server = self._runner.server
        assert server is not None
        self._server = await loop.create_server(self.guard.factory(server), self._host, self._port)
        sockets = self._server.sockets
        self._bound_port = sockets[0].getsockname()[1] if sockets else self._port
