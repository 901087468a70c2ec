"""The event loop never waits on a PostgreSQL store: what the running bot reads goes to its own thread.

The reading session here goes through a gate the test can shut, as a stalled
server or a slow network would; the move log's writer goes straight to the
server. With the gate shut, a table's moves are still answered at once while
another table's ``/stats`` and ``/history``, a finished game's ratings and
``/review`` wait for the store; a new game starts and its table is drawn for the web page all
the same. An IRC invite is joined and a kick acted on at once, and the web
rooms' lines are saved at shutdown, while the store is slow; their writes
follow once it answers. Once the store answers again, so do the reads. And
nothing the running bot does sends a statement from the event loop's thread.
"""

from __future__ import annotations

import asyncio
import threading

from support.botdriver import NETWORK, Driver, Recorder
from support.ircserver import RawClient, network_settings, start_bot
from support.tcpgate import TcpGate
from support.waits import wait_until

from bazaarbot.config import WebSettings
from bazaarbot.hub.hub import Hub
from bazaarbot.messages import Incoming, Say, Tell, User
from bazaarbot.store.postgres.connection import PgConnection, PgDatabase
from bazaarbot.store.postgres.store import PostgresStore
from bazaarbot.transports.irc.invited import InvitedChannels
from bazaarbot.transports.web import WebTransport


def gated_hub(postgres_cluster, monkeypatch) -> tuple[Hub, TcpGate]:
    """A hub on a fresh PostgreSQL store whose reading session goes through a gate the test can shut."""
    url = postgres_cluster.database()
    gate = TcpGate(postgres_cluster.port)
    through_gate = url.replace(f":{postgres_cluster.port}/", f":{gate.port}/")
    monkeypatch.setattr(PostgresStore, "_open_reader", lambda self: PgDatabase(PgConnection(through_gate)))
    return Driver(url).hub, gate  # type: ignore[arg-type]


async def test_moves_are_answered_while_the_store_is_slow_to_read_and_the_loop_sends_it_nothing(
    postgres_cluster, monkeypatch
) -> None:
    hub, gate = gated_hub(postgres_cluster, monkeypatch)
    seen = Recorder()
    await seen.start(hub)
    store = hub.store

    async def say(nick: str, channel: str, text: str) -> None:
        await hub.handle(Incoming(NETWORK, channel, User(nick), text))

    def answers(channel: str, since: int) -> list[str]:
        return [m.text for m in seen.sent[since:] if isinstance(m, Say) and m.channel == channel]

    def tells(nick: str, since: int) -> list[str]:
        return [m.text for m in seen.sent[since:] if isinstance(m, Tell) and m.nick == nick]

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
        finished = hub.tables[(NETWORK, "#b")].game_id
        while hub.tables[(NETWORK, "#b")].running:
            assert hub.table_view(NETWORK, "#b", "n:alice") is not None  # the web page's view, its log
            await asyncio.wait_for(say(to_move("#b"), "#b", "add 1"), 10)
        assert hub.table_view(NETWORK, "#b", None) is not None  # the finished game stays on the board
        await asyncio.wait_for(say("carol", "#b", "/review"), 10)  # the speaker's last game: a read
        await asyncio.wait_for(say("dave", "#b", f"/review {finished}"), 10)  # the game's record: a read
        assert gate.is_shut, "the moves were answered while the store answered no reads"
        assert any(line.startswith("Game over:") for line in answers("#b", before))
        assert not answers("#a", before), "the reads wait for the store, the loop does not"
        assert not tells("carol", before) and not tells("dave", before)
        waiting = len(seen.sent)
        gate.open()
        await asyncio.wait_for(hub.idle(), 10)
        late = [m.text for m in seen.sent[waiting:]]
        assert any(text.startswith("alice has") for text in answers("#a", waiting)), late  # /stats
        assert any("bob won" in text for text in answers("#a", waiting)), late  # /history
        assert any(text.startswith("Ratings (Count)") for text in answers("#b", waiting)), late
        assert tells("carol", waiting) == ["You have no finished game to review yet."], late
        assert tells("dave", waiting) == [
            f"You did not play in game {finished}; a review is for its players."
        ], late
        for _ in range(3):
            await say(to_move("#a"), "#a", "add 1")
        top = len(seen.sent)
        await say("alice", "#a", "/top")
        # its answer is read after the line, off the loop: awaited here, so no read of this store is
        # still under way once the test closes it
        await asyncio.wait_for(hub.idle(), 10)
        assert answers("#a", top) == ["Nobody is ranked at Count yet (it takes 3 rated games)."]
        assert store.db.conn.loop_calls + store.writer.conn.loop_calls == sent_on_loop
    finally:
        reopen.cancel()
        gate.close()
        store.close()


