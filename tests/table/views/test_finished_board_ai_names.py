"""A finished game's board names its AI seats in the reader's language.

After the last move the page draws the game as its record reads it back, where an AI is stored
as ``AI:easy``; a German reader must still read ``KI:leicht`` on the board (the seals, the
players' panels, the round's summary), as during the game.
"""

from __future__ import annotations

import json
import random

import pytest

from bazaarbot.i18n import language
from bazaarbot.registry import discover
from bazaarbot.tableview.table import ais_named_in_each_language, in_reader_words

GAMES = discover()
#: an easy AI's name in each language
AI_NICK = {"de": "KI:leicht", "es": "IA:fácil"}


@pytest.mark.parametrize("lang", sorted(AI_NICK))
@pytest.mark.parametrize("game", ["jaipur", "yspahan", "bazaar"])
def test_a_finished_games_board_names_its_ai_in_the_readers_language(game: str, lang: str) -> None:
    plugin = GAMES[game]
    state = plugin.setup(["ann", "AI:easy"], random.Random(1), {})
    with language(lang):
        shown = json.dumps(
            in_reader_words(plugin.public_data(ais_named_in_each_language(plugin, state))), ensure_ascii=False
        )
    assert AI_NICK[lang] in shown and "AI:easy" not in shown, shown[:400]
    assert state.players == ["ann", "AI:easy"]  # the record's own state is left as it was read


def test_a_game_without_ai_seats_keeps_its_state() -> None:
    plugin = GAMES["jaipur"]
    state = plugin.setup(["ann", "bob"], random.Random(1), {})
    assert ais_named_in_each_language(plugin, state) is state
