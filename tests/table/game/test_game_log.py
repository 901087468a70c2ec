"""The game log of a table's latest game: fed by the moves the table plays, the same as read back."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from support.botdriver import NETWORK, Driver

from bazaarbot.config import BotSettings, RateLimit
from bazaarbot.registry import discover
from bazaarbot.table.gamelog import GameLogs

GAMES = discover()


def _driver(tmp_path, game: str) -> Driver:
    """A bot whose ``game`` runs at #t between ann and ben."""
    settings = BotSettings(default_game=game, seed=3, rate_limit=RateLimit(commands=100_000, per_seconds=1))
    driver = Driver(tmp_path / "bot.sqlite", games=GAMES, settings=settings)
    driver.script("ann: /join", "ben: /join", "ann: /start")
    return driver


def _look(driver: Driver):
    """The log as the web table reads it after a change (the table's last move fed in)."""
    table = driver.table
    running = (table.game_id, table.moves_made) if table.game_id is not None else None
    nicks = [s.nick for s in table.players] if table.running else None
    return driver.hub.views.game_logs.latest(table.id, running, nicks, table.last_played)


def _played_out(driver: Driver, seed: int, look: Callable[[Driver], Any]) -> list[Any]:
    """Random legal moves at #t until its game ends; what ``look(driver)`` said after each but the last."""
    table = driver.table
    plugin = table.plugin
    rng = random.Random(seed)
    looks = []
    while table.running:
        seat = plugin.to_act(table.state)[0]
        driver.line(table.players[seat].nick, rng.choice(plugin.legal_commands(table.state, seat)))
        if table.running:
            looks.append(look(driver))
    return looks


def _log_after_a_move(driver: Driver) -> tuple[bool, bool]:
    """Whether the log holds every move the table made, and whether it read them back from the store."""
    replay = _look(driver)
    held = replay is not None and replay.moves_read == driver.table.moves_made
    return held, not (replay and replay.unplayed)


def test_a_log_fed_by_the_table_reads_as_the_store_replayed_and_ends_in_the_same_state(tmp_path):
    for game in ("jaipur", "bazaar", "yspahan"):
        (tmp_path / game).mkdir()
        driver = _driver(tmp_path / game, game)
        table = driver.table
        plugin = table.plugin
        looks = _played_out(driver, 7, _log_after_a_move)
        assert all(held for held, _read in looks), game
        read_back = sum(read for _held, read in looks)
        fed = _look(driver)
        fresh = GameLogs(driver.hub.store, GAMES).latest(table.id)  # everything read from the store
        assert fed is not None and fresh is not None and fed.status == "finished"
        assert [e.as_dict() for e in fed.entries] == [e.as_dict() for e in fresh.entries], game
        assert plugin.to_json(fed.settled_state()) == plugin.to_json(fresh.state), game
        assert read_back <= 1, "each move was taken as the table played it, not read back"
        view = driver.hub.table_view(NETWORK, "#t", None)
        assert view is not None and view["phase"] == "over" and view["result"] is not None


def _look_counting_steps(monkeypatch, driver: Driver):
    """The web table's view of #t, and the seats the game's rules played a step for while it was built."""
    plugin = driver.table.plugin
    applied: list[int] = []
    apply = plugin.apply

    def counted(state, seat, move):
        applied.append(seat)
        return apply(state, seat, move)

    monkeypatch.setattr(plugin, "apply", counted)
    try:
        return driver.hub.table_view(NETWORK, "#t", None), applied
    finally:
        monkeypatch.undo()


def test_a_finished_games_log_takes_the_tables_last_state_not_playing_the_game_again(tmp_path, monkeypatch):
    for game in ("jaipur", "bazaar", "yspahan"):
        (tmp_path / game).mkdir()
        driver = _driver(tmp_path / game, game)
        table = driver.table
        plugin = table.plugin
        # the web table's look after each move: the log takes the move as played
        views = _played_out(driver, 11, lambda played: played.hub.table_view(NETWORK, "#t", None))
        assert all(view is not None for view in views), game
        replay = driver.hub.views.game_logs._replays[table.id]
        assert replay.status == "running" and replay.unplayed, f"{game}: the log played each move at once"
        view, applied = _look_counting_steps(monkeypatch, driver)
        assert view is not None and view["phase"] == "over" and view["result"] is not None, game
        assert applied == [], f"{game}: the finished game was played again for its log"
        fresh = GameLogs(driver.hub.store, GAMES).latest(table.id)  # everything read from the store
        assert fresh is not None and fresh.status == "finished" and replay.status == "finished"
        assert plugin.to_json(replay.settled_state()) == plugin.to_json(fresh.state), game
        assert view["moves"] == fresh.moves_read == len(replay.entries), game


def test_the_log_as_a_reader_reads_it_is_its_tail_in_their_words_each_entry_built_once(tmp_path, monkeypatch):
    driver = _driver(tmp_path, "jaipur")
    table = driver.table
    plugin = table.plugin
    rng = random.Random(3)
    for _ in range(12):
        seat = plugin.to_act(table.state)[0]
        driver.line(table.players[seat].nick, rng.choice(plugin.legal_commands(table.state, seat)))
    replay = _look(driver)
    said: list[str] = []
    command_in = plugin.command_in

    def counted(state, seat, command, lang):
        said.append(command)
        return command_in(state, seat, command, lang)

    monkeypatch.setattr(plugin, "command_in", counted)
    german = replay.as_read("de", 5)
    assert [e["n"] for e in german] == [e.n for e in replay.entries[-5:]]
    assert [e["text"] for e in german] == [
        command_in(None, e.seat, e.text, "de") for e in replay.entries[-5:]
    ]
    assert replay.as_read("de", 5) == german and len(said) == 5  # the second reading builds nothing
    seat = plugin.to_act(table.state)[0]
    driver.line(table.players[seat].nick, plugin.legal_commands(table.state, seat)[0])
    later = _look(driver).as_read("de", 5)
    assert later[:-1] == german[1:] and len(said) == 6  # only the new entry is built


def test_an_undone_step_stays_in_the_log_with_its_taking_back_and_the_log_goes_on(tmp_path):
    from support import stepgame

    settings = BotSettings(default_game="step", seed=3, rate_limit=RateLimit(commands=1000, per_seconds=1))
    driver = Driver(tmp_path / "u.sqlite", games={"step": stepgame.GAME}, settings=settings)
    for nick, line in (("alice", "/join"), ("bob", "/join"), ("alice", "/start"), ("alice", "pick 3")):
        driver.line(nick, line)
    assert _look(driver) is not None
    driver.script("alice: /undo", "alice: pick 1", "alice: add")
    replay = _look(driver)
    assert replay is not None, "the log was lost after an /undo"
    assert [e.text for e in replay.entries] == ["pick 3", "/undo", "pick 1", "add"]
    assert "alice takes back pick 3." in replay.entries[1].lines
    table = driver.table
    assert stepgame.GAME.to_json(replay.settled_state()) == stepgame.GAME.to_json(table.state)
    fresh = GameLogs(driver.hub.store, {"step": stepgame.GAME}).latest(table.id)  # read from the store
    assert fresh is not None and [e.as_dict() for e in fresh.entries] == [e.as_dict() for e in replay.entries]
    assert stepgame.GAME.to_json(fresh.state) == stepgame.GAME.to_json(table.state)
    view = driver.hub.table_view(NETWORK, "#t", None)
    assert [e["text"] for e in view["log"]] == ["pick 3", "/undo", "pick 1", "add"]
