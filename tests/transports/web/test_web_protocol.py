"""The web transport's websocket protocol, against a real server on a free loopback port."""

from __future__ import annotations

import json
import re
from pathlib import Path

import aiohttp
import pytest
from support.waits import wait_until
from support.webfixtures import Served, WsClient, player, serve, two_seated

from bazaarbot.config import WebLimits
from bazaarbot.store import Store
from bazaarbot.transports.web.claims import valid_nick, valid_room
from bazaarbot.transports.web.history import History


@pytest.fixture
async def served(tmp_path: Path):
    async with serve(tmp_path / "bot.sqlite") as s:
        yield s


async def _start_count_game(served: Served) -> tuple[WsClient, WsClient]:
    alice, bob = await two_seated(served)
    await alice.say("#bazaar", "/start")
    await alice.expect("board", lambda f: f["text"] and "Total 0" in f["text"])
    await bob.expect("board", lambda f: f["text"] and "Total 0" in f["text"])
    return alice, bob


def _digits_seen(frames: list[dict]) -> str:
    """The frames as text without their times (a clock reading or a line's time may hold any four
    digits in a row, a secret's among them)."""
    return re.sub(r"\d{9,}(\.\d+)?", "", json.dumps(frames))


def _secret(served: Served, seat: int) -> int:
    return served.hub.tables[("web", "#bazaar")].state.secrets[seat]


async def test_claim_nick_and_welcome(served: Served) -> None:
    client = await served.connect()
    welcome = await client.hello()
    assert welcome["nick"] is None and welcome["bot"] == "bazaarbot" and welcome["max"] == 400
    claimed = await client.claim("alice")
    assert claimed == {"t": "claimed", "nick": "alice", "token": claimed["token"]}
    assert len(claimed["token"]) >= 32
    await client.close()


async def test_a_ping_is_answered_with_the_time_on_the_tables_clock(tmp_path: Path) -> None:
    # a page whose view came late reads the server's clock from the answer again (its countdown)
    async with serve(tmp_path / "bot.sqlite", wall_clock=lambda: 1_000_000.5) as served:
        client = await served.connect()
        await client.hello()
        await client.send(t="ping")
        pong = await client.expect("pong")
        assert pong["now"] == 1_000_000.5
        watcher = await served.connect()
        await watcher.send(t="watch", room="#bazaar")
        await watcher.send(t="ping")  # a spectator's page counts a clock down too
        assert (await watcher.expect("pong"))["now"] == 1_000_000.5
        await client.close()
        await watcher.close()


async def test_duplicate_nick_refused_but_tabs_of_one_browser_share_it(served: Served) -> None:
    alice, token = await player(served, "alice")
    other = await served.connect()
    await other.hello()
    refused = await other.claim("ALICE")
    assert refused["t"] == "error" and refused["code"] == "nick"
    assert "taken by another browser" in refused["text"]
    second_tab = await served.connect()
    assert (await second_tab.hello(token))["nick"] == "alice"
    # a forged token is just unknown
    forged = await served.connect()
    assert (await forged.hello(token[:-2] + "xx"))["nick"] is None
    for c in (alice, other, second_tab, forged):
        await c.close()


@pytest.mark.parametrize(
    "nick", ["", "a" * 25, "two words", "<img src=x>", "bazaarbot", "BazaarBot", "nick\n", "é", 7, None]
)
async def test_bad_nicks_refused(served: Served, nick: object) -> None:
    client = await served.connect()
    await client.hello()
    await client.send(t="claim", nick=nick)
    refused = await client.expect(("claimed", "error"))
    assert refused["t"] == "error" and refused["code"] == "nick"
    await client.close()


def test_nick_and_room_rules() -> None:
    assert all(valid_nick(n) for n in ["a", "x" * 24, "[a]{b}|c^d`e", "Jo-_9"])
    assert not any(valid_nick(n) for n in ["", "x" * 25, "a b", "a.b", "a#", "ü"])
    assert all(valid_room(r) for r in ["#a", "#" + "x" * 30, "#Bazaar-2_x"])
    assert not any(valid_room(r) for r in ["#", "a", "#" + "x" * 31, "#a.b", "#a b", "##a", "&a"])


async def test_token_reclaims_nick_after_reconnect(served: Served) -> None:
    alice, token = await player(served, "alice")
    await alice.close()
    again = await served.connect()
    assert (await again.hello(token))["nick"] == "alice"
    assert (await again.claim("alice"))["t"] == "claimed"
    await again.close()


