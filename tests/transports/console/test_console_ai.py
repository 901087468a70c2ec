"""A person alone at a table plays a whole game of every game against `/addbot hard` through the console.

The AI is the real search in its worker process (one console process plays every game, each
at a channel of its own, its AIs thinking in the same workers as in a bot with several
tables); the config gives ``hard`` a small iteration budget so the test stays quick (strength
is measured by ``bazaarbot bench ai``, not here). The lines an AI's turn makes are read from a
console in the test's process (``support.consolehere``, AIs thinking in a thread): they are
about the words, not the process; the same seed gives the same AI moves in two processes.
"""

from __future__ import annotations

import random
import re

import pytest
from support.consolehere import ConsoleHere
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


def _a_whole_game_against_addbot_hard(console: Console, name: str) -> None:
    """ann plays ``name`` at a channel of its own against one hard AI, to the game's end."""
    rng = random.Random(5)
    channel = f"#{name}"
    console.type(f"ann@{channel}: /new {name}")
    assert any("(an AI player) joins" in line for line in console.type(f"ann@{channel}: /addbot hard"))
    seen = console.type(f"ann@{channel}: /start")
    for _ in range(3000):
        if any(line.startswith(f"{channel}> Game over:") for line in seen):
            break
        offers = private(console.type(f"ann@{channel}: /moves all"), "ann")
        assert offers and offers != ["(no moves)"], f"the AI left ann waiting at {name}"
        seen = console.type(f"ann@{channel}: {rng.choice(offers)}")
        assert not [line for line in private(seen, "ann") if "not your turn" in line]
    else:
        pytest.fail(f"the game of {name} did not end")
    assert any("AI:hard" in line for line in console.type(f"ann@{channel}: /status"))


def test_a_person_plays_a_whole_game_of_every_game_against_addbot_hard(tmp_path):
    console = Console(tmp_path / "bot.sqlite", seed=21, config=SMALL_BUDGETS)
    try:
        for name in sorted(GAMES):
            _a_whole_game_against_addbot_hard(console, name)
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


#: a person against AIs: the game, how many AIs, the most lines after one of the person's commands
#: (a Yspahan day may end and begin with AIs, and a camel paid to protect a cube is an AI's answer apart)
TABLES = [("jaipur", 1, 2), ("bazaar", 2, 3), ("yspahan", 2, None)]


@pytest.mark.parametrize(("name", "bots", "most_lines"), TABLES)
def test_one_channel_line_per_ai_turn_and_no_prompt_to_an_ai(tmp_path, name, bots, most_lines):
    rng = random.Random(3)
    console = ConsoleHere(tmp_path / "bot.sqlite", seed=21, config=SMALL_BUDGETS)
    try:
        console.type(f"ann: /new {name}")
        for _ in range(bots):
            console.type("ann: /addbot hard")
        seen = console.type("ann: /start")
        for _ in range(25):
            if any(line.startswith("#bazaar> Game over:") for line in seen):
                break
            offers = private(console.type("ann: /moves all"), "ann")
            seen = console.type(f"ann: {rng.choice(offers)}")
            channel = [line.removeprefix("#bazaar> ") for line in seen if line.startswith("#bazaar> ")]
            # the person's move (and, while their turn goes on, what they may do next), then the AIs
            own = [line for line in channel if not line.startswith("AI:")]
            ai_lines = channel[len(own) :]
            assert len(own) <= (2 if own and own[-1].startswith("ann") and not ai_lines else 1), channel
            assert all(line.startswith("AI:") for line in ai_lines), channel
            speakers = [line.split()[0].rstrip(".:") for line in ai_lines]
            # one line per AI turn: no AI speaks on two lines in a row
            assert all(a != b for a, b in zip(speakers, speakers[1:], strict=False)), channel
            if most_lines is not None:
                assert len(channel) <= most_lines, channel
            for line in channel:
                assert "Now: AI:" not in line and not re.search(r"AI:\w+ to (play|move|act)", line), line
            if name == "jaipur":  # the market after a move is said once, on the line the person reads next
                assert sum(line.count("Market:") for line in channel) <= 1, channel
    finally:
        console.close()
