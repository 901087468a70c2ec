"""The rules of §9, one test per rule a player could trip over (named after the §9.10 checklist)."""

from __future__ import annotations

import random

import pytest
from support.plugin_moves import Moves

from plugins.bazaar import GAME
from plugins.bazaar import rules as R
from plugins.bazaar.colours import BLUE, GREEN, RED, WHITE, YELLOW
from plugins.bazaar.exchange import FIXED_TABLE
from plugins.bazaar.scenario import build_state, stones_of
from plugins.bazaar.state import ACTION, BUY, DISCARD, JOKER, OVER

play, refused = Moves(GAME).play, Moves(GAME).refused


def force_draw(state, face):
    """Make the next die roll show ``face`` (0-4 a colour, 5 the joker)."""
    for seed in range(10_000):
        rng = random.Random(seed)
        if int(rng.random() * R.DIE_FACES) == face:
            state.rng = random.Random(seed)
            return
    raise AssertionError


# --- setup ------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_one_to_six_players_start_with_nothing(n):
    s = GAME.setup([f"p{i}" for i in range(n)], random.Random(n), {})
    assert s.hands == [[0] * 5 for _ in range(n)]
    assert s.scores == [0] * n
    assert [len(f) for f in s.fields] == [6, 6, 6, 6]
    assert GAME.to_act(s) == [0]


@pytest.mark.parametrize("n", [0, 7])
def test_zero_or_seven_players_are_refused(n):
    with pytest.raises(ValueError):
        GAME.setup([f"p{i}" for i in range(n)], random.Random(1), {})


def test_start_player_is_seat_1_then_seat_order():
    assert R.START_SEAT == 0
    s = GAME.setup(["a", "b", "c"], random.Random(3), {"auto_pass": False})
    order = []
    for _ in range(6):
        order.append(s.turn)
        force_draw(s, RED)
        play(s, "draw")
        play(s, "pass")
    assert order == [0, 1, 2, 0, 1, 2]


def test_classic_options_are_off_by_default():
    defaults = {o.name: o.default for o in GAME.options}
    assert defaults == {
        "table": "generated",
        "quality_gate": False,
        "hand_limit": False,
        "bank": False,
        "auto_pass": True,
        "leavers": "ai",
    }
    s = GAME.setup(["a", "b"], random.Random(1), {})
    assert s.hand_limit == 0 and s.bank is None


def test_five_colours_and_unlimited_supply_by_default():
    s = build_state(hands=["", ""])
    for _ in range(200):
        R.do_draw(s)
        if s.phase == JOKER:
            R.do_joker(s, WHITE)
        s.phase = ACTION
    assert sum(s.hands[0]) == 200


# --- the draw ----------------------------------------------------------------------


def test_draw_is_the_die_one_sixth_each_colour_and_one_sixth_joker():
    s = build_state(hands=["", ""])
    s.rng = random.Random(12345)
    counts = [0] * 6
    n = 60_000
    for _ in range(n):
        s.phase = ACTION
        face = R.do_draw(s)
        counts[face] += 1
    for c in counts:
        assert abs(c / n - 1 / 6) < 0.01


def test_joker_choice_must_come_before_anything_else():
    s = build_state(hands=["2 green", ""], tops=["2 green red blue white"])
    force_draw(s, R.JOKER_FACE)
    out = play(s, "draw")
    assert s.phase == JOKER
    assert "joker" in out.public[0]
    assert "joker" in out.public[-1]
    for text in ("pass", "buy 1", "trade 1", "draw"):
        assert "joker" in refused(s, text)
    play(s, "red")
    assert s.hands[0][RED] == 1 and s.phase == BUY


@pytest.mark.parametrize(
    "word", ["joker yellow", "joker gelb", "gelb", "yellow", "joker ge", "wahl gelb", "joker y"]
)
def test_joker_takes_a_free_choice_of_colour(word):
    s = build_state(hands=["", ""], phase=JOKER)
    play(s, word)
    assert s.hands[0] == [0, 0, 0, 0, 1]
    assert s.drawn[0] == 1


# --- one action per turn; first action is a draw --------------------------------------


def test_first_action_of_each_player_is_a_draw():
    s = build_state(hands=["red", "red"], acted=False)
    msg = refused(s, "trade 1")
    assert "first move" in msg and "draw" in msg
    assert GAME.legal_commands(s, 0) == ["draw"]
    force_draw(s, GREEN)
    play(s, "draw")
    play(s, "pass")
    assert "first move" in refused(s, "trade 1")
    force_draw(s, GREEN)
    play(s, "draw")
    play(s, "pass")
    assert "trade 1" in GAME.legal_commands(s, 0)


