"""/review: the decisions that lost the most win chance, private, stored across a restart, blind to
what each seat could not see, and only for a finished game's players."""

from __future__ import annotations

import asyncio
import random

import pytest
from support.ai_helpers import GAMES, SMALL_LEVELS, choice_position, sizes
from support.botdriver import NETWORK, Driver, Recorder, told
from support.countgame import GAME as COUNT
from support.teach_helpers import HeldPool
from support.waits import wait_until

from bazaarbot.ai.ismcts import SearchBudget
from bazaarbot.messages import Incoming, Tell, User
from bazaarbot.teach.analysis import action_of, judge
from bazaarbot.teach.review import chance_lines, review, worst
from bazaarbot.teach.teacher import MAX_REVIEWS

TINY = SearchBudget(40, 5.0, 8)


def blundered_game(bot: Driver) -> int:
    """Count to 10: at total 7 bob could win with add 3 but plays add 1, and alice wins."""
    bot.script("alice: /new count target=10", "bob: /join", "alice: /start")
    first = "alice" if bot.table.state.turn == 0 else "bob"
    second = "bob" if first == "alice" else "alice"
    game_id = bot.table.game_id
    for nick, move in (
        (first, "add 3"),
        (second, "add 2"),
        (first, "add 2"),
        (second, "add 1"),
        (first, "add 2"),
    ):
        bot.line(nick, move)
    assert not bot.table.running
    return game_id, second


def test_a_review_names_the_move_that_threw_the_win_away(store_target):
    bot = Driver(store_target)
    game_id, blunderer = blundered_game(bot)
    out = bot.line(blunderer, "/review")
    assert all(isinstance(m, Tell) and m.nick == blunderer for m in out), "a review is private"
    lines = told(out, blunderer)[0].splitlines()
    assert lines[0].startswith(f"Review of game {game_id} (Count) for {blunderer}")
    assert lines[1].startswith('Move 4: you played "add 1"') and '"add 3" was better (100%)' in lines[1]
    assert f"/replay/{game_id}" in lines[-1]


def test_a_review_is_stored_and_the_second_one_after_a_restart_needs_no_search(store_target, monkeypatch):
    bot = Driver(store_target)
    game_id, blunderer = blundered_game(bot)
    first = told(bot.line(blunderer, f"/review {game_id}"), blunderer)
    bot = bot.restart()

    def no_search(*args, **kwargs):
        raise AssertionError("a stored review is not searched again")

    monkeypatch.setattr("bazaarbot.teach.teacher.review", no_search)
    assert told(bot.line(blunderer, f"/review {game_id}"), blunderer) == first
    assert bot.hub.teacher.stored_review(game_id)["game_id"] == game_id


def test_only_a_finished_games_players_get_a_review(store_target):
    bot = Driver(store_target)
    assert "no finished game" in told(bot.line("alice", "/review"), "alice")[0]
    bot.script("alice: /new count", "bob: /join", "alice: /start")
    running = bot.table.game_id
    assert "not finished" in told(bot.line("alice", f"/review {running}"), "alice")[0]
    assert "There is no game 99" in told(bot.line("alice", "/review 99"), "alice")[0]
    assert "takes the number of a game" in told(bot.line("alice", "/review soon"), "alice")[0]
    bot.line("alice", "/reset")
    game_id, _blunderer = blundered_game(bot)
    assert "did not play in game" in told(bot.line("carol", f"/review {game_id}"), "carol")[0]


def test_a_review_runs_in_the_background_and_answers_everybody_who_asked(store_target):
    bot = Driver(store_target)
    game_id, blunderer = blundered_game(bot)
    winner = "alice" if blunderer == "bob" else "bob"
    recorder = Recorder()
    bot.hub.attach(recorder)
    held = HeldPool()
    bot.hub.teacher.review_pool = lambda: held

    async def ask() -> None:
        await bot.hub.handle(Incoming(NETWORK, "#t", User(blunderer), "/review"))
        await wait_until(lambda: recorder.private(blunderer))  # on a server: read off the event loop
        await bot.hub.handle(Incoming(NETWORK, None, User(winner), f"/review {game_id}"))
        await wait_until(lambda: recorder.private(winner))
        assert "Reviewing game" in recorder.private(blunderer)[0]
        assert "under way" in recorder.private(winner)[0]
        await wait_until(lambda: held.held, what="the search to reach the AI's pool")
        assert [work for _future, work, _args in held.held] == [review], "one search, in the AI's pool"
        held.release()
        await bot.hub.idle()

    asyncio.run(ask())
    assert recorder.private(blunderer)[-1].startswith(f"Review of game {game_id} (Count) for {blunderer}")
    assert recorder.private(winner)[-1].startswith(f"Review of game {game_id} (Count) for {winner}")
    assert bot.hub.teacher.stored_review(game_id) is not None


def test_the_review_data_gives_each_player_a_win_chance_line(store_target):
    bot = Driver(store_target)
    game_id, blunderer = blundered_game(bot)
    made = review(COUNT, bot.hub.store.game_record(game_id), TINY)
    seat = made["players"].index(blunderer)
    assert [d["played"] for d in worst(made, seat)][:1] == ["add 1"]
    lines = chance_lines(made)
    assert len(lines) == 2 and all(lines)
    assert all(0.0 <= chance <= 1.0 for line in lines for _step, chance in line)
    assert made["complete"] and made["steps"] == 5


