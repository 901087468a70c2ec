"""Stage 2, second half: a command's declared ``who``, the seat limit, and a paused table."""

from __future__ import annotations

from support.botdriver import NETWORK, Driver

from bazaarbot.commands import CommandSpec, Who
from bazaarbot.messages import Say, Tell, User
from bazaarbot.pipeline.permission import paused_refusal, refusal, seat_limit
from bazaarbot.table import Actor
from bazaarbot.text.commandmark import render


def _spec(who: Who) -> CommandSpec:
    return CommandSpec("thing", lambda ctx: [], "does a thing", who=who)


def _seated(tmp_path) -> Driver:
    bot = Driver(tmp_path / "bot.sqlite")
    bot.script("alice: /join", "bob: /join")
    return bot


def _actor(nick: str, admin: bool = False) -> Actor:
    return Actor(User(nick), admin)


def _refused(who: Who, table, nick: str) -> str:
    """The refusal ``nick`` gets for a command only ``who`` may use, as the console shows it."""
    return render(refusal(_spec(who), table, _actor(nick)))


def test_anyone_may_use_an_anyone_command_even_without_a_table():
    assert refusal(_spec(Who.ANYONE), None, _actor("zoe")) is None


def test_an_admin_command_is_refused_to_everybody_but_an_admin(tmp_path):
    table = _seated(tmp_path).table
    assert _refused(Who.ADMIN, table, "alice") == "Only an admin can use /thing."
    assert refusal(_spec(Who.ADMIN), None, _actor("zoe", admin=True)) is None


def test_a_seated_command_needs_a_seat_at_that_table(tmp_path):
    table = _seated(tmp_path).table
    assert refusal(_spec(Who.SEATED), table, _actor("bob")) is None
    assert _refused(Who.SEATED, table, "zoe") == "Only a seated player can use /thing; /join first."


def test_a_host_command_names_the_host_to_the_other_players(tmp_path):
    table = _seated(tmp_path).table
    assert refusal(_spec(Who.HOST), table, _actor("alice")) is None
    assert _refused(Who.HOST, table, "bob") == "Only the host (alice) or an admin can use /thing."
    assert refusal(_spec(Who.HOST), table, _actor("bob", admin=True)) is None


def test_one_more_seat_past_the_limit_is_refused_with_the_limit():
    assert seat_limit(NETWORK, User("alice"), 1, 2) is None
    refused = seat_limit(NETWORK, User("alice"), 2, 2)
    assert isinstance(refused, Tell) and refused.nick == "alice"
    assert render(refused.text) == "You sit at 2 tables already, the limit; /leave one first."


def test_a_table_that_is_not_paused_takes_every_command(tmp_path):
    bot = _seated(tmp_path)
    assert paused_refusal(bot.hub.store, bot.table, _actor("alice"), None) is None


def test_a_paused_table_answers_why_and_only_an_admins_reset_ends_the_game(tmp_path):
    bot = _seated(tmp_path)
    bot.line("alice", "/start")
    table = bot.table
    game_id = table.game_id
    table.paused = "This game was saved under other rules."
    reset = CommandSpec("reset", lambda ctx: [], "reset")
    assert paused_refusal(bot.hub.store, table, _actor("alice"), reset) == [
        Say(NETWORK, "#t", "This game was saved under other rules.")
    ]
    assert paused_refusal(bot.hub.store, table, _actor("root", admin=True), reset) is None
    assert table.paused is None and table.game_id is None
    row = bot.hub.database.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
    assert row[0] == "abandoned"
