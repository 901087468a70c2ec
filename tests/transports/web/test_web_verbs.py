"""A view names every verb but carries only the short verbs' commands; a tab asks for a long one's."""

from __future__ import annotations

from pathlib import Path

from support.webfixtures import Served, WsClient, player, serve

from bazaarbot.i18n import language
from bazaarbot.registry import discover
from bazaarbot.tableview.table import INLINE_COMMANDS
from bazaarbot.words.moves import command_here

GAMES = discover()
ROOM = "#bazaar"


async def _seated(served: Served) -> dict[str, WsClient]:
    alice, _ = await player(served, "alice")
    bob, _ = await player(served, "bob")
    await alice.say(ROOM, "/new jaipur")
    await bob.say(ROOM, "/join")
    await bob.expect("bot", lambda f: "bob joins" in f["text"])
    await alice.say(ROOM, "/start")
    for client in (alice, bob):
        await client.expect("view", lambda f: f["view"]["phase"] == "running")
    return {"alice": alice, "bob": bob}


def _mover(served: Served) -> tuple[str, int]:
    table = served.hub.tables[("web", ROOM)]
    seat = table.plugin.to_act(table.state)[0]
    return table.players[seat].nick, seat


async def _view_of(client: WsClient, served: Served) -> dict:
    """The tab's view of the table as it is now (the latest move's view may still be on its way)."""
    moves = served.hub.tables[("web", ROOM)].moves_made
    if client.views.get(ROOM, {}).get("moves") != moves:
        await client.expect("view", lambda f: f["view"]["moves"] == moves)
    return client.views[ROOM]


async def test_a_view_names_every_verb_and_carries_the_short_ones_and_those_the_tab_asked_for(
    tmp_path: Path,
) -> None:
    async with serve(tmp_path / "v.sqlite", games=GAMES, default_game="jaipur") as served:
        clients = await _seated(served)
        table = served.hub.tables[("web", ROOM)]
        asked: dict[str, set[str]] = {"alice": set(), "bob": set()}
        long_seen = carried = False
        for _turn in range(16):
            nick, seat = _mover(served)
            view = await _view_of(clients[nick], served)
            legal = table.plugin.legal_commands(table.state, seat)
            you = view["you"]
            assert sum(v["count"] for v in you["verbs"]) == len(legal)
            for verb in you["verbs"]:
                own = [c for c in you["commands"] if c.split(" ", 1)[0] == verb["verb"]]
                assert verb["carried"] is (len(own) == verb["count"])  # the page asks for the others
                if verb["count"] <= INLINE_COMMANDS:
                    assert len(own) == verb["count"]
                elif verb["verb"] in asked[nick]:  # asked for at an earlier turn: carried since
                    carried = True
                    assert len(own) == verb["count"]
                else:
                    long_seen = True
                    assert own == []  # the page asks for them when it draws them
                    asked[nick].add(verb["verb"])
            assert await clients[nick].commands(ROOM, view) == legal
            await clients[nick].say(ROOM, legal[0])  # a card taken: hands fill, exchanges multiply
            await clients[nick].expect("echo")
        assert long_seen and carried, "no long verb asked for and carried in sixteen Jaipur turns"


async def test_a_long_verbs_commands_come_in_the_readers_words(tmp_path: Path) -> None:
    async with serve(tmp_path / "w.sqlite", games=GAMES, default_game="jaipur") as served:
        clients = await _seated(served)
        table = served.hub.tables[("web", ROOM)]
        nick, seat = _mover(served)
        await clients[nick].send(t="moves", room=ROOM, verb="take")
        assert (await clients[nick].expect("moves"))["lang"] is None  # the browser's language
        await clients[nick].say(None, "/sprache de")
        await clients[nick].expect("tell")
        view = await _view_of(clients[nick], served)
        take = next(v for v in view["you"]["verbs"] if v["verb"] == "take")
        assert take["word"] == "nimm"
        await clients[nick].send(t="moves", room=ROOM, verb="take")
        answer = await clients[nick].expect("moves")
        assert answer["lang"] == "de"  # a page keeps an answer only while it is drawn in its words
        legal = [c for c in table.plugin.legal_commands(table.state, seat) if c.startswith("take")]
        assert answer["commands"] == legal
        with language("de"):
            typed = {c: command_here(table.plugin, table.state, seat, c) for c in legal}
        assert {c: answer["said"].get(c, c) for c in legal} == typed


async def test_a_moves_request_without_a_seat_or_a_turn_gets_no_commands(tmp_path: Path) -> None:
    async with serve(tmp_path / "s.sqlite", games=GAMES, default_game="jaipur") as served:
        clients = await _seated(served)
        carol, _ = await player(served, "carol")
        await carol.send(t="moves", room=ROOM, verb="take")
        assert (await carol.expect("moves"))["commands"] == []
        nick, _seat = _mover(served)
        waiting = clients["bob" if nick == "alice" else "alice"]
        await waiting.send(t="moves", room=ROOM)
        answer = await waiting.expect("moves")
        assert answer["commands"] == [] and answer["moves"] == served.hub.tables[("web", ROOM)].moves_made


async def test_a_moves_request_for_a_room_not_joined_or_with_a_bad_verb_is_refused(tmp_path: Path) -> None:
    async with serve(tmp_path / "r.sqlite", games=GAMES, default_game="jaipur") as served:
        clients = await _seated(served)
        alice = clients["alice"]
        before = served.hub.tables[("web", ROOM)].moves_made
        await alice.send(t="moves", room="#elsewhere", verb="take")
        assert "Join the room first" in (await alice.expect("error"))["text"]
        for verb in (7, "", "x" * 41, ["take"]):
            await alice.send(t="moves", room=ROOM, verb=verb)
            assert "not a verb" in (await alice.expect("error"))["text"]
        assert served.hub.tables[("web", ROOM)].moves_made == before
