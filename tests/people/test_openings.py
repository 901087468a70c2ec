"""``/notify``: the list of people called when a table opens, its limits, and the line that calls them."""

from __future__ import annotations

from support.botdriver import NETWORK, Driver, Recorder, said, told
from support.clocked import FakeClock

from bazaarbot.messages import Say, User
from bazaarbot.people.openings import CALL_GAP, NOTIFY, OpeningCalls

ROOM = "#t"


def person(nick: str) -> User:
    return User(nick, account=nick)


def calls(prefs: dict[tuple[str, str, str], str]) -> tuple[OpeningCalls, FakeClock]:
    clock = FakeClock()
    return OpeningCalls(prefs, clock), clock


def listed(*nicks: str) -> dict[tuple[str, str, str], str]:
    return {(NETWORK, person(nick).key, NOTIFY): "on" for nick in nicks}


def test_only_listed_people_present_are_called_never_the_opener() -> None:
    openings, _clock = calls({**listed("ann", "bob", "cid"), (NETWORK, person("dan").key, NOTIFY): "off"})
    present = [person(n) for n in ("ann", "bob", "bob", "dan", "eve")]
    assert [u.nick for u in openings.whom(NETWORK, ROOM, present, person("ann").key)] == ["bob"]


def test_a_room_is_called_once_per_gap() -> None:
    openings, clock = calls(listed("bob", "cid"))
    assert openings.whom(NETWORK, ROOM, [person("bob")], "a:ann")
    clock.now += CALL_GAP - 1
    assert openings.whom(NETWORK, ROOM.upper(), [person("cid")], "a:ann") == [], "the room was called lately"
    clock.now += 1
    assert [u.nick for u in openings.whom(NETWORK, ROOM, [person("cid")], "a:ann")] == ["cid"]


def test_a_person_is_called_once_per_gap_wherever_the_table_opens() -> None:
    openings, clock = calls(listed("bob", "cid"))
    openings.whom(NETWORK, "#one", [person("bob")], "a:ann")
    clock.now += 60
    again = openings.whom(NETWORK, "#two", [person("bob"), person("cid")], "a:ann")
    assert [u.nick for u in again] == ["cid"], "bob was called a minute ago"
    clock.now += CALL_GAP
    assert [u.nick for u in openings.whom(NETWORK, "#three", [person("bob")], "a:ann")] == ["bob"]
    assert set(openings.rooms) == {(NETWORK, "#three")}, "calls older than the gap are forgotten"


def test_another_networks_list_is_not_this_ones() -> None:
    openings, _clock = calls({("other", person("bob").key, NOTIFY): "on"})
    assert openings.whom(NETWORK, ROOM, [person("bob")], "a:ann") == []


class Room(Recorder):
    """A network that knows who is in its rooms, as IRC, Matrix and the web do."""

    def __init__(self, *nicks: str) -> None:
        super().__init__()
        self.people = [person(nick) for nick in nicks]

    def present(self, channel: str) -> list[User]:
        return list(self.people)


async def test_notify_on_is_kept_across_a_restart_and_calls_the_listed_people_present(store_target) -> None:
    clock = FakeClock()
    bot = Driver(store_target, wall_clock=clock)
    assert "You are not called" in told(bot.line("bob", "/notify", account="bob"), "bob")[0]
    assert "You are called" in told(bot.line("bob", "/notify on", None, account="bob"), "bob")[0]
    bot.line("cid", "/benachrichtigen an", account="cid")
    bot.line("dan", "/notify on", account="dan")
    bot.line("dan", "/notificar no", account="dan")
    bot = bot.restart()
    await Room("ann", "bob", "cid", "dan").start(bot.hub)
    out = bot.line("ann", "/new count", account="ann")
    [call] = [m for m in out if isinstance(m, Say) and m.invites]
    assert call.mentions == ("bob", "cid")
    assert said([call]) == [
        "bob, cid: ann opened a table of Count here; /join to play. (/notify off: no more calls)"
    ]
    bot.line("ann", "/leave", account="ann")
    again = bot.line("eve", "/new count", account="eve")
    assert not [m for m in again if isinstance(m, Say) and m.invites], "the room was called lately"
    clock.now += CALL_GAP
    bot.line("eve", "/leave", account="eve")
    assert [m for m in bot.line("ann", "/new count", account="ann") if isinstance(m, Say) and m.invites]


def test_changing_the_game_of_an_open_table_calls_nobody(tmp_path) -> None:
    bot = Driver(tmp_path / "b.sqlite")
    bot.line("bob", "/notify on", account="bob")
    bot.line("ann", "/join", account="ann")
    bot.hub.attach(Room("ann", "bob"))
    assert not [m for m in bot.line("ann", "/new count", account="ann") if isinstance(m, Say) and m.invites]


def test_a_notify_word_it_does_not_know_changes_nothing(tmp_path) -> None:
    bot = Driver(tmp_path / "b.sqlite")
    assert told(bot.line("bob", "/notify maybe"), "bob") == [
        "Use /notify on or /notify off; /notify alone says your setting."
    ]
    assert not bot.hub.prefs
