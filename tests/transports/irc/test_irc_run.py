"""``bazaarbot run -c config.toml`` with an ``[[irc.networks]]`` entry plays on a real server."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.botrun import bot_running
from support.ircserver import IrcServer, RawClient, irc_network_config

pytestmark = pytest.mark.irc

CONFIG = """
[bot]
nick = "bazaarbot"
seed = 3

[web]
enabled = false

"""


async def test_run_command_connects_and_answers(tmp_path: Path, ircserver: IrcServer, closing) -> None:
    config = tmp_path / "config.toml"
    network = irc_network_config(ircserver.port, ["#bazaar"], 3, 4.0, extra="leave_grace = 30\n")
    config.write_text(CONFIG + network)
    alice = await RawClient("alice", ircserver.port).connect(("#bazaar",))
    closing.append(alice)
    async with bot_running(config, tmp_path / "bot.sqlite") as ended:
        await alice.expect(lambda line: line.startswith(":bazaarbot!") and " JOIN " in line, timeout=30)
        alice.say("#bazaar", "!games")
        line = await alice.expect("PRIVMSG #bazaar :Games:", timeout=30)
        assert "jaipur" in line
        alice.say("#bazaar", "!join")
        await alice.expect("PRIVMSG #bazaar :alice joins", timeout=30)
    assert ended.returncode == 0, ended.err.decode()
    assert b"connecting to local (127.0.0.1:" in ended.out
    await alice.expect(lambda line: line.startswith(":bazaarbot!") and " QUIT " in line, timeout=30)
