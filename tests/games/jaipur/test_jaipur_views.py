"""What people see: the public board, the private view, move announcements, no leaks."""

from __future__ import annotations

import random

import pytest

from bazaarbot.i18n import language
from plugins.jaipur import GAME
from plugins.jaipur import random_play as RP
from plugins.jaipur import rules as R
from plugins.jaipur.cards import CAMEL, SPICE, describe_counts
from plugins.jaipur.scenario import build_state
from plugins.jaipur.state import clone


def test_board_shows_every_public_fact_in_a_few_short_lines():
    state = build_state(
        "diamond 2 spice 2 camels",
        ["3 cloth gold", "leather"],
        herds=(2, 4),
        taken=(2, 0, 0, 0, 0, 9),
        deck="silver " * 12,
    )
    state.goods_points = [14, 9]
    state.goods_count = [2, 4]
    state.bonus_won = [[[3], [], [10]], [[1, 2], [6], []]]
    state.seals = [1, 0]
    text = GAME.board(state)
    lines = text.split("\n")
    assert len(lines) <= 8 and all(len(line) < 300 for line in lines)
    assert "Market: diamond, 2 spice, 2 camels." in text
    assert "Deck: 12 cards." in text
    assert "diamond 5 5 5;" in text and "leather none" in text and "gold 6 6 5 5 5" in text
    assert "alice: 4 cards in hand, 2 camels, goods tokens 14 rupees (2 tokens)" in text
    assert "bob: 1 card in hand, 4 camels, goods tokens 9 rupees (4 tokens)" in text
    assert "bonus tokens: 1x 3-card, 1x 5-card" in text and "2x 3-card, 1x 4-card" in text
    assert "Seals: alice 1, bob 0." in text
    assert lines[-1].startswith("alice to play")
    # bonus values are never on the board
    assert "10" not in text.replace("Bonus tokens left", "")


def test_private_view_shows_sorted_hand_with_counts_herd_and_own_bonus_values():
    state = build_state("5 camels", ["leather 2 spice diamond leather", "cloth"], herds=(3, 0))
    state.bonus_won[0] = [[2], [], [9]]
    view = GAME.private_view(state, 0)
    assert "Your hand (5/7): diamond, 2 spice, 2 leather." in view
    assert "Herd: 3 camels." in view
    assert "3-card 2, 5-card 9 (11 rupees)" in view
    assert "bonus tokens: none" in GAME.private_view(state, 1)


def test_a_seats_hand_text_follows_its_holdings_and_the_readers_language_and_is_made_once():
    state = build_state("5 camels", ["leather 2 spice diamond leather", "cloth"], herds=(3, 0))
    state.bonus_won[0] = [[2], [], [9]]
    first = GAME.private_view(state, 0)
    assert GAME.private_view(clone(state), 0) is first, "the same holdings: the text made before"
    with language("de"):
        german = GAME.private_view(state, 0)
    assert german != first and "Leder" in german
    state.hands[0][SPICE] += 1
    assert "3 spice" in GAME.private_view(state, 0)
    state.herds[0] = 1
    assert "Herd: 1 camel." in GAME.private_view(state, 0)
    state.goods_points[0] = 7
    assert "Goods tokens: 7 rupees." in GAME.private_view(state, 0)
    state.bonus_won[0][1].append(4)
    assert "4-card 4" in GAME.private_view(state, 0) and "(15 rupees)" in GAME.private_view(state, 0)


def test_a_sale_tells_the_bonus_value_only_to_the_seller():
    state = build_state("5 camels", ["3 cloth"], bonus=([2], [5], [9]))
    out = GAME.apply(state, 0, GAME.parse(state, 0, "sell 3 cloth"))
    assert out.private == {0: ["Your 3-card bonus token for the cloth is worth 2."]}
    assert "3-card bonus token" in out.public[0]
    assert "2." not in " ".join(out.public).replace("3-card", "")


def test_every_announcement_ends_with_whose_turn_it_is():
    state = build_state("diamond 2 spice 2 camels", ["3 cloth gold", "leather"], herds=(2, 4))
    for text in ("take diamond", "take camels", "sell 3 cloth", "take 2 spice give 2 camels"):
        trial = clone(state)
        trial.turn = 0 if text != "take camels" else 1
        out = GAME.apply(trial, trial.turn, GAME.parse(trial, trial.turn, text))
        assert "to play" in out.public[-1]
        assert all(len(line) < 300 for line in out.public)


def test_round_end_announces_reveal_and_the_automatic_next_deal():
    state = build_state(
        "5 camels", ["3 cloth"], taken=(5, 5, 0, 6, 0, 0), bonus=([2], [5], [9]), herds=(2, 1)
    )
    state.bonus_won[1] = [[1], [4], []]
    out = GAME.apply(state, 0, GAME.parse(state, 0, "sell 3 cloth"))
    text = "\n".join(out.public)
    assert "Round 1 is over: three goods piles are empty." in text
    assert "alice gets the camel token (5)" in text
    assert "bob goods 0 + bonus 1+4 = 5" in text and "alice goods 1 + bonus 2 + camel token 5 = 8" in text
    assert "alice wins round 1 (more rupees)." in text
    assert "Round 2 is dealt automatically; bob starts (lost round 1)." in text
    assert out.public[-1].endswith(").") and "bob to play" in out.public[-1]
    assert all(len(line) < 300 for line in out.public)


