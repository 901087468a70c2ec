"""Moves in German and Spanish: typed with the games' words, shown as they can be typed back.

Every command the bot may show a German or Spanish player (``command_in``) reads back
as the same move; Yspahan takes the German rules' words and their Spanish match; a
line of chatter that starts with such a word is still no move.
"""

from __future__ import annotations

import random

import pytest

from bazaarbot.i18n import Phrase, language, localized
from bazaarbot.registry import discover
from plugins.yspahan import GAME as YSPAHAN

GAMES = discover()


def _states(game, players: int, steps: int = 400):
    """Decision points of one random game: (state, seat) before each move."""
    rng = random.Random(players)
    state = game.setup(
        [f"p{i}" for i in range(players)], random.Random(3), {o.name: o.default for o in game.options}
    )
    for _ in range(steps):
        if game.result(state) is not None:
            return
        seat = game.to_act(state)[0]
        yield state, seat
        command = rng.choice(game.legal_commands(state, seat))
        game.apply(state, seat, game.parse(state, seat, command))


@pytest.mark.parametrize("lang", ["de", "es"])
@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_command_shown_in_a_language_reads_back_as_the_same_move(name, lang):
    game = GAMES[name]
    for players in sorted({max(2, game.min_players), game.max_players}):
        for state, seat in _states(game, players):
            for command in game.legal_commands(state, seat):
                said = game.command_in(state, seat, command, lang)
                assert game.is_move(said), (command, said)
                assert tuple(game.parse(state, seat, said)) == tuple(game.parse(state, seat, command)), said


@pytest.mark.parametrize(
    ("typed", "english"),
    [
        ("nimm kamele", "take camels"),
        ("Toma camellos", "take camels"),
        ("tomar camellos", "take camels"),
        ("beliefere säcke", "deliver sacks"),
        ("entrega sacos", "deliver sacks"),
        ("ziehe", "draw"),
        ("roba", "draw"),
    ],
)
def test_yspahan_takes_german_and_spanish_moves(typed, english):
    state = YSPAHAN.setup(["ann", "ben"], random.Random(2), {o.name: o.default for o in YSPAHAN.options})
    seat = YSPAHAN.to_act(state)[0]
    YSPAHAN.apply(state, seat, YSPAHAN.parse(state, seat, "roll"))
    seat = YSPAHAN.to_act(state)[0]
    assert YSPAHAN.is_move(typed)
    try:
        wanted = tuple(YSPAHAN.parse(state, seat, english))
    except Exception as error:  # the same refusal either way
        with pytest.raises(type(error)):
            YSPAHAN.parse(state, seat, typed)
        return
    assert tuple(YSPAHAN.parse(state, seat, typed)) == wanted


def test_yspahan_names_its_things_in_german_and_spanish():
    cases = {
        "build hoist with 4": ("baue lastenaufzug mit 4", "construye montacargas con 4"),
        "play souk_cube chest2 W4": ("spiele ladenstein truhe2 W4", "juega cubo_zoco cofre2 W4"),
        "move 6 west then north +1": ("bewege 6 west dann nord +1", "mueve 6 oeste luego norte +1"),
        "let go": ("lass los", "suelta"),
    }
    for english, (german, spanish) in cases.items():
        assert YSPAHAN.command_in(None, 0, english, "de") == german
        assert YSPAHAN.command_in(None, 0, english, "es") == spanish


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize(
    "chatter",
    [
        "nimm dir Zeit",
        "toma eso",
        "spiele heute abend",
        "juega bien",
        "el fin de semana",
        "rot ist schön",
        "compra pan",
        "ich bin fertig mit dem essen",
        "bewege dich",
    ],
)
def test_a_german_or_spanish_line_that_is_no_move_is_never_taken_for_one(name, chatter):
    assert not GAMES[name].is_move(chatter)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_move_help_lists_the_verbs_of_the_language(name):
    game = GAMES[name]
    words = {"jaipur": ("nimm", "toma"), "yspahan": ("bewege", "mueve"), "bazaar": ("tausche", "cambia")}[
        name
    ]
    for lang, verb in zip(("de", "es"), words, strict=True):
        with language(lang):
            assert verb in game.command_help.split()


def test_a_game_word_inside_a_sentence_is_rendered_for_each_reader():
    from plugins.yspahan.words import souk_word

    with language("de"):
        word = souk_word(8)  # chest2
    assert word == "truhe2" and isinstance(word, Phrase)
    assert localized(word, "es") == "cofre2" and localized(word, "en") == "chest2"
