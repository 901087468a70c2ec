"""The ``undoable`` hook: a step that may be taken back replays away exactly, over random games."""

from __future__ import annotations

import random

import pytest

from bazaarbot.plugin import GamePlugin
from plugins.bazaar import GAME as BAZAAR
from plugins.jaipur import GAME as JAIPUR
from plugins.yspahan import GAME as YSPAHAN
from plugins.yspahan.scenario import full_tower_game

#: undoable steps checked by a full replay in each game (the others are checked more cheaply)
REPLAYS_PER_GAME = 25


def replay(game: GamePlugin, players: list[str], seed: int, options: dict, log: list[tuple[int, str]]):
    """The state after these typed moves, from the seed, as the table restores a game."""
    state = game.setup(players, random.Random(seed), options)
    for seat, text in log:
        game.apply(state, seat, game.parse(state, seat, text))
    return state


def random_game_undo_checks(game: GamePlugin, players: list[str], seed: int, options: dict) -> int:
    """Play a random game; for every undoable step check what undoing it promises. Returns how many."""
    state = game.setup(players, random.Random(seed), options)
    rng = random.Random(seed + 1000)
    log: list[tuple[int, str]] = []
    found = 0
    while game.result(state) is None and len(log) < 700:
        seat = game.to_act(state)[0]
        text = rng.choice(game.legal_commands(state, seat))
        move = game.parse(state, seat, text)
        undoable = game.undoable(state, seat, move)
        before = game.to_json(state)
        game.apply(state, seat, move)
        if undoable:
            found += 1
            after = game.to_json(state)
            assert after["rng"] == before["rng"], f"{text!r} used a random number"
            assert game.to_act(state) == [seat], f"{text!r} handed the turn on"
            if found <= REPLAYS_PER_GAME:
                assert game.to_json(replay(game, players, seed, options, log)) == before, text
        log.append((seat, text))
    return found


@pytest.mark.parametrize("n", [2, 3, 4])
def test_yspahan_undoable_steps_replay_away_exactly(n):
    players = ["Ann", "Bob", "Cid", "Dee"][:n]
    found = sum(random_game_undo_checks(YSPAHAN, players, seed, {}) for seed in range(2))
    assert found > 0


@pytest.mark.parametrize("options", [{}, {"bank": True, "hand_limit": True}, {"auto_pass": False}])
def test_bazaar_undoable_steps_replay_away_exactly(options):
    found = sum(
        random_game_undo_checks(BAZAAR, ["alice", "bob", "carol"], seed, options) for seed in range(3)
    )
    assert found > 0


def test_yspahan_steps_that_reveal_something_are_never_undoable():
    state = YSPAHAN.setup(["Ann", "Bob", "Cid"], random.Random(4), {"first_player": "first"})
    assert not YSPAHAN.undoable(state, 0, YSPAHAN.parse(state, 0, "roll"))
    YSPAHAN.apply(state, 0, YSPAHAN.parse(state, 0, "roll"))
    draws = [c for c in YSPAHAN.legal_commands(state, 0) if c.startswith("draw")]
    assert draws and not YSPAHAN.undoable(state, 0, YSPAHAN.parse(state, 0, draws[0]))


def test_yspahan_take_is_undoable_only_while_the_turn_goes_on():
    keeps_turn = full_tower_game()
    keeps_turn.camels[0] = 2  # the paddock is affordable, so a build step follows
    assert YSPAHAN.undoable(keeps_turn, 0, YSPAHAN.parse(keeps_turn, 0, "take gold"))
    ends_turn = full_tower_game()  # nothing to build, no cards: the turn ends by itself
    assert not YSPAHAN.undoable(ends_turn, 0, YSPAHAN.parse(ends_turn, 0, "take gold"))


def test_a_game_whose_turn_is_one_step_keeps_the_default_false():
    state = JAIPUR.setup(["alice", "bob"], random.Random(1), {})
    seat = JAIPUR.to_act(state)[0]
    command = JAIPUR.legal_commands(state, seat)[0]
    assert GamePlugin.undoable is type(JAIPUR).undoable
    assert JAIPUR.undoable(state, seat, JAIPUR.parse(state, seat, command)) is False
