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
from support.frozen import LEASE, Pair, Watch, ended, freeze, lease_owner, wake

pytestmark = pytest.mark.xdist_group("partition")


async def test_a_restarted_process_waits_as_standby_while_the_process_that_took_over_lives(
    tmp_path, postgres_cluster
) -> None:
    pair = Pair(tmp_path, postgres_cluster.database())
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
        await watch.readings_after(checked_from + 3 * LEASE)
        after = [(a, b) for at, a, b in watch.readings if at > checked_from]
        assert after and all(a == 503 and b == 200 for a, b in after), f"newcomer, server: {after}"
        assert second.proc.poll() is None, f"the process that took over still serves: {second.lines[-5:]}"
        assert not [line for line in second.lines if "lost the lease" in line]
        assert f":{second.proc.pid}:" in (lease_owner(pair.store) or ""), "the lease row is still its"
        assert not [at for at in watch.both_served if at > woken], "never two processes answer 200"
    finally:
        await watch.stop()
        await session.close()
        pair.close()
    assert took_over < 5 * LEASE, f"the standby took over {took_over:.1f} s after the freeze"
