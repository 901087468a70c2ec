"""Random-play conformance: hundreds of seeded rounds keep every invariant.

Also the AI-facing parts of the contract: clone, determinize, rollout, bench. The fast path
plays 400 rounds in CI; ``JAIPUR_ROUNDS=10000`` plays that many for a long soak (and
``JAIPUR_SEEDS`` more typed matches).
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter

import pytest

from plugins.jaipur import GAME
from plugins.jaipur import random_play as RP
from plugins.jaipur import rules as R
from plugins.jaipur.cards import (
    BONUS_TOKENS,
    CAMEL,
    CAMEL_TOKEN_VALUE,
    CARD_COUNTS,
    GOODS_PREFIX,
    GOODS_TOKENS,
    HAND_LIMIT,
    TOTAL_BONUS_TOKENS,
    TOTAL_CARDS,
    TOTAL_GOODS_TOKENS,
)
from plugins.jaipur.state import JaipurState


def check_invariants(state: JaipurState) -> None:
    """Cards, tokens and scores are conserved; hands respect the limit."""
    counts = Counter(state.deck)
    total = 0
    for card in range(7):
        placed = counts[card] + state.market[card]
        if card == CAMEL:
            placed += state.herds[0] + state.herds[1]
        else:
            placed += state.hands[0][card] + state.hands[1][card] + state.discard[card]
        assert placed == CARD_COUNTS[card], card
        total += placed
    assert total == TOTAL_CARDS
    assert all(n >= 0 for n in state.market) and sum(state.market) == 5 or state.over
    for seat in (0, 1):
        assert sum(state.hands[seat]) <= HAND_LIMIT
        assert all(0 <= state.known[seat][g] <= state.hands[seat][g] for g in range(6))
        assert all(n >= 0 for n in state.hands[seat]) and state.herds[seat] >= 0
    # goods tokens: 38 in piles or won; points equal the tokens handed out
    left = sum(len(GOODS_TOKENS[g]) - state.taken[g] for g in range(6))
    assert left + sum(state.goods_count) == TOTAL_GOODS_TOKENS
    assert sum(state.goods_points) == sum(GOODS_PREFIX[g][state.taken[g]] for g in range(6))
    assert state.empty_piles == sum(state.taken[g] == len(GOODS_TOKENS[g]) for g in range(6))
    # bonus tokens: 18, each pile's multiset intact between the pile and the winners
    assert (
        sum(len(p) for p in state.bonus) + sum(len(p) for w in state.bonus_won for p in w)
        == TOTAL_BONUS_TOKENS
    )
    for i in range(3):
        assert sorted(state.bonus[i] + state.bonus_won[0][i] + state.bonus_won[1][i]) == sorted(
            BONUS_TOKENS[i]
        )
    # the seals match the decided rounds
    assert state.seals == [sum(r["winner"] == s for r in state.rounds) for s in (0, 1)]


def check_round_summary(summary: dict) -> None:
    """A round's totals are exactly the sum of its scoring events, and the winner follows the tie-breaks."""
    herds = summary["herds"]
    holder = 0 if herds[0] > herds[1] else 1 if herds[1] > herds[0] else None
    assert summary["camel_token"] == holder
    for seat in (0, 1):
        bonus = summary["bonus"][seat]
        assert summary["bonus_sum"][seat] == sum(map(sum, bonus))
        assert summary["bonus_count"][seat] == sum(map(len, bonus))
        camel = CAMEL_TOKEN_VALUE if holder == seat else 0
        assert summary["totals"][seat] == summary["goods_points"][seat] + summary["bonus_sum"][seat] + camel
    keys = (summary["totals"], summary["bonus_count"], summary["goods_count"])
    expected = next(((0 if k[0] > k[1] else 1) for k in keys if k[0] != k[1]), None)
    assert summary["winner"] == expected


#: the rounds the fast path plays
ROUNDS = int(os.environ.get("JAIPUR_ROUNDS", "400"))


