"""Answers on the wire: a refusal answers its room's line; a public answer names what was asked."""

from __future__ import annotations

from pathlib import Path

from support.webfixtures import Served, WsClient, player, serve

ROOM = "#bazaar"


async def _started(served: Served) -> tuple[WsClient, WsClient]:
    """alice and bob seated at the room's table, alice started the game."""
    alice, _ = await player(served, "alice")
    bob, _ = await player(served, "bob")
    for client in (alice, bob):
        await client.say(ROOM, "/join")
    await alice.say(ROOM, "/start")
    return alice, bob


async def test_a_refusal_is_an_answer_of_its_room_and_a_hand_is_a_hand(tmp_path: Path) -> None:
    async with serve(tmp_path / "a.sqlite") as served:
        alice, bob = await _started(served)
        hand = await alice.expect("tell", lambda f: "secret" in f["text"].lower())
        assert hand["role"] == "hand" and hand["room"] == ROOM
        table = served.hub.tables[("web", ROOM)]
        waiting = {0: alice, 1: bob}[1 - table.plugin.to_act(table.state)[0]]
        await waiting.say(ROOM, "add 2")
        refusal = await waiting.expect("tell", lambda f: "not your turn" in f["text"])
        assert refusal["role"] == "answer" and refusal["room"] == ROOM


async def test_a_commands_public_answer_names_the_line_it_answers(tmp_path: Path) -> None:
    async with serve(tmp_path / "s.sqlite") as served:
        alice, _ = await player(served, "alice")
        bob, _ = await player(served, "bob")
        await alice.say(ROOM, "/join")
        joined = await bob.expect("bot", lambda f: "alice" in f["text"])
        assert joined["asked"] == {"nick": "alice", "text": "/join"}
        await alice.say(ROOM, "hello")  # chatter: no answer, nothing asked
        chat = await bob.expect("chat", lambda f: f["text"] == "hello")
        assert "asked" not in chat


async def test_the_hand_asked_for_by_its_german_or_spanish_name_is_an_answer(tmp_path: Path) -> None:
    async with serve(tmp_path / "h.sqlite") as served:
        alice, bob = await _started(served)
        await alice.expect("tell", lambda f: f["role"] == "hand")
        for asked in ("/karten", "/mano", "/hand"):
            await alice.say(ROOM, asked)
            again = await alice.expect("tell", lambda f: "secret" in f["text"].lower())
            assert again["role"] == "answer" and again["room"] == ROOM, asked
