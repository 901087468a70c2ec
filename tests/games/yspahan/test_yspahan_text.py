"""What Yspahan players read: corner shops, status lines, the public board, /rules and card timing."""

from __future__ import annotations

import random

import pytest
from support.counts import count_problems
from support.paths import REPO_ROOT
from support.plugin_moves import random_play

from bazaarbot.i18n import localized
from bazaarbot.plugin import MoveError
from plugins.yspahan import GAME
from plugins.yspahan.board import SOUK_INDEX
from plugins.yspahan.cards import (
    BUILD_NO_CAMELS,
    BUILD_NO_GOLD,
    CAMELS3,
    CARAVANSERAI,
    GOLD3,
    HOIST,
    PADDOCK,
)
from plugins.yspahan.render import status
from plugins.yspahan.scenario import new_game, play, put, set_tower, shop_of
from plugins.yspahan.state import P_PLACE, P_PROTECT


def test_corner_shop_placed_at_s1_is_echoed_as_s1():
    st = set_tower(new_game(3), {"camels": (1, 3), "sacks": (2, 1), "gold": (6, 1)})
    play(st, "deliver sacks")
    out = play(st, "place sack3 S1")
    assert "sack3 S1" in out.public[0] and "sack3 W1" not in out.public[0]


def test_corner_shops_are_shown_exposed_at_both_road_spaces():
    st = new_game(3)
    put(st, 0, "sack3 W1")
    put(st, 1, "barrel2 E1")
    put(st, 2, "vase1")
    board = GAME.board(st)
    assert "sack3(3) Ann 1/3 @W1/S1" in board
    assert "barrel2(3) Bob 1/2 @E1/S1" in board
    assert "vase1(4) Cid 1/1 done @E1/N1" in board


def test_supervisor_sending_a_corner_cube_names_his_own_space():
    st = set_tower(new_game(3), {"camels": (1, 3), "gold": (6, 1)})
    put(st, 1, "sack3 W1")
    out = play(st, "move 1 south")
    text = " ".join(out.public)
    assert "Bob's cube from sack3 S1 goes to the caravan" in text and "sack3 W1" not in text


def test_board_shows_todays_turn_order_with_the_turn_being_played():
    st = set_tower(new_game(3), {"camels": (1, 3), "gold": (6, 1)}, seat=1)
    assert "Turns today: Ann, [Bob], Cid." in GAME.board(st)


def test_two_player_board_shows_start_player_twice_in_the_turn_order():
    st = new_game(2)
    play(st, "roll")
    assert "Turns today: [Ann], Bob, Ann." in GAME.board(st)


def test_four_player_last_day_turn_order_is_on_the_board_lowest_score_first():
    st = new_game(4)
    st.week, st.day = 3, 6
    st.score = [9, 3, 7, 1]
    st.start = 2
    from plugins.yspahan.rules import _end_day

    _end_day(st, None)
    assert "Turns today: Dee, Bob, Cid, Ann." in GAME.board(st)


def test_board_shows_the_draw_pile_size_and_the_face_up_discards():
    st = new_game(3)
    assert "Cards: 18 cards in the draw pile; no discards." in GAME.board(st)
    st.pile = st.pile[:1]
    st.discard = [GOLD3, CAMELS3]
    assert "Cards: 1 card in the draw pile; discards, oldest first: gold3, camels3." in GAME.board(st)


def test_two_player_status_offers_building_when_it_is_affordable():
    st = set_tower(new_game(2), {"camels": (1, 3), "gold": (6, 1)})
    assert "build" not in GAME.board(st).splitlines()[-1]
    st.camels[0] = 2
    assert "draw or build with them" in GAME.board(st).splitlines()[-1]


def test_build_step_does_not_promise_a_building_when_none_is_affordable():
    st = set_tower(new_game(3), {"camels": (1, 1), "gold": (6, 1)})
    st.hands[0] = [GOLD3]
    out = play(st, "take gold")
    assert out.public[-1].endswith("Ann: play cards, or done.")
    st2 = set_tower(new_game(3), {"camels": (1, 3), "gold": (6, 1)})
    st2.hands[0] = [GOLD3]
    out2 = play(st2, "take camels")
    assert out2.public[-1].endswith("Ann: build, play cards, or done.")


def test_refused_discounted_build_quotes_the_price_still_due():
    st = set_tower(new_game(3), {"camels": (1, 2), "gold": (6, 1)})
    st.hands[0] = [BUILD_NO_GOLD]
    play(st, "take camels")
    with pytest.raises(MoveError) as refused:
        play(st, "play build_no_gold hoist")
    assert "With build-without-gold the hoist still costs 4 camels; you have 2 camels and 2 gold." in str(
        refused.value
    )
    with pytest.raises(MoveError) as plain:
        play(st, "build hoist")
    assert "The hoist costs 4 camels and 4 gold; you have 2 camels and 2 gold." in str(plain.value)


