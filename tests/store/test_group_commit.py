"""Group commit: many tables' moves in one commit, answers only after it, failures change nothing."""

from __future__ import annotations

import asyncio
import threading

from support.botdriver import NETWORK, Driver, told
from support.storetargets import read_rows
from support.waits import wait_until

from bazaarbot.config import BotSettings, RateLimit, RatingSettings
from bazaarbot.messages import Incoming, Outgoing, Say, User
from bazaarbot.store.postgres import is_postgres_url
from bazaarbot.store.writer import StoreWriter


class DiskChecker:
    """A transport that, as each answer is sent, looks at the file through its own connection."""

    network = NETWORK

    def __init__(self, db) -> None:
        self.db = str(db)
        self.sent: list[Outgoing] = []
        #: channel -> (game id, move number) the next public answer there must find on disk
        self.expect: dict[str, tuple[int, int]] = {}
        self.missing: list[tuple[str, int, int]] = []

    async def start(self, hub) -> None:
        hub.attach(self)

    async def stop(self) -> None:
        return None

    async def send(self, message: Outgoing) -> None:
        self.sent.append(message)
        if isinstance(message, Say) and message.channel in self.expect:
            game_id, n = self.expect[message.channel]
            if not read_rows(self.db, "SELECT 1 FROM moves WHERE game_id=? AND n=?", (game_id, n)):
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


async def checked_tables(store_target, count: int) -> tuple[Driver, DiskChecker, list[str]]:
    """A bot whose every answer is checked against the disk, with ``count`` count games started."""
    bot = Driver(store_target)
    checker = DiskChecker(store_target)
    await checker.start(bot.hub)
    return bot, checker, await start_tables(bot, count)


def slow_disk(monkeypatch) -> tuple[threading.Event, threading.Event]:
    """Each commit waits for the first event to be set; the second is set once one has begun."""
    release = threading.Event()
    entered = threading.Event()
    original = StoreWriter._locked_write

    def slow_write(self, batch):
        entered.set()
        release.wait(10)
        return original(self, batch)

    monkeypatch.setattr(StoreWriter, "_locked_write", slow_write)
    return release, entered


async def test_moves_of_many_tables_share_one_commit_and_are_on_disk_before_their_answer(store_target):
    bot, checker, channels = await checked_tables(store_target, 12)
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
    rows = read_rows(checker.db, "SELECT COUNT(*) FROM moves")[0][0]
    assert rows == moves
    await checker.stop()


async def test_the_loop_keeps_answering_other_tables_while_a_commit_is_written(store_target, monkeypatch):
    bot, checker, _channels = await checked_tables(store_target, 2)
    release, entered = slow_disk(monkeypatch)
    move = asyncio.create_task(say(bot, "a0", "add 1", "#g0"))
    await wait_until(entered.is_set, what="the move of #g0 to be flushed")
    # the move of #g0 is being flushed; #g1's player still gets an answer at once
    checker.sent.clear()
    await say(bot, "a1", "/moves all", None)
    assert told(checker.sent, "a1") == ["add 1\nadd 2\nadd 3"]
    assert not move.done(), "the move's answer waits for its commit"
    release.set()
    await move
    assert any(isinstance(m, Say) and "adds 1" in m.text for m in checker.sent)
    await checker.stop()


async def test_a_look_at_a_table_with_a_move_in_flight_waits_for_that_move(store_target, monkeypatch):
    bot, checker, _channels = await checked_tables(store_target, 1)
    release, entered = slow_disk(monkeypatch)
    move = asyncio.create_task(say(bot, "a0", "add 2", "#g0"))
    await wait_until(entered.is_set, what="a0's move to be flushed")
    look = asyncio.create_task(say(bot, "b0", "/moves all", None))
    writer = bot.hub.store.writer
    await wait_until(lambda: writer.queued, what="b0's look to queue behind the move")
    assert not look.done(), "b0's moves depend on a0's move, which is not on disk yet"
    release.set()
    await asyncio.gather(move, look)
    assert told(checker.sent, "b0")[-1] == "add 1\nadd 2\nadd 3"
    await checker.stop()


def refuse(bot: Driver, name: str, table: str, when: str = "") -> None:
    """The disk refuses inserts into ``table`` (those matching ``when``), as a full disk would."""
    conn = bot.hub.store.db.conn
    if is_postgres_url(bot.hub.store.path):
        test = f"IF {when} THEN " if when else "IF true THEN "
        conn.raw.execute(
            f"CREATE FUNCTION {name}() RETURNS trigger AS $$ BEGIN {test}RAISE EXCEPTION 'refused'; "
            "END IF; RETURN NEW; END $$ LANGUAGE plpgsql"
        )
        conn.raw.execute(
            f"CREATE TRIGGER {name} BEFORE INSERT ON {table} FOR EACH ROW EXECUTE FUNCTION {name}()"
        )
    else:
        condition = f"WHEN {when} " if when else ""
        conn.execute(
            f"CREATE TRIGGER {name} BEFORE INSERT ON {table} {condition}"
            "BEGIN SELECT RAISE(ABORT, 'refused'); END"
        )


