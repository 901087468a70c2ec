"""The one message catalogue every sentence the bot says goes through.

English source strings are marked with ``_()``; a German or Spanish catalogue
can be dropped into ``bazaarbot/locale/<lang>/LC_MESSAGES/bazaarbot.mo``
without touching any call site.
"""

from __future__ import annotations

import gettext
from pathlib import Path

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "bazaarbot"

_translation: gettext.NullTranslations = gettext.NullTranslations()


def set_language(lang: str | None, localedir: str | Path | None = None) -> None:
    """Switch the catalogue; unknown languages fall back to English."""
    global _translation
    if not lang or lang == "en":
        _translation = gettext.NullTranslations()
        return
    _translation = gettext.translation(DOMAIN, localedir or LOCALE_DIR, languages=[lang], fallback=True)


def _(message: str) -> str:
    """Translate one English source sentence."""
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate a sentence whose form depends on a count."""
    return _translation.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark a sentence for the catalogue without translating it yet (it is translated when shown)."""
    return message
