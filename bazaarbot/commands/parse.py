"""Text -> table command: prefixes, the bot's name, aliases, sanitising.

A line is a table command when it starts with ``/`` or ``!`` or addresses
the bot by name (``bazaarbot: join``, ``bazaarbot, join``). Everything else
is either a game move (the table decides) or chatter (ignored).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bazaarbot.commands.registry import REGISTRY
from bazaarbot.text.sanitize import sanitize

__all__ = ["Command", "addressed_text", "command_body", "parse_command", "sanitize"]

_ADDRESSED = re.compile(r"^\s*([^\s:,]+)\s*[:,]\s*(.*)$")


@dataclass(frozen=True)
class Command:
    """A table command: its canonical name (or the unknown word) and its arguments."""

    name: str
    args: tuple[str, ...]
    known: bool = True


def addressed_text(text: str, bot_nick: str) -> str | None:
    """For ``bazaarbot: take 2 spice`` the text after the name, else None."""
    match = _ADDRESSED.match(text)
    if match and match.group(1).lower() == bot_nick.lower():
        return match.group(2)
    return None


def command_body(text: str, bot_nick: str) -> str | None:
    """The words of a command line without its prefix or the bot's name, else None."""
    if text[:1] in ("/", "!"):
        return text[1:]
    body = addressed_text(text, bot_nick)
    if body is not None and body[:1] in ("/", "!"):
        body = body[1:]
    return body


def parse_command(text: str, bot_nick: str) -> Command | None:
    """The table command in ``text``, or None when the line is not addressed to the bot."""
    body = command_body(text, bot_nick)
    if body is None:
        return None
    words = body.split()
    if not words:
        return Command("help", ())
    spec = REGISTRY.lookup(words[0])
    if spec is not None:
        return Command(spec.name, tuple(words[1:]))
    return Command(words[0].lower(), tuple(words[1:]), known=False)
