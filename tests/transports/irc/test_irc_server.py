"""The IRC transport against a real server (ngircd): games, identity, restarts, safety."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from support.clocked import FakeClock
from support.ircserver import (
    CHAN,
    NET,
    IrcServer,
    RawClient,
    bot_and_player,
    gather_cast,
    hub_and_bot,
    lines_before,
    make_hub,
    needs_ngircd,
    network_settings,
    reached,
    start_bot,
    wait_until,
)
from support.waits import next_turn

from bazaarbot.messages import Say, Tell
from bazaarbot.transports.irc import ctcp

pytestmark = pytest.mark.irc


def channel_lines(client: RawClient, channel: str = CHAN) -> list[str]:
    return [
        line for line in client.lines if f" PRIVMSG {channel} :" in line and line.startswith(":bazaarbot")
    ]


async def seated_game(tmp_path: Path, server: IrcServer, closing: list, **bot_kwargs: object):
    """Hub + bot + alice and bob in #bazaar with a started game of Count (alice to act)."""
    cast = await gather_cast(tmp_path, server, closing, {"alice": (CHAN,), "bob": (CHAN,)}, bot=bot_kwargs)
    await cast.seat_all(CHAN)
    await cast.start(CHAN)
    return cast.hub, cast.bot, cast["alice"], cast["bob"]


def table(hub):
    return hub.tables[(NET, CHAN)]


async def move(hub, client: RawClient, text: str, where: str = CHAN) -> None:
    before = table(hub).state.total
    client.say(where, text)
    await wait_until(lambda: table(hub).state.total != before, what=f"{client.nick}'s move {text!r}")


async def test_full_match_hands_only_in_private(tmp_path: Path, ircserver: IrcServer, closing) -> None:
    hub, bot, alice, bob = await seated_game(tmp_path, ircserver, closing)
    await move(hub, alice, "add 3")
    await move(hub, bob, "add 3")
    await move(hub, alice, "add 3", where="bazaarbot")  # a move by private message works too
    bob.say(CHAN, "add 1")
    await wait_until(lambda: not table(hub).running, what="the game to end")
    await alice.expect(lambda line: "PRIVMSG #bazaar" in line and "bob" in line.split(" :", 1)[1])
    for client in (alice, bob):
        await reached(bot, client)  # every line the game made has reached both
    for client in (alice, bob):
        public = channel_lines(client)
        assert public, "the board and moves are said in the channel"
        assert not any("secret" in line.lower() for line in public), public
    alice_private = [line for line in alice.lines if " PRIVMSG alice :" in line]
    bob_private = [line for line in bob.lines if " PRIVMSG bob :" in line]
    assert alice_private and bob_private
    assert not any(" PRIVMSG bob :" in line for line in alice.lines)
    assert not any(" PRIVMSG alice :" in line for line in bob.lines)


async def test_nick_change_mid_game_keeps_the_seat(tmp_path: Path, ircserver: IrcServer, closing) -> None:
    hub, bot, alice, bob = await seated_game(tmp_path, ircserver, closing)
    alice.send("NICK alicia")
    await alice.expect("NICK")
    await wait_until(lambda: bot.roster.in_channel("alicia", CHAN), what="the rename")
    alice.nick = "alicia"
    await move(hub, alice, "add 2")
    assert table(hub).state.total == 2
    await bob.expect(lambda line: "PRIVMSG #bazaar" in line and "add" in line)
    await move(hub, bob, "add 1")


