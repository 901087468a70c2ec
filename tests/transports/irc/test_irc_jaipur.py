"""Two people and the bot play a whole Jaipur match over a real IRC server."""

from __future__ import annotations

import random
import time

import pytest
from support.waits import wait_until

pytestmark = pytest.mark.irc

CHAN = "#jaipur"


async def test_full_jaipur_match_over_irc(irc_cast) -> None:
    from plugins.jaipur import GAME

    cast = await irc_cast(
        {"alice": (CHAN,), "bob": (CHAN,)}, games={"jaipur": GAME}, seed=11, channels=(CHAN,)
    )
    hub, clients = cast.hub, cast.clients
    alice, bob = clients["alice"], clients["bob"]
    await cast.seat_all(CHAN)
    await cast.start(CHAN, "Your hand")
    table = hub.tables[("testnet", CHAN)]
    rng = random.Random(4)
    moves = 0
    started = time.monotonic()
    while table.running:
        seat = GAME.to_act(table.state)[0]
        nick = table.players[seat].nick
        legal = GAME.legal_commands(table.state, seat)
        sells = [c for c in legal if c.startswith("sell")]
        command = rng.choice(sells if sells and rng.random() < 0.7 else legal)
        before = table.moves_made
        # alternate between saying the move in the channel and sending it privately
        clients[nick].say(CHAN if moves % 2 == 0 else "bazaarbot", command)
        await wait_until(
            lambda before=before: table.moves_made != before or not table.running,
            10,
            f"{nick}: {command} (moves {moves}; last lines {clients[nick].lines[-4:]})",
        )
        moves += 1
        assert moves < 600, alice.lines[-5:]
    elapsed = time.monotonic() - started
    await alice.expect(lambda line: f"PRIVMSG {CHAN}" in line and ("won" in line or "wins" in line), 10)
    print(f"Jaipur over IRC: {moves} moves in {elapsed:.1f} s")
    for client in (alice, bob):
        public = [
            line for line in client.lines if f" PRIVMSG {CHAN} :" in line and line.startswith(":bazaarbot")
        ]
        assert public
        assert not any("Your hand" in line for line in public), "a private view reached the channel"
        own = [line for line in client.lines if f" PRIVMSG {client.nick} :Your hand" in line]
        assert own, "each player got their hand privately"
        other = "bob" if client.nick == "alice" else "alice"
        assert not any(f" PRIVMSG {other} :" in line for line in client.lines)
