"""Games that outlive a busy evening: pause instead of abandon, correspondence play, fair results.

Time is a fake wall clock moved by the tests; the AI is the real one with
small budgets, thinking in a thread.
"""

from __future__ import annotations

import random

from support.botdriver import NETWORK, Driver, Recorder
from support.clocked import CHANNEL, clocked_driver, recorded, table_of
from support.clocked import settle as settle_clocked

from bazaarbot.messages import Incoming, Tell, User

HOUR = 3600.0
DAY = 86400.0


def driver(tmp_path, game: str, turn_seconds: int | None = 300, abandon_after: float = 7 * DAY):
    return clocked_driver(tmp_path / "p.sqlite", game, 5, turn_seconds, abandon_after=abandon_after)


async def say(bot: Driver, nick: str, text: str, channel: str | None = CHANNEL) -> None:
    await bot.hub.handle(Incoming(NETWORK, channel, User(nick), text))
    await bot.hub.idle()


async def started(bot: Driver, names: list[str], options: str = "") -> Recorder:
    recorder = await recorded(bot)
    if options:
        await say(bot, names[0], f"/new {options}")
    for name in names:
        await say(bot, name, "/join")
    await say(bot, names[0], "/start")
    return recorder


async def settle(bot: Driver) -> None:
    """Let the AI seats move until a person (or nobody, when paused) is to act."""
    await settle_clocked(bot, until=lambda table: not table.ai_decisions())


def to_act(bot: Driver) -> int:
    return bot.table.plugin.to_act(bot.table.state)[0]


async def play_on(bot: Driver, rng: random.Random, limit: int = 3000) -> None:
    """The people seated play random legal moves (the AI its seats) until the game is over."""
    for _ in range(limit):
        await settle(bot)
        table = bot.table
        if not table.running:
            return
        seat = to_act(bot)
        await say(bot, table.players[seat].nick, rng.choice(table.plugin.legal_commands(table.state, seat)))
    raise AssertionError("the game did not end")


async def test_two_silent_yspahan_players_pause_the_game_which_either_resumes_and_finishes(tmp_path):
    bot, clock = driver(tmp_path, "yspahan")
    recorder = await started(bot, ["p1", "p2"])
    for _ in range(120):  # both go silent for two hours
        clock.now += 60
        await settle(bot)
    table = bot.table
    channel = recorder.channel()
    assert table.running and table.idle_since is not None
    assert not any("abandoned" in line for line in channel)
    assert sum("the game is paused" in line for line in channel) == 1
    assert all(seat.away for seat in table.players)
    frozen = table.moves_made
    clock.now += HOUR
    await settle(bot)
    assert table.moves_made == frozen  # paused: no AI moves, the clock stands still
    await say(bot, "carol", "/status")
    assert recorder.sent[-1].text.endswith("Paused until a player comes back.")
    assert table.idle_since is not None  # a spectator's words resume nothing
    await say(bot, "p2", "sorry, dinner")
    assert table.idle_since is None and table.players[1].has_person
    assert any("the game of Yspahan goes on" in line for line in recorder.channel())
    await play_on(bot, random.Random(3))
    over = [line for line in recorder.channel() if line.startswith("Game over:")]
    assert len(over) == 1 and "p1 (AI)" in over[0] and "p2 (AI)" not in over[0]


async def test_the_first_timeout_of_a_player_who_has_not_moved_only_reminds_them(tmp_path):
    bot, clock = driver(tmp_path, "jaipur", turn_seconds=300)
    recorder = await started(bot, ["p1", "p2"])
    await settle(bot)
    nick = bot.table.players[to_act(bot)].nick
    moves = bot.table.moves_made
    clock.now += 301
    await settle(bot)
    assert bot.table.moves_made == moves
    assert any(line.startswith("Your move at #t: /moves") for line in recorder.private(nick))
    assert not any("your move" in line.lower() for line in recorder.channel()), "a reminder is private"
    assert not any("Time is up" in line for line in recorder.channel())
    clock.now += 301
    await settle(bot)
    assert any(f"Time is up for {nick}" in line for line in recorder.channel())
    assert bot.table.moves_made > moves


