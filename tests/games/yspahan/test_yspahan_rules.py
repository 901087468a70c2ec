"""Yspahan rules, one test per rule a player could trip over (rules reference sections 2-11)."""

from __future__ import annotations

import pytest
from support.plugin_moves import Moves

from bazaarbot.plugin import MoveError
from plugins.yspahan import GAME
from plugins.yspahan import rules as R
from plugins.yspahan.board import CROSSING, SOUK_INDEX, SPACE_INDEX
from plugins.yspahan.cards import (
    BAZAAR,
    BUILD_NO_CAMELS,
    BUILD_NO_GOLD,
    CAMELS3,
    CAMELS_FOR_VP,
    CARAVAN_CUBE,
    CARAVANSERAI,
    CARD_IDS,
    CUBE_SUPPLY_LIMIT,
    EXCHANGE,
    GOLD3,
    GOLD_FOR_VP,
    GOODS_SUPPLY_LIMIT,
    HAMMAM,
    HOIST,
    PADDOCK,
    SHOP,
    SOUK_CUBE,
)
from plugins.yspahan.scenario import fill, new_game, play, put, set_tower, settle, shop_of
from plugins.yspahan.state import P_ACTION, P_BUILD, P_END, P_ORDER, P_PLACE, P_PROTECT, P_ROLL

refused = Moves(GAME).refused


def cmds(st, seat=None) -> list[str]:
    seat = GAME.to_act(st)[0] if seat is None else seat
    return GAME.legal_commands(st, seat)


def cubes(st, seat) -> int:
    return sum(1 for o in st.shop if o == seat)


def play_out_day(st) -> None:
    """Finish the current day with harmless choices (draws, done, let go)."""
    day, week = st.day, st.week
    while st.phase != P_END and (st.day, st.week) == (day, week):
        options = cmds(st)
        prefixes = ("roll", "draw", "done", "let go", "first", "place")
        pick = next((c for pre in prefixes for c in options if c.startswith(pre)), options[0])
        play(st, pick)


# --- setup ---------------------------------------------------------------------------------
def test_setup_gives_two_gold_no_camels_no_cards():
    st = new_game(4)
    assert st.gold == [2, 2, 2, 2] and st.camels == [0] * 4 and st.hands == [[]] * 4
    assert st.score == [0] * 4 and st.sup == CROSSING and (st.week, st.day) == (1, 1)


def test_deck_has_18_cards_nine_kinds_two_each():
    st = new_game(3)
    assert sorted(st.pile) == sorted(list(range(9)) * 2)
    assert len(CARD_IDS) == 9


def test_first_player_random_option_varies_and_first_option_is_seat_one():
    starts = {GAME.setup(["a", "b", "c", "d"], __import__("random").Random(s), {}).start for s in range(40)}
    assert starts == {0, 1, 2, 3}
    assert new_game(4, seed=5, first_player="first").start == 0


def test_two_to_four_players_only():
    with pytest.raises(ValueError):
        GAME.setup(["solo"], __import__("random").Random(1), {})
    with pytest.raises(ValueError):
        GAME.setup(list("abcde"), __import__("random").Random(1), {})


# --- yellow dice -----------------------------------------------------------------------------
def test_yellow_dice_cost_one_gold_each_at_most_three():
    st = new_game(3)
    assert cmds(st) == ["roll", "yellow 1", "yellow 2"]
    assert "1 gold each" in refused(st, "yellow 3")
    st.gold[0] = 9
    assert "0 to 3" in refused(st, "yellow 4")
    play(st, "yellow 3")
    assert st.gold[0] == 6 and sum(st.tower_y) == 3


def test_start_player_without_gold_or_cards_rolls_at_once():
    st = new_game(3)
    st.gold[0] = 0
    settle(st)
    assert st.phase == P_ACTION and sum(st.tower_w) == 9


def test_yellow_dice_count_for_the_start_player():
    st = set_tower(new_game(3), {"camels": (1, 2, 1), "gold": (6, 1)})
    play(st, "take camels")
    assert st.camels[0] == 3


def test_yellow_dice_leave_the_tower_after_the_start_players_action():
    st = set_tower(new_game(3), {"camels": (1, 0, 2), "sacks": (2, 2, 1), "gold": (6, 1)})
    play(st, "take gold")
    play(st, "done") if st.phase == P_BUILD else None
    assert st.cur == 1
    assert st.tower_v[0] == 0 and st.tower_w[1] == 2 and st.tower_y == [0] * 6
    assert "camels 2x" not in GAME.board(st)


