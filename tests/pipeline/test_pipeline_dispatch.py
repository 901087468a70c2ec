"""Stage 3: a read line to its handler or its table; a private line's table; unknown commands."""

from __future__ import annotations

from support.botdriver import NETWORK, Driver, said, told

from bazaarbot.commands import Command
from bazaarbot.messages import Tell, User
from bazaarbot.pipeline import dispatch
from bazaarbot.pipeline.private_target import private_target
from bazaarbot.pipeline.reading import Line


def _bot(tmp_path) -> Driver:
    return Driver(tmp_path / "bot.sqlite")


def _target(bot: Driver, nick: str, text: str, command: str = ""):
    hub = bot.hub
    return private_target(hub.tables, hub.seated_tables, hub.use, NETWORK, User(nick), text, command)


def _playing(bot: Driver) -> str:
    bot.script("alice: /join", "bob: /join", "alice: /start")
    state = bot.table.state
    return state.players[state.turn]


def test_a_private_line_goes_to_the_only_table_the_speaker_sits_at(tmp_path):
    bot = _bot(tmp_path)
    bot.line("alice", "/join")
    assert _target(bot, "alice", "add 1") == (bot.table, "add 1")


def test_a_leading_channel_names_the_table_and_leaves_the_text(tmp_path):
    bot = _bot(tmp_path)
    bot.line("alice", "/join")
    bot.line("alice", "/join", "#u")
    table, rest = _target(bot, "alice", "#U add 1")
    assert table is bot.hub.tables[(NETWORK, "#u")] and rest == "add 1"


def test_a_named_channel_where_the_speaker_does_not_sit_is_refused(tmp_path):
    bot = _bot(tmp_path)
    bot.line("bob", "/join")
    out, _rest = _target(bot, "alice", "#t add 1")
    assert out == [Tell(NETWORK, "alice", "You do not sit at a table in #t.")]


def test_somebody_at_no_table_is_told_how_to_sit_down(tmp_path):
    out, _rest = _target(_bot(tmp_path), "alice", "add 1")
    assert told(out) == ["You sit at no table. Say /join in a channel to sit down; /help lists the commands."]


def test_somebody_at_several_tables_is_shown_how_to_name_one(tmp_path):
    bot = _bot(tmp_path)
    bot.line("alice", "/join")
    bot.line("alice", "/join", "#u")
    out, _rest = _target(bot, "alice", "/hand", "/hand")
    assert told(out) == [
        "You sit at several tables (#t, #u); start your line with the channel, e.g. /hand #t."
    ]


def test_a_command_goes_to_its_handler_with_the_channels_table(tmp_path):
    bot = _bot(tmp_path)
    out = dispatch.command(bot.hub, Line(NETWORK, "#t", User("alice"), "/join"), Command("join", ()))
    assert bot.table.seat_of(User("alice").key) is not None
    assert said(out)


def test_a_channel_only_command_said_privately_is_refused(tmp_path):
    bot = _bot(tmp_path)
    out = dispatch.command(bot.hub, Line(NETWORK, None, User("alice"), "/join"), Command("join", ()))
    assert told(out) == ["Say /join in the channel of the table you want."]


def test_a_permission_refusal_is_told_privately(tmp_path):
    bot = _bot(tmp_path)
    bot.line("alice", "/join")
    bot.line("bob", "/join")
    out = dispatch.command(bot.hub, Line(NETWORK, "#t", User("bob"), "/start"), Command("start", ()))
    assert told(out, "bob") == ["Only the host (alice) or an admin can use /start."]
    assert not bot.table.running


def test_an_unknown_command_suggests_the_nearest_one(tmp_path):
    bot = _bot(tmp_path)
    said_ = Command("jion", (), known=False)
    out = dispatch.command(bot.hub, Line(NETWORK, "#t", User("alice"), "/jion"), said_)
    assert told(out) == ["I do not know the command 'jion'. Did you mean /join?"]


def test_a_move_said_with_a_prefix_is_played(tmp_path):
    bot = _bot(tmp_path)
    nick = _playing(bot)
    out = dispatch.command(bot.hub, Line(NETWORK, "#t", User(nick), "/add 2"), Command("add", ("2",), False))
    assert bot.table.state.total == 2 and said(out)


def test_a_private_move_goes_to_the_speakers_table(tmp_path):
    bot = _bot(tmp_path)
    nick = _playing(bot)
    dispatch.move(bot.hub, Line(NETWORK, None, User(nick), "add 3"))
    assert bot.table.state.total == 3


def test_private_words_that_are_no_move_get_a_pointer_to_moves_and_help(tmp_path):
    bot = _bot(tmp_path)
    nick = _playing(bot)
    out = dispatch.move(bot.hub, Line(NETWORK, None, User(nick), "hello"))
    assert told(out) == ["I did not understand 'hello'. /moves lists your moves, /help the commands."]
    assert bot.table.state.total == 0


def test_a_private_move_from_somebody_not_in_the_game_is_refused(tmp_path):
    bot = _bot(tmp_path)
    bot.line("alice", "/join")
    out = dispatch.move(bot.hub, Line(NETWORK, None, User("alice"), "add 1"))
    assert told(out) == ["You are not in a running game. /help lists what I understand."]
