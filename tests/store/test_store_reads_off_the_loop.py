"""The event loop never waits on a PostgreSQL store: what the running bot reads goes to its own thread.

The reading session here goes through a gate the test can shut, as a stalled
server or a slow network would; the move log's writer goes straight to the
server. With the gate shut, a table's moves are still answered at once while
another table's ``/stats`` and ``/history`` and a finished game's ratings wait
for the store; a new game starts and its table is drawn for the web page all
the same. Once the store answers again, so do the reads. And nothing the running bot
does sends a statement from the event loop's thread.
"""

from __future__ import annotations

import asyncio
import threading

from support.botdriver import NETWORK, Driver, Recorder
from support.tcpgate import TcpGate

from bazaarbot.messages import Incoming, Say, User
from bazaarbot.store.postgres.connection import PgConnection, PgDatabase
from bazaarbot.store.postgres.store import PostgresStore


async def test_moves_are_answered_while_the_store_is_slow_to_read_and_the_loop_sends_it_nothing(
    postgres_cluster, monkeypatch
) -> None:
    url = postgres_cluster.database()
    gate = TcpGate(postgres_cluster.port)
    through_gate = url.replace(f":{postgres_cluster.port}/", f":{gate.port}/")
    monkeypatch.setattr(PostgresStore, "_open_reader", lambda self: PgDatabase(PgConnection(through_gate)))
    hub = Driver(url).hub  # type: ignore[arg-type]
    seen = Recorder()
    await seen.start(hub)
    store = hub.store

    async def say(nick: str, channel: str, text: str) -> None:
        await hub.handle(Incoming(NETWORK, channel, User(nick), text))

    def answers(channel: str, since: int) -> list[str]:
        return [m.text for m in seen.sent[since:] if isinstance(m, Say) and m.channel == channel]

    def to_move(channel: str) -> str:
        table = hub.tables[(NETWORK, channel)]
        return table.players[table.state.turn].nick

    reopen = threading.Timer(30, gate.open)  # never a hung test, whatever the bot does
    try:
        for channel in ("#a", "#b"):
            await say("alice", channel, "/new count target=6")
            await say("bob", channel, "/join")
        await say("alice", "#a", "/start")
        sent_on_loop = store.db.conn.loop_calls + store.writer.conn.loop_calls
        gate.shut()
        reopen.start()
        before = len(seen.sent)
        await asyncio.wait_for(say("alice", "#a", "/stats"), 10)
        await asyncio.wait_for(say("bob", "#a", "/history"), 10)
        await asyncio.wait_for(say("alice", "#b", "/start"), 10)  # a new game and its id: no read
        while hub.tables[(NETWORK, "#b")].running:
            assert hub.table_view(NETWORK, "#b", "n:alice") is not None  # the web page's view, its log
            await asyncio.wait_for(say(to_move("#b"), "#b", "add 1"), 10)
        assert hub.table_view(NETWORK, "#b", None) is not None  # the finished game stays on the board
        assert gate.is_shut, "the moves were answered while the store answered no reads"
        assert any(line.startswith("Game over:") for line in answers("#b", before))
        assert not answers("#a", before), "the reads wait for the store, the loop does not"
        waiting = len(seen.sent)
        gate.open()
        await asyncio.wait_for(hub.idle(), 10)
        late = [m.text for m in seen.sent[waiting:]]
        assert any(text.startswith("alice has") for text in answers("#a", waiting)), late  # /stats
        assert any("bob won" in text for text in answers("#a", waiting)), late  # /history
        assert any(text.startswith("Ratings (Count)") for text in answers("#b", waiting)), late
        for _ in range(3):
            await say(to_move("#a"), "#a", "add 1")
        await say("alice", "#a", "/top")
        assert store.db.conn.loop_calls + store.writer.conn.loop_calls == sent_on_loop
    finally:
        reopen.cancel()
        gate.close()
        store.close()
