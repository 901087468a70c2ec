"""What the bot says in a room or channel it was invited to, once, on arrival: how to start."""

from __future__ import annotations

from bazaarbot.i18n import _


def hello() -> str:
    return _(
        "Hello! I run board games here: /games lists them, /new <game> opens a table, /help says the rest."
    )
