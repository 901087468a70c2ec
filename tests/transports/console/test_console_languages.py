"""Every game played to its end (``Spiel vorbei:``) in `bazaarbot console` by a German and a Spanish bot.

The bot's language comes from the config (``[bot] language``); the players type
only what ``/moves all`` offered. Every line the bot says is then checked for
English sentences the catalogue translates: none may come through in English. The console runs
in the test's process (``support.consolehere``, the hub the command builds): these games are about
the words; ``test_console_games`` drives the ``bazaarbot console`` process itself.
"""

from __future__ import annotations

import random

import pytest
from support.consolehere import ConsoleHere
from support.consoleproc import private
from support.languages import EXPECTED, GAME_OVER, TO_ACT, english_fragments

from bazaarbot.registry import discover

GAMES = sorted(discover())


@pytest.mark.parametrize("lang", ["de", "es"])
@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_in_the_bots_language(tmp_path, lang, game):
    players = ["ann", "ben"]
    rng = random.Random(5)
    console = ConsoleHere(tmp_path / "bot.sqlite", seed=13, config=f'[bot]\nlanguage = "{lang}"\n')
    commands: set[str] = set()  # /moves all lines: commands are typed in English words
    try:
        console.type(f"ann: /new {game}")
        console.type("ben: /join")
        help_text = "\n".join(console.type("ann: /help"))
        assert EXPECTED[lang]["help"] in help_text
        rules = "\n".join(console.type(f"ann@dm: /rules {game}") + console.type("ann: /help moves"))
        assert EXPECTED[lang][game].lower() in rules.lower()
        console.type("ann: /start")
        console.type("ann: /board")
        for turn in range(5000):
            status = console.type("ann: /status")[0]
            assert TO_ACT[lang] in status, status
            nick = status.rsplit(TO_ACT[lang], 1)[1].split(",")[0].rstrip(".")
            assert nick in players, status
            listing = console.type(f"{nick}: /moves all")
            offers = private(listing, nick)
            commands.update(listing)
            assert offers and offers != ["(no moves)"], status
            if turn % 25 == 0:
                console.type(f"{nick}: {offers[0].split()[0]} 999 nonsense")  # a refusal, in the language
            block = console.type(f"{nick}: {rng.choice(offers)}")
            if any(line.startswith(f"#bazaar> {GAME_OVER[lang]}") for line in block):
                break
        else:
            pytest.fail("the game did not end")
        console.type("ann: /hand")
        console.type("ann: /status")
    finally:
        console.close()
    said = "\n".join(line for line in console.seen if line not in commands)
    leaks = [piece for piece in english_fragments(lang) if piece in said]
    assert not leaks, f"English sentences in a {lang} game: {leaks}"


@pytest.mark.parametrize("lang", ["de", "es"])
def test_the_english_detector_knows_the_bots_sentences(lang):
    """The leak check above is only as good as this list: core and game sentences are in it."""
    fragments = english_fragments(lang)
    for sentence in ("You do not sit at this table", "It is not your turn", "take, exchange or sell"):
        assert sentence in fragments
