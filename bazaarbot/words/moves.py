"""A game's command as its reader types it: the plugin's ``command_in`` in the current language.

The rules spell every command in English (``legal_commands``, the AI, the
move log); whatever a player reads (``/moves``, a "did you mean", the move the
AI played for them) is written in their language, as they could type it back.
"""

from __future__ import annotations

from typing import Any

from bazaarbot.i18n import available_languages, current_language, phrase
from bazaarbot.plugin import GamePlugin


def command_here(game: GamePlugin, state: Any, seat: int, command: str) -> str:
    """``command`` in the language lines are built in now (plain text, for lists)."""
    return game.command_in(state, seat, command, current_language())


def command_phrase(game: GamePlugin, state: Any, seat: int, command: str) -> str:
    """``command`` in every language at once: a line quoting it re-renders for each reader."""
    return phrase(lambda lang: game.command_in(state, seat, command, lang))


def verbs_in_every_language(game: GamePlugin, state: Any, seat: int, commands: list[str]) -> list[str]:
    """The first words of ``commands`` in English and in each language the bot speaks."""
    found: dict[str, None] = {}
    for command in commands:
        found[command.split(" ", 1)[0].lower()] = None
        for lang in available_languages():
            found[game.command_in(state, seat, command, lang).split(" ", 1)[0].lower()] = None
    return list(found)