async def test_clock_without_an_argument_says_the_setting_to_anyone_and_takes_days(tmp_path):
    bot, clock = driver(tmp_path, "jaipur", turn_seconds=300)
    recorder = await started(bot, ["p1", "p2"])
    await say(bot, "carol", "/clock")
    assert recorder.private("carol")[-1].startswith("The turn clock here is 5m per decision.")
    await say(bot, "p1", "/clock 1d")
    assert (
        bot.table.clock_seconds() == DAY and "Turn clock: 1d per decision (set by p1)." in recorder.channel()
    )
    await say(bot, "p1", "/clock 15d")
    assert "from 5s to 14 days" in recorder.private("p1")[-1] and bot.table.clock_seconds() == DAY
    await say(bot, "p2", "/clock 5m")
    assert "Only the host" in recorder.private("p2")[-1] and bot.table.clock_seconds() == DAY


async def test_a_day_clock_jaipur_match_survives_players_disconnecting_for_hours(tmp_path):
    bot, clock = driver(tmp_path, "jaipur", turn_seconds=None)
    recorder = await started(bot, ["p1", "p2"])
    await say(bot, "p1", "/clock 1d")
    rng = random.Random(8)
    for name in ("p1", "p2"):
        await bot.hub.user_left(NETWORK, None, User(name), grace=0)
    returns = 0
    for _ in range(400):
        table = bot.table
        if not table.running:
            break
        seat = to_act(bot)
        nick = table.players[seat].nick
        clock.now += 3 * HOUR  # hours pass with nobody there
        await settle(bot)
        recorder.sent.clear()
        await bot.hub.user_returned(NETWORK, User(nick))
        await bot.hub.idle()
        told = [m.text for m in recorder.sent if isinstance(m, Tell) and m.nick == nick]
        assert any(line.startswith(f"Welcome back! Your move at {CHANNEL} (Jaipur, ") for line in told), told
        returns += 1
        await say(bot, nick, rng.choice(table.plugin.legal_commands(table.state, seat)))
        await bot.hub.user_left(NETWORK, None, User(nick), grace=0)
        await bot.hub.idle()
    channel = recorder.channel()
    assert not bot.table.running and returns > 10
    assert any(line.startswith("Game over:") and "(AI)" not in line for line in channel)
    everything = [m.text for m in recorder.sent]
    assert not any("now plays seat" in line or "Time is up" in line for line in everything)


async def test_reminders_are_limited_per_person_across_tables(tmp_path):
    bot, clock = driver(tmp_path, "jaipur", turn_seconds=None)
    recorder = await recorded(bot)
    for channel in ("#a", "#b"):
        for name in ("ann", "bob"):
            await say(bot, name, "/join", channel)
        await say(bot, "ann", "/clock 1d", channel)
        await say(bot, "ann", "/start", channel)
    movers = {t.players[to_act_at(t)].nick for t in bot.hub.tables.values()}
    assert movers  # somebody is to move at each table

    def welcomes() -> dict[str, list[str]]:
        return {n: [t for t in recorder.private(n) if t.startswith("Welcome back!")] for n in ("ann", "bob")}

    for _ in range(3):  # joins in quick succession: one reminder per person, naming all their tables
        await bot.hub.user_returned(NETWORK, User("ann"))
        await bot.hub.user_returned(NETWORK, User("bob"))
    await bot.hub.idle()
    for nick, lines in welcomes().items():
        tables = [t.channel for t in bot.hub.tables.values() if t.players[to_act_at(t)].nick == nick]
        assert len(lines) == (1 if tables else 0)
        assert all(channel in lines[0] for channel in tables)
    clock.now += 1801  # the limit is over: one more each
    await bot.hub.user_returned(NETWORK, User("ann"))
    await bot.hub.user_returned(NETWORK, User("bob"))
    await bot.hub.idle()
    assert {n: len(lines) for n, lines in welcomes().items()} == {
        n: 2 if n in movers else 0 for n in ("ann", "bob")
    }


def to_act_at(table) -> int:
    return table.plugin.to_act(table.state)[0]