def test_two_player_yellow_dice_stay_for_the_start_players_second_action():
    st = set_tower(new_game(2), {"camels": (1, 0, 2), "sacks": (2, 2, 1), "gold": (6, 2)}, seat=0)
    play(st, "take gold")
    assert st.cur == 1 and st.tower_y[0] == 2
    assert not any(c.endswith("camels") and c.startswith("take") for c in cmds(st))
    assert "yellow" in refused(st, "take camels")
    play(st, "deliver sacks")
    assert st.place_left == 2  # the yellow sack die does not count for the other player
    play(st, "place sack6")
    play(st, "place sack6")
    assert st.cur == 0 and st.turn == 2
    play(st, "take camels")
    assert st.camels[0] == 2


# --- the three field actions ------------------------------------------------------------------
def test_take_camels_counts_the_dice_and_paddock_adds_one():
    st = set_tower(new_game(3), {"camels": (2, 3), "gold": (6, 2)})
    play(st, "take camels")
    assert st.camels[0] == 3
    st = set_tower(new_game(3), {"camels": (2, 3), "gold": (6, 2)})
    st.built[0] |= 1 << PADDOCK
    play(st, "take camels")
    assert st.camels[0] == 4


def test_take_gold_with_the_shop_adds_two():
    st = set_tower(new_game(3), {"camels": (2, 3), "gold": (6, 2)})
    st.built[0] |= 1 << SHOP
    play(st, "take gold")
    assert st.gold[0] == 2 + 2 + 2


def test_deliver_places_one_cube_per_die_and_hoist_adds_one():
    st = set_tower(new_game(3, hoist_optional=False), {"camels": (2, 3), "vases": (5, 2), "gold": (6, 2)})
    st.built[0] |= 1 << HOIST
    play(st, "deliver vases")
    assert st.phase == P_PLACE and st.place_left == 3
    play(st, "place vase3 E3")
    assert cubes(st, 0) == 3 and st.souk_n[SOUK_INDEX["vase3"]] == 3  # the rest fills vase3 by itself


def test_deliver_refused_when_no_shop_is_open_but_the_dice_can_move_or_draw():
    st = set_tower(new_game(3), {"camels": (2, 3), "vases": (5, 1), "gold": (6, 2)})
    fill(st, 1, "vase1")
    put(st, 1, "vase2 N3")
    put(st, 2, "vase3 E3")
    assert "deliver vases" not in cmds(st)
    assert "No shop in Vases is open" in refused(st, "deliver vases")
    assert "draw 5" in cmds(st) and "move 5 west" in cmds(st)


def test_draw_takes_exactly_one_card_whatever_the_dice():
    st = set_tower(new_game(3), {"camels": (2, 5), "gold": (6, 2)})
    out = play(st, "draw 2")
    assert len(st.hands[0]) == 1 and len(st.pile) == 17 and st.tower_v[0] == 0
    assert CARD_IDS[st.hands[0][0]] in out.private[0][0]
    assert all(CARD_IDS[st.hands[0][0]] not in line for line in out.public)


def test_no_dice_left_the_player_draws_and_may_still_build():
    st = set_tower(new_game(3), {}, seat=1)
    st.camels[1] = 2
    settle(st)
    assert len(st.hands[1]) == 1 and st.phase == P_BUILD and st.cur == 1
    assert "build paddock" in cmds(st)


def test_empty_pile_reshuffles_the_discards():
    st = set_tower(new_game(3), {"camels": (2, 5), "gold": (6, 2)})
    st.discard, st.pile = st.pile[:2], []
    play(st, "draw 2")
    assert len(st.hands[0]) == 1 and len(st.pile) == 1 and st.discard == []


def test_reshuffle_option_off_draws_nothing_from_an_empty_pile():
    st = set_tower(new_game(3, reshuffle=False), {"camels": (2, 5), "gold": (6, 2)})
    st.discard, st.pile = st.pile[:2], []
    out = play(st, "draw 2")
    assert st.hands[0] == [] and len(st.discard) == 2 and "none is left" in " ".join(out.public)


def test_draw_with_pile_and_discards_empty_passes():
    st = set_tower(new_game(3), {"camels": (2, 5), "gold": (6, 2)})
    st.hands[2], st.pile = st.pile, []
    play(st, "draw 2")
    assert st.hands[0] == [] and st.tower_v[0] == 0


