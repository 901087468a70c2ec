"""Failover that holds through a partition: never two serving processes, never a word after the lease.

A serving process frozen (SIGSTOP) past its lease is what a partition looks like
from inside: its database session, its sockets and the lines people sent it stay,
while the standby takes the networks over. Woken (SIGCONT), it must say nothing
more and stop; started again, it must wait on standby for as long as the process
that took over lives and renews.
"""

from __future__ import annotations

import time

import aiohttp
import pytest
from support.frozen import (
    LEASE,
    Pair,
    Person,
    Watch,
    ended,
    freeze,
    healthz,
    lease_owner,
    stay_frozen,
    wake,
)
from support.ircserver import IrcServer, RawClient, irc_network_config
from support.waits import wait_until

pytestmark = pytest.mark.xdist_group("partition")

#: the lease where a process must keep serving for a while: a loaded machine may starve a 2-second
#: lease's renewals, and the process that took over would then rightly stop
STEADY_LEASE = 3 * LEASE


async def test_a_restarted_process_waits_as_standby_while_the_process_that_took_over_lives(
    tmp_path, postgres_cluster
) -> None:
    pair = Pair(tmp_path, postgres_cluster.database(), lease=STEADY_LEASE)
    first_port, second_port = pair.ports
    session = aiohttp.ClientSession()
    watch = Watch(session, pair.ports)
    try:
        first = pair.start(first_port)
        await first.said("serving the web chat")
        second = pair.start(second_port)
        await second.said("standby")
        watch.start()
        frozen = freeze(first)
        await second.said("serving the web chat")
        took_over = time.monotonic() - frozen
        woken = wake(first)
        assert await ended(first) == 75, "a process woken past its lease exits 75, as documented"
        restarted = pair.start(first_port)
        standby = await restarted.said("standby")
        assert f":{second.proc.pid}:" in standby, f"the newcomer names the process serving: {standby}"
        # three leases' worth of renewals by the process that took over, the newcomer waiting all along
        checked_from = time.monotonic()
        await watch.readings_after(checked_from + 3 * STEADY_LEASE)
        after = [(a, b) for at, a, b in watch.readings if at > checked_from]
        # (a reading a loaded machine did not answer in time is None: no answer is not a second server)
        assert after and all(a != 200 for a, _b in after), f"the newcomer never served: {after}"
        assert any(a == 503 for a, _b in after), f"the newcomer answered as a standby: {after}"
        assert all(b != 503 for _a, b in after) and any(b == 200 for _a, b in after), f"server: {after}"
        assert second.proc.poll() is None, f"the process that took over still serves: {second.lines[-5:]}"
        assert not [line for line in second.lines if "lost the lease" in line]
        assert f":{second.proc.pid}:" in (lease_owner(pair.store) or ""), "the lease row is still its"
        assert not [at for at in watch.both_served if at > woken], "never two processes answer 200"
    finally:
        await watch.stop()
        await session.close()
        pair.close()
    print(f"the standby served {took_over:.2f} s after the freeze")
    assert took_over < 5 * STEADY_LEASE, f"the standby took over {took_over:.1f} s after the freeze"


async def test_a_process_woken_past_its_lease_answers_nothing_it_was_asked(
    tmp_path, postgres_cluster, ircserver: IrcServer
) -> None:
    # paced: an answer of two lines leaves one, and the other waits in the queue a second
    irc = irc_network_config(ircserver.port, ["#j"], burst=1, lines_per_second=1.0)
    pair = Pair(tmp_path, postgres_cluster.database(), extra=irc)
    first_port, second_port = pair.ports
    session = aiohttp.ClientSession()
    player = await RawClient("alice", ircserver.port).connect(("#j",))
    person = Person("erin", "#w")
    try:
        first = pair.start(first_port)
        await first.said("serving the web chat")
        await player.expect(lambda line: line.startswith(":bazaarbot!") and " JOIN " in line, timeout=30)
        await person.connect(session, first_port)
        second = pair.start(second_port)
        await second.said("standby")
        player.since()
        player.say("#j", "!games")
        player.say("#j", "!help")  # its answer waits in the paced queue behind the first
        await player.expect(lambda line: line.startswith(":bazaarbot!") and " PRIVMSG " in line, timeout=30)
        frozen = freeze(first)  # with the second answer queued
        heard = len(player.lines)
        player.say("#j", "!top")  # read by the frozen process's socket, handled when it wakes
        await person.say("/status")
        await person.send({"t": "join", "room": "#other", "history": False})
        await second.said("serving the web chat")
        await stay_frozen(frozen, 3 * LEASE)
        wake(first)
        assert await ended(first) == 75
        await wait_until(lambda: person.closed, what="the woken process's websocket to close")
        # the woken process's connection ends (the server tells the channel); all it sent came before
        await player.expect(lambda line: line.startswith(":bazaarbot!") and " QUIT " in line, timeout=30)
        quit_at = max(
            i for i, line in enumerate(player.lines) if line.startswith(":bazaarbot!") and " QUIT " in line
        )
        spoke = [
            line
            for line in player.lines[heard:quit_at]
            if line.startswith(":bazaarbot!") and (" PRIVMSG " in line or " NOTICE " in line)
        ]
        assert spoke == [], f"the woken process spoke in the channel: {spoke}"
        assert person.since(frozen) == [], f"the woken process answered the websocket: {person.since(frozen)}"
        assert await healthz(session, second_port) == 200
    finally:
        await person.close()
        await player.close()
        await session.close()
        pair.close()


async def test_a_partitioned_process_never_serves_beside_the_one_that_took_over(
    tmp_path, postgres_cluster
) -> None:
    pair = Pair(tmp_path, postgres_cluster.database())
    first_port, second_port = pair.ports
    session = aiohttp.ClientSession()
    watch = Watch(session, pair.ports)
    person = Person("erin", "#w")
    try:
        first = pair.start(first_port)
        await first.said("serving the web chat")
        second = pair.start(second_port)
        await second.said("standby")
        watch.start()
        await watch.readings_after(time.monotonic())
        assert watch.readings[-1][1:] == (200, 503), "A serves, B waits"
        await person.connect(session, first_port)
        frozen = freeze(first)
        await person.say("/status")  # waits, unread, on the frozen process's websocket
        await second.said("serving the web chat")
        await stay_frozen(frozen, 6.0)
        woken = wake(first)
        assert await ended(first) == 75, "the woken process stops serving"
        await wait_until(lambda: person.closed, what="the woken process's websocket to close")
        assert person.since(frozen) == [], f"the woken process answered: {person.since(frozen)}"
        restarted = pair.start(first_port)
        await restarted.said("standby")
        checked_from = time.monotonic()
        await watch.readings_after(checked_from + 12.0)
        after = [(a, b) for at, a, b in watch.readings if at > checked_from]
        # (a reading a loaded machine did not answer in time is None: no answer is not a second server)
        assert after and all(a != 200 for a, _b in after), f"the newcomer never served: {after}"
        assert any(a == 503 for a, _b in after), f"the newcomer answered as a standby: {after}"
        assert all(b != 503 for _a, b in after) and any(b == 200 for _a, b in after), f"server: {after}"
        assert second.proc.poll() is None and restarted.proc.poll() is None
        assert watch.both_served == [], "the two never both answer 200"
        assert [a for at, a, _b in watch.readings if woken < at < checked_from] and all(
            a != 200 for at, a, _b in watch.readings if at > woken
        ), "after waking, the first process answers nothing with 200"
    finally:
        await person.close()
        await watch.stop()
        await session.close()
        pair.close()
