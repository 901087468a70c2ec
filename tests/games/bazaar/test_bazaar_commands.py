"""What people type: verbs and German aliases, colour names, trade directions, refusals that help."""

from __future__ import annotations

import pytest

from bazaarbot.plugin import MoveError
from plugins.bazaar import GAME
from plugins.bazaar.colours import BLUE, GREEN, RED, WHITE, YELLOW, colour_of
from plugins.bazaar.scenario import build_state
from plugins.bazaar.state import BUY, DISCARD, JOKER


def parse(state, text, seat=None):
    return GAME.parse(state, state.turn if seat is None else seat, text)


def parse_error(state, text) -> str:
    with pytest.raises(MoveError) as err:
        parse(state, text)
    return err.value.message


# --- is_move ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "draw",
        "Draw",
        "!draw",
        "zieh",
        "ziehen",
        "joker red",
        "red",
        "Gelb",
        "weiß",
        "trade 3",
        "tausch 3 zurück",
        "buy 2",
        "kauf 2",
        "pass",
        "weiter",
        "discard red",
    ],
)
def test_is_move_accepts_verbs_aliases_and_colour_names(text):
    assert GAME.is_move(text)


@pytest.mark.parametrize("text", ["hello", "", "  ", "who is winning?", "drawing is fun", "lol draw", "g"])
def test_is_move_ignores_chatter(text):
    assert not GAME.is_move(text)


# --- verbs -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("draw", ("draw",)),
        ("zieh", ("draw",)),
        ("ziehen", ("draw",)),
        ("pass", ("pass",)),
        ("weiter", ("pass",)),
        ("trade 3", ("trade", 2, False)),
        ("tausch 3", ("trade", 2, False)),
        ("trade 3 back", ("trade", 2, True)),
        ("tausch 3 zurück", ("trade", 2, True)),
        ("tausch 3 zurueck", ("trade", 2, True)),
        ("trade 3back", ("trade", 2, True)),
        ("trade back 3", ("trade", 2, True)),
        ("trade 10 <", ("trade", 9, True)),
        ("trade #4 forward", ("trade", 3, False)),
        ("buy 2", ("buy", 1)),
        ("kauf 2", ("buy", 1)),
        ("kaufe 4", ("buy", 3)),
        ("BUY 1.", ("buy", 0)),
    ],
)
def test_verbs_and_german_aliases(text, move):
    s = build_state(hands=["", ""])
    assert parse(s, text) == move


def test_buy_without_a_number_buys_the_only_affordable_field():
    s = build_state(hands=["5 yellow", ""], tops=["5 yellow"], phase=BUY)
    assert parse(s, "buy") == ("buy", 0)
    s2 = build_state(hands=["", ""], phase=BUY)
    assert "which field" in parse_error(s2, "buy")


# --- colours -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "colour"),
    [
        ("blue", BLUE),
        ("blau", BLUE),
        ("b", BLUE),
        ("bl", BLUE),
        ("green", GREEN),
        ("grün", GREEN),
        ("gruen", GREEN),
        ("gr", GREEN),
        ("red", RED),
        ("rot", RED),
        ("r", RED),
        ("white", WHITE),
        ("weiß", WHITE),
        ("weiss", WHITE),
        ("w", WHITE),
        ("yellow", YELLOW),
        ("gelb", YELLOW),
        ("ge", YELLOW),
        ("y", YELLOW),
        ("Yel", YELLOW),
    ],
)
def test_colour_names_in_english_and_german_with_short_forms(word, colour):
    assert colour_of(word) == colour
    s = build_state(hands=["", ""], phase=JOKER)
    assert parse(s, f"joker {word}") == ("joker", colour)


def test_g_alone_is_ambiguous_and_says_how_to_pick():
    s = build_state(hands=["", ""], phase=JOKER)
    msg = parse_error(s, "joker g")
    assert "gr" in msg and "ge" in msg


def test_unknown_colour_lists_the_colours():
    s = build_state(hands=["", ""], phase=JOKER)
    assert "blue, green, red, white, yellow" in parse_error(s, "joker purple")


def test_bare_colour_answers_a_pending_joker_only():
    s = build_state(hands=["", ""], phase=JOKER)
    assert parse(s, "rot") == ("joker", RED)
    s2 = build_state(hands=["", ""])
    assert "joker" in parse_error(s2, "red")


def test_discard_takes_colours_and_counts():
    s = build_state(hands=["12 red", ""], phase=DISCARD, hand_limit=True)
    assert parse(s, "discard 2 red") == ("discard", (0, 0, 2, 0, 0))
    assert parse(s, "discard red blue") == ("discard", (1, 0, 1, 0, 0))
    assert parse(s, "abwerfen rot") == ("discard", (0, 0, 1, 0, 0))


# --- malformed commands ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("trade", "trade 3 back"),
        ("trade x", "trade 3"),
        ("trade 3 sideways", "gives the right side"),
        ("buy x", "buy 2"),
        ("joker", "joker red"),
        ("discard", "discard red"),
    ],
)
def test_malformed_commands_say_what_would_work(text, hint):
    s = build_state(hands=["", ""])
    assert hint in parse_error(s, text)


def test_refusals_name_the_rule_and_the_way_out():
    s = build_state(hands=["green", ""])
    with pytest.raises(MoveError) as err:
        GAME.apply(s, 0, parse(s, "trade 1 back"))
    assert "you need 2 green to give for row 1; you hold 1 green" in err.value.message.lower()
    with pytest.raises(MoveError) as err:
        GAME.apply(s, 1, parse(s, "draw", seat=1))
    assert "alice's turn" in err.value.message


def test_every_refusal_is_short_enough_for_one_chat_line():
    s = build_state(hands=["green", "2 red"])
    for text in ["trade 1 back", "trade 99", "buy 1", "buy 9", "pass", "discard red", "joker red"]:
        with pytest.raises(MoveError) as err:
            GAME.apply(s, 0, parse(s, text))
        assert 0 < len(err.value.message) < 300


# --- legal_commands -----------------------------------------------------------------------------


def test_legal_commands_spell_every_option_and_each_is_accepted():
    s = build_state(hands=["2 green red 2 white", "blue"])
    commands = GAME.legal_commands(s, 0)
    assert commands[0] == "draw"
    assert "trade 1" in commands and "trade 1 back" in commands and "trade 9" in commands
    assert GAME.legal_commands(s, 1) == []
    for command in commands:
        clone = GAME.clone(s)
        GAME.apply(clone, 0, GAME.parse(clone, 0, command))


def test_brief_moves_is_one_short_line():
    s = build_state(hands=["2 green red 2 white", "blue"])
    line = GAME.brief_moves(s, 0)
    assert "draw" in line and "trade 1, 1 back" in line and "\n" not in line
    assert "Not your turn" in GAME.brief_moves(s, 1)
    s.phase = BUY
    assert GAME.brief_moves(s, 0) == "pass"
