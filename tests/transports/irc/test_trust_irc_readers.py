"""Private lines belong to the identity they were made for, on a real ngircd.

A nick is free for anybody once its holder quits or changes it. What is still
queued or paged for it must not reach the next holder: pages and queued lines
are dropped on QUIT, follow a NICK change, are checked again when they leave,
and ``!more`` gives the next page only to the listing's owner. Lines for a
reader who is gone do not hold up anybody else's answers.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from support.ircserver import (
    CHAN,
    NET,
    IrcServer,
    RawClient,
    gather_cast,
    hub_and_bot,
    wait_until,
)

from bazaarbot.messages import Tell

pytestmark = pytest.mark.irc

MALLORY = "m:p2!~mallory@127.0.0.2"


def from_bot(client: RawClient, target: str) -> list[str]:
    """The text of every private line the bot sent ``client`` addressed to ``target``."""
    marker = f" PRIVMSG {target} :"
    return [
        line.split(marker, 1)[1] for line in client.lines if line.startswith(":bazaarbot") and marker in line
    ]


async def jaipur(tmp_path: Path, server: IrcServer, closing: list, **pacing: object):
    """p1 and p2 in a started Jaipur game; returns hub, bot and the two clients, p2's client seated 2."""
    from plugins.jaipur import GAME

    players = {"p1": (CHAN,), "p2": (CHAN,)}
    cast = await gather_cast(
        tmp_path, server, closing, players, games={"jaipur": GAME}, seed=11, page_lines=2, **pacing
    )
    await wait_until(lambda: cast.bot.roster.holds("p2", "m:p2!~p2@127.0.0.1"), what="p2's hostmask")
    await cast.seat_all(CHAN)
    await cast.start(CHAN, "Your hand", timeout=20)
    await cast.bot.queue.drained()
    return cast.hub, cast.bot, cast["p1"], cast["p2"]


async def take_the_nick(server: IrcServer, closing: list) -> RawClient:
    """A stranger from another user@host under the freed nick p2."""
    mallory = await RawClient("p2", server.port, ident="mallory", source="127.0.0.2").connect((CHAN,))
    closing.append(mallory)
    return mallory


async def secret_lines_queued(tmp_path: Path, server: IrcServer, closing: list, count: int, pace: float):
    """A Jaipur game whose bot sends one line at a time, ``pace`` a second, and ``count`` private lines
    for p2's seat ("secret line 1", ...) handed to it: hub, bot and p2."""
    hub, bot, _p1, p2 = await jaipur(tmp_path, server, closing, burst=1, lines_per_second=pace)
    key = hub.tables[(NET, CHAN)].players[1].key
    for n in range(1, count + 1):
        await bot.send(Tell(NET, "p2", f"secret line {n}", key=key))
    return hub, bot, p2


async def only_the_new_holder_reads(bot, mallory: RawClient) -> None:
    """A line made for the nick's new holder reaches them, and nothing before it did."""
    await bot.send(Tell(NET, "p2", "for the new holder", key=MALLORY))
    await mallory.expect("PRIVMSG p2 :for the new holder")
    assert from_bot(mallory, "p2") == ["for the new holder"], mallory.lines


async def quit_client(client: RawClient, closing: list) -> None:
    await client.close()
    closing.remove(client)


async def test_a_nick_taker_gets_no_page_of_the_listing_its_owner_left(
    tmp_path: Path, ircserver: IrcServer, closing
) -> None:
    hub, bot, _p1, p2 = await jaipur(tmp_path, ircserver, closing)
    table = hub.tables[(NET, CHAN)]
    listing = "\n".join(f"sell {n} cloth, secret line {n}" for n in range(1, 9))
    await bot.send(Tell(NET, "p2", listing, listing=True, key=table.players[1].key))
    await p2.expect("more lines: !more)")
    await quit_client(p2, closing)
    await wait_until(lambda: "p2" not in bot.roster.people, what="p2's quit")
    mallory = await take_the_nick(ircserver, closing)
    await wait_until(lambda: bot.roster.holds("p2", MALLORY), what="mallory's hostmask")
    mallory.say("bazaarbot", "!more")
    await mallory.expect("PRIVMSG p2 :Nothing more to show.")
    assert not any("secret line" in text for text in from_bot(mallory, "p2")), mallory.lines


async def test_more_gives_a_page_only_to_the_identity_it_was_made_for(
    tmp_path: Path, ircserver: IrcServer, closing
) -> None:
    hub, bot, _p1, p2 = await jaipur(tmp_path, ircserver, closing)
    # a page made for someone else under this nick (the nick changed hands unseen) is not p2's
    listing = "\n".join(f"secret line {n}" for n in range(1, 9))
    await bot.send(Tell(NET, "p2", listing, listing=True, key=MALLORY))
    assert bot.pager.left("p2") == 0, "a line for another identity is never queued or paged"
    bot.pager.start("p2", "p2", "PRIVMSG", listing.split("\n"), MALLORY)
    p2.say("bazaarbot", "!more")
    await p2.expect("PRIVMSG p2 :Nothing more to show.")
    assert not any("secret line" in text for text in from_bot(p2, "p2"))