def allow(bot: Driver, name: str, table: str) -> None:
    conn = bot.hub.store.db.conn
    if is_postgres_url(bot.hub.store.path):
        conn.raw.execute(f"DROP TRIGGER {name} ON {table}")
    else:
        conn.execute(f"DROP TRIGGER {name}")


def refuse_text(bot: Driver, text: str) -> None:
    """The disk refuses one particular move (as a full disk or a broken file would)."""
    assert "'" not in text
    refuse(bot, "refuse", "moves", f"NEW.text = '{text}'")


def test_a_move_the_disk_refuses_answers_nothing_changed_and_memory_is_as_before(store_target):
    bot = Driver(store_target)
    bot.script("alice: /new count target=50", "bob: /join", "alice: /start", "alice: add 1")
    refuse_text(bot, "add 3")
    out = bot.line("bob", "add 3")
    assert told(out, "bob") == ["Sorry, that could not be saved; nothing changed. Try again."]
    assert not [m for m in out if isinstance(m, Say)]
    assert bot.table.state.total == 1 and bot.table.moves_made == 1
    assert bot.table.plugin.to_act(bot.table.state) == [1]
    out = bot.line("bob", "add 2")
    assert "total 3" in "\n".join(m.text for m in out)


async def test_a_refused_move_fails_only_its_table_and_the_lines_built_on_it(store_target, monkeypatch):
    bot, checker, _channels = await checked_tables(store_target, 2)
    refuse_text(bot, "add 3")
    release, entered = slow_disk(monkeypatch)
    writer = bot.hub.store.writer
    first = asyncio.create_task(say(bot, "a0", "add 1", "#g0"))  # in flight while the rest queue
    await wait_until(entered.is_set, what="the first move to be flushed")
    bad = asyncio.create_task(say(bot, "b0", "add 3", "#g0"))
    await wait_until(lambda: len(writer.queued) == 1, what="the refused move to queue")
    built_on_it = asyncio.create_task(say(bot, "a0", "add 1", "#g0"))
    other = asyncio.create_task(say(bot, "a1", "add 2", "#g1"))
    await wait_until(lambda: len(writer.queued) == 3, what="the lines after it to queue")
    release.set()
    await asyncio.gather(first, bad, built_on_it, other)
    sorry = "Sorry, that could not be saved; nothing changed. Try again."
    assert told(checker.sent, "b0")[-1] == sorry
    assert sorry in told(checker.sent, "a0")
    g0, g1 = bot.hub.tables[(NETWORK, "#g0")], bot.hub.tables[(NETWORK, "#g1")]
    assert g0.state.total == 1 and g0.moves_made == 1, "memory is what the disk holds"
    assert g1.state.total == 2, "the other table's move in the same batch is kept"
    logged = read_rows(checker.db, "SELECT text FROM moves ORDER BY id")
    assert logged == [("add 1",), ("add 2",)]
    await checker.stop()


def test_a_new_table_whose_first_write_fails_starts_again_from_nothing(store_target):
    bot = Driver(store_target)
    refuse(bot, "no_tables", "tables")
    out = bot.line("alice", "/join", channel="#new")
    assert told(out, "alice") == ["Sorry, that could not be saved; nothing changed. Try again."]
    table = bot.hub.tables[(NETWORK, "#new")]
    assert table.seats == [] and table.id is None
    assert bot.hub.seated_tables(NETWORK, "n:alice") == []
    allow(bot, "no_tables", "tables")
    assert "alice joins" in "\n".join(m.text for m in bot.line("alice", "/join", channel="#new"))
    bot = bot.restart()
    assert [s.nick for s in bot.hub.tables[(NETWORK, "#new")].seats] == ["alice"]


async def test_games_ending_together_are_each_rated_once_in_their_own_channel(store_target):
    settings = BotSettings(
        default_game="count",
        seed=7,
        rate_limit=RateLimit(commands=1000, per_seconds=1),
        ratings=RatingSettings(min_games=1),
    )
    bot = Driver(store_target, settings=settings)
    checker = DiskChecker(store_target)
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
    await bot.hub.idle()  # on a server the ratings are read after the moves are answered
    for channel in channels:
        lines = [m.text for m in checker.sent if isinstance(m, Say) and m.channel == channel]
        assert any(t.startswith("Game over:") for t in lines), channel
        assert len([t for t in lines if t.startswith("Ratings")]) == 1, channel
    await checker.stop()
