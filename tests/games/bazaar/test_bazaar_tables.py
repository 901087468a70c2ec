"""The exchange table generator (§9.6), its quality gate, and the combination deck (§9.7)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from plugins.bazaar import GAME
from plugins.bazaar import exchange as X
from plugins.bazaar import quality as Q
from plugins.bazaar.deck import (
    ALL_COMBOS,
    COLOUR_SLOTS,
    VALUABLE_RANGE,
    deck_problems,
    generate_deck,
    is_valuable,
)
from plugins.bazaar.exchange import FIXED_TABLE, generate_table, table_problems

SEEDS = range(300)


@pytest.fixture(scope="module")
def tables():
    return [generate_table(random.Random(seed)) for seed in SEEDS]


def colours_of(side):
    return {c for c in range(5) if side[c]}


# --- structural constraints 1-8, each checked directly over many seeds --------------------------


def test_generator_constraint_1_ten_rows(tables):
    assert all(len(t) == 10 for t in tables)


def test_generator_constraint_2_row_shapes(tables):
    want = sorted([(1, 2)] * 4 + [(1, 3)] * 3 + [(2, 2)] + [(2, 3)] * 2)
    for t in tables:
        assert sorted(tuple(sorted((sum(a), sum(b)))) for a, b in t) == want
        assert all(1 <= sum(side) <= 3 for row in t for side in row)


def test_generator_constraint_3_sides_share_no_colour_and_at_most_two_alike(tables):
    for t in tables:
        for a, b in t:
            assert not colours_of(a) & colours_of(b)
            assert max(a) <= 2 and max(b) <= 2


def test_generator_constraint_4_no_duplicate_rows_even_mirrored(tables):
    for t in tables:
        keys = [frozenset((a, b)) for a, b in t]
        assert len(set(keys)) == 10


def test_generator_constraint_5_every_colour_is_a_single_stone_side(tables):
    for t in tables:
        singles = [side for row in t for side in row if sum(side) == 1]
        assert len(singles) == 7
        assert {side.index(1) for side in singles} == set(range(5))


def test_generator_constraint_6_every_colour_appears_as_a_pair(tables):
    for t in tables:
        assert {c for row in t for side in row for c in range(5) if side[c] == 2} == set(range(5))


def test_generator_constraint_7_each_colour_in_three_to_six_rows(tables):
    for t in tables:
        for c in range(5):
            assert 3 <= sum(1 for a, b in t if a[c] or b[c]) <= 6


def test_generator_constraint_8_colours_connected_across_rows(tables):
    for t in tables:
        seen, todo = {0}, [0]
        while todo:
            x = todo.pop()
            for a, b in t:
                for s1, s2 in ((a, b), (b, a)):
                    if s1[x]:
                        for y in colours_of(s2) - seen:
                            seen.add(y)
                            todo.append(y)
        assert seen == set(range(5))


def test_generated_tables_vary_with_the_seed(tables):
    assert len({t for t in tables}) > 250


def test_generator_is_reproducible_from_the_rng():
    assert generate_table(random.Random(42)) == generate_table(random.Random(42))


def test_the_generator_makes_a_sound_table_for_every_seed():
    """Its speed is measured by ``bazaarbot bench engine bazaar``, not here."""
    for seed in range(100):
        assert table_problems(generate_table(random.Random(seed))) == []


def test_table_problems_catches_each_broken_constraint():
    t = list(FIXED_TABLE)
    assert table_problems(t) == []
    g = X._g
    cases = {
        "rows instead": t[:9],
        "shapes": t[:9] + [(g(0), g(1))],
        "both sides": t[:9] + [(g(1, 3), g(1, 2, 2))],
        "three stones": [(g(0), g(2, 2, 2))] + t[1:],
        "duplicate": t[:9] + [(t[0][1], t[0][0])],
        "never appears as a pair": t[:5] + [(g(1), g(0, 2, 3))] + t[6:],  # no blue pair left
    }
    for key, table in cases.items():
        assert any(key in p for p in table_problems(table)), key


def test_fixed_table_is_the_reference_table():
    assert table_problems(FIXED_TABLE) == []
    assert FIXED_TABLE[0] == ((0, 0, 1, 0, 0), (0, 2, 0, 0, 0))  # 1 red = 2 green
    assert FIXED_TABLE[9] == ((0, 1, 0, 1, 0), (0, 0, 2, 0, 1))  # green + white = 2 red + yellow
    for c in range(5):  # every colour appears in exactly 6 rows
        assert sum(1 for a, b in FIXED_TABLE if a[c] or b[c]) == 6


def test_table_option_fixed_gives_the_fallback_table_and_generated_a_new_one():
    fixed = GAME.setup(["a"], random.Random(1), {"table": "fixed"})
    assert fixed.rows == FIXED_TABLE
    one = GAME.setup(["a"], random.Random(1), {})
    two = GAME.setup(["a"], random.Random(2), {})
    assert one.rows != two.rows
    assert table_problems(one.rows) == [] and table_problems(two.rows) == []


def test_new_game_new_seed_gives_a_new_table_and_deck():
    # the core's /reset starts a new game with a new seed: a different table and deck
    games = [GAME.setup(["a", "b"], random.Random(seed), {}) for seed in range(20)]
    assert len({g.rows for g in games}) == 20
    assert len({tuple(tuple(f) for f in g.fields) for g in games}) == 20
    again = GAME.setup(["a", "b"], random.Random(7), {})
    assert again.rows == games[7].rows and again.fields == games[7].fields


# --- quality gate (Markov decision problem) -----------------------------------------------------


@pytest.fixture(scope="module", autouse=True)
def each_table_solved_once() -> Iterator[None]:
    """The gate's figures of a table worked out once in this module (a second of pure Python each):
    ``passes_gate`` and a game's set-up ask for the figures of a table a test reads itself."""
    solve = Q.five_of_a_kind_turns
    solved: dict[tuple, list[float]] = {}

    def once(rows) -> list[float]:
        key = tuple(rows)
        if key not in solved:
            solved[key] = solve(rows)
        return list(solved[key])

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Q, "five_of_a_kind_turns", once)
        yield


