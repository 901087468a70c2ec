"""Ratings against openskill's own figures: two or more players, ties, who is rated, rebuild."""

from __future__ import annotations

import threading

import psycopg
import pytest
from openskill.models import PlackettLuce
from support.botrun import bazaarbot
from support.waits import wait_until_sync

from bazaarbot.plugin import Result
from bazaarbot.ratings import AI_SHARE_LIMIT, Ratings, identity_of, record_result, service
from bazaarbot.ratings.identity import AI_NETWORK
from bazaarbot.store import Store, open_store

NET = "test"


def openskill_rate(ratings: list[tuple[float, float]] | None, ranks: list[int]) -> list[tuple[float, float]]:
    """What openskill itself says (fresh players when ``ratings`` is None)."""
    model = PlackettLuce()
    teams = [
        [model.rating() if ratings is None else model.rating(mu=mu, sigma=sigma)]
        for mu, sigma in (ratings or [(0.0, 0.0)] * len(ranks))
    ]
    return [(t[0].mu, t[0].sigma) for t in model.rate(teams, ranks=ranks)]


def result_of(ranks: list[int]) -> Result:
    """A result whose ranking gives seat i the place ranks[i] (equal places tie)."""
    places = sorted(set(ranks))
    ranking = [[i for i, r in enumerate(ranks) if r == place] for place in places]
    return Result({i: float(10 - r) for i, r in enumerate(ranks)}, ranking, ranking[0])


def play(
    store: Store,
    keys: list[str],
    ranks: list[int],
    authors: list[list[str]] | None = None,
    status: str = "finished",
    network: str = NET,
) -> int:
    """A game through the store as the table writes it: start, the move log, the end with results."""
    players = [{"key": k, "nick": k.split(":")[1]} for k in keys]
    game_id = store.start_game(1, network, "#t", "count", "count-1", 1, {}, players)
    n = 0
    for seat, seat_authors in enumerate(authors or []):
        for author in seat_authors:
            store.append_move(game_id, n, seat, author, "add 1")
            n += 1
    result = result_of(ranks) if status == "finished" else None
    rows = [
        {
            "seat": i,
            "user_key": k,
            "nick": k.split(":")[1],
            "score": result.scores[i] if result else 0.0,
            "rank": ranks[i] if result else 0,
            "winner": int(bool(result and i in result.winners)),
        }
        for i, k in enumerate(keys)
    ]
    data = {"ranking": result.ranking, "winners": result.winners} if result else None
    store.finish_game(game_id, status, data, rows)
    return game_id


def figures(ratings: Ratings, identity: str, network: str = NET) -> tuple[float, float]:
    standing = ratings.standing(network, "count", identity)
    assert standing is not None
    return standing.mu, standing.sigma


@pytest.fixture
def store(store_target):
    s = open_store(store_target)
    yield s
    s.close()


def test_two_player_update_matches_openskill(store):
    ratings = Ratings(store)
    ratings.take_in(play(store, ["n:alice", "n:bob"], [1, 2]))
    expected = openskill_rate(None, [1, 2])
    assert figures(ratings, "n:alice") == expected[0]
    assert figures(ratings, "n:bob") == expected[1]
    ratings.take_in(play(store, ["n:bob", "n:alice"], [1, 2]))
    again = openskill_rate([expected[1], expected[0]], [1, 2])
    assert figures(ratings, "n:bob") == again[0]
    assert figures(ratings, "n:alice") == again[1]
    alice = ratings.standing(NET, "count", "n:alice")
    assert alice is not None and (alice.games, alice.wins) == (2, 1)


def test_multi_player_update_matches_openskill(store):
    ratings = Ratings(store)
    ratings.take_in(play(store, ["n:a", "n:b", "n:c", "n:d"], [2, 1, 4, 3]))
    expected = openskill_rate(None, [2, 1, 4, 3])
    assert [figures(ratings, k) for k in ("n:a", "n:b", "n:c", "n:d")] == expected


def test_a_tie_is_rated_as_a_tie(store):
    ratings = Ratings(store)
    changes = ratings.take_in(play(store, ["n:a", "n:b", "n:c"], [1, 1, 2]))
    expected = openskill_rate(None, [1, 1, 2])
    assert [figures(ratings, k) for k in ("n:a", "n:b", "n:c")] == expected
    assert expected[0] == expected[1]  # openskill moves tied players alike
    assert [c.after.mu for c in changes] == [e[0] for e in expected]


def test_abandoned_games_are_not_rated(store):
    ratings = Ratings(store)
    game_id = play(store, ["n:a", "n:b"], [1, 2], status="abandoned")
    assert ratings.take_in(game_id) == []
    assert ratings.standing(NET, "count", "n:a") is None
    assert ratings.rebuild() == 0


