"""Colours: two-digit codes closed with a reset, each player's seat colour, each person's own setting."""

from __future__ import annotations

import pytest

from bazaarbot.messages import Say, Tell
from bazaarbot.transports.irc.colors import SEAT_COLORS, colorize, colors_allowed, render, strip_formatting


def test_goods_get_two_digit_codes_and_a_reset() -> None:
    assert colorize("take 3 spice") == "take 3 \x0304spice\x0f"
    assert colorize("Gold and camels") == "\x0330Gold\x0f and \x0313camels\x0f"


#: each colour sent, with its contrast against white and against black (WCAG 2 ratio on mIRC's palette)
CONTRASTS = {
    "03": (4.06, 5.17),
    "04": (4.00, 5.25),
    "10": (3.75, 5.59),
    "13": (3.14, 6.70),
    "14": (4.00, 5.24),
    "30": (4.95, 4.24),
    "41": (4.42, 4.75),
    "47": (6.08, 3.45),
    "50": (5.78, 3.63),
    "61": (5.19, 4.04),
    "93": (5.83, 3.60),
}
#: the colours of the old palette that failed: orange on white, brown, purple and blue on black
TOO_FAINT = {"07": (2.57, 8.17), "05": (11.04, 1.90), "06": (7.26, 2.89), "12": (8.73, 2.41)}


def _contrast(rgb: tuple[int, int, int], background: tuple[int, int, int]) -> float:
    def luminance(color: tuple[int, int, int]) -> float:
        def channel(value: int) -> float:
            c = value / 255
            return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

        red, green, blue = (channel(v) for v in color)
        return 0.2126 * red + 0.7152 * green + 0.0722 * blue

    light, dark = sorted((luminance(rgb), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_every_colour_is_at_least_3_to_1_on_white_and_on_black() -> None:
    from bazaarbot.transports.irc.colors import HINTS, PALETTE

    used = set(HINTS.values()) | set(SEAT_COLORS)
    assert used == set(PALETTE) == set(CONTRASTS), "every colour sent has its figures here"
    for code, (on_white, on_black) in CONTRASTS.items():
        rgb = PALETTE[code]
        assert round(_contrast(rgb, (255, 255, 255)), 2) == on_white, code
        assert round(_contrast(rgb, (0, 0, 0)), 2) == on_black, code
        assert min(on_white, on_black) >= 3.0, code
    mirc = {"07": (252, 127, 0), "05": (127, 0, 0), "06": (156, 0, 156), "12": (0, 0, 252)}
    for code, (on_white, on_black) in TOO_FAINT.items():
        assert (
            round(_contrast(mirc[code], (255, 255, 255)), 2),
            round(_contrast(mirc[code], (0, 0, 0)), 2),
        ) == (
            on_white,
            on_black,
        )
        assert min(on_white, on_black) < 3.0 and code not in used


def test_goods_differ_within_a_game_and_so_do_the_stones() -> None:
    from bazaarbot.transports.irc.colors import HINTS

    goods = ("diamond", "gold", "silver", "cloth", "spice", "leather", "camel")
    assert len({HINTS[good] for good in goods}) == len(goods)
    stones = ("red", "green", "blue", "yellow", "white")
    assert len({HINTS[stone] for stone in stones}) == len(stones)
    assert HINTS["black"] != HINTS["white"]


def test_the_board_asked_for_is_coloured_like_the_moves(tmp_path) -> None:
    from support.botdriver import Driver

    bot = Driver(tmp_path / "b.sqlite")
    bot.line("alice", "/join")
    bot.line("bob", "/join")
    bot.line("alice", "/colors channel on")
    bot.line("alice", "/start")
    [board] = [m for m in bot.line("alice", "/board") if isinstance(m, Say)]
    [move] = [m for m in bot.line("alice", "add 1") if isinstance(m, Say)][:1]
    assert board.colors and board.listing and move.colors
    assert board.players == move.players == ("alice", "bob"), "the same seat colours in boards and moves"


def test_each_player_is_shown_in_their_seats_colour_in_the_board_and_the_moves() -> None:
    players = ("alice", "AI:easy", "AI:easy2")
    board = colorize("Players: >alice 3 points | AI:easy 1 point | AI:easy2 0 points", players)
    move = colorize("AI:easy2 trades 2 red for 1 gold; alice to move.", players)
    for seat, name in enumerate(players):
        painted = f"\x02\x03{SEAT_COLORS[seat]}{name}\x0f"
        assert painted in board
        assert name == "AI:easy" or painted in move
    assert "\x0304red\x0f" in move and "\x0330gold\x0f" in move, "the goods keep their colours"
    assert colorize("malice and alice2", ("alice",)) == "malice and alice2", "a name inside a word is left"
    assert len(set(SEAT_COLORS)) == len(SEAT_COLORS) >= 6


def test_colors_is_each_persons_own_and_the_channels_colours_are_the_hosts(tmp_path) -> None:
    from support.botdriver import Driver, told

    bot = Driver(tmp_path / "b.sqlite")
    bot.line("alice", "/join")
    bot.line("bob", "/join")
    assert "coloured" in told(bot.line("bob", "/colors on"), "bob")[0]
    refused = bot.line("bob", "/colors channel on")
    assert "Only the host (alice)" in told(refused, "bob")[0] and not bot.table.colors
    bot.line("alice", "/start")
    bob = [m for m in bot.dm("bob", "/board") if isinstance(m, Tell)]
    alice = [m for m in bot.dm("alice", "/board") if isinstance(m, Tell)]
    assert bob[0].colors and bob[0].players == ("alice", "bob")
    assert not alice[0].colors, "one person's colours are theirs alone"
    assert not any(m.colors for m in bot.line("alice", "add 1") if isinstance(m, Say))
    assert "This channel's lines are coloured." in [m.text for m in bot.line("alice", "/colors channel on")]
    assert "This channel's lines are coloured." in told(bot.line("bob", "/colors"), "bob")[0]


@pytest.mark.irc
async def test_on_irc_the_seat_colours_reach_the_channel_and_only_the_reader_who_asked(irc_cast) -> None:
    """Raw lines on ngircd: the host's channel colours, bob's private colours, alice's plain lines."""
    chan = "#bazaar"
    cast = await irc_cast({"alice": (chan,), "bob": (chan,)})
    alice, bob = cast["alice"], cast["bob"]
    await cast.seat_all(chan)
    alice.say(chan, "!colors channel on")
    await bob.expect("lines are coloured")
    bob.send("PRIVMSG bazaarbot :!colors on")
    await bob.expect("PRIVMSG bob :The lines I send you privately are coloured.")
    await cast.start(chan)
    alice_in = "\x02\x03" + SEAT_COLORS[0] + "alice\x0f"
    alice.say(chan, "add 2")
    move = await bob.expect(f"PRIVMSG {chan} :{alice_in} adds 2")
    turn = await bob.expect(f"PRIVMSG {chan} :")
    assert "\x02\x03" + SEAT_COLORS[1] + "bob\x0f" in turn, "the next player in their seat's colour"
    bob.send("PRIVMSG bazaarbot :!board")
    board = await bob.expect(lambda line: line.startswith(":bazaarbot") and "PRIVMSG bob :Turn:" in line)
    assert "\x02\x03" + SEAT_COLORS[1] + "bob\x0f" in board, "the board as the moves show the names"
    alice.send("PRIVMSG bazaarbot :!board")
    plain = await alice.expect(lambda line: line.startswith(":bazaarbot") and "PRIVMSG alice :Turn:" in line)
    assert "\x03" not in plain and "\x03" in move


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
