"""The hub's asynchronous side: sending through transports and the grace period after a part or quit."""

from __future__ import annotations

from support.botdriver import NETWORK, Driver, Recorder
from support.waits import wait_until

from bazaarbot.messages import Incoming, User


async def seated_game(tmp_path) -> tuple[Driver, Recorder]:
    bot = Driver(tmp_path / "b.sqlite")
    recorder = Recorder()
    await recorder.start(bot.hub)
    for nick, text in [("alice", "/join"), ("bob", "/join"), ("alice", "/start")]:
        await bot.hub.handle(Incoming(NETWORK, "#t", User(nick), text))
    return bot, recorder


async def test_handle_sends_every_answer_through_the_transport(tmp_path):
    bot, recorder = await seated_game(tmp_path)
    texts = [m.text for m in recorder.sent]
    assert any(t.startswith("Count starts") for t in texts)
    private = [m.text for m in recorder.sent if getattr(m, "nick", None) in ("alice", "bob")]
    assert sum(1 for t in private if t.startswith("Your secret")) == 2
    assert sum(1 for t in private if t.startswith("You sit in seat")) == 2


async def test_quit_hands_the_seat_to_an_ai_after_the_grace_period(tmp_path):
    bot, recorder = await seated_game(tmp_path)
    await bot.hub.user_left(NETWORK, None, User("bob"), grace=0.05)
    assert bot.table.players[1].ai is None  # not yet
    await wait_until(lambda: not bot.hub.leaves.pending, what="bob's grace period to run out")
    await bot.hub.idle()
    assert bot.table.running and [s.nick for s in bot.table.seats] == ["alice"]
    assert bot.table.players[1].ai == "medium"
    assert any("bob is gone" in m.text for m in recorder.sent)
    assert any("An AI (medium) now plays seat 2 for bob" in m.text for m in recorder.sent)


async def test_coming_back_within_the_grace_period_keeps_the_seat(tmp_path):
    bot, recorder = await seated_game(tmp_path)
    await bot.hub.user_left(NETWORK, "#t", User("bob"), grace=0.1)
    grace = next(iter(bot.hub.leaves.pending.values()))
    await bot.hub.user_returned(NETWORK, User("bob"))
    assert grace.cancelled()  # a cancelled timer never fires
    await bot.hub.idle()
    assert bot.table.running and [s.nick for s in bot.table.seats] == ["alice", "bob"]


async def test_part_of_another_channel_does_not_leave_this_table(tmp_path):
    bot, recorder = await seated_game(tmp_path)
    await bot.hub.user_left(NETWORK, "#elsewhere", User("bob"), grace=0)
    assert bot.table.running


async def test_nick_change_cancels_nothing_and_keeps_the_seat(tmp_path):
    bot, recorder = await seated_game(tmp_path)
    await bot.hub.user_renamed(NETWORK, User("bob"), User("robert"))
    await bot.hub.handle(Incoming(NETWORK, "#t", User("alice"), "add 1"))
    await bot.hub.handle(Incoming(NETWORK, "#t", User("robert"), "add 1"))
    assert bot.table.state.total == 2
    bot = bot.restart()
    assert [s.nick for s in bot.table.players] == ["alice", "robert"]


async def test_notice_preference_marks_private_lines(tmp_path):
    bot, recorder = await seated_game(tmp_path)
    await bot.hub.handle(Incoming(NETWORK, "#t", User("bob"), "/notice on"))
    recorder.sent.clear()
    await bot.hub.handle(Incoming(NETWORK, "#t", User("bob"), "/hand"))
    assert recorder.sent[0].notice
