"""The 18 cards (9 kinds x 2), the six buildings, and the fixed numbers of the rules.

Numbers the sources leave open (rules reference section 13) are named
constants here, each with the recommended value.
"""

from __future__ import annotations

from bazaarbot.i18n import _

(CAMELS3, GOLD3, BUILD_NO_CAMELS, BUILD_NO_GOLD, CARAVAN_CUBE, SOUK_CUBE) = range(6)
GOLD_FOR_VP, CAMELS_FOR_VP, EXCHANGE = range(6, 9)
CARD_IDS = (
    "camels3",
    "gold3",
    "build_no_camels",
    "build_no_gold",
    "caravan_cube",
    "souk_cube",
    "gold_for_vp",
    "camels_for_vp",
    "exchange",
)
CARD_INDEX = {cid: i for i, cid in enumerate(CARD_IDS)}
#: not a card kind: both discount cards played on one building (option ``combine_discounts``)
BUILD_FREE = len(CARD_IDS)
COPIES_PER_KIND = 2
N_CARDS = len(CARD_IDS) * COPIES_PER_KIND  # 18

# Section 13 #1: card limits as in the Boardspace implementation.
GOLD_FOR_VP_MAX = 10  # pay up to 10 gold, 1 VP each
CAMELS_FOR_VP_MAX = 4  # pay up to 4 camels, 2 VP each
VP_PER_CAMEL = 2
# Section 13 #2: at most one card as an extra die per action, only for camels, gold or cubes.
EXTRA_DICE_PER_ACTION = 1
# Section 13 #11: no hand limit.
HAND_LIMIT: int | None = None
# Section 5 (drawing): one card per draw action, whatever the number of dice.
CARDS_PER_DRAW = 1
# Section 13 #6 / #7: cubes, camels and gold supplies are unlimited.
CUBE_SUPPLY_LIMIT: int | None = None
GOODS_SUPPLY_LIMIT: int | None = None


def card_text(kind: int) -> str:
    """A readable description of a card, for the private hand view and help."""
    texts = (
        _("take 3 camels"),
        _("take 3 gold"),
        _("build one building without paying its camels: play build-without-camels NAME"),
        _("build one building without paying its gold: play build-without-gold NAME"),
        _("put one of your cubes on the next caravan space"),
        _("put one cube in a shop of any neighbourhood: play cube-to-souk SOUK [SPACE]"),
        _("pay up to 10 gold, 1 point each: play gold-for-points N"),
        _("pay up to 4 camels, 2 points each: play camels-for-points N"),
        _("swap camels and gold 1 for 1: play exchange N gold (or N camels) - N is what you give"),
    )
    return texts[kind]


def card_name(kind: int) -> str:
    """A card's name as a player calls it."""
    names = (
        _("Three camels"),
        _("Three gold"),
        _("Build without camels"),
        _("Build without gold"),
        _("Cube to the caravan"),
        _("Cube in any souk"),
        _("Gold for points"),
        _("Camels for points"),
        _("Camels and gold exchange"),
    )
    return names[kind]


def card_summary(kind: int) -> str:
    """What a card does, in one line without the command that plays it (the drawn table's buttons do)."""
    texts = (
        _("Take 3 camels."),
        _("Take 3 gold."),
        _("Build one building without paying its camels."),
        _("Build one building without paying its gold."),
        _("Put one of your cubes on the next caravan space."),
        _("Put one cube in a shop of any neighbourhood."),
        _("Pay up to 10 gold, 1 point each."),
        _("Pay up to 4 camels, 2 points each."),
        _("Swap camels and gold, 1 for 1."),
    )
    return texts[kind]


# --- buildings ------------------------------------------------------------------------
PADDOCK, SHOP, HAMMAM, CARAVANSERAI, BAZAAR, HOIST = range(6)
BUILDING_IDS = ("paddock", "shop", "hammam", "caravanserai", "bazaar", "hoist")
BUILDING_ALIASES = {
    "paddock": PADDOCK,
    "weide": PADDOCK,
    "shop": SHOP,
    "store": SHOP,
    "geschaeft": SHOP,
    "hammam": HAMMAM,
    "bath": HAMMAM,
    "bathhouse": HAMMAM,
    "badehaus": HAMMAM,
    "caravanserai": CARAVANSERAI,
    "caravansary": CARAVANSERAI,
    "karawanserei": CARAVANSERAI,
    "inn": CARAVANSERAI,
    "bazaar": BAZAAR,
    "market": BAZAAR,
    "markt": BAZAAR,
    "hoist": HOIST,
    "lift": HOIST,
    "lastenaufzug": HOIST,
}
#: (camels, gold) for each building
BUILDING_COST = ((2, 0), (2, 2), (2, 2), (3, 3), (4, 4), (4, 4))
#: points for the 1st .. 6th building a player builds, whatever it is
BUILDING_POINTS = (0, 0, 5, 5, 5, 10)
PADDOCK_BONUS = 1  # camels
SHOP_BONUS = 2  # gold
HAMMAM_FREE_STEPS = 3
HOIST_BONUS = 1  # cubes
BAZAAR_BONUS = 2  # points per completed souk at the end of a week


def building_name(b: int) -> str:
    """A building's name as a player calls it."""
    names = (_("Paddock"), _("Shop"), _("Hammam"), _("Caravanserai"), _("Bazaar"), _("Hoist"))
    return names[b]


def building_text(b: int) -> str:
    """Cost and power of a building, in a few words."""
    texts = (
        _("2 camels; +1 camel on take camels"),
        _("2 camels 2 gold; +2 gold on take gold"),
        _("2 camels 2 gold; supervisor +/-3 free"),
        _("3 camels 3 gold; a card per cube sent to the caravan"),
        _("4 camels 4 gold; +2 per completed souk each week"),
        _("4 camels 4 gold; +1 cube on deliver"),
    )
    return texts[b]
