"""Stage 4: the work of a line as one unit; a line that fails changes nothing; table-changed as it closes."""

from __future__ import annotations

from support.botdriver import NETWORK, Driver

from bazaarbot.messages import Incoming, Outgoing, Tell, User
from bazaarbot.pipeline.commit import unsaved
from bazaarbot.pipeline.events import Change


def _bot(tmp_path) -> Driver:
    return Driver(tmp_path / "bot.sqlite")


def _join(bot: Driver, nick: str, channel: str = "#t") -> list[Outgoing]:
    return bot.hub._process(Incoming(NETWORK, channel, User(nick), "/join"))


def test_the_units_writes_are_queued_until_it_is_committed(tmp_path):
    bot = _bot(tmp_path)
    unit, out = bot.hub.commit.run(lambda: _join(bot, "alice"), NETWORK, "alice")
    assert out and unit.writes and not unit.settled
    bot.hub.store.commit_now()
    assert unit.settled and unit.ok
    assert bot.hub.database.execute("SELECT count(*) FROM seats").fetchone()[0] == 1


def test_work_that_raises_changes_nothing_and_says_so(tmp_path):
    bot = _bot(tmp_path)
    bot.line("alice", "/join")

    def broken() -> list[Outgoing]:
        _join(bot, "bob")
        raise RuntimeError("a bug")

    unit, out = bot.hub.commit.run(broken, NETWORK, "bob")
    assert out == [Tell(NETWORK, "bob", "Sorry, something went wrong with that line; nothing changed.")]
    assert not unit.writes
    assert [s.nick for s in bot.table.seats] == ["alice"]
    assert bot.hub.seated_tables(NETWORK, User("bob").key) == []


def test_work_that_raises_without_a_speaker_is_silent(tmp_path):
    bot = _bot(tmp_path)
    _unit, out = bot.hub.commit.run(lambda: 1 / 0, NETWORK, None)  # type: ignore[arg-type,return-value]
    assert out == []


def test_each_table_the_work_used_hears_table_changed_while_the_unit_is_still_open(tmp_path):
    bot = _bot(tmp_path)
    heard: list[tuple[str, Change, bool]] = []
    store = bot.hub.store
    bot.hub.events.on_table_changed(
        lambda t, how: heard.append((t.channel, how, store.writer.open is not None))
    )
    bot.hub.commit.run(lambda: _join(bot, "alice") + _join(bot, "alice", "#u"), NETWORK, "alice")
    assert sorted(heard) == [("#t", Change.UNIT, True), ("#u", Change.UNIT, True)]


def test_a_unit_inside_another_closes_with_the_outer_one(tmp_path):
    bot = _bot(tmp_path)
    heard: list[str] = []
    bot.hub.events.on_table_changed(lambda t, how: heard.append(t.channel))

    def outer() -> list[Outgoing]:
        _inner_unit, out = bot.hub.commit.run(lambda: _join(bot, "alice"), NETWORK, "alice")
        assert heard == []
        return out

    bot.hub.commit.run(outer, NETWORK, "alice")
    assert heard == ["#t"]


def test_the_board_version_moves_only_when_a_unit_wrote(tmp_path):
    bot = _bot(tmp_path)
    bot.line("alice", "/join")
    before = bot.hub.board_version(NETWORK, "#t")
    bot.line("alice", "/status")
    assert bot.hub.board_version(NETWORK, "#t") == before
    bot.line("bob", "/join")
    assert bot.hub.board_version(NETWORK, "#t") != before


def test_a_failed_commit_brings_the_tables_it_wrote_back_from_disk(tmp_path):
    bot = _bot(tmp_path)
    bot.line("alice", "/join")
    unit, _out = bot.hub.commit.run(lambda: _join(bot, "bob"), NETWORK, "bob")
    assert len(bot.table.seats) == 2
    bot.hub.store.writer.queued.remove(unit)  # as if the disk had refused it
    bot.hub.commit.failed([unit])
    assert [s.nick for s in bot.table.seats] == ["alice"]


def test_the_speaker_of_an_unsaved_line_is_told_nothing_changed():
    assert unsaved(NETWORK, "bob\x00") == [
        Tell(NETWORK, "bob", "Sorry, that could not be saved; nothing changed. Try again.")
    ]
    assert unsaved(NETWORK, None) == []