async def test_join_requires_nick_and_valid_room(served: Served) -> None:
    client = await served.connect()
    await client.hello()
    await client.send(t="join", room="#bazaar")
    assert (await client.expect("error"))["code"] == "nick"
    await client.claim("carol")
    for room in ["bazaar", "#no.dots", "#" + "x" * 31, 5]:
        await client.send(t="join", room=room)
        assert (await client.expect("error"))["code"] == "room"
    joined = await client.join("#Other-Room")
    assert joined["room"] == "#other-room" and joined["board"] is None and joined["members"] == ["carol"]
    await client.close()


async def test_say_fans_out_to_the_room_only(served: Served) -> None:
    alice, _ = await player(served, "alice")
    bob, _ = await player(served, "bob")
    carol, _ = await player(served, "carol", "#elsewhere")
    members = await alice.expect("members", lambda f: f["nicks"] == ["alice", "bob"])
    assert members["room"] == "#bazaar"
    await alice.say("#bazaar", "hello <b>all</b>")
    line = await bob.expect("chat")
    assert isinstance(line.pop("at"), int)
    assert line == {"t": "chat", "room": "#bazaar", "nick": "alice", "text": "hello <b>all</b>"}
    await alice.expect("chat", lambda f: f["nick"] == "alice")
    await alice.say("#bazaar", "/join")
    said = await bob.expect("bot")
    assert said["room"] == "#bazaar" and "alice joins" in said["text"]
    await carol.sync()
    assert not [f for f in carol.seen if f.get("room") == "#bazaar"]
    # a room one has not joined cannot be spoken in
    await carol.say("#bazaar", "sneaky")
    assert (await carol.expect("error"))["code"] == "room"
    await bob.sync()
    assert "sneaky" not in json.dumps(bob.seen)
    for c in (alice, bob, carol):
        await c.close()


async def test_tell_goes_only_to_the_owner_and_the_board_to_everyone(served: Served) -> None:
    alice, bob = await _start_count_game(served)
    alice_secret, bob_secret = _secret(served, 0), _secret(served, 1)
    await alice.expect("tell", lambda f: f"Your secret: {alice_secret}" in f["text"])
    await bob.expect("tell", lambda f: f"Your secret: {bob_secret}" in f["text"])
    await alice.say("#bazaar", "add 2")
    await bob.expect("board", lambda f: "Total 2" in f["text"])
    await alice.expect("board", lambda f: "Total 2" in f["text"])
    await alice.say(None, "/hand")
    await alice.expect("tell", lambda f: "Your secret" in f["text"])
    await alice.sync()
    await bob.sync()
    assert str(bob_secret) not in _digits_seen(alice.seen)
    assert str(alice_secret) not in _digits_seen(bob.seen)
    # a second tab of alice's browser gets her private lines too, nobody else's
    assert alice.texts("mine") == ["/hand"]
    assert not bob.texts("mine")
    await alice.close()
    await bob.close()


async def test_rejoining_the_room_resends_the_hand(served: Served) -> None:
    alice, bob = await _start_count_game(served)
    secret = _secret(served, 0)
    await alice.send(t="part", room="#bazaar")
    await alice.expect("parted")
    joined = await alice.join("#bazaar")
    assert "Total 0" in joined["board"]
    await alice.expect("tell", lambda f: f"Your secret: {secret}" in f["text"])
    await alice.close()
    await bob.close()


async def test_spectator_sees_public_lines_and_board_never_a_tell(served: Served) -> None:
    watcher = await served.connect()
    await watcher.send(t="watch", room="#bazaar")
    watching = await watcher.expect("watching")
    assert watching["room"] == "#bazaar" and watching["board"] is None
    alice, bob = await _start_count_game(served)
    await alice.say("#bazaar", "good luck")
    await alice.say("#bazaar", "add 3")
    await alice.say(None, "/hand")
    await bob.say(None, "/moves all")
    await bob.expect("tell", lambda f: "add 1" in f["text"])
    await watcher.expect("board", lambda f: f["text"] and "Total 3" in f["text"])
    await watcher.sync()
    kinds = {f["t"] for f in watcher.seen}
    assert "tell" not in kinds and "mine" not in kinds
    dump = json.dumps(watcher.seen)
    digits = _digits_seen(watcher.seen)
    assert str(_secret(served, 0)) not in digits and str(_secret(served, 1)) not in digits
    assert "good luck" in dump and "/hand" not in dump
    # read-only: nothing a spectator sends is heard
    await watcher.send(t="say", room="#bazaar", text="from the stands")
    await watcher.send(t="claim", nick="sneak")
    await alice.sync()
    assert "from the stands" not in json.dumps(alice.seen)
    # a late spectator sees the recent history
    late = await served.connect()
    await late.send(t="watch", room="#bazaar")
    late_view = await late.expect("watching")
    assert any(h["t"] == "chat" and h["text"] == "good luck" for h in late_view["history"])
    assert "Total 3" in late_view["board"]
    for c in (watcher, late, alice, bob):
        await c.close()


