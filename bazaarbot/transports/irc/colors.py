"""mIRC colours for those who asked for them, and the plain-text fallback.

A channel whose table said ``/colors channel on``, and a person who said
``/colors on`` (their private lines), get goods and colour words tinted with
two-digit codes (``\\x03NN``: a single digit would swallow a following "3 spice")
and closed with a reset (``\\x0f``), never with a bare ``\\x03`` that a digit could
follow. Each player's name is bold in their seat's colour (``SEAT_COLORS``), in
the board and in the move lines alike. Every colour is at least 3:1 against a
white and a black background. Channels whose modes strip or refuse colour (+c, +S) always
get plain text, and so does a private line to somebody who did not ask.
"""

from __future__ import annotations

import functools
import re

RESET = "\x0f"
#: mIRC colour numbers (two digits always), only those at least 3:1 against white and against black
#: (WCAG contrast on mIRC's palette; ``tests/transports/irc/test_irc_colors.py`` holds the figures).
#: Five of the first sixteen qualify (green, red, teal, pink, grey); the rest come from the extended
#: palette 16-98 (mIRC 7.52, HexChat, WeeChat, irssi, The Lounge), which an older client shows in its
#: default colour: a hint lost, never a word.
GREEN = "03"  # 0,147,0
RED = "04"  # 255,0,0
TEAL = "10"  # 0,147,147
PINK = "13"  # 255,0,255
GREY = "14"  # 127,127,127
OLIVE = "30"  # 116,116,0: the only yellow dark enough for white
AMBER = "41"  # 181,99,0: gold and orange without 07's glare on white
BLUE = "47"  # 0,99,181: 12 is too dark on black
MAGENTA = "50"  # 181,0,181: 06 is too dark on black
VIOLET = "61"  # 165,0,255
DARK_GREY = "93"  # 101,101,101: "black" that a black background still shows
#: every colour this module sends, as mIRC draws it (red, green, blue)
PALETTE: dict[str, tuple[int, int, int]] = {
    GREEN: (0, 147, 0),
    RED: (255, 0, 0),
    TEAL: (0, 147, 147),
    PINK: (255, 0, 255),
    GREY: (127, 127, 127),
    OLIVE: (116, 116, 0),
    AMBER: (181, 99, 0),
    BLUE: (0, 99, 181),
    MAGENTA: (181, 0, 181),
    VIOLET: (165, 0, 255),
    DARK_GREY: (101, 101, 101),
}

#: words worth a colour hint: the goods of the games and plain colour names (goods differ within a
#: game, and so do Bazaar's stones)
HINTS: dict[str, str] = {
    "diamond": TEAL,
    "diamonds": TEAL,
    "gold": OLIVE,
    "silver": GREY,
    "cloth": MAGENTA,
    "spice": RED,
    "spices": RED,
    "leather": AMBER,
    "camel": PINK,
    "camels": PINK,
    "red": RED,
    "green": GREEN,
    "blue": BLUE,
    "yellow": OLIVE,
    "purple": VIOLET,
    "orange": AMBER,
    "white": GREY,
    "black": DARK_GREY,
}
#: a player's colour by seat (the first seat the first colour): six seats, six colours
SEAT_COLORS = (BLUE, RED, GREEN, VIOLET, AMBER, TEAL)
BOLD = "\x02"
#: characters a nick may hold besides letters and digits (a name is tinted only where it stands alone)
_NICK_CHARS = r"\w\[\]\\`^{}|-"

#: channel modes under which colour is stripped (+S, +c on some servers) or refused (+c)
NO_COLOR_MODES = frozenset("cS")

_WORDS = re.compile(r"\b(" + "|".join(sorted(HINTS, key=len, reverse=True)) + r")\b", re.IGNORECASE)
_FORMATTING = re.compile(
    r"\x03(?:\d{1,2}(?:,\d{1,2})?)?"  # colour, with optional foreground,background
    r"|\x04(?:[0-9a-fA-F]{6}(?:,[0-9a-fA-F]{6})?)?"  # hex colour
    r"|[\x02\x0f\x11\x16\x1d\x1e\x1f]"  # bold, reset, monospace, reverse, italic, strike, underline
)


def colorize(text: str, players: tuple[str, ...] = ()) -> str:
    """Text with its players' names bold in their seat's colour and its goods and colour words tinted,
    each closed with a reset."""
    if not players:
        return _WORDS.sub(lambda m: f"\x03{HINTS[m.group(1).lower()]}{m.group(1)}{RESET}", text)
    pattern, colors = _painter(players)

    def paint(match: re.Match[str]) -> str:
        word = match.group(0)
        name = colors.get(word.lower())
        if name is not None:
            return f"{BOLD}\x03{name}{word}{RESET}"
        return f"\x03{HINTS[word.lower()]}{word}{RESET}"

    return pattern.sub(paint, text)


@functools.lru_cache(maxsize=256)
def _painter(players: tuple[str, ...]) -> tuple[re.Pattern[str], dict[str, str]]:
    """One pattern for the players' names (longest first, standing alone) and the goods words; each
    name's colour by its seat (a name seated twice keeps its first seat's)."""
    colors: dict[str, str] = {}
    for seat, name in enumerate(players):
        if name:
            colors.setdefault(name.lower(), SEAT_COLORS[seat % len(SEAT_COLORS)])
    names = "|".join(re.escape(name) for name in sorted(colors, key=len, reverse=True))
    goods = "|".join(sorted(HINTS, key=len, reverse=True))
    pattern = rf"(?<![{_NICK_CHARS}])(?:{names})(?![{_NICK_CHARS}])|\b(?:{goods})\b"
    return re.compile(pattern, re.IGNORECASE), colors


def strip_formatting(text: str) -> str:
    """Text without any mIRC formatting codes."""
    return _FORMATTING.sub("", text)


#: how a line is coloured: None for plain, else the names of its table's players in seat order
Paint = tuple[str, ...] | None


def paint_of(colors: bool, players: tuple[str, ...]) -> Paint:
    """A message's colouring: its players' names when it asked for colours, else plain."""
    return players if colors else None


def colors_allowed(channel_modes: set[str] | frozenset[str]) -> bool:
    """Whether a channel with these modes shows colour (no +c, no +S)."""
    return not (NO_COLOR_MODES & set(channel_modes))


def render(
    text: str, want_colors: bool, channel_modes: set[str] | frozenset[str], players: tuple[str, ...] = ()
) -> str:
    """What goes on the wire: coloured (``players`` in their seats' colours) if asked and allowed."""
    if want_colors and colors_allowed(channel_modes):
        return colorize(strip_formatting(text), players)
    return strip_formatting(text)