def test_both_discount_cards_together_build_for_nothing():
    st = set_tower(new_game(3), {"camels": (1, 1), "gold": (6, 1)})
    st.hands[0] = [BUILD_NO_CAMELS, BUILD_NO_GOLD]
    play(st, "take camels")
    assert "play build_no_camels build_no_gold hoist" in GAME.legal_commands(st, 0)
    play(st, "play build_no_camels build_no_gold hoist")
    assert st.built[0] >> HOIST & 1 and st.camels[0] == 1 and st.gold[0] == 2 and st.hands[0] == []
    assert st.discard[-2:] == [BUILD_NO_CAMELS, BUILD_NO_GOLD]


def test_combine_discounts_off_refuses_both_cards_on_one_building():
    st = set_tower(new_game(3, combine_discounts=False), {"camels": (1, 1), "gold": (6, 1)})
    st.hands[0] = [BUILD_NO_CAMELS, BUILD_NO_GOLD]
    play(st, "take camels")
    assert not any("build_no_camels build_no_gold" in c for c in GAME.legal_commands(st, 0))
    with pytest.raises(MoveError) as refused:
        play(st, "play build_no_camels build_no_gold hoist")
    assert "combine_discounts is off" in str(refused.value)


def test_hoist_extra_cube_may_be_left_out():
    st = set_tower(new_game(3), {"camels": (2, 3), "vases": (5, 1), "gold": (6, 2)})
    st.built[0] |= 1 << HOIST
    out = play(st, "deliver vases")
    assert st.phase == P_PLACE and st.place_left == 2 and "stop" not in GAME.legal_commands(st, 0)
    assert "may be left out" in out.public[0]
    play(st, "place vase3 E3")
    assert st.phase == P_PLACE and GAME.legal_commands(st, 0)[-1] == "stop"
    out = play(st, "stop")
    assert st.phase != P_PLACE and st.souk_n[SOUK_INDEX["vase3"]] == 1
    assert "Ann stops placing: 1 cube goes back to the supply by choice." in out.public[0]


def test_hoist_optional_off_places_the_extra_cube_like_any_other():
    st = set_tower(new_game(3, hoist_optional=False), {"camels": (2, 3), "vases": (5, 1), "gold": (6, 2)})
    st.built[0] |= 1 << HOIST
    play(st, "deliver vases")
    assert "stop" not in GAME.legal_commands(st, 0)


def test_stop_with_must_place_all_off_is_reported_as_the_players_choice():
    st = set_tower(new_game(3, must_place_all=False), {"camels": (2, 3), "sacks": (3, 2), "gold": (6, 2)})
    play(st, "deliver sacks")
    out = play(st, "stop")
    assert "Ann stops placing: 2 cubes go back to the supply by choice." in out.public[0]
    assert "cannot be placed" not in out.public[0]


def test_delivery_status_says_place_1_cube_before_any_is_placed_and_1_more_after():
    st = set_tower(new_game(3), {"camels": (2, 3), "sacks": (3, 2), "gold": (6, 2)})
    out = play(st, "deliver sacks")
    assert (
        "Ann delivers 2 cubes to Sacks." in out.public[0]
        and "place 2 cubes in souks of Sacks, one at a time, e.g. place sack" in out.public[0]
    )
    out = play(st, "place sack5")
    assert "place 1 more cube in a souk of Sacks, e.g. place sack" in out.public[0]
    st = set_tower(new_game(3), {"camels": (2, 3), "sacks": (3, 1), "gold": (6, 2)})
    out = play(st, "deliver sacks")
    assert (
        "Ann delivers 1 cube to Sacks." in out.public[0]
        and "place 1 cube in a souk of Sacks, e.g. place sack" in out.public[0]
    )
    assert "more" not in out.public[0]


def _caravanserai_mover_with_two_cubes_at_s1(hand: list[int]) -> object:
    """Ann owns the caravanserai, has no camels, and two of her cubes touch S1; the next card is camels3."""
    st = set_tower(new_game(3), {"camels": (1, 3), "gold": (6, 1)})
    st.built[0] |= 1 << CARAVANSERAI
    put(st, 0, "sack3 W1", "barrel2 E1")
    st.hands[0] = list(hand)
    st.pile.remove(CAMELS3)
    st.pile.append(CAMELS3)
    return st


def test_card_from_the_caravanserai_can_pay_for_the_next_cubes_protection():
    st = _caravanserai_mover_with_two_cubes_at_s1([])
    play(st, "move 1 south")
    assert st.phase == P_PROTECT and st.hands[0] == [CAMELS3]
    commands = GAME.legal_commands(st, 0)
    assert commands == ["let go", "play camels3"]
    play(st, "play camels3")
    assert st.phase == P_PROTECT and st.camels[0] == 3 and "protect" in GAME.legal_commands(st, 0)
    play(st, "protect")
    assert st.camels[0] == 2 and st.shop[shop_of("barrel2 E1")] == 0 and st.shop[shop_of("sack3 W1")] < 0


