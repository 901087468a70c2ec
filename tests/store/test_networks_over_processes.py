"""Two processes serving different networks of one community share one PostgreSQL store."""

from __future__ import annotations

from bazaarbot.store import open_store


def _play(store, network: str, channel: str) -> int:
    table = store.ensure_table(network, channel, "count")
    game = store.start_game(table, network, channel, "count", "count-1", 7, {}, [{"key": "n:a", "nick": "a"}])
    store.append_move(game, 0, 0, "n:a", "add 1")
    return game


def test_each_process_loads_only_its_networks_and_their_ids_never_collide(postgres_cluster):
    url = postgres_cluster.database()
    irc = open_store(url, frozenset({"libera"}))
    web = open_store(url, frozenset({"web"}))
    games = [_play(irc, "libera", "#j"), _play(web, "web", "#j"), _play(irc, "libera", "#y")]
    assert len(set(games)) == 3, "game ids come from the database, not from each process's memory"
    assert len({irc.ensure_table("libera", "#j", "count"), web.ensure_table("web", "#j", "count")}) == 2
    assert [t.network for t in irc.load_tables()] == ["libera", "libera"]
    assert [t.network for t in web.load_tables()] == ["web"]
    assert {r.game.id for r in web.running_games()} == {games[1]}
    everything = open_store(url)  # one process of every network (or `bazaarbot export`) sees it all
    assert {r.game.id for r in everything.running_games()} == set(games)
    assert everything.game_record(games[0])["moves"][0]["text"] == "add 1"
    for store in (irc, web, everything):
        store.close()