def test_a_seat_played_mostly_by_an_ai_is_not_rated_for_its_person(store):
    ratings = Ratings(store)
    # carol made 1 of her 3 decisions; an AI stood in for the other 2 (more than half)
    authors = [["n:alice"] * 3, ["n:bob"] * 3, ["n:carol", "ai:hard", "ai:hard"]]
    changes = ratings.take_in(play(store, ["n:alice", "n:bob", "n:carol"], [1, 2, 3], authors))
    assert [c.rated for c in changes] == [True, True, False]
    assert ratings.standing(NET, "count", "n:carol") is None
    assert [figures(ratings, k) for k in ("n:alice", "n:bob")] == openskill_rate(None, [1, 2])


def test_exactly_half_played_by_an_ai_is_still_rated(store):
    assert AI_SHARE_LIMIT == 0.5
    ratings = Ratings(store)
    authors = [["n:alice", "ai:easy"], ["n:bob", "n:bob"]]
    changes = ratings.take_in(play(store, ["n:alice", "n:bob"], [1, 2], authors))
    assert all(c.rated for c in changes)


def test_a_game_with_one_rated_seat_left_is_not_rated(store):
    ratings = Ratings(store)
    authors = [["n:alice"], ["ai:medium", "ai:medium"]]
    changes = ratings.take_in(play(store, ["n:alice", "n:bob"], [1, 2], authors))
    assert changes and not any(c.rated for c in changes)
    assert ratings.standing(NET, "count", "n:alice") is None


def test_ai_seats_are_rated_as_their_level_on_every_network(store):
    assert identity_of("ai:hard:2") == "ai:hard"
    ratings = Ratings(store)
    ratings.take_in(play(store, ["n:alice", "ai:hard:2"], [2, 1], [["n:alice"], ["ai:hard"]]))
    ratings.take_in(play(store, ["n:bob", "ai:hard:2"], [2, 1], network="other"))
    hard = ratings.standing(NET, "count", "ai:hard")
    assert hard is not None and hard.network == AI_NETWORK and hard.games == 2
    first = openskill_rate(None, [2, 1])
    second = openskill_rate([(25.0, 25 / 3), first[1]], [2, 1])
    assert (hard.mu, hard.sigma) == second[1]
    assert ratings.standing("other", "count", "n:bob") is not None


def test_one_ai_level_at_two_seats_gets_the_mean_of_its_updates(store):
    ratings = Ratings(store)
    ratings.take_in(play(store, ["ai:easy:1", "n:alice", "ai:easy:3"], [1, 2, 3]))
    expected = openskill_rate(None, [1, 2, 3])
    easy = ratings.standing(NET, "count", "ai:easy")
    assert easy is not None and easy.games == 1 and easy.wins == 1
    assert easy.mu == pytest.approx((expected[0][0] + expected[2][0]) / 2)
    assert figures(ratings, "n:alice") == expected[1]


def _everything(store: Store) -> tuple[list[tuple], list[tuple]]:
    standings = store.db.execute("SELECT * FROM ratings ORDER BY network, game, identity").fetchall()
    changes = store.db.execute("SELECT * FROM rating_changes ORDER BY game_id, seat").fetchall()
    return standings, changes


def test_rebuild_equals_incremental(store):
    ratings = Ratings(store)
    games = [
        (["n:a", "n:b"], [1, 2]),
        (["n:b", "n:c", "n:a"], [1, 1, 3]),
        (["n:c", "ai:hard:2"], [2, 1]),
        (["n:a", "n:c"], [1, 2]),
        (["n:b", "n:a", "n:d", "n:c"], [4, 3, 2, 1]),
    ]
    for keys, ranks in games:
        ratings.take_in(play(store, keys, ranks))
    play(store, ["n:a", "n:d"], [1, 2], status="abandoned")
    incremental = _everything(store)
    assert incremental[0] and incremental[1]
    assert ratings.rebuild() == len(games)
    assert _everything(store) == incremental


def test_a_game_that_ends_out_of_order_rebuilds(store):
    ratings = Ratings(store)
    first = play(store, ["n:a", "n:b"], [1, 2])
    second = play(store, ["n:a", "n:b"], [2, 1])
    ratings.take_in(second)
    ratings.take_in(first)  # rated late: the ratings follow the order the games ended in
    taken = _everything(store)
    ratings.rebuild()
    assert _everything(store) == taken
    assert figures(ratings, "n:a") == openskill_rate(openskill_rate(None, [1, 2]), [2, 1])[0]


def test_a_game_never_rated_is_caught_up_at_start(store):
    ratings = Ratings(store)
    ratings.take_in(play(store, ["n:a", "n:b"], [1, 2]))
    play(store, ["n:a", "n:b"], [1, 2])  # the bot stopped before rating it
    assert Ratings(store).catch_up() is True
    assert ratings.standing(NET, "count", "n:a").games == 2  # type: ignore[union-attr]
    assert Ratings(store).catch_up() is False


