"""Sitting in under the absent player's nick never reads as their return; their code takes the seat back.

On a real ngircd: alice (bound to her user@host) leaves a running game and
the AI plays her seat; mallory takes the nick ``alice`` from another address
and sits in. The channel names her as another user; the real alice, back
as ``alice_``, takes the seat back with the code she got at ``/join``, which
stays valid until the game ends.
"""

from __future__ import annotations

import re

import pytest
from support.ircserver import IrcServer, RawClient
from support.waits import wait_until

pytestmark = pytest.mark.irc

NET = "testnet"
CHAN = "#bazaar"


async def test_a_sitter_under_the_absent_players_nick_is_named_as_another_user_and_the_code_wins(
    ircserver: IrcServer, irc_cast, closing
) -> None:
    cast = await irc_cast({"alice": (CHAN,), "bob": (CHAN,)}, leave_grace=0.2)
    hub, bot, alice, bob = cast.hub, cast.bot, cast["alice"], cast["bob"]
    welcomes = await cast.seat_all(CHAN)
    assert "PRIVMSG alice :You sit in seat 1" in welcomes["alice"]
    assert "PRIVMSG bob :You sit in seat 2" in welcomes["bob"]
    code = re.search(r"!claim (\w+)", welcomes["alice"])
    assert code
    await cast.start(CHAN)
    table = hub.tables[(NET, CHAN)]
    await alice.close()
    closing.remove(alice)
    await bob.expect("An AI (")
    mallory = await RawClient("alice", ircserver.port, ident="mallory", source="127.0.0.2").connect((CHAN,))
    closing.append(mallory)
    await wait_until(lambda: bot.roster.holds("alice", "m:alice!~mallory@127.0.0.2"), what="mallory's host")
    mallory.say(CHAN, "!join 1")
    line = await bob.expect("sits in for alice in seat 1")
    assert "alice (another user) sits in for alice in seat 1" in line, line
    assert table.players[0].key == "m:alice!~mallory@127.0.0.2"
    # the real alice, back under another nick, takes her seat back with her code
    back = await RawClient("alice_", ircserver.port).connect((CHAN,))
    closing.append(back)
    back.say("bazaarbot", f"!claim {code.group(1)}")
    await bob.expect(f"PRIVMSG {CHAN} :alice_ takes seat 1 back.")
    await mallory.expect("PRIVMSG alice :alice_ took seat 1 back with its code; you no longer play it.")
    await back.expect("PRIVMSG alice_ :Seat 1 at #bazaar is yours again.")
    assert table.players[0].key == "m:alice_!~alice_@127.0.0.1"
    assert table.players[0].owner is None and table.players[0].ai is None
    assert table.seat_of("m:alice!~mallory@127.0.0.2") is None
    mallory.say(CHAN, "!hand")
    await mallory.expect("PRIVMSG alice :You are not playing a game at this table.")
    # the code worked once
    mallory.say("bazaarbot", f"!claim {code.group(1)}")
    await mallory.expect("PRIVMSG alice :That code is not valid here")
