"""Engine speed figures for ``bazaarbot bench engine jaipur``.

The headline figure is complete random rounds per second on one core, played
through the fast internal path the AI's rollouts use (``play_random_round``).
Rates are per second of this process's CPU time (``time.process_time``): the
engine is single-threaded, so that is "per core", and other work on a shared
machine does not distort it. The text path a chat table uses (``legal_commands``
+ ``parse`` + ``apply``) and the full enumeration ``legal_actions`` are measured
too, for comparison.
"""

from __future__ import annotations

import random
import time
from typing import Any

from . import random_play, rules
from . import state as st


def run(game: Any, seconds: float) -> list[tuple[str, float]]:
    """Measure the fast random path for most of ``seconds``, then the text and enumeration paths."""
    fast = max(seconds * 0.6, 0.05)
    slow = max(seconds * 0.2, 0.02)
    rng = random.Random(1)
    rounds = actions = matches = 0
    play_round = random_play.play_random_round
    start = time.process_time()
    deadline = start + fast
    while time.process_time() < deadline:
        state = st.new_match(["p1", "p2"], random.Random(rng.getrandbits(32)))
        while not state.over:
            actions += play_round(state, rng)
            rounds += 1
        matches += 1
    elapsed = time.process_time() - start
    figures = [
        ("random rounds/s", rounds / elapsed),
        ("random decisions/s", actions / elapsed),
        ("random matches/s", matches / elapsed),
        ("decisions per round", actions / max(rounds, 1)),
    ]

    # legal_actions over a spread of random mid-round positions
    positions = []
    for seed in range(200):
        state = st.new_match(["p1", "p2"], random.Random(seed))
        for _ in range(rng.randrange(60)):
            rules.play(state, random_play.random_action(state, rng))
            if state.over:
                break
        if not state.over:
            positions.append(state)
    legal_calls = 0
    start = time.process_time()
    deadline = start + slow
    while time.process_time() < deadline:
        for state in positions:
            rules.legal_actions(state)
        legal_calls += len(positions)
    figures.append(("legal_actions/s", legal_calls / (time.process_time() - start)))

    decisions = 0
    state = game.setup(["p1", "p2"], random.Random(3), {})
    start = time.process_time()
    deadline = start + slow
    while time.process_time() < deadline:
        seat = game.to_act(state)[0]
        command = rng.choice(game.legal_commands(state, seat))
        game.apply(state, seat, game.parse(state, seat, command))
        decisions += 1
        if game.result(state) is not None:
            state = game.setup(["p1", "p2"], random.Random(rng.getrandbits(32)), {})
    figures.append(("text-path decisions/s", decisions / (time.process_time() - start)))
    return figures
