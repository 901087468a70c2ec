"""``bazaarbot run -c config.toml`` with an ``[[irc.networks]]`` entry plays on a real server."""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

import pytest
from support.ircserver import IrcServer, RawClient
from support.paths import REPO_ROOT

pytestmark = pytest.mark.irc

CONFIG = """
[bot]
nick = "bazaarbot"
seed = 3

[web]
enabled = false

[[irc.networks]]
name = "local"
host = "127.0.0.1"
port = {port}
tls = false
nick = "bazaarbot"
alt_nicks = ["bazaarbot_"]
channels = ["#bazaar"]
burst = 3
lines_per_second = 4.0
leave_grace = 30
"""


async def test_run_command_connects_and_answers(tmp_path: Path, ircserver: IrcServer, closing) -> None:
    config = tmp_path / "config.toml"
    config.write_text(CONFIG.format(port=ircserver.port))
    alice = await RawClient("alice", ircserver.port).connect(("#bazaar",))
    closing.append(alice)
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bazaarbot.cli",
        "run",
        "-c",
        str(config),
        "--db",
        str(tmp_path / "bot.sqlite"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=REPO_ROOT,
    )
    try:
        await alice.expect(lambda line: line.startswith(":bazaarbot!") and " JOIN " in line, timeout=30)
        alice.say("#bazaar", "!games")
        line = await alice.expect("PRIVMSG #bazaar :Games:", timeout=10)
        assert "jaipur" in line
        alice.say("#bazaar", "!join")
        await alice.expect("PRIVMSG #bazaar :alice joins", timeout=10)
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
        out, err = await asyncio.wait_for(process.communicate(), 15)
    assert process.returncode == 0, err.decode()
    assert b"connecting to local (127.0.0.1:" in out
    await alice.expect(lambda line: line.startswith(":bazaarbot!") and " QUIT " in line, timeout=10)
