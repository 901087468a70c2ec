"""The language a reader's page is drawn in: their /lang (or their client's, a browser's locale the
page told), else the room's, else their browser's."""

from __future__ import annotations

from bazaarbot.i18n import SOURCE_LANGUAGE, default_language


def page_language(person: str | None, room: str | None) -> str | None:
    """The reader's own choice, else the room's language; None leaves it to the browser.

    A room with no language of its own speaks the bot's; when that is English
    only because nobody configured one, the browser's language is the better guess.
    """
    if person:
        return person
    if room:
        return room
    chosen = default_language()
    return None if chosen == SOURCE_LANGUAGE else chosen
