"""Bazaar: the empty bank, the turn that ends by itself, the blocked round, and counts players read."""

from __future__ import annotations

import random

import pytest
from support.counts import count_problems
from support.plugin_moves import Moves, random_play

from plugins.bazaar import GAME
from plugins.bazaar import rules as R
from plugins.bazaar.colours import RED
from plugins.bazaar.scenario import build_state
from plugins.bazaar.state import ACTION, BUY, OVER

play, refused = Moves(GAME).play, Moves(GAME).refused


def force_draw(state, face):
    """Make the next die roll show ``face`` (0-4 a colour, 5 the joker)."""
    for seed in range(10_000):
        if int(random.Random(seed).random() * R.DIE_FACES) == face:
            state.rng = random.Random(seed)
            return
    raise AssertionError


def _empty_bank(auto_pass: bool = False):
    """Two players, the whole bank in their hands; alice holds the top of field 1 and cannot trade."""
    s = build_state(
        hands=["20 blue 20 green", "20 red 20 white 20 yellow"],
        tops=["5 blue"],
        bank=True,
        auto_pass=auto_pass,
    )
    assert sum(s.bank) == 0 and R.stuck(s)
    return s


def test_bank_on_player_who_can_neither_draw_nor_trade_buys_nothing_even_holding_the_combination():
    s = _empty_bank()
    assert R.buyable_fields(s, 0) == [0]
    assert GAME.legal_commands(s, 0) == ["pass"]
    assert "neither" in refused(s, "buy 1")
    assert GAME.brief_moves(s, 0) == "pass"
    assert "buys nothing: type pass" in GAME.board(s)


def test_blocked_round_ends_the_game_by_itself_with_auto_pass():
    s = _empty_bank(auto_pass=True)
    out = play(s, "pass")
    text = " ".join(out.public)
    assert s.phase == OVER and s.blocked
    assert "alice can neither draw nor trade and passes." in text
    assert "bob can neither draw nor trade and passes." in text
    assert "Nobody could draw or trade for a whole round: the game ends here." in text
    assert GAME.result(s) is not None


def test_auto_pass_ends_the_turn_when_nothing_can_be_bought_after_a_draw():
    s = GAME.setup(["alice", "bob"], random.Random(1), {})
    force_draw(s, RED)
    out = play(s, "draw")
    assert s.turn == 1 and s.phase == ACTION
    assert "alice can buy nothing, so the turn passes." in " ".join(out.public)
    assert out.public[-1].startswith("bob")


def test_auto_pass_keeps_the_turn_when_a_purchase_is_possible_and_pass_stays_valid():
    s = build_state(hands=["4 red", ""], tops=["5 red"], auto_pass=True)
    force_draw(s, RED)
    play(s, "draw")
    assert s.turn == 0 and s.phase == BUY
    out = play(s, "pass")
    assert s.turn == 1 and "alice passes." in out.public[0]


def test_auto_pass_off_waits_for_the_players_pass():
    s = GAME.setup(["alice", "bob"], random.Random(1), {"auto_pass": False})
    force_draw(s, RED)
    play(s, "draw")
    assert s.turn == 0 and s.phase == BUY and GAME.legal_commands(s, 0) == ["pass"]


def test_rules_name_the_blocked_round_policy_and_list_every_option():
    text = GAME.rules_summary
    assert "Blocked round" in text and "buys nothing and passes" in text
    for option in GAME.options:
        assert f"{option.name}=" in text


def test_undoable_trade_replays_to_the_same_state_and_draws_are_final():
    s = build_state(hands=["2 red 2 blue 2 white 2 green 2 yellow", ""], auto_pass=False)
    trades = [m for m in R.legal_moves(s, 0) if m[0] == "trade"]
    assert trades and GAME.undoable(s, 0, trades[0])
    assert not GAME.undoable(s, 0, ("draw",))


@pytest.mark.parametrize("k", [0, 1, 2])
def test_every_bazaar_count_reads_right_for_0_1_and_2(k):
    s = build_state(hands=[f"{k} red" if k else "", "", ""], tops=["5 red"], hand_limit=True)
    s.scores = [k, k, k]
    texts = [GAME.board(s), GAME.brief_moves(s, 0)]
    s.hands[0] = [10 + k, 0, 0, 0, 0]
    s.phase = "discard"
    texts += [GAME.board(s), GAME.brief_moves(s, 0)]
    if k:
        texts.append(refused(s, f"discard {k + 1} red"))
    for text in texts:
        assert not count_problems(text), (text, count_problems(text))


def test_bazaar_random_games_never_show_a_miscounted_noun():
    for seed in range(4):
        options = {"bank": bool(seed % 2), "hand_limit": seed >= 2}
        s = GAME.setup(["alice", "bob", "carol"], random.Random(seed), options)
        for seat, out in random_play(GAME, s, random.Random(seed), 300):
            for text in [*out.public, GAME.board(s), GAME.brief_moves(s, seat)]:
                assert not count_problems(text), (text, count_problems(text))