async def test_queued_private_lines_are_dropped_when_their_reader_quits(
    tmp_path: Path, ircserver: IrcServer, closing
) -> None:
    # what a hand, a prompt and a listing leave queued for a couple of seconds
    hub, bot, p2 = await secret_lines_queued(tmp_path, ircserver, closing, 6, 2.0)
    await bot.send(Tell(NET, "p2", "an answer without a key"))
    await p2.expect("secret line 1")
    await quit_client(p2, closing)
    await wait_until(lambda: not any(" p2 :" in line for line in bot.queue.lines), what="the drop")
    mallory = await take_the_nick(ircserver, closing)
    await wait_until(lambda: bot.roster.holds("p2", MALLORY), what="mallory's hostmask")
    await only_the_new_holder_reads(bot, mallory)


async def test_queued_private_lines_follow_a_nick_change(
    tmp_path: Path, ircserver: IrcServer, closing
) -> None:
    hub, bot, p2 = await secret_lines_queued(tmp_path, ircserver, closing, 8, 4.0)
    await p2.expect("secret line 1")
    p2.send("NICK p2x")
    await p2.expect(lambda line: " NICK " in line and "p2x" in line)
    p2.nick = "p2x"
    mallory = await take_the_nick(ircserver, closing)
    await p2.expect("PRIVMSG p2x :secret line 8")
    got = [text for text in from_bot(p2, "p2") + from_bot(p2, "p2x") if text.startswith("secret")]
    assert got == [f"secret line {n}" for n in range(1, 9)], "every line once, in order, to its owner"
    await only_the_new_holder_reads(bot, mallory)


async def test_the_turn_clock_reminder_never_goes_to_whoever_holds_the_nick(
    tmp_path: Path, ircserver: IrcServer, closing
) -> None:
    hub, bot, p1, p2 = await jaipur(tmp_path, ircserver, closing)
    table = hub.tables[(NET, CHAN)]
    p1.say(CHAN, "!clock 60s")
    await p1.expect("Turn clock: 1m")
    waiting = table.players[table.plugin.to_act(table.state)[0]].nick
    if waiting != "p2":  # p1 moves first: p2 is then the one the clock waits for
        p1.say(CHAN, table.plugin.legal_commands(table.state, 0)[0])
        await wait_until(lambda: table.plugin.to_act(table.state) == [1], what="p2's turn")
    await bot.queue.drained()
    await quit_client(p2, closing)
    mallory = await take_the_nick(ircserver, closing)
    await wait_until(lambda: bot.roster.holds("p2", MALLORY), what="mallory's hostmask")
    now = time.time()
    await hub.tick(now)
    await hub.tick(now + 45)
    assert "last" in table.turn_clock.sent  # the reminder was given (privately: the channel hears nothing)
    await bot.send(Tell(NET, "p2", "for the new holder", key=MALLORY))
    await mallory.expect("PRIVMSG p2 :for the new holder")
    assert not any("left, then the AI" in text for text in from_bot(mallory, "p2")), mallory.lines


async def test_lines_for_readers_who_quit_do_not_hold_up_another_channel(
    tmp_path: Path, ircserver: IrcServer, closing
) -> None:
    hub, bot = await hub_and_bot(
        tmp_path, ircserver, closing, channels=(CHAN, "#other"), burst=2, lines_per_second=5.0
    )
    watcher = await RawClient("watcher", ircserver.port).connect(("#other",))
    closing.append(watcher)
    askers = [await RawClient(f"u{n}", ircserver.port).connect((CHAN,)) for n in range(8)]
    closing += askers
    await wait_until(lambda: all(bot.roster.in_channel(c.nick, CHAN) for c in askers), what="the askers")
    for client in askers:
        for _ in range(3):
            client.say("bazaarbot", "!games")
            client.say("bazaarbot", "!help")
    await wait_until(lambda: len(bot.queue.lines) >= 30, what="a backlog of private answers")
    for client in askers:
        await quit_client(client, closing)
    await wait_until(lambda: not any(c.nick in bot.roster.people for c in askers), what="the quits")
    assert not any(" :" in line and line.split(" ")[1].startswith("u") for line in bot.queue.lines)
    started = time.monotonic()
    watcher.say("#other", "!status")
    await watcher.expect("PRIVMSG #other :")
    waited = time.monotonic() - started
    print(f"!status answered {waited:.2f} s after eight askers with a backlog quit")


async def test_a_no_such_nick_reply_drops_the_rest_queued_for_that_nick(
    tmp_path: Path, ircserver: IrcServer, closing
) -> None:
    hub, bot = await hub_and_bot(tmp_path, ircserver, closing, burst=1, lines_per_second=2.0)
    await bot.queue.drained()
    sent = bot.queue.sent
    for n in range(8):  # four seconds of lines at this pace
        await bot.send(Tell(NET, "ghost", f"line {n}"))
    await wait_until(lambda: not any(" ghost :" in line for line in bot.queue.lines), 2.0, "the drop on 401")
    assert bot.queue.sent - sent <= 2, "only what left before the server's 401 was sent"


async def test_lines_for_a_reader_who_parted_the_last_shared_channel_are_dropped(
    tmp_path: Path, ircserver: IrcServer, closing
) -> None:
    hub, bot, p2 = await secret_lines_queued(tmp_path, ircserver, closing, 6, 2.0)
    await p2.expect("secret line 1")
    p2.send(f"PART {CHAN}")
    await wait_until(lambda: not any(" p2 :" in line for line in bot.queue.lines), 2.0, "the drop on part")
    assert not bot.pager.left("p2")
