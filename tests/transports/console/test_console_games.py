"""Every installed game, played to the end by several people through `bazaarbot console --script`.

The players only ever type what `/moves all` offered them, so this checks the
whole chain a newcomer uses: console -> hub -> table -> plugin -> store, and
that a game ends with a `Game over:` line.
"""

from __future__ import annotations

import random
import sqlite3

import pytest
from support.consoleproc import Console, private

from bazaarbot.registry import discover

GAMES = discover()


def table_sizes() -> list[tuple[str, int]]:
    """Each game at every table size it allows."""
    return [(name, n) for name, g in sorted(GAMES.items()) for n in range(g.min_players, g.max_players + 1)]


@pytest.mark.parametrize(("name", "count"), table_sizes())
def test_a_whole_game_through_the_console(tmp_path, name, count):
    players = ["ann", "ben", "cat", "dan", "eve", "fay"][:count]
    rng = random.Random(3)
    console = Console(tmp_path / "bot.sqlite", seed=11)
    try:
        console.type(f"{players[0]}: /new {name}")
        for nick in players[1:]:
            console.type(f"{nick}: /join")
        started = console.type(f"{players[0]}: /start")
        assert any(line.startswith("#bazaar> ") for line in started)
        public_seen = "\n".join(started)
        for _ in range(5000):
            status = console.type(f"{players[0]}: /status")[0]
            nick = status.rsplit("To act: ", 1)[1].split(",")[0].rstrip(".")
            offers = private(console.type(f"{nick}: /moves all"), nick)
            assert offers and offers != ["(no moves)"], status
            block = console.type(f"{nick}: {rng.choice(offers)}")
            refused = [line for line in private(block, nick) if "not your turn" in line]
            assert not refused
            public_seen += "\n".join(block)
            if any(line.startswith("#bazaar> Game over:") for line in block):
                break
        else:
            pytest.fail("the game did not end")
        status = console.type(f"{players[0]}: /status")
        assert "lobby" in status[0]
    finally:
        console.close()
    assert _reviews(tmp_path / "bot.sqlite") == 0  # a script's answers never wait for a background review


def _reviews(db) -> int:
    """How many reviews the bot stored (a script's console makes none unless asked)."""
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT count(*) FROM reviews").fetchone()[0]
