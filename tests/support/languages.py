"""What every language must show, and the English that no translation keeps (for whole-game checks)."""

from __future__ import annotations

import re
import string

from bazaarbot.i18n.tools import read_catalogue

#: how "/status" names whose turn it is, in each language
TO_ACT = {"de": "Am Zug: ", "es": "Le toca a: "}
#: how the line that ends a game begins, in each language
GAME_OVER = {"en": "Game over:", "de": "Spiel vorbei:", "es": "Fin de la partida:"}
#: a sentence of /help, of /rules and of /help moves that each language must show
EXPECTED = {
    "de": {
        "help": "Im Spiel tippst du Züge als einfache Wörter",
        "jaipur": "Exzellenz-Siegel",
        "yspahan": "Aufseher",
        "bazaar": "Tauschtabelle",
    },
    "es": {
        "help": "escribe las jugadas como palabras sueltas",
        "jaipur": "sello de excelencia",
        "yspahan": "caravana",
        "bazaar": "tabla de intercambio",
    },
}


def english_fragments(lang: str) -> list[str]:
    """Pieces of English source sentences (three words or more) no translation keeps.

    A piece some translation does keep (a command such as ``sell 3 cloth`` quoted
    in the German help) says nothing about a sentence left in English.
    """
    catalogue = [m for m in read_catalogue(lang) if m.id]
    kept = "\n".join(s for m in catalogue for s in (m.string if isinstance(m.string, tuple) else (m.string,)))
    found = set()
    for message in catalogue:
        for source in message.id if isinstance(message.id, tuple) else (message.id,):
            for literal, *_rest in string.Formatter().parse(source):
                for piece in re.split(r"[\n:;()']", literal):
                    piece = piece.strip(" .,")
                    if len(piece.split()) >= 3 and piece not in kept:
                        found.add(piece)
    return sorted(found)