async def test_a_paused_game_is_abandoned_after_abandon_after_with_a_warning_a_day_before(tmp_path):
    bot, clock = driver(tmp_path, "jaipur", turn_seconds=None)
    recorder = await started(bot, ["p1", "p2"])
    await say(bot, "p1", "/leave")
    await say(bot, "p2", "/leave")
    await settle(bot)
    assert bot.table.running and bot.table.idle_since is not None
    clock.now += 6 * DAY - 60
    await settle(bot)
    assert not any("abandoned" in line for line in recorder.channel())
    again = bot.restart()  # a restart keeps the game paused
    await again.hub.tick()
    assert again.table.idle_since is not None and again.table.running
    recorder = Recorder()
    await recorder.start(again.hub)
    clock.now += 120
    await again.hub.tick()
    warning = "p1, p2: the paused game of Jaipur is abandoned in 1d unless a player comes back."
    assert recorder.channel() == [warning]
    assert again.table.running
    clock.now += DAY
    await again.hub.tick()
    assert not again.table.running
    assert any(
        line.startswith("The game of Jaipur is abandoned (paused for 7d") for line in recorder.channel()
    )


async def test_a_seat_that_ended_under_an_ai_is_marked_and_never_credited_with_a_win(tmp_path):
    bot, clock = driver(tmp_path, "jaipur", turn_seconds=None)
    recorder = await started(bot, ["p1", "p2"])
    await say(bot, "p2", "/leave")
    await play_on(bot, random.Random(4))
    over = next(line for line in recorder.channel() if line.startswith("Game over:"))
    assert "p2 (AI)" in over
    rows = list(bot.hub.store.db.query("SELECT nick, rank, winner FROM results ORDER BY seat"))
    assert rows[1] == {"nick": "p2 (AI)", "rank": 0, "winner": 0}
    recorder.sent.clear()
    await say(bot, "p2", "/history p2")
    history = " ".join(m.text for m in recorder.sent)
    assert "p2 (AI)" in history and "p2 won" not in history, history
    assert " - p1 won" in history or " - no win credited" in history, history  # (then its replay link)
    recorder.sent.clear()
    await say(bot, "p2", "/stats p2")
    stats = " ".join(m.text for m in recorder.sent)
    assert stats == "p2 has no rated games yet.", stats
    changes = list(bot.hub.store.db.query("SELECT seat, rated FROM rating_changes ORDER BY seat"))
    assert not any(c["rated"] for c in changes)  # one person played to the end: nobody to rate against


async def test_bazaar_leavers_skip_a_skipped_seat_is_marked_left_and_not_credited(tmp_path):
    bot, clock = driver(tmp_path, "bazaar", turn_seconds=None)
    recorder = await started(bot, ["p1", "p2", "p3"], "bazaar leavers=skip")
    await say(bot, "p1", "/leave")
    assert bot.table.players[0].label == "p1 (left)"
    await play_on(bot, random.Random(6))
    over = next(line for line in recorder.channel() if line.startswith("Game over:"))
    assert "p1 (left)" in over
    rows = list(bot.hub.store.db.query("SELECT nick, rank, winner FROM results ORDER BY seat"))
    assert rows[0] == {"nick": "p1 (left)", "rank": 0, "winner": 0}
    rated = {c["seat"]: c["rated"] for c in bot.hub.store.db.query("SELECT seat, rated FROM rating_changes")}
    assert rated == {0: 0, 1: 1, 2: 1}  # the same rule as leavers=ai: only seats played to the end
    recorder.sent.clear()
    await say(bot, "p2", "/stats p1")
    assert [m.text for m in recorder.sent] == ["p1 has no rated games yet."]


async def test_bazaar_leavers_skip_the_last_person_leaving_pauses_the_game(tmp_path):
    bot, clock = driver(tmp_path, "bazaar", turn_seconds=None)
    recorder = await recorded(bot)
    await say(bot, "p1", "/new bazaar leavers=skip")
    await say(bot, "p1", "/addbot easy")
    await say(bot, "p1", "/addbot easy")
    await say(bot, "p1", "/start")
    await settle(bot)
    await say(bot, "p1", "/leave")
    await settle(bot)
    table = bot.table
    assert table.running and table.idle_since is not None
    assert table.players[0].label == "p1 (AI)" and not table.state.left[0]
    assert any("the game is paused" in line for line in recorder.channel())
    moves = table.moves_made
    clock.now += DAY
    await settle(bot)
    assert table.moves_made == moves and table.running
    await say(bot, "p1", "/join")
    assert table.idle_since is None and table.players[0].has_person