async def test_server_restart_mid_game(tmp_path: Path, ircserver: IrcServer, closing) -> None:
    # the first reconnect comes 1.5-3 s after the loss: the players are back in the channel by then
    hub, bot, alice, bob = await seated_game(tmp_path, ircserver, closing, reconnect_min=1.5, reconnect_max=3)
    await move(hub, alice, "add 2")
    ircserver.kill()
    await wait_until(lambda: not bot.registered.is_set(), what="the bot to notice the loss")
    bot.queue.put(f"PRIVMSG {CHAN} :said while the server was down")  # kept for after the reconnect
    await next_turn()  # the sender's turn: an open queue would write it now, a paused one holds it
    assert f"PRIVMSG {CHAN} :said while the server was down" in bot.queue.lines
    ircserver.start()
    alice2 = await RawClient("alice", ircserver.port).connect((CHAN,))
    bob2 = await RawClient("bob", ircserver.port).connect((CHAN,))
    closing += [alice2, bob2]
    await wait_until(
        lambda: bot.registered.is_set() and bot.roster.in_channel("bob", CHAN),
        15,
        "the bot to reconnect, rejoin and resync",
    )
    assert bot.connections == 2
    await move(hub, bob2, "add 2")
    await move(hub, alice2, "add 2")
    assert table(hub).state.total == 6
    await bob2.expect("said while the server was down")


async def test_cr_lf_can_never_inject_a_command(tmp_path: Path, ircserver: IrcServer, closing) -> None:
    hub, bot = await hub_and_bot(tmp_path, ircserver, closing)
    bob = await RawClient("bob", ircserver.port).connect((CHAN,))
    closing.append(bob)
    await bot.send(Tell(NET, "bob", "hello\rQUIT :injected"))
    line = await bob.expect("PRIVMSG bob :")
    assert line.endswith("PRIVMSG bob :hello QUIT :injected")
    await bot.send(Say(NET, CHAN, "first\r\nQUIT :injected\0JOIN #evil"))
    await bob.expect("PRIVMSG #bazaar :first")
    line = await bob.expect("PRIVMSG #bazaar :")
    assert line.endswith("PRIVMSG #bazaar :QUIT :injected JOIN #evil")
    await bot.send(Tell(NET, "bob\r\nQUIT :x", "hi"))  # the nick becomes one word: no such nick
    await bot.send(Tell(NET, "#bazaar", "a private view"))  # never a Tell to a channel
    # a hand-crafted line from the network with CR/LF inside cannot turn the answer into commands
    assert bot._connection is not None
    bot._connection.process_data(b":bob!~bob@127.0.0.1 PRIVMSG bazaarbot :!nosuch\rQUIT :pwned\r\n")
    bob.say(CHAN, "!games")
    await bob.expect("PRIVMSG #bazaar :Games:")  # the bot has read everything before it
    seen = lines_before(bob, await reached(bot, bob))  # and all it said meanwhile has reached bob
    assert bot.registered.is_set() and bot.connections == 1
    assert not any(
        "QUIT" in line and line.startswith(":bazaarbot") and " PRIVMSG " not in line for line in seen
    )
    assert not any("a private view" in line for line in seen)
    assert bot.roster.channel("#evil") is None


async def test_notices_are_never_answered(tmp_path: Path, ircserver: IrcServer, closing) -> None:
    hub, bot, alice = await bot_and_player(tmp_path, ircserver, closing, CHAN)
    alice.send(f"NOTICE {CHAN} :!games")
    alice.send("NOTICE bazaarbot :!help")
    alice.say(CHAN, "!games")
    await alice.expect("PRIVMSG #bazaar :Games:")  # the bot has read the notices before it
    seen = lines_before(alice, await reached(bot, alice))  # and anything it said to them has reached alice
    answers = [
        line for line in seen if line.startswith(":bazaarbot") and (" PRIVMSG " in line or " NOTICE " in line)
    ]
    assert len(answers) == 1, answers


