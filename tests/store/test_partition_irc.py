"""IRC after a freeze: the process that took over answers at once under an alternate nick, and takes
the main nick back as soon as the frozen process's connection drops (ngircd has no services)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from support.failover import BotProcess
from support.frozen import LEASE, Pair, ended, freeze, stay_frozen, wake
from support.ircserver import IrcServer, RawClient, ScriptedIrcServer, irc_network_config, make_hub
from support.waits import wait_until

from bazaarbot.config import IrcNetwork
from bazaarbot.transports.irc import IrcTransport

pytestmark = [pytest.mark.irc, pytest.mark.xdist_group("partition")]


#: how long a process may take from serving the web chat to joining the IRC channel: as long as its
#: start may take (a busy machine starts it slowly, and a first connection refused is tried again)
JOIN_WAIT = 60.0


async def _joins(player: RawClient, nick: str, process: BotProcess) -> None:
    """``nick`` joins the player's channel; a wait that fails says what the process wrote."""
    try:
        await player.expect(lambda line: line.startswith(f":{nick}!") and " JOIN " in line, timeout=JOIN_WAIT)
    except AssertionError as error:
        raise AssertionError(f"{error}; the process wrote: {process.lines[-15:]}") from None


def _spoke(nick: str):
    """Whether an IRC line is ``nick`` saying something (to the channel or to the reader)."""
    return lambda line: line.startswith(f":{nick}!") and (" PRIVMSG " in line or " NOTICE " in line)


async def test_the_process_that_took_over_answers_irc_at_once_and_regains_the_nick_when_the_old_drops(
    tmp_path, postgres_cluster, ircserver: IrcServer
) -> None:
    irc = irc_network_config(ircserver.port, ["#j"], burst=1000, lines_per_second=1000.0)
    pair = Pair(tmp_path, postgres_cluster.database(), extra=irc)
    player = await RawClient("alice", ircserver.port).connect(("#j",))
    try:
        first = pair.start(pair.ports[0])
        await first.said("serving the web chat")
        await _joins(player, "bazaarbot", first)
        second = pair.start(pair.ports[1])
        await second.said("standby")
        frozen = freeze(first)
        await second.said("serving the web chat")
        # the frozen process still holds the nick: the new one joins under its alternate
        await _joins(player, "bazaarbot_", second)
        asked = time.monotonic()
        player.say("#j", "!games")
        await player.expect(_spoke("bazaarbot_"), timeout=30)
        answered = time.monotonic() - asked
        await stay_frozen(frozen, 3 * LEASE)
        wake(first)
        assert await ended(first) == 75
        await player.expect(lambda line: line.startswith(":bazaarbot!") and " QUIT " in line, timeout=30)
        dropped = time.monotonic()
        await player.expect(lambda line: line.startswith(":bazaarbot_!") and " NICK " in line, timeout=30)
        regained = time.monotonic() - dropped
        player.say("#j", "!new jaipur")
        await player.expect(_spoke("bazaarbot"), timeout=30)
    finally:
        await player.close()
        pair.close()
    print(f"answered under the alternate nick in {answered:.2f} s; regained {regained:.2f} s after the drop")
    assert answered < 2.0, f"the alternate nick answered after {answered:.1f} s"
    assert regained < 2.0, f"the main nick came back {regained:.1f} s after the old connection dropped"


class HeldNickServer(ScriptedIrcServer):
    """A network with services where ``bazaarbot`` is held by another connection until NickServ ghosts it."""

    def __init__(self) -> None:
        super().__init__()
        self.held = True
        self.nick = ""
        self.user = False
        self.welcomed = False

    def answer(self, line: str) -> None:
        if line.startswith("NICK "):
            wanted = line[5:]
            if wanted == "bazaarbot" and self.held:
                self.send(f":irc.example 433 {self.nick or '*'} bazaarbot :Nickname is already in use")
                return
            if self.welcomed:
                self.send(f":{self.nick}!~bb@h NICK :{wanted}")
            self.nick = wanted
        elif line.startswith("USER "):
            self.user = True
        if self.nick and self.user and not self.welcomed:
            self.welcomed = True
            self.send(f":irc.example 001 {self.nick} :Welcome {self.nick}!~bb@h")
            self.send(f":irc.example 376 {self.nick} :End of MOTD")
        if line.startswith("PRIVMSG NickServ :GHOST bazaarbot hunter2"):
            self.held = False
            self.send(f":NickServ!services@services NOTICE {self.nick} :bazaarbot has been ghosted.")


async def test_with_services_credentials_the_held_nick_is_ghosted_and_taken_at_once(tmp_path: Path) -> None:
    server = HeldNickServer()
    await server.start()
    settings = IrcNetwork(
        name="services",
        host="127.0.0.1",
        port=server.port,
        tls=False,
        nick="bazaarbot",
        alt_nicks=("bazaarbot_",),
        nickserv_password="hunter2",
        channels=("#j",),
        burst=20,
        lines_per_second=100.0,
    )
    bot = IrcTransport(settings)
    try:
        await bot.start(make_hub(tmp_path))
        ghosted = lambda: not server.held and server.nick == "bazaarbot" and bot.nick == "bazaarbot"  # noqa: E731
        await wait_until(ghosted, 10, lambda: f"the main nick: {server.received}")
        sent = server.received
        ghost = sent.index("PRIVMSG NickServ :GHOST bazaarbot hunter2")
        assert sent.index("NICK bazaarbot_") < ghost < len(sent) - 1 - sent[::-1].index("NICK bazaarbot")
    finally:
        await bot.stop()
        await server.close()
