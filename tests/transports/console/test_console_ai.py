"""A person alone at a table plays a whole game of every game against `/addbot hard` through the console.

The AI is the real search in its worker process; the config gives ``hard`` a
small iteration budget so the test stays quick (strength is measured by
``bazaarbot bench ai``, not here).
"""

from __future__ import annotations

import random

import pytest
from support.consoleproc import Console, private

from bazaarbot.registry import discover

GAMES = discover()

SMALL_BUDGETS = """
[ai]
workers = 1
[ai.levels.hard]
iterations = 25
time_cap = 2.0
"""


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_person_plays_a_whole_game_against_addbot_hard(tmp_path, name):
    rng = random.Random(5)
    console = Console(tmp_path / "bot.sqlite", seed=21, config=SMALL_BUDGETS)
    try:
        console.type(f"ann: /new {name}")
        assert any("(an AI player) joins" in line for line in console.type("ann: /addbot hard"))
        seen = console.type("ann: /start")
        for _ in range(3000):
            if any(line.startswith("#bazaar> Game over:") for line in seen):
                break
            offers = private(console.type("ann: /moves all"), "ann")
            assert offers and offers != ["(no moves)"], "the AI left ann waiting"
            seen = console.type(f"ann: {rng.choice(offers)}")
            assert not [line for line in private(seen, "ann") if "not your turn" in line]
        else:
            pytest.fail("the game did not end")
        assert any("AI:hard" in line for line in console.type("ann: /status"))
    finally:
        console.close()


def test_the_same_seed_gives_the_same_ai_moves(tmp_path):
    def ai_lines(folder) -> list[str]:
        folder.mkdir()
        console = Console(folder / "bot.sqlite", seed=8, config=SMALL_BUDGETS)
        try:
            console.type("ann: /new jaipur")
            console.type("ann: /addbot hard")
            lines = console.type("ann: /start")
            for _ in range(6):
                offers = private(console.type("ann: /moves all"), "ann")
                lines += console.type(f"ann: {offers[0]}")
            return [line for line in lines if line.startswith("#bazaar> AI:hard")]
        finally:
            console.close()

    first, second = ai_lines(tmp_path / "a"), ai_lines(tmp_path / "b")
    assert first and first == second
