"""Group commit: many tables' moves in one commit, answers only after it, failures change nothing."""

from __future__ import annotations

import asyncio
import sqlite3
import threading

from support.botdriver import NETWORK, Driver, told

from bazaarbot.config import BotSettings, RateLimit, RatingSettings
from bazaarbot.messages import Incoming, Outgoing, Say, User
from bazaarbot.store.writer import StoreWriter


class DiskChecker:
    """A transport that, as each answer is sent, looks at the file through its own connection."""

    network = NETWORK

    def __init__(self, db) -> None:
        self.conn = sqlite3.connect(db)
        self.sent: list[Outgoing] = []
        #: channel -> (game id, move number) the next public answer there must find on disk
        self.expect: dict[str, tuple[int, int]] = {}
        self.missing: list[tuple[str, int, int]] = []

    async def start(self, hub) -> None:
        hub.attach(self)

    async def stop(self) -> None:
        self.conn.close()

    async def send(self, message: Outgoing) -> None:
        self.sent.append(message)
        if isinstance(message, Say) and message.channel in self.expect:
            game_id, n = self.expect[message.channel]
            row = self.conn.execute("SELECT 1 FROM moves WHERE game_id=? AND n=?", [game_id, n]).fetchone()
            if row is None:
                self.missing.append((message.channel, game_id, n))


async def say(bot: Driver, nick: str, text: str, channel: str | None) -> None:
    await bot.hub.handle(Incoming(NETWORK, channel, User(nick), text))


async def start_tables(bot: Driver, count: int) -> list[str]:
    channels = [f"#g{i}" for i in range(count)]
    for i, channel in enumerate(channels):
        await say(bot, f"a{i}", "/new count target=1000", channel)
        await say(bot, f"b{i}", "/join", channel)
        await say(bot, f"a{i}", "/start", channel)
    return channels


async def test_moves_of_many_tables_share_one_commit_and_are_on_disk_before_their_answer(tmp_path):
    bot = Driver(tmp_path / "g.sqlite")
    checker = DiskChecker(tmp_path / "g.sqlite")
    await checker.start(bot.hub)
    channels = await start_tables(bot, 12)
    writer = bot.hub.store.writer
    commits_before = writer.commits

    async def play(i: int, channel: str) -> None:
        for turn in range(6):
            table = bot.hub.tables[(NETWORK, channel)]
            checker.expect[channel] = (table.game_id, table.moves_made)
            await say(bot, f"a{i}" if turn % 2 == 0 else f"b{i}", "add 1", channel)

    await asyncio.gather(*(play(i, c) for i, c in enumerate(channels)))
    assert checker.missing == []
    moves = 12 * 6
    assert writer.commits - commits_before < moves, "lines arriving together share a commit"
    rows = checker.conn.execute("SELECT COUNT(*) FROM moves").fetchone()[0]
    assert rows == moves
    await checker.stop()


async def test_the_loop_keeps_answering_other_tables_while_a_commit_is_written(tmp_path, monkeypatch):
    bot = Driver(tmp_path / "g.sqlite")
    checker = DiskChecker(tmp_path / "g.sqlite")
    await checker.start(bot.hub)
    await start_tables(bot, 2)
    release = threading.Event()
    entered = threading.Event()
    original = StoreWriter._locked_write

    def slow_disk(self, batch):
        entered.set()
        release.wait(10)
        return original(self, batch)

    monkeypatch.setattr(StoreWriter, "_locked_write", slow_disk)
    move = asyncio.create_task(say(bot, "a0", "add 1", "#g0"))
    while not entered.is_set():
        await asyncio.sleep(0.001)
    # the move of #g0 is being flushed; #g1's player still gets an answer at once
    checker.sent.clear()
    await say(bot, "a1", "/moves all", None)
    assert told(checker.sent, "a1") == ["add 1\nadd 2\nadd 3"]
    assert not move.done(), "the move's answer waits for its commit"
    release.set()
    await move
    assert any(isinstance(m, Say) and "adds 1" in m.text for m in checker.sent)
    await checker.stop()


async def test_a_look_at_a_table_with_a_move_in_flight_waits_for_that_move(tmp_path, monkeypatch):
    bot = Driver(tmp_path / "g.sqlite")
    checker = DiskChecker(tmp_path / "g.sqlite")
    await checker.start(bot.hub)
    await start_tables(bot, 1)
    release = threading.Event()
    original = StoreWriter._locked_write

    def slow_disk(self, batch):
        release.wait(10)
        return original(self, batch)

    monkeypatch.setattr(StoreWriter, "_locked_write", slow_disk)
    move = asyncio.create_task(say(bot, "a0", "add 2", "#g0"))
    await asyncio.sleep(0.01)
    look = asyncio.create_task(say(bot, "b0", "/moves all", None))
    await asyncio.sleep(0.01)
    assert not look.done(), "b0's moves depend on a0's move, which is not on disk yet"
    release.set()
    await asyncio.gather(move, look)
    assert told(checker.sent, "b0")[-1] == "add 1\nadd 2\nadd 3"
    await checker.stop()


