"""Every game played to ``Game over:`` through `bazaarbot console` by a German and by a Spanish bot.

The bot's language comes from the config (``[bot] language``); the players type
only what ``/moves all`` offered. Every line the bot says is then checked for
English sentences the catalogue translates: none may come through in English.
"""

from __future__ import annotations

import random
import re
import string

import pytest
from consoleproc import Console, private

from bazaarbot.i18n.tools import read_catalogue
from bazaarbot.registry import discover

GAMES = sorted(discover())
#: how "/status" names whose turn it is, in each language
TO_ACT = {"de": "Am Zug: ", "es": "Le toca a: "}
#: a sentence of /help, of /rules and of /help moves that each language must show
EXPECTED = {
    "de": {
        "help": "Im Spiel tippst du Züge als einfache Wörter",
        "jaipur": "Exzellenz-Siegel",
        "yspahan": "Aufseher",
        "bazaar": "Tauschtabelle",
    },
    "es": {
        "help": "escribe las jugadas como palabras sueltas",
        "jaipur": "sello de excelencia",
        "yspahan": "caravana",
        "bazaar": "tabla de intercambio",
    },
}


def english_fragments(lang: str) -> list[str]:
    """Pieces of English source sentences (three words or more) no translation keeps.

    A piece some translation does keep (a command such as ``sell 3 cloth`` quoted
    in the German help) says nothing about a sentence left in English.
    """
    catalogue = [m for m in read_catalogue(lang) if m.id]
    kept = "\n".join(s for m in catalogue for s in (m.string if isinstance(m.string, tuple) else (m.string,)))
    found = set()
    for message in catalogue:
        for source in message.id if isinstance(message.id, tuple) else (message.id,):
            for literal, *_rest in string.Formatter().parse(source):
                for piece in re.split(r"[\n:;()']", literal):
                    piece = piece.strip(" .,")
                    if len(piece.split()) >= 3 and piece not in kept:
                        found.add(piece)
    return sorted(found)


@pytest.mark.parametrize("lang", ["de", "es"])
@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_in_the_bots_language(tmp_path, lang, game):
    players = ["ann", "ben"]
    rng = random.Random(5)
    console = Console(tmp_path / "bot.sqlite", seed=13, config=f'[bot]\nlanguage = "{lang}"\n')
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
            if any(line.startswith("#bazaar> Game over:") for line in block):
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
