"""Random legal play at 1 to 6 players over many seeds, with the invariants checked at every step;
JSON round trips, replays, clone, determinize, rollout and the engine benchmark.

The games that try every listed command at every decision play one seed per table size and
rule set in CI, the games over many seeds (which try only the chosen command) two per size and
option set; ``BAZAAR_SEEDS=20`` plays twenty of each for a long soak.
"""

from __future__ import annotations

import functools
import json
import os
import random

import pytest

from bazaarbot.plugin import MoveError
from plugins.bazaar import GAME
from plugins.bazaar.deck import deck_problems
from plugins.bazaar.rules import TOTAL_PURCHASES
from plugins.bazaar.state import ACTION, OVER

#: every kind of command a player may type, to probe refusals at random points
PROBES = [
    "draw",
    "pass",
    "joker red",
    "trade 1",
    "trade 4 back",
    "trade 10 back",
    "buy 1",
    "buy 3",
    "discard blue",
    "zieh",
    "weiter",
    "kauf 2",
    "tausch 2 zurück",
]

#: ``BAZAAR_SEEDS``: how many games of each kind a long soak plays (unset: one and two)
SOAK = int(os.environ.get("BAZAAR_SEEDS", "0"))
#: the seeds of the games that try every listed command at every decision
PROBED_SEEDS = range(max(1, SOAK))
#: the seeds of the games over many seeds
MANY_SEEDS = range(100, 100 + max(2, SOAK))

OPTION_SETS = {
    "default": {},
    "fixed": {"table": "fixed"},
    "hand_limit": {"hand_limit": True},
    "bank": {"bank": True},
    "classic": {"hand_limit": True, "bank": True},
}


@functools.cache
def _deck_problems(deck: tuple) -> tuple[str, ...]:
    """``deck_problems`` of a deck in any order, worked out once per deck (a game keeps its deck)."""
    return tuple(deck_problems(list(deck)))


def check_invariants(s) -> None:
    n = s.n
    for seat in range(n):
        hand = s.hands[seat]
        assert min(hand) >= 0
        # stones in = stones out
        flow = s.drawn[seat] + s.received[seat] - s.given[seat] - s.spent[seat] - s.returned[seat]
        assert flow == sum(hand)
        # scores equal the sum of purchases
        assert s.scores[seat] == sum(p[4] for p in s.purchases[seat])
        assert s.spent[seat] == 5 * len(s.purchases[seat])
        if s.hand_limit and s.phase != OVER and (seat != s.turn or s.phase == ACTION):
            assert sum(hand) <= s.hand_limit
    if s.bank is not None:
        assert min(s.bank) >= 0
        assert sum(s.bank) + sum(sum(h) for h in s.hands) == 100
        for c in range(5):
            assert s.bank[c] + sum(h[c] for h in s.hands) == 20
    bought = [p[1] for ps in s.purchases for p in ps]
    remaining = [c for f in s.fields for c in f]
    assert len(bought) + len(remaining) == TOTAL_PURCHASES
    assert _deck_problems(tuple(sorted(bought + remaining))) == ()
    if s.purchase_count() == TOTAL_PURCHASES:
        assert s.phase == OVER
    if s.phase == OVER:
        assert s.purchase_count() == TOTAL_PURCHASES or s.blocked
        assert GAME.result(s) is not None and GAME.to_act(s) == []
    else:
        assert GAME.result(s) is None
        assert GAME.to_act(s) == [s.turn]
        for seat in range(n):
            assert bool(GAME.legal_commands(s, seat)) == (seat == s.turn)


def choose(state, commands, rng):
    """Buy whenever possible (so games end), else draw half the time, else any listed command."""
    buys = [c for c in commands if c.startswith("buy")]
    if buys:
        return rng.choice(buys)
    if "draw" in commands and rng.random() < 0.5:
        return "draw"
    return rng.choice(commands)


def same(a, b) -> bool:
    return GAME.to_json(a) == GAME.to_json(b)


