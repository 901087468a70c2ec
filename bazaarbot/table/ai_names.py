"""How an AI seat is named: ``AI:easy``, for a German table ``KI:leicht``, in the table's language."""

from __future__ import annotations

from bazaarbot.i18n import N_, _

#: the built-in levels' names as players read them (a configured level keeps its own name)
LEVEL_WORDS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}


def level_word(level: str) -> str:
    """A level's name in the current language."""
    word = LEVEL_WORDS.get(level)
    return _(word) if word else level


def ai_nick(level: str) -> str:
    """The name an ``/addbot`` seat gets, in the current language.

    Never a nick a person could hold: no network allows ``:`` in a nick.
    """
    return _("AI:{level}").format(level=level_word(level))
