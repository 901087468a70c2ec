"""A process on standby: says so once, answers ``/healthz`` 503, and takes over when the lease is free.

It opens nothing of the bot while it waits (no store load, no network
connection), so taking over is the ordinary start: restore every table from
the store, connect to the networks, serve the web chat. While the database
cannot be reached it waits for it (a log line a minute), so a database restart
needs no supervisor.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable

import psycopg
from aiohttp import web

from bazaarbot.store.postgres.lease import Lease
from bazaarbot.store.postgres.outage import Outage

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
    """The standby's web answer; an ``OSError`` (the port is taken) is the caller's to say."""
    runner = web.AppRunner(_standby_app(), access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port, reuse_address=True).start()
    except OSError:
        await runner.cleanup()
        raise
    return runner


async def wait_for_lease(
    open_lease: Callable[[], Lease],
    seconds: float,
    web_at: tuple[str, int] | None,
    stop: asyncio.Event,
    clock: Callable[[], float] = time.monotonic,
) -> Lease | None:
    """Hold the line until this process may serve its networks (its lease) or is told to stop (None).

    ``open_lease`` makes the lease's session (tried again while the database is away);
    ``seconds``: the lease's length, which paces the tries; ``web_at``: the web chat's
    (host, port), answered with 503 while waiting (an ``OSError`` when it is taken).
    """
    outage = Outage("this process", clock)
    lease: Lease | None = None
    runner: web.AppRunner | None = None
    said = False
    every = max(0.05, seconds * POLL_SHARE)
    try:
        while True:
            try:
                if lease is None:
                    lease = await asyncio.to_thread(open_lease)
                if await asyncio.to_thread(lease.try_acquire):
                    outage.answered()
                    if said:
                        print(f"bazaarbot takes over {', '.join(lease.networks)}", flush=True)
                    return lease
                if runner is None and web_at is not None:  # answering 503 before it says it waits
                    runner = await _listen(*web_at)
                if not said:
                    holders = await asyncio.to_thread(lease.holders)
                    owners = ", ".join(sorted(set(holders.values()))) or "another process"
                    print(
                        f"bazaarbot is on standby: {', '.join(lease.networks)} served by {owners}; "
                        "it takes over when that process stops",
                        flush=True,
                    )
                    said = True
                outage.answered()
            except (psycopg.Error, sqlite3.Error) as error:  # the database is away: wait for it
                outage.failed(error)
            if runner is None and web_at is not None:
                runner = await _listen(*web_at)
            try:
                await asyncio.wait_for(stop.wait(), every)
                if lease is not None:
                    await asyncio.to_thread(lease.release)
                return None
            except TimeoutError:
                pass
    finally:
        if runner is not None:
            await runner.cleanup()