# --- placing cubes ---------------------------------------------------------------------------------
def test_inner_shops_are_one_choice_and_road_shops_are_named():
    st = set_tower(new_game(3), {"sacks": (2, 2), "gold": (6, 2)})
    play(st, "deliver sacks")
    options = cmds(st)
    expected = {"place sack5", "place sack5 W7", "place sack5 W5", "place sack3 W3", "place sack3 W1"}
    assert expected <= set(options)
    assert options.count("place sack5") == 1 and len(options) == 3 + 3 + 3 + 2


def test_a_shop_holds_at_most_one_cube():
    st = set_tower(new_game(3), {"sacks": (2, 1), "gold": (6, 2)})
    put(st, 0, "sack5 W7")
    play(st, "deliver sacks")
    assert "already holds a cube" in refused(st, "place sack5 W7")


def test_souk_with_another_players_cube_is_closed():
    st = set_tower(new_game(3), {"sacks": (2, 2), "gold": (6, 2)})
    put(st, 1, "sack6")
    play(st, "deliver sacks")
    assert not any(c.startswith("place sack6") for c in cmds(st))
    assert "holds Bob's cubes" in refused(st, "place sack6")


def test_own_unfinished_souk_must_be_filled_first():
    st = set_tower(new_game(3), {"sacks": (2, 1), "gold": (6, 2)})
    put(st, 0, "sack5", "sack5")
    play(st, "deliver sacks")
    assert set(cmds(st)) == {"place sack5", "place sack5 W7", "place sack5 W5"}
    assert "Finish your souk sack5" in refused(st, "place sack6")


def test_completing_a_souk_and_opening_another_in_one_action():
    st = set_tower(new_game(3), {"vases": (5, 2), "gold": (6, 2)})
    put(st, 0, "vase2 N3")
    play(st, "deliver vases")  # first cube completes vase2 by itself
    assert st.souk_n[SOUK_INDEX["vase2"]] == 2 and st.phase == P_PLACE
    play(st, "place vase1")
    assert st.souk_own[SOUK_INDEX["vase1"]] == 0


def test_cubes_that_cannot_be_placed_go_back_to_the_supply():
    st = set_tower(new_game(3), {"vases": (5, 3), "gold": (6, 2)})
    fill(st, 1, "vase3")
    fill(st, 1, "vase2")
    out = play(st, "deliver vases")
    assert cubes(st, 0) == 1 and "2 cubes cannot be placed" in " ".join(out.public)


def test_must_place_all_option_off_allows_stopping_early():
    st = set_tower(new_game(3, must_place_all=False), {"vases": (5, 3), "gold": (6, 2)})
    play(st, "deliver vases")
    assert "stop" in cmds(st)
    play(st, "place vase3 E3")
    play(st, "stop")
    assert cubes(st, 0) == 1 and st.phase != P_PLACE


def test_stop_refused_when_all_cubes_must_be_placed():
    st = set_tower(new_game(3), {"sacks": (2, 2), "gold": (6, 2)})
    play(st, "deliver sacks")
    assert "stop" not in cmds(st)
    assert "must place" in refused(st, "stop")


def test_souk_made_incomplete_by_the_supervisor_must_be_refilled_first():
    st = set_tower(new_game(3), {"gold": (3, 1), "sacks": (2, 1)})
    fill(st, 0, "sack3")
    play(st, "move 3 west")  # W3: Ann has no camels, her sack3 cube leaves
    assert st.souk_n[SOUK_INDEX["sack3"]] == 2
    set_tower(st, {"sacks": (2, 1), "camels": (1, 1)}, seat=0)
    play(st, "deliver sacks")
    assert st.shop[shop_of("sack3 W3")] == 0


# --- the supervisor --------------------------------------------------------------------------------
def test_move_distance_is_the_dice_value():
    st = set_tower(new_game(3), {"camels": (2, 1), "gold": (4, 1)})
    play(st, "move 4 west")
    assert st.sup == SPACE_INDEX["w4"] and st.gold[0] == 2


def test_each_gold_changes_the_distance_by_one():
    st = set_tower(new_game(3), {"camels": (2, 1), "gold": (4, 1)})
    assert "move 4 west +3" not in cmds(st)
    assert "3 gold" in refused(st, "move 4 west +3")
    play(st, "move 4 west +2")
    assert st.sup == SPACE_INDEX["w6"] and st.gold[0] == 0


