"""Every installed game, played to the end by several people through `bazaarbot console --script`.

The players only ever type what `/moves all` offered them, so this checks the
whole chain a newcomer uses: console -> hub -> table -> plugin -> store, and
that a game ends with a `Game over:` line. One console process plays every
table size of a game, each at a channel of its own (what the process adds, its
start, its input and output, its file, is the same for each size). Each game's
console seed is one whose random games end soon (found by playing seeds 1 to 13:
a shorter game goes through the same chain).
"""

from __future__ import annotations

import random
import sqlite3

import pytest
from support.consoleproc import Console, private

from bazaarbot.registry import discover

GAMES = discover()
PEOPLE = ["ann", "ben", "cat", "dan", "eve", "fay"]
#: each game's console seed (every seed plays Yspahan's 21 days)
SEEDS = {"bazaar": 4, "jaipur": 2, "yspahan": 11}


def _play_to_the_end(console: Console, name: str, count: int) -> None:
    """``count`` people (named for their table) play ``name`` at a channel of its own until it ends."""
    channel = f"#{name}{count}"
    players = [f"{nick}{count}" for nick in PEOPLE[:count]]

    def type_in(nick: str, text: str) -> list[str]:
        return console.type(f"{nick}@{channel}: {text}")

    rng = random.Random(3)
    type_in(players[0], f"/new {name}")
    for nick in players[1:]:
        type_in(nick, "/join")
    started = type_in(players[0], "/start")
    assert any(line.startswith(f"{channel}> ") for line in started)
    for _ in range(5000):
        status = type_in(players[0], "/status")[0]
        nick = status.rsplit("To act: ", 1)[1].split(",")[0].rstrip(".")
        offers = private(type_in(nick, "/moves all"), nick)
        assert offers and offers != ["(no moves)"], status
        block = type_in(nick, rng.choice(offers))
        refused = [line for line in private(block, nick) if "not your turn" in line]
        assert not refused
        if any(line.startswith(f"{channel}> Game over:") for line in block):
            break
    else:
        pytest.fail(f"the game of {name} at {count} did not end")
    status = type_in(players[0], "/status")
    assert "lobby" in status[0]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_whole_game_at_every_table_size_through_the_console(tmp_path, name):
    game = GAMES[name]
    console = Console(tmp_path / "bot.sqlite", seed=SEEDS.get(name, 11))
    try:
        for count in range(game.min_players, game.max_players + 1):
            _play_to_the_end(console, name, count)
    finally:
        console.close()
    assert _reviews(tmp_path / "bot.sqlite") == 0  # a script's answers never wait for a background review


def _reviews(db) -> int:
    """How many reviews the bot stored (a script's console makes none unless asked)."""
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT count(*) FROM reviews").fetchone()[0]
