"""A seat's private view and legal commands are built once per step of the game, anew when they may differ."""

from __future__ import annotations

from support.botdriver import Driver, told

from bazaarbot.config import BotSettings, RateLimit
from plugins.jaipur import GAME as JAIPUR


def _jaipur(tmp_path) -> Driver:
    settings = BotSettings(default_game="jaipur", seed=5, rate_limit=RateLimit(commands=1000, per_seconds=1))
    driver = Driver(tmp_path / "k.sqlite", games={"jaipur": JAIPUR}, settings=settings)
    driver.script("otto: /join", "eve: /join", "otto: /start")
    return driver


def _counting(table, monkeypatch, method: str = "private_view") -> list[int]:
    """The seats for which the game's ``method`` (a view, the legal commands) is called from now on."""
    built: list[int] = []
    original = getattr(table.plugin, method)

    def counted(state, seat):
        built.append(seat)
        return original(state, seat)

    monkeypatch.setattr(table.plugin, method, counted)
    return built


def _mover(driver: Driver) -> str:
    table = driver.table
    return table.players[table.plugin.to_act(table.state)[0]].nick


def test_a_move_builds_each_seats_private_view_once(tmp_path, monkeypatch) -> None:
    driver = _jaipur(tmp_path)
    table = driver.table
    built = _counting(table, monkeypatch)
    nick = _mover(driver)
    seat = table.plugin.to_act(table.state)[0]
    driver.line(
        nick, "take camels" if "take camels" in table.plugin.legal_commands(table.state, seat) else "/moves"
    )
    built.clear()
    nick = _mover(driver)
    seat = table.plugin.to_act(table.state)[0]
    out = driver.line(nick, table.plugin.legal_commands(table.state, seat)[0])
    assert sorted(built) == [0, 1]  # after the move; the views before it were kept from the last one
    hand = [m for m in out if getattr(m, "hand_of", None) and m.nick == nick]
    assert hand and hand[-1].text == table.view_of(seat)  # the mover is told the hand the move changed


def test_a_kept_view_is_built_again_in_another_language_and_after_a_rename(tmp_path, monkeypatch) -> None:
    driver = _jaipur(tmp_path)
    table = driver.table
    built = _counting(table, monkeypatch)
    english = table.view_of(0)
    assert table.view_of(0) == english and built == []  # kept since the start told it
    owner = table.players[0].nick
    driver.dm(owner, "/sprache de")
    german = table.view_of(0)
    assert german != english and built == [0]
    table.state.players[1] = "someone-else"  # a seat renamed in the game (a takeover, a nick change)
    table.view_of(0)
    assert built == [0, 0]


def test_hand_answers_the_view_as_it_is_now(tmp_path) -> None:
    driver = _jaipur(tmp_path)
    table = driver.table
    nick = _mover(driver)
    seat = table.plugin.to_act(table.state)[0]
    driver.line(nick, table.plugin.legal_commands(table.state, seat)[0])
    for index, person in enumerate(table.players):
        with_hand = told(driver.dm(person.nick, "/hand"), person.nick)
        assert table.plugin.private_view(table.state, index) in "\n".join(with_hand)


def test_a_seats_legal_commands_are_listed_once_per_step_of_the_game(tmp_path, monkeypatch) -> None:
    driver = _jaipur(tmp_path)
    table = driver.table
    legal_commands = table.plugin.legal_commands
    listed = _counting(table, monkeypatch, "legal_commands")
    seat = table.plugin.to_act(table.state)[0]
    first = table.legal_now(seat)
    assert table.legal_now(seat) is first and listed == [seat]
    driver.line(table.players[seat].nick, first[0])
    assert table.legal_now(seat) == []  # the game waits for the other seat: nothing to list
    other = table.plugin.to_act(table.state)[0]
    after = table.legal_now(other)
    assert listed == [seat, other] and after == legal_commands(table.state, other)