def test_hammam_changes_up_to_three_for_free_and_more_for_gold():
    st = set_tower(new_game(3), {"camels": (2, 1), "gold": (4, 1)})
    st.built[0] |= 1 << HAMMAM
    st.gold[0] = 0
    assert "move 4 west +3" in cmds(st) and "move 4 -4" not in cmds(st)
    assert "hammam" in refused(st, "move 4 west +4")
    st.gold[0] = 1
    play(st, "move 4 west +4")
    assert st.sup == SPACE_INDEX["w8"] and st.gold[0] == 0


def test_move_of_zero_sends_the_adjacent_cubes():
    st = set_tower(new_game(3), {"camels": (2, 1), "gold": (4, 1)})
    st.sup = SPACE_INDEX["w3"]
    put(st, 1, "sack3 W3")
    play(st, "move 2 -2")
    assert st.sup == SPACE_INDEX["w3"] and st.caravan == [1] and st.shop[shop_of("sack3 W3")] == -1


def test_zero_move_option_off_keeps_the_cubes():
    st = set_tower(new_game(3, zero_move_sends=False), {"camels": (2, 1), "gold": (4, 1)})
    st.sup = SPACE_INDEX["w3"]
    put(st, 1, "sack3 W3")
    play(st, "move 2 -2")
    assert st.caravan == [] and st.shop[shop_of("sack3 W3")] == 1


def test_move_cannot_walk_past_a_dead_end():
    st = set_tower(new_game(3), {"camels": (3, 1), "gold": (4, 1)})
    st.sup = SPACE_INDEX["w8"]
    assert "move 3 west" not in cmds(st)
    assert "road ends" in refused(st, "move 3 west")
    assert "move 3 west -1" in cmds(st)


def test_move_may_turn_at_the_crossing():
    st = set_tower(new_game(3), {"camels": (4, 1), "gold": (6, 1)})
    st.sup = SPACE_INDEX["w2"]
    assert {"move 4 east", "move 4 east then north", "move 4 east then south"} <= set(cmds(st))
    play(st, "move 4 east then north")
    assert st.sup == SPACE_INDEX["n2"]


def test_turning_at_the_crossing_option_off():
    st = set_tower(new_game(3, turn_at_crossing=False), {"camels": (4, 1), "gold": (6, 1)})
    st.sup = SPACE_INDEX["w2"]
    assert "move 4 east then north" not in cmds(st)
    assert "may not turn" in refused(st, "move 4 east then north")


def test_move_never_turns_back_or_revisits():
    st = set_tower(new_game(3), {"camels": (4, 1), "gold": (6, 1)})
    st.sup = SPACE_INDEX["w3"]
    assert "turn back" in refused(st, "move 4 east then west")
    assert "only west or east" in refused(st, "move 4 north")
    assert "nowhere to turn" in refused(st, "move 4 west then north")


def test_move_by_destination():
    st = set_tower(new_game(3), {"camels": (4, 1), "gold": (6, 1)})
    play(st, "move 4 to S5 +1")
    assert st.sup == SPACE_INDEX["s5"] and st.gold[0] == 1


def test_double_space_the_mover_chooses_the_order():
    st = set_tower(new_game(3), {"camels": (1, 1), "gold": (6, 1)})
    put(st, 1, "barrel2 E1")
    put(st, 2, "vase1")
    play(st, "move 1 east")
    assert st.phase == P_ORDER and GAME.to_act(st) == [0]
    assert sorted(cmds(st)) == ["first barrel2", "first vase1"]
    play(st, "first vase1")
    assert st.caravan == [2, 1] and st.score[1:] == [2, 2]


def test_camel_protection_is_the_owners_choice_even_in_another_turn():
    st = set_tower(new_game(3), {"camels": (3, 1), "gold": (6, 1)})
    put(st, 1, "sack3 W3")
    st.camels[1] = 1
    play(st, "move 3 west")
    assert st.phase == P_PROTECT and GAME.to_act(st) == [1]
    assert cmds(st, 0) == [] and cmds(st, 1) == ["protect", "let go"]
    assert "Not your decision" in refused(st, "done", seat=0)
    play(st, "protect", seat=1)
    assert st.camels[1] == 0 and st.shop[shop_of("sack3 W3")] == 1 and st.caravan == [1] and st.score[1] == 2
    assert st.phase != P_PROTECT and st.queue == []