def test_one_action_per_turn_no_trade_after_a_draw():
    s = build_state(hands=["red", ""])
    force_draw(s, RED)
    play(s, "draw")
    assert "one action" in refused(s, "trade 1").lower()
    assert "already" in refused(s, "draw")


def test_one_action_per_turn_no_second_trade():
    s = build_state(hands=["2 red", ""])
    play(s, "trade 1")
    assert s.hands[0] == [0, 2, 1, 0, 0]
    assert "one action" in refused(s, "trade 1").lower()
    assert "one action" in refused(s, "trade 1 back").lower()


def test_pass_without_an_action_is_refused():
    s = build_state(hands=["red", ""])
    assert "draw or trade" in refused(s, "pass")


def test_a_player_with_no_stones_can_only_draw():
    s = build_state(hands=["", ""])
    assert GAME.legal_commands(s, 0) == ["draw"]


# --- trades ----------------------------------------------------------------------------


def test_trade_forward_gives_the_left_side_and_receives_the_right():
    s = build_state(hands=["red blue", ""])  # row 1: 1 red = 2 green
    play(s, "trade 1")
    assert s.hands[0] == [1, 2, 0, 0, 0]
    assert (s.given[0], s.received[0]) == (1, 2)


def test_trade_back_gives_the_right_side_and_receives_the_left():
    s = build_state(hands=["2 green white", ""])
    play(s, "trade 1 back")
    assert s.hands[0] == [0, 0, 1, 1, 0]
    assert (s.given[0], s.received[0]) == (2, 1)


def test_trade_applies_the_row_exactly_once():
    s = build_state(hands=["3 red", ""])
    play(s, "trade 1")
    assert s.hands[0] == [0, 2, 2, 0, 0]  # one red gone, not all three


def test_trade_only_with_the_stones_in_hand_says_what_is_missing():
    s = build_state(hands=["1 green", ""])
    msg = refused(s, "trade 1 back")
    assert "you need 2 green to give for row 1; you hold 1 green" in msg.lower()
    assert "'draw'" in msg


def test_trade_of_a_row_that_does_not_exist_is_refused():
    s = build_state(hands=["red", ""])
    assert "rows are 1 to 10" in refused(s, "trade 11")


@pytest.mark.parametrize("row", range(10))
def test_every_row_works_in_both_directions(row):
    left, right = FIXED_TABLE[row]
    both = [a + b for a, b in zip(left, right, strict=True)]
    for back in (False, True):
        s = build_state(hands=["", ""])
        s.hands[0] = list(both)
        s.drawn[0] = sum(both)
        play(s, f"trade {row + 1}" + (" back" if back else ""))
        give, get = (right, left) if back else (left, right)
        assert s.hands[0] == [both[c] - give[c] + get[c] for c in range(5)]


# --- buying ----------------------------------------------------------------------------


def test_no_buy_without_an_action_in_the_same_turn():
    s = build_state(hands=["2 green red blue white", ""], tops=["2 green red blue white"])
    msg = refused(s, "buy 1")
    assert "draw or trade first" in msg


def test_buy_removes_exactly_the_combination():
    s = build_state(hands=["3 green red blue white yellow", ""], tops=["2 green red blue white"])
    force_draw(s, YELLOW)
    play(s, "draw")
    play(s, "buy 1")
    assert s.hands[0] == [0, 1, 0, 0, 2]
    assert s.spent[0] == 5


def test_at_most_one_buy_and_a_buy_ends_the_turn():
    s = build_state(
        hands=["2 green red blue white 5 yellow", ""], tops=["2 green red blue white", "5 yellow"]
    )
    force_draw(s, RED)
    play(s, "draw")
    play(s, "buy 1")
    assert s.turn == 1 and s.phase == ACTION
    assert "turn" in refused(s, "buy 2", seat=0)


def test_buy_needs_the_combination_and_says_what_is_missing():
    s = build_state(hands=["2 blue red", ""], tops=["4 blue red", "2 green red blue white"])
    force_draw(s, RED)
    play(s, "draw")
    msg = refused(s, "buy 1")
    assert "needs 4 blue + 1 red" in msg and "you need 4 blue and hold 2 blue" in msg


def test_buying_a_sold_out_field_is_refused():
    s = build_state(hands=["5 yellow", ""])
    s.fields[2] = []
    force_draw(s, RED)
    play(s, "draw")
    assert "sold out" in refused(s, "buy 3")