def test_a_finished_rounds_text_in_the_view_follows_the_players_names_and_the_readers_language():
    state = build_state(
        "5 camels", ["3 cloth"], taken=(5, 5, 0, 6, 0, 0), bonus=([2], [5], [9]), herds=(2, 1)
    )
    GAME.apply(state, 0, GAME.parse(state, 0, "sell 3 cloth"))
    english = GAME.public_data(state)["rounds"][0]["text"]
    assert "alice wins round 1 (more rupees)." in english
    assert GAME.public_data(state)["rounds"][0]["text"] == english  # every view after the round says it so
    with language("de"):
        german = GAME.public_data(state)["rounds"][0]["text"]
    assert german != english and "alice" in german
    state.players[0] = "carol"  # a player renamed (or an AI's name in another language)
    renamed = GAME.public_data(state)["rounds"][0]["text"]
    assert "carol wins round 1 (more rupees)." in renamed and "alice" not in renamed


def test_board_after_the_match_shows_the_last_round():
    state = GAME.setup(["alice", "bob"], random.Random(4), {})
    GAME.rollout(state, random.Random(4))
    text = GAME.board(state)
    assert "Last round:" in text and "The match is over." in text


# --- no hidden information in public text ---------------------------------------------------


def _hidden_variant(state, rng, action, shuffle_bonus):
    """A state that looks the same to the table but whose hidden parts differ.

    Hands are re-dealt (same sizes), except the cards this action shows (sold or
    given back); the deck below its top five cards is re-dealt; bonus values are
    permuted among every token nobody has seen revealed.
    """
    new = clone(state)
    seat = state.turn
    keep = [[0] * 6, [0] * 6]
    if action[0] == R.SELL:
        keep[seat][action[1]] = action[2]
    elif action[0] == R.EXCHANGE:
        keep[seat] = list(action[2][:6])
    # goods seen going into a hand are public knowledge: they stay
    keep = [[max(keep[s][g], state.known[s][g]) for g in range(6)] for s in (0, 1)]
    top = new.deck[-5:]
    pool = new.deck[:-5]
    for s in (0, 1):
        pool += [g for g in range(6) for _ in range(new.hands[s][g] - keep[s][g])]
    rng.shuffle(pool)
    for s in (0, 1):
        need = sum(new.hands[s]) - sum(keep[s])
        hand = keep[s][:]
        rest = []
        for card in pool:
            if need and card != CAMEL:
                hand[card] += 1
                need -= 1
            else:
                rest.append(card)
        pool = rest
        new.hands[s] = hand
    new.deck = pool + top
    if shuffle_bonus:
        for i in range(3):
            unknown = new.bonus[i] + new.bonus_won[0][i] + new.bonus_won[1][i]
            rng.shuffle(unknown)
            a, b = len(new.bonus_won[0][i]), len(new.bonus_won[1][i])
            new.bonus_won[0][i] = unknown[:a]
            new.bonus_won[1][i] = unknown[a : a + b]
            new.bonus[i] = unknown[a + b :]
    return new


def _compare_with_hidden_variants(seeds: range, rng: random.Random) -> tuple[int, int]:
    """Play random matches; at random points apply one action to the state and to a
    hidden variant and require identical public text. Returns (comparisons, round ends)."""
    compared = ended = 0
    for seed in seeds:
        state = GAME.setup(["alice", "bob"], random.Random(seed), {})
        while not state.over:
            actions = R.legal_actions(state)
            action = actions[int(rng.random() * len(actions))] if rng.random() < 0.3 else None
            if action is None:
                R.play(state, RP.random_action(state, rng))
                continue
            probe = clone(state)
            ends = R.apply_action(probe, action) != R.GOES_ON
            variant = _hidden_variant(state, rng, action, shuffle_bonus=not ends)
            assert GAME.board(variant) == GAME.board(state)
            seat = state.turn
            out_a = GAME.apply(state, seat, action)
            out_b = GAME.apply(variant, seat, action)
            assert out_a.public == out_b.public
            assert set(out_a.private) <= {seat}
            assert GAME.board(variant) == GAME.board(state)
            compared += 1
            ended += ends
    return compared, ended


def test_public_text_never_depends_on_hidden_information():
    """Hidden parts re-dealt -> the board and every public announcement stay the same."""
    compared, ended = _compare_with_hidden_variants(range(60), random.Random(99))
    assert compared > 500 and ended > 20


def test_the_hidden_variant_check_catches_a_leak(monkeypatch):
    """The check above is not vacuous: a renderer that leaks a hand is caught."""
    from plugins.jaipur import render

    honest = render.turn_line

    def leaky(state):
        return honest(state) + " " + describe_counts(state.hands[state.turn])

    monkeypatch.setattr(render, "turn_line", leaky)
    with pytest.raises(AssertionError):
        _compare_with_hidden_variants(range(3), random.Random(1))


def test_public_text_never_shows_a_hand_or_a_bonus_value():
    """The private view never reaches the channel; bonus values stay out until a round ends.

    (Whether public text depends on hidden cards at all is tested above with re-dealt variants.)
    """
    rng = random.Random(5)
    checked = 0
    for seed in range(30):
        state = GAME.setup(["alice", "bob"], random.Random(seed), {})
        while not state.over:
            views = [GAME.private_view(state, s) for s in (0, 1)]
            seat = state.turn
            round_no = state.round_no
            out = GAME.apply(state, seat, RP.random_action(state, rng))
            public = GAME.board(state) + "\n" + "\n".join(out.public)
            assert "Your" not in public and "worth" not in public
            for view in views:
                assert view not in public and view.split(". ")[0] not in public
                checked += 1
            if state.round_no == round_no and not state.over:
                assert "bonus 1" not in public and "+" not in GAME.board(state)
    assert checked > 1000
