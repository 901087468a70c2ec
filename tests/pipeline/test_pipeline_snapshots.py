"""After-commit work: the snapshot subscriber of table-changed."""

from __future__ import annotations

from support.botdriver import Driver

from bazaarbot.config import BotSettings, RateLimit
from bazaarbot.pipeline.events import Change
from bazaarbot.pipeline.snapshots import Snapshots


def _playing(store_target, moves: int) -> Driver:
    bot = Driver(
        store_target,
        settings=BotSettings(
            default_game="count", seed=7, snapshot_every=0, rate_limit=RateLimit(commands=1000, per_seconds=1)
        ),
    )
    bot.script("alice: /new count target=1000", "bob: /join", "alice: /start")
    for _ in range(moves):
        state = bot.table.state
        bot.line(state.players[state.turn], "add 1")
    return bot


def _snapshots(bot: Driver) -> list[int]:
    return [row[0] for row in bot.hub.database.execute("SELECT n FROM snapshots")]


def test_a_snapshot_joins_the_closing_unit_once_enough_moves_were_made(store_target):
    bot = _playing(store_target, 3)
    snapshots = Snapshots(bot.hub.store, every=3)
    bot.hub.store.begin()
    snapshots.table_changed(bot.table, Change.UNIT)
    unit = bot.hub.store.end()
    assert unit.writes and _snapshots(bot) == []
    bot.hub.store.commit_now()
    assert _snapshots(bot) == [3]


def test_no_snapshot_before_it_is_due(store_target):
    bot = _playing(store_target, 2)
    Snapshots(bot.hub.store, every=3).table_changed(bot.table, Change.UNIT)
    assert _snapshots(bot) == []


def test_the_count_starts_again_from_the_last_snapshot(store_target):
    bot = _playing(store_target, 4)
    snapshots = Snapshots(bot.hub.store, every=3)
    snapshots.restored(bot.table, bot.table.game_id, 2)
    snapshots.table_changed(bot.table, Change.UNIT)
    assert _snapshots(bot) == []
    assert snapshots.taken[bot.table] == (bot.table.game_id, 2)


def test_a_table_changed_outside_a_unit_takes_no_snapshot_and_a_reloaded_one_starts_over(store_target):
    bot = _playing(store_target, 4)
    snapshots = Snapshots(bot.hub.store, every=3)
    snapshots.restored(bot.table, bot.table.game_id, 2)
    snapshots.table_changed(bot.table, Change.OUTSIDE)
    assert bot.table in snapshots.taken
    snapshots.table_changed(bot.table, Change.RELOADED)
    assert bot.table not in snapshots.taken and _snapshots(bot) == []


def test_at_shutdown_every_game_that_moved_is_snapshotted_and_committed(store_target):
    bot = _playing(store_target, 1)
    Snapshots(bot.hub.store, every=0).take_all([bot.table])
    assert _snapshots(bot) == [1]


def test_a_game_with_no_move_since_its_snapshot_is_not_snapshotted_again(store_target):
    bot = _playing(store_target, 2)
    snapshots = Snapshots(bot.hub.store, every=0)
    snapshots.take_all([bot.table])
    bot.hub.database.execute("DELETE FROM snapshots")
    snapshots.take_all([bot.table])
    assert _snapshots(bot) == []