def test_cards_stay_closed_when_the_cube_at_stake_is_another_players():
    st = set_tower(new_game(3), {"camels": (1, 3), "gold": (6, 1)})
    put(st, 1, "sack3 W1")
    st.hands[1] = [CAMELS3]
    play(st, "move 1 south")
    assert st.phase != P_PROTECT and st.shop[shop_of("sack3 W1")] < 0 and st.hands[1] == [CAMELS3]


def test_rules_cover_two_and_four_players_and_list_every_option():
    text = GAME.rules_summary
    assert "then the other, then the start player again" in text and "build NAME with V" in text
    assert "Yellow dice stay on the tower all day" in text
    assert "last day of week 3: the lowest score starts" in text
    for option in GAME.options:
        assert f"{option.name}=" in text
    assert "build-without-camels build-without-gold NAME" in GAME.command_help and "stop" in GAME.command_help


def test_readme_lists_the_moments_cards_stay_closed():

    readme = (REPO_ROOT / "plugins" / "yspahan" / "README.md").read_text()
    assert "Card timing" in readme and "closed" in readme


@pytest.mark.parametrize("k", [0, 1, 2])
def test_every_yspahan_count_reads_right_for_0_1_and_2(k):
    st = set_tower(new_game(3), {"camels": (1, k or 1), "sacks": (2, max(k, 1)), "gold": (6, 1)})
    st.camels[0] = st.score[0] = k
    st.hands[0] = [GOLD3] * k
    st.pile = st.pile[:k]
    texts = [GAME.board(st), GAME.private_view(st, 0), GAME.brief_moves(st, 0)]
    out = play(st, "deliver sacks") if k else play(st, "take camels")
    texts += out.public
    if st.phase == P_PLACE:
        texts += play(st, GAME.legal_commands(st, 0)[0]).public
    st2 = set_tower(new_game(3), {"camels": (1, 3), "gold": (6, 1)})
    st2.camels[0] = 2
    texts += play(st2, "take camels").public + play(st2, "build paddock").public
    assert st2.built[0] >> PADDOCK & 1
    st3 = new_game(3)
    st3.gold[0] = 3
    texts += play(st3, f"yellow {k}").public
    st4 = set_tower(new_game(3), {"camels": (max(k, 1), 1), "gold": (6, 1)})
    texts += play(st4, f"move {k} west" if k else "move 1 -1").public
    for text in texts:
        assert not count_problems(text), (text, count_problems(text))


def test_yspahan_random_games_never_show_a_miscounted_noun():
    for seed in range(3):
        for n in (2, 3, 4):
            st = GAME.setup(["Ann", "Bob", "Cid", "Dee"][:n], random.Random(seed), {})
            for seat, out in random_play(GAME, st, random.Random(seed), 400):
                for text in [
                    *out.public,
                    *(t for lines in out.private.values() for t in lines),
                    GAME.board(st),
                ]:
                    assert not count_problems(text), (text, count_problems(text))
                assert not count_problems(GAME.private_view(st, seat))


def test_protection_question_without_a_camel_offers_the_cards_and_names_the_owner():
    st = _caravanserai_mover_with_two_cubes_at_s1([])
    out = play(st, "move 1 south")
    assert "Ann: your cube in barrel2 is leaving - play a card first, or let go." in out.public[-1]
    with pytest.raises(MoveError) as refused:
        play(st, "protect")
    assert "no camel to pay; play a card for one first" in str(refused.value)


def test_protection_question_is_asked_of_a_mover_holding_any_card_so_it_tells_nothing():
    st = set_tower(new_game(3), {"camels": (1, 3), "gold": (6, 1)})
    put(st, 0, "sack3 W1")
    st.hands[0] = [GOLD3]
    play(st, "move 1 south")
    assert st.phase == P_PROTECT and GAME.legal_commands(st, 0) == ["let go", "play gold3"]


def test_protection_status_of_a_mover_with_cards_says_cards_may_go_first():
    st = set_tower(new_game(3), {"camels": (1, 3), "gold": (6, 1)})
    put(st, 0, "sack3 W1")
    st.hands[0] = [GOLD3]
    st.camels[0] = 1
    out = play(st, "move 1 south")
    assert out.public[-1].endswith("protect or let go (cards may go first).")
    assert "play gold3" in GAME.brief_moves(st, 0)


def test_the_status_line_names_the_towers_fields_in_its_readers_language():
    """Built for an English room, the prompt ``(tower: camels 2x1, ...)`` reads ``kamele 2x1`` to a
    German reader and ``camellos 2x1`` to a Spanish one (the web page gives every tab its own copy)."""
    st = set_tower(new_game(3), {"camels": (1, 2), "sacks": (2, 1), "gold": (6, 1)})
    line = status(st)
    assert "camels 2x1" in line
    german, spanish = localized(line, "de"), localized(line, "es")
    assert "kamele 2x1" in german and "camels" not in german and "sacks" not in german, german
    assert "camellos 2x1" in spanish and "camels" not in spanish and "sacks" not in spanish, spanish
