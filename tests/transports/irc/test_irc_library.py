"""The ``irc`` library is used for the connection only, and a real session logs no exception at all.

The transport parses and dispatches every server line itself; the library's
handler tables are never used (they once raised on every line, swallowed at
debug level). Any log record carrying an exception during a real ngircd
session, at any level, fails the test. PING is answered by the transport.
"""

# ruff: noqa: F401, F811  (pytest fixtures imported from ircserver are used as parameters)

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from support.ircserver import (
    IrcServer,
    RawClient,
    closing,
    ircserver,
    make_hub,
    network_settings,
    start_bot,
    wait_until,
)

from bazaarbot.config import IrcNetwork
from bazaarbot.messages import Tell
from bazaarbot.transports.irc import IrcTransport

pytestmark = pytest.mark.irc

CHAN = "#bazaar"


def exceptions(records: list[logging.LogRecord]) -> list[str]:
    return [f"{r.name} {r.levelname}: {r.getMessage()}" for r in records if r.exc_info]


async def test_a_real_session_logs_no_exception(
    tmp_path: Path, ircserver: IrcServer, closing, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    hub = make_hub(tmp_path)
    closing.append(hub)
    bot = await start_bot(hub, network_settings(ircserver), reconnect_min=1.5, reconnect_max=3)
    closing.append(bot)
    alice = await RawClient("alice", ircserver.port).connect((CHAN,))
    bob = await RawClient("bob", ircserver.port).connect((CHAN,))
    closing += [alice, bob]
    await wait_until(lambda: bot.roster.in_channel("bob", CHAN), what="bob in the roster")
    alice.say(CHAN, "!join")
    await alice.expect("alice")
    bob.say(CHAN, "!join")
    await bob.expect(lambda line: "bob" in line and f"PRIVMSG {CHAN}" in line)
    alice.say(CHAN, "!start")
    await alice.expect("PRIVMSG alice :Your secret")
    table = hub.tables[("testnet", CHAN)]
    alice.say(CHAN, "add 2")
    await wait_until(lambda: table.state.total == 2, what="alice's move")
    bob.say("bazaarbot", "!moves")
    alice.say(CHAN, "\x01ACTION waves\x01")
    alice.send("NICK alicia")
    await wait_until(lambda: bot.roster.in_channel("alicia", CHAN), what="the rename")
    alice.nick = "alicia"
    await bot.send(Tell("testnet", "alicia", "\n".join(f"take {i}" for i in range(30)), listing=True))
    await alice.expect("(24 more lines: !more)")
    assert bot.next_page("alicia")
    await alice.expect("(18 more lines: !more)")
    bob.send(f"PART {CHAN} :brb")
    bob.send(f"JOIN {CHAN}")
    bob.send(f"MODE {CHAN}")
    await bob.expect(" 366 ")
    ircserver.kill()
    await wait_until(lambda: not bot.registered.is_set(), what="the bot to notice the loss")
    ircserver.start()
    await wait_until(lambda: bot.registered.is_set() and bot.roster.channel(CHAN), 15, "the reconnect")
    await bot.stop()
    closing.remove(bot)
    answered = [r for r in caplog.records if r.getMessage().startswith("to server:")]
    assert len(answered) > 20, "the session really ran"
    assert exceptions(caplog.records) == []


class PingingServer:
    """A scripted server that sends a PING cookie before the welcome and another after it."""

    def __init__(self) -> None:
        self.received: list[str] = []
        self.writer: asyncio.StreamWriter | None = None
        self.server: asyncio.Server | None = None
        self.port = 0

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    def send(self, line: str) -> None:
        assert self.writer is not None
        self.writer.write(line.encode() + b"\r\n")

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.writer = writer
        while data := await reader.readline():
            line = data.decode().rstrip("\r\n")
            self.received.append(line)
            if line.startswith("USER "):
                self.send("PING :cookie-1234")
            elif line == "PONG :cookie-1234":
                self.send(":irc.example 001 bazaarbot :Welcome bazaarbot!~bb@host.example")
                self.send(":irc.example 376 bazaarbot :End of MOTD")
                self.send("PING :irc.example")
        writer.close()

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()


async def test_the_server_ping_is_answered_before_and_after_registration(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    server = PingingServer()
    await server.start()
    hub = make_hub(tmp_path)
    bot = IrcTransport(IrcNetwork(name="scripted", host="127.0.0.1", port=server.port, tls=False))
    try:
        await bot.start(hub)
        await wait_until(lambda: "PONG :irc.example" in server.received, 10, "the PONG after registration")
        assert bot.registered.is_set()
        assert server.received.index("USER bazaarbot 0 * :bazaarbot - chat board games (a bot)") < (
            server.received.index("PONG :cookie-1234")
        )
    finally:
        await bot.stop(drain=0)
        await hub.close()
        await server.close()
    assert exceptions(caplog.records) == []
