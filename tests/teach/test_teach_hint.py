"""/hint: off unless the table says hints=on, legal and reproducible, blind to what the seat cannot see,
searched off the event loop, and a hinted game is left unrated."""

from __future__ import annotations

import asyncio
import random

import pytest
from support.ai_helpers import GAMES, choice_position, sizes
from support.botdriver import NETWORK, Driver, Recorder, said, told
from support.teach_helpers import HeldPool
from support.waits import wait_until

from bazaarbot.ai.ismcts import SearchBudget
from bazaarbot.ai.levels import Level
from bazaarbot.config import BotSettings, RateLimit, RatingSettings
from bazaarbot.messages import Incoming, User
from bazaarbot.teach.analysis import Judged
from bazaarbot.teach.budgets import hint_budget
from bazaarbot.teach.hint import by_share_then_chance, hint
from bazaarbot.teach.text import hint_lines

#: a budget small enough for tests (strength and latency are measured by the bench)
TINY = SearchBudget(40, 5.0, 8)


def bot_at(tmp_path, rate_limit: RateLimit | None = None) -> Driver:
    settings = BotSettings(
        default_game="count",
        seed=7,
        rate_limit=rate_limit or RateLimit(commands=1000, per_seconds=1),
        ratings=RatingSettings(min_games=1),
    )
    return Driver(tmp_path / "h.sqlite", settings=settings)


def seated(bot: Driver, options: str = "") -> None:
    bot.line("alice", f"/new count target=10 {options}".strip())
    bot.line("bob", "/join")
    bot.line("alice", "/start")


def test_hints_are_off_by_default(tmp_path):
    bot = bot_at(tmp_path)
    seated(bot)
    answer = told(bot.line("alice", "/hint"), "alice")
    assert len(answer) == 1 and "Hints are off at this table" in answer[0] and "hints=on" in answer[0]
    assert not bot.hub.teacher.records.hinted(bot.table.game_id)


def test_a_hint_names_legal_commands_with_their_share_and_win_chance(tmp_path):
    bot = bot_at(tmp_path)
    seated(bot, "hints=on")
    for move in ("add 3", "add 3", "add 1"):  # total 7: alice wins with add 3
        bot.line("alice" if bot.table.state.turn == 0 else "bob", move)
    nick = "alice" if bot.table.state.turn == 0 else "bob"
    out = bot.line(nick, "/hint")
    assert not said(out), "a hint is private"
    lines = told(out, nick)[0].splitlines()
    assert lines[0].startswith("Hint (a search of 40 playouts)")
    legal = bot.table.plugin.legal_commands(bot.table.state, bot.table.state.turn)
    offered = [line.split(". ", 1)[1].split(" - ")[0] for line in lines[1:]]
    assert offered and set(offered) <= set(legal)
    assert offered[0] == "add 3", "the winning move comes first"
    assert "win chance 100%" in lines[1] and "search share" in lines[1]


def test_a_hint_is_for_the_player_whose_decision_it_is(tmp_path):
    bot = bot_at(tmp_path)
    seated(bot, "hints=on")
    waiting = "bob" if bot.table.state.turn == 0 else "alice"
    assert "not your turn" in told(bot.line(waiting, "/hint"), waiting)[0]
    assert "Only a seated player" in told(bot.line("carol", "/hint"), "carol")[0]


def test_hint_counts_against_the_rate_limit(tmp_path):
    bot = bot_at(tmp_path, RateLimit(commands=3, per_seconds=600))
    bot.line("alice", "/new count hints=on")
    bot.line("bob", "/join")
    answers = [told(bot.line("bob", "/hint"), "bob") for _ in range(3)]
    assert "Slow down" in answers[-1][0]


