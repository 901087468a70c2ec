"""Trust on IRC against a real ngircd: a seat belongs to a person (nick and user@host), not to a nick.

Two clients on different ``user@host`` (distinct idents via USER, distinct
loopback source addresses): whoever takes a seated player's nick from
elsewhere gets no hand, no moves and no return; the owner coming back from
the same address, or with the one-time code from /join, gets the seat back.
Channel operators are not admins unless the network's operator says so.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.hubparts import change_settings
from support.ircserver import (
    CHAN,
    NET,
    IrcServer,
    RawClient,
    gather_cast,
    hub_and_bot,
    make_hub,
    needs_ngircd,
    network_settings,
    start_bot,
    wait_until,
)

from bazaarbot.config import AdminPolicy
from bazaarbot.messages import Tell

pytestmark = pytest.mark.irc

ALICE = "m:alice!~alice@127.0.0.1"
MALLORY = "m:alice!~mallory@127.0.0.2"


async def game(tmp_path: Path, server: IrcServer, closing: list):
    """Hub + bot + alice and bob in a started game of Count; alice to act. Returns alice's seat code too."""
    cast = await gather_cast(tmp_path, server, closing, {"alice": (CHAN,), "bob": (CHAN,)})
    hub, bot, alice, bob = cast.hub, cast.bot, cast["alice"], cast["bob"]
    welcomes = await cast.seat_all(CHAN)
    welcome = welcomes["alice"]
    assert "PRIVMSG alice :You sit in seat 1" in welcome
    assert "PRIVMSG bob :You sit in seat 2" in welcomes["bob"]
    code = re.search(r"!claim (\w+)", welcome)
    assert code, welcome
    await cast.start(CHAN)
    table = hub.tables[(NET, CHAN)]
    assert table.players[0].key == ALICE
    return hub, bot, alice, bob, code.group(1)


async def quit_mid_game(hub, alice: RawClient, closing: list) -> None:
    await alice.close()
    closing.remove(alice)
    await wait_until(lambda: (NET, ALICE) in hub.leaves.pending, what="alice's grace period")


async def alice_gone_mid_game(tmp_path: Path, server: IrcServer, closing: list):
    """A started game whose player alice quit within her grace period: hub, bot, table, alice's code."""
    hub, bot, alice, _bob, code = await game(tmp_path, server, closing)
    await quit_mid_game(hub, alice, closing)
    return hub, bot, hub.tables[(NET, CHAN)], code


async def test_a_stranger_who_takes_the_nick_gets_no_hand_no_moves_and_no_return(
    tmp_path: Path, ircserver: IrcServer, closing
) -> None:
    hub, bot, table, _code = await alice_gone_mid_game(tmp_path, ircserver, closing)
    mallory = await RawClient("alice", ircserver.port, ident="mallory", source="127.0.0.2").connect((CHAN,))
    closing.append(mallory)
    await wait_until(lambda: bot.roster.holds("alice", MALLORY), what="mallory's hostmask")
    mallory.say(CHAN, "!hand")
    await mallory.expect("PRIVMSG alice :You are not playing a game at this table. A seat here is held")
    mallory.say("bazaarbot", "add 3")
    await mallory.expect("PRIVMSG alice :You sit at no table.")
    mallory.say(CHAN, "add 3")
    mallory.say(CHAN, "!status")
    await mallory.expect("To act: alice")
    assert table.state.total == 0, "no move of the stranger's was accepted"
    assert (NET, ALICE) in hub.leaves.pending, "the stranger's join is no return of alice's"
    # a line for the seat's owner is never given to whoever holds the nick now
    await bot.send(Tell(NET, "alice", "Your secret: for alice only", key=ALICE))
    await bot.send(Tell(NET, "alice", "for whoever holds the nick", key=MALLORY))
    await mallory.expect("for whoever holds the nick")
    assert not any("Your secret" in line for line in mallory.lines), mallory.lines


async def test_the_owner_back_from_the_same_host_gets_seat_and_hand(
    tmp_path: Path, ircserver: IrcServer, closing
) -> None:
    hub, bot, table, _code = await alice_gone_mid_game(tmp_path, ircserver, closing)
    alice2 = await RawClient("alice", ircserver.port).connect((CHAN,))
    closing.append(alice2)
    await alice2.expect("PRIVMSG alice :Your secret")  # the hand comes again with the return
    assert (NET, ALICE) not in hub.leaves.pending
    alice2.say(CHAN, "add 2")
    await wait_until(lambda: table.state.total == 2, what="alice's move")


