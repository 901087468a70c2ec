"""Bazaar's commands in German and Spanish: the words a player of each language types.

``command_in`` writes an English command (``trade 3 back``, ``joker red``) in a
language (``tausche 3 zurück``, ``comodín rojo``); the parser reads every one of
these words back as the same move.
"""

from __future__ import annotations

from bazaarbot.i18n import current_language

_WORDS: dict[str, dict[str, str]] = {
    "de": {
        "draw": "ziehe",
        "joker": "joker",
        "trade": "tausche",
        "back": "zurück",
        "buy": "kaufe",
        "pass": "weiter",
        "discard": "ablegen",
        "blue": "blau",
        "green": "grün",
        "red": "rot",
        "white": "weiß",
        "yellow": "gelb",
    },
    "es": {
        "draw": "roba",
        "joker": "comodín",
        "trade": "cambia",
        "back": "atrás",
        "buy": "compra",
        "pass": "paso",
        "discard": "devuelve",
        "blue": "azul",
        "green": "verde",
        "red": "rojo",
        "white": "blanco",
        "yellow": "amarillo",
    },
}


def word_in(english: str, lang: str) -> str:
    """One English word of a command in ``lang``."""
    return _WORDS.get(lang, {}).get(english, english)


def command_in(command: str, lang: str) -> str:
    """An English Bazaar command in ``lang`` (English, or an unknown language, as it is)."""
    return " ".join(word_in(word, lang) for word in command.split(" "))


def w(english: str) -> str:
    """One English command word in the language lines are built in now."""
    return word_in(english, current_language())


def said(command: str) -> str:
    """An English command (or part of one) in the language lines are built in now."""
    return command_in(command, current_language())