def play_game(n, seed, options, check_every_command=True):
    rng = random.Random(seed * 7919 + n)
    players = [f"p{i + 1}" for i in range(n)]
    state = GAME.setup(players, random.Random(seed), options)
    log = []
    steps = 0
    while GAME.result(state) is None:
        check_invariants(state)
        seat = GAME.to_act(state)[0]
        commands = GAME.legal_commands(state, seat)
        assert commands, "the seat to act always has a move"
        if check_every_command:
            for command in commands:
                probe = GAME.clone(state)
                GAME.apply(probe, seat, GAME.parse(probe, seat, command))
                check_invariants(probe)
        if rng.random() < 0.05:  # refused commands change nothing
            text = rng.choice(PROBES)
            before = GAME.to_json(state)
            try:
                move = GAME.parse(state, seat, text)
                GAME.apply(GAME.clone(state), seat, move)
            except MoveError as err:
                assert err.message
            assert GAME.to_json(state) == before
        if rng.random() < 0.05:  # JSON round trip, then both copies play on identically
            data = json.loads(json.dumps(GAME.to_json(state)))
            restored = GAME.from_json(data)
            assert GAME.to_json(restored) == GAME.to_json(state)
            twin = GAME.clone(restored)
            command = choose(state, commands, random.Random(steps))
            GAME.apply(twin, seat, GAME.parse(twin, seat, command))
            GAME.apply(restored, seat, GAME.parse(restored, seat, command))
            assert same(twin, restored)
        command = choose(state, commands, rng)
        outcome = GAME.apply(state, seat, GAME.parse(state, seat, command))
        assert outcome.public and all(0 < len(line) < 300 for line in outcome.public)
        if rng.random() < 0.05:
            board = GAME.board(state).splitlines()  # six lines at most, each within one IRC line
            assert len(board) <= 6 and all(len(line.encode()) < 400 for line in board)
            assert len(GAME.brief_moves(state, seat)) < 300
        log.append((seat, command))
        steps += 1
        assert steps < 20_000, "the game must end"
    check_invariants(state)
    return state, log


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_random_play_conformance_every_listed_command_accepted(n):
    for seed in PROBED_SEEDS:
        state, _log = play_game(n, seed, {})
        assert state.purchase_count() == TOTAL_PURCHASES


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_random_play_conformance_classic_rules_every_listed_command_accepted(n):
    for seed in PROBED_SEEDS:
        state, _log = play_game(n, seed, OPTION_SETS["classic"])
        assert state.phase == OVER


@pytest.mark.parametrize("options", list(OPTION_SETS), ids=list(OPTION_SETS))
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_random_play_conformance_over_many_seeds(n, options):
    for seed in MANY_SEEDS:
        state, _log = play_game(n, seed, OPTION_SETS[options], check_every_command=False)
        assert state.phase == OVER


def test_replaying_the_typed_commands_rebuilds_the_same_game():
    state, log = play_game(3, 77, {"hand_limit": True}, check_every_command=False)
    again = GAME.setup(["p1", "p2", "p3"], random.Random(77), {"hand_limit": True})
    for seat, text in log:
        GAME.apply(again, seat, GAME.parse(again, seat, text))
    assert same(state, again)


def test_json_round_trip_is_lossless_including_the_rng():
    s = GAME.setup(["a", "b"], random.Random(5), {"bank": True})
    for _ in range(40):
        seat = s.turn
        GAME.apply(s, seat, GAME.parse(s, seat, choose(s, GAME.legal_commands(s, seat), random.Random(3))))
    restored = GAME.from_json(json.loads(json.dumps(GAME.to_json(s))))
    assert same(s, restored)
    assert s.rng.random() == restored.rng.random()


def test_clone_is_independent():
    s = GAME.setup(["a", "b"], random.Random(5), {})
    c = GAME.clone(s)
    GAME.apply(c, 0, GAME.parse(c, 0, "draw"))
    assert s.hands == [[0] * 5, [0] * 5]
    assert not same(s, c)


# --- AI support -------------------------------------------------------------------------------


def midgame(seed, n=3, options=None, moves=150):
    s = GAME.setup([f"p{i}" for i in range(n)], random.Random(seed), options or {})
    rng = random.Random(seed)
    for _ in range(moves):
        if GAME.result(s) is not None:
            break
        seat = s.turn
        GAME.apply(s, seat, GAME.parse(s, seat, choose(s, GAME.legal_commands(s, seat), rng)))
    return s


def visible(s):
    data = GAME.to_json(s)
    data.pop("rng")
    data["fields"] = [(len(f), f[-1] if f else None) for f in data["fields"]]
    return data


@pytest.mark.parametrize("seed", range(10))
def test_determinize_keeps_everything_visible_and_redeals_the_hidden(seed):
    s = midgame(seed)
    original = GAME.to_json(s)
    d = GAME.determinize(s, 1, random.Random(seed + 100))
    assert GAME.to_json(s) == original, "determinize must not touch the original"
    assert visible(d) == visible(s)
    bought = [p[1] for ps in d.purchases for p in ps]
    deck = bought + [c for f in d.fields for c in f]
    assert deck_problems(deck) == []
    assert d.rng.getstate() != s.rng.getstate()
    check_invariants(d)
    GAME.rollout(d, random.Random(seed))
    assert d.phase == OVER
    check_invariants(d)


def test_determinize_actually_redeals_the_face_down_combinations():
    s = midgame(3, moves=20)
    hidden = [tuple(f[:-1]) for f in s.fields]
    redeals = {
        tuple(tuple(f[:-1]) for f in GAME.determinize(s, 0, random.Random(k)).fields) for k in range(10)
    }
    assert len(redeals) > 1
    assert any(r != tuple(hidden) for r in redeals)


@pytest.mark.parametrize("options", list(OPTION_SETS), ids=list(OPTION_SETS))
def test_rollout_plays_to_the_end_buying_whenever_possible(options):
    for seed in range(5):
        s = midgame(seed, n=1 + seed, options=OPTION_SETS[options], moves=30)
        GAME.rollout(s, random.Random(seed))
        assert s.phase == OVER
        check_invariants(s)


def test_bench_reports_decisions_and_games_per_second():
    figures = dict(GAME.bench(0.4))
    assert figures["decisions/s"] > 0 and figures["games/s"] > 0
    assert figures["decisions/s (typed commands)"] > 0 and figures["games/s (typed commands)"] > 0