async def test_oversize_frames_are_dropped_with_a_short_error(served: Served) -> None:
    alice, _ = await player(served, "alice")
    await alice.say("#bazaar", "x" * 401)
    error = await alice.expect("error")
    assert error["code"] == "too_big" and "400" in error["text"]
    await alice.ws.send_str("y" * 5000)
    assert (await alice.expect("error"))["code"] == "too_big"
    await alice.ws.send_str("{not json")
    assert (await alice.expect("error"))["code"] == "frame"
    await alice.say("#bazaar", "still here")
    await alice.expect("chat", lambda f: f["text"] == "still here")
    # beyond the hard limit the connection is closed (the page reconnects)
    await alice.ws.send_str("z" * 70_000)
    msg = await alice.closed()
    assert msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    assert msg.data == aiohttp.WSCloseCode.MESSAGE_TOO_BIG


async def test_flood_is_dropped_per_connection(tmp_path: Path) -> None:
    async with serve(tmp_path / "f.sqlite", frame_rate=1.0, frame_burst=10) as served:
        alice, _ = await player(served, "alice")
        bob, _ = await player(served, "bob")
        # alice's budget follows a clock the test moves (bob's the wall clock)
        bucket = next(c for c in served.transport.conns if c.nick == "alice").bucket
        now = [bucket.stamp]
        bucket.clock = lambda: now[0]
        for n in range(60):
            await alice.say("#bazaar", f"spam {n}")
        warning = await alice.expect("error", lambda f: f["code"] == "flood")
        assert "Slow down" in warning["text"]
        now[0] += 1.2  # a token for the ping below (pings are budgeted too)
        await alice.sync()
        await bob.sync()
        relayed = [t for t in bob.texts("chat") if t.startswith("spam")]
        assert 5 <= len(relayed) < 40  # the rest of a burst of 10 (and what trickled back), not 60
        assert len([f for f in alice.seen if f.get("code") == "flood"]) < 5  # warned, not once per frame
        # the budget refills: the same tab speaks again later
        now[0] += 1.2
        await alice.say("#bazaar", "calm now")
        await bob.expect("chat", lambda f: f["text"] == "calm now")


async def test_rename_moves_the_seat(served: Served) -> None:
    alice, token = await player(served, "alice")
    await alice.say("#bazaar", "/join")
    await alice.expect("bot", lambda f: "alice joins" in f["text"])
    await alice.send(t="claim", nick="alicia")
    assert (await alice.expect("claimed"))["nick"] == "alicia"
    await alice.expect("members", lambda f: f["nicks"] == ["alicia"])
    table = served.hub.tables[("web", "#bazaar")]
    assert [s.nick for s in table.seats] == ["alicia"]
    # the old nick is free again, the new one is held
    other = await served.connect()
    await other.hello()
    assert (await other.claim("alicia"))["t"] == "error"
    assert (await other.claim("alice"))["t"] == "claimed"
    await alice.close()
    await other.close()


async def test_disconnect_gives_the_seat_up_after_the_grace(tmp_path: Path) -> None:
    async with serve(tmp_path / "g.sqlite", leave_grace=60.0) as served:
        leaves = served.hub.identity.leaves.pending
        alice, token = await player(served, "alice")
        await alice.say("#bazaar", "/join")
        await alice.expect("bot", lambda f: "alice joins" in f["text"])
        await alice.close()
        await wait_until(lambda: leaves, 20, "alice's leave to wait for the grace")
        back = await served.connect()
        assert (await back.hello(token))["nick"] == "alice"
        await wait_until(lambda: not leaves, 20, "back within the grace: her leave is off")
        assert [s.nick for s in served.hub.tables[("web", "#bazaar")].seats] == ["alice"]
        served.transport.leave_grace = 0.05  # this time the grace runs out
        await back.close()
        await wait_until(lambda: not served.hub.tables[("web", "#bazaar")].seats, 20, "the seat given up")


