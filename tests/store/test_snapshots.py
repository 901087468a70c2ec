"""Snapshots: every N moves and at shutdown; restart replays only the tail; a rules change is handled."""

from __future__ import annotations

import json
import logging
import sqlite3

from support import stepgame
from support.botdriver import NETWORK, Driver, said, text, told
from support.countgame import CountGame
from support.storetargets import read_rows

from bazaarbot.config import BotSettings, RateLimit
from bazaarbot.plugin import MoveError


class CountingGame(CountGame):
    """The count game, counting the moves it applies (a replay shows up here)."""

    applied = 0

    def apply(self, state, seat, move):
        CountingGame.applied += 1
        return super().apply(state, seat, move)


def settings(every: int) -> BotSettings:
    return BotSettings(
        default_game="count", seed=7, snapshot_every=every, rate_limit=RateLimit(commands=1000, per_seconds=1)
    )


def play(bot: Driver, moves: int) -> None:
    nicks = ["alice", "bob"]
    for i in range(moves):
        bot.line(nicks[i % 2], "add 1")


def start(store_target, every: int = 5, games=None) -> Driver:
    bot = Driver(store_target, games=games or {"count": CountingGame()}, settings=settings(every))
    bot.script("alice: /new count target=1000", "bob: /join", "alice: /start")
    return bot


def snapshot_row(db) -> tuple[int, str] | None:
    rows = read_rows(str(db), "SELECT n, rules_version FROM snapshots")
    return rows[0] if rows else None


def test_a_snapshot_is_taken_every_n_moves(store_target):
    bot = start(store_target, every=5)
    play(bot, 4)
    assert snapshot_row(store_target) is None
    play(bot, 8)
    assert snapshot_row(store_target) == (10, "count-1")


def test_restart_loads_the_snapshot_and_replays_only_the_tail(store_target):
    bot = start(store_target, every=5)
    play(bot, 13)
    before = json.dumps(bot.table.plugin.to_json(bot.table.state), sort_keys=True)
    CountingGame.applied = 0
    bot = bot.restart()
    assert CountingGame.applied == 3, "moves 11-13 only"
    assert json.dumps(bot.table.plugin.to_json(bot.table.state), sort_keys=True) == before
    assert bot.table.moves_made == 13
    assert "total 14" in text(bot.line("bob", "add 1"))


def test_restart_with_a_long_log_replays_no_more_than_with_a_short_one(tmp_path):
    (tmp_path / "short").mkdir()
    (tmp_path / "long").mkdir()
    short = start(tmp_path / "short" / "s.sqlite", every=10)
    play(short, 12)
    long = start(tmp_path / "long" / "s.sqlite", every=10)
    play(long, 402)
    CountingGame.applied = 0
    short.restart()
    replayed_short = CountingGame.applied
    CountingGame.applied = 0
    long.restart()
    assert CountingGame.applied == replayed_short == 2


async def test_shutdown_snapshots_every_running_game(store_target):
    bot = start(store_target, every=50)
    play(bot, 7)
    await bot.hub.close()
    assert snapshot_row(store_target) == (7, "count-1")
    CountingGame.applied = 0
    again = Driver(store_target, games={"count": CountingGame()}, settings=settings(50))
    assert CountingGame.applied == 0 and again.table.state.total == 7


def test_a_finished_game_leaves_no_snapshot(store_target):
    bot = Driver(store_target, games={"count": CountingGame()}, settings=settings(2))
    bot.script("alice: /new count target=5", "bob: /join", "alice: /start")
    play(bot, 4)
    assert snapshot_row(store_target) is not None
    assert any(line.startswith("Game over:") for line in said(bot.line("alice", "add 3")))
    assert snapshot_row(store_target) is None


