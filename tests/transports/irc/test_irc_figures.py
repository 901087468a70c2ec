"""Figures for IRC output, measured on a real ngircd with the default pacing (opt-in: a few minutes).

Run with ``BAZAARBOT_IRC_FIGURES=1 pytest -s tests/test_irc_figures.py``. Two raw
clients play a whole Jaipur match in one channel while two others play Count in
another channel on the same bot connection; before every third Jaipur move a
player asks for ``!moves all`` (sent as a paged, packed listing) and reads two
more pages, and each time a move is typed at the other table. The test prints
lines sent per move, seconds from a typed move to its first answer line, and
the longest wait of the other table's answer while the listing was being sent.
It asserts that nothing was lost and the bot was never disconnected, not speed.
"""

from __future__ import annotations

import dataclasses
import os
import random
import statistics
import time
from pathlib import Path

import pytest
from support.ircserver import (
    IrcServer,
    RawClient,
    gather_cast,
    wait_until,
)

from bazaarbot.config import IrcNetwork
from bazaarbot.messages import Outgoing, Tell

pytestmark = [
    pytest.mark.irc,
    pytest.mark.slow,
    pytest.mark.skipif(not os.environ.get("BAZAARBOT_IRC_FIGURES"), reason="set BAZAARBOT_IRC_FIGURES=1"),
]

JAIPUR, OTHER = "#jaipur", "#other"


def from_bot(channel: str):
    return lambda line: line.startswith(":bazaarbot!") and f" PRIVMSG {channel} :" in line


async def answered(client: RawClient, say: str, text: str, channel: str) -> float:
    """Seconds from typing ``text`` to the first line the bot says in ``channel``."""
    client.since()
    started = time.monotonic()
    client.say(say, text)
    await client.expect(from_bot(channel), 60)
    return time.monotonic() - started


async def test_irc_figures_for_a_jaipur_match_beside_another_table(
    tmp_path: Path, ircserver_flood: IrcServer, closing
) -> None:
    from support.countgame import GAME as COUNT

    from plugins.jaipur import GAME

    defaults = IrcNetwork(name="x", host="x")
    players = {"alice": (JAIPUR,), "bob": (JAIPUR,), "carol": (OTHER,), "dave": (OTHER,)}
    pacing = {"burst": defaults.burst, "lines_per_second": defaults.lines_per_second}
    games = {"jaipur": GAME, "count": COUNT}
    cast = await gather_cast(
        tmp_path, ircserver_flood, closing, players, games=games, seed=11, channels=(JAIPUR, OTHER), **pacing
    )
    hub, bot, clients = cast.hub, cast.bot, cast.clients
    alice, bob, carol, dave = (clients[n] for n in ("alice", "bob", "carol", "dave"))

    # the listing mark that the /moves all command gives its answer, applied here to measure paging
    asked: set[str] = set()
    real_send = bot.send

    async def send(message: Outgoing) -> None:
        if isinstance(message, Tell) and message.nick in asked and "\n" in message.text:
            asked.discard(message.nick)
            listing_sizes.append(len(message.text.split("\n")))
            message = dataclasses.replace(message, listing=True, commands=True)
        await real_send(message)

    bot.send = send  # type: ignore[method-assign]
    listing_sizes: list[int] = []

    for client, text, channel in (
        (alice, "!new jaipur", JAIPUR),
        (bob, "!join", JAIPUR),
        (alice, "!start", JAIPUR),
        (carol, "!new count target=1000", OTHER),
        (dave, "!join", OTHER),
        (carol, "!start", OTHER),
    ):
        await answered(client, channel, text, channel)
        await hub.idle()
        await bot.queue.drained()
    jaipur = hub.tables[("testnet", JAIPUR)]
    count = hub.tables[("testnet", OTHER)]
    rng = random.Random(4)
    per_move: list[int] = []
    to_answer: list[float] = []
    other_waits: list[float] = []
    moves = 0
    started = time.monotonic()
    while jaipur.running:
        seat = GAME.to_act(jaipur.state)[0]
        nick = jaipur.players[seat].nick
        client = clients[nick]
        if moves % 3 == 0:
            asked.add(nick)
            client.since()
            client.say("bazaarbot", "!moves all")
            await client.expect(f"PRIVMSG {nick} :", 60)
            asked.discard(nick)
            for page in range(3):
                if page:
                    bot.next_page(nick)
                count_seat = COUNT.to_act(count.state)[0]
                other = clients[count.players[count_seat].nick]
                other_waits.append(await answered(other, OTHER, "add 1", OTHER))
            await hub.idle()
            await bot.queue.drained()
        legal = GAME.legal_commands(jaipur.state, seat)
        sells = [c for c in legal if c.startswith("sell")]
        command = rng.choice(sells if sells and rng.random() < 0.7 else legal)
        before, sent = jaipur.moves_made, bot.queue.sent
        to_answer.append(await answered(client, JAIPUR, command, JAIPUR))
        await wait_until(lambda before=before: jaipur.moves_made != before or not jaipur.running, 60)
        await hub.idle()
        await bot.queue.drained()
        per_move.append(bot.queue.sent - sent)
        moves += 1
        assert moves < 600
    elapsed = time.monotonic() - started
    await alice.expect(lambda line: f"PRIVMSG {JAIPUR} :Game over:" in line, 30)
    assert bot.connections == 1 and bot.registered.is_set(), "never disconnected"
    assert len(to_answer) == moves and len(other_waits) == 3 * ((moves + 2) // 3)
    print(
        f"\nJaipur over IRC (burst {defaults.burst}, {defaults.lines_per_second}/s,"
        f" page {defaults.page_lines}): {moves} moves in {elapsed:.0f} s"
        f"\n  lines sent per move: median {statistics.median(per_move):g}, max {max(per_move)}"
        f"\n  typed move to its answer: median {statistics.median(to_answer):.2f} s,"
        f" max {max(to_answer):.2f} s"
        f"\n  other table's move answered while !moves all was paged: median"
        f" {statistics.median(other_waits):.2f} s, max {max(other_waits):.2f} s"
        f"\n  !moves all: {len(listing_sizes)} listings of median {statistics.median(listing_sizes):g},"
        f" max {max(listing_sizes)} commands"
    )
