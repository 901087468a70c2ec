"""The AI only ever answers with a legal command, in every game, at every table size, at every level."""

from __future__ import annotations

import random

import pytest
from support.ai_helpers import GAMES, POLICIES, SMALL_LEVELS, random_position, sizes

from bazaarbot.ai import ai_seed, choose
from bazaarbot.ai.choose import choose_action


@pytest.mark.parametrize(("name", "players"), sizes())
def test_the_ai_never_chooses_an_illegal_command(name, players):
    game = GAMES[name]
    for seed in range(3):
        state = random_position(game, players, seed)
        seat = game.to_act(state)[0]
        legal = game.legal_commands(state, seat)
        for level in POLICIES:
            command = choose(name, game.to_json(state), seat, level, ai_seed(seed, 0, seat), SMALL_LEVELS)
            assert command in legal, f"{level} chose {command!r}, not one of the legal commands"
            after = game.clone(state)
            game.apply(after, seat, game.parse(after, seat, command))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_search_plays_a_whole_game_legally(name):
    """Every decision (multi-step turns, decisions out of turn) goes through to_act and the search."""
    game = GAMES[name]
    players = max(2, game.min_players)
    defaults = {o.name: o.default for o in game.options}
    state = game.setup([f"p{i + 1}" for i in range(players)], random.Random(3), defaults)
    tiny = {"hard": SMALL_LEVELS["medium"]}
    move = 0
    while game.result(state) is None:
        seat = game.to_act(state)[0]
        policy = "hard" if seat == 0 else "greedy"
        action = choose_action(game, state, seat, policy, random.Random(move), tiny)
        command = game.ai_command(state, seat, action)
        assert command in game.legal_commands(state, seat)
        game.apply(state, seat, game.parse(state, seat, command))
        move += 1
    assert move > 10
