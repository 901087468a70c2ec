"""A sharded Discord bot over processes: each shard is leased like a network, so processes split
its shards, and a standby of a range takes it over when the process serving it dies."""

from __future__ import annotations

from support.waits import wait_until_sync

from bazaarbot.config import parse_config
from bazaarbot.store import open_store
from bazaarbot.store.postgres.lease import Lease


def _served(shards: str) -> frozenset[str]:
    """What ``bazaarbot run`` leases for a config of the Discord bot ``big`` with ``shards`` of 8."""
    config = parse_config(
        {
            "web": {"enabled": False},
            "discord": {"bots": [{"name": "big", "token": "t", "shards": shards, "shard_count": 8}]},
        }
    )
    return config.served_networks()


def test_two_processes_split_a_bots_shards_and_a_standby_takes_a_dead_ones(postgres_cluster):
    url = postgres_cluster.database()
    low, high = _served("0-3"), _served("4-7")
    assert low == {"big/0", "big/1", "big/2", "big/3"} and not low & high
    first, second = Lease(url, low, seconds=30), Lease(url, high, seconds=30)
    assert first.try_acquire() and second.try_acquire(), "two ranges of one bot are served at once"
    everything, standby = Lease(url, _served("0-7"), seconds=30), Lease(url, low, seconds=30)
    assert not everything.try_acquire(), "a process of every shard waits while others serve some"
    assert not standby.try_acquire()
    assert set(standby.holders().values()) == {first.owner}
    first.conn.close()  # the process of shards 0-3 dies: the server ends its session and locks
    wait_until_sync(standby.try_acquire, 2, "the standby need not wait for the 30 s deadline")
    assert second.renew(), "the other process keeps its shards"
    assert standby.holders() == dict.fromkeys(low, standby.owner)
    for lease in (second, standby, everything):
        lease.release()


def test_each_process_restores_only_the_tables_of_its_shards(postgres_cluster):
    url = postgres_cluster.database()
    writer = open_store(url)
    for network, channel in [("big/1", "#100"), ("big/5", "#500"), ("big/6", "#600")]:
        writer.ensure_table(network, channel, "count")
    writer.close()
    low, high = open_store(url, _served("0-3")), open_store(url, _served("4-7"))
    assert [(t.network, t.channel) for t in low.load_tables()] == [("big/1", "#100")]
    assert sorted((t.network, t.channel) for t in high.load_tables()) == [
        ("big/5", "#500"),
        ("big/6", "#600"),
    ]
    low.close()
    high.close()
