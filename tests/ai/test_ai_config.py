"""The ``[ai]`` config section: defaults, overrides per level, and mistakes that name the key."""

from __future__ import annotations

import tomllib

import pytest
from support.paths import REPO_ROOT

from bazaarbot.ai.levels import DEFAULT_LEVELS
from bazaarbot.ai.pool import AiPool, default_workers
from bazaarbot.config import ConfigError, parse_config

ROOT = REPO_ROOT


def test_ai_defaults():
    ai = parse_config({}).ai
    assert ai.workers == default_workers() >= 1
    assert ai.move_delay == 1.0
    assert ai.levels == DEFAULT_LEVELS
    assert ai.ponder is True


def test_pondering_can_be_switched_off():
    assert parse_config({"ai": {"ponder": False}}).ai.ponder is False
    with pytest.raises(ConfigError, match="ai.ponder"):
        parse_config({"ai": {"ponder": "often"}})
    assert not AiPool(1, ponder=False).pondering and AiPool(1).pondering


def test_ai_levels_can_be_tuned_one_key_at_a_time():
    ai = parse_config({"ai": {"workers": 3, "move_delay": 0, "levels": {"hard": {"iterations": 99}}}}).ai
    assert ai.workers == 3 and ai.move_delay == 0.0
    assert ai.levels["hard"].iterations == 99
    assert ai.levels["hard"].time_cap == DEFAULT_LEVELS["hard"].time_cap
    assert ai.levels["medium"] == DEFAULT_LEVELS["medium"]


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"workers": 0}, "ai.workers"),
        ({"move_delay": -1}, "ai.move_delay"),
        ({"threads": 2}, "unknown setting 'threads'"),
        ({"levels": {"expert": {}}}, "unknown setting 'expert'"),
        ({"levels": {"hard": {"iterations": "many"}}}, "ai.levels.hard.iterations"),
        ({"levels": {"hard": {"time_cap": 0}}}, "time_cap"),
        ({"levels": {"easy": {"mistakes": 2}}}, "ai.levels.easy.mistakes"),
    ],
)
def test_ai_config_mistakes_name_the_key(section, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")):
        parse_config({"ai": section})


def test_the_example_config_documents_the_ai_section():
    data = tomllib.loads((ROOT / "config.example.toml").read_text())
    ai = parse_config(data).ai
    assert set(data["ai"]["levels"]) == set(DEFAULT_LEVELS)
    assert ai.levels == DEFAULT_LEVELS, "the example shows the defaults"
