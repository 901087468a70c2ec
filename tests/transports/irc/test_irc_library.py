"""The ``irc`` library is used for the connection only, and a real session logs no exception at all.

The transport parses and dispatches every server line itself; the library's
handler tables are never used (they once raised on every line, swallowed at
debug level). Any log record carrying an exception during a real ngircd
session, at any level, fails the test. PING is answered by the transport.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from support.ircserver import (
    IrcServer,
    ScriptedIrcServer,
    make_hub,
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
    ircserver: IrcServer, irc_cast, closing, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    cast = await irc_cast({"alice": (CHAN,), "bob": (CHAN,)}, bot={"reconnect_min": 1.5, "reconnect_max": 3})
    hub, bot, alice, bob = cast.hub, cast.bot, cast["alice"], cast["bob"]
    await cast.seat_all(CHAN)
    await cast.start(CHAN)
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


class PingingServer(ScriptedIrcServer):
    """A scripted server that sends a PING cookie before the welcome and another after it."""

    def answer(self, line: str) -> None:
        if line.startswith("USER "):
            self.send("PING :cookie-1234")
        elif line == "PONG :cookie-1234":
            self.send(":irc.example 001 bazaarbot :Welcome bazaarbot!~bb@host.example")
            self.send(":irc.example 376 bazaarbot :End of MOTD")
            self.send("PING :irc.example")


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
