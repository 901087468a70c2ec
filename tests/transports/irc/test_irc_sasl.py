"""CAP, SASL and account identity through the real transport, against a scripted IRCv3 server.

ngircd has no SASL or account tags, so a tiny asyncio server plays an IRCv3
network: it offers the capabilities, checks the PLAIN credentials and then sends
account-tagged lines. The order on the wire is asserted: CAP LS before NICK/USER,
AUTHENTICATE after the ACK, CAP END last; NickServ only when SASL failed.
"""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from support.ircserver import ScriptedIrcServer, make_hub
from support.waits import wait_until

from bazaarbot.config import IrcNetwork
from bazaarbot.transports.irc import IrcTransport

CAPS = "sasl=PLAIN,EXTERNAL account-notify extended-join account-tag multi-prefix message-tags away-notify"


class ScriptedServer(ScriptedIrcServer):
    def __init__(self, sasl_ok: bool) -> None:
        super().__init__()
        self.sasl_ok = sasl_ok

    def answer(self, line: str) -> None:
        if line == "CAP LS 302":
            self.send(f":irc.example CAP * LS :{CAPS}")
        elif line.startswith("CAP REQ :"):
            self.send(f":irc.example CAP * ACK :{line[9:]}")
        elif line == "AUTHENTICATE PLAIN":
            self.send("AUTHENTICATE +")
        elif line.startswith("AUTHENTICATE "):
            expected = base64.b64encode(b"botacct\0botacct\0hunter2").decode()
            if self.sasl_ok and line == f"AUTHENTICATE {expected}":
                self.send(":irc.example 900 bazaarbot bazaarbot!~bb@cloak botacct :You are now logged in")
                self.send(":irc.example 903 bazaarbot :SASL authentication successful")
            else:
                self.send(":irc.example 904 bazaarbot :SASL authentication failed")
        elif line == "CAP END":
            self.send(":irc.example 001 bazaarbot :Welcome to the network bazaarbot!~bb@cloak.example")
            self.send(":irc.example 005 bazaarbot WHOX BOT=B CASEMAPPING=rfc1459 :are supported")
            self.send(":irc.example 376 bazaarbot :End of MOTD")
        elif line.startswith("JOIN "):
            channel = line[5:]
            self.send(f":bazaarbot!~bb@cloak.example JOIN {channel} botacct :bazaarbot")
            self.send(f":irc.example 353 bazaarbot = {channel} :bazaarbot @alice")
            self.send(f":irc.example 366 bazaarbot {channel} :End of NAMES")


@pytest.mark.parametrize("sasl_ok", [True, False])
async def test_cap_sasl_and_accounts(tmp_path: Path, sasl_ok: bool) -> None:
    server = ScriptedServer(sasl_ok)
    await server.start()
    hub = make_hub(tmp_path)
    settings = IrcNetwork(
        name="ircv3",
        host="127.0.0.1",
        port=server.port,
        tls=False,
        nick="bazaarbot",
        sasl_account="botacct",
        sasl_password="hunter2",
        nickserv_password="hunter2",
        channels=("#bazaar",),
        burst=20,
        lines_per_second=100.0,
    )
    bot = IrcTransport(settings)
    try:
        await bot.start(hub)
        await wait_until(lambda: bot.roster.channel("#bazaar") is not None, 10, "the join")
        sent = server.received
        assert sent[0] == "CAP LS 302"
        assert sent.index("CAP LS 302") < sent.index("NICK bazaarbot")
        requested = next(line for line in sent if line.startswith("CAP REQ"))
        assert requested == "CAP REQ :sasl account-notify extended-join account-tag multi-prefix message-tags"
        assert sent.index("AUTHENTICATE PLAIN") < sent.index("CAP END")
        assert bot.caps.sasl == ("ok" if sasl_ok else "failed")
        identify = [line for line in sent if line.startswith("PRIVMSG NickServ")]
        assert identify == ([] if sasl_ok else ["PRIVMSG NickServ :IDENTIFY botacct hunter2"])
        assert (bot.user, bot.host) == ("~bb", "cloak.example")  # learned from the welcome line
        await wait_until(lambda: "MODE bazaarbot +B" in server.received, 5, "the bot mode")
        # accounts identify players: extended-join, account tags, account-notify
        server.send(":carol!~c@h JOIN #bazaar carolacct :Carol")
        server.send("@account=carolacct :carol!~c@h PRIVMSG #bazaar :!join")
        await wait_until(lambda: ("ircv3", "#bazaar") in hub.tables, 5, "the table")
        table = hub.tables[("ircv3", "#bazaar")]
        await wait_until(lambda: table.seat_of("a:carolacct") is not None, 5, "carol's seat by account")
        server.send(":carol!~c@h NICK carol_away")
        await wait_until(lambda: table.seat_of("a:carolacct").nick == "carol_away", 5, "the nick to follow")
        server.send(":dave!~d@h JOIN #bazaar * :Dave")
        server.send(":dave!~d@h PRIVMSG #bazaar :!join")
        await wait_until(lambda: table.seat_of("m:dave!~d@h") is not None, 5, "dave's seat by nick and host")
        server.send(":dave!~d@h ACCOUNT daveacct")  # logs in: the seat moves to the account
        await wait_until(lambda: table.seat_of("a:daveacct") is not None, 5, "dave's seat by account")
        assert bot.roster.user("alice", "#bazaar").is_op
    finally:
        await bot.stop(drain=0)
        await hub.close()
        await server.close()
