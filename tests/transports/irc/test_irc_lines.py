"""Parsing server lines and keeping our own lines to one command."""

from __future__ import annotations

from bazaarbot.transports.irc.lines import clean, clean_word, parse


def test_parse_tags_source_params_and_trailing() -> None:
    line = parse("@account=alice;time=2024-01-01T00:00:00Z :alice!~a@host PRIVMSG #bazaar :take 2 spice")
    assert line is not None
    assert line.command == "PRIVMSG"
    assert line.params == ("#bazaar", "take 2 spice")
    assert line.nick == "alice" and line.userhost == ("~a", "host")
    assert line.tags["account"] == "alice"


def test_tag_values_are_unescaped() -> None:
    line = parse(r"@k=a\sb\:c\\d :s NOTICE x :y")
    assert line is not None and line.tags["k"] == "a b;c\\d"


def test_numerics_and_lines_without_source() -> None:
    line = parse("PING :irc.test")
    assert line is not None and line.command == "PING" and line.params == ("irc.test",)
    line = parse(":irc.test 353 bot = #c :@alice +bob carol")
    assert line is not None and line.param(-1) == "@alice +bob carol" and line.param(9) == ""


def test_unreadable_lines_are_none_not_errors() -> None:
    for raw in ["", " ", ":only-a-source", "@tags-only", "@a :src"]:
        assert parse(raw) is None


def test_clean_keeps_one_line() -> None:
    assert clean("hi\r\nQUIT :bye\0") == "hi  QUIT :bye "
    assert clean_word("bob\r\nQUIT") == "bobQUIT"
    assert clean_word(":a b,c") == "abc"
