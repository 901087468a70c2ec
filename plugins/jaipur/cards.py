"""The components of Jaipur as small integers and fixed tables.

Card types are indices so that a hand, a market or a discard pile is just a
list of counts; the rules code then works on lists of ints, which keeps the
engine fast enough for an AI that plays millions of random moves.
"""

from __future__ import annotations

from bazaarbot.i18n import _, in_each_language, ngettext, per_language

DIAMOND, GOLD, SILVER, CLOTH, SPICE, LEATHER, CAMEL = range(7)
GOODS = (DIAMOND, GOLD, SILVER, CLOTH, SPICE, LEATHER)
PRECIOUS = (DIAMOND, GOLD, SILVER)
N_GOODS = 6
N_TYPES = 7

#: how many cards of each type the game holds (55 in all)
CARD_COUNTS = (6, 6, 6, 8, 8, 10, 11)
TOTAL_CARDS = 55
#: camels laid face up in the market before anything is dealt
STARTING_MARKET_CAMELS = 3
HAND_LIMIT = 7
#: cards dealt to each player at the start of a round
DEAL = 5
MARKET_SIZE = 5

#: smallest sale per goods type (two for the precious goods, even with one token left)
MIN_SALE = (2, 2, 2, 1, 1, 1)

#: goods tokens per pile, in the order they are handed out (highest first)
GOODS_TOKENS: tuple[tuple[int, ...], ...] = (
    (7, 7, 5, 5, 5),
    (6, 6, 5, 5, 5),
    (5, 5, 5, 5, 5),
    (5, 3, 3, 2, 2, 1, 1),
    (5, 3, 3, 2, 2, 1, 1),
    (4, 3, 2, 1, 1, 1, 1, 1, 1),
)
TOTAL_GOODS_TOKENS = 38
#: GOODS_PREFIX[g][i] = sum of the first i tokens of pile g (fast sale scoring)
GOODS_PREFIX: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(pile[:i]) for i in range(len(pile) + 1)) for pile in GOODS_TOKENS
)
PILE_SIZES = tuple(len(pile) for pile in GOODS_TOKENS)


def sale_rupees(good: int, taken: int, n: int) -> int:
    """What the goods tokens of a sale of ``n`` cards of ``good`` score, ``taken`` of its pile gone."""
    prefix = GOODS_PREFIX[good]
    return prefix[min(PILE_SIZES[good], taken + n)] - prefix[taken]


#: bonus piles, by the size of the sale that earns them: 3 cards, 4 cards, 5 or more
BONUS_TOKENS: tuple[tuple[int, ...], ...] = (
    (1, 1, 2, 2, 2, 3, 3),
    (4, 4, 5, 5, 6, 6),
    (8, 8, 9, 10, 10),
)
BONUS_LABELS = ("3-card", "4-card", "5-card")
TOTAL_BONUS_TOKENS = 18
CAMEL_TOKEN_VALUE = 5


def bonus_pile_for(sold: int) -> int:
    """Which bonus pile a sale of ``sold`` cards draws from (-1 for none)."""
    if sold < 3:
        return -1
    return 2 if sold >= 5 else sold - 3


#: English names: (singular, plural) as the canonical commands spell them
NAMES: tuple[tuple[str, str], ...] = (
    ("diamond", "diamonds"),
    ("gold", "gold"),
    ("silver", "silver"),
    ("cloth", "cloth"),
    ("spice", "spice"),
    ("leather", "leather"),
    ("camel", "camels"),
)

#: every word a player may use for a card type (English, short forms, German, Spanish)
CARD_ALIASES: dict[str, int] = {}
for _type, _words in (
    (DIAMOND, "diamond diamonds dia dias di d diamant diamanten diamante diamantes"),
    (GOLD, "gold golds go g oro oros"),
    (SILVER, "silver silvers sil si silber plata platas"),
    (CLOTH, "cloth cloths clo cl silk silks tuch tuche tücher tuecher stoff stoffe tela telas seda sedas"),
    (SPICE, "spice spices sp spi gewürz gewürze gewuerz gewuerze especia especias"),
    (LEATHER, "leather leathers lea le l leder cuero cueros piel pieles"),
    (CAMEL, "camel camels cam ca kamel kamele kamelen camello camellos"),
):
    for _word in _words.split():
        CARD_ALIASES[_word] = _type
del _type, _words, _word


def command_name(card: int, count: int = 1) -> str:
    """The English name of a card type for ``count`` cards, as the canonical commands spell it."""
    return NAMES[card][0 if count == 1 else 1]


def command_counted(card: int, count: int) -> str:
    """``spice`` / ``2 spice`` as typed in a canonical command."""
    return command_name(card) if count == 1 else f"{count} {command_name(card, count)}"


@per_language
def name(card: int, count: int = 1) -> str:
    """The name of a card type for ``count`` cards in the current language (every form parses);
    a sentence quoting it says it in its reader's language."""
    return in_each_language(lambda: _name_here(card, count))


def _name_here(card: int, count: int) -> str:
    if card == DIAMOND:
        return ngettext("diamond", "diamonds", count)
    if card == GOLD:
        return ngettext("gold", "gold", count)
    if card == SILVER:
        return ngettext("silver", "silver", count)
    if card == CLOTH:
        return ngettext("cloth", "cloth", count)
    if card == SPICE:
        return ngettext("spice", "spice", count)
    if card == LEATHER:
        return ngettext("leather", "leather", count)
    return ngettext("camel", "camels", count)


@per_language
def _bonus_labels() -> tuple[str, str, str]:
    return (_("3-card"), _("4-card"), _("5-card"))


def bonus_label(pile: int) -> str:
    """The name of a bonus pile: ``3-card``, ``4-card``, ``5-card``."""
    return _bonus_labels()[pile]


@per_language
def counted(card: int, count: int) -> str:
    """``spice`` for one card, ``2 spice`` / ``3 camels`` for more; counts go through ``ngettext``
    (a sentence quoting it says it in its reader's language)."""
    return in_each_language(lambda: _counted_here(card, count))


def _counted_here(card: int, count: int) -> str:
    if count == 1:
        return name(card)
    if card == DIAMOND:
        return ngettext("{n} diamond", "{n} diamonds", count).format(n=count)
    if card == CAMEL:
        return ngettext("{n} camel", "{n} camels", count).format(n=count)
    return ngettext("{n} {good}", "{n} {goods}", count).format(
        n=count, good=name(card), goods=name(card, count)
    )


def describe_counts(counts: list[int] | tuple[int, ...], empty: str = "nothing") -> str:
    """A multiset of cards as words, in type order: ``2 spice, leather, 3 camels`` (in each reader's
    language, where a sentence quotes it)."""
    if not any(counts):
        return empty
    return _described(tuple(counts))


@per_language
def _described(counts: tuple[int, ...]) -> str:
    """``describe_counts`` of a non-empty multiset, made once per multiset: every view and line of a
    move names the market and hands again, in every language."""
    return in_each_language(lambda: ", ".join(counted(t, c) for t, c in enumerate(counts) if c))


@per_language
def cards_text(n: int) -> str:
    """``1 card`` / ``3 cards``."""
    return ngettext("{n} card", "{n} cards", n).format(n=n)


@per_language
def camels_text(n: int) -> str:
    """``1 camel`` / ``3 camels``."""
    return ngettext("{n} camel", "{n} camels", n).format(n=n)
