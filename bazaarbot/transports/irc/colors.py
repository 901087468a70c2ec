"""mIRC colour hints for tables that asked for them, and the plain-text fallback.

A table with ``/colors on`` gets its goods and colour words tinted with
two-digit codes (``\\x03NN``: a single digit would swallow a following "3 spice")
and closed with a reset (``\\x0f``), never with a bare ``\\x03`` that a digit could
follow. Channels whose modes strip or refuse colour (+c, +S) always get plain
text, and so does every private line a plugin did not colour itself.
"""

from __future__ import annotations

import re

RESET = "\x0f"
#: mIRC colour numbers (two digits always), only those readable on a light and on a dark background
#: (never 08 yellow, 09 light green or 11 light cyan, which vanish on white; never 01/02 on black)
GREEN, RED, BROWN, PURPLE, ORANGE, TEAL, LIGHT_BLUE, PINK, GREY = (
    "03",
    "04",
    "05",
    "06",
    "07",
    "10",
    "12",
    "13",
    "14",
)

#: words worth a colour hint: the goods of the games and plain colour names
HINTS: dict[str, str] = {
    "diamond": TEAL,
    "diamonds": TEAL,
    "gold": ORANGE,
    "silver": GREY,
    "cloth": PURPLE,
    "spice": RED,
    "spices": RED,
    "leather": BROWN,
    "camel": PINK,
    "camels": PINK,
    "red": RED,
    "green": GREEN,
    "blue": LIGHT_BLUE,
    "yellow": ORANGE,
    "purple": PURPLE,
    "orange": ORANGE,
    "white": GREY,
    "black": GREY,
}
#: channel modes under which colour is stripped (+S, +c on some servers) or refused (+c)
NO_COLOR_MODES = frozenset("cS")

_WORDS = re.compile(r"\b(" + "|".join(sorted(HINTS, key=len, reverse=True)) + r")\b", re.IGNORECASE)
_FORMATTING = re.compile(
    r"\x03(?:\d{1,2}(?:,\d{1,2})?)?"  # colour, with optional foreground,background
    r"|\x04(?:[0-9a-fA-F]{6}(?:,[0-9a-fA-F]{6})?)?"  # hex colour
    r"|[\x02\x0f\x11\x16\x1d\x1e\x1f]"  # bold, reset, monospace, reverse, italic, strike, underline
)


def colorize(text: str) -> str:
    """Text with its goods and colour words tinted, each closed with a reset."""
    return _WORDS.sub(lambda m: f"\x03{HINTS[m.group(1).lower()]}{m.group(1)}{RESET}", text)


def strip_formatting(text: str) -> str:
    """Text without any mIRC formatting codes."""
    return _FORMATTING.sub("", text)


def colors_allowed(channel_modes: set[str] | frozenset[str]) -> bool:
    """Whether a channel with these modes shows colour (no +c, no +S)."""
    return not (NO_COLOR_MODES & set(channel_modes))


def render(text: str, want_colors: bool, channel_modes: set[str] | frozenset[str]) -> str:
    """What goes on the wire for a public text: coloured if asked and allowed, else plain."""
    if want_colors and colors_allowed(channel_modes):
        return colorize(strip_formatting(text))
    return strip_formatting(text)
