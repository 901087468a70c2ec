"""On a real ngircd with the default pacing, one player's long answer never holds up another table.

These tests assert the order in which lines arrive, never a speed: another
table's answer arrives while the long answer is still being sent.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.ircserver import (
    IrcServer,
    gather_cast,
)

from bazaarbot.config import IrcNetwork
from bazaarbot.messages import Tell

pytestmark = pytest.mark.irc

JAIPUR, OTHER = "#jaipur", "#other"


async def setup(tmp_path: Path, server: IrcServer, closing: list):
    defaults = IrcNetwork(name="x", host="x")
    pacing = {"burst": defaults.burst, "lines_per_second": defaults.lines_per_second}
    players = {"alice": (JAIPUR,), "carol": (OTHER,)}
    cast = await gather_cast(tmp_path, server, closing, players, channels=(JAIPUR, OTHER), **pacing)
    await cast.bot.queue.drained()
    return cast.hub, cast.bot, cast["alice"], cast["carol"]


async def test_another_table_is_answered_while_a_long_private_answer_is_sent(
    tmp_path: Path, ircserver_flood: IrcServer, closing
) -> None:
    hub, bot, alice, carol = await setup(tmp_path, ircserver_flood, closing)
    long_answer = "\n".join(f"take {i} give camels" for i in range(100))
    await bot.send(Tell("testnet", "alice", long_answer))  # a game message: never paged, never dropped
    await alice.expect("PRIVMSG alice :take 0 give camels", 30)
    carol.say(OTHER, "!games")
    await carol.expect(lambda line: f"PRIVMSG {OTHER} :Games:" in line, 30)
    got = [line for line in alice.lines if " PRIVMSG alice :take " in line]
    assert len(got) < 100, "the other table waited for the whole long answer"
    assert len(bot.queue.lines) > 0
    await bot.stop(drain=0)
    closing.remove(bot)


async def test_a_listing_is_paged_and_waits_behind_the_channels(
    tmp_path: Path, ircserver_flood: IrcServer, closing
) -> None:
    hub, bot, alice, carol = await setup(tmp_path, ircserver_flood, closing)
    written: list[str] = []
    write = bot.queue.write
    bot.queue.write = lambda line: (write(line), written.append(line))[1]  # type: ignore[method-assign]
    commands = "\n".join(f"take {i} give 2 camels" for i in range(150))
    await bot.send(Tell("testnet", "alice", commands, listing=True, commands=True))
    carol.say(OTHER, "!games")
    await carol.expect(lambda line: f"PRIVMSG {OTHER} :Games:" in line, 30)
    await alice.expect("more lines: !more)", 30)
    answer = next(i for i, line in enumerate(written) if line.startswith(f"PRIVMSG {OTHER} :Games:"))
    marker = next(i for i, line in enumerate(written) if line.endswith("more lines: !more)"))
    assert answer < marker, "the channel answer went ahead of the rest of the listing's page"
    page = [line for line in alice.lines if " PRIVMSG alice :take " in line]
    assert len(page) == 6 and all(" | " in line for line in page)
    while bot.next_page("alice"):
        pass  # every page asked for at once: they queue one after another, in order
    await alice.expect(lambda line: line.endswith("take 149 give 2 camels"), 60)
    sent = [
        part
        for line in alice.lines
        if " PRIVMSG alice :take " in line
        for part in line.split(" :", 1)[1].split(" | ")
    ]
    assert sent == commands.split("\n")