async def test_an_irc_invite_and_kick_are_acted_on_while_the_store_is_slow_and_kept_once_it_answers(
    postgres_cluster, monkeypatch, ircserver, closing
) -> None:
    hub, gate = gated_hub(postgres_cluster, monkeypatch)
    store = hub.store
    bot = await start_bot(hub, network_settings(ircserver, channels=("#bazaar",), accept_invites=True))
    alice = await RawClient("alice", ircserver.port).connect(("#bazaar", "#basar", "#souk"))
    closing.append(alice)
    sent_on_loop = store.db.conn.loop_calls + store.writer.conn.loop_calls
    gate.shut()
    reopen = threading.Timer(30, gate.open)  # never a hung test, whatever the bot does
    reopen.start()
    try:
        alice.send("INVITE bazaarbot #basar")
        await alice.expect("PRIVMSG #basar :Hello!")
        alice.send("INVITE bazaarbot #souk")
        await alice.expect("PRIVMSG #souk :Hello!")
        alice.send("KICK #souk bazaarbot :not here")
        await wait_until(lambda: bot.invited is not None and bot.invited.channels() == ["#basar"], 10)
        alice.send("PRIVMSG #bazaar :!new count")  # another table is answered all the same
        await alice.expect("PRIVMSG #bazaar :")
        assert gate.is_shut, "the invites and the kick were acted on while the store answered nothing"
        gate.open()
        await wait_until(lambda: not bot._keeping, 10, "the invites and the kick written")
        assert await hub.records(lambda: InvitedChannels(store.db.conn, bot.network).channels()) == ["#basar"]
        assert store.db.conn.loop_calls + store.writer.conn.loop_calls == sent_on_loop
    finally:
        reopen.cancel()
        await bot.stop()
        await hub.close()
        gate.close()


async def test_the_web_rooms_lines_are_saved_at_shutdown_while_other_tables_are_answered(
    postgres_cluster, monkeypatch
) -> None:
    hub, gate = gated_hub(postgres_cluster, monkeypatch)
    store = hub.store
    seen = Recorder()
    await seen.start(hub)
    web = WebTransport(WebSettings(host="127.0.0.1", port=0))
    hub.attach(web)
    await web.start(hub)
    assert web.history is not None
    web.history.add("#web", {"kind": "say", "text": "hello"})
    await hub.handle(Incoming(NETWORK, "#a", User("alice"), "/new count target=6"))
    await hub.handle(Incoming(NETWORK, "#a", User("bob"), "/join"))
    sent_on_loop = store.db.conn.loop_calls + store.writer.conn.loop_calls
    gate.shut()
    reopen = threading.Timer(30, gate.open)  # never a hung test, whatever the bot does
    reopen.start()
    try:
        stopping = asyncio.create_task(web.stop())
        before = len(seen.sent)
        await asyncio.wait_for(hub.handle(Incoming(NETWORK, "#a", User("alice"), "/start")), 10)
        assert any(isinstance(m, Say) and m.channel == "#a" for m in seen.sent[before:])
        assert not stopping.done(), "the lines wait for the store, the loop does not"
        gate.open()
        await asyncio.wait_for(stopping, 10)
        stored = await hub.records(lambda: store.db.conn.execute("SELECT room FROM web_history").fetchall())
        assert [row[0] for row in stored] == ["#web"]
        assert store.db.conn.loop_calls + store.writer.conn.loop_calls == sent_on_loop
    finally:
        reopen.cancel()
        gate.close()
        store.close()


class Drawing(Recorder):
    """A transport that draws tables as views: it keeps which channels it was told to draw again."""

    def __init__(self) -> None:
        super().__init__()
        self.redrawn: list[str] = []

    def views_changed(self, channel: str) -> None:
        self.redrawn.append(channel)


async def test_a_game_log_after_a_restart_is_read_off_the_loop_and_its_table_drawn_again(
    postgres_cluster, monkeypatch
) -> None:
    hub, gate = gated_hub(postgres_cluster, monkeypatch)
    url = hub.store.path
    for channel in ("#a", "#b"):
        for nick, text in (("alice", "/new count target=20"), ("bob", "/join"), ("alice", "/start")):
            await hub.handle(Incoming(NETWORK, channel, User(nick), text))
    table = hub.tables[(NETWORK, "#a")]
    for _ in range(2):
        await hub.handle(Incoming(NETWORK, "#a", User(table.players[table.state.turn].nick), "add 1"))
    await hub.close()
    restarted = Driver(url).hub  # type: ignore[arg-type]
    drawing = Drawing()
    await drawing.start(restarted)
    store = restarted.store
    sent_on_loop = store.db.conn.loop_calls + store.writer.conn.loop_calls
    gate.shut()
    reopen = threading.Timer(30, gate.open)  # never a hung test, whatever the bot does
    reopen.start()
    try:
        view = restarted.table_view(NETWORK, "#a", None)
        assert view is not None and view["log"] == [], "the table is drawn at once, its log follows"
        other = restarted.tables[(NETWORK, "#b")]
        before = len(drawing.sent)
        to_move = other.players[other.state.turn].nick
        await asyncio.wait_for(restarted.handle(Incoming(NETWORK, "#b", User(to_move), "add 1")), 10)
        assert any(isinstance(m, Say) and m.channel == "#b" for m in drawing.sent[before:])
        assert not drawing.redrawn
        gate.open()
        await asyncio.wait_for(restarted.idle(), 10)
        assert drawing.redrawn == ["#a"]
        view = restarted.table_view(NETWORK, "#a", None)
        assert view is not None and [entry["n"] for entry in view["log"]] == [0, 1]
        assert store.db.conn.loop_calls + store.writer.conn.loop_calls == sent_on_loop
    finally:
        reopen.cancel()
        gate.close()
        store.close()