def test_combination_with_four_or_more_of_one_colour_is_valuable():
    from plugins.bazaar.deck import is_valuable

    assert is_valuable(stones_of("4 red blue"))
    assert is_valuable(stones_of("5 white"))
    assert not is_valuable(stones_of("3 red 2 blue"))


# --- scoring ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "points"), [("", 5), ("yellow", 3), ("2 yellow", 2), ("3 yellow", 1), ("6 yellow", 1)]
)
def test_points_normal_row_by_leftover(extra, points):
    s = build_state(hands=["2 green red blue " + extra, ""], tops=["2 green red blue white"], phase=BUY)
    s.hands[0][WHITE] += 1
    play(s, "buy 1")
    assert s.scores[0] == points


@pytest.mark.parametrize(("extra", "points"), [("", 8), ("blue", 5), ("2 blue", 3), ("3 blue", 2)])
def test_points_valuable_row_by_leftover(extra, points):
    s = build_state(hands=["4 red white " + extra, ""], tops=["4 red white"], phase=BUY)
    play(s, "buy 1")
    assert s.scores[0] == points


def test_leftover_counts_all_stones_not_only_the_combination_colours():
    # leftover stones are yellow, a colour the combination does not use at all
    s = build_state(hands=["4 red white 2 yellow", ""], tops=["4 red white"], phase=BUY)
    play(s, "buy 1")
    assert s.purchases[0][-1][2] == 2
    assert s.scores[0] == 3


def test_rate_level_switches_only_for_purchases_after_a_field_is_already_empty():
    s = build_state(hands=["4 red white", "5 yellow"], tops=["4 red white", "5 yellow"], phase=BUY)
    s.fields[0] = s.fields[0][-1:]  # the last combination of field 1
    play(s, "buy 1")  # empties field 1 but is still scored at the normal rates
    assert s.fields[0] == []
    assert s.scores[0] == 8
    assert s.high_rates()
    s.phase = BUY
    play(s, "buy 2")  # the next purchase uses the higher table
    assert s.scores[1] == 12


def test_higher_table_for_normal_rows_once_a_field_is_empty():
    s = build_state(hands=["2 green red blue white", ""], tops=["2 green red blue white"], phase=BUY)
    s.fields[3] = []
    play(s, "buy 1")
    assert s.scores[0] == 8
    assert s.purchases[0][-1][3] == 1


def test_a_second_empty_field_does_not_raise_the_rates_further():
    s = build_state(hands=["5 yellow", ""], tops=["5 yellow"], phase=BUY)
    s.fields[2] = []
    s.fields[3] = []
    play(s, "buy 1")
    assert s.scores[0] == 12


def test_points_table_is_the_seed_table():
    assert R.POINTS == ((5, 3, 2, 1), (8, 5, 3, 2), (12, 8, 5, 3))
    assert R.points_for(False, False, 0) == (0, 5)
    assert R.points_for(True, True, 7) == (2, 3)


def test_scores_equal_the_sum_of_purchases():
    s = GAME.setup(["a", "b", "c"], random.Random(9), {})
    GAME.rollout(s, random.Random(2))
    for seat in range(3):
        assert s.scores[seat] == sum(p[4] for p in s.purchases[seat])


# --- end of game ----------------------------------------------------------------------------


def test_game_ends_at_24_purchases_not_when_two_fields_are_empty():
    s = build_state(hands=["5 yellow 5 white 5 red", ""], tops=["5 yellow", "5 white", "5 red"], phase=BUY)
    s.fields[0] = s.fields[0][-1:]
    s.fields[1] = s.fields[1][-1:]
    play(s, "buy 1")
    s.phase = BUY
    s.turn = 0
    play(s, "buy 2")
    assert s.fields[0] == [] and s.fields[1] == []
    assert GAME.result(s) is None and s.phase != OVER
    assert GAME.to_act(s) == [1]


def test_the_24th_purchase_ends_the_game_at_once():
    s = build_state(hands=["5 yellow 4 red", ""], tops=["5 yellow"], phase=BUY, hand_limit=True)
    s.fields = [s.fields[0][-1:], [], [], []]
    s.purchases[1] = [(1, stones_of("5 red"), 0, 1, 8)] * 23
    s.scores[1] = 8 * 23
    play(s, "buy 1")
    assert s.phase == OVER
    assert GAME.to_act(s) == []
    assert GAME.legal_commands(s, 0) == []
    assert "over" in refused(s, "draw").lower()
    result = GAME.result(s)
    assert result is not None and result.winners == [1]


