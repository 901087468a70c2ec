"""Jaipur's commands in German and Spanish: the words a player of each language types.

``command_in`` writes a canonical English command (``take 2 spice give 2 camels``)
in a language (``nimm 2 gewürze gib 2 kamele``); the parser reads every one of
these words, so a command shown in German can be typed back as shown.
"""

from __future__ import annotations

from bazaarbot.text.digits import number

#: English word -> (the word after a count of 1 or none, the word after a larger count)
_WORDS: dict[str, dict[str, tuple[str, str]]] = {
    "de": {
        "take": ("nimm", "nimm"),
        "give": ("gib", "gib"),
        "sell": ("verkaufe", "verkaufe"),
        "diamond": ("diamant", "diamanten"),
        "gold": ("gold", "gold"),
        "silver": ("silber", "silber"),
        "cloth": ("tuch", "tuch"),
        "spice": ("gewürz", "gewürze"),
        "leather": ("leder", "leder"),
        "camel": ("kamel", "kamele"),
        "camels": ("kamele", "kamele"),
    },
    "es": {
        "take": ("toma", "toma"),
        "give": ("da", "da"),
        "sell": ("vende", "vende"),
        "diamond": ("diamante", "diamantes"),
        "gold": ("oro", "oro"),
        "silver": ("plata", "plata"),
        "cloth": ("tela", "telas"),
        "spice": ("especia", "especias"),
        "leather": ("cuero", "cueros"),
        "camel": ("camello", "camellos"),
        "camels": ("camellos", "camellos"),
    },
}
_SINGULAR = {"diamonds": "diamond"}


def command_in(command: str, lang: str) -> str:
    """An English Jaipur command in ``lang`` (English, or an unknown language, as it is)."""
    table = _WORDS.get(lang)
    if table is None:
        return command
    out: list[str] = []
    count = 1
    for word in command.split(" "):
        if (given := number(word)) is not None:
            count = given
            out.append(word)
            continue
        forms = table.get(_SINGULAR.get(word, word))
        out.append(word if forms is None else forms[0 if count == 1 else 1])
        count = 1
    return " ".join(out)