def test_letting_the_cube_go_keeps_the_camel():
    st = set_tower(new_game(3), {"camels": (3, 1), "gold": (6, 1)})
    put(st, 1, "sack3 W3")
    st.camels[1] = 2
    play(st, "move 3 west")
    play(st, "let go", seat=1)
    assert st.camels[1] == 2 and st.shop[shop_of("sack3 W3")] == -1 and st.caravan == [1]


def test_the_movers_own_cubes_go_to_the_caravan_too():
    st = set_tower(new_game(3), {"camels": (3, 1), "gold": (6, 1)})
    put(st, 0, "sack3 W3")
    play(st, "move 3 west")
    assert st.caravan == [0] and st.shop[shop_of("sack3 W3")] == -1


# --- the caravan --------------------------------------------------------------------------------
@pytest.mark.parametrize(("n", "cap"), [(2, 6), (3, 9), (4, 12)])
def test_caravan_size_by_player_count(n, cap):
    assert new_game(n).cap == cap


def test_caravan_arrival_points_by_row():
    st = new_game(4)
    gains = []
    for _ in range(11):
        before = st.score[0]
        R._to_caravan(st, 0, None)
        gains.append(st.score[0] - before)
    assert gains == [2, 2, 2, 2, 1, 1, 1, 1, 0, 0, 0]


def test_caravan_scoring_is_cubes_times_highest_row():
    st = new_game(4)
    st.caravan = [1, 0, 0, 1, 1, 1, 1, 1, 0]  # Ann on spaces 2, 3 and 9
    assert R.caravan_scores(st)[0] == 9
    assert R.caravan_scores(st)[2] == 0


def test_full_caravan_scores_clears_and_the_next_cube_starts_a_new_one():
    st = set_tower(new_game(3), {"camels": (1, 1), "gold": (6, 1)})
    st.caravan = [2] * 8
    put(st, 1, "barrel2 E1")
    put(st, 2, "vase1")
    play(st, "move 1 east")
    before = list(st.score)
    play(st, "first barrel2")
    # Bob's cube fills space 9 (0 points), all score: Bob 1 x 3, Cid 8 x 3; Cid's cube starts a new caravan
    assert st.score[1] - before[1] == 3 and st.score[2] - before[2] == 24 + 2
    assert st.caravan == [2]


def test_end_of_week_scores_the_caravan_without_clearing_it():
    st = new_game(3)
    st.caravan = [0, 1, 1, 0]
    R._end_week(st, None)
    assert st.caravan == [0, 1, 1, 0] and st.score == [4, 2, 0]


def test_caravanserai_draws_a_card_for_every_cube_sent_even_a_protected_one():
    st = set_tower(new_game(3), {"camels": (3, 1), "gold": (6, 1)})
    st.built[1] |= 1 << CARAVANSERAI
    put(st, 1, "sack3 W3")
    st.camels[1] = 1
    play(st, "move 3 west")
    out = play(st, "protect", seat=1)
    assert len(st.hands[1]) == 1 and 1 in out.private


@pytest.mark.parametrize(("option", "cards"), [(True, 1), (False, 0)])
def test_caravanserai_and_the_caravan_cube_card(option, cards):
    st = set_tower(new_game(3, caravanserai_card=option), {"camels": (3, 1), "gold": (6, 1)})
    st.built[0] |= 1 << CARAVANSERAI
    st.hands[0] = [CARAVAN_CUBE]
    st.pile.remove(CARAVAN_CUBE)
    play(st, "play caravan_cube")
    assert st.caravan == [0] and st.score[0] == 2 and len(st.hands[0]) == cards


# --- buildings ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "camels", "gold"),
    [
        ("paddock", 2, 0),
        ("shop", 2, 2),
        ("hammam", 2, 2),
        ("caravanserai", 3, 3),
        ("bazaar", 4, 4),
        ("hoist", 4, 4),
    ],
)
def test_building_costs(name, camels, gold):
    st = set_tower(new_game(3), {"camels": (1, 1), "gold": (6, 1)})
    st.camels[0], st.gold[0] = 10, 10
    play(st, "draw 1")
    play(st, f"build {name}")
    assert (st.camels[0], st.gold[0]) == (10 - camels, 10 - gold)


