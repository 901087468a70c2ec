"""Yspahan's fixed parts: the tower assignment (rules 4.2), the road and the souks (rules 12)."""

from __future__ import annotations

import random

import pytest

from plugins.yspahan import board as B
from plugins.yspahan.rules import assign_tower
from plugins.yspahan.scenario import new_game, play


def tower(roll: list[int], yellow: int = 0) -> list[tuple[int, int]]:
    """(count, value) per field, bottom to top; yellow = how many of the last dice are yellow."""
    flags = [i >= len(roll) - yellow for i in range(len(roll))]
    tv, tw, ty = assign_tower(roll, flags)
    return [(tw[f] + ty[f], tv[f]) for f in range(6)]


@pytest.mark.parametrize(
    ("roll", "expected"),
    [
        ([1, 1, 1, 2, 2, 3, 3, 3, 6], [(3, 1), (2, 2), (3, 3), (0, 0), (0, 0), (1, 6)]),
        ([2, 2, 2, 2, 5, 5, 5, 5, 5], [(4, 2), (0, 0), (0, 0), (0, 0), (0, 0), (5, 5)]),
        ([1, 2, 3, 4, 5, 6, 6, 6, 6], [(1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (4, 6)]),
        ([4, 4, 4, 4, 4, 4, 4, 4, 4], [(9, 4), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0)]),
    ],
)
def test_tower_assignment_examples(roll, expected):
    assert tower(roll) == expected


def test_tower_highest_value_always_on_gold_and_vases_empty_first():
    assert tower([3, 3, 4, 5, 5, 6, 6, 6, 6]) == [(2, 3), (1, 4), (2, 5), (0, 0), (0, 0), (4, 6)]


def test_vase_field_filled_only_when_all_six_values_appear():
    rng = random.Random(7)
    for _ in range(500):
        roll = [rng.randint(1, 6) for _ in range(9)]
        assert (tower(roll)[B.VASES][0] > 0) == (len(set(roll)) == 6)


def test_yellow_dice_sorted_like_white_dice():
    tv, tw, ty = assign_tower([1, 1, 2, 6, 6, 6, 6, 6, 6, 1, 2], [False] * 9 + [True, True])
    assert (tv[B.CAMELS], tw[B.CAMELS], ty[B.CAMELS]) == (1, 2, 1)
    assert (tv[B.SACKS], tw[B.SACKS], ty[B.SACKS]) == (2, 1, 1)
    assert (tv[B.GOLD], tw[B.GOLD], ty[B.GOLD]) == (6, 6, 0)


def test_roll_uses_nine_white_dice_plus_bought_yellow():
    st = new_game(3)
    play(st, "yellow 2")
    assert sum(st.tower_w) == 9 and sum(st.tower_y) == 2
    assert st.gold[0] == 0


def test_two_players_roll_eight_white_dice():
    st = new_game(2)
    play(st, "roll")
    assert sum(st.tower_w) == 8 and sum(st.tower_y) == 0


def test_road_has_29_spaces_in_a_cross():
    assert B.N_SPACES == 29
    assert [len(a) for a in B.ARM_SPACES] == [10, 7, 4, 7]
    assert B.SPACE_NAMES[B.ARM_SPACES[0][-1]] == "W10"


def test_city_has_14_souks_and_47_shops():
    assert B.N_SOUKS == 14 and B.N_SHOPS == 47
    per_nb = [sum(B.SOUK_SIZE[s] for s in B.NB_SOUKS[nb]) for nb in range(4)]
    assert per_nb == [18, 14, 9, 6]
    assert sum(1 for sh in range(B.N_SHOPS) if not B.SHOP_INTERIOR[sh]) == 27


@pytest.mark.parametrize(
    ("souk", "points"),
    [("sack3", 3), ("sack6", 8), ("barrel2", 3), ("barrel5", 8), ("chest2", 4), ("chest4", 8), ("vase3", 12)],
)
def test_souk_points(souk, points):
    assert B.SOUK_POINTS[B.SOUK_INDEX[souk]] == points


def test_every_space_but_the_crossing_touches_shops_and_two_touch_two():
    counts = {B.SPACE_NAMES[sp]: len(B.SPACE_SHOPS[sp]) for sp in range(B.N_SPACES)}
    assert counts.pop("X") == 0
    assert {name for name, k in counts.items() if k == 2} == {"E1", "S1"}
    assert all(k >= 1 for k in counts.values())


def test_double_spaces_touch_the_listed_shops():
    e1 = {B.shop_label(sh) for sh in B.SPACE_SHOPS[B.SPACE_INDEX["e1"]]}
    s1 = {B.shop_label(sh) for sh in B.SPACE_SHOPS[B.SPACE_INDEX["s1"]]}
    assert e1 == {"barrel2 E1", "vase1 E1"}
    assert s1 == {"sack3 W1", "barrel2 E1"}


def test_walk_stops_at_the_end_of_an_arm():
    w8 = B.SPACE_INDEX["w8"]
    assert B.walk(w8, 0, 2) == B.SPACE_INDEX["w10"]
    assert B.walk(w8, 0, 3) is None


def test_walk_through_the_crossing_straight_or_turning():
    w2 = B.SPACE_INDEX["w2"]
    assert B.walk(w2, 1, 4) == B.SPACE_INDEX["e2"]
    assert B.walk(w2, 1, 4, turn=2) == B.SPACE_INDEX["n2"]
    assert B.walk(w2, 1, 4, turn=0) is None  # no turning back


def test_distances_are_path_lengths():
    assert B.DIST[B.SPACE_INDEX["w10"]][B.SPACE_INDEX["e7"]] == 17
    assert B.DIST[B.SPACE_INDEX["n4"]][B.SPACE_INDEX["s7"]] == 11
    assert B.DIST[B.CROSSING][B.CROSSING] == 0
