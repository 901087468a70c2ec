"""``choose``: reproducible for a seed, seeded from (game seed, move, seat); a search that needs no hooks."""

from __future__ import annotations

import random

import pytest
from support.ai_helpers import GAMES, SMALL_LEVELS, choice_position
from support.countgame import GAME as COUNT

from bazaarbot.ai import ai_seed, choose
from bazaarbot.ai.choose import choose_action, game_named
from bazaarbot.ai.greedy import ranked_actions
from bazaarbot.ai.ismcts import Search, SearchBudget
from bazaarbot.ai.levels import DEFAULT_LEVELS, HARD_ITERATIONS, HARD_TIME_CAP


@pytest.mark.parametrize("name", sorted(GAMES))
def test_choose_is_reproducible_for_the_same_seed(name):
    game = GAMES[name]
    state = choice_position(game, max(2, game.min_players), 5)
    seat = game.to_act(state)[0]
    data = game.to_json(state)
    for level in ("greedy", "easy", "medium", "hard"):
        first = choose(name, data, seat, level, 77, SMALL_LEVELS)
        assert all(choose(name, data, seat, level, 77, SMALL_LEVELS) == first for _ in range(2))
    assert game.to_json(state) == data, "choose must not change the position it is given"


def test_ai_seed_depends_on_game_seed_move_and_seat():
    assert ai_seed(5, 10, 1) == ai_seed(5, 10, 1)
    seeds = {ai_seed(g, m, s) for g in (1, 2) for m in (0, 1, 2) for s in (0, 1)}
    assert len(seeds) == 12
    assert all(0 <= seed < 2**64 for seed in seeds)


def test_an_unknown_level_or_game_is_refused():
    state = GAMES["jaipur"].setup(["a", "b"], random.Random(1), {})
    data = GAMES["jaipur"].to_json(state)
    with pytest.raises(KeyError):
        choose("jaipur", data, state.turn, "grandmaster", 1)
    with pytest.raises(KeyError):
        game_named("chess")


def test_the_search_works_without_any_hook():
    """The count game has no evaluation, priors or policies: plain UCT with random rollouts finds the win."""
    state = COUNT.setup(["a", "b"], random.Random(1), {"target": 10})
    state.total = 7
    budget = SearchBudget(iterations=200)
    assert Search(COUNT, state, 0, budget, random.Random(3)).best_action() == "add 3"
    # from 5, adding 1 leaves the opponent at 6, a lost position for the player to move
    state.total = 5
    assert Search(COUNT, state, 0, SearchBudget(iterations=2000), random.Random(3)).best_action() == "add 1"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_search_stops_once_its_pick_cannot_change_and_picks_what_the_whole_budget_picks(name):
    game = GAMES[name]
    stopped = 0
    for seed in range(8):
        state = choice_position(game, max(2, game.min_players), seed)
        seat = game.to_act(state)[0]
        budget = SearchBudget(iterations=400, time_cap=60)
        early = Search(game, state, seat, budget, random.Random(seed))
        whole = Search(game, state, seat, budget, random.Random(seed))
        children = whole.run()  # no choices: every iteration of the budget
        assert whole.iterations == 400
        legal = game.ai_actions(state, seat)
        most = max(
            legal, key=lambda a: (children[a].visits, children[a].mean()) if a in children else (0, -1)
        )
        assert early.best_action() == most
        stopped += early.iterations < 400
    assert stopped, "no search was settled before the end of its budget"


def test_the_search_stops_at_the_time_cap_not_the_iterations():
    state = COUNT.setup(["a", "b"], random.Random(1), {"target": 30})
    ticks = iter(range(10**6))  # an injected clock: one second passes at every look
    budget = SearchBudget(iterations=10**6, time_cap=40)
    search = Search(COUNT, state, 0, budget, random.Random(1), lambda: next(ticks))
    search.run()
    assert 40 <= search.iterations <= 8 * 42, "the clock is read every 8 iterations"


def test_easy_plays_one_of_the_best_three_one_ply_moves():
    """A beginner's mistakes are the second or third best move, never a random one."""
    game = GAMES["jaipur"]
    for seed in range(8):
        state = choice_position(game, 2, seed)
        seat = state.turn
        for move in range(4):
            rng = random.Random(ai_seed(seed, move, seat))
            action = choose_action(game, state, seat, "easy", rng)
            view = game.determinize(state, seat, random.Random(ai_seed(seed, move, seat)))
            ranked = ranked_actions(game, view, seat)
            assert action in [a for _v, a in ranked[:3]]


def test_easy_is_not_the_greedy_policy():
    game = GAMES["jaipur"]
    differ = 0
    for seed in range(20):
        state = choice_position(game, 2, seed)
        for move in range(3):
            rng_seed = ai_seed(seed, move, state.turn)
            easy = choose_action(game, state, state.turn, "easy", random.Random(rng_seed))
            greedy = choose_action(game, state, state.turn, "greedy", random.Random(rng_seed))
            differ += easy != greedy
    assert 0 < differ < 60 * DEFAULT_LEVELS["easy"].mistakes + 15


def test_hard_never_spends_more_than_a_second_of_cpu_on_one_decision():
    """The shipped ``hard`` cuts the rare long search at one CPU second (``HARD_TIME_CAP``)."""
    hard = DEFAULT_LEVELS["hard"]
    assert hard.time_cap == HARD_TIME_CAP <= 1.0
    assert hard.iterations == HARD_ITERATIONS
    state = COUNT.setup(["a", "b"], random.Random(1), {"target": 30})
    readings: list[float] = []

    def clock() -> float:  # an injected clock: a hundredth of a second per iteration
        readings.append(search.iterations / 100 if readings else 0.0)
        return readings[-1]

    search = Search(COUNT, state, 0, hard.budget(), random.Random(1), clock)
    search.run()
    assert search.iterations < hard.iterations  # the cap, not the iterations, ended it
    assert search.iterations / 100 <= HARD_TIME_CAP  # and the last iteration ended within it
    assert search.iterations >= 100 * HARD_TIME_CAP - 1  # without stopping much earlier
