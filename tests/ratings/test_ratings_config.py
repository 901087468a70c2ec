"""The ``[ratings]`` config section: how many rated games /top asks for, and its mistakes named."""

from __future__ import annotations

import pytest
from support.paths import REPO_ROOT

from bazaarbot.config import ConfigError, load_config, parse_config

EXAMPLE = REPO_ROOT / "config.example.toml"


def test_min_games_comes_from_the_ratings_section():
    assert parse_config({}).bot.ratings.min_games == 3
    assert parse_config({"ratings": {"min_games": 5}}).bot.ratings.min_games == 5
    assert load_config(EXAMPLE).bot.ratings.min_games == 3


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"ratings": {"min_games": 0}}, "ratings.min_games must be at least 1"),
        ({"ratings": {"min_games": "many"}}, "ratings.min_games must be a int"),
        ({"ratings": {"minimum": 2}}, "ratings: unknown setting 'minimum'"),
        ({"ratings": 3}, "ratings must be a table"),
    ],
)
def test_a_bad_ratings_setting_is_named(doc, message):
    with pytest.raises(ConfigError, match=message):
        parse_config(doc)
