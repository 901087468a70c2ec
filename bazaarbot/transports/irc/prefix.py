"""The network's command character: how the bot names commands, and how a user's command reaches the hub.

An IRC client takes a line starting with ``/`` as its own command (irssi answers
``Unknown command: more``), so commands are named with ``!`` here, or with the
network's ``command_prefix``. A line a user starts with that character is a
command line for the hub, which reads ``!``.
"""

from __future__ import annotations

from bazaarbot.text.commandmark import render

#: the command character the hub reads on every network
HUB_PREFIX = "!"


def shown(text: str, prefix: str) -> str:
    """``text`` with every command it names written as this network's users type it."""
    return render(text, prefix)


def incoming(text: str, prefix: str) -> str:
    """A user's line as the hub reads it: ``.more`` is ``!more`` where ``.`` is the command character."""
    if prefix != HUB_PREFIX and text.startswith(prefix) and text[1:2].isalpha():
        return HUB_PREFIX + text[1:]
    return text
