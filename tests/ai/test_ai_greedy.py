"""Every plugin's greedy policy beats uniform random clearly (a handful of games, a sanity check)."""

from __future__ import annotations

import pytest
from support.ai_helpers import GAMES

from bazaarbot.bench import ai as bench


@pytest.mark.parametrize("name", sorted(GAMES))
def test_greedy_beats_random_clearly(name):
    result = bench.run(name, level="greedy", vs="random", games=6, players=2, seed=11, say=lambda _line: None)
    assert result.wins >= 5, f"greedy won only {result.wins} of 6 {name} games against random"