def test_taking_a_game_in_twice_counts_it_once(store):
    ratings = Ratings(store)
    game_id = play(store, ["n:a", "n:b"], [1, 2])
    first = ratings.take_in(game_id)
    assert ratings.take_in(game_id) == first
    assert ratings.standing(NET, "count", "n:a").games == 1  # type: ignore[union-attr]


def test_record_result_files_and_rates_a_benchmark_game(store):
    result = Result({0: 5.0, 1: 3.0}, [[0], [1]], [0])
    changes = record_result(store, "count", ["ai:hard:1", "ai:easy:2"], result)
    assert [c.identity for c in changes] == ["ai:hard", "ai:easy"]
    ratings = Ratings(store)
    expected = openskill_rate(None, [1, 2])
    assert figures(ratings, "ai:hard") == expected[0]
    record = store.game_record(changes[0].game_id)
    assert record is not None and record["network"] == "bench" and record["status"] == "finished"
    before = _everything(store)
    ratings.rebuild()
    assert _everything(store) == before


def test_ai_levels_line_up_by_strength_after_benchmark_games(store):
    """Levels that win against each other in order (hard > medium > easy) are rated in that order."""
    order = ["ai:hard", "ai:medium", "ai:easy"]
    for game in range(12):
        a, b = sorted(((game % 3), (game + 1) % 3))
        keys = [f"{order[a]}:1", f"{order[b]}:2"]
        record_result(store, "count", keys, Result({0: 1.0, 1: 0.0}, [[0], [1]], [0]))
    ratings = Ratings(store, min_games=1)
    assert [s.identity for s in ratings.top(NET, "count")] == order


def test_bench_ai_record_files_every_game_and_rates_the_levels(tmp_path):
    config = tmp_path / "small.toml"
    config.write_text("[ai.levels.medium]\niterations = 24\ndepth = 8\n")
    db = tmp_path / "bench.sqlite"
    run = bazaarbot(
        *("bench", "ai", "bazaar", "--level", "medium", "--vs", "random"),
        *("--games", "2", "--record", "--db", str(db), "-c", str(config)),
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    last = run.stdout.strip().splitlines()[-1]
    assert last.startswith("AI ratings at Bazaar (Sid Sackson): ai:")
    store = Store(db)
    try:
        ratings = Ratings(store, min_games=1)
        levels = {s.identity: s for s in ratings.top("bench", "bazaar")}
        assert set(levels) == {"ai:medium", "ai:random"}
        assert levels["ai:medium"].games == levels["ai:random"].games == 2
        keys = store.db.execute("SELECT user_key FROM results WHERE game_id=2 ORDER BY seat").fetchall()
        assert [k[0] for k in keys] == ["ai:random:1", "ai:medium:2"]  # the measured level's seat rotates
        before = _everything(store)
        ratings.rebuild()
        assert _everything(store) == before
    finally:
        store.close()


def test_two_processes_rating_one_ai_level_at_once_both_count(postgres_cluster, monkeypatch):
    url = postgres_cluster.database()
    first, second = open_store(url), open_store(url)
    watcher = psycopg.connect(url, autocommit=True)
    paused, go_on = threading.Event(), threading.Event()
    pausing = threading.local()
    real_rate = service.rate_game

    def rate_then_wait(game, lookup):  # the first process has read the AI's standing: it waits here
        found = real_rate(game, lookup)
        if getattr(pausing, "on", False):
            paused.set()
            assert go_on.wait(30)
        return found

    def first_rates(game_id: int) -> None:
        pausing.on = True
        Ratings(first).take_in(game_id)

    monkeypatch.setattr(service, "rate_game", rate_then_wait)
    try:
        one = play(first, ["n:alice", "ai:hard:2"], [2, 1], [["n:alice"], ["ai:hard"]], network="one")
        rating_one = threading.Thread(target=first_rates, args=(one,))
        rating_one.start()
        assert paused.wait(30)
        two = play(second, ["n:bob", "ai:hard:2"], [2, 1], [["n:bob"], ["ai:hard"]], network="two")
        rating_two = threading.Thread(target=Ratings(second).take_in, args=(two,))
        rating_two.start()
        waiting = "SELECT COUNT(*) FROM pg_locks WHERE locktype='advisory' AND NOT granted"
        wait_until_sync(  # it queues behind the first
            lambda: not rating_two.is_alive() or watcher.execute(waiting).fetchone()[0],
            10,
            "the second rating to queue behind the first",
        )
        go_on.set()
        rating_one.join(30)
        rating_two.join(30)
        hard = Ratings(first).standing("one", "count", "ai:hard")
        assert hard is not None and hard.games == 2, "neither update is written over the other"
        first_game = openskill_rate(None, [2, 1])
        assert (hard.mu, hard.sigma) == openskill_rate([(25.0, 25 / 3), first_game[1]], [2, 1])[1]
    finally:
        go_on.set()
        watcher.close()
        first.close()
        second.close()