def test_quality_gate_reproduces_the_reference_figures_for_the_fixed_table():
    turns = Q.five_of_a_kind_turns(FIXED_TABLE)
    blue, green, red, white, yellow = turns
    assert yellow == pytest.approx(6.4, abs=0.05) and yellow == min(turns)
    assert white == pytest.approx(8.2, abs=0.05) and white == max(turns)
    assert Q.passes_gate(FIXED_TABLE)


def test_quality_gate_expected_turns_solve_a_small_case_exactly():
    # rows "1 x = 1 red" for every other colour x: the first draw gives red or a joker with
    # probability 1/3 (done in 1 turn); otherwise one trade turns the stone red: 1 + 2/3 turns
    red = (0, 0, 1, 0, 0)
    rows = [(tuple(int(c == x) for c in range(5)), red) for x in (0, 1, 3, 4)]
    (one_red,) = Q.expected_turns(rows, [red])
    assert one_red == pytest.approx(1 + 2 / 3, abs=1e-3)
    (two_red,) = Q.expected_turns(rows, [(0, 0, 2, 0, 0)])
    assert two_red == pytest.approx(2 * (1 + 2 / 3), abs=1e-3)


def test_quality_gate_rejects_a_table_where_five_of_a_kind_cannot_be_made():
    # without trades a hand never shrinks below what it drew, so "exactly five" is out of reach
    assert Q.five_of_a_kind_turns([]) == [float("inf")] * 5
    assert not Q.passes_gate([])
    partial = Q.five_of_a_kind_turns(FIXED_TABLE[:4])
    assert max(partial) > Q.GATE_WORST


def test_quality_gate_thresholds_are_named_constants():
    assert Q.GATE_WORST == 9.0 and Q.GATE_SPREAD == 3.0 and Q.MAX_HAND == 10


def test_quality_gate_spread_rule(monkeypatch):
    monkeypatch.setattr(Q, "five_of_a_kind_turns", lambda rows: [5.0, 5.5, 8.5, 6.0, 6.0])
    assert not Q.passes_gate(FIXED_TABLE)  # 8.5 - 5.0 > 3
    monkeypatch.setattr(Q, "five_of_a_kind_turns", lambda rows: [6.0, 6.5, 8.9, 7.0, 6.0])
    assert Q.passes_gate(FIXED_TABLE)


def test_quality_gate_option_regenerates_until_the_table_passes(monkeypatch):
    calls = []

    def gate(rows):
        calls.append(rows)
        return len(calls) >= 3

    monkeypatch.setattr(Q, "passes_gate", gate)
    table = generate_table(random.Random(5), quality_gate=True)
    assert len(calls) == 3 and table == calls[-1]
    assert table_problems(table) == []


def test_quality_gate_option_off_by_default_and_gates_the_rows():
    assert next(o for o in GAME.options if o.name == "quality_gate").default is False
    s = GAME.setup(["a", "b"], random.Random(11), {"quality_gate": True})
    turns = Q.five_of_a_kind_turns(s.rows)
    assert max(turns) <= Q.GATE_WORST and max(turns) - min(turns) <= Q.GATE_SPREAD


# --- the combination deck ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def decks():
    return [generate_deck(random.Random(seed)) for seed in range(1000)]


def test_all_126_five_stone_multisets_and_25_valuable():
    assert len(ALL_COMBOS) == 126 == len(set(ALL_COMBOS))
    assert all(sum(c) == 5 for c in ALL_COMBOS)
    assert sum(1 for c in ALL_COMBOS if is_valuable(c)) == 25


def test_deck_has_24_distinct_combinations(decks):
    for d in decks:
        assert len(d) == 24 and len(set(d)) == 24
        assert all(c in ALL_COMBOS for c in d)


def test_deck_has_four_to_eight_valuable_combinations(decks):
    assert VALUABLE_RANGE == (4, 8)
    for d in decks:
        assert 4 <= sum(1 for c in d if is_valuable(c)) <= 8


def test_deck_colour_slots_between_18_and_30(decks):
    assert COLOUR_SLOTS == (18, 30)
    for d in decks:
        for colour in range(5):
            assert 18 <= sum(c[colour] for c in d) <= 30


def test_deck_is_uniform_over_multisets_not_over_colour_sequences(decks):
    # uniform over the 126 multisets: each appears in about 24/126 of the decks; five-of-a-kind
    # would all but vanish if stones were drawn one by one (probability 5/3125 per combination)
    appearances = {c: 0 for c in ALL_COMBOS}
    for d in decks:
        for c in d:
            appearances[c] += 1
    five_kind = [appearances[c] for c in ALL_COMBOS if max(c) == 5]
    mixed = [appearances[c] for c in ALL_COMBOS if max(c) == 1]
    assert all(100 < n < 300 for n in five_kind)
    assert all(100 < n < 300 for n in mixed)


def test_deck_is_dealt_six_per_field():
    s = GAME.setup(["a", "b"], random.Random(3), {})
    assert [len(f) for f in s.fields] == [6, 6, 6, 6]
    deck = [c for f in s.fields for c in f]
    assert deck_problems(deck) == []


def test_deck_problems_catches_bad_decks():
    assert deck_problems(ALL_COMBOS[:24])  # the first 24 are too heavy in one colour
    assert "not 24 distinct" in deck_problems(ALL_COMBOS[:23])[0]