def refuse_text(bot: Driver, text: str) -> None:
    """The disk refuses one particular move (as a full disk or a broken file would)."""
    assert "'" not in text
    bot.hub.store.db.conn.execute(
        f"CREATE TRIGGER refuse BEFORE INSERT ON moves WHEN NEW.text = '{text}' "
        "BEGIN SELECT RAISE(ABORT, 'refused'); END"
    )


def test_a_move_the_disk_refuses_answers_nothing_changed_and_memory_is_as_before(tmp_path):
    bot = Driver(tmp_path / "g.sqlite")
    bot.line("alice", "/new count target=50")
    bot.line("bob", "/join")
    bot.line("alice", "/start")
    bot.line("alice", "add 1")
    refuse_text(bot, "add 3")
    out = bot.line("bob", "add 3")
    assert told(out, "bob") == ["Sorry, that could not be saved; nothing changed. Try again."]
    assert not [m for m in out if isinstance(m, Say)]
    assert bot.table.state.total == 1 and bot.table.moves_made == 1
    assert bot.table.plugin.to_act(bot.table.state) == [1]
    out = bot.line("bob", "add 2")
    assert "total 3" in "\n".join(m.text for m in out)


async def test_a_refused_move_fails_only_its_table_and_the_lines_built_on_it(tmp_path, monkeypatch):
    bot = Driver(tmp_path / "g.sqlite")
    checker = DiskChecker(tmp_path / "g.sqlite")
    await checker.start(bot.hub)
    await start_tables(bot, 2)
    refuse_text(bot, "add 3")
    release = threading.Event()
    original = StoreWriter._locked_write

    def slow_disk(self, batch):
        release.wait(10)
        return original(self, batch)

    monkeypatch.setattr(StoreWriter, "_locked_write", slow_disk)
    first = asyncio.create_task(say(bot, "a0", "add 1", "#g0"))  # in flight while the rest queue
    await asyncio.sleep(0.01)
    bad = asyncio.create_task(say(bot, "b0", "add 3", "#g0"))
    await asyncio.sleep(0)
    built_on_it = asyncio.create_task(say(bot, "a0", "add 1", "#g0"))
    other = asyncio.create_task(say(bot, "a1", "add 2", "#g1"))
    await asyncio.sleep(0.01)
    release.set()
    await asyncio.gather(first, bad, built_on_it, other)
    sorry = "Sorry, that could not be saved; nothing changed. Try again."
    assert told(checker.sent, "b0")[-1] == sorry
    assert sorry in told(checker.sent, "a0")
    g0, g1 = bot.hub.tables[(NETWORK, "#g0")], bot.hub.tables[(NETWORK, "#g1")]
    assert g0.state.total == 1 and g0.moves_made == 1, "memory is what the disk holds"
    assert g1.state.total == 2, "the other table's move in the same batch is kept"
    logged = checker.conn.execute("SELECT text FROM moves ORDER BY id").fetchall()
    assert logged == [("add 1",), ("add 2",)]
    await checker.stop()


def test_a_new_table_whose_first_write_fails_starts_again_from_nothing(tmp_path):
    bot = Driver(tmp_path / "g.sqlite")
    conn = bot.hub.store.db.conn
    conn.execute(
        "CREATE TRIGGER no_tables BEFORE INSERT ON tables BEGIN SELECT RAISE(ABORT, 'disk full'); END"
    )
    out = bot.line("alice", "/join", channel="#new")
    assert told(out, "alice") == ["Sorry, that could not be saved; nothing changed. Try again."]
    table = bot.hub.tables[(NETWORK, "#new")]
    assert table.seats == [] and table.id is None
    assert bot.hub.seated_tables(NETWORK, "n:alice") == []
    conn.execute("DROP TRIGGER no_tables")
    assert "alice joins" in "\n".join(m.text for m in bot.line("alice", "/join", channel="#new"))
    bot = bot.restart()
    assert [s.nick for s in bot.hub.tables[(NETWORK, "#new")].seats] == ["alice"]


async def test_games_ending_together_are_each_rated_once_in_their_own_channel(tmp_path):
    settings = BotSettings(
        default_game="count",
        seed=7,
        rate_limit=RateLimit(commands=1000, per_seconds=1),
        ratings=RatingSettings(min_games=1),
    )
    bot = Driver(tmp_path / "g.sqlite", settings=settings)
    checker = DiskChecker(tmp_path / "g.sqlite")
    await checker.start(bot.hub)
    channels = [f"#r{i}" for i in range(4)]
    for i, channel in enumerate(channels):
        await say(bot, f"a{i}", "/new count target=3", channel)
        await say(bot, f"b{i}", "/join", channel)
        await say(bot, f"a{i}", "/start", channel)
        await say(bot, f"a{i}", "add 1", channel)
        await say(bot, f"b{i}", "add 1", channel)
    checker.sent.clear()
    await asyncio.gather(*(say(bot, f"a{i}", "add 1", c) for i, c in enumerate(channels)))
    for channel in channels:
        lines = [m.text for m in checker.sent if isinstance(m, Say) and m.channel == channel]
        assert any(t.startswith("Game over:") for t in lines), channel
        assert len([t for t in lines if t.startswith("Ratings")]) == 1, channel
    await checker.stop()