def test_random_play_over_hundreds_of_rounds_keeps_every_invariant():
    """The fast path: every random action is legal, and nothing is ever lost."""
    rng = random.Random(2026)
    rounds = matches = 0
    reasons = Counter()
    while rounds < ROUNDS:
        state = GAME.setup(["a", "b"], random.Random(rng.getrandbits(32)), {})
        check_invariants(state)
        while not state.over:
            legal = R.legal_actions(state)
            assert legal
            action = RP.random_action(state, rng)
            assert action in legal
            round_no = state.round_no
            summary = R.play(state, action)
            check_invariants(state)
            if summary is not None:
                check_round_summary(summary)
                reasons[summary["reason"]] += 1
                rounds += 1
                assert state.over or state.round_no == round_no + 1
        matches += 1
        assert max(state.seals) == 2 and GAME.result(state).winners == [state.seals.index(2)]
    assert reasons["piles"] > ROUNDS // 10 and reasons["deck"] > ROUNDS // 10  # both ways a round ends
    assert matches < rounds


def test_fast_random_round_loop_matches_the_reference_action_for_action():
    """The inlined rollout loop makes the same rng draws and reaches the same states as
    ``random_action`` + ``apply_action`` (which the test above checks for legality)."""
    for seed in range(300):
        a = GAME.setup(["a", "b"], random.Random(seed), {})
        b = GAME.clone(a)
        rng_a, rng_b = random.Random(seed), random.Random(seed)
        while not a.over:
            assert RP.play_random_round_reference(a, rng_a) == RP.play_random_round(b, rng_b)
            assert GAME.to_json(a) == GAME.to_json(b)
            assert rng_a.getstate() == rng_b.getstate()
        assert b.over


def _text_match(seed: int, rng: random.Random, every_command_each: int) -> int:
    """A match played by typed commands; returns the number of commands checked."""
    state = GAME.setup(["alice", "bob"], random.Random(seed), {})
    checked = decisions = 0
    while GAME.result(state) is None:
        seats = GAME.to_act(state)
        assert len(seats) == 1
        seat = seats[0]
        commands = GAME.legal_commands(state, seat)
        assert commands
        assert GAME.legal_commands(state, 1 - seat) == []
        if decisions % every_command_each == 0:
            for command in commands:
                trial = GAME.clone(state)
                GAME.apply(trial, seat, GAME.parse(trial, seat, command))
                checked += 1
        if rng.random() < 0.1:
            data = json.loads(json.dumps(GAME.to_json(state)))
            restored = GAME.from_json(data)
            assert GAME.to_json(restored) == GAME.to_json(state)
            assert GAME.board(restored) == GAME.board(state)
            # the restored state continues exactly like the original
            probe_rng = random.Random(decisions)
            copy_a, copy_b = GAME.clone(state), restored
            GAME.rollout(copy_a, random.Random(decisions))
            GAME.rollout(copy_b, probe_rng)
            assert GAME.to_json(copy_a) == GAME.to_json(copy_b)
        command = rng.choice(commands)
        GAME.apply(state, seat, GAME.parse(state, seat, command))
        check_invariants(state)
        decisions += 1
    result = GAME.result(state)
    assert result.scores[result.winners[0]] == 2 and GAME.to_act(state) == []
    return checked


def test_random_text_play_every_listed_command_is_accepted_and_json_round_trips():
    rng = random.Random(7)
    checked = sum(_text_match(seed, rng, every_command_each=7) for seed in range(12))
    assert checked > 2000


@pytest.mark.slow
def test_random_text_play_long_run():
    """Every listed command of every decision tried, over more matches (JAIPUR_SEEDS for a long soak)."""
    rng = random.Random(8)
    matches = int(os.environ.get("JAIPUR_SEEDS", "4"))
    assert (
        sum(_text_match(seed, rng, every_command_each=1) for seed in range(100, 100 + matches))
        > 170 * matches
    )


def test_replay_from_the_log_reproduces_the_match():
    """What the store does on restart: setup with the same seed, then every logged command."""
    rng = random.Random(3)
    state = GAME.setup(["alice", "bob"], random.Random(42), {})
    log = []
    while GAME.result(state) is None:
        seat = GAME.to_act(state)[0]
        command = rng.choice(GAME.legal_commands(state, seat))
        GAME.apply(state, seat, GAME.parse(state, seat, command))
        log.append((seat, command))
    replay = GAME.setup(["alice", "bob"], random.Random(42), {})
    for seat, command in log:
        GAME.apply(replay, seat, GAME.parse(replay, seat, command))
    assert GAME.to_json(replay) == GAME.to_json(state)


