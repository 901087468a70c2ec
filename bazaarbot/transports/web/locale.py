"""The language a browser says its reader reads (``navigator.languages``), as the hello names it.

A reader who never typed ``/lang`` still reads the room's lines, the game's lines and their own
in their browser's language, as a Discord reader reads in their client's locale: the page sends
its tags and the hub keeps the first language the bot speaks as the reader's until they choose.
"""

from __future__ import annotations

from typing import Any

from bazaarbot.i18n import normalize_language

#: the tags of one hello looked at (a browser names a handful)
MAX_TAGS = 8
#: the longest tag looked at (``de-DE-u-co-phonebk`` is 18)
MAX_TAG = 35


def browser_language(frame: dict[str, Any]) -> str | None:
    """The first language of the frame's ``locales`` the bot speaks; None: none it speaks (or none sent)."""
    tags = frame.get("locales")
    if not isinstance(tags, list):
        return None
    for tag in tags[:MAX_TAGS]:
        if isinstance(tag, str) and len(tag) <= MAX_TAG:
            found = normalize_language(tag)
            if found is not None:
                return found
    return None
