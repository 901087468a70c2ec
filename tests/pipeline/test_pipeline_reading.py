"""Stage 1: a line made safe and read as a command, a move, a near-miss or chatter."""

from __future__ import annotations

from support.botdriver import NETWORK, Driver

from bazaarbot.messages import Incoming, Tell, User
from bazaarbot.pipeline.reading import Line, clean, read


def _line(text: str, channel: str | None = "#t", nick: str = "alice") -> Line:
    return Line(NETWORK, channel, User(nick), text)


def _playing(tmp_path) -> Driver:
    bot = Driver(tmp_path / "bot.sqlite")
    bot.script("alice: /join", "bob: /join", "alice: /start")
    return bot


def test_control_characters_leave_the_text_the_nick_the_account_and_the_channel():
    line = clean(Incoming(NETWORK, "#t\x07", User("al\x00ice", account="ro\rot"), "add\r\nPRIVMSG 1"), "bot")
    assert line == Line(NETWORK, "#t", User("al ice", account="ro ot"), "add PRIVMSG 1")


def test_an_empty_line_a_nick_of_control_characters_and_the_bots_own_words_are_nothing():
    assert clean(Incoming(NETWORK, "#t", User("alice"), " \x01 "), "bot") is None
    assert clean(Incoming(NETWORK, "#t", User("\x02\x03"), "/join"), "bot") is None
    assert clean(Incoming(NETWORK, "#t", User("BOT"), "/join"), "bot") is None


def test_a_prefixed_or_addressed_line_is_a_command():
    assert read(_line("/join"), "bot", lambda: None).command.name == "join"
    assert read(_line("bot: join"), "bot", lambda: None).command.name == "join"
    assert not read(_line("/join"), "bot", lambda: None).is_move


def test_chatter_from_somebody_not_playing_is_never_a_move():
    reading = read(_line("add 2"), "bot", lambda: None)
    assert reading.chatter


def test_words_the_game_knows_are_a_move_during_the_speakers_game(tmp_path):
    bot = _playing(tmp_path)
    reading = read(_line("add 2"), "bot", lambda: bot.table)
    assert reading.is_move and reading.command is None


def test_a_players_plain_help_is_the_help_command_during_their_game(tmp_path):
    bot = _playing(tmp_path)
    for word in ("help", "moves", "hand", "board"):
        assert read(_line(word), "bot", lambda: bot.table).command.name == word
    assert read(_line("help"), "bot", lambda: None).chatter


def test_anything_said_privately_is_a_move_for_dispatch_to_answer():
    assert read(_line("hello there", channel=None), "bot", lambda: None).is_move


def _to_act(bot: Driver) -> str:
    state = bot.table.state
    return state.players[state.turn]


def test_a_channel_line_one_slip_from_a_legal_move_gets_a_hint(tmp_path):
    bot = _playing(tmp_path)
    nick = _to_act(bot)
    reading = read(_line("addd 2", nick=nick), "bot", lambda: bot.table)
    assert not reading.chatter and not reading.is_move
    assert reading.hint == [Tell(NETWORK, nick, 'Did you mean "add 2"?')]


def test_a_slip_that_would_be_no_legal_move_stays_chatter(tmp_path):
    bot = _playing(tmp_path)
    assert read(_line("addd 9", nick=_to_act(bot)), "bot", lambda: bot.table).chatter


def test_a_command_looks_for_no_table():
    def nowhere():
        raise AssertionError("a command needs no playing table")

    assert read(_line("/moves"), "bot", nowhere).command.name == "moves"


def test_plain_more_hand_board_moves_and_help_in_a_private_line_are_their_commands():
    for word in ("more", "hand", "board", "moves", "help"):
        reading = read(_line(word, channel=None), "bot", lambda: None)
        assert reading.command is not None and reading.command.name == word and not reading.is_move
    assert read(_line("more please", channel=None), "bot", lambda: None).command.args == ("please",)
    assert read(_line("more", channel="#t"), "bot", lambda: None).chatter, "in a channel it is chatter"
