"""Yspahan's words in English, German and Spanish: what a player types and what the bot names.

The English words are the ones ``parse_command`` reads and ``format_action``
writes. A German or Spanish player types the words of the German rules
(Weide, Badehaus, Aufseher bewegen: ``bewege``) or their Spanish match;
``to_english`` turns such a line into the English one before it is read, and
``command_in`` writes an English command in a language, so every command the
bot shows can be typed back as shown.
"""

from __future__ import annotations

import functools
import re

from bazaarbot.i18n import Phrase, available_languages, current_language, phrase

from .board import FIELD_NAMES, SHOP_INTERIOR, SHOP_SOUK, SHOP_SPACES, SOUK_NAMES, SPACE_NAMES
from .cards import BUILDING_IDS, CARD_IDS

#: the word a player of each language types for each English word of a command (first: as shown)
_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "de": {
        "roll": ("würfle", "würfeln", "wuerfle", "wuerfeln"),
        "yellow": ("gelb", "gelbe"),
        "take": ("nimm", "nehme", "nehmen"),
        "deliver": ("beliefere", "beliefern", "liefere", "liefern"),
        "move": ("bewege", "bewegen", "beweg"),
        "draw": ("ziehe", "zieh", "ziehen"),
        "card": ("karte",),
        "place": ("setze", "setzen", "setz"),
        "first": ("zuerst",),
        "protect": ("schütze", "schuetze", "schützen", "schuetzen"),
        "keep": ("behalte", "behalten"),
        "let": ("lass",),
        "go": ("los",),
        "build": ("baue", "bauen", "bau"),
        "play": ("spiele", "spielen", "spiel"),
        "extra": ("extra",),
        "done": ("fertig",),
        "pass": ("passe", "passen"),
        "end": ("ende",),
        "stop": ("stopp", "halt"),
        "with": ("mit",),
        "then": ("dann",),
        "to": ("nach",),
        "stay": ("bleib", "bleibe"),
        "here": ("hier",),
        "west": ("west", "westen"),
        "east": ("ost", "osten"),
        "north": ("nord", "norden"),
        "south": ("süd", "sued", "süden", "sueden"),
        "camels": ("kamele",),
        "camel": ("kamel",),
        "sacks": ("säcke", "saecke"),
        "sack": ("sack",),
        "barrels": ("fässer", "faesser"),
        "barrel": ("fass",),
        "chests": ("truhen",),
        "chest": ("truhe",),
        "vases": ("amphoren",),
        "vase": ("amphore",),
        "gold": ("gold",),
        "paddock": ("weide",),
        "shop": ("geschäft", "geschaeft"),
        "hammam": ("badehaus",),
        "caravanserai": ("karawanserei",),
        "bazaar": ("markt",),
        "hoist": ("lastenaufzug", "aufzug"),
        "camels3": ("kamele3",),
        "gold3": ("gold3",),
        "build_no_camels": ("bauen_ohne_kamele",),
        "build_no_gold": ("bauen_ohne_gold",),
        "caravan_cube": ("karawanenstein",),
        "souk_cube": ("ladenstein",),
        "gold_for_vp": ("gold_gegen_punkte",),
        "camels_for_vp": ("kamele_gegen_punkte",),
        "exchange": ("tausch", "tausche"),
    },
    "es": {
        "roll": ("tira", "tirar", "lanza"),
        "yellow": ("amarillo", "amarillos"),
        "take": ("toma", "tomar", "coge"),
        "deliver": ("entrega", "entregar"),
        "move": ("mueve", "mover"),
        "draw": ("roba", "robar"),
        "card": ("carta",),
        "place": ("coloca", "colocar", "pon"),
        "first": ("primero",),
        "protect": ("protege", "proteger"),
        "keep": ("guarda", "guardar"),
        "let go": ("suelta", "soltar"),
        "build": ("construye", "construir"),
        "play": ("juega", "jugar"),
        "extra": ("extra",),
        "done": ("listo", "hecho"),
        "pass": ("paso", "pasar"),
        "end": ("fin", "termina"),
        "stop": ("basta",),
        "with": ("con",),
        "then": ("luego",),
        "to": ("hasta",),
        "stay": ("quieto",),
        "here": ("aquí", "aqui"),
        "west": ("oeste",),
        "east": ("este",),
        "north": ("norte",),
        "south": ("sur",),
        "camels": ("camellos",),
        "camel": ("camello",),
        "sacks": ("sacos",),
        "sack": ("saco",),
        "barrels": ("barriles",),
        "barrel": ("barril",),
        "chests": ("cofres",),
        "chest": ("cofre",),
        "vases": ("vasijas",),
        "vase": ("vasija",),
        "gold": ("oro",),
        "paddock": ("corral",),
        "shop": ("tienda",),
        "hammam": ("baños", "banos"),
        "caravanserai": ("caravasar",),
        "bazaar": ("mercado",),
        "hoist": ("montacargas",),
        "camels3": ("camellos3",),
        "gold3": ("oro3",),
        "build_no_camels": ("construir_sin_camellos",),
        "build_no_gold": ("construir_sin_oro",),
        "caravan_cube": ("cubo_caravana",),
        "souk_cube": ("cubo_zoco",),
        "gold_for_vp": ("oro_por_puntos",),
        "camels_for_vp": ("camellos_por_puntos",),
        "exchange": ("cambio",),
    },
}
#: the first part of a souk's id ("sack3"): the word of its neighbourhood
_SOUK_STEMS = {"de": {"barrel": "fass", "chest": "truhe", "vase": "amphore"}, "es": {}}
_SOUK_STEMS["es"] = {"sack": "saco", "barrel": "barril", "chest": "cofre", "vase": "vasija"}
_SOUK_ID = re.compile(r"^([a-z]+)([0-9]+)$")


