"""The seat facts and clock of a drawn table (``seatview``); how a private line is sorted (``tells``)."""

from __future__ import annotations

from pathlib import Path

from support.botdriver import Driver
from support.countgame import GAME as COUNT

from bazaarbot.config import BotSettings, RateLimit
from bazaarbot.tableview.seats import clock, seating, take_back
from bazaarbot.transports.web.tells import answering, asked_here, sort_tell

NOW = [1_000_000.0]


def _driver(tmp_path: Path) -> Driver:
    settings = BotSettings(default_game="count", seed=7, rate_limit=RateLimit(commands=1000, per_seconds=1))
    return Driver(tmp_path / "s.sqlite", games={"count": COUNT}, settings=settings, wall_clock=lambda: NOW[0])


def test_sit_down_is_offered_only_while_a_seat_is_free(tmp_path: Path) -> None:
    d = _driver(tmp_path)
    d.line("alice", "/join")
    assert seating(d.table)["free"] == COUNT.max_players - 1
    for n in range(COUNT.max_players - 1):
        d.line(f"p{n}", "/join")
    facts = seating(d.table)
    assert facts["free"] == 0 and facts["levels"] == ["easy", "medium", "hard"]


def test_take_my_seat_back_is_join_after_leaving_and_nothing_while_playing(tmp_path: Path) -> None:
    d = _driver(tmp_path)
    d.script("alice: /join", "bob: /join", "alice: /start")
    key = "n:alice"
    assert take_back(d.table, key) is None
    d.line("alice", "/leave")
    assert take_back(d.table, key) == "/join"
    people = seating(d.table)["people"]
    assert [p["away"] for p in people] == [True, False] and seating(d.table)["free"] == 1
    d.line("alice", "/join")
    assert take_back(d.table, key) is None


def test_the_clock_names_the_awaited_seat_and_its_deadline_on_the_table_clock(tmp_path: Path) -> None:
    d = _driver(tmp_path)
    d.script("alice: /join", "bob: /join", "alice: /start", "alice: /clock 45s")
    seat = COUNT.to_act(d.table.state)[0]
    facts = clock(d.table)
    assert facts is not None and facts["seats"] == [seat] and facts["seconds"] == 45
    assert facts["deadline"] == NOW[0] + 45 and facts["now"] == NOW[0]
    d.hub.autoplay.tick(list(d.hub.tables.values()), NOW[0] + 2)  # the clock follows the decision
    NOW[0] += 10
    again = clock(d.table)
    assert again is not None and again["deadline"] == NOW[0] - 10 + 2 + 45 and again["now"] == NOW[0]
    d.line("alice", "/clock off")
    assert clock(d.table) is None


class _Hands:
    def __init__(self, views: dict[str, str | None]) -> None:
        self.views = views

    def private_view(self, network: str, channel: str, key: str) -> str | None:
        return self.views.get(channel)


def test_a_private_line_is_an_answer_only_within_the_line_it_answers() -> None:
    hub = _Hands({"#a": "Your hand: 3", "#b": None})
    rooms = {"#a", "#b"}
    assert sort_tell(hub, "web", "alice", "a:alice", "Not your turn.", rooms) == ("private", "#a")
    with answering("alice", "#b", "take gold"):
        assert sort_tell(hub, "web", "alice", "a:alice", "Not your turn.", rooms) == ("answer", "#b")
        assert sort_tell(hub, "web", "bob", "a:bob", "Not your turn.", rooms) == ("private", "#a")
        # the hand after a move is a hand refresh, not the answer
        assert sort_tell(hub, "web", "alice", "a:alice", "Your hand: 3", rooms) == ("hand", "#a")
        assert asked_here("#b") is None  # a move, not a command: its public answer names nothing
    with answering("alice", "#a", "/hand"):
        assert sort_tell(hub, "web", "alice", "a:alice", "Your hand: 3", rooms) == ("answer", "#a")
        assert asked_here("#a") == ("alice", "/hand") and asked_here("#b") is None
    hub.views["#b"] = "Your hand: 9"
    assert sort_tell(hub, "web", "alice", "a:alice", "Time is short.", rooms) == ("private", None)
