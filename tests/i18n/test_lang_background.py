"""What the bot says without a line to answer speaks the channel's language too.

The turn clock's reminders and an AI's moves run outside any person's line
(``Autoplay.tick``, ``Autoplay._think``); the fake wall clock drives them. What
a transport adds to a private line (IRC's "/more" line) is in its reader's.
"""

from __future__ import annotations

from support.botdriver import NETWORK
from support.clocked import person_to_act, say, settle, table_of

from bazaarbot.config import IrcNetwork
from bazaarbot.messages import Tell
from bazaarbot.transports.irc import IrcTransport


async def test_the_turn_clock_reminds_privately_in_the_players_language_and_never_in_the_channel(tmp_path):
    bot, recorder, clock, _names = await table_of("jaipur", 2, tmp_path, turn_seconds=120)
    bot.hub.languages.network_languages[NETWORK] = "de"
    await settle(bot)
    nick = bot.table.players[person_to_act(bot)].nick
    other = "p2" if nick == "p1" else "p1"
    await say(bot, nick, "/lang es")
    await say(bot, other, "/lang en")
    public = len(recorder.channel())
    clock.now += 61
    await bot.hub.tick()
    assert len(recorder.channel()) == public
    assert any(line.startswith("Te toca en #t: quedan 59") for line in recorder.private(nick))
    assert not any(line.startswith("Du bist am Zug") for line in recorder.private(nick))


async def test_an_ais_moves_are_said_in_the_channels_language(tmp_path):
    bot, recorder, _clock, _names = await table_of("jaipur", 2, tmp_path, turn_seconds=None)
    bot.hub.languages.network_languages[NETWORK] = "de"
    await say(bot, "p2", "/leave")  # an AI plays on for p2
    before = len(recorder.sent)
    for _turn in range(6):
        await settle(bot)
        mover = person_to_act(bot)
        if mover is None:
            break
        await say(bot, bot.table.players[mover].nick, "take camels")
        await say(bot, bot.table.players[mover].nick, "/moves all")
        offers = recorder.private(bot.table.players[mover].nick)[-1].split("\n")
        await say(bot, bot.table.players[mover].nick, offers[0])
    ai_lines = [m.text for m in recorder.sent[before:] if getattr(m, "channel", None) == "#t"]
    assert any("Markt:" in line for line in ai_lines), ai_lines
    assert not any("Market:" in line for line in ai_lines), ai_lines


async def test_the_irc_pages_more_line_is_in_the_readers_language(tmp_path):
    bot, _recorder, _clock, _names = await table_of("jaipur", 2, tmp_path)
    irc = IrcTransport(IrcNetwork(name=NETWORK, host="irc.example.org", channels=("#t",)))
    bot.hub.attach(irc)
    await say(bot, "p1", "/lang de")
    await bot.hub.send_all([Tell(NETWORK, "p1", "\n".join(f"line {i}" for i in range(20)), listing=True)])
    assert irc.queue.lines[-1].endswith(":(14 weitere Zeilen: !more)")
    irc.queue.clear()
    await say(bot, "p1", "/more")
    assert irc.queue.lines[-1].endswith(":(8 weitere Zeilen: !more)")
