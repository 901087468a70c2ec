"""Faults of a PostgreSQL store's processes: one line naming what to fix, never a traceback; a database
restart needs no supervisor (both processes wait for it and one serves again, and a process started
while it is down waits for it too)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import subprocess

import aiohttp
import psycopg
import pytest
from support.failover import BotProcess
from support.frozen import Pair, Person, healthz
from support.waits import wait_until

from bazaarbot.store.postgres.lease import Lease
from bazaarbot.store.postgres.standby import wait_for_lease

pytestmark = pytest.mark.xdist_group("partition")


def _problems(process: BotProcess) -> list[str]:
    return [line for line in process.lines if "Traceback" in line or line.startswith("  File ")]


async def test_a_standby_whose_web_port_is_taken_says_so_in_one_line(tmp_path, postgres_cluster) -> None:
    pair = Pair(tmp_path, postgres_cluster.database())
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        serving = pair.start(pair.ports[0])
        await serving.said("serving the web chat")
        standby = pair.start(port)
        await wait_until(lambda: standby.proc.poll() is not None, what="the standby to end")
        standby.stop()
        assert standby.proc.returncode == 1
        said = [line for line in standby.lines if "standby" not in line]
        assert len(said) == 1, f"one line: {standby.lines}"
        assert f"Port {port}" in said[0] and "--port" in said[0] and "[web]" in said[0], said[0]
        assert _problems(standby) == []
    finally:
        taken.close()
        pair.close()


async def test_a_database_outage_is_logged_once_a_minute_by_the_injected_clock(
    postgres_cluster, caplog
) -> None:
    url = postgres_cluster.database()
    now = [0.0]
    tries = [0]

    def open_lease() -> Lease:
        """Away for the first 31 tries (ten minutes of the injected clock); then back."""
        tries[0] += 1
        now[0] += 20.0
        if tries[0] <= 31:
            raise psycopg.OperationalError("connection refused")
        return Lease(url, frozenset({"web"}), seconds=0.5)

    with caplog.at_level(logging.WARNING, logger="bazaarbot.store"):
        lease = await wait_for_lease(open_lease, 0.5, None, asyncio.Event(), clock=lambda: now[0])
    assert lease is not None and lease.held_until is not None, "once the database is back, the lease"
    lines = [r.getMessage() for r in caplog.records if r.name == "bazaarbot.store"]
    assert lines[0].startswith(
        "the database cannot be reached (connection refused): is the server of [store] url up?"
    )
    still = [line for line in lines if "still cannot be reached" in line]
    # 600 s of outage (31 tries of 20 s): the first line, then one a minute (at 60, 120, ... 600 s)
    assert len(still) == 10, lines
    assert lines[-1] == "the database answers again after 620 s"
    lease.release()


async def test_both_processes_wait_through_a_database_restart_and_one_serves_again(
    tmp_path, postgres_cluster
) -> None:
    pair = Pair(tmp_path, postgres_cluster.database())
    session = aiohttp.ClientSession()
    person = Person("erin", "#w")
    try:
        first = pair.start(pair.ports[0])
        await first.said("serving the web chat")
        second = pair.start(pair.ports[1])
        await second.said("standby")
        await person.connect(session, pair.ports[0])
        await person.say("/new jaipur")
        await wait_until(lambda: person.got("bot"), what="the table")
        restarting = asyncio.create_task(asyncio.to_thread(postgres_cluster.restart))
        await person.say("/join")  # a line whose commit meets the database going away
        await person.say("/status")
        await restarting

        async def one_serves() -> bool:
            answers = sorted([await healthz(session, port) or 0 for port in pair.ports])
            return answers == [200, 503]

        await wait_until(
            one_serves, 60, lambda: f"one process to serve: {first.lines[-4:]} {second.lines[-4:]}"
        )
        assert first.proc.poll() is None and second.proc.poll() is None, "neither process ended"
        assert await first.said("stopped serving: the database cannot be reached")
        for process in (first, second):
            assert _problems(process) == [], process.lines
            waiting = [line for line in process.lines if "the database cannot be reached" in line]
            assert 1 <= len(waiting) <= 3, process.lines
    finally:
        await person.close()
        await session.close()
        pair.close()


async def test_a_process_started_while_the_database_is_down_waits_for_it_and_serves_once_it_is_back(
    tmp_path, postgres_cluster
) -> None:
    url = postgres_cluster.database()
    postgres_cluster.down()
    pair = Pair(tmp_path, url)
    session = aiohttp.ClientSession()
    person = Person("erin", "#w")
    try:
        process = pair.start(pair.ports[0])
        await process.said("the database cannot be reached")
        await wait_until(lambda: healthz(session, pair.ports[0]), what="the waiting process's web answer")
        assert await healthz(session, pair.ports[0]) == 503, "it answers 503 while it waits"
        assert process.proc.poll() is None, f"it did not give up: {process.lines}"
        await asyncio.to_thread(postgres_cluster.up)
        await process.said("serving the web chat")
        await person.connect(session, pair.ports[0])
        await person.say("/new jaipur")
        await wait_until(lambda: person.got("view"), what="the table, from the process that waited")
        assert _problems(process) == [], process.lines
        waiting = [line for line in process.lines if "the database cannot be reached" in line]
        assert len(waiting) == 1, process.lines
        assert not any("cannot reach the store" in line for line in process.lines), process.lines
    finally:
        await person.close()
        await session.close()
        pair.close()
        with contextlib.suppress(subprocess.CalledProcessError):  # the fixture's teardown stops it
            postgres_cluster.up()
