"""Languages: the catalogues every sentence is made of, a reader's language, the page's.

Owns the gettext catalogues (``catalogue``: ``_``, ``ngettext``, ``language``
and friends, re-exported here because nearly every module speaks through
them), the choice of a reader's language (``readers``), the web page's
language (``page_language``) and the maintainers' catalogue tool (``tools``,
run as ``python -m bazaarbot.i18n.tools refresh``).

May import: ``bazaarbot.text`` only (the tool, which reads the plugins'
texts, also ``bazaarbot.plugin`` and ``bazaarbot.registry``).
"""

from bazaarbot.i18n.catalogue import (
    DOMAIN,
    LOCALE_DIR,
    N_,
    SOURCE_LANGUAGE,
    Phrase,
    WordsIn,
    _,
    available_languages,
    current_language,
    default_language,
    forget_catalogues,
    in_each_language,
    joined_text,
    language,
    lines_of,
    localized,
    localized_text,
    ngettext,
    normalize_language,
    per_language,
    phrase,
    preload_catalogues,
    set_language,
    text_language,
)

__all__ = [
    "DOMAIN",
    "LOCALE_DIR",
    "N_",
    "SOURCE_LANGUAGE",
    "Phrase",
    "in_each_language",
    "joined_text",
    "lines_of",
    "_",
    "available_languages",
    "current_language",
    "default_language",
    "forget_catalogues",
    "language",
    "localized",
    "localized_text",
    "ngettext",
    "normalize_language",
    "WordsIn",
    "per_language",
    "phrase",
    "preload_catalogues",
    "set_language",
    "text_language",
]
