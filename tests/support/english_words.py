"""The English words of the three games a German or Spanish player must never read from the bot.

Verbs, goods, fields, souks, buildings, cards and colours as the English commands and
lines spell them. Left out: words that are the same in the other language (``gold``,
``extra``, German ``west`` and ``joker``) and ``bazaar``, which is also a game's name.
"""

from __future__ import annotations

import re

_LINES = (
    "take sell exchange give camel camels diamond diamonds silver cloth spice leather market herd",
    "deliver move draw place build play done roll yellow protect let first stop north south east west",
    "sacks barrels chests vases barrel chest vase paddock shop hammam caravanserai hoist",
    "camels3 build_no_camels build_no_gold caravan_cube souk_cube gold_for_vp camels_for_vp card cards",
    "trade buy pass blue green white back discard joker AI",
)
ENGLISH_TERMS = frozenset(word for line in _LINES for word in line.split())
#: words of the list that are words of the language too
SAME_IN = {"de": frozenset({"west", "joker"}), "es": frozenset()}
_WORD = re.compile(r"[#/]?[A-Za-z_0-9]+")


def english_terms_in(text: str, lang: str) -> list[str]:
    """The English game words in ``text`` (a ``#channel`` or ``/command`` is no word of the game)."""
    found = []
    for word in _WORD.findall(text):
        if word[0] in "#/" or word not in ENGLISH_TERMS or word in SAME_IN[lang]:
            continue
        found.append(word)
    return found