def test_buildings_score_0_0_5_5_5_10_in_order_of_building():
    st = set_tower(new_game(3), {"camels": (1, 1), "gold": (6, 1)})
    st.camels[0], st.gold[0] = 30, 30
    play(st, "draw 1")
    scores = []
    for name in ("hoist", "paddock", "bazaar", "shop", "caravanserai", "hammam"):
        st.phase, st.built_turn, st.cur = P_BUILD, 0, 0
        play(st, f"build {name}")
        scores.append(st.score[0])
    assert scores == [0, 0, 5, 10, 15, 25]


def test_build_only_after_the_main_action_and_once_per_turn():
    st = set_tower(new_game(3), {"camels": (1, 1), "gold": (6, 1)})
    st.camels[0], st.gold[0] = 10, 10
    assert "after your main action" in refused(st, "build paddock")
    play(st, "draw 1")
    play(st, "build paddock")
    assert "one building per turn" in refused(st, "build shop")
    assert st.phase == P_BUILD


def test_each_building_only_once_per_game():
    st = set_tower(new_game(3), {"camels": (1, 1), "gold": (6, 1)})
    st.camels[0] = 10
    st.built[0] |= 1 << PADDOCK
    play(st, "draw 1")
    assert "build paddock" not in cmds(st)
    assert "already have the paddock" in refused(st, "build paddock")


def test_building_refused_without_the_goods():
    st = set_tower(new_game(3), {"camels": (1, 1), "gold": (6, 1)})
    st.camels[0] = 3
    st.hands[0] = [GOLD3]
    play(st, "draw 1")
    assert "costs 4 camels and 4 gold" in refused(st, "build hoist")


def test_two_player_building_costs_a_dice_group_and_start_can_build_twice():
    st = set_tower(new_game(2), {"camels": (1, 1), "sacks": (3, 2), "gold": (6, 2)}, seat=0)
    st.camels[0], st.gold[0] = 10, 10
    with pytest.raises(MoveError, match="with V"):
        GAME.parse(st, 0, "build paddock")
    play(st, "build paddock with 1")
    assert st.tower_v[0] == 0 and st.built[0] & 1 << PADDOCK and st.cur == 1
    play(st, "draw 3")
    if st.cur == 1:
        play(st, "done")
    play(st, "build shop with gold")
    assert st.built[0] & 1 << SHOP and st.nbuilt[0] == 2


def test_bazaar_adds_two_per_completed_souk_at_the_end_of_the_week():
    st = new_game(3)
    st.built[0] |= 1 << BAZAAR
    fill(st, 0, "vase1")
    fill(st, 0, "sack3")
    put(st, 0, "vase3 E3")
    fill(st, 1, "chest2")
    R._end_week(st, None)
    assert st.score[0] == 4 + 3 + 2 + 2 and st.score[1] == 4
    assert all(o < 0 for o in st.shop) and st.sup == CROSSING


# --- cards --------------------------------------------------------------------------------------------
def holding(*kinds, n=3, tower=None):
    st = set_tower(new_game(n), tower or {"camels": (1, 1), "sacks": (2, 1), "gold": (6, 1)})
    for k in kinds:
        st.pile.remove(k)
        st.hands[0].append(k)
    return st


def test_camels3_and_gold3():
    st = holding(CAMELS3, GOLD3)
    play(st, "play camels3")
    play(st, "play gold3")
    assert st.camels[0] == 3 and st.gold[0] == 5 and sorted(st.discard) == [CAMELS3, GOLD3]


def test_gold_for_vp_pays_up_to_ten_gold():
    st = holding(GOLD_FOR_VP)
    st.gold[0] = 12
    assert "at most 10" in refused(st, "play gold_for_vp 11")
    play(st, "play gold_for_vp 10")
    assert st.gold[0] == 2 and st.score[0] == 10 and st.log[0] == [[10, "card gold_for_vp"]]


def test_camels_for_vp_pays_up_to_four_camels_two_points_each():
    st = holding(CAMELS_FOR_VP)
    st.camels[0] = 5
    assert "at most 4" in refused(st, "play camels_for_vp 5")
    play(st, "play camels_for_vp 4")
    assert st.camels[0] == 1 and st.score[0] == 8


def test_exchange_swaps_camels_and_gold_both_ways():
    st = holding(EXCHANGE, EXCHANGE)
    st.camels[0] = 3
    play(st, "play exchange 2 gold for camels")
    assert (st.gold[0], st.camels[0]) == (0, 5)
    play(st, "play exchange 4 camels")
    assert (st.gold[0], st.camels[0]) == (4, 1)