async def test_a_correspondence_game_paused_by_disconnects_stays_paused_over_a_restart(tmp_path):
    bot, clock = driver(tmp_path, "jaipur", turn_seconds=None)
    await started(bot, ["p1", "p2"])
    await say(bot, "p1", "/clock 2h")
    for name in ("p1", "p2"):
        await bot.hub.user_left(NETWORK, None, User(name), grace=0)
    await bot.hub.idle()
    assert bot.table.idle_since is not None and all(s.has_person for s in bot.table.players)
    await bot.hub.close()
    again = bot.restart()
    recorder = Recorder()
    await recorder.start(again.hub)
    clock.now += 5 * HOUR
    await again.hub.tick()
    assert again.table.idle_since is not None and not recorder.sent
    nick = again.table.players[to_act(again)].nick
    await again.hub.user_returned(NETWORK, User(nick))
    await again.hub.idle()
    assert again.table.idle_since is None
    assert any(
        line.startswith("Welcome back! Your move at #t (Jaipur, 2h left)") for line in recorder.private(nick)
    )


async def test_somebody_sitting_in_resumes_a_paused_game(tmp_path):
    bot, clock = driver(tmp_path, "jaipur", turn_seconds=None)
    recorder = await started(bot, ["p1", "p2"])
    await say(bot, "p1", "/leave")
    await say(bot, "p2", "/leave")
    assert bot.table.idle_since is not None
    await say(bot, "carol", "/join 2")
    await settle(bot)
    assert bot.table.idle_since is None and bot.table.players[1].nick == "carol"
    assert any(line == "carol here: the game of Jaipur goes on." for line in recorder.channel())


async def test_a_day_clock_reminds_by_private_message_at_half_the_deadline_once(tmp_path):
    bot, clock = driver(tmp_path, "jaipur", turn_seconds=None)
    recorder = await started(bot, ["p1", "p2"])
    await say(bot, "p1", "/clock 1d")
    await settle(bot)
    seat = to_act(bot)
    nick = bot.table.players[seat].nick
    await bot.hub.user_left(NETWORK, None, User(nick), grace=0)  # offline: the clock runs for them
    await bot.hub.idle()
    assert bot.table.idle_since is None and bot.table.players[seat].has_person
    clock.now += 12 * HOUR + 1
    await settle(bot)
    clock.now += 60
    await settle(bot)
    half = [line for line in recorder.private(nick) if line.startswith("Your move at #t: ")]
    assert half == [  # the first decision: its timeout only reminds, and the reminder says so
        "Your move at #t: 11h 59m left; then I remind you once more, "
        "and at the end of one more turn's time the AI plays it for you."
    ]
    assert not any("Time is up" in line for line in recorder.channel())


class PageRecorder(Recorder):
    """A recorder on a network whose bot serves the web chat's page too."""

    serves_page = True


async def test_the_pause_notice_offers_the_page_only_when_the_web_chat_runs(tmp_path):
    for with_page in (False, True):
        bot, clock = clocked_driver(tmp_path / f"p{with_page}.sqlite", "jaipur", 5, 300)
        recorder = PageRecorder() if with_page else Recorder()
        await recorder.start(bot.hub)
        for name in ("p1", "p2"):
            await say(bot, name, "/join")
        await say(bot, "p1", "/start")
        for _ in range(60):  # both go silent for an hour
            clock.now += 60
            await settle(bot)
        paused = [line for line in recorder.channel() if "the game is paused" in line]
        assert len(paused) == 1, recorder.channel()
        assert paused[0].endswith("or open the page." if with_page else "say anything here or /join."), paused


async def test_a_game_with_no_person_left_pauses_and_is_abandoned_only_after_a_warning(tmp_path):
    bot, recorder, clock, names = await table_of("jaipur", 2, tmp_path, turn_seconds=None)
    await say(bot, "p1", "/leave")
    await say(bot, "p2", "/leave")
    await bot.hub.tick()
    assert bot.table.running and any("the game is paused" in line for line in recorder.channel())
    clock.now += 601  # abandon_after is over, but nobody was warned yet
    await bot.hub.tick()
    assert bot.table.running and any("is abandoned in 5m" in line for line in recorder.channel())
    clock.now += 300
    await bot.hub.tick()
    assert not bot.table.running and any("abandoned (paused for" in line for line in recorder.channel())