async def test_healthz_and_pages(served: Served) -> None:
    alice, bob = await _start_count_game(served)
    async with aiohttp.ClientSession() as http:
        async with http.get(served.url + "/healthz") as response:
            health = await response.json()
        assert health["status"] == "ok"
        assert health["tables"] == 1 and health["running_games"] == 1
        assert health["websockets"] == 2 and health["players_online"] == 2
        assert health["uptime"] >= 0 and "web" in health["networks"]
        async with http.get(served.url + "/") as response:
            page = await response.text()
            assert response.status == 200
            csp = response.headers["Content-Security-Policy"]
            assert "script-src 'self'" in csp and "unsafe-inline" not in csp
            assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert "/static/app.js" in page and "<script>" not in page
        for path in ["/static/app.js", "/static/style.css", "/watch/bazaar"]:
            async with http.get(served.url + path) as response:
                assert response.status == 200, path
        for path in ["/watch/no.such", "/static/../web.py", "/static/"]:
            async with http.get(served.url + path) as response:
                assert response.status in (403, 404), path
    await alice.close()
    await bob.close()


async def test_websocket_from_another_site_is_refused(served: Served) -> None:
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await served.connect(headers={"Origin": "http://evil.example"})
    assert refused.value.status == 403
    ok = await served.connect(headers={"Origin": served.url})
    await ok.hello()
    await ok.close()


async def test_restart_keeps_nicks_seats_and_the_table(tmp_path: Path) -> None:
    db = tmp_path / "restart.sqlite"
    async with serve(db) as served:
        alice, bob = await _start_count_game(served)
        alice_token = next(f["token"] for f in alice.seen if f["t"] == "claimed")
        bob_token = next(f["token"] for f in bob.seen if f["t"] == "claimed")
        await alice.say("#bazaar", "add 3")
        board = (await bob.expect("board", lambda f: "Total 3" in f["text"]))["text"]
        secret = _secret(served, 1)
        port = served.transport.port
        await alice.close()
        # bob's tab is still open when the server goes down: it is told to go away
        await served.transport.stop()
        msg = await bob.closed()
        assert msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        assert msg.data == 1001
    async with serve(db, port=port) as served:
        bob = await served.connect()
        assert (await bob.hello(bob_token))["nick"] == "bob"
        joined = await bob.join("#bazaar", history=True)
        assert joined["board"] == board
        said = [(h["t"], h["text"]) for h in joined["history"]]
        # the move itself is not chat; the bot's announcement of it is in the history
        assert ("chat", "add 3") not in said and ("bot", "alice adds 3: total 3.") in said
        assert any(t == "bot" and "Count starts" in x for t, x in said)
        assert joined["view"]["phase"] == "running" and joined["view"]["public"]["text"] == board
        await bob.expect("tell", lambda f: f"Your secret: {secret}" in f["text"])
        thief = await served.connect()
        await thief.hello()
        assert (await thief.claim("alice"))["t"] == "error"
        alice = await served.connect()
        assert (await alice.hello(alice_token))["nick"] == "alice"
        await alice.join("#bazaar")
        await bob.say("#bazaar", "add 1")
        await alice.expect("board", lambda f: "Total 4" in f["text"])
        for c in (alice, bob, thief):
            await c.close()


async def test_claims_live_in_the_hub_database(served: Served) -> None:
    _alice, token = await player(served, "alice", None)
    rows = list(served.hub.store.db.query("SELECT * FROM web_sessions"))
    assert [r["nick"] for r in rows] == ["alice"]
    assert token not in json.dumps(rows)  # only a hash of the token is kept
    assert re.fullmatch(r"[0-9a-f]{64}", rows[0]["token_hash"])
    await _alice.close()


def test_history_is_bounded(tmp_path: Path) -> None:
    store = Store(tmp_path / "h.sqlite")
    history = History(store.db.conn, size=3, max_rooms=2)
    for n in range(5):
        history.add("#a", {"t": "chat", "text": str(n)})
    history.add("#b", {"t": "chat", "text": "b"})
    history.add("#a", {"t": "chat", "text": "5"})
    history.add("#c", {"t": "chat", "text": "c"})  # #b has been quiet longest: forgotten
    assert [h["text"] for h in history.lines("#a")] == ["3", "4", "5"]
    assert history.lines("#b") == [] and len(history.lines("#c")) == 1
    history.save()
    again = History(store.db.conn, size=3, max_rooms=2)
    assert again.lines("#a") == history.lines("#a") and again.lines("#c") == history.lines("#c")
    store.close()