# --- clone / determinize / rollout -------------------------------------------------------


def _midgame_states(count: int, seed: int = 0):
    rng = random.Random(seed)
    for i in range(count):
        state = GAME.setup(["alice", "bob"], random.Random(seed * 1000 + i), {})
        for _ in range(rng.randrange(0, 120)):
            if state.over:
                break
            R.play(state, RP.random_action(state, rng))
        yield state


def test_clone_is_independent_and_equal():
    for state in _midgame_states(20):
        copy = GAME.clone(state)
        assert GAME.to_json(copy) == GAME.to_json(state)
        GAME.rollout(copy, random.Random(1))
        assert copy.over
        if not state.over:
            assert GAME.to_json(copy) != GAME.to_json(state)
            check_invariants(state)


def test_determinize_keeps_what_the_seat_sees_and_stays_consistent():
    differs = 0
    for state in _midgame_states(40, seed=1):
        for seat in (0, 1):
            det = GAME.determinize(state, seat, random.Random(seat))
            assert GAME.board(det) == GAME.board(state)
            assert GAME.private_view(det, seat) == GAME.private_view(state, seat)
            assert det.hands[seat] == state.hands[seat] and det.bonus_won[seat] == state.bonus_won[seat]
            assert det.known == state.known
            assert sum(det.hands[1 - seat]) == sum(state.hands[1 - seat])
            assert GAME.legal_commands(det, seat) == GAME.legal_commands(state, seat)
            check_invariants(det)
            differs += det.deck != state.deck or det.hands[1 - seat] != state.hands[1 - seat]
            GAME.rollout(det, random.Random(2))
            assert det.over and GAME.result(det) is not None
    assert differs > 40


def test_determinize_keeps_goods_seen_going_into_the_opponents_hand():
    from plugins.jaipur.scenario import build_state

    state = build_state("diamond 2 spice leather camel", ["cloth", "gold 2 silver"], herds=(1, 3))
    GAME.apply(state, 0, GAME.parse(state, 0, "take diamond"))
    GAME.apply(state, 1, GAME.parse(state, 1, "take 2 spice give 2 camels"))
    GAME.apply(state, 0, GAME.parse(state, 0, "take camels"))
    GAME.apply(state, 1, GAME.parse(state, 1, "sell spice"))
    assert state.known == [[1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]]
    GAME.apply(state, 0, GAME.parse(state, 0, "sell cloth"))
    seen_other_hands = set()
    for i in range(50):
        det = GAME.determinize(state, 1, random.Random(i))
        assert det.hands[0][0] >= 1 and sum(det.hands[0]) == 1
        det = GAME.determinize(state, 0, random.Random(i))
        seen_other_hands.add(tuple(det.hands[1]))
    assert len(seen_other_hands) > 3


def test_determinize_reseeds_the_future_from_the_given_rng():
    state = next(_midgame_states(1, seed=5))
    a = GAME.determinize(state, 0, random.Random(1))
    b = GAME.determinize(state, 0, random.Random(1))
    c = GAME.determinize(state, 0, random.Random(2))
    assert GAME.to_json(a) == GAME.to_json(b)
    assert a.rng.getstate() != state.rng.getstate() and a.rng.getstate() != c.rng.getstate()


def test_rollout_plays_to_a_seal_winner_and_is_reproducible():
    for state in _midgame_states(10, seed=2):
        a, b = GAME.clone(state), GAME.clone(state)
        GAME.rollout(a, random.Random(9))
        GAME.rollout(b, random.Random(9))
        assert GAME.to_json(a) == GAME.to_json(b)
        assert GAME.result(a).scores[GAME.result(a).winners[0]] == 2


def test_bench_reports_random_rounds_per_second_first():
    figures = GAME.bench(0.05)
    labels = [label for label, _value in figures]
    assert labels[0] == "random rounds/s" and "random decisions/s" in labels
    assert "text-path decisions/s" in labels
    assert all(value > 0 for _label, value in figures)
