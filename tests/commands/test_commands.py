"""Text -> command: prefixes, addressing, aliases, sanitising, near misses."""

from __future__ import annotations

from bazaarbot.commands import COMMANDS, nearest_command, parse_command, sanitize


def test_slash_and_bang_prefixes_give_the_same_command():
    assert parse_command("/join 2", "bot") == parse_command("!join 2", "bot")
    assert parse_command("/join 2", "bot").args == ("2",)


def test_commands_are_case_insensitive():
    assert parse_command("/START", "bot").name == "start"


def test_addressing_the_bot_by_name():
    assert parse_command("Bot: start", "bot").name == "start"
    assert parse_command("bot, /join", "bot").name == "join"
    assert parse_command("other: start", "bot") is None


def test_plain_words_are_not_commands():
    assert parse_command("take 2 spice", "bot") is None


def test_aliases_map_to_commands():
    assert parse_command("!players", "bot").name == "status"
    assert parse_command("/colours on", "bot").name == "colors"


def test_unknown_command_is_marked_unknown():
    command = parse_command("/frobnicate", "bot")
    assert command is not None and not command.known and command.name == "frobnicate"


def test_every_table_command_of_the_issue_exists():
    for name in (
        "games",
        "new",
        "join",
        "leave",
        "start",
        "kick",
        "reset",
        "status",
        "board",
        "hand",
        "moves",
        "help",
        "rules",
    ):
        assert name in COMMANDS


def test_nearest_command_for_typos():
    assert nearest_command("strat") == "start"
    assert nearest_command("jion") == "join"
    assert nearest_command("boad") == "board"
    assert nearest_command("xyzzyq") is None


def test_sanitize_strips_cr_lf_nul_and_control_codes():
    assert sanitize("a\r\nPRIVMSG #x :hi") == "a PRIVMSG #x :hi"
    assert sanitize("x\x00y\x03" + "04red\x0f\x02bold") == "x y 04red bold"
    assert sanitize("zero\u200bwidth\u202eflip") == "zerowidthflip"
    assert sanitize("  many   spaces\t\there ") == "many spaces here"
