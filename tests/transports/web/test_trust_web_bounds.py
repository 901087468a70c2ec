"""Web resource bounds against the real aiohttp server over loopback sockets.

Tabs that never read are cut off by the bytes waiting for them (per tab and
per address) and memory stays bounded; half-sent HTTP requests are closed at
the header deadline and one address cannot hold more than its share of
connections; the global websocket cap keeps admitting players while
spectators fill it, and never closes a seated player's tab; one network
prefix has its own bound. The caps are small here; the defaults are in
``WebLimits``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from support.rawws import RawWs, rss_bytes
from support.waits import wait_until
from support.webfixtures import WsClient, player, serve

from bazaarbot.config import WebLimits
from bazaarbot.transports.web.guard import ACCEPT_FAILED

LONG_ROOM = "#long"


def fill_history(served, room: str = LONG_ROOM, lines: int = 100) -> None:
    """A room whose history is ``lines`` long lines, as a busy room has."""
    assert served.transport.history is not None
    for n in range(lines):
        served.transport.history.add(
            room, {"t": "chat", "room": room, "nick": "talker", "text": f"{n} " + "y" * 390, "at": 0}
        )


def conns_from(served, address: str) -> int:
    return sum(1 for conn in served.transport.conns if conn.address == address)


@asynccontextmanager
async def _tabs_that_never_read(served, address: str, n: int) -> AsyncIterator[tuple[WsClient, list[RawWs]]]:
    """A reader's own tab, and ``n`` raw tabs of the reader from ``address`` that never read, in a room
    with a long history; the raw tabs close at the end."""
    owner, token = await player(served, "reader", room=None)
    fill_history(served)
    sockets = [await RawWs.open(served.transport.port, address) for _ in range(n)]
    try:
        for sock in sockets:
            assert await sock.send(t="hello", token=token)
        yield owner, sockets
    finally:
        for sock in sockets:
            sock.close()


#: how often, at most, the tabs that never read join and part again while the server is to cut them off
PUMP_INTERVAL = 0.25


async def _join_and_part(sockets: list[RawWs]) -> None:
    """Every tab joins the long room with its history and parts again."""
    for sock in sockets:
        await sock.send(t="join", room=LONG_ROOM, history=True)
        await sock.send(t="part", room=LONG_ROOM)


async def test_tabs_that_never_read_are_disconnected_and_memory_stays_bounded(tmp_path: Path) -> None:
    limits = WebLimits(send_buffer_bytes=300_000, address_buffer_bytes=2_000_000)
    async with serve(tmp_path / "w.sqlite", limits=limits) as served:
        async with _tabs_that_never_read(served, "127.0.0.9", 20) as (_owner, sockets):
            before = rss_bytes()
            peaks = [before]
            started = time.monotonic()

            async def cut_off() -> bool:
                await _join_and_part(sockets)  # up to four times a second, never reading
                peaks.append(rss_bytes())
                return not conns_from(served, "127.0.0.9")

            await wait_until(cut_off, 10, "every tab that never reads cut off", PUMP_INTERVAL)
            held = time.monotonic() - started
            peak = max(peaks)
        growth = (peak - before) / 1e6
        print(f"20 non-reading tabs: RSS +{growth:.1f} MB at the peak, all cut off after {held:.1f} s")
        assert conns_from(served, "127.0.0.9") == 0, "every tab that never reads is disconnected"
        assert growth < 60, f"RSS grew {growth:.1f} MB"
        assert served.transport.budget.queued.get("127.0.0.9", 0) == 0, "what waited for them is freed"
        # the reader's own tab (another address) was not touched
        assert _owner.ws.closed is False
        await _owner.sync()


async def test_one_address_cannot_hold_more_bytes_than_its_share_over_many_tabs(tmp_path: Path) -> None:
    limits = WebLimits(send_buffer_bytes=1_000_000, address_buffer_bytes=200_000)
    async with serve(tmp_path / "w.sqlite", limits=limits) as served:
        async with _tabs_that_never_read(served, "127.0.0.10", 10) as (_owner, sockets):

            async def one_cut_off() -> bool:
                await _join_and_part(sockets)
                assert served.transport.budget.queued.get("127.0.0.10", 0) <= 200_000
                return conns_from(served, "127.0.0.10") < 10

            await wait_until(one_cut_off, 10, "a tab of the address cut off", PUMP_INTERVAL)
        assert conns_from(served, "127.0.0.10") < 10, "the address's share is enforced over all its tabs"


#: the writing ends of the half-sent requests, kept open until the test ends
WRITERS: list[asyncio.StreamWriter] = []


async def half_request(port: int, source: str) -> asyncio.StreamReader:
    """A connection that sends the start of a request and one header line, and then nothing."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    await writer.drain()
    WRITERS.append(writer)
    return reader


