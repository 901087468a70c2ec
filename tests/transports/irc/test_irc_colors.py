"""Colour hints: two-digit codes, closed with a reset, never where the channel forbids them."""

from __future__ import annotations

from bazaarbot.transports.irc.colors import colorize, colors_allowed, render, strip_formatting


def test_goods_get_two_digit_codes_and_a_reset() -> None:
    assert colorize("take 3 spice") == "take 3 \x0304spice\x0f"
    assert colorize("Gold and camels") == "\x0307Gold\x0f and \x0313camels\x0f"


def test_every_hint_is_readable_on_light_and_dark_terminals_and_goods_differ() -> None:
    from bazaarbot.transports.irc.colors import HINTS

    unreadable = {"00", "01", "02", "08", "09", "11", "15"}  # white, black, navy, yellow, light green/cyan
    assert not set(HINTS.values()) & unreadable
    goods = ("diamond", "gold", "silver", "cloth", "spice", "leather", "camel")
    assert len({HINTS[good] for good in goods}) == len(goods)
    stones = ("red", "green", "blue", "yellow", "white")
    assert len({HINTS[stone] for stone in stones}) == len(stones)


def test_the_board_asked_for_is_coloured_like_the_moves(tmp_path) -> None:
    from support.botdriver import Driver

    from bazaarbot.messages import Say

    bot = Driver(tmp_path / "b.sqlite")
    bot.script("alice: /join", "bob: /join", "alice: /colors on", "alice: /start")
    [board] = [m for m in bot.line("alice", "/board") if isinstance(m, Say)]
    assert board.colors and board.listing


def test_a_following_digit_cannot_join_the_code() -> None:
    out = colorize("spice 3")
    assert "\x0304spice\x0f 3" in out
    assert "\x03" + "3" not in out


def test_words_inside_other_words_are_left_alone() -> None:
    assert colorize("goldfish redo") == "goldfish redo"


def test_strip_removes_every_formatting_code() -> None:
    text = "\x02bold\x02 \x0304,01red\x03 \x1ditalic\x1d \x1funder\x1f \x16rev\x16 \x0fend \x04ff0000hex"
    assert strip_formatting(text) == "bold red italic under rev end hex"


def test_channel_modes_c_and_S_forbid_colour() -> None:
    assert colors_allowed({"n", "t"})
    assert not colors_allowed({"n", "c"})
    assert not colors_allowed({"S"})
    assert render("3 spice", True, {"c"}) == "3 spice"
    assert render("3 spice", True, set()) == "3 \x0304spice\x0f"
    assert render("3 spice", False, set()) == "3 spice"