async def test_ctcp_version_ping_and_time_are_answered_and_nothing_else(
    tmp_path: Path, ircserver: IrcServer, closing
) -> None:
    clock = FakeClock()  # the clock of the per-nick CTCP answer budget, moved by hand
    players = {"alice": (CHAN,), "bob": (CHAN,)}
    cast = await gather_cast(tmp_path, ircserver, closing, players, bot={"ctcp_clock": clock})
    bot, alice, bob = cast.bot, cast["alice"], cast["bob"]
    alice.send("PRIVMSG bazaarbot :\x01VERSION\x01")
    version = await alice.expect("NOTICE alice :\x01VERSION bazaarbot")
    assert version.endswith("\x01")
    bob.send("PRIVMSG bazaarbot :\x01PING 1234567\x01")
    await bob.expect("NOTICE bob :\x01PING 1234567\x01")
    clock.now += ctcp.GAP + 0.1  # one answer per nick in two seconds
    alice.send("PRIVMSG bazaarbot :\x01TIME\x01")
    await alice.expect(lambda line: "NOTICE alice :\x01TIME " in line and "GMT" in line)
    alice.send("PRIVMSG bazaarbot :\x01ACTION dances\x01")
    for _ in range(5):  # a flood of queries: one answer
        alice.send("PRIVMSG bazaarbot :\x01VERSION\x01")
    alice.say(CHAN, "!games")  # read after the flood: an answer to any of it is queued before this one's
    await alice.expect("PRIVMSG #bazaar :Games:")
    seen = lines_before(alice, await reached(bot, alice))
    answers = [line for line in seen if line.startswith(":bazaarbot") and " NOTICE alice :" in line]
    assert len(answers) == 2, answers
    assert not [line for line in seen if " PRIVMSG alice :" in line], "no game answer to a CTCP"


async def test_blocked_private_messages_are_explained_in_the_channel(
    tmp_path: Path, ircserver: IrcServer, closing
) -> None:
    needs_ngircd(ircserver, "user mode +b")
    hub, bot, alice = await bot_and_player(tmp_path, ircserver, closing, CHAN)
    alice.send("MODE alice +b")  # ngircd: refuse private messages from unregistered users
    await alice.expect("MODE alice")
    alice.say(CHAN, "!join")  # the bot answers privately at once, which the server refuses
    line = await alice.expect(lambda line: "PRIVMSG #bazaar :alice:" in line)
    assert "!hand" in line and "-b" in line


async def test_ops_and_colours(tmp_path: Path, ircserver: IrcServer, closing) -> None:
    needs_ngircd(ircserver, "channel operators")
    alice = await RawClient("alice", ircserver.port).connect(("#colors",))  # first in: channel operator
    bob = await RawClient("bob", ircserver.port).connect(("#colors",))
    closing += [alice, bob]
    hub, bot = await hub_and_bot(tmp_path, ircserver, closing, channels=("#colors",))
    await wait_until(lambda: bot.roster.in_channel("bob", "#colors"), what="NAMES")
    assert bot.roster.user("alice", "#colors").is_op
    assert not bot.roster.user("bob", "#colors").is_op
    bob.say("#colors", "hello")  # every line carries its sender's hostmask
    await wait_until(lambda: bot.roster.user("bob").mask == "bob!~bob@127.0.0.1", what="bob's hostmask")
    alice.send("MODE #colors +o bob")
    await wait_until(lambda: bot.roster.user("bob", "#colors").is_op, what="the MODE +o")
    await bot.send(Say(NET, "#colors", "take 2 spice", colors=True))
    line = await bob.expect("PRIVMSG #colors :take 2")
    assert line.endswith("take 2 spice"), "plain until the channel modes are known"
    await wait_until(lambda: bot.roster.channel_modes("#colors") is not None, what="RPL_CHANNELMODEIS")
    await bot.send(Say(NET, "#colors", "take 3 spice", colors=True))
    line = await bob.expect("PRIVMSG #colors :take 3")
    assert line.endswith("take 3 \x0304spice\x0f")
    # a server with +c (ngircd has none): the bot learns the mode and sends plain text
    assert bot._connection is not None
    bot._connection.process_data(b":alice!~alice@127.0.0.1 MODE #colors +c\r\n")
    await bot.send(Say(NET, "#colors", "take 4 spice", colors=True))
    line = await bob.expect("PRIVMSG #colors :take 4")
    assert line.endswith("take 4 spice")
    await bot.send(Say(NET, "#colors", "take 5 gold", colors=False))
    assert (await bob.expect("take 5")).endswith("take 5 gold")


