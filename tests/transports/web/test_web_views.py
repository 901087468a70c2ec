"""Table views and the game log on the websocket, and the moves-are-not-chat rule (no browser)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import aiohttp
from support.countgame import GAME as COUNT
from support.paths import REPO_ROOT
from support.webfixtures import Served, WsClient, player, serve

from bazaarbot.config import RateLimit
from bazaarbot.messages import User
from bazaarbot.registry import discover

GAMES = {**discover(), "count": COUNT}
ROOM = "#bazaar"
FAST = RateLimit(commands=10_000, per_seconds=1)


async def _seated(served: Served, game: str) -> tuple[WsClient, WsClient]:
    alice, _ = await player(served, "alice")
    bob, _ = await player(served, "bob")
    await alice.say(ROOM, f"/new {game}")
    await bob.say(ROOM, "/join")
    await bob.expect("bot", lambda f: "bob joins" in f["text"])
    await alice.say(ROOM, "/start")
    for client in (alice, bob):
        await client.expect("view", lambda f: f["view"]["phase"] == "running")
    return alice, bob


def _table(served: Served):
    return served.hub.tables[("web", ROOM)]


async def _play(served: Served, clients: dict[str, WsClient], command: str | None = None) -> str:
    table = _table(served)
    seat = table.plugin.to_act(table.state)[0]
    nick = table.players[seat].nick
    command = command or table.plugin.legal_commands(table.state, seat)[0]
    await clients[nick].say(ROOM, command)
    return nick


async def test_a_move_is_not_chat_but_its_announcement_reaches_the_room(tmp_path: Path) -> None:
    async with serve(tmp_path / "m.sqlite", games=GAMES) as served:
        alice, bob = await _seated(served, "count")
        watcher = await served.connect()
        await watcher.send(t="watch", room=ROOM)
        await watcher.expect("watching")
        clients = {"alice": alice, "bob": bob}
        mover = await _play(served, clients, "add 2")
        other = bob if mover == "alice" else alice
        await clients[mover].expect("echo", lambda f: f["text"] == "add 2")
        await other.expect("bot", lambda f: "adds 2" in f["text"])
        await watcher.expect("bot", lambda f: "adds 2" in f["text"])
        for client in (other, watcher, clients[mover]):
            await client.sync()
            assert "add 2" not in client.texts("chat")
        assert not [f for f in other.seen + watcher.seen if f["t"] == "echo" and f["text"] == "add 2"]


async def test_a_refused_move_reaches_only_its_author(tmp_path: Path) -> None:
    async with serve(tmp_path / "r.sqlite", games=GAMES) as served:
        alice, bob = await _seated(served, "count")
        table = _table(served)
        waiting = table.players[1 - table.plugin.to_act(table.state)[0]].nick
        author, other = (alice, bob) if waiting == "alice" else (bob, alice)
        await author.say(ROOM, "add 3")
        refusal = await author.expect("tell", lambda f: "not your turn" in f["text"])
        await author.say(ROOM, "still friends")
        await other.expect("chat", lambda f: f["text"] == "still friends")
        said = json.dumps([f for f in other.seen if f["t"] != "view"])  # a view lists the legal moves
        assert "add 3" not in said and refusal["text"] not in json.dumps(other.seen)
        assert table.moves_made == 0


async def test_one_view_per_tab_per_change_and_none_when_nothing_changed(tmp_path: Path) -> None:
    async with serve(tmp_path / "v.sqlite", games=GAMES, default_game="jaipur") as served:
        alice, bob = await _seated(served, "jaipur")
        for client in (alice, bob):
            await client.sync()
        counts = {id(c): len([f for f in c.seen if f["t"] == "view"]) for c in (alice, bob)}
        await _play(served, {"alice": alice, "bob": bob})
        for client in (alice, bob):
            await client.expect("view", lambda f: f["view"]["moves"] == 1)
        await alice.say(ROOM, "/status")  # an answer that changes nothing at the table
        await alice.expect("bot", lambda f: "To act" in f["text"])
        for client in (alice, bob):
            await client.sync()
            assert len([f for f in client.seen if f["t"] == "view"]) == counts[id(client)] + 1


async def test_views_carry_your_private_data_and_moves_and_a_spectators_none(tmp_path: Path) -> None:
    async with serve(tmp_path / "p.sqlite", games=GAMES, default_game="jaipur") as served:
        watcher = await served.connect()
        await watcher.send(t="watch", room=ROOM)
        await watcher.expect("watching")
        alice, bob = await _seated(served, "jaipur")
        await _play(served, {"alice": alice, "bob": bob})
        table = _table(served)
        game = table.plugin
        for client, nick in ((alice, "alice"), (bob, "bob")):
            view = (await client.expect("view", lambda f: f["view"]["moves"] == 1))["view"]
            seat = table.game_seat_of("a:" + nick)
            assert view["you"]["seat"] == seat
            assert view["you"]["private"] == game.private_data(table.state, seat)
            assert await client.commands(ROOM, view) == game.legal_commands(table.state, seat)
            assert view["public"] == game.public_data(table.state)
        seen = (await watcher.expect("view", lambda f: f["view"]["moves"] == 1))["view"]
        assert seen["you"] is None and seen["public"] == game.public_data(table.state)
        await watcher.sync()
        wire = json.dumps(watcher.seen)
        for seat in (0, 1):
            assert json.dumps(game.private_data(table.state, seat)) not in wire
        assert '"private"' not in wire and not [f for f in watcher.seen if f["t"] == "tell"]


async def test_the_game_log_lists_moves_and_round_results_and_the_result_stays(tmp_path: Path) -> None:
    async with serve(
        tmp_path / "g.sqlite", games=GAMES, rate_limit=FAST, frame_rate=100_000, frame_burst=100_000
    ) as served:
        alice, bob = await _seated(served, "jaipur")
        clients = {"alice": alice, "bob": bob}
        table = _table(served)
        game = table.plugin
        rng = random.Random(8)
        made = 0
        while table.running:
            seat = game.to_act(table.state)[0]
            await _play(served, clients, rng.choice(game.legal_commands(table.state, seat)))
            made += 1
            moves = made
            await alice.expect(
                ("view", "bot"),
                lambda f: (
                    f["t"] == "bot"
                    and f["text"].startswith("Game over")
                    or f["t"] == "view"
                    and f["view"]["moves"] == moves  # noqa: B023 (awaited at once)
                ),
            )
        await alice.sync()
        entries = [e for f in alice.seen if f["t"] == "log" for e in f["entries"]]
        assert [e["n"] for e in entries] == list(range(made))
        assert any("Round 1 is over" in line for e in entries for line in e["lines"])
        last = [f for f in alice.seen if f["t"] == "view"][-1]["view"]
        assert last["phase"] == "over" and last["result"]["headline"].startswith("Game over:")
        assert last["public"]["over"] is True
        # a newcomer (or a reload) still sees the finished table and its log
        carol, _ = await player(served, "carol", room=None)
        joined = await carol.join(ROOM)
        assert joined["view"]["phase"] == "over" and joined["view"]["result"] == last["result"]
        log = await carol.expect("log")
        assert log["reset"] and log["entries"][-1]["n"] == made - 1
        await alice.say(ROOM, "/start")
        fresh = await carol.expect("view", lambda f: f["view"]["phase"] == "running")
        assert fresh["view"]["result"] is None and fresh["view"]["moves"] == 0
        assert (await carol.expect("log"))["reset"]


async def test_the_finished_table_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    async with serve(db, games=GAMES, rate_limit=FAST) as served:
        alice, bob = await _seated(served, "count")
        clients = {"alice": alice, "bob": bob}
        while _table(served).running:
            await _play(served, clients, "add 3")
            await alice.sync()
        await alice.expect("view", lambda f: f["view"]["phase"] == "over")
        token = next(f["token"] for f in alice.seen if f["t"] == "claimed")
        port = served.transport.port
    async with serve(db, games=GAMES, port=port) as served:
        alice = await served.connect()
        assert (await alice.hello(token))["nick"] == "alice"
        joined = await alice.join(ROOM)
        assert joined["view"]["phase"] == "over" and joined["view"]["result"]["winners"]
        log = await alice.expect("log")
        assert [e["text"] for e in log["entries"]] == ["add 3"] * len(log["entries"])


async def test_game_files_come_from_the_plugin_folder_and_nothing_else(tmp_path: Path) -> None:
    async with serve(tmp_path / "f.sqlite", games=GAMES) as served, aiohttp.ClientSession() as http:
        async with http.get(served.url + "/games/jaipur/table.js") as reply:
            assert reply.status == 200 and "bazaarbotTables.register" in await reply.text()
            assert "script-src 'self'" in reply.headers["Content-Security-Policy"]
        for bad in (
            "/games/jaipur/data.py",
            "/games/jaipur/..%2Fgame.py",
            "/games/nope/table.js",
            "/games/count/table.js",
        ):
            async with http.get(served.url + bad) as reply:
                assert reply.status == 404, bad


def test_is_addressed_follows_the_hubs_own_reading_of_a_line(tmp_path: Path) -> None:
    from bazaarbot.hub.hub import Hub
    from bazaarbot.messages import Incoming
    from bazaarbot.store import Store

    hub = Hub(Store(tmp_path / "a.sqlite"), games=GAMES)
    alice, bob, carol = (User(n, account=n) for n in ("alice", "bob", "carol"))
    for user, text in ((alice, "/new count"), (bob, "/join"), (alice, "/start")):
        hub.process(Incoming("web", ROOM, user, text))
    assert hub.is_addressed("web", ROOM, alice, "/status")
    assert hub.is_addressed("web", ROOM, alice, "bazaarbot: status")
    assert hub.is_addressed("web", ROOM, alice, "add 2")
    assert not hub.is_addressed("web", ROOM, carol, "add 2")  # not seated: chatter
    assert not hub.is_addressed("web", ROOM, alice, "hello all")
    assert hub.is_addressed("web", None, alice, "hello")  # a private line is always for the bot


def test_the_web_input_hint_shows_a_move_of_the_rooms_own_game():
    from bazaarbot.registry import discover

    for name, game in discover().items():
        assert game.example_move, name
        assert game.is_move(game.example_move), (name, game.example_move)
    script = (REPO_ROOT / "bazaarbot/transports/web/static/app.js").read_text()
    assert "view.example" in script and "example-move" in script
