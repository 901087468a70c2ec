"""Text -> table command: prefixes, the bot's name, aliases, sanitising.

A line is a table command when it starts with ``/`` or ``!`` or addresses
the bot by name (``bazaarbot: join``, ``bazaarbot, join``). Everything else
is either a game move (the table decides) or chatter (ignored).
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass

#: every table command, with the one-line help shown by /help
COMMANDS: dict[str, str] = {
    "games": "/games - list the games this bot can run",
    "new": "/new <game> [option=value ...] - choose the game for this table (and sit down)",
    "join": "/join [seat] - sit down at this table",
    "leave": "/leave - get up (ends a running game you play in)",
    "start": "/start - start the game with everybody seated (host)",
    "kick": "/kick <nick> - remove a player (host or admin)",
    "reset": "/reset - empty this table and abandon its game (admin; the host before the start)",
    "status": "/status - who sits here, which game, whose turn",
    "board": "/board - show the whole board",
    "hand": "/hand - re-send your private view (your hand) to you",
    "moves": "/moves [all] - your legal moves now (all: every one, exactly as you can type it)",
    "help": "/help [command|moves] - this help",
    "rules": "/rules <game> - a summary of a game's rules",
    "notice": "/notice on|off - get private lines as NOTICE instead of private messages (IRC)",
    "colors": "/colors on|off - colour hints in this channel (IRC)",
    "claim": "/claim <code> - take your seat back from a new address (the code came at /join)",
}

ALIASES: dict[str, str] = {
    "sit": "join",
    "part": "leave",
    "quit": "leave",
    "players": "status",
    "who": "status",
    "state": "status",
    "show": "board",
    "cards": "hand",
    "move": "moves",
    "commands": "help",
    "colours": "colors",
    "color": "colors",
    "colour": "colors",
    "game": "new",
    "list": "games",
}

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_SPACES = re.compile(r"\s+")


def sanitize(text: str) -> str:
    """Remove CR, LF, NUL and every other control or format character; fold runs of spaces.

    Text from users passes through here before it can ever be echoed, so it
    can neither inject a second protocol line nor carry formatting codes.
    """
    text = _CONTROL.sub(" ", text)
    text = "".join(ch for ch in text if unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co"))
    return _SPACES.sub(" ", text).strip()


@dataclass(frozen=True)
class Command:
    """A table command: its canonical name (or the unknown word) and its arguments."""

    name: str
    args: tuple[str, ...]
    known: bool = True


def parse_command(text: str, bot_nick: str) -> Command | None:
    """The table command in ``text``, or None when the line is not addressed to the bot."""
    body: str | None = None
    if text[:1] in ("/", "!"):
        body = text[1:]
    else:
        match = re.match(r"^\s*([^\s:,]+)\s*[:,]\s*(.*)$", text)
        if match and match.group(1).lower() == bot_nick.lower():
            body = match.group(2)
            if body[:1] in ("/", "!"):
                body = body[1:]
    if body is None:
        return None
    words = body.split()
    if not words:
        return Command("help", ())
    word = words[0].lower()
    name = ALIASES.get(word, word)
    if name in COMMANDS:
        return Command(name, tuple(words[1:]))
    return Command(word, tuple(words[1:]), known=False)


def addressed_text(text: str, bot_nick: str) -> str | None:
    """For ``bazaarbot: take 2 spice`` the text after the name, else None."""
    match = re.match(r"^\s*([^\s:,]+)\s*[:,]\s*(.*)$", text)
    if match and match.group(1).lower() == bot_nick.lower():
        return match.group(2)
    return None


def nearest_command(word: str) -> str | None:
    """The real command closest to a mistyped one."""
    candidates = list(COMMANDS) + list(ALIASES)
    word = word.lower()
    for candidate in candidates:  # a swapped pair of letters is the commonest slip
        if len(candidate) == len(word) and sorted(candidate) == sorted(word):
            return ALIASES.get(candidate, candidate)
    close = difflib.get_close_matches(word.lower(), candidates, n=1, cutoff=0.5)
    if not close:
        return None
    return ALIASES.get(close[0], close[0])