async def test_after_a_restart_players_who_do_not_come_back_are_played_by_the_ai(tmp_path: Path) -> None:
    db = tmp_path / "away.sqlite"
    async with serve(db) as served:
        alice, bob = await _start_count_game(served)
        bob_token = next(f["token"] for f in bob.seen if f["t"] == "claimed")
    async with serve(db, leave_grace=0.3) as served:
        bob = await served.connect()
        assert (await bob.hello(bob_token))["nick"] == "bob"
        await bob.join("#bazaar")
        # alice never comes back: after the grace an AI plays her seat, and the game goes on
        await bob.expect("bot", lambda f: "alice is gone" in f["text"])
        table = served.hub.tables[("web", "#bazaar")]
        assert [s.nick for s in table.seats] == ["bob"] and table.running
        assert table.players[0].ai is not None


async def test_the_frames_one_move_sends_a_tab_arrive_together_as_one_message(served: Served) -> None:
    alice, bob = await _start_count_game(served)
    await bob.sync()
    raw: list[str] = []
    await alice.say("#bazaar", "add 2")
    kinds: list[str] = []
    while "view" not in kinds:  # bob's tab: the move's public line, its board, its view, its log
        msg = await bob.ws.receive(timeout=5)
        raw.append(msg.data)
        decoded = json.loads(msg.data)
        kinds += [f["t"] for f in decoded] if isinstance(decoded, list) else [decoded["t"]]
    assert {"bot", "board", "view", "log"} <= set(kinds)
    assert len(raw) == 1, raw  # one message, not one per frame


async def test_a_movers_own_tab_gets_its_echo_the_answers_and_the_view_as_one_message(served: Served) -> None:
    alice, bob = await _start_count_game(served)
    table = served.hub.tables[("web", "#bazaar")]
    mover = alice if table.players[table.plugin.to_act(table.state)[0]].nick == "alice" else bob
    await mover.sync()
    await mover.say("#bazaar", "add 2")
    msg = await mover.ws.receive(timeout=5)
    decoded = json.loads(msg.data)
    kinds = [f["t"] for f in decoded] if isinstance(decoded, list) else [decoded["t"]]
    assert kinds[0] == "echo" and {"bot", "view"} <= set(kinds), kinds  # the echo did not leave alone


async def test_the_frame_budget_of_a_tab_is_set_in_the_web_limits(tmp_path: Path) -> None:
    limits = WebLimits(frames_per_second=2.0, frame_burst=3)
    async with serve(tmp_path / "b.sqlite", limits=limits) as served:
        assert (served.transport.frame_rate, served.transport.frame_burst) == (2.0, 3)
        alice, _ = await player(served, "alice")
        for n in range(12):
            await alice.say("#bazaar", f"spam {n}")
        assert "Slow down" in (await alice.expect("error", lambda f: f["code"] == "flood"))["text"]


async def test_the_list_of_your_tables_follows_the_turn_with_commands_as_typed(served: Served) -> None:
    from bazaarbot.text.commandmark import MARK

    alice, bob = await two_seated(served)
    waiting = await alice.expect("tables", lambda f: len(f["tables"]) == 1 and not f["tables"][0]["running"])
    assert waiting["tables"][0]["channel"] == "#bazaar"
    assert waiting["tables"][0]["text"].endswith("waiting for /start") and MARK not in json.dumps(waiting)
    await alice.say("#bazaar", "/start")
    mine = await alice.expect("tables", lambda f: f["tables"][0]["running"])
    theirs = await bob.expect("tables", lambda f: f["tables"][0]["running"])
    assert mine["tables"][0]["your_move"] != theirs["tables"][0]["your_move"]
    mover = alice if mine["tables"][0]["your_move"] else bob
    other = bob if mover is alice else alice
    table = served.hub.tables[("web", "#bazaar")]
    await mover.say("#bazaar", table.legal_now(table.plugin.to_act(table.state)[0])[0])
    turned = await other.expect("tables", lambda f: f["tables"][0]["your_move"])
    assert turned["tables"][0]["line"].endswith("your move")  # its time left the page counts down