@pytest.mark.parametrize(("name", "players"), [s for s in sizes() if s[1] in (2, 4)])
def test_a_reviewed_decision_never_reads_what_the_seat_could_not_see(name, players):
    game = GAMES[name]
    state = choice_position(game, players, 21)
    seat = game.to_act(state)[0]
    other = next(
        o
        for o in (game.determinize(state, seat, random.Random(k)) for k in range(20))
        if game.to_json(o) != game.to_json(state)
    )
    played = game.ai_actions(state, seat)[-1]
    text = game.ai_command(state, seat, played)
    assert action_of(game, state, seat, text) == played
    mine, mine_played = judge(game, state, seat, TINY, 9, played)
    theirs, theirs_played = judge(game, other, seat, TINY, 9, action_of(game, other, seat, text))
    assert [(j.command, j.visits, j.chance) for j in mine] == [
        (j.command, j.visits, j.chance) for j in theirs
    ]
    assert (mine_played.command, mine_played.chance) == (theirs_played.command, theirs_played.chance)


def test_reviews_under_way_are_bounded(store_target):
    """Each review costs minutes of CPU: past a few under way, a new one is refused, not queued."""
    bot = Driver(store_target)
    game_id, blunderer = blundered_game(bot)
    held = HeldPool()
    bot.hub.teacher.review_pool = lambda: held
    recorder = Recorder()
    bot.hub.attach(recorder)
    for other in range(1000, 1000 + MAX_REVIEWS):
        bot.hub.teacher.reviewing[other] = []

    async def ask() -> None:
        await bot.hub.handle(Incoming(NETWORK, None, User(blunderer), f"/review {game_id}"))
        await bot.hub.idle()

    asyncio.run(ask())
    assert "Too many reviews are under way" in recorder.private(blunderer)[0]
    assert not held.held and bot.hub.teacher.stored_review(game_id) is None


def test_an_undone_step_is_not_part_of_the_reviewed_or_replayed_game():
    from bazaarbot.table.steps import replay

    moves = [
        {"n": 0, "seat": 0, "text": "add 1"},
        {"n": 1, "seat": 1, "text": "add 2"},
        {"n": 2, "seat": 1, "text": "/undo"},
        {"n": 3, "seat": 1, "text": "add 3"},
    ]
    steps, final = replay(COUNT, 5, ["a", "b"], {"target": 10}, moves)
    assert [s.text for s in steps] == ["add 1", "add 3"]
    assert final.total == 4 and final.turn == 0


def test_a_replay_gives_public_steps_and_refuses_a_log_that_no_longer_replays(store_target):
    bot = Driver(store_target)
    game_id, _blunderer = blundered_game(bot)
    view = bot.hub.replay_view(NETWORK, game_id)
    assert view["replayable"] and len(view["steps"]) == 5
    assert view["steps"][-1]["public"] == {"text": COUNT.board(bot.table.state or _final(bot, game_id))}
    assert "secret" not in str(view).lower()
    assert bot.hub.replay_view("elsewhere", game_id) is None
    with bot.hub.store.db.conn:
        bot.hub.store.db.conn.execute("UPDATE moves SET text='add 9' WHERE game_id=? AND n=0", [game_id])
    from bazaarbot.teach import replay as replays

    replays._CACHE.clear()
    broken = bot.hub.replay_view(NETWORK, game_id)
    assert broken["replayable"] is False and "no longer replays" in broken["reason"]


def _final(bot: Driver, game_id: int):
    from bazaarbot.table.steps import replay

    record = bot.hub.store.game_record(game_id)
    return replay(
        COUNT, record["seed"], [p["nick"] for p in record["players"]], record["options"], record["moves"]
    )[1]


class SlowClock:
    """A CPU clock that advances a whole second at every look (a search far slower than real)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@pytest.mark.parametrize("name", ["jaipur", "yspahan", "bazaar"])
def test_a_background_review_judges_every_decision_within_its_cpu_budget(name):
    from bazaarbot.bench.teach import played_game
    from bazaarbot.teach.graph import graph_review

    record, choices = played_game(name, 2, 5)
    clock = SlowClock()
    budget = 40 * len(choices)  # seconds of the slow clock: a few looks per decision
    made = graph_review(name, record, budget, SMALL_LEVELS, clock)
    assert made["complete"] and len(made["decisions"]) == len(choices)
    assert made["seconds"] <= budget
    assert [len(line) for line in made["lines"]] == [
        sum(1 for d in made["decisions"] if d["seat"] == seat) for seat in range(2)
    ]
    assert all(0.0 <= chance <= 1.0 for line in made["lines"] for _step, chance in line)


def test_a_review_with_too_small_a_budget_says_it_stopped_early():
    from bazaarbot.bench.teach import played_game

    record, choices = played_game("jaipur", 2, 5)
    made = review("jaipur", record, TINY, 10.0, SlowClock())
    assert not made["complete"] and len(made["decisions"]) < len(choices)