def test_ties_share_the_win():
    s = build_state(hands=["", "", ""])
    s.phase = OVER
    s.scores = [20, 20, 7]
    result = GAME.result(s)
    assert result.winners == [0, 1]
    assert result.ranking == [[0, 1], [2]]
    assert "share" in result.detail


def test_solo_game_can_be_played_to_the_end():
    s = GAME.setup(["solo"], random.Random(4), {})
    GAME.rollout(s, random.Random(4))
    assert s.phase == OVER and s.purchase_count() == 24
    assert GAME.result(s).winners == [0]


# --- classic option: hand limit ------------------------------------------------------------------


def test_hand_limit_option_makes_a_player_give_back_stones_at_the_end_of_the_turn():
    s = build_state(hands=["10 red", ""], hand_limit=True)  # row 1: 1 red = 2 green
    play(s, "trade 1")
    assert sum(s.hands[0]) == 11
    out = play(s, "pass")
    assert s.phase == DISCARD and s.turn == 0
    assert "give back 1" in out.public[-1]
    assert GAME.legal_commands(s, 0) == ["discard green", "discard red"]
    assert "only have to give back 1" in refused(s, "discard 2 red")
    play(s, "discard green")
    assert s.hands[0] == [0, 1, 9, 0, 0]
    assert s.returned[0] == 1
    assert s.turn == 1 and s.phase == ACTION


def test_hand_limit_applies_after_a_purchase_too():
    s = build_state(hands=["4 red white 12 blue", ""], tops=["4 red white"], phase=BUY, hand_limit=True)
    play(s, "buy 1")
    assert s.phase == DISCARD and s.turn == 0
    assert s.scores[0] == 2  # scored on the 12 stones left before giving any back
    assert "turn" in refused(s, "discard blue", seat=1)
    play(s, "discard 2 b")
    assert s.turn == 1


def test_without_hand_limit_stones_pile_up():
    s = build_state(hands=["15 red", ""])
    force_draw(s, RED)
    play(s, "draw")
    play(s, "pass")
    assert sum(s.hands[0]) == 16 and s.turn == 1
    assert "nothing to give back" in refused(s, "discard red")


# --- classic option: finite bank -------------------------------------------------------------------


def test_bank_option_holds_twenty_per_colour():
    s = GAME.setup(["a", "b"], random.Random(1), {"bank": True})
    assert s.bank == [20] * 5


def test_bank_option_redraws_an_exhausted_colour():
    s = build_state(hands=["", ""], bank=True)
    s.bank = [0, 0, 5, 0, 0]
    for _ in range(30):
        s.phase = ACTION
        face = R.do_draw(s)
        if face == R.JOKER_FACE:
            assert R.joker_colours(s) == [RED]
            assert "no blue" in refused(s, "joker blue")
            play(s, "joker red")
        if not s.bank[RED]:
            break
    assert s.hands[0] == [0, 0, 5, 0, 0]
    assert not R.can_draw(s)


def test_bank_option_trade_needs_the_bank_to_hold_the_received_side():
    s = build_state(hands=["red", ""], bank=True)
    s.bank[GREEN] = 1
    msg = refused(s, "trade 1")
    assert "bank holds only 1 green" in msg


def test_bank_option_returns_spent_and_given_stones_to_the_bank():
    s = build_state(hands=["4 red white 2 blue", ""], tops=["4 red white"], bank=True)
    play(s, "trade 2")  # 1 blue = 2 red
    play(s, "buy 1")
    assert s.bank[BLUE] == 19 and s.bank[RED] == 20 - 4 - 2 + 4 and s.bank[WHITE] == 20
    assert sum(s.bank) + sum(map(sum, s.hands)) == 100


def test_bank_empty_player_who_cannot_act_may_only_buy_or_pass():
    s = build_state(hands=["20 blue 20 green", "20 red 20 white 20 yellow"], bank=True)
    assert sum(s.bank) == 0
    assert R.stuck(s)
    assert GAME.legal_commands(s, 0) == ["pass"]
    out = play(s, "pass")
    assert "neither draw nor trade" in out.public[0]


def test_bank_empty_for_a_whole_round_ends_the_game_as_blocked():
    s = build_state(hands=["20 blue 20 green", "20 red 20 white 20 yellow"], bank=True)
    play(s, "pass")
    assert s.phase != OVER
    out = play(s, "pass")
    assert s.phase == OVER and s.blocked
    assert "whole round" in out.public[-1]
    assert GAME.result(s) is not None
