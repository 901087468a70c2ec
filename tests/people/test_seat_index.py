"""Seat lookups by identity: no line scans every table, and the index follows every seat change."""

from __future__ import annotations

from support.botdriver import NETWORK, Driver, told
from support.hubparts import swap_tables

from bazaarbot.messages import User


class NoScan(dict):
    """The hub's tables, refusing to be walked: a lookup by key is fine, a scan is a failure."""

    def _scan(self, *args, **kwargs):
        raise AssertionError("a line scanned every table")

    __iter__ = items = values = keys = _scan  # type: ignore[assignment]


def many_tables(tmp_path, count: int = 30) -> Driver:
    bot = Driver(tmp_path / "i.sqlite")
    for i in range(count):
        bot.line(f"a{i}", "/join", channel=f"#c{i}")
        bot.line(f"b{i}", "/join", channel=f"#c{i}")
        bot.line(f"a{i}", "/start", channel=f"#c{i}")
    return bot


def test_private_lines_and_nick_changes_do_not_scan_every_table(tmp_path):
    bot = many_tables(tmp_path)
    swap_tables(bot.hub, NoScan(bot.hub.tables))
    assert told(bot.dm("a7", "/moves all"), "a7") == ["add 1\nadd 2\nadd 3"]
    assert "adds 2" in "\n".join(m.text for m in bot.dm("a7", "add 2"))
    assert told(bot.dm("b7", "/hand"), "b7")
    bot.hub.identity.rename(NETWORK, User("b7"), User("bee"))
    assert told(bot.dm("bee", "/moves all"), "bee") == ["add 1\nadd 2\nadd 3"]
    bot.hub.identity.leave_now(NETWORK, None, "n:bee")
    assert bot.hub.seated_tables(NETWORK, "n:bee") == []


def test_the_index_follows_join_leave_kick_reset_and_rename(tmp_path):
    bot = Driver(tmp_path / "i.sqlite", admins=None)
    hub = bot.hub
    bot.line("alice", "/join")
    bot.line("alice", "/join", channel="#two")
    assert [t.channel for t in hub.seated_tables(NETWORK, "n:alice")] == ["#t", "#two"]
    bot.line("alice", "/leave", channel="#two")
    assert [t.channel for t in hub.seated_tables(NETWORK, "n:alice")] == ["#t"]
    bot.line("bob", "/join")
    bot.line("alice", "/kick bob")
    assert hub.seated_tables(NETWORK, "n:bob") == []
    bot.line("bob", "/join")
    hub.identity.rename(NETWORK, User("bob"), User("robert"))
    assert hub.seated_tables(NETWORK, "n:bob") == []
    assert [t.channel for t in hub.seated_tables(NETWORK, "n:robert")] == ["#t"]
    assert hub._key_for_nick(NETWORK, "Robert") == "n:robert"
    bot.line("alice", "/reset clear")
    assert hub.seated_tables(NETWORK, "n:alice") == hub.seated_tables(NETWORK, "n:robert") == []


def test_the_index_is_rebuilt_on_restart(tmp_path):
    bot = many_tables(tmp_path, 3)
    bot = bot.restart()
    assert [t.channel for t in bot.hub.seated_tables(NETWORK, "n:b2")] == ["#c2"]
    swap_tables(bot.hub, NoScan(bot.hub.tables))
    assert told(bot.dm("a2", "/moves all"), "a2") == ["add 1\nadd 2\nadd 3"]


def test_someone_at_two_tables_is_asked_which_without_a_scan(tmp_path):
    bot = Driver(tmp_path / "i.sqlite")
    bot.line("alice", "/join")
    bot.line("alice", "/join", channel="#two")
    swap_tables(bot.hub, NoScan(bot.hub.tables))
    out = told(bot.dm("alice", "/hand"), "alice")
    assert out and "several tables (#t, #two)" in out[0]
