"""Back after a lost connection: many channels rejoined in a line or two, WHO asked one channel at a time."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.ircserver import IrcServer, RawClient, make_hub, network_settings, wait_until

from bazaarbot.transports.irc import IrcTransport
from bazaarbot.transports.irc.lines import join_lines

pytestmark = pytest.mark.irc

CHANNELS = tuple(f"#room{n}" for n in range(11))


def test_many_channels_join_in_as_few_lines_as_fit() -> None:
    assert join_lines(["#a", "#b"]) == ["JOIN #a,#b"]
    many = [f"#channel-with-a-long-name-{n:03d}" for n in range(40)]
    lines = join_lines(many)
    assert len(lines) > 1 and all(len(line) <= 5 + 400 for line in lines)
    assert [c for line in lines for c in line[5:].split(",")] == many


async def test_a_rejoin_of_eleven_channels_is_one_join_and_one_who_at_a_time(
    tmp_path: Path, ircserver: IrcServer, closing
) -> None:
    hub = make_hub(tmp_path)
    closing.append(hub)
    bot = IrcTransport(network_settings(ircserver, channels=CHANNELS), reconnect_min=0.2, reconnect_max=1.0)
    traffic: list[tuple[str, str]] = []  # ("out", line) and ("in", line), in the order they happened
    write, read = bot.queue.write, bot._on_line
    bot.queue.write = lambda line: (traffic.append(("out", line)), write(line))[1]
    bot._on_line = lambda raw: (traffic.append(("in", raw)), read(raw))[1]
    hub.attach(bot)
    await bot.start(hub)
    closing.append(bot)
    joined = lambda: bot.registered.is_set() and all(bot.roster.channel(c) for c in CHANNELS)  # noqa: E731
    await wait_until(joined, 15, "the bot in its eleven channels")
    alice = await RawClient("alice", ircserver.port).connect((CHANNELS[3],))
    closing.append(alice)
    connection = bot._connection
    assert connection is not None
    mark = len(traffic)
    connection.disconnect("the line drops")
    await wait_until(lambda: bot.connections == 2 and joined(), 30, "the rejoin")
    await wait_until(lambda: not bot._who_wanted and bot._who_asked is None, 15, "every WHO answered")
    after = traffic[mark:]
    joins = [line for way, line in after if way == "out" and line.startswith("JOIN ")]
    assert joins == [f"JOIN {','.join(CHANNELS)}"], joins
    asked: str | None = None
    whos = 0
    for way, line in after:
        if way == "out" and line.startswith("WHO "):
            assert asked is None, f"WHO {line} asked while {asked}'s answer was still coming"
            asked, whos = line.split()[1].lower(), whos + 1
        elif (
            way == "in" and f" 315 {bot.nick} " in line and asked is not None and f" {asked} " in line.lower()
        ):
            asked = None
    assert whos == len(CHANNELS)
    alice.say(CHANNELS[3], "!status")
    await alice.expect(lambda line: line.startswith(":bazaarbot!") and f"PRIVMSG {CHANNELS[3]} " in line)