def test_exchange_refuses_more_than_you_have():
    st = holding(EXCHANGE)
    assert "1 to 2" in refused(st, "play exchange 3 gold")


def test_souk_cube_goes_to_any_neighbourhood_under_the_placement_rules():
    st = holding(SOUK_CUBE, SOUK_CUBE)
    put(st, 1, "vase3 E3")
    put(st, 0, "chest4")
    assert "holds Bob's cubes" in refused(st, "play souk_cube vase3 E5")
    assert "Finish your souk chest4" in refused(st, "play souk_cube chest2 W4")
    play(st, "play souk_cube vase1")
    play(st, "play souk_cube chest4 N2")
    assert st.shop[shop_of("vase1")] == 0 and st.shop[shop_of("chest4 N2")] == 0


def test_build_discount_cards_skip_camels_or_gold():
    st = holding(BUILD_NO_CAMELS, BUILD_NO_GOLD)
    st.camels[0], st.gold[0] = 0, 4
    play(st, "draw 1")
    play(st, "play build_no_camels bazaar")
    assert st.built[0] & 1 << BAZAAR and (st.camels[0], st.gold[0]) == (0, 0)
    st.phase, st.built_turn, st.camels[0], st.cur = P_BUILD, 0, 2, 0
    play(st, "play build_no_gold shop")
    assert st.built[0] & 1 << SHOP and st.camels[0] == 0 and sorted(st.discard) == [2, 3]


def test_discount_card_is_played_only_while_building():
    st = holding(BUILD_NO_CAMELS)
    st.gold[0] = 4
    with pytest.raises(MoveError, match="what to build"):
        GAME.parse(st, 0, "play build_no_camels")
    assert "after your main action" in refused(st, "play build_no_camels bazaar")


def test_cards_can_be_played_before_rolling():
    st = new_game(3)
    st.hands[0] = [st.pile.pop(st.pile.index(GOLD3))]
    assert st.phase == P_ROLL and "play gold3" in cmds(st)
    play(st, "play gold3")
    assert st.phase == P_ROLL and "yellow 3" in cmds(st)


def test_cards_can_be_played_after_building():
    st = holding(GOLD3)
    st.camels[0] = 2
    play(st, "draw 1")
    play(st, "build paddock")
    assert st.phase == P_BUILD and "play gold3" in cmds(st)
    play(st, "play gold3")
    play(st, "done")
    assert st.cur == 1


def test_cards_are_never_played_in_another_players_turn():
    st = holding()
    st.hands[1] = [st.pile.pop(st.pile.index(GOLD3))]
    assert cmds(st, 1) == []
    assert "Not your decision" in refused(st, "play gold3", seat=1)


def test_extra_die_adds_a_camel_gold_or_cube():
    for field, check in (("camels", lambda s: s.camels[0] == 2), ("gold", lambda s: s.gold[0] == 4)):
        st = holding(GOLD3)
        play(st, "extra gold3")
        play(st, f"take {field}")
        assert check(st) and st.discard == [GOLD3]
    st = holding(GOLD3)
    play(st, "extra gold3")
    play(st, "deliver sacks")
    play(st, "place sack6")
    play(st, "place sack6")
    assert cubes(st, 0) == 2


def test_extra_die_only_for_take_or_deliver_and_one_per_action():
    st = holding(GOLD3, CAMELS3)
    play(st, "extra camels3")
    assert set(cmds(st)) == {"take camels", "deliver sacks", "take gold"}
    assert "extra die only works" in refused(st, "draw 6")
    assert "extra die only works" in refused(st, "move 6 west")
    assert "boosted action first" in refused(st, "extra gold3")


def test_hoist_does_not_add_a_cube_to_the_souk_cube_card():
    st = holding(SOUK_CUBE)
    st.built[0] |= 1 << HOIST
    play(st, "play souk_cube vase3 E3")
    assert cubes(st, 0) == 1 and st.phase == P_ACTION


def test_cube_supply_is_unlimited():
    assert CUBE_SUPPLY_LIMIT is None
    st = set_tower(new_game(3), {"sacks": (2, 6), "camels": (1, 1)})
    for souk in (
        "barrel2",
        "barrel3",
        "barrel4",
        "barrel5",
        "chest2",
        "chest3",
        "chest4",
        "vase1",
        "vase2",
        "vase3",
    ):
        fill(st, 0, souk)
    st.caravan = [0] * 8
    play(st, "deliver sacks")
    play(st, "place sack6")
    assert cubes(st, 0) == 29 + 6


