"""A burst of board output under ngircd's default flood control: all of it arrives, nobody is thrown out.

ngircd (default settings) processes at most 3 commands per read and about 256
bytes per second from a client before it delays that client by a second; a
client over the limit is slowed to about 3 lines/s, never disconnected, but its
lines wait in the server. The bot's pacing (burst 3, 4 lines/s here) stays
under that. The test prints the time taken and the rate achieved; it asserts
completeness and order, not speed. ``BAZAARBOT_FLOOD_LINES`` sets the number of
lines: 50 by default, past the 20-line burst after which ngircd starts to delay a client, at the
bot's pace; 1000 is the full measurement (``BAZAARBOT_FLOOD_LINES=1000``).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from support.ircserver import IrcServer, RawClient, make_hub, network_settings, start_bot
from support.waits import wait_until

from bazaarbot.messages import Say

pytestmark = pytest.mark.irc

LINES = int(os.environ.get("BAZAARBOT_FLOOD_LINES", "50"))
BURST = int(os.environ.get("BAZAARBOT_FLOOD_BURST", "3"))
RATE = float(os.environ.get("BAZAARBOT_FLOOD_RATE", "4"))
TABLES = 10


def board(table: int, number: int) -> str:
    """A five-line board, numbered so order and completeness can be checked."""
    return "\n".join(
        f"[{table}:{number + row:04d}] Market: diamond, gold, silver, 2 camels. Deck: {40 - row} cards."
        for row in range(5)
    )


async def test_board_burst_is_delivered_complete(tmp_path: Path, ircserver_flood: IrcServer, closing) -> None:
    channels = tuple(f"#table{i}" for i in range(TABLES))
    listener = await RawClient("listener", ircserver_flood.port).connect(())
    closing.append(listener)
    hub = make_hub(tmp_path)
    closing.append(hub)
    settings = network_settings(ircserver_flood, channels=channels, burst=BURST, lines_per_second=RATE)
    bot = await start_bot(hub, settings)
    closing.append(bot)
    for channel in channels:
        listener.send(f"JOIN {channel}")
    await wait_until(lambda: all(bot.roster.in_channel("listener", c) for c in channels), 60, "the listener")
    await bot.queue.drained()
    per_table = LINES // TABLES // 5 * 5
    started = time.monotonic()
    for number in range(0, per_table, 5):
        for table in range(TABLES):
            await bot.send(Say("testnet", channels[table], board(table, number)))
    expected = per_table * TABLES

    def received() -> list[str]:
        return [
            line for line in listener.lines if line.startswith(":bazaarbot!") and " PRIVMSG #table" in line
        ]

    await wait_until(lambda: len(received()) >= expected, expected / 2 + 30, "every line")
    elapsed = time.monotonic() - started
    print(
        f"\n{expected} lines (burst {BURST}, {RATE}/s) in {elapsed:.1f} s: {expected / elapsed:.2f} lines/s"
    )
    for table, channel in enumerate(channels):
        numbers = [
            line.split(f"[{table}:", 1)[1][:4] for line in received() if f" PRIVMSG {channel} :" in line
        ]
        assert numbers == [f"{n:04d}" for n in range(per_table)]
    assert bot.connections == 1 and bot.registered.is_set(), "the bot was never thrown out"
    listener.say(channels[0], "!games")
    await listener.expect("PRIVMSG #table0 :Games:", 30)
