"""How an AI seat is named: ``AI:easy``, for a German table ``KI:leicht``, in the table's language."""

from __future__ import annotations

import functools
import re

from bazaarbot.i18n import N_, _, available_languages, language, phrase

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


_AI_NICK = re.compile(r"^(?P<base>[^:\s]+:[^\d\s]+)(?P<number>\d*)$")


@functools.cache
def _levels_by_nick() -> dict[str, str]:
    """Each built-in level's AI nick, in every language, -> the level."""
    found = {}
    for lang in available_languages():
        with language(lang):
            for level in LEVEL_WORDS:
                found[str(ai_nick(level)).lower()] = level
    return found


def ai_name(nick: str) -> str:
    """An AI seat's nick (``AI:hard2``, made in the table's language) in each reader's language
    (``KI:schwer2``); any other nick as it is."""
    match = _AI_NICK.match(nick)
    level = _levels_by_nick().get(match.group("base").lower()) if match else None
    if match is None or level is None:
        return nick
    number = match.group("number")
    return phrase(lambda lang: _in(lang, level) + number)


def _in(lang: str, level: str) -> str:
    with language(lang):
        return str(ai_nick(level))


@functools.cache
def _any_ai_nick() -> re.Pattern[str]:
    """An AI seat's nick in any language the bot speaks (``AI:hard2``, ``KI:schwer``), as a word."""
    nicks = sorted(_levels_by_nick(), key=len, reverse=True)
    return re.compile(r"(?<![\w:])(" + "|".join(re.escape(n) for n in nicks) + r")(\d*)(?!\w)", re.IGNORECASE)


def with_ai_names(text: str, lang: str) -> str:
    """``text`` (a line already in ``lang``) with every AI seat's nick in it named in ``lang``: a line
    built in the room's language names its AIs there (``AI:hard``), a German reader reads ``KI:schwer``."""
    if ":" not in text:
        return text
    levels = _levels_by_nick()

    def named(match: re.Match[str]) -> str:
        with language(lang):
            return str(ai_nick(levels[match.group(1).lower()])) + match.group(2)

    return _any_ai_nick().sub(named, text)
