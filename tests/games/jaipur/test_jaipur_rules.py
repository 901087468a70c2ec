"""Jaipur rules: components, setup, the four actions, round end, scoring, the match.

Tests named ``test_edge_NN_*`` follow the edge-case list (rules reference §12),
``test_mistake_*`` the mistakes seen in other implementations (§13).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from support.plugin_moves import Moves

from bazaarbot.i18n import localized
from bazaarbot.plugin import MoveError
from plugins.jaipur import GAME
from plugins.jaipur import random_play as RP
from plugins.jaipur import rules as R
from plugins.jaipur.cards import (
    BONUS_TOKENS,
    CAMEL,
    CAMEL_TOKEN_VALUE,
    CARD_COUNTS,
    CLOTH,
    DIAMOND,
    GOLD,
    GOODS_TOKENS,
    LEATHER,
    SILVER,
    SPICE,
    TOTAL_BONUS_TOKENS,
    TOTAL_CARDS,
    TOTAL_GOODS_TOKENS,
)
from plugins.jaipur.scenario import build_state, cards

play, refused = Moves(GAME).play, Moves(GAME).refused


def refused_action(state, action, seat=None) -> str:
    """The refusal message for an internal action handed straight to apply."""
    seat = state.turn if seat is None else seat
    before = GAME.to_json(state)
    with pytest.raises(MoveError) as err:
        GAME.apply(state, seat, action)
    assert GAME.to_json(state) == before
    return err.value.message


def kinds(state) -> set[int]:
    return {a[0] for a in R.legal_actions(state)}


def test_plugin_identity_and_discovery():
    from bazaarbot.registry import discover

    assert discover()["jaipur"] is GAME
    assert (GAME.name, GAME.title, GAME.min_players, GAME.max_players) == ("jaipur", "Jaipur", 2, 2)
    assert GAME.rules_version == "jaipur-1"
    assert "camel token" in GAME.rules_summary and "take 2 spice give 2 camels" in GAME.command_help
    assert all(len(line) < 300 for line in (GAME.rules_summary + "\n" + GAME.command_help).split("\n"))


# --- components (§1) -------------------------------------------------------------


def test_deck_has_55_cards_with_the_printed_counts():
    assert TOTAL_CARDS == sum(CARD_COUNTS) == 55
    assert CARD_COUNTS == (6, 6, 6, 8, 8, 10, 11)


def test_goods_token_piles_have_their_exact_values_highest_first():
    assert GOODS_TOKENS[DIAMOND] == (7, 7, 5, 5, 5)
    assert GOODS_TOKENS[GOLD] == (6, 6, 5, 5, 5)
    assert GOODS_TOKENS[SILVER] == (5, 5, 5, 5, 5)
    assert GOODS_TOKENS[CLOTH] == (5, 3, 3, 2, 2, 1, 1)
    assert GOODS_TOKENS[SPICE] == (5, 3, 3, 2, 2, 1, 1)
    assert GOODS_TOKENS[LEATHER] == (4, 3, 2, 1, 1, 1, 1, 1, 1)
    assert sum(len(p) for p in GOODS_TOKENS) == TOTAL_GOODS_TOKENS == 38
    assert [sum(p) for p in GOODS_TOKENS] == [29, 27, 25, 17, 17, 15]
    # one card more than tokens for every good
    assert [CARD_COUNTS[g] - len(GOODS_TOKENS[g]) for g in range(6)] == [1] * 6


def test_bonus_piles_have_their_exact_values():
    assert sorted(BONUS_TOKENS[0]) == [1, 1, 2, 2, 2, 3, 3]
    assert sorted(BONUS_TOKENS[1]) == [4, 4, 5, 5, 6, 6]
    assert sorted(BONUS_TOKENS[2]) == [8, 8, 9, 10, 10]
    assert sum(len(p) for p in BONUS_TOKENS) == TOTAL_BONUS_TOKENS == 18


def test_camel_token_is_worth_five():
    assert CAMEL_TOKEN_VALUE == 5


def test_bonus_piles_are_shuffled_separately_every_round():
    orders = [set(), set(), set()]
    for seed in range(40):
        state = GAME.setup(["a", "b"], random.Random(seed), {})
        for i in range(3):
            assert sorted(state.bonus[i]) == sorted(BONUS_TOKENS[i])
            orders[i].add(tuple(state.bonus[i]))
    assert all(len(o) > 10 for o in orders)
    # a new round reshuffles: play a round out and compare
    state = GAME.setup(["a", "b"], random.Random(7), {})
    first = [list(p) for p in state.bonus]
    seen_different = False
    rng = random.Random(1)
    for _ in range(5):
        RP.play_random_round(state, rng)
        if state.over:
            break
        assert [sorted(p) for p in state.bonus] == [sorted(p) for p in BONUS_TOKENS]
        seen_different |= [list(p) for p in state.bonus] != first
    assert seen_different


# --- setup (§2) ---------------------------------------------------------------------


def test_setup_puts_three_camels_in_the_market_and_deals_five_cards_each():
    for seed in range(50):
        state = GAME.setup(["a", "b"], random.Random(seed), {})
        assert sum(state.market) == 5
        assert state.market[CAMEL] >= 3
        for seat in (0, 1):
            assert sum(state.hands[seat]) + state.herds[seat] == 5
        assert len(state.deck) == 40
        assert state.taken == [0] * 6
        assert state.seals == [0, 0]
        assert state.round_no == 1


def test_edge_19_round_one_starter_is_chosen_by_lot_from_the_rng():
    starters = Counter(GAME.setup(["a", "b"], random.Random(seed), {}).turn for seed in range(60))
    assert starters[0] > 10 and starters[1] > 10
    # the same seed always gives the same starter (replays are exact)
    for seed in range(10):
        a = GAME.setup(["a", "b"], random.Random(seed), {})
        b = GAME.setup(["a", "b"], random.Random(seed), {})
        assert a.turn == b.turn and GAME.to_json(a) == GAME.to_json(b)


def test_setup_refuses_other_than_two_players():
    with pytest.raises(ValueError):
        GAME.setup(["a", "b", "c"], random.Random(1), {})


# --- action A: take one good (§4) ---------------------------------------------------


def test_take_one_good_moves_it_to_the_hand_and_refills_from_the_top_of_the_deck():
    state = build_state("diamond spice 3 camels", ["cloth", "leather"], deck="silver gold leather")
    out = play(state, "take diamond")
    assert state.hands[0][DIAMOND] == 1
    assert state.market == cards("silver spice 3 camels")
    assert state.turn == 1
    assert "silver" in out.public[0]


def test_take_one_good_not_in_the_market_is_refused():
    state = build_state("diamond spice 3 camels", ["cloth"])
    assert "no gold in the market" in refused(state, "take gold")


# --- action B: take all camels (§5) ---------------------------------------------------


def test_take_camels_takes_every_camel_and_refills_as_many():
    state = build_state("diamond spice 3 camels", ["cloth"], herds=(1, 0), deck="gold silver camel leather")
    play(state, "take camels")
    assert state.herds[0] == 4
    assert state.market == cards("diamond spice gold silver camel")
    assert len(state.deck) == 1


def test_take_camels_with_no_camel_in_the_market_is_refused():
    state = build_state("diamond spice gold silver cloth", ["cloth"])
    assert "no camels" in refused(state, "take camels")


# --- action C: exchange (§6) ------------------------------------------------------------


def test_exchange_swaps_cards_and_draws_nothing():
    state = build_state("2 spice diamond 2 camels", ["cloth leather gold"], herds=(2, 0))
    deck = list(state.deck)
    play(state, "take 2 spice give cloth camel")
    assert state.hands[0] == cards("2 spice leather gold")[:6]
    assert state.herds[0] == 1
    assert state.market == cards("cloth diamond 3 camels")
    assert state.deck == deck


def test_exchange_of_cards_the_player_does_not_hold_is_refused():
    state = build_state("2 spice diamond 2 camels", ["cloth"], herds=(1, 0))
    assert "You hold no leather" in refused(state, "take 2 spice give leather camel")
    assert "herd has 1 camel, not 2" in refused(state, "take 2 spice give 2 camels")


def test_exchange_with_unequal_counts_is_refused():
    state = build_state("2 spice diamond 2 camels", ["cloth leather gold"], herds=(2, 0))
    assert "give back exactly 2" in refused(state, "take 2 spice give cloth")


def test_exchange_of_goods_the_market_lacks_is_refused():
    state = build_state("2 spice diamond 2 camels", ["cloth leather gold"], herds=(2, 0))
    assert "not 3 spice" in refused(state, "take 3 spice give 3 camels")


# --- action D: sell (§7) ------------------------------------------------------------


def test_sell_takes_tokens_from_the_high_end_and_discards_the_cards():
    state = build_state("5 camels", ["3 cloth gold"])
    out = play(state, "sell 2 cloth")
    assert state.goods_points[0] == 8 and state.goods_count[0] == 2
    assert state.discard[CLOTH] == 2 and state.hands[0][CLOTH] == 1
    assert "5 + 3 = 8" in out.public[0]
    play(state, "take camels", seat=1)
    play(state, "sell cloth")
    assert state.goods_points[0] == 11


def test_sell_more_than_held_is_refused():
    state = build_state("5 camels", ["2 cloth"])
    assert "only 2 cloth" in refused(state, "sell 3 cloth")
    assert "no spice" in refused(state, "sell spice")


def test_sell_camels_is_refused():
    state = build_state("5 camels", ["2 cloth"], herds=(3, 0))
    assert "Camels cannot be sold" in refused(state, "sell 2 camels")


def test_taking_and_selling_in_one_turn_is_refused():
    state = build_state("spice 4 camels", ["2 cloth"])
    with pytest.raises(MoveError):
        GAME.parse(state, 0, "take spice sell 2 cloth")


def test_moving_out_of_turn_is_refused():
    state = build_state("spice 4 camels", ["2 cloth", "leather"])
    assert "alice's turn" in refused(state, "take spice", seat=1)


# --- §12 edge cases -----------------------------------------------------------------------


def test_edge_01_take_one_good_with_seven_cards_is_refused():
    state = build_state("diamond spice 3 camels", ["2 cloth 2 leather 3 silver"])
    message = refused(state, "take diamond")
    assert "You hold 7 cards" in message and "sell or exchange first" in message
    assert R.TAKE not in kinds(state)


def test_edge_02_exchange_with_seven_cards_giving_only_goods_is_allowed():
    state = build_state("diamond spice 3 camels", ["2 cloth 2 leather 3 silver"], herds=(4, 0))
    play(state, "take diamond spice give 2 cloth")
    assert sum(state.hands[0]) == 7


def test_edge_02_exchange_with_seven_cards_giving_a_camel_is_refused():
    state = build_state("diamond spice 3 camels", ["2 cloth 2 leather 3 silver"], herds=(4, 0))
    message = refused(state, "take diamond spice give cloth camel")
    assert "8" in message and "limit 7" in message


def test_edge_02_camels_given_at_most_seven_minus_hand_size():
    state = build_state("diamond spice gold 2 camels", ["2 cloth 3 leather"], herds=(4, 0))
    assert "give at most 2 camels" in refused(state, "take diamond spice gold give 3 camels")
    play(state, "take diamond spice gold give leather 2 camels")
    assert sum(state.hands[0]) == 7


def test_edge_03_one_for_one_exchange_is_refused():
    state = build_state("diamond spice 3 camels", ["cloth leather"], herds=(2, 0))
    assert "at least 2 goods" in refused(state, "take spice give leather")
    take = (0, 0, 0, 0, 1, 0)
    assert "at least 2 goods" in refused_action(state, (R.EXCHANGE, take, (0, 0, 0, 0, 0, 1, 0)))
    assert all(sum(a[1]) >= 2 for a in R.legal_actions(state) if a[0] == R.EXCHANGE)


def test_edge_04_exchange_that_takes_a_camel_is_refused():
    state = build_state("diamond spice 3 camels", ["cloth leather"], herds=(2, 0))
    assert "Camels cannot be taken in an exchange" in refused(state, "take spice camel give cloth leather")
    action = (R.EXCHANGE, (0, 0, 0, 0, 1, 0, 1), (0, 0, 0, 1, 0, 1, 0))
    assert "Camels cannot be taken in an exchange" in refused_action(state, action)


def test_edge_05_giving_back_a_type_being_taken_is_refused():
    state = build_state("2 cloth spice gold silver", ["cloth 2 leather"])
    assert "cannot give back cloth while taking cloth" in refused(
        state, "take 2 cloth spice give cloth 2 leather"
    )


def test_edge_05_giving_back_a_type_also_in_the_market_is_allowed():
    state = build_state("2 cloth spice gold silver", ["gold 2 leather"])
    play(state, "take 2 cloth give gold leather")
    assert state.market == cards("2 gold spice silver leather")


def test_edge_06_giving_camels_and_goods_together_is_allowed():
    state = build_state("diamond spice gold 2 camels", ["cloth"], herds=(3, 0))
    play(state, "take diamond spice gold give cloth 2 camels")
    assert state.herds[0] == 1 and state.market == cards("cloth 4 camels")


def test_edge_07_taking_a_single_camel_or_some_camels_is_refused():
    state = build_state("diamond spice 3 camels", ["cloth"])
    assert "all 3" in refused(state, "take 1 camel")
    assert "all 3" in refused(state, "take 2 camels")
    assert "take camels" in refused_action(state, (R.TAKE, CAMEL))
    play(state, "take 3 camels")
    assert state.herds[0] == 3


def test_edge_08_selling_one_precious_card_is_refused_even_with_one_token_left():
    state = build_state("5 camels", ["2 diamonds gold silver"], taken=(4, 0, 0, 0, 0, 0))
    assert "sell 2 diamonds" in refused(state, "sell 1 diamond")
    assert "two or more at a time" in refused(state, "sell gold")
    assert (R.SELL, DIAMOND, 1) not in R.legal_actions(state)
    play(state, "sell 2 diamonds")
    assert state.goods_points[0] == 5 and state.goods_count[0] == 1


def test_edge_09_selling_more_cards_than_tokens_left_is_allowed():
    state = build_state("5 camels", ["4 cloth"], taken=(0, 0, 0, 5, 0, 0))
    out = play(state, "sell 4 cloth")
    assert state.goods_points[0] == 2 and state.goods_count[0] == 2
    assert len(state.bonus_won[0][1]) == 1
    assert "only 2 left" in out.public[0]


def test_edge_10_selling_a_type_whose_pile_is_empty_is_allowed_bonus_only():
    assert R.SELL_FROM_EMPTY_PILE_ALLOWED is True
    state = build_state("5 camels", ["3 cloth"], taken=(0, 0, 0, 7, 0, 0))
    out = play(state, "sell 3 cloth")
    assert state.goods_points[0] == 0 and state.goods_count[0] == 0
    assert len(state.bonus_won[0][0]) == 1
    assert "no goods token" in out.public[0] and "3-card bonus token" in out.public[0]


def test_edge_11_exhausted_bonus_pile_gives_no_bonus():
    state = build_state("5 camels", ["3 cloth"], bonus=([], [4], [8]))
    out = play(state, "sell 3 cloth")
    assert state.bonus_won[0] == [[], [], []]
    assert state.goods_points[0] == 11
    assert "no bonus" in out.public[0]


@pytest.mark.parametrize("n", [5, 6, 7])
def test_edge_12_sale_of_five_six_or_seven_cards_takes_one_five_card_bonus(n):
    state = build_state("5 camels", [f"{n} leather"])
    play(state, f"sell {n} leather")
    assert [len(p) for p in state.bonus_won[0]] == [0, 0, 1]
    assert state.bonus_won[0][2][0] in (8, 9, 10)


def test_edge_13_only_one_goods_type_per_sale():
    state = build_state("5 camels", ["2 cloth 2 spice"])
    assert "One goods type per sale" in refused(state, "sell 2 cloth 2 spice")


def test_edge_14_refill_impossible_ends_the_round_right_after_the_action():
    state = build_state("spice diamond 3 camels", ["cloth", "leather"], deck="gold")
    out = play(state, "take camels")
    assert state.round_no == 2
    assert state.rounds[0]["reason"] == "deck"
    assert state.rounds[0]["herds"] == [3, 0]
    assert any("deck cannot refill the market" in line for line in out.public)


def test_edge_14_take_one_good_with_an_empty_deck_ends_the_round():
    state = build_state("spice diamond 3 camels", ["cloth", "leather"], deck="")
    play(state, "take spice")
    assert state.round_no == 2 and state.rounds[0]["reason"] == "deck"


def test_edge_15_deck_emptied_exactly_by_a_refill_the_round_goes_on():
    assert R.DECK_EMPTIED_EXACTLY_ENDS_ROUND is False
    state = build_state("spice diamond 3 camels", ["cloth leather", "2 leather"], herds=(2, 2), deck="gold")
    play(state, "take spice")
    assert state.round_no == 1 and state.deck == [] and sum(state.market) == 5
    # exchanges and sales never draw, so they are still played with an empty deck
    play(state, "take diamond gold give 2 camels")
    play(state, "sell leather")
    assert state.round_no == 1
    play(state, "take camels", seat=1)
    assert state.round_no == 2 and state.rounds[0]["reason"] == "deck"


def test_edge_16_third_empty_goods_pile_ends_the_round_after_the_sale_and_its_bonus():
    state = build_state("5 camels", ["3 cloth"], taken=(5, 5, 0, 6, 0, 0), bonus=([2], [5], [9]))
    out = play(state, "sell 3 cloth")
    summary = state.rounds[0]
    assert summary["reason"] == "piles"
    assert summary["goods_points"][0] == 1 and summary["bonus"][0] == [[2], [], []]
    assert summary["totals"][0] == 3
    assert any("three goods piles are empty" in line for line in out.public)


def test_edge_17_camel_majority_tied_nobody_gets_the_camel_token():
    state = _ending_state(seat0=(10, 3, [[], [], []], 4), seat1=(8, 3, [[], [], []], 4))
    play(state, "sell leather")
    summary = state.rounds[-1]
    assert summary["camel_token"] is None and summary["totals"] == [10, 8]
    state = _ending_state(seat0=(10, 3, [[], [], []], 0), seat1=(8, 3, [[], [], []], 0))
    play(state, "sell leather")
    assert state.rounds[-1]["camel_token"] is None


def _ending_state(seat0, seat1, *, starter=0, seals=(0, 0)):
    """Seat 0 is about to end the round by selling its last leather (the third pile to empty).

    Each seat is (goods points, goods tokens, bonus values by pile, herd) as they
    will stand after that sale (which earns 1 point and 1 goods token).
    """
    state = build_state(
        "cloth spice 3 camels",
        ["leather", ""],
        herds=(seat0[3], seat1[3]),
        taken=(5, 5, 0, 0, 0, 8),
        bonus=([], [], []),
        turn=0,
        starter=starter,
    )
    for seat, (points, count, bonus, _herd) in enumerate((seat0, seat1)):
        state.goods_points[seat] = points - (1 if seat == 0 else 0)
        state.goods_count[seat] = count - (1 if seat == 0 else 0)
        state.bonus_won[seat] = [list(p) for p in bonus]
    state.seals = list(seals)
    return state


def test_edge_18_round_tie_broken_by_more_bonus_tokens():
    state = _ending_state(seat0=(20, 5, [[3], [], []], 1), seat1=(20, 4, [[1, 2], [], []], 1))
    out = play(state, "sell leather")
    summary = state.rounds[-1]
    assert summary["totals"] == [23, 23]
    assert summary["winner"] == 1 and summary["decided_by"] == "bonus tokens"
    assert state.seals == [0, 1]
    assert any("bonus tokens (2 to 1)" in line for line in out.public)


def test_edge_18_round_tie_broken_by_more_goods_tokens():
    state = _ending_state(seat0=(20, 6, [[3], [], []], 1), seat1=(20, 4, [[3], [], []], 1))
    out = play(state, "sell leather")
    summary = state.rounds[-1]
    assert summary["winner"] == 0 and summary["decided_by"] == "goods tokens"
    assert any("goods tokens (6 to 4)" in line for line in out.public)


@pytest.mark.parametrize("starter", [0, 1])
def test_edge_18_round_tied_after_both_tie_breaks_is_drawn_per_policy(starter):
    assert R.TIED_ROUND_POLICY == "drawn-round-other-player-starts"
    state = _ending_state(seat0=(20, 5, [[3], [], []], 1), seat1=(20, 5, [[3], [], []], 1), starter=starter)
    out = play(state, "sell leather")
    summary = state.rounds[-1]
    assert summary["winner"] is None and summary["decided_by"] == "drawn"
    assert state.seals == [0, 0] and not state.over
    assert state.round_no == 2 and state.turn == state.starter == 1 - starter
    assert any("Drawn round" in line for line in out.public)
    assert any("starts" in line and state.players[1 - starter] in line for line in out.public)


@pytest.mark.parametrize("winner_totals", [(30, 20), (20, 30)])
@pytest.mark.parametrize("starter", [0, 1])
def test_edge_19_the_loser_starts_the_next_round(winner_totals, starter):
    a, b = winner_totals
    state = _ending_state(seat0=(a, 5, [[], [], []], 1), seat1=(b, 5, [[], [], []], 1), starter=starter)
    out = play(state, "sell leather")
    loser = 0 if a < b else 1
    assert state.turn == state.starter == loser
    assert any(f"{state.players[loser]} starts" in line for line in out.public)


def test_edge_20_camels_never_count_toward_the_hand_limit():
    state = build_state(
        "diamond spice 3 camels", ["2 cloth 2 leather 3 silver"], herds=(8, 0), deck="gold " * 5
    )
    assert R.hand_size(state, 0) == 7
    play(state, "take camels")
    assert state.herds[0] == 11 and R.hand_size(state, 0) == 7
    state = build_state("diamond spice 3 camels", ["2 cloth 2 leather 2 silver"], herds=(8, 0))
    play(state, "take diamond")
    assert R.hand_size(state, 0) == 7


def test_edge_21_market_of_five_camels_leaves_only_camels_or_sell():
    state = build_state("5 camels", ["2 cloth spice"], herds=(2, 0))
    assert kinds(state) == {R.CAMELS, R.SELL}
    assert "no spice in the market" in refused(state, "take spice")
    state = build_state("5 camels", [""], herds=(2, 0))
    assert R.legal_actions(state) == [(R.CAMELS,)]


def test_edge_22_no_pass_and_a_legal_action_always_exists():
    assert not GAME.is_move("pass")
    state = build_state("diamond spice gold cloth leather", ["2 silver diamond gold cloth spice leather"])
    with pytest.raises(MoveError):
        GAME.parse(state, 0, "pass")
    actions = R.legal_actions(state)
    assert actions and {a[0] for a in actions} == {R.EXCHANGE, R.SELL}


# --- §13 mistakes of other implementations ----------------------------------------


def test_mistake_five_card_bonus_tokens_are_8_8_9_10_10_not_7_to_9_or_random():
    for seed in range(30):
        state = GAME.setup(["a", "b"], random.Random(seed), {})
        assert sorted(state.bonus[2]) == [8, 8, 9, 10, 10]
    values = set()
    for seed in range(30):
        state = build_state("5 camels", ["5 leather"], seed=seed)
        state.bonus = [list(p) for p in BONUS_TOKENS]
        random.Random(seed).shuffle(state.bonus[2])
        play(state, "sell 5 leather")
        values.add(state.bonus_won[0][2][0])
    assert values <= {8, 9, 10} and len(values) > 1


def test_mistake_camel_as_take_one_good_is_refused():
    state = build_state("diamond spice 3 camels", ["cloth"])
    assert "take camels" in refused_action(state, (R.TAKE, CAMEL))
    assert "all 3" in refused(state, "take 1 camel")
    assert (R.TAKE, CAMEL) not in R.legal_actions(state)


def test_mistake_one_for_one_exchange_is_refused():
    state = build_state("diamond spice 3 camels", ["cloth"], herds=(2, 0))
    assert "at least 2 goods" in refused(state, "take diamond give camel")


def test_mistake_camels_taken_in_an_exchange_are_refused():
    state = build_state("diamond spice 3 camels", ["cloth leather"])
    assert "Camels cannot be taken" in refused(state, "take 2 camels give cloth leather")
    assert all(len(a[1]) == 6 for a in R.legal_actions(state) if a[0] == R.EXCHANGE)


def test_mistake_hand_limit_ignoring_goods_given_back_forbids_a_legal_swap_at_seven():
    state = build_state("diamond spice gold 2 camels", ["2 cloth 2 leather 3 silver"])
    assert "take diamond gold spice give 2 cloth leather" in GAME.legal_commands(state, 0)
    play(state, "take diamond spice gold give 2 cloth leather")
    assert R.hand_size(state, 0) == 7


@pytest.mark.parametrize("n", [6, 7])
def test_mistake_no_bonus_for_sales_of_six_or_more(n):
    state = build_state("5 camels", [f"{n} leather"], bonus=([], [], [10]))
    out = play(state, f"sell {n} leather")
    assert state.bonus_won[0][2] == [10]
    assert "5-card bonus token" in out.public[0]


def test_mistake_forbidding_sales_larger_than_the_tokens_left():
    state = build_state("5 camels", ["5 spice"], taken=(0, 0, 0, 0, 6, 0))
    assert (R.SELL, SPICE, 5) in R.legal_actions(state)
    play(state, "sell 5 spice")
    assert state.goods_points[0] == 1 and len(state.bonus_won[0][2]) == 1


def test_mistake_ending_the_round_as_soon_as_the_deck_is_empty():
    state = build_state("spice diamond 3 camels", ["cloth", "leather"], herds=(1, 1), deck="gold")
    play(state, "take spice")
    assert state.deck == [] and state.round_no == 1 and not state.rounds
    assert GAME.legal_commands(state, 1)


def test_mistake_never_placing_the_three_starting_camels_in_the_market():
    for seed in range(30):
        state = GAME.setup(["a", "b"], random.Random(seed), {})
        assert state.market[CAMEL] >= 3
        total_camels = state.market[CAMEL] + sum(state.herds) + state.deck.count(CAMEL)
        assert total_camels == 11


def test_mistake_forgetting_the_camel_token_when_deciding_the_winner():
    state = _ending_state(seat0=(20, 5, [[], [], []], 1), seat1=(17, 5, [[], [], []], 4))
    out = play(state, "sell leather")
    summary = state.rounds[-1]
    assert summary["camel_token"] == 1 and summary["totals"] == [20, 22]
    assert summary["winner"] == 1
    assert any("camel token" in line for line in out.public)


def test_mistake_no_tie_breaks():
    state = _ending_state(seat0=(20, 5, [[3], [], []], 1), seat1=(20, 5, [[1, 2], [], []], 1))
    play(state, "sell leather")
    assert state.rounds[-1]["winner"] == 1


def test_mistake_a_single_round_instead_of_best_of_three():
    state = _ending_state(seat0=(30, 5, [[], [], []], 1), seat1=(10, 5, [[], [], []], 1))
    play(state, "sell leather")
    assert state.seals == [1, 0] and not state.over
    assert GAME.result(state) is None and GAME.to_act(state) == [1]


# --- the match (§10) -----------------------------------------------------------------


def test_match_ends_when_a_player_holds_two_seals():
    assert R.SEALS_TO_WIN == 2
    state = _ending_state(seat0=(30, 5, [[], [], []], 1), seat1=(10, 5, [[], [], []], 1), seals=(1, 1))
    state.rounds = [{"round": 1, "totals": [50, 40], "winner": 0, "decided_by": "rupees"}]
    state.rounds.append({"round": 2, "totals": [40, 50], "winner": 1, "decided_by": "rupees"})
    state.round_no = 3
    out = play(state, "sell leather")
    assert state.over and state.seals == [2, 1]
    assert GAME.to_act(state) == [] and GAME.legal_commands(state, 0) == GAME.legal_commands(state, 1) == []
    result = GAME.result(state)
    assert result is not None
    assert result.scores == {0: 2, 1: 1} and result.winners == [0] and result.ranking == [[0], [1]]
    assert "Round 1" in result.detail and "Round 2" in result.detail
    assert "Round 3: alice 30-10 bob, won by alice" in result.detail
    assert any("wins the match" in line for line in out.public)
    assert "match is over" in refused(state, "take camels", seat=0)


def test_the_matchs_rounds_in_the_result_are_said_in_each_readers_language():
    """The rounds after ``Game over`` read ``Runde 1: ... gewonnen von`` to a German reader of an
    English room's game, not ``Round 1: ... won by``."""
    state = _ending_state(seat0=(30, 5, [[], [], []], 1), seat1=(10, 5, [[], [], []], 1), seals=(1, 1))
    state.rounds = [{"round": 1, "totals": [50, 40], "winner": 0, "decided_by": "rupees"}]
    state.rounds.append({"round": 2, "totals": [40, 50], "winner": 1, "decided_by": "rupees"})
    state.round_no = 3
    play(state, "sell leather")
    detail = GAME.result(state).detail
    german, spanish = str(localized(detail, "de")), str(localized(detail, "es"))
    assert "Runde 1" in german and "Round" not in german and "won by" not in german, german
    assert "Ronda 1" in spanish and "Round" not in spanish and "won by" not in spanish, spanish


def test_result_is_none_until_two_seals():
    state = GAME.setup(["a", "b"], random.Random(3), {})
    assert GAME.result(state) is None
    rng = random.Random(3)
    while not state.over:
        assert GAME.result(state) is None
        RP.play_random_round(state, rng)
    assert max(state.seals) == 2 and GAME.result(state).winners == [state.seals.index(2)]


def test_round_summary_reveals_every_bonus_value_the_camel_token_and_totals():
    state = _ending_state(seat0=(20, 5, [[3], [5], []], 4), seat1=(17, 5, [[1, 2], [], [9]], 1))
    out = play(state, "sell leather")
    text = " ".join(out.public)
    assert "bonus 3+5" in text and "bonus 1+2+9" in text
    assert "camel token" in text and "= 33" in text and "= 29" in text
    assert "Round 2 is dealt" in text
