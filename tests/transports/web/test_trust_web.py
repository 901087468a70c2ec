"""Trust on the web chat against the real server: bounded resources per client, frames, admin tokens.

Each client is an aiohttp websocket on the real server; clients from other
loopback addresses (127.0.0.x) stand for other people. Time-dependent parts
(idle close, claim expiry, claims per minute) run on an injected clock.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import aiohttp
import pytest
from support.hubparts import change_settings
from support.webfixtures import player, serve

from bazaarbot.cli import main as cli_main
from bazaarbot.config import WebLimits


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_deeply_nested_frames_get_one_short_error_each_and_never_a_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    async with serve(tmp_path / "w.sqlite", limits=WebLimits(bad_frames=5)) as served:
        client = await served.connect()
        await client.hello()
        for depth in (50, 1100, 1450):  # more than a thousand levels: more than json.loads can recurse
            await client.ws.send_str("[" * depth + "]" * depth)  # at most 2,912 characters fit
            error = await client.expect("error")
            assert error["text"] == "That message is nested too deeply."
        await client.ws.send_str('{"t": "ping", "x": ' + "{" * 1200 + "}" * 1200 + "}")
        await client.expect("error")
        await client.sync()  # still connected: four bad frames so far
        await client.ws.send_str("{not json")
        assert (await client.expect("error"))["text"] == "Not a message this server understands."
        await client.ws.send_str("[[[[[[[[[[]]]]]]]]]]")  # the sixth bad frame: disconnected
        closing = await client.closed()
        assert closing.type == aiohttp.WSMsgType.CLOSE and closing.data == 1008
        assert len([f for f in client.seen if f["t"] == "error"]) == 5
    assert not [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_strings_with_brackets_are_not_nesting(tmp_path: Path) -> None:
    async with serve(tmp_path / "w.sqlite") as served:
        alice, _token = await player(served, "alice")
        await alice.say("#bazaar", '[[[[[[[[{{{{{{{{ \\" ]]]]')
        line = await alice.expect("chat", lambda f: f["nick"] == "alice")
        assert line["text"].startswith("[[[[[[[[{{{{")


async def test_connections_per_address_are_bounded_and_others_still_get_in(tmp_path: Path) -> None:
    async with serve(tmp_path / "w.sqlite", limits=WebLimits(connections_per_address=5)) as served:
        for _ in range(5):
            await served.connect(source="127.0.0.2")
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await served.connect(source="127.0.0.2")
        assert refused.value.status == 429
        async with (
            aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))) as session,
            session.get(served.ws_url, headers={"Upgrade": "websocket"}) as response,
        ):
            body = await response.text()
        assert "Too many connections from your address (at most 5)" in body and len(body) < 80
        # a newcomer from another address is not locked out by them
        alice, _token = await player(served, "alice")
        await alice.sync()
        # one of them closes: the address may open one again
        await served.clients[0].close()
        served.clients.pop(0)
        await served.transport.hub.idle()  # type: ignore[union-attr]
        for _ in range(50):
            if served.transport.per_address.get("127.0.0.2") == 4:
                break
            await alice.sync()
        await served.connect(source="127.0.0.2")


async def test_nick_claims_per_minute_are_bounded_per_address(tmp_path: Path) -> None:
    clock = Clock()
    limits = WebLimits(claims_per_minute=3)
    async with serve(tmp_path / "w.sqlite", limits=limits, clock=clock) as served:
        client = await served.connect(source="127.0.0.3")
        await client.hello()
        for n in range(3):
            assert (await client.claim(f"name{n}"))["t"] == "claimed"
        refused = await client.claim("name3")
        assert refused["t"] == "error" and refused["code"] == "limit"
        assert refused["text"] == "Too many nick claims from your address (at most 3 a minute); wait."
        other = await served.connect(source="127.0.0.4")
        await other.hello()
        assert (await other.claim("elsewhere"))["t"] == "claimed"
        clock.now += 61
        assert (await client.claim("name3"))["t"] == "claimed"


async def test_an_unclaimed_websocket_is_closed_when_idle_and_a_claimed_one_much_later(
    tmp_path: Path,
) -> None:
    clock = Clock()
    limits = WebLimits(idle_unclaimed=60, idle_claimed=3600)
    async with serve(tmp_path / "w.sqlite", limits=limits, clock=clock) as served:
        silent = await served.connect()
        alice, _token = await player(served, "alice")
        clock.now += 59
        await served.transport.sweep()
        assert len(served.transport.conns) == 2 and not silent.ws.closed  # still there at 59 s
        await alice.sync()
        clock.now += 2
        await served.transport.sweep()
        closing = await silent.closed()
        assert closing.type == aiohttp.WSMsgType.CLOSE and closing.extra == "idle for too long"
        await alice.sync()  # a claimed tab that spoke within the hour stays
        clock.now += 3601
        await served.transport.sweep()
        closing = await alice.closed()
        assert closing.extra == "idle for too long"


async def test_stale_claims_that_never_sat_expire_and_seated_ones_stay(tmp_path: Path) -> None:
    clock = Clock()
    limits = WebLimits(stale_claim=86400)
    async with serve(tmp_path / "w.sqlite", limits=limits, clock=clock) as served:
        assert served.transport.claims is not None
        served.transport.claims.clock = clock
        drive_by = await served.connect()
        await drive_by.hello()
        await drive_by.claim("driveby")
        alice, alice_token = await player(served, "alice")
        await alice.say("#bazaar", "/join")
        await alice.expect("tell", lambda f: "You sit" in f["text"])
        await drive_by.close()
        served.clients.remove(drive_by)
        await served.transport.sweep()  # marks alice's claim as seated
        assert served.transport.claims.count() == 2
        clock.now += 86401
        await served.transport.sweep()
        assert served.transport.claims.count() == 1
        assert served.transport.claims.nick_for(alice_token) == "alice"
        again = await served.connect()
        await again.hello()
        assert (await again.claim("driveby"))["t"] == "claimed"  # the nick is free again


async def test_rooms_a_nick_is_in_are_bounded_over_all_its_tabs(tmp_path: Path) -> None:
    async with serve(tmp_path / "w.sqlite", limits=WebLimits(rooms_per_nick=3)) as served:
        alice, token = await player(served, "alice", room=None)
        second = await served.connect()
        await second.hello(token)
        await alice.join("#r1")
        await alice.join("#r2")
        await second.join("#r3")
        await second.send(t="join", room="#r4")
        refused = await second.expect("error")
        assert refused["text"] == "You can be in at most 3 rooms at once; /part one first."
        await second.join("#r1")  # a room the nick is in already is fine


async def test_tables_a_web_nick_sits_at_are_bounded(tmp_path: Path) -> None:
    async with serve(tmp_path / "w.sqlite") as served:
        change_settings(served.hub, max_tables=2)
        alice, _token = await player(served, "alice", room=None)
        for room in ("#t1", "#t2", "#t3"):
            await alice.join(room)
            await alice.say(room, "/join")
        refusal = await alice.expect("tell", lambda f: "limit" in f["text"])
        assert refusal["text"] == "You sit at 2 tables already, the limit; /leave one first."
        assert not served.hub.tables[("web", "#t3")].seats


async def test_a_web_admin_is_made_by_a_token_never_by_a_nick(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "w.sqlite"
    async with serve(db) as served:
        alice, _ = await player(served, "alice")
        bob, _ = await player(served, "bob")
        root, root_claim = await player(served, "root")
        await alice.say("#bazaar", "/join")
        await bob.say("#bazaar", "/join")
        await bob.expect("tell", lambda f: "You sit" in f["text"])
        await alice.say("#bazaar", "/start")
        await alice.expect("bot", lambda f: "starts" in f["text"])
        await root.say("#bazaar", "/reset")  # a nick named like an admin is nobody
        refusal = await root.expect("tell", lambda f: "reset" in f["text"])
        assert refusal["text"] == "Only the players or an admin can reset a running game."
        assert cli_main(["admin-token", "ops", "--db", str(db)]) == 0
        token = capsys.readouterr().out.strip()
        assert token.startswith("adm-")
        rows = served.hub.database.execute("SELECT * FROM web_admins").fetchall()
        assert token not in json.dumps(rows)  # only a hash of the token is kept
        await root.say("#bazaar", f"/admin {token}")
        assert (await root.expect("admin"))["name"] == "ops"
        await root.say("#bazaar", "/reset")
        await root.expect("bot", lambda f: "The table is reset" in f["text"])
        # the token was never shown to anybody, nor stored in the room's history
        for client in (alice, bob):
            await client.sync()
            assert token not in json.dumps(client.seen)
        assert token not in json.dumps(served.transport.history.lines("#bazaar"))  # type: ignore[union-attr]
        # spent: another browser gets nothing from it
        await bob.send(t="admin", token=token)
        assert (await bob.expect("error"))["text"] == (
            "That admin token was used already; ask the operator for a new one."
        )
        await bob.say("#bazaar", "/reset")
        assert (await bob.expect("tell", lambda f: "reset" in f["text"]))["text"].startswith("Only")
    # the right belongs to the browser's claim, across a restart
    async with serve(db) as served:
        tab = await served.connect()
        assert (await tab.hello(root_claim))["nick"] == "root"
        await tab.join("#bazaar")
        await tab.say("#bazaar", "/reset")
        await tab.expect("bot", lambda f: "The table is reset" in f["text"])


def test_web_admins_in_the_config_no_longer_make_admins_and_say_so(caplog: pytest.LogCaptureFixture) -> None:
    from bazaarbot.cli import web_admin_policy
    from bazaarbot.config import parse_config

    config = parse_config({"web": {"admins": {"accounts": ["root"]}}})
    assert config.web.admins.accounts == ("root",)  # old configs still load
    with caplog.at_level(logging.WARNING):
        policy = web_admin_policy(config.web.admins)
    assert policy.accounts == () and not policy.ops_are_admins
    assert "bazaarbot admin-token" in caplog.text


def test_frame_depth_is_counted_outside_strings_only() -> None:
    from bazaarbot.transports.web.frames import BadFrame, decode_frame, nesting_depth

    assert nesting_depth('{"t": "say", "text": "[[[[{{{{"}', 4) == 1
    assert nesting_depth('{"t": "x", "a": [[1]]}', 4) == 3
    assert nesting_depth('{"t": "\\"[[[[[[", "a": 1}', 4) == 1
    assert nesting_depth("[" * 100_000, 4) == 5  # stops counting past the limit
    assert decode_frame('{"t": "ping"}', 100) == {"t": "ping"}
    for text, reason in (
        ("x" * 101, "too_big"),
        ("[" * 10 + "]" * 10, "too_deep"),
        ("{not json", "not_json"),
        ("[1, 2]", "not_a_frame"),
        ('{"t": 3}', "not_a_frame"),
    ):
        with pytest.raises(BadFrame) as error:
            decode_frame(text, 100)
        assert str(error.value) == reason


def test_frame_nested_deeper_than_a_decoder_goes_is_too_deep_not_a_crash() -> None:
    from bazaarbot.transports.web.frames import BadFrame, decode_frame

    for text in ("[" * 5_000 + "]" * 5_000, "[" * 50_000, '{"t": "say", "a": ' + "{" * 3_000):
        with pytest.raises(BadFrame) as error:
            decode_frame(text, 200_000)
        assert str(error.value) == "too_deep"


def test_frame_depth_of_a_decoded_value_stops_counting_past_the_limit() -> None:
    from bazaarbot.transports.web.frames import value_depth

    assert value_depth({"t": "say", "text": "[[[["}, 4) == 1
    assert value_depth({"t": "x", "a": [[1], {"b": 2}]}, 4) == 3
    assert value_depth(3, 4) == 0
    deep: list[object] = []
    for _ in range(500):
        deep = [deep]
    assert value_depth(deep, 4) == 5


def test_frame_strict_json_refuses_is_read_as_before() -> None:
    from bazaarbot.transports.web.frames import decode_frame

    assert decode_frame('{"t": "say", "text": "a \\ud83d b"}', 100) == {"t": "say", "text": "a \ud83d b"}
    assert decode_frame('{"t": "say", "n": NaN}', 100)["t"] == "say"


def test_web_limits_are_configurable_and_checked() -> None:
    from bazaarbot.config import ConfigError, parse_config

    limits = parse_config(
        {"web": {"limits": {"connections_per_address": 5, "idle_unclaimed": 30, "stale_claim": 3600}}}
    ).web.limits
    assert (limits.connections_per_address, limits.idle_unclaimed, limits.stale_claim) == (5, 30.0, 3600.0)
    assert limits.claims_per_minute == WebLimits().claims_per_minute
    assert WebLimits().connections_per_address == 20 and WebLimits().idle_unclaimed == 60.0
    with pytest.raises(ConfigError, match="web.limits.bad_frames must be more than 0"):
        parse_config({"web": {"limits": {"bad_frames": 0}}})
    with pytest.raises(ConfigError, match="unknown setting 'sockets'"):
        parse_config({"web": {"limits": {"sockets": 3}}})


def test_admin_token_cli_refuses_a_bad_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["admin-token", "no spaces please", "--db", str(tmp_path / "a.sqlite")]) == 2
    assert "An admin name is" in capsys.readouterr().err


def test_a_new_admin_token_revokes_the_old_one_and_its_binding(tmp_path: Path) -> None:
    import sqlite3

    from bazaarbot.transports.web.admins import AdminTokenError, AdminTokens

    tokens = AdminTokens(sqlite3.connect(tmp_path / "a.sqlite"))
    first = tokens.issue("ops")
    assert tokens.redeem(first, "browser-one-claim-token") == "ops"
    assert tokens.redeem(first, "browser-one-claim-token") == "ops"  # the same browser again: fine
    assert tokens.admin_of("browser-one-claim-token") == "ops"
    second = tokens.issue("ops")
    assert tokens.admin_of("browser-one-claim-token") is None
    with pytest.raises(AdminTokenError):
        tokens.redeem(first, "browser-two-claim-token")
    assert tokens.redeem(second, "browser-two-claim-token") == "ops"


async def test_binary_frames_count_as_malformed(tmp_path: Path) -> None:
    async with serve(tmp_path / "w.sqlite", limits=WebLimits(bad_frames=2)) as served:
        client = await served.connect()
        for _ in range(2):
            await client.ws.send_bytes(b"\x00\x01")
            assert (await client.expect("error"))["text"] == "Send text frames (JSON), not binary ones."
        await client.ws.send_bytes(b"\x00\x01")
        assert (await client.closed()).data == 1008
