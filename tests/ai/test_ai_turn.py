"""``choose_turn``: ``choose``'s answer first, then the seat's later decisions in the same turn read
from the same tree, only for the exact position they answer and only when nothing was revealed."""

from __future__ import annotations

import math
import random

import pytest
from support.ai_helpers import GAMES, SMALL_LEVELS, choice_position

from bazaarbot.ai import choose, turn
from bazaarbot.ai.levels import Level
from bazaarbot.ai.prepared import PreparedAnswers, position_key
from bazaarbot.ai.turn import choose_turn
from plugins.yspahan.state import P_ACTION, P_ROLL

#: enough iterations that a follow-up's subtree reaches its share of the budget
LEVELS = {**SMALL_LEVELS, "hard": Level("hard", iterations=150, time_cap=30.0, depth=10)}
YSPAHAN = GAMES["yspahan"]


def yspahan_positions(phase: int, count: int, seed: int) -> list:
    """Positions of 4-player Yspahan games (random play) where seat 1 decides in ``phase`` with a choice."""
    found = []
    rng = random.Random(seed)
    while len(found) < count:
        state = YSPAHAN.setup(["p1", "p2", "p3", "p4"], random.Random(rng.random()), {})
        for _step in range(rng.randrange(5, 150)):
            seat = YSPAHAN.to_act(state)[0]
            commands = YSPAHAN.legal_commands(state, seat)
            YSPAHAN.apply(state, seat, YSPAHAN.parse(state, seat, rng.choice(commands)))
            if YSPAHAN.result(state) is not None:
                break
        else:
            seat = YSPAHAN.to_act(state)[0]
            if state.phase == phase and len(YSPAHAN.legal_commands(state, seat)) > 1:
                found.append(state)
    return found


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_turns_first_answer_is_the_answer_choose_gives(name):
    game = GAMES[name]
    state = choice_position(game, max(2, game.min_players), 8)
    seat = game.to_act(state)[0]
    data = game.to_json(state)
    for level in ("easy", "hard"):
        assert choose_turn(name, data, seat, level, 31, SMALL_LEVELS).command == choose(
            name, data, seat, level, 31, SMALL_LEVELS
        )


def test_a_follow_up_answers_the_seats_next_decision_after_the_command_as_the_table_plays_it(monkeypatch):
    monkeypatch.setattr(turn, "FOLLOW_UP_SHARE", 0.1)  # a small search's subtrees are small
    with_follow_ups = 0
    for state in yspahan_positions(P_ACTION, 8, 3):
        seat = YSPAHAN.to_act(state)[0]
        answer = choose_turn("yspahan", YSPAHAN.to_json(state), seat, "hard", 5, LEVELS)
        reached = set()
        command = answer.command
        while True:
            YSPAHAN.apply(state, seat, YSPAHAN.parse(state, seat, command))
            key = position_key(YSPAHAN.to_json(state), seat, "hard")
            if key not in answer.follow_ups:
                break
            reached.add(key)
            command = answer.follow_ups[key]
            assert YSPAHAN.to_act(state) == [seat] and command in YSPAHAN.legal_commands(state, seat)
        assert reached == set(answer.follow_ups), "every follow-up answers a position of this very turn"
        with_follow_ups += bool(reached)
    assert with_follow_ups, "no turn had a second decision read from its tree"


def test_a_later_decision_below_its_share_is_searched_on_from_the_turns_tree_up_to_its_share(monkeypatch):
    monkeypatch.setattr(turn, "FOLLOW_UP_SHARE", 1.01)  # more than the whole budget: never reached
    least = math.ceil(LEVELS["hard"].iterations * 1.01)
    searches: list[tuple[int, int, bool]] = []  # each search's tree before, iterations added, pick settled

    class RecordedSearch(turn.Search):
        def run(self, choices=None):
            before = self.root.visits
            children = super().run(choices)
            left = self.budget.iterations - self.iterations
            searches.append((before, self.iterations, bool(choices) and self._settled(choices, left)))
            return children

    monkeypatch.setattr(turn, "Search", RecordedSearch)
    followed = 0
    for state in yspahan_positions(P_ACTION, 6, 3):
        seat = YSPAHAN.to_act(state)[0]
        data = YSPAHAN.to_json(state)
        searches.clear()
        answer = choose_turn("yspahan", data, seat, "hard", 5, LEVELS)
        (_before, added, settled), *grown = searches
        assert added == LEVELS["hard"].iterations or settled, "the turn's own search is a whole one"
        assert len(grown) == len(answer.follow_ups), "every later decision was searched on from the tree"
        for before, added, settled in grown:
            assert before + added == least or (before + added < least and settled), grown
        followed += len(answer.follow_ups)
        assert choose_turn("yspahan", data, seat, "hard", 5, LEVELS) == answer, "seeded: the same answers"
    assert followed, "no turn had a later decision"


def test_without_searching_on_no_follow_up_from_a_subtree_below_its_share_of_the_budget(monkeypatch):
    monkeypatch.setattr(turn, "FOLLOW_UP_SHARE", 1.01)  # more than the whole budget: never reached
    for state in yspahan_positions(P_ACTION, 3, 3):
        seat = YSPAHAN.to_act(state)[0]
        data = YSPAHAN.to_json(state)
        assert choose_turn("yspahan", data, seat, "hard", 5, LEVELS, top_up=False).follow_ups == {}


def test_no_follow_up_after_a_roll_of_the_dice(monkeypatch):
    monkeypatch.setattr(turn, "FOLLOW_UP_SHARE", 0.0)
    for state in yspahan_positions(P_ROLL, 3, 4):
        seat = YSPAHAN.to_act(state)[0]
        answer = choose_turn("yspahan", YSPAHAN.to_json(state), seat, "hard", 6, LEVELS)
        assert answer.command.startswith(("roll", "yellow")) and answer.follow_ups == {}


def test_a_drawn_card_ends_the_turns_follow_ups(monkeypatch):
    monkeypatch.setattr(turn, "FOLLOW_UP_SHARE", 0.0)
    for state in yspahan_positions(P_ACTION, 6, 5):
        seat = YSPAHAN.to_act(state)[0]
        answer = choose_turn("yspahan", YSPAHAN.to_json(state), seat, "hard", 7, LEVELS)
        if answer.command.startswith("draw") and state.pile:
            assert answer.follow_ups == {}


def test_a_prepared_answer_is_only_for_the_very_position_seat_and_level():
    state = yspahan_positions(P_ACTION, 1, 6)[0]
    data = YSPAHAN.to_json(state)
    key = position_key(data, 1, "hard")
    hidden = YSPAHAN.to_json(state)
    hidden["pile"] = list(reversed(hidden["pile"]))  # the same board, another order of the hidden cards
    others = {position_key(data, 2, "hard"), position_key(data, 1, "medium"), position_key(hidden, 1, "hard")}
    assert key not in others and len(others) == 3
    prepared = PreparedAnswers(limit=2)
    prepared.add({key: "done", "b": "x", "c": "y"})
    assert prepared.take(key) is None and len(prepared) == 2, "the oldest answer makes room"
    assert prepared.take("b") == "x" and prepared.take("b") is None, "an answer is handed out once"