def _souk_in(souk: str, lang: str) -> str:
    match = _SOUK_ID.match(souk)
    if not match:
        return souk
    stem, number = match.groups()
    return _SOUK_STEMS.get(lang, {}).get(stem, stem) + number


def _norm(word: str) -> str:
    return word.replace("_", "").replace("-", "")


#: a localized word (underscores and dashes dropped) -> the English word(s) it stands for
_TO_ENGLISH: dict[str, str] = {}
for _lang, _table in _WORDS.items():
    for _english, _said in _table.items():
        for _word in _said:
            _TO_ENGLISH.setdefault(_norm(_word), _english)
    for _souk in SOUK_NAMES:
        _TO_ENGLISH.setdefault(_souk_in(_souk, _lang), _souk)
#: every localized verb, for telling a move from chatter
FOREIGN_VERBS = frozenset(
    _norm(w)
    for table in _WORDS.values()
    for english, said in table.items()
    if english
    in {"roll", "yellow", "take", "deliver", "move", "draw", "card", "place", "first", "protect", "keep"}
    | {"let", "let go", "build", "play", "extra", "done", "pass", "end", "stop"}
    for w in said
)


def to_english(text: str) -> str:
    """A line typed in German or Spanish with its words in English (English words stay)."""
    words = text.lower().replace(",", " ").split()
    return " ".join(_TO_ENGLISH.get(_norm(w), w) for w in words)


def word_in(english: str, lang: str) -> str:
    """One English word of a command as a player of ``lang`` types it."""
    said = _WORDS.get(lang, {}).get(english)
    if said:
        return said[0]
    if english in _SOUK_NAMES_SET:
        return _souk_in(english, lang)
    return english


_SOUK_NAMES_SET = frozenset(SOUK_NAMES)


def command_in(command: str, lang: str) -> str:
    """An English command (as ``format_action`` writes it) in ``lang``; ``to_english`` gives it back."""
    if lang not in _WORDS:
        return command
    if command == "let go" and "let go" in _WORDS[lang]:
        return _WORDS[lang]["let go"][0]
    return " ".join(word_in(w, lang) for w in command.split(" "))


def command_word(command: str) -> str:
    """A command as a re-renderable phrase: in each reader's language."""
    return phrase(lambda lang: command_in(command, lang))


@functools.cache
def _texts(text: str) -> dict[str, str]:
    """One fixed English name (a field, souk, building, card, shop or direction) in every language."""
    found = {}
    for lang in available_languages():
        souk, _space, road = text.partition(" ")
        name = (
            _souk_in(souk, lang) + (" " + road if road else "")
            if souk in _SOUK_NAMES_SET
            else word_in(text, lang)
        )
        found[lang] = name
    return found


def _named(text: str) -> str:
    """A game thing's name as a re-renderable phrase (the languages' texts made once, then reused)."""
    return Phrase.of(_texts(text))


def field_word(field: int) -> str:
    """A tower field's name (``camels``, ``sacks`` ...) in the reader's language."""
    return _named(FIELD_NAMES[field])


def souk_word(souk: int) -> str:
    """A souk's id (``sack3``; German ``fass2``, Spanish ``cofre2``) in the reader's language."""
    return _named(SOUK_NAMES[souk])


def building_word(building: int) -> str:
    """A building's name (``paddock``; German ``weide``, Spanish ``corral``) in the reader's language."""
    return _named(BUILDING_IDS[building])


def card_word(card: int) -> str:
    """A card's id (``gold3``; German ``gold3``, Spanish ``oro3``) in the reader's language."""
    return _named(CARD_IDS[card])


def shop_word(shop: int, space: int = -1) -> str:
    """A shop as a player names it (souk, plus the road space beside it) in the reader's language."""
    spaces = SHOP_SPACES[shop]
    souk = SOUK_NAMES[SHOP_SOUK[shop]]
    if SHOP_INTERIOR[shop]:
        return _named(souk)
    return _named(f"{souk} {SPACE_NAMES[space if space in spaces else spaces[0]]}")


def direction_word(direction: str) -> str:
    """A direction (``west``) in the reader's language."""
    return _named(direction)


def w(english: str) -> str:
    """One English command word in the language lines are built in now."""
    return word_in(english, current_language())


def said(command: str) -> str:
    """An English command in the language lines are built in now (plain text, for lists)."""
    return command_in(command, current_language())
