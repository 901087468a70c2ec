"""Jaipur: 'exchange A for B' as the English says, and counts that read right."""

from __future__ import annotations

import random

import pytest
from support.counts import count_problems
from support.plugin_moves import Moves

from plugins.jaipur import GAME
from plugins.jaipur.cards import CAMEL, SPICE, counted
from plugins.jaipur.rules import EXCHANGE
from plugins.jaipur.scenario import build_state

play, refused = Moves(GAME).play, Moves(GAME).refused


def test_exchange_a_for_b_gives_a_and_gets_b():
    state = build_state("2 spice diamond leather camel", ["cloth gold 2 silver"], herds=(2, 0))
    action = GAME.parse(state, 0, "exchange 2 camels for 2 spice")
    assert action[0] == EXCHANGE and action[1][SPICE] == 2 and action[2][CAMEL] == 2
    play(state, "exchange 2 camels for 2 spice")
    assert state.hands[0][SPICE] == 2 and state.herds[0] == 0


@pytest.mark.parametrize("text", ["swap 2 camels for 2 spice", "tausche 2 kamele gegen 2 gewürze"])
def test_swap_and_tausche_gegen_read_the_same_way(text):
    state = build_state("2 spice diamond leather camel", ["cloth gold 2 silver"], herds=(2, 0))
    action = GAME.parse(state, 0, text)
    assert action[1][SPICE] == 2 and action[2][CAMEL] == 2


def test_exchange_a_for_b_the_wrong_way_round_is_refused_naming_both_readings():
    state = build_state("2 spice diamond leather camel", ["cloth gold 2 silver"], herds=(2, 0))
    message = refused(state, "exchange 2 spice for 2 camels")
    assert "gives 2 spice and gets 2 camels" in message
    assert "To take 2 spice and give 2 camels, type 'take 2 spice give 2 camels'." in message


def test_exchange_refusal_says_when_neither_reading_works():
    state = build_state("2 spice diamond leather camel", ["cloth gold 2 silver"], herds=(0, 0))
    message = refused(state, "exchange 2 silver for 2 cloth")
    assert "gives 2 silver and gets 2 cloth" in message and "not possible either" in message


def test_take_a_for_b_still_takes_a_and_gives_b():
    state = build_state("2 spice diamond leather camel", ["cloth gold 2 silver"], herds=(2, 0))
    action = GAME.parse(state, 0, "take 2 spice for 2 camels")
    assert action[1][SPICE] == 2 and action[2][CAMEL] == 2


@pytest.mark.parametrize("k", [0, 1, 2])
def test_every_jaipur_count_reads_right_for_0_1_and_2(k):
    state = build_state("2 spice diamond leather camel", [f"{k} cloth" if k else "", ""], herds=(k, k))
    texts = [
        GAME.board(state),
        GAME.private_view(state, 0),
        GAME.private_view(state, 1),
        GAME.brief_moves(state, 0),
    ]
    if k:
        texts.append(counted(CAMEL, k))
    for text in texts:
        assert not count_problems(text or ""), (text, count_problems(text or ""))


def test_jaipur_random_games_never_show_a_miscounted_noun():
    for seed in range(6):
        state = GAME.setup(["alice", "bob"], random.Random(seed), {})
        rng = random.Random(seed)
        while GAME.result(state) is None:
            seat = GAME.to_act(state)[0]
            out = GAME.apply(
                state, seat, GAME.parse(state, seat, rng.choice(GAME.legal_commands(state, seat)))
            )
            lines = [*out.public, *(t for ls in out.private.values() for t in ls), GAME.board(state)]
            lines += [GAME.private_view(state, 0) or "", GAME.brief_moves(state, seat)]
            for text in lines:
                assert not count_problems(text), (text, count_problems(text))
