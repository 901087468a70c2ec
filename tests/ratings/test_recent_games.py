"""``recent_games``: the network's last finished games, latest first, on SQLite and on PostgreSQL.

The page of recent games (``/history``) lists them, each a link to its replay: a running game and
another network's game are not among them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from support.botdriver import NETWORK, Driver


def _finish_count_game(bot: Driver, channel: str) -> int:
    bot.line("alice", "/new count target=3", channel)
    bot.line("bob", "/join", channel)
    bot.line("alice", "/start", channel)
    table = bot.hub.tables[(NETWORK, channel)]
    game_id = table.game_id
    bot.line("alice", "add 3", channel)
    assert not table.running
    return game_id


def _check(bot: Driver) -> None:
    first = _finish_count_game(bot, "#a")
    second = _finish_count_game(bot, "#b")
    bot.line("carol", "/new count", "#c")
    bot.line("dave", "/join", "#c")
    bot.line("carol", "/start", "#c")  # running: not listed
    games = bot.hub.recent_games(NETWORK, 10)
    assert [game["id"] for game in games] == [second, first]
    assert games[0]["players"] == [
        {"nick": "alice", "score": 1, "winner": True},
        {"nick": "bob", "score": 0, "winner": False},
    ]
    assert bot.hub.recent_games(NETWORK, 1) == games[:1]
    assert bot.hub.recent_games("elsewhere", 10) == []


def test_recent_games_on_sqlite(tmp_path: Path) -> None:
    _check(Driver(tmp_path / "bot.sqlite"))


def test_recent_games_on_postgresql(postgres_cluster: Any) -> None:
    _check(Driver(postgres_cluster.database()))