def test_a_hinted_game_is_not_rated_and_stays_unrated_after_a_rebuild(tmp_path):
    bot = bot_at(tmp_path)
    seated(bot, "hints=on")
    hinted_game = bot.table.game_id
    first = "alice" if bot.table.state.turn == 0 else "bob"
    assert told(bot.line(first, "/hint"), first)[0].startswith("Hint")
    bot.line(first, "add 3")
    second = "bob" if first == "alice" else "alice"
    bot.line(second, "add 3")
    end = bot.line(first, "add 3")
    end += bot.line(second, "add 1")
    assert any(line.startswith("Game over:") for line in said(end))
    assert not any(line.startswith("Ratings") for line in said(end))
    # the next game at the same table, without a hint, is rated
    bot.line("alice", "/start")
    p = "alice" if bot.table.state.turn == 0 else "bob"
    q = "bob" if p == "alice" else "alice"
    for nick, move in ((p, "add 3"), (q, "add 3"), (p, "add 3"), (q, "add 1")):
        end = bot.line(nick, move)
    assert any(line.startswith("Ratings") for line in said(end))
    ratings = bot.hub.ratings
    assert ratings.records.changes(hinted_game) == []
    ratings.rebuild()
    assert ratings.records.changes(hinted_game) == []
    assert ratings.standing(NETWORK, "count", "n:alice").games == 1


@pytest.mark.parametrize(("name", "players"), sizes())
def test_the_same_seed_gives_the_same_hint_and_every_move_is_legal(name, players):
    game = GAMES[name]
    state = choice_position(game, players, 3)
    seat = game.to_act(state)[0]
    first = hint(name, game.to_json(state), seat, TINY, 77)
    again = hint(name, game.to_json(state), seat, TINY, 77)
    assert first == again
    legal = set(game.legal_commands(state, seat))
    assert first and all(move["command"] in legal for move in first)
    assert all(0.0 <= move["share"] <= 1.0 and 0.0 <= move["chance"] <= 1.0 for move in first)
    shares = [m["share"] for m in first if not m["by_chance"]]
    assert shares == sorted(shares, reverse=True), "the search's order, but for moves placed by their chance"


@pytest.mark.parametrize(("name", "players"), [s for s in sizes() if s[1] in (2, 3)])
def test_a_hint_never_reads_what_the_seat_cannot_see(name, players):
    game = GAMES[name]
    for seed in range(2):
        state = choice_position(game, players, seed + 10)
        seat = game.to_act(state)[0]
        other = None
        for attempt in range(20):
            candidate = game.determinize(state, seat, random.Random(seed * 31 + attempt))
            if game.to_json(candidate) != game.to_json(state):
                other = candidate
                break
        assert other is not None
        assert game.private_view(other, seat) == game.private_view(state, seat)
        mine = hint(name, game.to_json(state), seat, TINY, 5 + seed)
        theirs = hint(name, game.to_json(other), seat, TINY, 5 + seed)
        assert mine == theirs


def hinting_game(tmp_path):
    """A game with hints on whose searches wait in a held pool: the bot, who acts, what they got, the pool."""
    bot = bot_at(tmp_path)
    seated(bot, "hints=on")
    nick = "alice" if bot.table.state.turn == 0 else "bob"
    recorder = Recorder()
    bot.hub.attach(recorder)
    held = HeldPool()
    bot.hub.teacher.pool = lambda: held
    return bot, nick, recorder, held


def test_a_hint_is_searched_in_the_pool_and_arrives_after_the_line(tmp_path):
    """Through the event loop the handler answers nothing at once; the hint follows the search."""
    bot, nick, recorder, held = hinting_game(tmp_path)

    async def ask() -> None:
        await bot.hub.handle(Incoming(NETWORK, "#t", User(nick), "/hint"))
        await wait_until(lambda: held.held, what="the spawned task to hand the search over")
        assert not recorder.private(nick), "the search runs in the background"
        assert [work for _future, work, _args in held.held] == [hint], "the search goes to the AI's pool"
        held.release()
        await bot.hub.idle()

    asyncio.run(ask())
    hints = recorder.private(nick)
    assert len(hints) == 1 and hints[0].startswith("Hint (a search of 40 playouts)")
    assert bot.hub.teacher.records.hinted(bot.table.game_id)
    assert len(bot.hub.teacher.latencies) == 1


def test_a_hint_that_comes_back_after_the_move_is_dropped(tmp_path):
    bot, nick, recorder, held = hinting_game(tmp_path)

    async def ask_then_move() -> None:
        await bot.hub.handle(Incoming(NETWORK, "#t", User(nick), "/hint"))
        await bot.hub.handle(Incoming(NETWORK, "#t", User(nick), "add 1"))
        held.release()
        await bot.hub.idle()

    asyncio.run(ask_then_move())
    assert not [line for line in recorder.private(nick) if line.startswith("Hint")]
    assert not bot.hub.teacher.records.hinted(bot.table.game_id)


