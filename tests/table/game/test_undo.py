"""/undo: a step that revealed nothing is taken back, recorded, and replays exactly after a restart."""

from __future__ import annotations

import pytest
from support import stepgame
from support.botdriver import Driver, said, text

from bazaarbot.config import BotSettings, RateLimit


@pytest.fixture
def steps(tmp_path):
    settings = BotSettings(default_game="step", seed=3, rate_limit=RateLimit(commands=1000, per_seconds=1))
    bot = Driver(tmp_path / "s.sqlite", games={"step": stepgame.GAME}, settings=settings)
    bot.script("alice: /join", "bob: /join", "alice: /start")
    return bot


def test_undo_takes_back_a_step_that_revealed_nothing(steps):
    steps.line("alice", "pick 3")
    out = steps.line("alice", "/undo")
    assert "alice takes back pick 3." in said(out) and steps.table.state.picked is None
    steps.line("alice", "pick 1")
    steps.line("alice", "add")
    assert steps.table.state.totals == [1, 0]


def test_undo_is_refused_after_the_turn_passed_or_for_another_player(steps):
    steps.line("alice", "pick 2")
    assert "Nothing to undo" in text(steps.line("bob", "/undo"))
    steps.line("alice", "add")
    assert "Nothing to undo" in text(steps.line("alice", "/undo"))
    assert steps.table.state.totals == [2, 0]


def test_undo_is_refused_for_a_step_that_used_chance(steps):
    steps.line("alice", "pick 2")
    steps.line("alice", "/undo")
    assert "Nothing to undo" in text(steps.line("alice", "/undo"))  # one step back, not two


def test_undo_is_recorded_and_replays_exactly_after_a_restart(steps):
    steps.script("alice: pick 3", "alice: /undo", "alice: pick 1")
    before = stepgame.GAME.to_json(steps.table.state)
    again = steps.restart()
    assert stepgame.GAME.to_json(again.table.state) == before
    assert "/undo" in [m["text"] for m in again.hub.store.moves(again.table.game_id)]
    again.line("alice", "/undo")  # the pending pick may still be taken back after the restart
    assert again.table.state.picked is None
