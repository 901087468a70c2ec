"""Every installed game, played to the end by a full table of browsers over the web chat's websocket."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from support.waits import wait_until
from support.webfixtures import Served, WsClient

from bazaarbot.config import BotSettings, RateLimit, WebLimits, WebSettings
from bazaarbot.hub.hub import Hub
from bazaarbot.registry import discover
from bazaarbot.store import Store
from bazaarbot.transports.web import WebTransport

GAMES = discover()
ROOM = "#games"
#: per game, the bot's seed whose deal the test's random moves (``random.Random(9)``) play out in
#: the fewest decisions found (Bazaar 247 instead of 535, Jaipur 118 instead of 235, Yspahan 105
#: instead of 137): the same whole game over the protocol, in half the frames
SHORT_GAME_SEEDS = {"bazaar": 115, "jaipur": 240, "yspahan": 113}


@pytest.mark.parametrize("name", sorted(GAMES))
async def test_a_full_table_plays_a_whole_game_in_the_browser_protocol(tmp_path: Path, name: str) -> None:
    game = GAMES[name]
    nicks = ["ann", "ben", "cat", "dan", "eve", "fay"][: game.max_players]
    settings = BotSettings(
        default_game=name,
        seed=SHORT_GAME_SEEDS.get(name, 5),
        rate_limit=RateLimit(commands=100_000, per_seconds=1),
    )
    hub = Hub(Store(tmp_path / "web.sqlite"), games=GAMES, settings=settings)
    # the scripted tabs read only when they expect a frame: room for a whole game's frames unread
    limits = WebLimits(send_buffer_bytes=64_000_000, address_buffer_bytes=512_000_000)
    web = WebSettings(host="127.0.0.1", port=0, limits=limits)
    transport = WebTransport(web, frame_rate=100_000, frame_burst=100_000)
    hub.attach(transport)
    await transport.start(hub)
    served = Served(hub, transport)
    rng = random.Random(9)
    try:
        clients: dict[str, WsClient] = {}
        for nick in nicks:
            client = await served.connect()
            await client.hello()
            assert (await client.claim(nick))["t"] == "claimed"
            await client.join(ROOM)
            await client.send(t="board", room=ROOM, on=True)  # this tab shows the text board too
            await client.expect("board", lambda f: f["room"] == ROOM)
            clients[nick] = client
        key = ("web", ROOM)
        await clients[nicks[0]].say(ROOM, f"/new {name}")
        await wait_until(lambda: key in hub.tables and len(hub.tables[key].seats) == 1)  # the host first
        for nick in nicks[1:]:
            await clients[nick].say(ROOM, "/join")
        await wait_until(lambda: key in hub.tables and len(hub.tables[key].seats) == len(nicks))
        table = hub.tables[key]
        await clients[nicks[0]].say(ROOM, "/start")
        await wait_until(lambda: table.running)
        for client in clients.values():  # everybody got the board pane
            await client.expect("board", lambda f: f["room"] == ROOM and f["text"])
        decisions = 0
        while table.running:
            seat = game.to_act(table.state)[0]
            nick = table.players[seat].nick
            made = table.moves_made
            command = rng.choice(game.legal_commands(table.state, seat))
            await clients[nick].say(ROOM, command)
            await wait_until(lambda made=made: table.moves_made > made or not table.running)
            decisions += 1
            if decisions % 20 == 0:  # the tabs read what came meanwhile, as a page does, whatever the pace
                for client in clients.values():
                    await client.sync()
        for client in clients.values():  # each tab reads a whole game's frames, unread until now
            await client.expect("bot", lambda f: f["text"].startswith("Game over:"), timeout=60)
        # a private view went to its owner only
        for nick in nicks:
            mine = set(clients[nick].texts("tell"))
            for other in nicks:
                if other != nick:
                    assert not (mine & set(clients[other].texts("bot"))), "a private line was said publicly"
        assert decisions > 0
    finally:
        for client in served.clients:
            await client.close()
        await transport.stop()
        await hub.close()