def test_all_running_games_load_in_a_fixed_number_of_queries(tmp_path):
    def queries_to_restore(count: int) -> int:
        db = tmp_path / f"q{count}.sqlite"
        bot = Driver(db, games={"count": CountingGame()}, settings=settings(3))
        for i in range(count):
            a, b = f"a{i}", f"b{i}"
            bot.line(a, "/new count target=1000", channel=f"#c{i}")
            bot.line(b, "/join", channel=f"#c{i}")
            bot.line(a, "/start", channel=f"#c{i}")
            for nick in (a, b, a, b):
                bot.line(nick, "add 1", channel=f"#c{i}")
        bot.hub.store.close()
        statements: list[str] = []
        original = sqlite3.connect

        def traced(*args, **kwargs):
            conn = original(*args, **kwargs)
            conn.set_trace_callback(statements.append)
            return conn

        sqlite3.connect = traced  # type: ignore[assignment]
        try:
            again = Driver(db, games={"count": CountingGame()}, settings=settings(3))
        finally:
            sqlite3.connect = original  # type: ignore[assignment]
        assert sum(1 for t in again.hub.tables.values() if t.running) == count
        again.hub.store.close()
        return sum(1 for s in statements if s.lstrip().upper().startswith("SELECT"))

    assert queries_to_restore(2) == queries_to_restore(12)


class NewRulesGame(CountingGame):
    """A later version of the count game whose moves replay the same way."""

    rules_version = "count-2"


class StricterGame(CountingGame):
    """A later version that no longer accepts ``add 1``: old logs cannot be replayed."""

    rules_version = "count-3"

    def parse(self, state, seat, text):
        if text.strip() == "add 1":
            raise MoveError("add 1 is gone")
        return super().parse(state, seat, text)


def test_a_new_rules_version_replays_from_the_start_checks_the_snapshot_and_goes_on(store_target, caplog):
    bot = start(store_target, every=4)
    play(bot, 9)
    bot.hub.store.close()
    CountingGame.applied = 0
    with caplog.at_level(logging.WARNING):
        again = Driver(store_target, games={"count": NewRulesGame()}, settings=settings(4))
    assert CountingGame.applied == 9, "the whole log, under the new rules"
    assert again.table.running and again.table.state.total == 9 and again.table.paused is None
    assert "replayed under rules count-2" in caplog.text
    record = again.hub.store.game_record(again.table.game_id)
    assert record["rules_version"] == "count-2" and "count-1" in record["note"]
    assert "total 10" in text(again.line("bob", "add 1"))


def test_rules_that_cannot_replay_the_game_keep_it_paused_not_abandoned(store_target, caplog):
    bot = start(store_target, every=4)
    play(bot, 6)
    game_id = bot.table.game_id
    bot.hub.store.close()
    with caplog.at_level(logging.WARNING):
        again = Driver(store_target, games={"count": StricterGame()}, settings=settings(4))
    assert f"game {game_id} (count) paused" in caplog.text
    assert again.hub.store.game_record(game_id)["status"] == "running"
    assert not again.table.running and again.table.paused
    out = again.line("alice", "add 2")
    assert said(out) and "paused" in said(out)[0] and "count-1" in said(out)[0]
    assert "paused" in said(again.line("bob", "/join"))[0]
    assert "paused" in said(again.line("bob", "/reset"))[0], "only an admin may reset it"
    out = again.line("root", "/reset", account="root")
    assert "reset" in text(out) and again.table.paused is None
    assert again.hub.store.game_record(game_id)["status"] == "abandoned"
    assert told(again.line("alice", "/join"), "alice")


def test_a_game_that_cannot_be_replayed_does_not_stop_the_start(store_target):
    bot = start(store_target, every=4)
    play(bot, 2)
    bot.line("carol", "/join", channel="#other")
    bot.hub.store.close()
    again = Driver(store_target, games={"count": StricterGame()}, settings=settings(4))
    assert [s.nick for s in again.hub.tables[(NETWORK, "#other")].seats] == ["carol"]


def test_a_step_that_may_be_undone_is_never_snapshotted_so_its_undo_replays(store_target):
    step_settings = BotSettings(
        default_game="step", seed=3, snapshot_every=1, rate_limit=RateLimit(commands=1000, per_seconds=1)
    )
    bot = Driver(store_target, games={"step": stepgame.GAME}, settings=step_settings)
    bot.script("alice: /join", "bob: /join", "alice: /start", "alice: pick 2", "alice: add")
    assert snapshot_row(store_target) == (2, "step-1")
    bot.line("bob", "pick 3")  # undoable: no snapshot after it
    assert snapshot_row(store_target) == (2, "step-1")
    again = bot.restart()
    assert "bob takes back pick 3." in said(again.line("bob", "/undo"))
    again.line("bob", "pick 1")
    again = again.restart()
    assert again.table.state.picked == 1 and again.table.moves_made == 5
