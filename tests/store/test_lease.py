"""The lease that lets one process at a time serve a network of a PostgreSQL store."""

from __future__ import annotations

import sqlite3
import threading

import psycopg
import pytest
from support.waits import wait_until_sync

from bazaarbot.store import open_store
from bazaarbot.store.postgres.connection import PgConnection
from bazaarbot.store.postgres.lease import Lease, LeaseKeeper, LeaseLost
from bazaarbot.transports.irc.invited import InvitedChannels
from bazaarbot.transports.web.claims import ClaimError, Claims
from bazaarbot.transports.web.history import History

NETWORKS = frozenset({"libera", "web"})


def _fenced(lease: Lease, url: str) -> None:
    """Run the lease's commit check in a transaction of another session, as the writer does."""
    conn = PgConnection(url)
    try:
        conn.execute("BEGIN")
        lease.fence(conn)
    finally:
        conn.execute("ROLLBACK")
        conn.close()


def test_a_second_process_waits_while_the_first_serves(postgres_cluster):
    url = postgres_cluster.database()
    first, second = Lease(url, NETWORKS), Lease(url, NETWORKS)
    assert first.try_acquire() and not second.try_acquire()
    assert set(second.holders().values()) == {first.owner}
    _fenced(first, url)
    with pytest.raises(LeaseLost):
        _fenced(second, url)
    first.release()
    second.release()


def test_a_killed_process_hands_its_networks_over_at_once(postgres_cluster):
    url = postgres_cluster.database()
    first, second = Lease(url, NETWORKS, seconds=30), Lease(url, NETWORKS, seconds=30)
    assert first.try_acquire()
    first.conn.close()  # the process is gone: the server ends its session and its locks
    # the server takes a moment to end the session; no need to wait for the 30 s deadline
    wait_until_sync(second.try_acquire, 2, "the server to end the first session, not the 30 s deadline")
    with pytest.raises(sqlite3.OperationalError):
        _fenced(first, url)
    second.release()


def test_a_process_cut_off_from_the_database_is_replaced_once_its_deadline_passed(postgres_cluster):
    url = postgres_cluster.database()
    first, second = Lease(url, NETWORKS, seconds=0.5), Lease(url, NETWORKS, seconds=0.5)
    assert first.try_acquire()  # and then no renewal: its session (and locks) stay, its deadline passes
    assert wait_until_sync(second.try_acquire, 5, "the first's deadline to pass")
    with pytest.raises(LeaseLost):
        _fenced(first, url)
    assert not first.renew()
    first.release()
    second.release()


def test_a_newcomer_waits_while_the_process_that_took_over_from_a_frozen_one_lives(postgres_cluster):
    url = postgres_cluster.database()
    frozen, taker = Lease(url, NETWORKS, seconds=0.5), Lease(url, NETWORKS, seconds=30)
    assert frozen.try_acquire()  # then frozen: no renewal, its session (and sign of life) stay
    assert wait_until_sync(taker.try_acquire, 5, "the frozen one's deadline to pass")
    frozen.conn.close()  # it woke, lost its lease and ended: its session's lock goes
    newcomer = Lease(url, NETWORKS, seconds=30)
    assert not newcomer.try_acquire(), "the process that took over is alive by its own lock"
    assert set(newcomer.holders().values()) == {taker.owner}
    assert taker.renew()
    taker.conn.close()  # and when that one dies, the newcomer takes over at once
    assert wait_until_sync(newcomer.try_acquire, 2, "the server to end the taker's session")
    newcomer.release()


def test_a_process_that_cannot_renew_stops_before_its_lease_runs_out(postgres_cluster):
    url = postgres_cluster.database()
    now = [0.0]
    lease = Lease(url, NETWORKS, seconds=2.0, clock=lambda: now[0])
    assert lease.try_acquire()
    now[0] = 2.0  # by its own clock the lease ran out (no renewal came back)
    with pytest.raises(LeaseLost):
        _fenced(lease, url)
    lease.release()


def test_networks_partly_held_elsewhere_are_not_served_at_all(postgres_cluster):
    url = postgres_cluster.database()
    web = Lease(url, frozenset({"web"}))
    both = Lease(url, NETWORKS)
    assert web.try_acquire() and not both.try_acquire()
    other = Lease(url, frozenset({"libera"}))
    assert other.try_acquire(), "a process of other networks serves beside it"
    for lease in (web, both, other):
        lease.release()


def _kept_lease(url: str) -> tuple[Lease, LeaseKeeper, list[str], threading.Event]:
    """A lease held on ``url`` and its keeper (not started): what it tells, and its hard stop."""
    lease = Lease(url, NETWORKS, seconds=0.5)
    assert lease.try_acquire()
    lost: list[str] = []
    stopped = threading.Event()
    return lease, LeaseKeeper(lease, on_lost=lost.append, hard_stop=stopped.set), lost, stopped


def test_a_lost_lease_is_told_and_the_process_is_stopped_at_its_deadline(postgres_cluster):
    url = postgres_cluster.database()
    lease, keeper, lost, stopped = _kept_lease(url)
    thief = Lease(url, NETWORKS, seconds=0.5)
    lease.conn.execute("SELECT pg_advisory_unlock_all()")  # as if its session had gone
    assert thief.try_acquire()
    keeper.start()
    assert stopped.wait(5), "the process is ended when its own lease runs out"
    assert lost == ["another process took the networks"]
    keeper.stop()
    thief.release()


def test_a_process_whose_store_connection_broke_gives_its_networks_up(postgres_cluster):
    url = postgres_cluster.database()
    _lease, keeper, lost, stopped = _kept_lease(url)
    keeper.healthy = lambda: False  # the writer's session is gone: moves could no longer be saved
    keeper.start()
    assert stopped.wait(5)
    assert lost == ["the store's connection broke"]
    keeper.stop()
    successor = Lease(url, NETWORKS, seconds=0.5)
    assert successor.try_acquire(), "a clean stop gives the networks back at once"
    successor.release()


def test_a_process_that_lost_its_lease_cannot_write_the_transports_small_tables(postgres_cluster):
    url = postgres_cluster.database()
    store = open_store(url)
    lease = Lease(url, NETWORKS, seconds=30)
    assert lease.try_acquire()
    store.fence_with(lease.fence)
    conn = store.db.conn
    claims, history, invited = Claims(conn, "bazaarbot"), History(conn, 10), InvitedChannels(conn, "libera")
    claims.claim(None, "alice")
    invited.add("#kept")()
    lease.conn.execute("SELECT pg_advisory_unlock_all()")  # as if its session had gone
    thief = Lease(url, NETWORKS, seconds=30)
    assert thief.try_acquire()
    with pytest.raises(ClaimError):
        claims.claim(None, "bob")
    history.add("#j", {"text": "hello"})
    with pytest.raises(LeaseLost):
        history.save()
    with pytest.raises(LeaseLost):
        invited.add("#lost")()
    with pytest.raises(sqlite3.OperationalError):  # written with the move log: its commit is refused
        store.seat_codes.issue("libera", "#j", "n:carol")
    with psycopg.connect(url) as check:
        assert [r[0] for r in check.execute("SELECT nick FROM web_sessions")] == ["alice"]
        assert check.execute("SELECT COUNT(*) FROM web_history").fetchone()[0] == 0
        assert [r[0] for r in check.execute("SELECT channel FROM irc_invited")] == ["#kept"]
    store.close()
    lease.release()
    thief.release()