def test_camels_and_gold_supplies_are_unlimited():
    assert GOODS_SUPPLY_LIMIT is None
    st = set_tower(new_game(3), {"camels": (1, 9), "gold": (6, 3)})
    st.camels[0], st.gold[1] = 40, 40
    play(st, "take camels")
    assert st.camels[0] == 49


def test_no_hand_limit():
    st = holding(*range(9), *range(8))
    play(st, "draw 6")
    assert len(st.hands[0]) == 18


# --- days, weeks, the end ---------------------------------------------------------------------------
def test_dice_left_on_the_tower_are_removed_at_the_end_of_the_day():
    st = set_tower(
        new_game(3), {"camels": (1, 3), "sacks": (2, 2), "barrels": (3, 1), "gold": (6, 2)}, seat=2
    )
    play(st, "draw 6")
    if st.phase == P_BUILD:
        play(st, "done")
    assert st.day == 2 and st.phase == P_ROLL and st.tower_w == [0] * 6 and st.tower_v == [0] * 6


def test_start_player_passes_left_every_day_and_across_weeks():
    st = new_game(3)
    starts = []
    st.day = 6
    for _ in range(3):
        starts.append((st.week, st.day, st.start))
        play_out_day(st)
    assert starts == [(1, 6, 0), (1, 7, 1), (2, 1, 2)]
    assert st.start == 0 and st.sup == CROSSING


def test_each_player_takes_one_turn_a_day_in_seat_order():
    st = new_game(4)
    st.start = 2
    R._start_day(st, None)
    assert st.order == [2, 3, 0, 1]


def test_end_of_week_scores_completed_souks_only_and_empties_the_city():
    st = new_game(3)
    fill(st, 0, "vase3")
    put(st, 1, "sack6", "sack6")
    fill(st, 2, "barrel2")
    R._end_week(st, None)
    assert st.score == [12, 0, 3] and st.week == 2 and all(o < 0 for o in st.shop)


def test_game_ends_after_the_third_week():
    st = new_game(3)
    st.week, st.day = 3, 7
    play_out_day(st)
    assert st.phase == P_END and GAME.to_act(st) == [] and GAME.result(st) is not None


def test_tie_is_a_shared_victory():
    st = new_game(3)
    st.week, st.day = 3, 7
    st.score, st.log = [5, 5, 3], [[[5, "test"]], [[5, "test"]], [[3, "test"]]]
    play_out_day(st)
    res = GAME.result(st)
    assert res.winners == [0, 1] and res.ranking == [[0, 1], [2]]


def test_four_player_last_day_lowest_score_first_ties_by_seat_from_day_six_start():
    st = new_game(4)
    st.week, st.day, st.start = 3, 6, 1
    R._start_day(st, None)
    st.score = [10, 5, 10, 3]
    play_out_day(st)
    # Dee lowest, then Bob; Ann and Cid tie: Ann sits furthest clockwise from Bob (day 6 start)
    assert st.order == [3, 1, 0, 2] and st.start == 3 and st.day == 7


def test_three_player_last_day_keeps_the_usual_order():
    st = new_game(3)
    st.week, st.day, st.start = 3, 6, 1
    st.score = [10, 5, 1]
    play_out_day(st)
    assert st.order == [2, 0, 1]


def test_two_player_day_start_acts_twice_and_the_start_alternates():
    st = new_game(2)
    assert st.order == [0, 1, 0]
    play_out_day(st)
    assert st.order == [1, 0, 1] and st.start == 1


@pytest.mark.parametrize(("scores", "start"), [([9, 4], 1), ([4, 9], 0), ([5, 5], 1)])
def test_two_player_last_day_lower_score_starts_tie_keeps_alternation(scores, start):
    st = new_game(2)
    st.week, st.day, st.start = 3, 6, 0
    st.score = list(scores)
    play_out_day(st)
    assert st.start == start and st.order == [start, 1 - start, start]


def test_score_log_records_every_scoring_event():
    st = new_game(3)
    fill(st, 0, "vase1")
    st.caravan = [0]
    R._end_week(st, None)
    assert st.log[0] == [[4, "souk vase1"], [1, "caravan week"]]
    assert sum(p for p, _ in st.log[0]) == st.score[0]