async def closed_after(reader: asyncio.StreamReader, timeout: float) -> float:
    """Seconds until the server closes the connection (what it sends before is read and dropped)."""
    started = time.monotonic()
    while await asyncio.wait_for(reader.read(4096), timeout):
        pass
    return time.monotonic() - started


async def test_half_sent_requests_are_closed_at_the_header_deadline_and_others_get_in(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    limits = WebLimits(http_per_address=5, header_timeout=0.5)
    async with serve(tmp_path / "w.sqlite", limits=limits) as served:
        port = served.transport.port
        opened = time.monotonic()
        slow = [await half_request(port, "127.0.0.11") for _ in range(5)]
        refused = [await half_request(port, "127.0.0.11") for _ in range(3)]
        for reader in refused:  # over the address's share: closed at once
            assert await closed_after(reader, 2.0) < 0.4
        async with (
            aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=("127.0.0.12", 0))) as session,
            session.get(served.url + "/healthz") as response,
        ):
            assert response.status == 200, "somebody else is served meanwhile"
        await asyncio.gather(*(closed_after(r, 3.0) for r in slow))
        held = time.monotonic() - opened
        print(f"a half-sent request is held {held:.2f} s (header deadline 0.5 s)")
        assert held < 2.0
        assert served.transport.guard.timed_out == 5 and served.transport.guard.refused == 3
        # the address may connect again, and a request whose headers come in time is answered
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.11", 0))
        writer.write(b"GET /healthz HTTP/1.1\r\n")
        await asyncio.sleep(0.1)
        writer.write(b"Host: 127.0.0.1\r\nConnection: close\r\n\r\n")
        answer = await asyncio.wait_for(reader.read(), 3.0)
        assert answer.startswith(b"HTTP/1.1 200"), answer[:80]
        writer.close()
    for writer in WRITERS:
        writer.close()
    WRITERS.clear()
    assert not [r for r in caplog.records if r.exc_info], "no tracebacks"
    warnings = [r for r in caplog.records if "too many HTTP connections from 127.0.0.11" in r.getMessage()]
    assert len(warnings) == 1, "the refusals are logged once"


async def test_a_kept_alive_connection_that_dribbles_its_next_request_is_closed(tmp_path: Path) -> None:
    async with serve(tmp_path / "w.sqlite", limits=WebLimits(header_timeout=0.5)) as served:
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", served.transport.port, local_addr=("127.0.0.13", 0)
        )
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        answer = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 3.0)
        assert answer.startswith(b"HTTP/1.1 200")
        writer.write(b"GET /healthz HTTP/1.1\r\n")  # the next request, one line and then nothing
        started = time.monotonic()
        while await asyncio.wait_for(reader.read(4096), 3.0):
            pass
        assert time.monotonic() - started < 2.0
        writer.close()


