"""The generic conformance test every game plugin passes (OpenSpiel-style random play over seeds).

Each game also has its own, deeper tests; this one holds every plugin to the
contract in bazaarbot/plugin.py, so a new game folder is checked the day it
is added. Three seeds per game and table size in CI; ``PLUGIN_SEEDS=50`` plays fifty for a
long soak.
"""

from __future__ import annotations

import json
import os
import random

import pytest

from bazaarbot.plugin import GamePlugin, MoveError, Result
from bazaarbot.registry import discover

GAMES = discover()
SEEDS = range(int(os.environ.get("PLUGIN_SEEDS", "3")))


def test_the_three_games_are_installed():
    assert {"jaipur", "yspahan", "bazaar"} <= set(GAMES)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_identity_fields(name):
    game = GAMES[name]
    assert isinstance(game, GamePlugin) and game.name == name
    assert game.title and game.rules_version and game.rules_summary and game.command_help
    assert 1 <= game.min_players <= game.max_players
    assert len({o.name for o in game.options}) == len(game.options)


def sizes():
    return [(name, n) for name, g in sorted(GAMES.items()) for n in range(g.min_players, g.max_players + 1)]


@pytest.mark.parametrize(("name", "players"), sizes())
def test_random_legal_play_keeps_the_contract(name, players):
    game = GAMES[name]
    defaults = {o.name: o.default for o in game.options}
    for seed in SEEDS:
        rng = random.Random(seed)
        names = [f"p{i}" for i in range(players)]
        state = game.setup(names, random.Random(seed), defaults)
        replay = game.setup(names, random.Random(seed), defaults)
        log = []
        for step in range(20_000):
            if game.result(state) is not None:
                break
            to_act = game.to_act(state)
            assert to_act, "no seat to act in a running game"
            seat = to_act[0]
            commands = game.legal_commands(state, seat)
            assert commands, f"seat {seat} must have a legal command"
            assert all(game.is_move(c) for c in commands), "is_move must recognise every legal command"
            if step % 17 == 0:
                snapshot = game.to_json(state)
                assert json.loads(json.dumps(snapshot)) == snapshot, "to_json must be JSON-able"
                restored = game.from_json(json.loads(json.dumps(snapshot)))
                assert game.to_json(restored) == snapshot, "to_json/from_json must be lossless"
                assert game.board(restored) == game.board(state)
                probe = game.clone(state)
                for command in commands:
                    trial = game.clone(probe)
                    game.apply(trial, seat, game.parse(trial, seat, command))
                assert game.to_json(probe) == snapshot, "clone must be independent"
                seen = game.determinize(state, seat, random.Random(step))
                assert game.private_view(seen, seat) == game.private_view(state, seat)
                public = game.public_data(state)
                assert json.loads(json.dumps(public)) == public, "public_data must be JSON-able"
                assert game.public_data(seen) == public, "public_data must not depend on hidden cards"
                assert game.private_data(seen, seat) == game.private_data(state, seat)
                assert game.to_act(seen) == to_act
                assert game.ai_actions(seen, seat) == game.ai_actions(state, seat), (
                    "a seat's own choices depend only on what it knows (the search lists them once)"
                )
                assert game.to_json(state) == snapshot, "determinize must not touch the original"
                redeal = game.redealer(state, seat)
                for draw in range(2):  # the search's re-deal is determinize, number for number
                    ours, theirs = random.Random(draw), random.Random(draw)
                    assert game.to_json(redeal(ours)) == game.to_json(game.determinize(state, seat, theirs))
                    assert ours.random() == theirs.random(), "the redealer draws what determinize draws"
                with pytest.raises(MoveError):
                    game.parse(state, seat, "xyzzy plugh")
            command = rng.choice(commands)
            game.apply(state, seat, game.parse(state, seat, command))
            log.append((seat, command))
        else:
            pytest.fail(f"{name} with {players} players did not end")
        result = game.result(state)
        assert isinstance(result, Result) and result.winners
        assert sorted(i for group in result.ranking for i in group) == list(range(players))
        assert set(result.winners) == set(result.ranking[0])
        assert game.legal_commands(state, 0) == [] and game.to_act(state) == []
        for seat, command in log:  # the log alone rebuilds the game (what a restart does)
            game.apply(replay, seat, game.parse(replay, seat, command))
        assert game.to_json(replay) == game.to_json(state)