async def test_nick_in_use_then_regained(tmp_path: Path, ircserver: IrcServer, closing) -> None:
    squatter = await RawClient("bazaarbot", ircserver.port).connect(())
    closing.append(squatter)
    hub = make_hub(tmp_path)
    closing.append(hub)
    settings = network_settings(ircserver, alt_nicks=("bazaarbot2",))
    bot = await start_bot(hub, settings, regain_interval=0.3)
    closing.append(bot)
    assert bot.nick == "bazaarbot2"
    watcher = await RawClient("watcher", ircserver.port).connect((CHAN,))
    closing.append(watcher)
    await squatter.close()
    closing.remove(squatter)
    await watcher.expect(":bazaarbot2!", timeout=30)  # NICK bazaarbot2 -> bazaarbot
    await wait_until(lambda: bot.nick == "bazaarbot", what="the nick to come back")
    watcher.say(CHAN, "!games")
    assert (await watcher.expect("PRIVMSG #bazaar :Games:")).startswith(":bazaarbot!")


async def test_two_networks_at_once(tmp_path: Path, ircserver: IrcServer, closing) -> None:
    hub, one = await hub_and_bot(tmp_path, ircserver, closing, name="one", nick="botone", channels=("#one",))
    two = await start_bot(hub, network_settings(ircserver, name="two", nick="bottwo", channels=("#two",)))
    closing.append(two)
    alice = await RawClient("alice", ircserver.port).connect(("#one", "#two"))
    closing.append(alice)
    alice.say("#one", "!join")
    await alice.expect(lambda line: line.startswith(":botone!") and "#one" in line)
    alice.say("#two", "!status")
    await alice.expect(lambda line: line.startswith(":bottwo!") and "#two" in line)
    assert ("one", "#one") in hub.tables and ("two", "#two") in hub.tables
    assert not any(line.startswith(":bottwo!") and "#one" in line for line in alice.lines)


async def test_quit_in_a_game_starts_the_grace_period(tmp_path: Path, ircserver: IrcServer, closing) -> None:
    hub, bot, alice, bob = await seated_game(tmp_path, ircserver, closing)
    await bob.close()
    closing.remove(bob)
    await wait_until(lambda: (NET, "m:bob!~bob@127.0.0.1") in hub.leaves.pending, what="the grace period")
    bob2 = await RawClient("bob", ircserver.port).connect((CHAN,))
    closing.append(bob2)
    await wait_until(lambda: (NET, "m:bob!~bob@127.0.0.1") not in hub.leaves.pending, what="the return")
    assert table(hub).running


async def test_bad_bytes_never_stop_the_reader(tmp_path: Path, ircserver: IrcServer, closing) -> None:
    hub, bot, alice = await bot_and_player(tmp_path, ircserver, closing, CHAN)
    alice.send_bytes(b"PRIVMSG #bazaar :caf\xe9 \xff\xfe broken\r\n")
    alice.send_bytes(b"PRIVMSG bazaarbot :\xc3\x28!games\r\n")
    alice.say(CHAN, "!games")
    await alice.expect("PRIVMSG #bazaar :Games:")
    assert bot.connections == 1


async def test_kicked_bot_rejoins(tmp_path: Path, ircserver: IrcServer, closing) -> None:
    needs_ngircd(ircserver, "KICK")
    alice = await RawClient("alice", ircserver.port).connect((CHAN,))  # first in: operator
    closing.append(alice)
    hub, bot = await hub_and_bot(tmp_path, ircserver, closing, bot={"rejoin_delay": 0.2})
    alice.send(f"KICK {CHAN} bazaarbot :out")
    await alice.expect(" KICK ")
    await alice.expect(lambda line: line.startswith(":bazaarbot!") and " JOIN " in line)
    await wait_until(lambda: bot.roster.channel(CHAN) is not None, what="the rejoin")


