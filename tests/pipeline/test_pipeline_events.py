"""The events after-commit work subscribes to, and the hub's subscribers of them."""

from __future__ import annotations

from support.botdriver import NETWORK, Driver

from bazaarbot.messages import User
from bazaarbot.pipeline.events import Change, TableEvents


def test_game_finished_collects_what_every_subscriber_says_in_order(tmp_path):
    table = Driver(tmp_path / "bot.sqlite").hub.table(NETWORK, "#t")
    events = TableEvents()
    events.on_game_finished(lambda t, game_id: [f"first {game_id}"])
    events.on_game_finished(lambda t, game_id: [])
    events.on_game_finished(lambda t, game_id: [f"second {t.channel}"])
    assert events.game_finished(table, 4) == ["first 4", "second #t"]


def test_table_changed_reaches_every_subscriber_with_how(tmp_path):
    table = Driver(tmp_path / "bot.sqlite").hub.table(NETWORK, "#t")
    events = TableEvents()
    heard: list[tuple[str, Change]] = []
    events.on_table_changed(lambda t, how: heard.append(("a", how)))
    events.on_table_changed(lambda t, how: heard.append(("b", how)))
    events.table_changed(table, Change.RELOADED)
    assert heard == [("a", Change.RELOADED), ("b", Change.RELOADED)]


def test_the_seat_index_follows_a_table_changed_outside_any_line(tmp_path):
    bot = Driver(tmp_path / "bot.sqlite")
    bot.line("alice", "/join")
    table = bot.table
    table.remove(User("alice").key, lambda who: f"{who} is gone.")  # straight on the table, as a test may
    assert bot.hub.seated_tables(NETWORK, User("alice").key) == []


def test_a_finished_game_is_rated_after_its_line_is_committed(tmp_path):
    bot = Driver(tmp_path / "bot.sqlite")
    bot.script("alice: /new count target=3", "bob: /join", "alice: /start")
    out = []
    while bot.table.running:
        state = bot.table.state
        out = bot.line(state.players[state.turn], "add 3")
    said = [m.text for m in out]
    over = next(i for i, text in enumerate(said) if text.startswith("Game over:"))
    rated = [i for i, text in enumerate(said) if "rating" in text.lower()]
    assert rated and min(rated) > over
