"""The public board (everything in Bazaar is public), outcome lines, and their length limits."""

from __future__ import annotations

import random

from support.plugin_moves import Moves

from plugins.bazaar import GAME
from plugins.bazaar.render import combo_text, group
from plugins.bazaar.scenario import build_state
from plugins.bazaar.state import BUY, DISCARD, JOKER

play = Moves(GAME).play


def test_board_shows_every_exchange_row_numbered_with_both_sides():
    s = build_state(hands=["", ""])
    text = GAME.board(s)
    for i, (left, right) in enumerate(s.rows, 1):
        assert f"{i}) {group(left)} = {group(right)}" in text
    assert "1) 1 red = 2 green" in text
    assert "'trade N back'" in text


def test_board_shows_each_field_top_count_and_valuable_mark():
    s = build_state(hands=["", ""], tops=["4 red white", "2 green red blue white"])
    s.fields[2] = s.fields[2][-2:]
    s.fields[3] = []
    text = GAME.board(s)
    assert "1) 4 red+1 white VALUABLE (6 of 6 left)" in text
    assert "2) 1 blue+2 green+1 red+1 white (6 of 6 left)" in text
    assert f"3) {combo_text(s.fields[2][-1])} (2 of 6 left)" in text
    assert "4) sold out" in text


def test_board_never_shows_the_face_down_combinations():
    s = GAME.setup(["a", "b"], random.Random(8), {})
    fields_line = GAME.board(s).splitlines()[0].split(" Fields: ", 1)[1]  # beside the prices
    shown = [part.split(") ", 1)[1].rsplit(" (", 1)[0] for part in fields_line.split(" | ")]
    assert shown == [combo_text(f[-1]) for f in s.fields]


def test_board_shows_every_players_stones_and_score_and_whose_turn():
    s = build_state(hands=["2 blue red", "", "5 yellow"], turn=1)
    s.scores = [7, 0, 12]
    text = GAME.board(s)
    assert "alice 7 points, 0 bought, 3 stones: 2 blue, 1 red" in text
    assert ">bob 0 points, 0 bought, 0 stones: no stones" in text
    assert "carol 12 points, 0 bought, 5 stones: 5 yellow" in text
    assert text.splitlines()[-1].startswith("Now: bob to move: draw")


def test_board_says_what_the_player_may_still_do_this_turn():
    s = build_state(hands=["2 green red blue white", ""], tops=["2 green red blue white"])
    assert "Now: alice to move: draw, or trade" in GAME.board(s)
    s.phase = BUY
    assert "Now: alice: buy 1, or pass." in GAME.board(s)
    s.phase = JOKER
    assert "choose its colour first" in GAME.board(s)
    s2 = build_state(hands=["", ""], acted=False)
    assert "first move is always a draw" in GAME.board(s2)
    s3 = build_state(hands=["12 red", ""], phase=DISCARD, hand_limit=True)
    board = GAME.board(s3)
    assert "give back 2" in board and "hand limit 10" in board


def test_board_shows_the_rate_level():
    s = build_state(hands=["", ""])
    assert "normal prices (all fields stocked)" in GAME.board(s)
    s.fields[1] = []
    assert "higher prices (a field is sold out)" in GAME.board(s)


def test_board_shows_the_bank_in_classic_mode():
    s = GAME.setup(["a", "b"], random.Random(1), {"bank": True})
    assert "bank: 20 blue, 20 green, 20 red, 20 white, 20 yellow" in GAME.board(s)


def test_board_lines_are_short_even_with_six_long_named_rich_players():
    s = build_state(hands=["9 blue 9 green 9 red 9 white 9 yellow"] * 6)
    s.players = [f"a_rather_long_nick{i}" for i in range(6)]
    s.scores = [123] * 6
    for line in GAME.board(s).splitlines():
        assert len(line) <= 300, line


def test_private_view_is_none_because_everything_is_public():
    s = GAME.setup(["a", "b"], random.Random(1), {})
    assert GAME.private_view(s, 0) is None and GAME.private_view(s, 1) is None


def test_outcome_says_what_happened_and_ends_with_the_next_decision():
    s = build_state(hands=["red", ""])
    out = play(s, "trade 1")
    assert out.public[0] == "alice trades row 1: gives 1 red, gets 2 green."
    assert out.public[-1] == "alice: nothing to buy, type pass."
    out = play(s, "pass")
    assert (
        out.public == ["alice passes.", "bob to move: draw, or trade ."] or out.public[0] == "alice passes."
    )
    assert out.public[-1].startswith("bob to move: draw")
    assert out.private == {}


def test_purchase_outcome_names_points_rate_and_next_top():
    s = build_state(hands=["4 red white blue", ""], tops=["4 red white"], phase=BUY)
    out = play(s, "buy 1")
    line = out.public[0]
    assert "alice buys field 1 (4 red+1 white) keeping 1 stone: 5 points (valuable, normal prices)." in line
    assert "Field 1 now shows" in line and "(5 left)" in line


def test_emptying_a_field_announces_the_higher_prices():
    s = build_state(hands=["4 red white", ""], tops=["4 red white"], phase=BUY)
    s.fields[0] = s.fields[0][-1:]
    out = play(s, "buy 1")
    assert "Field 1 is sold out. From now on every purchase scores the higher prices." in out.public[0]


def test_rules_summary_and_command_help_teach_the_game():
    assert "24" in GAME.rules_summary and "12/8/5/3" in GAME.rules_summary
    for word in ("draw", "trade 3 back", "buy 2", "pass", "zieh", "tausch", "kauf", "weiter", "gelb"):
        assert word in GAME.command_help
    assert all(len(line) < 300 for line in GAME.command_help.splitlines())
    assert (GAME.name, GAME.min_players, GAME.max_players) == ("bazaar", 1, 6)
    assert GAME.rules_version == "bazaar-2"