async def test_a_silent_server_is_detected_and_left(tmp_path: Path, ircserver: IrcServer, closing) -> None:
    hub, bot = await hub_and_bot(
        tmp_path, ircserver, closing, bot={"ping_interval": 0.3, "read_timeout": 1.0}
    )
    assert ircserver.process is not None
    ircserver.process.send_signal(signal.SIGSTOP)  # the server hangs: no data, no error
    try:
        await wait_until(lambda: not bot.registered.is_set(), 10, "the read timeout")
    finally:
        ircserver.process.send_signal(signal.SIGCONT)
    await wait_until(lambda: bot.registered.is_set() and bot.roster.channel(CHAN) is not None, 30, "rejoin")
    assert bot.connections >= 2


async def test_players_gone_during_an_outage_get_the_grace_period(
    tmp_path: Path, ircserver: IrcServer, closing
) -> None:
    hub, bot, alice, bob = await seated_game(tmp_path, ircserver, closing)
    ircserver.kill()
    await wait_until(lambda: not bot.registered.is_set(), what="the loss")
    ircserver.start()
    alice2 = await RawClient("alice", ircserver.port).connect((CHAN,))
    closing.append(alice2)
    await wait_until(lambda: bot.roster.in_channel("alice", CHAN), 15, "the rejoin")
    await wait_until(lambda: (NET, "m:bob!~bob@127.0.0.1") in hub.leaves.pending, what="bob's grace period")
    alice_key = "m:alice!~alice@127.0.0.1"
    await wait_until(lambda: (NET, alice_key) not in hub.leaves.pending, what="alice is there")
    assert table(hub).running


async def test_metrics_count_the_lines_sent_and_waiting_on_irc(tmp_path: Path, ircserver: IrcServer, closing):
    hub, bot, alice, bob = await seated_game(tmp_path, ircserver, closing)
    await bot.queue.drained()
    scraped = hub.metrics.render().decode()
    sent = [line for line in scraped.splitlines() if line.startswith("bazaarbot_irc_lines_sent_total{")]
    assert sent and float(sent[0].rsplit(" ", 1)[1]) >= 4, scraped
    assert f'bazaarbot_irc_queue_lines{{network="{NET}"}} 0.0' in scraped
    assert f'bazaarbot_commands_total{{game="count",kind="command",network="{NET}"}} 3.0' in scraped


async def test_an_invite_is_joined_where_the_network_accepts_them_and_remembered_until_a_kick(
    tmp_path: Path, ircserver: IrcServer, closing
) -> None:
    from dataclasses import replace

    hub = make_hub(tmp_path)
    closing.append(hub)
    settings = network_settings(ircserver, channels=(CHAN,), accept_invites=True)
    bot = await start_bot(hub, settings)
    alice = await RawClient("alice", ircserver.port).connect((CHAN, "#basar"))
    closing.append(alice)
    alice.send("INVITE bazaarbot #basar")
    hello = await alice.expect("PRIVMSG #basar :Hello!")
    assert "!new <game>" in hello
    await bot.stop()
    again = await start_bot(hub, settings)  # a restart: the invited channel is joined again
    closing.append(again)
    await wait_until(lambda: again.roster.channel("#basar") is not None, what="the invited channel again")
    alice.send("KICK #basar bazaarbot :not here")
    await wait_until(lambda: again.invited is not None and not again.invited.channels(), what="forgotten")
    (tmp_path / "shy").mkdir()
    shy = await start_bot(
        make_hub(tmp_path / "shy", nick="shybot"), replace(settings, nick="shybot", accept_invites=False)
    )
    closing.append(shy)
    alice.send("INVITE shybot #basar")
    alice.say("shybot", "!games")  # read after the invite: its answer proves the invite was read
    await alice.expect(lambda line: line.startswith(":shybot!") and " PRIVMSG alice :Games:" in line)
    seen = lines_before(alice, await reached(shy, alice))  # a JOIN would have come before the answer
    joined = [line for line in seen if line.startswith(":shybot!") and " JOIN " in line and "#basar" in line]
    assert not joined, joined
    assert shy.roster.channel("#basar") is None and not shy.invited.channels()
