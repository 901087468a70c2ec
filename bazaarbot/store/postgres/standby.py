"""A process on standby: says so once, answers ``/healthz`` 503, and takes over when the lease is free.

It opens nothing of the bot while it waits (no store load, no network
connection), so taking over is the ordinary start: restore every table from
the store, connect to the networks, serve the web chat.
"""

from __future__ import annotations

import asyncio
import logging

from aiohttp import web

from bazaarbot.store.postgres.lease import Lease

log = logging.getLogger(__name__)

#: seconds between two attempts to take the networks (a fraction of the lease)
POLL_SHARE = 0.1


def _standby_app() -> web.Application:
    async def unavailable(_request: web.Request) -> web.Response:
        return web.json_response(
            {"status": "standby", "detail": "another process serves these networks"}, status=503
        )

    app = web.Application()
    app.router.add_get("/healthz", unavailable)
    app.router.add_route("*", "/{tail:.*}", unavailable)
    return app


async def _listen(host: str, port: int) -> web.AppRunner:
    runner = web.AppRunner(_standby_app(), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port, reuse_address=True).start()
    return runner


async def wait_for_lease(lease: Lease, web_at: tuple[str, int] | None, stop: asyncio.Event) -> bool:
    """Hold the line until this process may serve its networks (True) or is told to stop (False).

    ``web_at``: the web chat's (host, port), answered with 503 while waiting.
    """
    if await asyncio.to_thread(lease.try_acquire):
        return True
    holders = await asyncio.to_thread(lease.holders)
    owners = ", ".join(sorted(set(holders.values()))) or "another process"
    print(
        f"bazaarbot is on standby: {', '.join(lease.networks)} served by {owners}; "
        "it takes over when that process stops",
        flush=True,
    )
    runner = await _listen(*web_at) if web_at is not None else None
    try:
        every = max(0.05, lease.seconds * POLL_SHARE)
        while not stop.is_set():
            try:
                await asyncio.wait_for(stop.wait(), every)
                return False
            except TimeoutError:
                pass
            try:
                if await asyncio.to_thread(lease.try_acquire):
                    print(f"bazaarbot takes over {', '.join(lease.networks)}", flush=True)
                    return True
            except Exception as error:  # the database is away for a moment: keep waiting
                log.warning("standby cannot reach the store: %s", error)
        return False
    finally:
        if runner is not None:
            await runner.cleanup()
