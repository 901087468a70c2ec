"""After-commit work: a finished game is rated once the unit that ended it is on disk, never before."""

from __future__ import annotations

from support.botdriver import NETWORK, Driver

from bazaarbot.messages import Incoming, Say, User


def _last_move_in_a_unit(tmp_path):
    bot = Driver(tmp_path / "bot.sqlite")
    bot.script("alice: /new count target=3", "bob: /join", "alice: /start")
    state = bot.table.state
    nick = state.players[state.turn]
    unit, out = bot.hub.commit.run(
        lambda: bot.hub._process(Incoming(NETWORK, "#t", User(nick), "add 3")), NETWORK, nick
    )
    return bot, unit, out


def test_the_game_that_ended_waits_in_its_unit_unrated(tmp_path):
    bot, unit, out = _last_move_in_a_unit(tmp_path)
    assert any(m.text.startswith("Game over:") for m in out)
    assert [entry[:2] for entry in unit.after] == [(NETWORK, "#t")]
    assert bot.hub.database.execute("SELECT count(*) FROM rating_changes").fetchone()[0] == 0


def test_after_the_commit_the_channel_hears_the_ratings_once(tmp_path):
    bot, unit, _out = _last_move_in_a_unit(tmp_path)
    bot.hub.store.commit_now()
    lines = bot.hub.rating.lines(unit)
    assert lines and all(isinstance(m, Say) and m.channel == "#t" for m in lines)
    assert bot.hub.rating.lines(unit) == []
    assert bot.hub.database.execute("SELECT count(*) FROM rating_changes").fetchone()[0] > 0
