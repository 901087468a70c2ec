"""``/notify`` on a real ngircd: a table opening calls the listed people in the channel in one line."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.irc

CHAN = "#bazaar"


async def test_a_table_opening_names_the_listed_people_in_the_channel_in_one_line(irc_cast) -> None:
    cast = await irc_cast({"alice": (CHAN,), "bob": (CHAN,), "carol": (CHAN,), "dave": (CHAN,), "erin": ()})
    for nick in ("bob", "carol", "erin"):
        cast[nick].send("PRIVMSG bazaarbot :!notify on")
        await cast[nick].expect(f"PRIVMSG {nick} :You are called when somebody opens a table")
    cast["alice"].say(CHAN, "!new count")
    call = await cast["dave"].expect(lambda line: "opened a table" in line)
    assert call.endswith(
        f"PRIVMSG {CHAN} :bob, carol: alice opened a table of Count here; !join to play."
        " (!notify off: no more calls)"
    ), "bob and carol are named (their clients highlight them); erin is not in the channel"
    cast["alice"].say(CHAN, "!leave")
    await cast["dave"].expect("alice left the table")
    cast["dave"].say(CHAN, "!new count")
    await cast["dave"].expect("dave joins")
    cast["dave"].say(CHAN, "!status")
    await cast["dave"].expect(lambda line: "Seated: 1 dave" in line and "joins" not in line)
    # bob's own question is answered after every line the bot sent before it, so once bob has the
    # answer, a second call would be among bob's lines too
    cast["bob"].send("PRIVMSG bazaarbot :!notify")
    await cast["bob"].expect("PRIVMSG bob :")
    lines = [line for line in cast["bob"].lines if "opened a table" in line]
    assert len(lines) == 1, "one call per room in the limit's time"
