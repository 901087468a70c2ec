"""Each command's name in German and Spanish: the declared alias a speaker of the language types.

``/hilfe`` lists ``/hilfe (/help)``: the name in the reader's language first,
then the English one that works everywhere. Every name here is an alias
declared with its command (a test checks it), so what is shown can be typed.
"""

from __future__ import annotations

from bazaarbot.i18n import current_language, phrase
from bazaarbot.text.commandmark import command as named

LOCAL_NAMES: dict[str, dict[str, str]] = {
    "de": {
        "clock": "uhr",
        "games": "spiele",
        "help": "hilfe",
        "rules": "regeln",
        "status": "stand",
        "board": "brett",
        "hand": "karten",
        "moves": "züge",
        "more": "mehr",
        "lang": "sprache",
        "new": "neu",
        "join": "mitspielen",
        "leave": "verlassen",
        "start": "starten",
        "kick": "rauswerfen",
        "addbot": "ki",
        "back": "zurück",
        "undo": "rückgängig",
        "colors": "farben",
        "stats": "statistik",
        "top": "bestenliste",
        "history": "verlauf",
        "hint": "tipp",
        "review": "analyse",
        "tables": "tische",
        "claim": "einlösen",
        "notice": "hinweis",
        "notify": "benachrichtigen",
        "reset": "zurücksetzen",
    },
    "es": {
        "clock": "reloj",
        "games": "juegos",
        "help": "ayuda",
        "rules": "reglas",
        "status": "estado",
        "board": "tablero",
        "hand": "mano",
        "moves": "jugadas",
        "more": "más",
        "lang": "idioma",
        "new": "nuevo",
        "join": "unirse",
        "leave": "salir",
        "start": "empezar",
        "kick": "expulsar",
        "addbot": "ia",
        "back": "volver",
        "undo": "deshacer",
        "colors": "colores",
        "stats": "estadisticas",
        "top": "mejores",
        "history": "historial",
        "hint": "pista",
        "review": "análisis",
        "tables": "mesas",
        "claim": "reclamar",
        "notice": "aviso",
        "notify": "notificar",
        "reset": "reiniciar",
    },
}


#: the plain words (no "/") a seated player may say for help, moves, hand and board, in German and Spanish
PLAIN_WORDS_IN_LANGUAGES = frozenset(
    LOCAL_NAMES[lang][name] for lang in LOCAL_NAMES for name in ("help", "moves", "hand", "board")
) | {"zuege"}


def local_name(name: str, lang: str | None = None) -> str:
    """The command's name as a speaker of ``lang`` (default: the current language) types it."""
    return LOCAL_NAMES.get(lang or current_language(), {}).get(name, name)


def name_phrase(name: str) -> str:
    """A command's name that each reader reads in their language (a suggestion: ``/hilfe``)."""
    return phrase(lambda lang: local_name(name, lang))


def listed_name(name: str, lang: str | None = None) -> str:
    """``/hilfe (/help)`` in German, ``/help`` in English or where the language has no own name."""
    mine = local_name(name, lang)  # named with the mark each transport shows as its users type it
    return named(name) if mine == name else f"{named(mine)} ({named(name)})"
