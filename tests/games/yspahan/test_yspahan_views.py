"""What Yspahan players see: the public city, private hands, short updates and move summaries."""

from __future__ import annotations

import random

from bazaarbot.plugin import Option
from plugins.yspahan import GAME
from plugins.yspahan.board import SPACE_INDEX
from plugins.yspahan.cards import CARDS_PER_DRAW, HAND_LIMIT, HOIST, card_text
from plugins.yspahan.rules import DEFAULT_OPTIONS
from plugins.yspahan.scenario import fill, full_tower_game, new_game, play, put, set_tower
from plugins.yspahan.words import card_word


def test_identity_fields():
    assert GAME.name == "yspahan" and GAME.min_players == 2 and GAME.max_players == 4
    assert GAME.rules_version.startswith("yspahan-") and GAME.title == "Yspahan"
    assert "3 weeks" in GAME.rules_summary and all(len(x) < 300 for x in GAME.rules_summary.splitlines())


def test_options_carry_the_recommended_defaults():
    opts = {o.name: o for o in GAME.options}
    assert {name: o.default for name, o in opts.items()} == DEFAULT_OPTIONS
    assert opts["must_place_all"].default is True and opts["first_player"].default == "random"
    assert isinstance(opts["reshuffle"], Option) and opts["reshuffle"].convert("off") is False
    assert opts["first_player"].convert("first") == "first"


def test_constants_for_the_open_questions():
    assert CARDS_PER_DRAW == 1 and HAND_LIMIT is None


def test_board_shows_the_whole_city_in_short_lines():
    st = set_tower(new_game(4), {"camels": (1, 3), "sacks": (2, 2), "gold": (6, 2, 1)})
    fill(st, 1, "vase1")
    put(st, 2, "sack5 W7", "sack5")
    st.caravan = [0, 3]
    st.built[0] |= 1 << HOIST
    text = GAME.board(st)
    lines = text.splitlines()
    assert all(len(line) < 300 for line in lines)
    assert "week 1/3, day 1/7" in lines[0]
    assert "camels 3x1" in text and "gold 3x6 (1 yellow)" in text
    assert "vase1(4) Bob 1/1 done @E1" in text and "sack5(6) Cid 2/5 @W7" in text and "sack6(8) 0/6" in text
    assert "Supervisor at X" in text and "Caravan 2/12" in text and "row 1: Ann Dee" in text
    assert "Ann: 0 points, 2 gold, 0 camels, 0 cards, hoist." in text
    assert any(line.startswith("Sacks:") and "Barrels:" in line for line in lines)
    assert any(line.startswith("Chests:") and "Vases:" in line for line in lines)
    assert len(lines) <= 6, "a board of six lines at most"


def test_the_board_draws_the_road_with_the_supervisor_on_it():
    st = new_game(2)
    assert "Road W10-E7: ----------*-------; N1-N4: X----; S1-S7: X-------." in GAME.board(st)
    st.sup = SPACE_INDEX["w7"]
    assert "Road W10-E7: ---*------X-------;" in GAME.board(st) and "Supervisor at W7" in GAME.board(st)
    st.sup = SPACE_INDEX["s2"]
    assert "S1-S7: X-*-----." in GAME.board(st)


def test_board_never_shows_cards_in_hand():
    st = set_tower(new_game(3), {"camels": (1, 3), "gold": (6, 2)})
    out = play(st, "draw 1")
    card = str(card_word(st.hands[0][0]))  # its name as typed, never its id
    assert card not in GAME.board(st) and all(card not in line for line in out.public)
    assert "1 card," in GAME.board(st)
    assert out.private[0] == [f"You drew {card}."]
    assert card in GAME.private_view(st, 0) and card_text(st.hands[0][0]) in GAME.private_view(st, 0)
    assert card not in GAME.private_view(st, 1)


def test_private_view_lists_cards_and_what_is_left_to_build():
    st = new_game(3)
    st.hands[0] = [0, 0, 5]
    view = GAME.private_view(st, 0)
    assert "camels3 x2 - take 3 camels" in view and "cube-to-souk - put one cube" in view
    assert "extra CARD" in view and "Still to build: paddock" in view
    assert all(len(line) < 300 for line in view.splitlines())
    assert "no cards" in GAME.private_view(st, 1)


def test_every_update_ends_with_whose_decision_it_is():
    st = set_tower(new_game(3), {"camels": (1, 3), "gold": (6, 2)})
    out = play(st, "take camels")
    assert out.public[-1].endswith("Ann: build, or done.")
    out = play(st, "done")
    assert "Now: Bob: pick dice" in out.public[-1]


def test_protection_status_names_the_owner():
    st = set_tower(new_game(3), {"camels": (3, 1), "gold": (6, 1)})
    put(st, 2, "sack3 W3")
    st.camels[2] = 1
    out = play(st, "move 3 west")
    assert "Cid: pay 1 camel to keep your cube in sack3? protect or let go." in out.public[-1]
    assert GAME.brief_moves(st, 2) == "protect; let go"
    assert "not your decision" in GAME.brief_moves(st, 0)


def test_brief_moves_is_one_short_line():
    st = full_tower_game()
    st.gold[0] = 10
    st.hands[0] = [1, 5, 6, 8]
    brief = GAME.brief_moves(st, 0)
    assert len(brief) < 300 and "\n" not in brief
    assert "move 1|2|3|4|5|6 DIR [+K/-K]" in brief and "draw 1|2|3|4|5|6" in brief
    assert (
        "play gold-for-points 1-10" in brief and "play exchange N gold|camels" in brief and "extra " in brief
    )
    assert len(GAME.legal_commands(st, 0)) > 100


def test_end_of_week_update_reports_souks_and_caravan():
    st = new_game(3)
    st.day = 7
    fill(st, 1, "vase3")
    st.caravan = [1]
    outs = []
    while st.week == 1:
        seat = GAME.to_act(st)[0]
        cmds = GAME.legal_commands(st, seat)
        cmd = next((c for c in cmds if c.startswith(("roll", "draw", "done"))), cmds[0])
        outs.extend(GAME.apply(st, seat, GAME.parse(st, seat, cmd)).public)
    text = " ".join(outs)
    assert "End of week 1. Souks: Bob +12." in text and "Caravan scoring: Bob +1." in text
    assert all(len(line) < 300 for line in outs)


def test_rules_summary_has_the_road_map():
    assert "west: W1 sack3, W2 chest2, W3 sack3" in GAME.rules_summary
    assert "E1 barrel2+vase1" in GAME.rules_summary and "S1 sack3+barrel2" in GAME.rules_summary


def test_result_scores_and_shared_winners_leave_no_detail_to_repeat():
    st = new_game(2)
    GAME.rollout(st, random.Random(5))
    res = GAME.result(st)
    assert set(res.scores) == {0, 1} and res.winners == res.ranking[0]
    assert res.detail == ""  # the table's "Game over" line says the scores, once
    assert "game over" in GAME.board(st)