def test_a_hints_reason_says_what_the_move_does_for_certain():
    """A Jaipur sale's reason names the rupees its tokens score; a Bazaar purchase's its points."""
    checked = {"jaipur": 0, "bazaar": 0}
    for name in checked:
        game = GAMES[name]
        for seed in range(40):
            state = choice_position(game, 2, seed)
            seat = game.to_act(state)[0]
            for action in game.ai_actions(state, seat):
                reason = game.hint_reason(state, seat, action)
                if reason is None or "scores" not in reason:
                    continue
                after = game.clone(state)
                game.ai_play(after, seat, action)
                gained = (
                    after.goods_points[seat] - state.goods_points[seat]
                    if name == "jaipur"
                    else after.scores[seat] - state.scores[seat]
                )
                assert reason.startswith(f"scores {gained} "), reason
                checked[name] += 1
    assert all(checked.values()), checked
    assert GAMES["yspahan"].hint_reason(choice_position(GAMES["yspahan"], 2, 1), 0, None) is None


def test_a_hint_through_the_console_comes_from_a_worker_process(tmp_path):
    """The bot as run: the hint's search in a spawned AI worker, its answer before the console's ---."""
    from support.consoleproc import Console, private

    console = Console(
        tmp_path / "bot.sqlite", seed=3, config="[ai]\nworkers = 1\n[ai.levels.hard]\niterations = 25\n"
    )
    try:
        console.type("ann: /new jaipur hints=on")
        console.type("ann: /addbot hard")
        console.type("ann: /start")
        for _ in range(3):
            lines = private(console.type("ann: /hint"), "ann")
            if lines and "not your turn" not in lines[0]:
                break
        assert lines[0] == "Hint (a search of 25 playouts), best first:"
        offers = private(console.type("ann: /moves all"), "ann")
        assert all(line.split(". ", 1)[1].split(" - ")[0] in offers for line in lines[1:])
    finally:
        console.close()


def test_a_hint_makes_as_many_playouts_on_a_busy_machine_as_on_an_idle_one():
    """The hint's size is its iterations: a clock that runs ten seconds per look changes nothing."""
    budget = hint_budget({"hard": Level("hard", iterations=60, time_cap=0.5, depth=8)})
    game = GAMES["yspahan"]
    state = choice_position(game, 3, 4)
    seat = game.to_act(state)[0]
    ticks = iter(range(0, 10**8, 10))
    slow = hint("yspahan", game.to_json(state), seat, budget, 9, clock=lambda: float(next(ticks)))
    idle = hint("yspahan", game.to_json(state), seat, budget, 9)
    assert slow[0]["playouts"] == idle[0]["playouts"] == 60
    assert slow == idle


def judged(command: str, share: float, chance: float) -> Judged:
    return Judged(command, share, chance, round(100 * share))


def test_moves_the_search_tried_about_as_often_are_ordered_by_win_chance():
    ranked = [
        judged("a", 0.40, 0.50),
        judged("b", 0.36, 0.62),
        judged("c", 0.20, 0.90),
        judged("d", 0.04, 0.1),
    ]
    ordered, lifted = by_share_then_chance(ranked)
    assert [j.command for j in ordered] == ["b", "a", "c", "d"]
    assert lifted == {0}, "c's share is far below: the search's verdict stands"


def test_a_move_placed_by_its_win_chance_says_why():
    moves = [
        {"command": "b", "share": 0.36, "chance": 0.62, "by_chance": True, "reason": None, "playouts": 100},
        {"command": "a", "share": 0.40, "chance": 0.50, "by_chance": False, "reason": None, "playouts": 100},
    ]
    lines = hint_lines(moves)
    assert lines[1].endswith("- ahead of a move searched about as often, for its better win chance")
    assert "ahead of" not in lines[2]


def test_a_slow_hint_says_how_long_it_took_and_a_quick_one_does_not():
    moves = [{"command": "a", "share": 1.0, "chance": 0.5, "reason": None, "playouts": 1500}]
    assert hint_lines(moves, 1.9)[0] == "Hint (a search of 1500 playouts), best first:"
    assert hint_lines(moves, 3.4)[0] == "Hint (a search of 1500 playouts), best first: (It took 3 s.)"