async def test_out_of_file_descriptors_refuses_and_logs_once_without_a_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    import os
    import resource
    import subprocess
    import sys

    caplog.set_level(logging.INFO)
    async with serve(tmp_path / "w.sqlite", limits=WebLimits(http_per_address=500)) as served:
        port = served.transport.port
        # the clients live in another process, so only the server's descriptors run out
        holder = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import socket, sys, time\n"
                "s = [socket.create_connection(('127.0.0.1', int(sys.argv[1]))) for _ in range(40)]\n"
                "print('open', flush=True); time.sleep(float(sys.argv[2]))",
                str(port),
                "2.5",
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        loop = asyncio.get_running_loop()
        quiet = loop.get_exception_handler()
        assert quiet is not None
        failures: list[dict[str, Any]] = []

        def counting(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
            if context.get("message") == ACCEPT_FAILED:
                failures.append(context)
            quiet(loop, context)

        loop.set_exception_handler(counting)
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (len(os.listdir("/proc/self/fd")) + 10, hard))
        try:
            assert holder.stdout is not None
            await asyncio.get_running_loop().run_in_executor(None, holder.stdout.readline)
            await wait_until(lambda: len(failures) >= 2, what="accept to fail again and again meanwhile")
        finally:
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        holder.wait(10)
        holder.stdout.close()
        async with aiohttp.ClientSession() as session:

            async def served_again() -> int:  # asyncio accepts again after its pause
                try:
                    async with session.get(served.url + "/healthz") as response:
                        return response.status
                except aiohttp.ClientConnectionError:
                    return 0

            status = await wait_until(served_again, what="an answer once descriptors are free")
            assert status == 200, "served again once descriptors are free"
    assert not [r for r in caplog.records if r.exc_info], "no tracebacks"
    said = [r for r in caplog.records if "cannot accept connections" in r.getMessage()]
    assert len(said) == 1, [r.getMessage() for r in caplog.records][-10:]


async def spectator(served, source: str, room: str = "#bazaar"):
    client = await served.connect(source=source)
    await client.send(t="watch", room=room)
    return client


async def test_the_global_cap_keeps_admitting_players_while_spectators_fill_it(tmp_path: Path) -> None:
    limits = WebLimits(max_connections=6, player_reserve=2)
    async with serve(tmp_path / "w.sqlite", limits=limits) as served:
        alice, _token = await player(served, "alice")
        await alice.say("#bazaar", "/join")
        await alice.expect("tell", lambda f: "You sit" in f["text"])
        watchers = []
        for n in range(4):
            watchers.append(await spectator(served, f"127.0.{10 + n}.1"))
            await watchers[-1].expect("watching")
        extra = await spectator(served, "127.0.20.1")
        refused = await extra.expect("error")
        assert refused["text"] == "Too many spectators right now; try again later."
        await extra.closed()
        silent = await served.connect(source="127.0.21.1")  # the sixth socket: says nothing at all
        await alice.sync()
        assert len(served.transport.conns) == 6
        # full: a newcomer still gets in, and the socket that never said a word made room
        started = time.monotonic()
        bob, _ = await player(served, "bob")
        admitted = time.monotonic() - started
        print(f"a newcomer player admitted under a full cap in {admitted * 1000:.0f} ms")
        assert (await silent.closed()).type == aiohttp.WSMsgType.CLOSE
        await bob.say("#bazaar", "/join")
        await bob.expect("tell", lambda f: "You sit" in f["text"])
        # full again: the longest-silent spectator goes for the next newcomer
        carol, _ = await player(served, "carol")
        assert (await watchers[0].closed()).type == aiohttp.WSMsgType.CLOSE
        await carol.sync()
        assert not alice.ws.closed and not bob.ws.closed, "a seated player's tab is never closed"
        await alice.sync()
        await bob.sync()


async def test_a_full_cap_of_seated_players_refuses_a_newcomer_and_closes_none(tmp_path: Path) -> None:
    limits = WebLimits(max_connections=2, player_reserve=1)
    async with serve(tmp_path / "w.sqlite", limits=limits) as served:
        seated = []
        for nick in ("alice", "bob"):
            tab, _ = await player(served, nick)
            await tab.say("#bazaar", "/join")
            await tab.expect("tell", lambda f: "You sit" in f["text"])
            seated.append(tab)
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await served.connect(source="127.0.30.1")
        assert refused.value.status == 503
        for tab in seated:
            await tab.sync()


async def test_one_network_prefix_is_bounded_across_its_addresses(tmp_path: Path) -> None:
    limits = WebLimits(connections_per_prefix=3)
    async with serve(tmp_path / "w.sqlite", limits=limits) as served:
        for n in range(3):
            await served.connect(source=f"127.0.40.{n + 1}")
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await served.connect(source="127.0.40.9")
        assert refused.value.status == 429
        await served.connect(source="127.0.41.1")  # another /24 is not held back by them