async def test_the_owner_from_a_new_host_takes_the_seat_back_with_the_code(
    tmp_path: Path, ircserver: IrcServer, closing
) -> None:
    hub, bot, table, code = await alice_gone_mid_game(tmp_path, ircserver, closing)
    moved = await RawClient("alice", ircserver.port, source="127.0.0.3").connect((CHAN,))
    closing.append(moved)
    moved.say(CHAN, "!hand")
    await moved.expect("PRIVMSG alice :You are not playing")  # a new address is a stranger at first
    moved.say("bazaarbot", f"/claim {code}")
    await moved.expect(f"PRIVMSG {CHAN} :alice takes seat 1 back.")
    note = await moved.expect("PRIVMSG alice :Seat 1 at #bazaar is yours again.")
    await moved.expect("PRIVMSG alice :Your secret")
    assert table.players[0].key == "m:alice!~alice@127.0.0.3"
    assert (NET, ALICE) not in hub.leaves.pending
    moved.say(CHAN, "add 3")
    await wait_until(lambda: table.state.total == 3, what="the move from the new address")
    # the code worked once; the new one was told privately
    new_code = re.search(r"!claim (\w+)", note)
    assert new_code and new_code.group(1) != code
    mallory = await RawClient("mallory", ircserver.port, source="127.0.0.2").connect((CHAN,))
    closing.append(mallory)
    mallory.say("bazaarbot", f"/claim {code}")
    await mallory.expect("PRIVMSG mallory :That code is not valid here")
    assert table.players[0].key == "m:alice!~alice@127.0.0.3"


async def ops_room(tmp_path: Path, server: IrcServer, closing: list, admins: AdminPolicy):
    """#ops, whose operator is mallory (there before the bot) and where alice sits; hub, bot, mallory."""
    needs_ngircd(server, "channel operators")
    mallory = await RawClient("mallory", server.port, source="127.0.0.2").connect(("#ops",))
    closing.append(mallory)
    hub, bot = await hub_and_bot(tmp_path, server, closing, channels=("#ops",))
    hub.admins[NET] = admins
    alice = await RawClient("alice", server.port).connect(("#ops",))
    closing.append(alice)
    await wait_until(lambda: bot.roster.is_op("mallory", "#ops"), what="mallory's +o")
    alice.say("#ops", "!join")
    await alice.expect("PRIVMSG alice :You sit")
    return hub, bot, mallory


async def test_a_channel_operator_is_no_admin_by_default(
    tmp_path: Path, ircserver: IrcServer, closing
) -> None:
    hub, _bot, mallory = await ops_room(tmp_path, ircserver, closing, AdminPolicy())
    mallory.say("#ops", "!reset")
    await mallory.expect("PRIVMSG mallory :Only the host (alice) or an admin can reset this table.")
    assert hub.tables[(NET, "#ops")].seats


async def test_with_ops_as_admins_op_status_is_checked_when_the_command_runs(
    tmp_path: Path, ircserver: IrcServer, closing
) -> None:
    hub, bot, mallory = await ops_room(tmp_path, ircserver, closing, AdminPolicy(ops_are_admins=True))
    # the op's command arrives, and the -o right behind it, before the hub takes the command
    assert bot._connection is not None
    bot._connection.process_data(
        b":mallory!~mallory@127.0.0.2 PRIVMSG #ops :!reset\r\n:irc.test MODE #ops -o mallory\r\n"
    )
    await mallory.expect("PRIVMSG mallory :Only the host (alice) or an admin can reset this table.")
    assert hub.tables[(NET, "#ops")].seats
    # an operator is an admin while the mode lasts
    bot._connection.process_data(b":irc.test MODE #ops +o mallory\r\n")
    mallory.say("#ops", "!reset clear")
    await mallory.expect("PRIVMSG #ops :The table is reset")
    assert not hub.tables[(NET, "#ops")].seats


async def test_tables_a_nick_sits_at_are_bounded(tmp_path: Path, ircserver: IrcServer, closing) -> None:
    hub, bot = await hub_and_bot(tmp_path, ircserver, closing, channels=("#one", "#two"))
    change_settings(hub, max_tables=1)
    alice = await RawClient("alice", ircserver.port).connect(("#one", "#two"))
    closing.append(alice)
    alice.say("#one", "!join")
    await alice.expect("PRIVMSG alice :You sit in seat 1 at #one")
    alice.say("#two", "!join")
    refusal = await alice.expect("PRIVMSG alice :You sit at 1 table already, the limit")
    assert len(refusal.split(" :", 1)[1]) < 80
    assert not hub.tables[(NET, "#two")].seats
    alice.say("#one", "!leave")
    alice.say("#two", "!join")
    await alice.expect("PRIVMSG alice :You sit in seat 1 at #two")


async def test_a_seat_from_before_host_binding_moves_to_its_holder_once_who_answers(
    tmp_path: Path, ircserver: IrcServer, closing
) -> None:
    from bazaarbot.table import Seat

    hub = make_hub(tmp_path)
    closing.append(hub)
    old = hub.table(NET, CHAN)
    old.seats.append(Seat(1, "n:alice", "alice"))
    old.host = "n:alice"
    old.save_lobby()
    hub.index.update(old)  # the seat was put in by hand: the seat index learns of it as a join would
    alice = await RawClient("alice", ircserver.port).connect((CHAN,))
    closing.append(alice)
    bot = await start_bot(hub, network_settings(ircserver))
    closing.append(bot)
    await wait_until(lambda: old.seat_of(ALICE) is not None, what="the seat to move to nick and host")
    assert old.host == ALICE
