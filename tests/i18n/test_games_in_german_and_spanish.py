"""Whole console games in German and in Spanish, one person against AI seats: no English game word.

Each game is played at two players and at its most, the person typing only what
``/moves all`` offers (in the table's language), now and then a refused move and a
slip of a verb. No line the bot writes may hold an English term or verb of the games
(``english_words``); the moves the person typed and the nicknames are left out. The console
runs in the test's process (``support.consolehere``): these games are about the words, and
``tests/transports/console`` drives the ``bazaarbot console`` process itself.
"""

from __future__ import annotations

import random

import pytest
from support.consolehere import ConsoleHere
from support.consoleproc import private
from support.english_words import english_terms_in
from support.languages import GAME_OVER

from bazaarbot.registry import discover

GAMES = discover()
#: how the bot names an AI seat in each language (the nick is a name, not a sentence)
AI_NICK = {"de": "KI:leicht", "es": "IA:fácil"}
CASES = [
    (name, n)
    for name in sorted(GAMES)
    for n in sorted({max(2, GAMES[name].min_players), GAMES[name].max_players})
]


def _play(tmp_path, game: str, players: int, lang: str) -> tuple[list[str], set[str]]:
    """Play a whole game; every line the bot said, and what the person typed."""
    console = ConsoleHere(tmp_path / "bot.sqlite", seed=7, config=f'[bot]\nlanguage = "{lang}"\n')
    rng = random.Random(players)
    typed: set[str] = set()

    def say(text: str) -> list[str]:
        typed.add(text)
        return console.type(f"ann: {text}")

    try:
        say(f"/new {game}")
        for _ in range(players - 1):
            say("/addbot easy")
        for text in ("/start", "/help", "/help moves", "/board", "/hand"):
            say(text)
        for turn in range(2000):
            offers = private(say("/moves all"), "ann")
            if turn % 9 == 0:
                say("/moves")
                say("/status")
            if turn % 13 == 5 and offers:
                verb = offers[0].split()[0]
                say(f"{verb} 999 999")  # refused, in the language
                say(verb[1] + verb[0] + verb[2:] + " " + " ".join(offers[0].split()[1:]))  # a slip
            block = say(rng.choice(offers))
            if any(GAME_OVER[lang] in line for line in block):
                break
        else:
            pytest.fail("the game did not end")
        say("/status")
        say("/board")
    finally:
        console.close()
    return console.seen, typed


@pytest.mark.parametrize("lang", ["de", "es"])
@pytest.mark.parametrize(("game", "players"), CASES)
def test_a_whole_game_holds_no_english_game_word(tmp_path, game, players, lang):
    seen, typed = _play(tmp_path, game, players, lang)
    leaks = {}
    for line in seen:
        body = line.split("> ", 1)[1] if "> " in line else line
        if body in typed:
            continue
        for word in english_terms_in(body.replace(AI_NICK[lang], ""), lang):
            leaks.setdefault(word, line)
    assert not leaks, f"English in a {lang} game of {game}: {leaks}"
    assert any(AI_NICK[lang] in line for line in seen)


def test_the_check_finds_english_game_words():
    assert english_terms_in("Jetzt: ann: wähle Würfel - take, deliver (torre: sacks 2x3)", "de") == [
        "take",
        "deliver",
        "sacks",
    ]
    assert english_terms_in("#bazaar> /moves all, Kamele, paddock", "de") == ["paddock"]
